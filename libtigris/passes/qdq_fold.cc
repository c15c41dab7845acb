// qdq-fold (tigris-compilation-pipeline.txt, stage 2, pass 2): ONNX QuantizeLinear /
// DequantizeLinear pairs become quantization annotations on int8 tensors; the ops between
// them then read and write those int8 tensors directly. Targets the QDQ format that
// onnxruntime.quantization.quantize_static writes (per-channel int8 weights, int8 or uint8
// activations, int32 biases through DequantizeLinear).
//
//   before:
//     x[1,3,8,8] f32 -> QuantizeLinear(s_x, zp_x) -> xq u8 -> DequantizeLinear -> xd f32
//     w_q[4,3,3,3] i8 (constant) -> DequantizeLinear(s_w[4], zp_w[4], axis=0) -> wd f32
//     b_q[4] i32 (constant) -> DequantizeLinear(s_x * s_w[4], 0, axis=0) -> bd f32
//     Conv(xd, wd, bd) -> y f32 -> QuantizeLinear(s_y, zp_y) -> yq u8 -> DequantizeLinear -> out
//   after:
//     x[1,3,8,8] i8 {s_x, zp_x - 128}            (graph input: the host quantizes; name "x")
//     w_q i8 {s_w[4], zp_w[4], axis 0}  b_q i32 {s_x * s_w[4], 0, axis 0}
//     Conv(x, w_q, b_q) -> out i8 {s_y, zp_y - 128}    (graph output keeps the name "out")
//
// How each piece folds:
//  - An op is *int8* when every data input is a DequantizeLinear output and every used
//    output is read only by QuantizeLinear nodes with equal parameters (and is no graph
//    output). It reads the quantized tensors and writes the Q's output tensor. Constant
//    int64 operands (shapes, axes) and float constants at parameter positions (Clip
//    bounds, Pad value, Resize scales, BatchNormalization statistics) do not count as
//    data: they configure the op. This covers ops that do not change quantization
//    (MaxPool, Reshape, Relu, Concat, ...) exactly like Conv: they read and write annotated
//    int8 tensors.
//  - Constants through DequantizeLinear: read by an int8 op at a data position they become
//    the annotated integer constant (weights int8 per channel with the DQ's axis, biases
//    int32 with their scale); at a parameter position, or read by a float op, the DQ is
//    evaluated now into a float32 constant (exact: it is what ONNX computes).
//  - Every other op is *float*: float islands keep their boundary as the runtime ops
//    kDequantize (int8 -> f32, where a DequantizeLinear was) and kQuantize (f32 -> int8,
//    where a QuantizeLinear was); their parameters live on the int8 tensor. So every op
//    sees one dtype: an op mixing int8 and float data inputs is never created. Except
//    ArgMax / ArgMin, whose int64 indices are no float: they read the int8 codes of a
//    per-tensor quantized input (monotone), and no Dequantize is made for them.
//  - Graph inputs read only by one QuantizeLinear become that int8 tensor (the host
//    quantizes), graph outputs written by a DequantizeLinear become the int8 tensor; both
//    keep their public names (the float tensor is renamed "<name>_float").
//  - uint8 -> int8: the runtime only has int8 kernels (DESIGN.md: TFLite/CMSIS-NN style
//    arithmetic), and (q - zp) * s == ((q - 128) - (zp - 128)) * s, so uint8 tensors
//    become int8 with zero points lowered by 128 and constant bytes shifted by -128: the
//    real values are unchanged (ir/quant.h). A uint8 graph input or output keeps uint8
//    for the caller (host_dtype; the runtime converts as it copies).
//  - Scale and zero-point constants are shared by many Q/DQ nodes; the pass only stops
//    referring to them and the pipeline's Graph::Compact() drops them (deferred cleanup,
//    reference pass 2).
//
// What cannot be folded throws Error(kUnsupportedQuantization) naming the node: a
// DequantizeLinear reading a tensor some other op computes, a QuantizeLinear read by
// anything but DequantizeLinear, a Q -> DQ pair whose parameters differ, computed scales,
// blocked or non-8-bit quantization. After the pass no QuantizeLinear/DequantizeLinear
// remains.
#include <algorithm>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "passes/passes.h"
#include "passes/qdq_params.h"
#include "util/error.h"

