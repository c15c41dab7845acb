#include "support/onnx_builder.h"

namespace tigris::testing {

std::string SerializeModel(const onnx::ModelProto& model) {
  std::string bytes;
  model.SerializeToString(&bytes);
  return bytes;
}

}  // namespace tigris::testing
