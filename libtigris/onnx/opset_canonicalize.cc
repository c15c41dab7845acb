#include "onnx/opset_canonicalize.h"

namespace tigris::onnx_import {
namespace {

void SetInput(ir::Op& op, size_t index, ir::TensorId id) {
  if (op.inputs.size() <= index) op.inputs.resize(index + 1, ir::kNoTensor);
  op.inputs[index] = id;
}

// Moves an INTS attribute into input `index` as an int64 vector constant.
void IntsToInput(ir::Op& op, const std::string& attr, size_t index, const ConstantMaker& make) {
  if (!op.attrs.Has(attr)) return;
  std::vector<int64_t> values = op.attrs.GetInts(attr);
  op.attrs.Erase(attr);
  int64_t n = static_cast<int64_t>(values.size());
  SetInput(op, index, make(op.name + "_" + attr, ir::DType::kInt64, {n}, ir::ElementBytes(values)));
}

// Moves a FLOAT attribute into input `index` as a float32 scalar constant. Old Clip and
// Pad only accept float tensors, so float32 is the dtype their bounds were written in.
void FloatToInput(ir::Op& op, const std::string& attr, size_t index, const ConstantMaker& make) {
  if (!op.attrs.Has(attr)) return;
  std::vector<float> value = {op.attrs.GetFloat(attr)};
  op.attrs.Erase(attr);
  SetInput(op, index, make(op.name + "_" + attr, ir::DType::kFloat32, {}, ir::ElementBytes(value)));
}

}  // namespace

void CanonicalizeOpsetForm(ir::Op& op, int64_t opset, const ConstantMaker& make) {
  switch (op.type) {
    case ir::OpType::kClip:
      if (opset < 11) {
        FloatToInput(op, "min", 1, make);
        FloatToInput(op, "max", 2, make);
      }
      break;
    case ir::OpType::kPad:
      if (opset < 11) {
        IntsToInput(op, "pads", 1, make);
        IntsToInput(op, "paddings", 1, make);  // Pad-1 spelled it this way
        FloatToInput(op, "value", 2, make);
      }
      break;
    case ir::OpType::kSqueeze:
    case ir::OpType::kUnsqueeze:
      if (opset < 13) IntsToInput(op, "axes", 1, make);
      break;
    case ir::OpType::kReduceSum:  // axes became an input in opset 13, the others' in 18
      if (opset < 13) IntsToInput(op, "axes", 1, make);
      break;
    case ir::OpType::kSplit:
      if (opset < 13) IntsToInput(op, "split", 1, make);
      break;
    case ir::OpType::kSlice:
      if (opset < 10) {
        IntsToInput(op, "starts", 1, make);
        IntsToInput(op, "ends", 2, make);
        IntsToInput(op, "axes", 3, make);
      }
      break;
    case ir::OpType::kReshape:
      if (opset < 5) IntsToInput(op, "shape", 1, make);
      break;
    case ir::OpType::kArgMax:
    case ir::OpType::kArgMin: {
      // Every opset: `axis` (default 0) becomes the REDUCE kind's input 1, axes = [axis].
      const std::vector<int64_t> axes = {op.attrs.GetInt("axis", 0)};
      op.attrs.Erase("axis");
      if (op.inputs.size() > 1) break;  // ONNX ArgMax has one input; the shape rule says so
      SetInput(op, 1, make(op.name + "_axes", ir::DType::kInt64, {1}, ir::ElementBytes(axes)));
      break;
    }
    case ir::OpType::kResize:
      // Resize-10 is (X, scales); from 11 on it is (X, roi, scales, sizes).
      if (opset < 11 && op.inputs.size() == 2) {
        op.inputs = {op.inputs[0], ir::kNoTensor, op.inputs[1]};
      }
      break;
    default:
      // The other reductions of the op table (ReduceMean, ReduceMax, ...) took axes as an
      // input in opset 18.
      if (ir::IsReduceOp(op.type) && opset < 18) IntsToInput(op, "axes", 1, make);
      break;
  }
}

}  // namespace tigris::onnx_import
