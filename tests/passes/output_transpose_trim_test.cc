// Reference pass 12: trailing Transposes before graph outputs move to the host
// (tigris-compilation-pipeline.txt, stage 2).
#include <gtest/gtest.h>

#include "passes/passes.h"
#include "support/graph_builder.h"
#include "util/error.h"

namespace tigris {
namespace {

using ir::OpType;
using testing::Attrs;
using testing::GraphBuilder;
using testing::OpTypes;

ir::Attributes Perm(std::vector<int64_t> perm) { return Attrs({{"perm", std::move(perm)}}); }

// Applies `perm` to a shape as Transpose does: out[k] = in[perm[k]].
ir::Shape Permuted(const ir::Shape& in, const std::vector<int64_t>& perm) {
  ir::Shape out;
  for (int64_t p : perm) out.push_back(in.at(static_cast<size_t>(p)));
  return out;
}

TEST(OutputTransposeTrim, TrailingTransposeMovesToHost) {
  // x -> Relu -> r[1,8,4,4] -> Transpose([0,2,3,1]) -> "out"[1,4,4,8]. After: Relu's result
  // is the output, named "out", still [1,8,4,4], with host permutation [0,2,3,1].
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 8, 4, 4});
  ir::TensorId r = b.Op(OpType::kRelu, "relu", {x}, "r", {1, 8, 4, 4});
  b.Output(b.Op(OpType::kTranspose, "transpose", {r}, "out", {1, 4, 4, 8}, Perm({0, 2, 3, 1})));
  ir::Graph g = b.Take();

  passes::OutputTransposeTrim(g);
  g.Compact();  // as the pipeline does; drops the old output tensor

  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"Relu"});
  ASSERT_EQ(g.outputs.size(), 1u);
  const ir::Tensor& out = g.tensor(g.outputs[0]);
  EXPECT_EQ(g.ops[0].outputs, g.outputs);
  EXPECT_EQ(out.name, "out");
  EXPECT_EQ(out.shape, (ir::Shape{1, 8, 4, 4}));
  EXPECT_EQ(out.host_permutation, (std::vector<int64_t>{0, 2, 3, 1}));
  // The host's transpose restores the model's declared output shape [1,4,4,8].
  EXPECT_EQ(Permuted(out.shape, out.host_permutation), (ir::Shape{1, 4, 4, 8}));
  EXPECT_EQ(g.FindTensor("r"), std::nullopt);
}

TEST(OutputTransposeTrim, ChainedTransposesComposeIntoOnePermutation) {
  // r[1,2,3,4] -T([0,2,3,1])-> [1,3,4,2] -T([0,2,1,3])-> [1,4,3,2]. Composed perm
  // c[k] = p1[p2[k]] = [0,3,2,1]; permuting [1,2,3,4] by it gives [1,4,3,2] as declared.
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 2, 3, 4});
  ir::TensorId r = b.Op(OpType::kRelu, "relu", {x}, "r", {1, 2, 3, 4});
  ir::TensorId t = b.Op(OpType::kTranspose, "t1", {r}, "t", {1, 3, 4, 2}, Perm({0, 2, 3, 1}));
  b.Output(b.Op(OpType::kTranspose, "t2", {t}, "out", {1, 4, 3, 2}, Perm({0, 2, 1, 3})));
  ir::Graph g = b.Take();

  passes::OutputTransposeTrim(g);

  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"Relu"});
  const ir::Tensor& out = g.tensor(g.outputs.at(0));
  EXPECT_EQ(out.name, "out");
  EXPECT_EQ(out.host_permutation, (std::vector<int64_t>{0, 3, 2, 1}));
  EXPECT_EQ(Permuted(out.shape, out.host_permutation), (ir::Shape{1, 4, 3, 2}));
}

TEST(OutputTransposeTrim, KeepsTransposeWhoseInputOrOutputHasOtherReaders) {
  // "a": the Transpose's input also feeds a Sigmoid -> the device must produce both
  // layouts, the Transpose stays. "b": the Transpose's output also feeds a Relu -> stays.
  // "c": a lone trailing Transpose -> trimmed, so exactly one Transpose disappears.
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 2, 3, 4});
  ir::TensorId ra = b.Op(OpType::kRelu, "relu_a", {x}, "ra", {1, 2, 3, 4});
  b.Output(b.Op(OpType::kTranspose, "ta", {ra}, "out_a", {1, 3, 4, 2}, Perm({0, 2, 3, 1})));
  b.Output(b.Op(OpType::kSigmoid, "sig_a", {ra}, "out_a2", {1, 2, 3, 4}));
  ir::TensorId rb = b.Op(OpType::kRelu, "relu_b", {x}, "rb", {1, 2, 3, 4});
  ir::TensorId tb = b.Op(OpType::kTranspose, "tb", {rb}, "out_b", {1, 3, 4, 2}, Perm({0, 2, 3, 1}));
  b.Output(tb);
  b.Output(b.Op(OpType::kRelu, "relu_b2", {tb}, "out_b2", {1, 3, 4, 2}));
  ir::TensorId rc = b.Op(OpType::kRelu, "relu_c", {x}, "rc", {1, 2, 3, 4});
  b.Output(b.Op(OpType::kTranspose, "tc", {rc}, "out_c", {1, 3, 4, 2}, Perm({0, 2, 3, 1})));
  ir::Graph g = b.Take();

  passes::OutputTransposeTrim(g);

  std::vector<std::string> names;
  for (const ir::Op& op : g.ops) names.push_back(op.name);
  EXPECT_EQ(names, (std::vector<std::string>{"relu_a", "ta", "sig_a", "relu_b", "tb", "relu_b2",
                                             "relu_c"}));
}

TEST(OutputTransposeTrim, TransposeOfGraphInputStaysBesideATrimmedOne) {
  // x -> Transpose -> "out": trimming would make the graph input itself the output, so it
  // stays. x -> Relu -> Transpose -> "out2" is trimmed.
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 2, 3});
  b.Output(b.Op(OpType::kTranspose, "t", {x}, "out", {1, 3, 2}, Perm({0, 2, 1})));
  ir::TensorId r = b.Op(OpType::kRelu, "relu", {x}, "r", {1, 2, 3});
  b.Output(b.Op(OpType::kTranspose, "t2", {r}, "out2", {1, 3, 2}, Perm({0, 2, 1})));
  ir::Graph g = b.Take();
  passes::OutputTransposeTrim(g);
  EXPECT_EQ(OpTypes(g), (std::vector<std::string>{"Transpose", "Relu"}));
  EXPECT_EQ(g.tensor(g.outputs.at(1)).name, "out2");
  EXPECT_EQ(g.tensor(g.outputs.at(1)).host_permutation, (std::vector<int64_t>{0, 2, 1}));
}

TEST(OutputTransposeTrim, BadPermIsInvalidModel) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 2, 3});
  ir::TensorId r = b.Op(OpType::kRelu, "relu", {x}, "r", {1, 2, 3});
  b.Output(b.Op(OpType::kTranspose, "bad_t", {r}, "out", {1, 3, 2}, Perm({0, 2, 2})));
  ir::Graph g = b.Take();
  try {
    passes::OutputTransposeTrim(g);
    FAIL() << "expected tigris::Error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kInvalidModel);
    EXPECT_NE(std::string(e.what()).find("bad_t"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tigris
