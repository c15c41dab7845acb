// ONNX AttributeProto -> ir::Attributes.
#ifndef TIGRIS_ONNX_ATTRIBUTE_IMPORT_H_
#define TIGRIS_ONNX_ATTRIBUTE_IMPORT_H_

#include <onnx/onnx_pb.h>

#include "ir/attributes.h"

namespace tigris::onnx_import {

// INT -> int64, FLOAT -> float, STRING -> string, INTS -> vector<int64>, FLOATS ->
// vector<float>. TENSOR attributes are not copied: the only ops of our vocabulary that
// carry one (Constant, ConstantOfShape) are materialized by graph_import.cc. Other kinds
// (GRAPH, STRINGS, SPARSE_TENSOR, TYPE_PROTO) belong to ops we do not accept and are
// dropped.
ir::Attributes ImportAttributes(const onnx::NodeProto& node);

}  // namespace tigris::onnx_import

#endif  // TIGRIS_ONNX_ATTRIBUTE_IMPORT_H_