namespace tigris::passes {
namespace {

using ir::OpType;
using ir::TensorId;

// Inputs that configure the op rather than carry activation data.
bool IsParameterInput(OpType type, size_t index) {
  if (ir::IsReduceOp(type)) return index >= 1;  // axes
  switch (type) {
    case OpType::kBatchNormalization:  // scale, bias, mean, variance
    case OpType::kClip:                // min, max
    case OpType::kPad:                 // pads, constant_value, axes
    case OpType::kResize:              // roi, scales, sizes
    case OpType::kUpsample:
    case OpType::kReshape:
    case OpType::kSqueeze:
    case OpType::kUnsqueeze:
    case OpType::kSlice:
    case OpType::kGather:
      return index >= 1;
    case OpType::kWhere:  // the bool condition selects; X and Y carry the values
      return index == 0;
    default:
      return false;
  }
}

bool IsFloat(ir::DType dtype) {
  return dtype == ir::DType::kFloat32 || dtype == ir::DType::kFloat16 ||
         dtype == ir::DType::kFloat64;
}

std::string Describe(const ir::Op& op) {
  return std::string(ir::OpTypeName(op.type)) + " node '" + op.name + "'";
}

enum class DqSource {
  kConstant,  // an integer constant (weights, biases)
  kPair,      // the output of a QuantizeLinear (activations)
  kRaw,       // an integer graph input
};

struct DqNode {
  size_t op = 0;
  QdqParams params;
  DqSource source = DqSource::kConstant;
  TensorId quantized = ir::kNoTensor;  // its input: the integer tensor
  TensorId annotated = ir::kNoTensor;  // kConstant: the annotated constant, once made
  bool materialized = false;           // kConstant: output turned into a float constant
};

struct QNode {
  size_t op = 0;
  QdqParams params;
};

class QdqFolder {
 public:
  explicit QdqFolder(ir::Graph& graph)
      : graph_(graph),
        producer_(graph.ProducerIndex()),
        consumers_(graph.ConsumerIndex()),
        dead_(graph.ops.size(), false),
        int8_(graph.ops.size(), false) {}

  void Run() {
    CollectQuantizes();
    CollectDequantizes();
    DecideInt8Ops();
    for (size_t i = 0; i < graph_.ops.size(); ++i) {
      if (int8_[i]) RewriteInt8Op(i);
    }
    FinishDequantizes();
    FinishQuantizes();
    graph_.EraseOps(dead_);
  }

 private:
  ir::Op& op(size_t i) { return graph_.ops[i]; }

  void CollectQuantizes() {
    for (size_t i = 0; i < graph_.ops.size(); ++i) {
      const ir::Op& q = op(i);
      if (q.type != OpType::kQuantizeLinear) continue;
      if (q.input(0) == ir::kNoTensor || q.outputs.size() != 1 || q.outputs[0] == ir::kNoTensor) {
        throw Error(Status::kInvalidModel, Describe(q) + " needs an input and one output");
      }
      QNode node{i, ReadQdqParams(graph_, q, graph_.tensor(q.outputs[0]))};
      if (node.params.quantized_dtype == ir::DType::kInt32) {
        throw Error(
            Status::kUnsupportedQuantization,
            Describe(q) + " quantizes an activation to int32; only int8 and uint8 are supported");
      }
      TensorId xq = q.outputs[0];
      for (int reader : consumers_[static_cast<size_t>(xq)]) {
        if (op(static_cast<size_t>(reader)).type != OpType::kDequantizeLinear) {
          throw Error(Status::kUnsupportedQuantization,
                      Describe(q) + " output '" + graph_.tensor(xq).name + "' is read by " +
                          Describe(op(static_cast<size_t>(reader))) +
                          "; only DequantizeLinear may read a quantized activation");
        }
      }
      ir::Tensor& t = graph_.tensor(xq);
      // A uint8 graph output stays uint8 for the caller (ir::Tensor::host_dtype).
      if (graph_.IsGraphOutput(xq) && node.params.quantized_dtype == ir::DType::kUInt8) {
        t.host_dtype = ir::DType::kUInt8;
      }
      t.dtype = RuntimeDType(node.params);
      t.quant = ToIrQuant(node.params);
      q_by_output_[xq] = qs_.size();
      qs_.push_back(std::move(node));
    }
  }

