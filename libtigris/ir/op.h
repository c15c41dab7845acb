// An operation node of the IR.
#ifndef TIGRIS_IR_OP_H_
#define TIGRIS_IR_OP_H_

#include <string>
#include <string_view>
#include <vector>

#include "ir/attributes.h"
#include "ir/op_type.h"
#include "ir/tensor.h"

namespace tigris::ir {

// Activation absorbed into the producing op by the "activation fuse" pass.
enum class Activation : uint8_t { kNone = 0, kRelu, kRelu6 };
std::string_view ActivationName(Activation activation);  // "none", "relu", "relu6"

struct Op {
  OpType type = OpType::kIdentity;
  std::string name;              // the ONNX node name (made unique by the loader)
  std::vector<TensorId> inputs;  // positional, as in ONNX; absent optionals = kNoTensor
  std::vector<TensorId> outputs;
  Attributes attrs;
  Activation fused_activation = Activation::kNone;

  // Input i, or kNoTensor when the op has fewer inputs.
  TensorId input(size_t i) const { return i < inputs.size() ? inputs[i] : kNoTensor; }
};

}  // namespace tigris::ir

#endif  // TIGRIS_IR_OP_H_
