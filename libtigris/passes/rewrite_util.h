// Small graph-rewriting helpers shared by the normalization passes that fuse, relabel or
// decompose ops (batchnorm-fold, binary-canonicalize, matmul-add-to-gemm, gemm-normalize,
// silu-decompose, activation-fuse, ...). Each is a pattern those passes repeat; anything
// used by one pass only stays in that pass's file.
#ifndef TIGRIS_PASSES_REWRITE_UTIL_H_
#define TIGRIS_PASSES_REWRITE_UTIL_H_

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "ir/graph.h"

namespace tigris::passes {

// "op 'Conv' at node 'conv1'": how every pass names the node at fault in a message.
std::string DescribeOp(const ir::Op& op);

// The one op reading `tensor`, or -1 when it has no reader, several readers, or is a graph
// output (the caller still needs its value, so its producer cannot be fused away).
// `consumers` is Graph::ConsumerIndex() of the same graph.
int SoleConsumer(const ir::Graph& graph, const std::vector<std::vector<int>>& consumers,
                 ir::TensorId tensor);

// Makes `producer` (op index) write `absorbed`'s first output instead of its own first
// output and marks `absorbed` dead, so the fused op keeps the absorbed op's output tensor:
// its name (a graph output stays one), dtype and quantization. Callers check first that
// the producer's old output has `absorbed` as its sole consumer.
void AbsorbSuccessor(ir::Graph& graph, int producer, int absorbed, std::vector<bool>& dead);

// The leading-op trims (input-transpose-trim, input-reshape-trim): the graph input that op
// `op_index` alone reads, where it sits in graph.inputs, when neither it nor the op's one
// output is a graph output and the input carries no host layout yet; else inputs.end().
std::vector<ir::TensorId>::iterator LoneReadGraphInput(
    ir::Graph& graph, const std::vector<std::vector<int>>& consumers, size_t op_index);
// Moves op `op_index` to the host: its output becomes the graph input at `input`,
// answering to the input's name, and the op is erased. The caller has set what the host
// does instead on the output (host_permutation or host_shape).
void MoveToHost(ir::Graph& graph, size_t op_index, std::vector<ir::TensorId>::iterator input);

// A Transpose's perm (ONNX's default reverses the axes), validated as a permutation of
// `rank` axes; kInvalidModel naming the node otherwise. Shared by the transpose trims.
std::vector<int64_t> TransposePermutation(const ir::Graph& graph, const ir::Op& op, size_t rank);

// Hands out node names for ops a pass creates, unique among the graph's node names at
// construction and every name handed out since (the loader keeps node names unique).
class OpNamer {
 public:
  explicit OpNamer(const ir::Graph& graph);
  // `base` if free, else base + "_1", "_2", ...
  std::string Unique(const std::string& base);

 private:
  std::set<std::string> taken_;
};

// A new activation like `like` (dtype, quantization) with another shape, named from `base`
// (made unique); for the Reshapes a pass puts around an op.
ir::TensorId AddTensorLike(ir::Graph& graph, ir::TensorId like, const std::string& base,
                           ir::Shape shape);
// Reshape(in) -> out to `shape`, in the attribute form every later pass and the emitter read.
ir::Op MakeReshape(const std::string& name, ir::TensorId in, ir::TensorId out,
                   const ir::Shape& shape);

// Throws kInvalidModel naming the tensor unless it is a constant whose byte count matches
// its shape and dtype (so element loops over it stay in bounds).
void RequireConstantData(const ir::Tensor& tensor);

// Elements of a float32 constant; throws kInvalidModel (naming the tensor) otherwise.
std::vector<float> FloatConstant(const ir::Tensor& tensor);

// Adds a float32 constant named after `base` (made unique).
ir::TensorId AddFloatConstant(ir::Graph& graph, const std::string& base, ir::Shape shape,
                              const std::vector<float>& values);

// Row-major [rows, cols] -> [cols, rows] on raw element bytes (any dtype); `data` must hold
// rows * cols elements (kInternal otherwise).
std::vector<uint8_t> TransposeMatrixBytes(const std::vector<uint8_t>& data, int64_t rows,
                                          int64_t cols, size_t element_size);

// ONNX (numpy) broadcast of two shapes; throws kInvalidModel naming `where` when they are
// incompatible.
ir::Shape BroadcastShapes(const ir::Shape& a, const ir::Shape& b, const std::string& where);

}  // namespace tigris::passes

#endif  // TIGRIS_PASSES_REWRITE_UTIL_H_
