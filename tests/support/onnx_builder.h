// Builds ONNX ModelProtos in C++ for loader tests (synthetic graphs, malformed models).
// Owned by the loader tests; see tests/onnx/.
#ifndef TIGRIS_TESTS_SUPPORT_ONNX_BUILDER_H_
#define TIGRIS_TESTS_SUPPORT_ONNX_BUILDER_H_

#include <onnx/onnx_pb.h>

#include <string>

namespace tigris::testing {

// Serializes a model to bytes.
std::string SerializeModel(const onnx::ModelProto& model);

}  // namespace tigris::testing

#endif  // TIGRIS_TESTS_SUPPORT_ONNX_BUILDER_H_
