// Invariant 6 of the normalization verifier (verify.cc): every op is in a form the runtime
// executes. The runtime refuses anything else at run time (TGRS_ERR_UNSUPPORTED_OP or a
// kernel's TGRS_ERR_KERNEL_REJECTED), which is too late: a plan that `compile` wrote must run,
// and `analyze` must not call a model that fits when no plan of it can run (the verdict
// promise). So the compiler states here, op by op, the forms the runtime's op functions
// accept, each rule naming the runtime check it mirrors; ONNX's own conformance cases
// (tests/conformance/onnx_conformance.py) hold the two together: a plan the runtime refuses
// after compile accepted it fails that test.
//
// Until the op table of issue 38 states these forms once for compiler and runtime, this file
// is the compiler's single statement of them.
#include <algorithm>
#include <string>
#include <vector>

#include "ir/recurrent.h"
#include "ir/shape.h"
#include "ir/slice.h"
#include "ir/tensor.h"
#include "passes/pass.h"
#include "passes/passes.h"
#include "passes/rewrite_util.h"
#include "util/error.h"

namespace tigris::passes {
namespace {

[[noreturn]] void Refuse(const ir::Graph& graph, const ir::Op& op, const std::string& why) {
  throw Error(Status::kUnsupportedOp, DescribeOp(op) + " in model '" + graph.name + "': " + why);
}

std::string Quoted(const ir::Tensor& t) { return "'" + t.name + "'"; }

// The activation dtypes of the runtime's kernels: float32 and int8 (runtime/src/ops_*.c
// call tgrs_call_is_f32 / tgrs_call_is_s8 and refuse the rest). Integer tensors appear only
// as a Gather's indices (verify.cc, invariant 5), and around the logic ops below.
bool KernelDType(ir::DType dtype) {
  return dtype == ir::DType::kFloat32 || dtype == ir::DType::kInt8;
}

// The ops of tgrs_op_logical (runtime/src/ops_logical.c): comparisons, Not, And, Or, Xor,
// Where and Cast, over float32, int32, int64 and bool.
bool IsLogicOp(ir::OpType type) {
  return ir::IsComparisonOp(type) || type == ir::OpType::kNot || type == ir::OpType::kAnd ||
         type == ir::OpType::kOr || type == ir::OpType::kXor || type == ir::OpType::kWhere ||
         type == ir::OpType::kCast;
}

bool LogicDType(ir::DType dtype) {
  return dtype == ir::DType::kFloat32 || dtype == ir::DType::kInt32 || dtype == ir::DType::kInt64 ||
         dtype == ir::DType::kBool;
}

[[noreturn]] void RefuseDType(const ir::Graph& graph, const ir::Op& op, const ir::Tensor& t,
                              const std::string& why) {
  throw Error(Status::kUnsupportedDType, DescribeOp(op) + " in model '" + graph.name + "': " + "'" +
                                             t.name + "' is " +
                                             std::string(ir::DTypeName(t.dtype)) + "; " + why);
}

// tgrs_op_logical: a comparison reads two operands of one dtype (Greater and the others
// numbers, Equal also bool) and writes bool; Not, And, Or and Xor read and write bool; Where
// reads a bool condition and X, Y in its output's dtype (also quantized int8, each on its
// own grid); Cast converts any of them to any.
void CheckLogic(const ir::Graph& graph, const ir::Op& op) {
  const ir::Tensor& out = graph.tensor(op.outputs.at(0));
  const ir::Tensor& x = graph.tensor(op.input(0));
  if (op.type == ir::OpType::kCast) return;  // CheckActivations checked both dtypes
  if (ir::IsComparisonOp(op.type)) {
    const ir::Tensor& y = graph.tensor(op.input(1));
    if (x.dtype != y.dtype) {
      RefuseDType(graph, op, y,
                  "the runtime compares two operands of one dtype (the first is " +
                      std::string(ir::DTypeName(x.dtype)) + ")");
    }
    if (x.dtype == ir::DType::kBool && op.type != ir::OpType::kEqual) {
      RefuseDType(graph, op, x, "only Equal compares bool values");
    }
    return;
  }
  if (op.type == ir::OpType::kWhere) {
    if (x.dtype != ir::DType::kBool) RefuseDType(graph, op, x, "Where's condition must be bool");
    for (size_t i = 1; i < 3; ++i) {
      const ir::Tensor& t = graph.tensor(op.input(i));
      if (t.dtype != out.dtype) {
        RefuseDType(graph, op, t,
                    "the runtime's Where picks from X and Y in its output's dtype (" +
                        std::string(ir::DTypeName(out.dtype)) + ")");
      }
    }
    for (ir::TensorId id : {op.input(1), op.input(2), op.outputs[0]}) {
      const ir::Tensor& t = graph.tensor(id);
      if (t.dtype == ir::DType::kInt8 && t.quant && t.quant->per_channel()) {
        throw Error(Status::kUnsupportedQuantization,
                    DescribeOp(op) + " in model '" + graph.name + "': " + Quoted(t) +
                        " is quantized per channel; the runtime's int8 Where takes one scale "
                        "per tensor");
      }
    }
    return;
  }
  for (ir::TensorId id : op.inputs) {  // Not, And, Or, Xor
    const ir::Tensor& t = graph.tensor(id);
    if (t.dtype != ir::DType::kBool) RefuseDType(graph, op, t, "logic ops read bool");
  }
}

void CheckActivations(const ir::Graph& graph, const ir::Op& op) {
  const auto check = [&](ir::TensorId id, const char* role) {
    if (id == ir::kNoTensor || graph.IsConstant(id)) return;
    const ir::Tensor& t = graph.tensor(id);
    // tgrs_operand_dims (runtime/src/op_params.c): activations are held as [N, H, W, C].
    if (t.shape.size() > 4) {
      Refuse(graph, op,
             std::string(role) + " " + Quoted(t) + " has rank " + std::to_string(t.shape.size()) +
                 " (" + ir::ShapeToString(t.shape) +
                 "); the runtime holds activations of rank <= 4");
    }
    // tgrs_op_reshape moves bytes of any dtype: ArgMax's int64 (or a .tflite's int32)
    // indices too (reduce-keepdims reshapes them), and bool masks.
    // So do the rearrangements (tgrs_op_rearrange) and GatherElements.
    const bool mover = op.type == ir::OpType::kReshape || op.type == ir::OpType::kTile ||
                       op.type == ir::OpType::kGatherElements || op.type == ir::OpType::kExpand ||
                       op.type == ir::OpType::kDepthToSpace || op.type == ir::OpType::kSpaceToDepth;
    const bool moved = mover && (t.dtype == ir::DType::kInt64 || t.dtype == ir::DType::kInt32 ||
                                 t.dtype == ir::DType::kBool);
    // CumSum also sums int32 and int64 (tgrs_cumsum).
    const bool integer_sum = op.type == ir::OpType::kCumSum &&
                             (t.dtype == ir::DType::kInt32 || t.dtype == ir::DType::kInt64);
    // An int8 Where selects quantized X and Y (tgrs_where_s8; per tensor, CheckLogic).
    const bool int8_where =
        op.type == ir::OpType::kWhere && t.dtype == ir::DType::kInt8 && t.quant.has_value();
    if (IsLogicOp(op.type)) {
      if (!LogicDType(t.dtype) && !int8_where) {
        Refuse(graph, op,
               std::string(role) + " " + Quoted(t) + " is " + std::string(ir::DTypeName(t.dtype)) +
                   "; the runtime's comparisons, logic ops, Where and Cast take float32, int32, "
                   "int64 and bool (Where also quantized int8)");
      }
    } else if (!KernelDType(t.dtype) && !moved && !integer_sum) {
      Refuse(graph, op,
             std::string(role) + " " + Quoted(t) + " is " + std::string(ir::DTypeName(t.dtype)) +
                 " without quantization; the runtime computes float32 and quantized int8");
    }
  };
  for (size_t i = 0; i < op.inputs.size(); ++i) {
    if (op.type == ir::OpType::kGather && i == 1) continue;          // indices (invariant 5)
    if (op.type == ir::OpType::kGatherElements && i == 1) continue;  // int32/int64 indices
    // a recurrent op's int32 sequence lengths (CheckRecurrent)
    if (ir::IsRecurrentOp(op.type) && i == ir::kRecurrentSequenceLens) continue;
    check(op.inputs[i], "input");
  }
  // ArgMax / ArgMin write int64 or int32 indices (tgrs_arg_extreme).
  if (op.type == ir::OpType::kArgMax || op.type == ir::OpType::kArgMin) return;
  for (ir::TensorId id : op.outputs) check(id, "output");
}

// Weighted ops read their filter (and bias) from the plan's weights, laid out at compile
// time (emit/weight_layout.cc): a filter computed at run time has no layout to run with.
void CheckConstantWeights(const ir::Graph& graph, const ir::Op& op) {
  for (size_t i = 1; i < op.inputs.size() && i <= 2; ++i) {
    const ir::TensorId id = op.inputs[i];
    if (id != ir::kNoTensor && !graph.IsConstant(id)) {
      Refuse(graph, op,
             std::string(i == 1 ? "its weights " : "its bias ") + Quoted(graph.tensor(id)) +
                 " are computed at run time; the runtime runs convolutions with constant "
                 "weights and bias");
    }
  }
}

size_t InputRank(const ir::Graph& graph, const ir::Op& op) {
  return graph.tensor(op.input(0)).shape.size();
}

// tgrs_op_pool (runtime/src/ops_pool.c): a rank-4 input and a 2-D window.
void CheckPool(const ir::Graph& graph, const ir::Op& op) {
  const size_t rank = InputRank(graph, op);
  if (rank != 4) {
    Refuse(graph, op,
           "pools a rank-" + std::to_string(rank) +
               " input; the runtime pools 2-D maps ([N, C, H, W]) only");
  }
}

// tgrs_op_conv_transpose (runtime/src/ops_conv.c): 2-D, one group.
void CheckConvTranspose(const ir::Graph& graph, const ir::Op& op) {
  const size_t rank = InputRank(graph, op);
  if (rank != 4) {
    Refuse(graph, op,
           "transposes a convolution over a rank-" + std::to_string(rank) +
               " input; the runtime's ConvTranspose is 2-D ([N, C, H, W])");
  }
  const int64_t group = op.attrs.GetInt("group", 1);
  if (group != 1) {
    Refuse(graph, op,
           "group = " + std::to_string(group) + "; the runtime's ConvTranspose has one group");
  }
}

// tgrs_op_gemm (runtime/src/ops_dense.c): a MatMul of two matrices is a fully connected
// layer (constant B) or tgrs_matmul_* (two activations), float32 or int8; any other MatMul
// of ranks 1 to 4 with at most two batch axes runs through strides
// (tgrs_matmul_strided_{s8,f32}): float32, or int8 requantized per column of B, so a
// per-channel B must be a constant matrix quantized along its columns (N), as
// quantize_static writes one.
void CheckMatMul(const ir::Graph& graph, const ir::Op& op) {
  const ir::Tensor& a = graph.tensor(op.input(0));
  const ir::Tensor& b = graph.tensor(op.input(1));
  if (a.shape.size() == 2 && b.shape.size() == 2) return;
  const std::string what = "multiplies " + Quoted(a) + " " + ir::ShapeToString(a.shape) + " by " +
                           Quoted(b) + " " + ir::ShapeToString(b.shape);
  const bool float32 = a.dtype == ir::DType::kFloat32 && b.dtype == ir::DType::kFloat32;
  const bool int8 = a.dtype == ir::DType::kInt8 && b.dtype == ir::DType::kInt8;
  if (!float32 && !int8) {
    Refuse(graph, op,
           what + " in " + std::string(ir::DTypeName(a.dtype)) + " and " +
               std::string(ir::DTypeName(b.dtype)) +
               "; the runtime multiplies float32 by float32 or int8 by int8");
  }
  if (int8 && b.quant && b.quant->per_channel()) {
    const int64_t rank = static_cast<int64_t>(b.shape.size());
    const int64_t axis = b.quant->axis < 0 ? b.quant->axis + rank : b.quant->axis;
    if (rank != 2 || axis != 1) {
      Refuse(graph, op,
             what + " with " + Quoted(b) + " quantized per channel along axis " +
                 std::to_string(b.quant->axis) +
                 "; the runtime requantizes per column of a [K, N] matrix (axis 1)");
    }
  }
  const size_t batch_a = a.shape.size() > 2 ? a.shape.size() - 2 : 0;
  const size_t batch_b = b.shape.size() > 2 ? b.shape.size() - 2 : 0;
  if (a.shape.empty() || b.shape.empty() || std::max(batch_a, batch_b) > 2) {
    Refuse(graph, op, what + "; the runtime's MatMul takes ranks 1 to 4");
  }
}

// tgrs_op_pad (runtime/src/ops_shape.c): rank 4, N never padded, modes constant, reflect
// and edge.
void CheckPad(const ir::Graph& graph, const ir::Op& op) {
  const size_t rank = InputRank(graph, op);
  if (rank != 4) {
    Refuse(graph, op, "pads a rank-" + std::to_string(rank) + " input; the runtime pads rank 4");
  }
  const std::string mode = op.attrs.GetString("mode", "constant");
  if (mode != "constant" && mode != "reflect" && mode != "edge") {
    Refuse(graph, op,
           "mode = '" + mode + "'; the runtime pads in modes constant, reflect and edge");
  }
  std::vector<int64_t> given = op.attrs.GetInts("pads");
  if (given.empty() && graph.IsConstant(op.input(1))) {
    given = ir::ConstantAsInt64s(graph.tensor(op.input(1)));
  }
  std::vector<int64_t> axes;
  if (graph.IsConstant(op.input(3))) axes = ir::ConstantAsInt64s(graph.tensor(op.input(3)));
  std::vector<int64_t> pads;
  if (ir::ResolvePads(rank, given, axes, &pads).empty() && (pads[0] != 0 || pads[rank] != 0)) {
    Refuse(graph, op, "pads the batch axis; the runtime pads H, W and C");
  }
  for (int64_t p : pads) {
    if (p < 0) Refuse(graph, op, "crops (a negative pad); the runtime's Pad only adds");
  }
}

// resize_params (runtime/src/ops_shape.c): rank 4, the modes and coordinate transforms it
// names.
void CheckResize(const ir::Graph& graph, const ir::Op& op) {
  const size_t rank = InputRank(graph, op);
  if (rank != 4) {
    Refuse(graph, op,
           "resizes a rank-" + std::to_string(rank) + " input; the runtime resizes rank 4");
  }
  const std::string mode = op.attrs.GetString("mode", "nearest");
  if (mode != "nearest" && mode != "linear") {
    Refuse(graph, op, "mode = '" + mode + "'; the runtime resizes in modes nearest and linear");
  }
  const std::string ctm = op.attrs.GetString("coordinate_transformation_mode", "half_pixel");
  if (ctm != "half_pixel" && ctm != "asymmetric" && ctm != "align_corners" &&
      ctm != "pytorch_half_pixel") {
    Refuse(graph, op,
           "coordinate_transformation_mode = '" + ctm +
               "'; the runtime has half_pixel, asymmetric, align_corners and pytorch_half_pixel");
  }
  const std::string nearest = op.attrs.GetString("nearest_mode", "round_prefer_floor");
  if (mode == "nearest" && nearest != "round_prefer_floor" && nearest != "round_prefer_ceil" &&
      nearest != "floor" && nearest != "ceil") {
    Refuse(graph, op, "nearest_mode = '" + nearest + "' is not one the runtime has");
  }
}

// The runtime's RESHAPE copies bytes, or transposes one view (emit/op_attrs.cc,
// ReshapeAttrs): when both shapes are held channels-last and their bytes differ, the
// reorder would need two transposes. reshape-split makes such a Reshape two, so this
// guards the pipeline's order.
void CheckReshape(const ir::Graph& graph, const ir::Op& op) {
  const ir::Shape& in = graph.tensor(op.input(0)).shape;
  const ir::Shape& out = graph.tensor(op.outputs[0]).shape;
  if (ir::PermKeepsBytes(in, ir::RuntimeLayout(in.size())) ||
      ir::PermKeepsBytes(out, ir::RuntimeLayout(out.size())) || in == out ||
      ir::ReshapeKeepsRuntimeBytes(in, out)) {
    return;
  }
  Refuse(graph, op,
         "Reshape " + ir::ShapeToString(in) + " -> " + ir::ShapeToString(out) +
             " between two channels-last layouts needs two transposes; the runtime's Reshape "
             "makes one");
}

// tgrs_op_quantize (runtime/src/ops_misc.c): one scale and zero point per tensor.
void CheckQuantizeEdge(const ir::Graph& graph, const ir::Op& op) {
  const ir::TensorId int8_side = op.type == ir::OpType::kQuantize ? op.outputs[0] : op.input(0);
  const ir::Tensor& t = graph.tensor(int8_side);
  if (t.quant && t.quant->per_channel()) {
    Refuse(graph, op,
           Quoted(t) + " is quantized per channel (axis " + std::to_string(t.quant->axis) +
               "); the runtime converts between float32 and int8 with one scale per tensor");
  }
}

// tgrs_reduce_s8 (runtime/kernels/reduce.c) computes Sum, Mean, Max and Min, and
// tgrs_arg_extreme ArgMax and ArgMin; the other reductions run in float32 only.
void CheckReduce(const ir::Graph& graph, const ir::Op& op) {
  const bool int8 = graph.tensor(op.input(0)).dtype == ir::DType::kInt8;
  const bool kernel = op.type == ir::OpType::kReduceSum || op.type == ir::OpType::kReduceMean ||
                      op.type == ir::OpType::kReduceMax || op.type == ir::OpType::kReduceMin ||
                      op.type == ir::OpType::kArgMax || op.type == ir::OpType::kArgMin;
  if (int8 && !kernel) {
    Refuse(graph, op,
           "int8 input " + Quoted(graph.tensor(op.input(0))) +
               ": the runtime reduces int8 by Sum, Mean, Max, Min, ArgMax and ArgMin; run this "
               "one in float32");
  }
}

// tgrs_op_binary (runtime/src/ops_elementwise.c): both operands in the output's dtype (a
// constant too: an integer exponent of Pow is not converted), and int8 for Add, Sub, Mul,
// Max and Min only.
void CheckBinary(const ir::Graph& graph, const ir::Op& op) {
  const ir::Tensor& out = graph.tensor(op.outputs.at(0));
  for (ir::TensorId id : op.inputs) {
    const ir::Tensor& t = graph.tensor(id);
    if (t.dtype != out.dtype) {
      throw Error(Status::kUnsupportedDType,
                  DescribeOp(op) + " in model '" + graph.name + "': operand " + Quoted(t) + " is " +
                      std::string(ir::DTypeName(t.dtype)) + " and its output " + Quoted(out) + " " +
                      std::string(ir::DTypeName(out.dtype)) +
                      "; the runtime's binary ops take both operands in the output's dtype");
    }
  }
  const bool int8_kernel = op.type == ir::OpType::kAdd || op.type == ir::OpType::kSub ||
                           op.type == ir::OpType::kMul || op.type == ir::OpType::kMax ||
                           op.type == ir::OpType::kMin;
  if (out.dtype == ir::DType::kInt8 && !int8_kernel) {
    throw Error(Status::kUnsupportedQuantization,
                DescribeOp(op) + " in model '" + graph.name + "': int8 output " + Quoted(out) +
                    "; the runtime has int8 Add, Sub, Mul, Max and Min, and runs " +
                    std::string(ir::OpTypeName(op.type)) + " in float32 only");
  }
}

// tgrs_op_scan (runtime/src/ops_scan.c): Hardmax in float32 along one axis, CumSum in
// float32, int32 or int64.
void CheckScan(const ir::Graph& graph, const ir::Op& op) {
  const ir::Tensor& x = graph.tensor(op.input(0));
  if (x.dtype == ir::DType::kInt8) {
    Refuse(graph, op,
           "int8 input " + Quoted(x) + ": the runtime computes " +
               std::string(ir::OpTypeName(op.type)) + " in float32" +
               (op.type == ir::OpType::kCumSum ? ", int32 or int64" : "") + "; run it in float32");
  }
  if (op.type == ir::OpType::kHardmax && graph.opset != 0 && graph.opset < 13) {
    const int64_t rank = static_cast<int64_t>(x.shape.size());
    int64_t axis = op.attrs.GetInt("axis", 1);
    if (axis < 0) axis += rank;
    if (axis != rank - 1) {
      Refuse(graph, op,
             "axis " + std::to_string(axis) + " of a rank-" + std::to_string(rank) +
                 " input before opset 13: Hardmax then works on the 2-D coercion of every axis "
                 "from it on; the runtime's Hardmax is along one axis");
    }
  }
}

// tgrs_op_recurrent (runtime/src/ops_recurrent.c): float32, W, R, B and P constants in
// ONNX's layout, the gate functions it knows, a positive clip, no coupled input and forget
// gates.
void CheckRecurrent(const ir::Graph& graph, const ir::Op& op) {
  const ir::Tensor& x = graph.tensor(op.input(ir::kRecurrentX));
  if (x.dtype != ir::DType::kFloat32) {
    Refuse(graph, op,
           "input " + Quoted(x) + " is " + std::string(ir::DTypeName(x.dtype)) +
               "; the runtime computes recurrent layers in float32 (onnxruntime's "
               "quantize_static leaves them float too)");
  }
  for (size_t i : {ir::kRecurrentW, ir::kRecurrentR, ir::kRecurrentB, ir::kRecurrentP}) {
    const ir::TensorId id = op.input(i);
    if (id != ir::kNoTensor && !graph.IsConstant(id)) {
      Refuse(graph, op,
             "input " + std::to_string(i) + " " + Quoted(graph.tensor(id)) +
                 " is computed at run time; the runtime reads W, R, B and P as constants");
    }
  }
  if (op.attrs.GetInt("input_forget", 0) != 0) {
    Refuse(graph, op, "input_forget = 1 (coupled input and forget gates) is not implemented");
  }
  if (op.attrs.Has("clip") && !(op.attrs.GetFloat("clip") > 0.0f)) {
    throw Error(Status::kInvalidModel, DescribeOp(op) + " in model '" + graph.name + "': clip " +
                                           std::to_string(op.attrs.GetFloat("clip")) +
                                           " (a cell clip threshold must be positive)");
  }
  const std::vector<int64_t>& r = graph.tensor(op.input(ir::kRecurrentR)).shape;
  std::vector<ir::RecurrentFunction> functions;
  const std::string error = ir::ResolveRecurrentFunctions(op, r.empty() ? 1 : r[0], &functions);
  if (!error.empty()) Refuse(graph, op, error);
}

}  // namespace

void CheckRuntimeForms(const ir::Graph& graph) {
  for (const ir::Op& op : graph.ops) {
    CheckActivations(graph, op);
    switch (op.type) {
      case ir::OpType::kConv:
      case ir::OpType::kDepthwiseConv:
      case ir::OpType::kConv1D:
        CheckConstantWeights(graph, op);
        break;
      case ir::OpType::kConvTranspose:
        CheckConstantWeights(graph, op);
        CheckConvTranspose(graph, op);
        break;
      case ir::OpType::kMaxPool:
      case ir::OpType::kAveragePool:
        CheckPool(graph, op);
        break;
      case ir::OpType::kMatMul:
        CheckMatMul(graph, op);
        break;
      case ir::OpType::kPad:
        CheckPad(graph, op);
        break;
      case ir::OpType::kResize:
        CheckResize(graph, op);
        break;
      case ir::OpType::kReshape:
        CheckReshape(graph, op);
        break;
      case ir::OpType::kQuantize:
      case ir::OpType::kDequantize:
        CheckQuantizeEdge(graph, op);
        break;
      case ir::OpType::kHardmax:
      case ir::OpType::kCumSum:
        CheckScan(graph, op);
        break;
      case ir::OpType::kRNN:
      case ir::OpType::kGRU:
      case ir::OpType::kLSTM:
        CheckRecurrent(graph, op);
        break;
      case ir::OpType::kGelu: {
        // tgrs_op_math's two forms (ONNX Gelu-20 defines no others).
        const std::string approximate = op.attrs.GetString("approximate", "none");
        if (approximate != "none" && approximate != "tanh") {
          throw Error(Status::kInvalidModel, DescribeOp(op) + " in model '" + graph.name +
                                                 "': approximate = '" + approximate +
                                                 "'; ONNX Gelu defines 'none' and 'tanh'");
        }
        break;
      }
      default:
        if (ir::IsReduceOp(op.type)) CheckReduce(graph, op);
        if (IsLogicOp(op.type)) {
          CheckLogic(graph, op);
        } else if (ir::IsBinaryOp(op.type)) {
          CheckBinary(graph, op);
        }
        break;
    }
  }
}

}  // namespace tigris::passes
