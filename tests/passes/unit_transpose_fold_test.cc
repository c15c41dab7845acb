// unit-transpose-fold: a Reshape reads past a Transpose that moves only axes of extent 1
// (passes/unit_transpose_fold.cc). Whether a Transpose reorders elements is checked
// against brute force: the transposed tensor's row-major walk of the source's elements.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "passes/passes.h"
#include "support/graph_builder.h"

namespace tigris {
namespace {

using ir::OpType;
using testing::Attrs;
using testing::GraphBuilder;
using testing::OpTypes;

ir::Shape Permuted(const ir::Shape& shape, const std::vector<int64_t>& perm) {
  ir::Shape out;
  for (int64_t p : perm) out.push_back(shape[static_cast<size_t>(p)]);
  return out;
}

// x -> Transpose(perm) -> t -> Reshape -> r [elements]; r is the graph output.
ir::Graph TransposeThenReshape(const ir::Shape& shape, const std::vector<int64_t>& perm) {
  GraphBuilder b;
  const ir::TensorId x = b.Input("x", shape);
  const ir::TensorId t = b.Op(OpType::kTranspose, "transpose", {x}, "t", Permuted(shape, perm),
                              Attrs({{"perm", perm}}));
  int64_t elements = 1;
  for (int64_t d : shape) elements *= d;
  b.Output(b.Op(OpType::kReshape, "reshape", {t}, "r", {elements}));
  return b.Take();
}

// Whether transposing by `perm` keeps every element at its row-major position: the source
// index of each output element, walked in output order, is 0, 1, 2, ...
bool KeepsElementOrder(const ir::Shape& shape, const std::vector<int64_t>& perm) {
  const ir::Shape out = Permuted(shape, perm);
  std::vector<int64_t> stride(shape.size(), 1);
  for (size_t i = shape.size() - 1; i > 0; --i) stride[i - 1] = stride[i] * shape[i];
  int64_t elements = 1;
  for (int64_t d : shape) elements *= d;
  for (int64_t flat = 0; flat < elements; ++flat) {
    int64_t rest = flat, source = 0;
    for (size_t i = out.size(); i-- > 0;) {
      source += (rest % out[i]) * stride[static_cast<size_t>(perm[i])];
      rest /= out[i];
    }
    if (source != flat) return false;
  }
  return true;
}

TEST(UnitTransposeFold, FoldsExactlyTheTransposesThatKeepElementOrder) {
  const std::vector<ir::Shape> shapes = {{1, 256, 1, 1}, {1, 1, 1, 8}, {2, 1, 3, 1},
                                         {1, 4, 1, 5},   {2, 3, 4, 5}, {1, 1, 1, 1}};
  int folded = 0, kept = 0;
  for (const ir::Shape& shape : shapes) {
    std::vector<int64_t> perm(4);
    std::iota(perm.begin(), perm.end(), 0);
    do {
      ir::Graph graph = TransposeThenReshape(shape, perm);
      const ir::TensorId x = graph.inputs[0];
      passes::UnitTransposeFold(graph);
      const bool expect_fold = KeepsElementOrder(shape, perm);
      if (expect_fold) {
        ASSERT_EQ(OpTypes(graph), std::vector<std::string>{"Reshape"});
        EXPECT_EQ(graph.ops[0].input(0), x);
        ++folded;
      } else {
        EXPECT_EQ(OpTypes(graph), (std::vector<std::string>{"Transpose", "Reshape"}));
        ++kept;
      }
    } while (std::next_permutation(perm.begin(), perm.end()));
  }
  // Both outcomes occur (all 24 permutations of [1, 1, 1, 1] fold, of [2, 3, 4, 5] one).
  EXPECT_GT(folded, 24);
  EXPECT_GT(kept, 24);
}

TEST(UnitTransposeFold, ThenTheClassifiersFlattenFoldsIntoItsGemm) {
  // tflite2onnx's head: the pooled NCHW map back to NHWC, flattened, fully connected.
  GraphBuilder b;
  const ir::TensorId pooled = b.Input("p", {1, 256, 1, 1});
  const ir::TensorId t = b.Op(OpType::kTranspose, "to_nhwc", {pooled}, "t", {1, 1, 1, 256},
                              Attrs({{"perm", std::vector<int64_t>{0, 2, 3, 1}}}));
  const ir::TensorId flat = b.Op(OpType::kReshape, "flatten", {t}, "f", {1, 256});
  const ir::TensorId weights = b.Floats("B", {2, 256}, std::vector<float>(512, 1.0f));
  b.Output(b.Op(OpType::kGemm, "fc", {flat, weights}, "y", {1, 2}));
  ir::Graph graph = b.Take();
  passes::UnitTransposeFold(graph);
  passes::GemmFlattenFold(graph);
  ASSERT_EQ(OpTypes(graph), std::vector<std::string>{"Gemm"});
  EXPECT_EQ(graph.ops[0].input(0), pooled);
}

TEST(UnitTransposeFold, ATransposeWhoseValueIsStillNeededStays) {
  const std::vector<int64_t> perm = {0, 2, 3, 1};
  // Its output is a graph output.
  ir::Graph output = TransposeThenReshape({1, 8, 1, 1}, perm);
  output.outputs.push_back(output.ops[0].outputs[0]);
  passes::UnitTransposeFold(output);
  EXPECT_EQ(OpTypes(output), (std::vector<std::string>{"Transpose", "Reshape"}));
  // Read by an op that is not a Reshape.
  GraphBuilder b;
  const ir::TensorId x = b.Input("x", {1, 8, 1, 1});
  const ir::TensorId t =
      b.Op(OpType::kTranspose, "transpose", {x}, "t", {1, 1, 1, 8}, Attrs({{"perm", perm}}));
  b.Output(b.Op(OpType::kRelu, "relu", {t}, "y", {1, 1, 1, 8}));
  ir::Graph relu = b.Take();
  passes::UnitTransposeFold(relu);
  EXPECT_EQ(OpTypes(relu), (std::vector<std::string>{"Transpose", "Relu"}));
}

TEST(UnitTransposeFold, ARequantizingTransposeStays) {
  ir::Graph graph = TransposeThenReshape({1, 8, 1, 1}, {0, 2, 3, 1});
  ir::Tensor& x = graph.tensor(graph.inputs[0]);
  ir::Tensor& t = graph.tensor(graph.ops[0].outputs[0]);
  x.dtype = t.dtype = ir::DType::kInt8;
  x.quant = ir::QuantParams{{0.5f}, {0}, -1};
  t.quant = ir::QuantParams{{0.25f}, {0}, -1};
  passes::UnitTransposeFold(graph);
  EXPECT_EQ(OpTypes(graph), (std::vector<std::string>{"Transpose", "Reshape"}));
}

}  // namespace
}  // namespace tigris