  void CollectDequantizes() {
    for (size_t i = 0; i < graph_.ops.size(); ++i) {
      const ir::Op& dq = op(i);
      if (dq.type != OpType::kDequantizeLinear) continue;
      TensorId in = dq.input(0);
      if (in == ir::kNoTensor || dq.outputs.size() != 1 || dq.outputs[0] == ir::kNoTensor) {
        throw Error(Status::kInvalidModel, Describe(dq) + " needs an input and one output");
      }
      DqNode node;
      node.op = i;
      node.quantized = in;
      node.params = ReadQdqParams(graph_, dq, graph_.tensor(in));
      const ir::Tensor& x = graph_.tensor(in);
      auto pair = q_by_output_.find(in);
      if (x.is_constant) {
        node.source = DqSource::kConstant;
        if (x.dtype != node.params.quantized_dtype) {
          throw Error(Status::kUnsupportedQuantization,
                      Describe(dq) + " reads " + std::string(ir::DTypeName(x.dtype)) +
                          " constant '" + x.name + "' with a " +
                          std::string(ir::DTypeName(node.params.quantized_dtype)) + " zero point");
        }
      } else if (pair != q_by_output_.end()) {
        node.source = DqSource::kPair;
        const QNode& q = qs_[pair->second];
        if (q.params != node.params) {
          throw Error(Status::kUnsupportedQuantization,
                      Describe(dq) + " dequantizes '" + x.name + "' with other parameters than " +
                          Describe(op(q.op)) + " quantized it with");
        }
      } else if (producer_[static_cast<size_t>(in)] < 0) {
        node.source = DqSource::kRaw;
        AnnotateRawInput(dq, node.params);
      } else {
        throw Error(Status::kUnsupportedQuantization,
                    Describe(dq) + " reads '" + x.name + "' computed by " +
                        Describe(op(static_cast<size_t>(producer_[static_cast<size_t>(in)]))) +
                        "; only QuantizeLinear outputs, constants and graph inputs can be "
                        "dequantized");
      }
      dq_by_output_[dq.outputs[0]] = dqs_.size();
      dqs_.push_back(std::move(node));
    }
  }

  // An integer graph input read through DequantizeLinear: annotate it in place.
  void AnnotateRawInput(const ir::Op& dq, const QdqParams& params) {
    ir::Tensor& x = graph_.tensor(dq.inputs[0]);
    if (params.quantized_dtype == ir::DType::kInt32 || x.dtype != params.quantized_dtype) {
      throw Error(Status::kUnsupportedQuantization,
                  Describe(dq) + " reads graph input '" + x.name + "' of dtype " +
                      std::string(ir::DTypeName(x.dtype)) +
                      "; expected int8 or uint8 matching its zero point");
    }
    ir::QuantParams quant = ToIrQuant(params);
    if (x.quant && !(*x.quant == quant)) {
      throw Error(Status::kUnsupportedQuantization,
                  Describe(dq) + " dequantizes graph input '" + x.name +
                      "' with other parameters than another DequantizeLinear does");
    }
    if (x.dtype == ir::DType::kUInt8) x.host_dtype = ir::DType::kUInt8;  // the caller's
    x.dtype = ir::DType::kInt8;
    x.quant = quant;
  }

  bool IsDqOutput(TensorId id) const { return dq_by_output_.count(id) != 0; }

  bool IsInt8Op(size_t i) {
    const ir::Op& o = op(i);
    if (o.type == OpType::kQuantizeLinear || o.type == OpType::kDequantizeLinear ||
        o.type == OpType::kQuantize || o.type == OpType::kDequantize) {
      return false;
    }
    bool reads_dq = false;
    for (size_t k = 0; k < o.inputs.size(); ++k) {
      TensorId in = o.inputs[k];
      if (in == ir::kNoTensor) continue;
      if (IsDqOutput(in)) {
        reads_dq = true;
        continue;
      }
      const ir::Tensor& t = graph_.tensor(in);
      if (t.is_constant && (!IsFloat(t.dtype) || IsParameterInput(o.type, k))) continue;
      // An integer run-time operand at a parameter position (Gather's indices) selects
      // what the op reads; it carries no quantized value.
      if (!IsFloat(t.dtype) && IsParameterInput(o.type, k)) continue;
      return false;  // a float activation or float data constant: the op computes in float
    }
    if (!reads_dq) return false;
    bool writes_q = false;
    for (TensorId out : o.outputs) {
      if (out == ir::kNoTensor) continue;
      if (graph_.IsGraphOutput(out)) return false;
      const QdqParams* first = nullptr;
      for (int reader : consumers_[static_cast<size_t>(out)]) {
        const ir::Op& r = op(static_cast<size_t>(reader));
        if (r.type != OpType::kQuantizeLinear || r.inputs[0] != out) return false;
        const QdqParams& p = qs_[q_by_output_.at(r.outputs[0])].params;
        if (first != nullptr && *first != p) return false;
        first = &p;
        writes_q = true;
      }
    }
    return writes_q;
  }

