#include "passes/rewrite_util.h"

#include <algorithm>
#include <utility>

#include "util/error.h"

namespace tigris::passes {

std::string DescribeOp(const ir::Op& op) {
  return "op '" + std::string(ir::OpTypeName(op.type)) + "' at node '" + op.name + "'";
}

int SoleConsumer(const ir::Graph& graph, const std::vector<std::vector<int>>& consumers,
                 ir::TensorId tensor) {
  if (tensor == ir::kNoTensor || graph.IsGraphOutput(tensor)) return -1;
  const auto& readers = consumers.at(static_cast<size_t>(tensor));
  return readers.size() == 1 ? readers.front() : -1;
}

namespace {

// A dead op keeps no references, so indices recomputed before EraseOps ignore it.
void Kill(ir::Graph& graph, int op_index, std::vector<bool>& dead) {
  ir::Op& op = graph.ops.at(static_cast<size_t>(op_index));
  op.inputs.clear();
  op.outputs.clear();
  dead.at(static_cast<size_t>(op_index)) = true;
}

}  // namespace

void AbsorbSuccessor(ir::Graph& graph, int producer, int absorbed, std::vector<bool>& dead) {
  ir::TensorId out = graph.ops.at(static_cast<size_t>(absorbed)).outputs.at(0);
  Kill(graph, absorbed, dead);
  graph.ops.at(static_cast<size_t>(producer)).outputs.at(0) = out;
}

std::vector<ir::TensorId>::iterator LoneReadGraphInput(
    ir::Graph& graph, const std::vector<std::vector<int>>& consumers, size_t op_index) {
  const ir::Op& op = graph.ops[op_index];
  if (op.outputs.size() != 1) return graph.inputs.end();
  const ir::TensorId in = op.input(0);
  if (in == ir::kNoTensor || graph.IsGraphOutput(in) || graph.IsGraphOutput(op.outputs[0])) {
    return graph.inputs.end();
  }
  const auto input = std::find(graph.inputs.begin(), graph.inputs.end(), in);
  if (input == graph.inputs.end() || consumers[static_cast<size_t>(in)].size() != 1 ||
      !graph.tensor(in).host_permutation.empty() || !graph.tensor(in).host_shape.empty()) {
    return graph.inputs.end();
  }
  return input;
}

void MoveToHost(ir::Graph& graph, size_t op_index, std::vector<ir::TensorId>::iterator input) {
  const ir::TensorId out = graph.ops[op_index].outputs[0];
  // The input answers to the user's name; the old input tensor is unreferenced after the
  // rewiring and dropped by Graph::Compact().
  std::swap(graph.tensor(*input).name, graph.tensor(out).name);
  *input = out;
  std::vector<bool> dead(graph.ops.size(), false);
  dead[op_index] = true;
  graph.EraseOps(dead);
}

OpNamer::OpNamer(const ir::Graph& graph) {
  for (const ir::Op& op : graph.ops) taken_.insert(op.name);
}

std::string OpNamer::Unique(const std::string& base) {
  std::string name = base;
  for (int i = 1; taken_.count(name) != 0; ++i) name = base + "_" + std::to_string(i);
  taken_.insert(name);
  return name;
}

void RequireConstantData(const ir::Tensor& tensor) {
  if (!tensor.is_constant) {
    throw Error(Status::kInvalidModel, "tensor '" + tensor.name + "' must be a constant here");
  }
  if (static_cast<int64_t>(tensor.data.size()) != tensor.byte_size()) {
    throw Error(Status::kInvalidModel,
                "constant '" + tensor.name + "' holds " + std::to_string(tensor.data.size()) +
                    " bytes, its shape " + ir::ShapeToString(tensor.shape) + " and dtype " +
                    std::string(ir::DTypeName(tensor.dtype)) + " need " +
                    std::to_string(tensor.byte_size()));
  }
}

std::vector<float> FloatConstant(const ir::Tensor& tensor) {
  if (tensor.dtype != ir::DType::kFloat32) {
    throw Error(Status::kInvalidModel,
                "tensor '" + tensor.name + "' must be a float32 constant here");
  }
  RequireConstantData(tensor);
  return tensor.DataAs<float>();
}

ir::TensorId AddFloatConstant(ir::Graph& graph, const std::string& base, ir::Shape shape,
                              const std::vector<float>& values) {
  ir::Tensor t;
  t.SetData(values);
  return graph.AddConstant(base, ir::DType::kFloat32, std::move(shape), std::move(t.data));
}

std::vector<uint8_t> TransposeMatrixBytes(const std::vector<uint8_t>& data, int64_t rows,
                                          int64_t cols, size_t element_size) {
  if (data.size() != static_cast<size_t>(rows * cols) * element_size) {
    throw Error(Status::kInternal, "matrix transpose: byte count does not match the shape");
  }
  std::vector<uint8_t> out(data.size());
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c) {
      size_t from = static_cast<size_t>(r * cols + c) * element_size;
      size_t to = static_cast<size_t>(c * rows + r) * element_size;
      std::copy_n(data.begin() + static_cast<std::ptrdiff_t>(from), element_size,
                  out.begin() + static_cast<std::ptrdiff_t>(to));
    }
  }
  return out;
}

ir::Shape BroadcastShapes(const ir::Shape& a, const ir::Shape& b, const std::string& where) {
  size_t rank = std::max(a.size(), b.size());
  ir::Shape out(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    // Align from the right (numpy rule); missing leading dims count as 1.
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) {
      throw Error(Status::kInvalidModel, where + ": shapes " + ir::ShapeToString(a) + " and " +
                                             ir::ShapeToString(b) + " do not broadcast");
    }
    out[i] = da == 1 ? db : da;
  }
  return out;
}

std::vector<int64_t> TransposePermutation(const ir::Graph& graph, const ir::Op& op, size_t rank) {
  std::vector<int64_t> perm = op.attrs.GetInts("perm");
  if (perm.empty()) {
    for (size_t i = rank; i-- > 0;) perm.push_back(static_cast<int64_t>(i));
  }
  std::vector<bool> seen(rank, false);
  bool valid = perm.size() == rank;
  for (int64_t p : perm) {
    if (!valid || p < 0 || p >= static_cast<int64_t>(rank) || seen[static_cast<size_t>(p)]) {
      valid = false;
      break;
    }
    seen[static_cast<size_t>(p)] = true;
  }
  if (!valid) {
    throw Error(Status::kInvalidModel, "Transpose node '" + op.name + "' of model '" + graph.name +
                                           "': perm is not a permutation of " +
                                           std::to_string(rank) + " axes");
  }
  return perm;
}

ir::TensorId AddTensorLike(ir::Graph& graph, ir::TensorId like, const std::string& base,
                           ir::Shape shape) {
  ir::Tensor t;
  t.name = graph.UniqueTensorName(base);
  t.dtype = graph.tensor(like).dtype;
  t.quant = graph.tensor(like).quant;
  t.shape = std::move(shape);
  return graph.AddTensor(std::move(t));
}

ir::Op MakeReshape(const std::string& name, ir::TensorId in, ir::TensorId out,
                   const ir::Shape& shape) {
  ir::Op op;
  op.type = ir::OpType::kReshape;
  op.name = name;
  op.inputs = {in};
  op.outputs = {out};
  op.attrs.Set("shape", std::vector<int64_t>(shape.begin(), shape.end()));
  return op;
}

}  // namespace tigris::passes