  void DecideInt8Ops() {
    for (size_t i = 0; i < graph_.ops.size(); ++i) int8_[i] = IsInt8Op(i);
  }

  void RewriteInt8Op(size_t i) {
    for (size_t k = 0; k < op(i).inputs.size(); ++k) {
      TensorId in = op(i).inputs[k];
      auto it = dq_by_output_.find(in);
      if (it == dq_by_output_.end()) continue;
      DqNode& dq = dqs_[it->second];
      if (dq.source != DqSource::kConstant) {
        op(i).inputs[k] = dq.quantized;
      } else if (IsParameterInput(op(i).type, k)) {
        MaterializeFloat(dq);  // the op keeps reading the DQ's output, now a float constant
      } else {
        op(i).inputs[k] = AnnotatedConstant(dq);
      }
    }
    for (size_t o = 0; o < op(i).outputs.size(); ++o) {
      TensorId out = op(i).outputs[o];
      if (out == ir::kNoTensor) continue;
      TensorId written = ir::kNoTensor;
      for (int reader : consumers_[static_cast<size_t>(out)]) {
        ir::Op& q = op(static_cast<size_t>(reader));
        dead_[static_cast<size_t>(reader)] = true;
        if (written == ir::kNoTensor) {
          written = q.outputs[0];
        } else {
          graph_.ReplaceUses(q.outputs[0], written);  // equal parameters: one tensor
        }
      }
      if (written != ir::kNoTensor) op(i).outputs[o] = written;
    }
  }

  // The DQ's output becomes a float32 constant holding the dequantized values.
  void MaterializeFloat(DqNode& dq) {
    if (dq.materialized) return;
    std::vector<float> values = DequantizeConstant(graph_.tensor(dq.quantized), dq.params);
    ir::Tensor& out = graph_.tensor(op(dq.op).outputs[0]);
    out.dtype = ir::DType::kFloat32;
    out.shape = graph_.tensor(dq.quantized).shape;
    out.quant.reset();
    out.is_constant = true;
    out.SetData(values);
    dq.materialized = true;
  }

  // The integer constant annotated with the DQ's parameters: the constant itself when only
  // DequantizeLinear nodes with these parameters read it, else an annotated copy.
  TensorId AnnotatedConstant(DqNode& dq) {
    if (dq.annotated != ir::kNoTensor) return dq.annotated;
    TensorId c = dq.quantized;
    bool only_dq_readers = !graph_.IsGraphOutput(c);
    for (int reader : consumers_[static_cast<size_t>(c)]) {
      if (op(static_cast<size_t>(reader)).type != OpType::kDequantizeLinear)
        only_dq_readers = false;
    }
    auto done = annotated_constants_.find(c);
    if (only_dq_readers && done == annotated_constants_.end()) {
      ir::Tensor& t = graph_.tensor(c);
      t.data = ShiftedToRuntime(t, dq.params);
      t.dtype = RuntimeDType(dq.params);
      t.quant = ToIrQuant(dq.params);
      annotated_constants_.emplace(c, dq.params);
      dq.annotated = c;
    } else if (only_dq_readers && done->second == dq.params) {
      dq.annotated = c;
    } else {
      // Another reader needs the original (or other parameters): copy. The copy is made
      // from the untouched source only, so look up the original bytes first.
      const ir::Tensor& source = graph_.tensor(c);
      if (done != annotated_constants_.end()) {
        throw Error(Status::kUnsupportedQuantization,
                    Describe(op(dq.op)) + " dequantizes constant '" + source.name +
                        "' with other parameters than another DequantizeLinear does");
      }
      std::vector<uint8_t> bytes = ShiftedToRuntime(source, dq.params);
      ir::Shape shape = source.shape;
      std::string name = source.name;
      TensorId copy = graph_.AddConstant(name, RuntimeDType(dq.params), shape, std::move(bytes));
      graph_.tensor(copy).quant = ToIrQuant(dq.params);
      dq.annotated = copy;
    }
    return dq.annotated;
  }

  // Readers of each tensor among the ops that survive, and graph outputs.
  // A live op still reads `id` (readers computed before a rewiring may have stopped).
  bool StillRead(const std::vector<std::vector<int>>& readers, TensorId id) const {
    for (int r : readers[static_cast<size_t>(id)]) {
      const ir::Op& reader = graph_.ops[static_cast<size_t>(r)];
      if (!dead_[static_cast<size_t>(r)] &&
          std::find(reader.inputs.begin(), reader.inputs.end(), id) != reader.inputs.end()) {
        return true;
      }
    }
    return false;
  }

  // ArgMax / ArgMin reading a dequantized tensor read its int8 codes instead: with one
  // positive scale quantization is monotone, so the extreme's index is the same, and the
  // float copy (4x the bytes: a segmentation head's whole map) is never made.
  void ArgReadsCodes(const std::vector<std::vector<int>>& readers, TensorId out, TensorId int8) {
    const ir::Tensor& q = graph_.tensor(int8);
    if (!q.quant || q.quant->per_channel() || q.quant->scales.empty() ||
        !(q.quant->scales[0] > 0.0f)) {
      return;
    }
    for (int r : readers[static_cast<size_t>(out)]) {
      ir::Op& reader = op(static_cast<size_t>(r));
      if ((reader.type == OpType::kArgMax || reader.type == OpType::kArgMin) &&
          reader.input(0) == out) {
        reader.inputs[0] = int8;
      }
    }
  }

  // Gives `int8` the public name of graph output `out` and puts it in its place.
  void TakeOverGraphOutput(TensorId out, TensorId int8) {
    std::string name = graph_.tensor(out).name;
    graph_.tensor(out).name = graph_.UniqueTensorName(name + "_float");
    graph_.tensor(int8).name = name;
    for (TensorId& o : graph_.outputs) {
      if (o == out) o = int8;
    }
  }

  void FinishDequantizes() {
    std::vector<std::vector<int>> readers = graph_.ConsumerIndex();
    for (DqNode& dq : dqs_) {
      ir::Op& node = op(dq.op);
      TensorId out = node.outputs[0];
      dead_[dq.op] = true;
      if (dq.source == DqSource::kConstant) {
        if (StillRead(readers, out) || graph_.IsGraphOutput(out)) MaterializeFloat(dq);
        continue;
      }
      // The int8 tensor replaces a graph output unless it is already public (a graph
      // input or another output), which would lose one of the two names.
      bool int8_public = graph_.IsGraphOutput(dq.quantized) ||
                         std::find(graph_.inputs.begin(), graph_.inputs.end(), dq.quantized) !=
                             graph_.inputs.end();
      if (graph_.IsGraphOutput(out) && !int8_public) TakeOverGraphOutput(out, dq.quantized);
      ArgReadsCodes(readers, out, dq.quantized);
      if (StillRead(readers, out) || graph_.IsGraphOutput(out)) {
        // Float readers remain: a runtime dequantize at the island's edge.
        node.type = OpType::kDequantize;
        node.inputs = {dq.quantized};
        node.attrs = {};
        dead_[dq.op] = false;
      }
    }
  }

  void FinishQuantizes() {
    std::vector<std::vector<int>> readers = graph_.ConsumerIndex();
    for (const QNode& qn : qs_) {
      if (dead_[qn.op]) continue;  // folded into an int8 producer
      ir::Op& q = op(qn.op);
      TensorId x = q.inputs[0];
      TensorId xq = q.outputs[0];
      if (!StillRead(readers, xq) && !graph_.IsGraphOutput(xq)) {
        dead_[qn.op] = true;  // every reader was a DequantizeLinear that is gone
        continue;
      }
      auto input = std::find(graph_.inputs.begin(), graph_.inputs.end(), x);
      bool only_this_reader = true;
      for (int r : readers[static_cast<size_t>(x)]) {
        if (!dead_[static_cast<size_t>(r)] && static_cast<size_t>(r) != qn.op)
          only_this_reader = false;
      }
      if (input != graph_.inputs.end() && only_this_reader && !graph_.IsGraphOutput(x)) {
        // The host quantizes: the graph input is the int8 tensor, under its public name.
        std::string name = graph_.tensor(x).name;
        graph_.tensor(x).name = graph_.UniqueTensorName(name + "_float");
        graph_.tensor(xq).name = name;
        *input = xq;
        dead_[qn.op] = true;
        continue;
      }
      q.type = OpType::kQuantize;  // float producer: a runtime quantize at the island's edge
      q.inputs = {x};
      q.attrs = {};
    }
  }

  ir::Graph& graph_;
  std::vector<int> producer_;
  std::vector<std::vector<int>> consumers_;
  std::vector<bool> dead_;
  std::vector<bool> int8_;
  std::vector<QNode> qs_;
  std::vector<DqNode> dqs_;
  std::unordered_map<TensorId, size_t> q_by_output_;
  std::unordered_map<TensorId, size_t> dq_by_output_;
  std::map<TensorId, QdqParams> annotated_constants_;
};

}  // namespace

void QdqFold(ir::Graph& graph) { QdqFolder(graph).Run(); }

}  // namespace tigris::passes
