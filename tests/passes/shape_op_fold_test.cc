// Reference pass 9: shape chains fold into static Reshape targets
// (tigris-compilation-pipeline.txt, stage 2).
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "passes/passes.h"
#include "support/graph_builder.h"
#include "util/error.h"

namespace tigris {
namespace {

using ir::DType;
using ir::OpType;
using testing::Attrs;
using testing::GraphBuilder;
using testing::OpTypes;

TEST(ShapeOpFold, TorchFlattenChainBecomesOneStaticReshape) {
  // torch.flatten(x, 1) after a GAP exports as
  //   s = Shape(x) = [1,1280,1,1]; n = Gather(s, 0) = 1 (scalar); u = Unsqueeze(n, [0]) = [1]
  //   c = Concat(u, [-1]) = [1,-1]; y = Reshape(x, c) = [1,1280]
  // The loader resolved y as [1,1280], so the Reshape's attribute is [1,1280] and the four
  // shape ops are dead.
  GraphBuilder b;
  ir::TensorId in = b.Input("in", {1, 1280, 7, 7});
  ir::TensorId x = b.Op(OpType::kGlobalAveragePool, "gap", {in}, "x", {1, 1280, 1, 1});
  ir::TensorId s = b.Op(OpType::kShape, "shape", {x}, "s", {4}, {}, DType::kInt64);
  ir::TensorId zero = b.Int64s("zero", {}, {0});
  ir::TensorId n = b.Op(OpType::kGather, "gather", {s, zero}, "n", {},
                        Attrs({{"axis", int64_t{0}}}), DType::kInt64);
  ir::TensorId axes0 = b.Int64s("axes0", {1}, {0});
  ir::TensorId u = b.Op(OpType::kUnsqueeze, "unsqueeze", {n, axes0}, "u", {1}, {}, DType::kInt64);
  ir::TensorId minus1 = b.Int64s("minus1", {1}, {-1});
  ir::TensorId c = b.Op(OpType::kConcat, "concat", {u, minus1}, "c", {2},
                        Attrs({{"axis", int64_t{0}}}), DType::kInt64);
  ir::TensorId y = b.Op(OpType::kReshape, "reshape", {x, c}, "y", {1, 1280});
  b.Output(y);
  ir::Graph g = b.Take();

  passes::ShapeOpFold(g);

  ASSERT_EQ(OpTypes(g), (std::vector<std::string>{"GlobalAveragePool", "Reshape"}));
  const ir::Op& reshape = g.ops[1];
  EXPECT_EQ(reshape.inputs, std::vector<ir::TensorId>{x});
  EXPECT_EQ(reshape.outputs, std::vector<ir::TensorId>{y});
  EXPECT_EQ(reshape.attrs.GetInts("shape"), (std::vector<int64_t>{1, 1280}));
}

TEST(ShapeOpFold, ShapeChainFeedingResizeSizesBecomesConstant) {
  // sizes = Concat(Slice(Shape(x), 0, 2), [64, 64]) = [1,3] ++ [64,64] = [1,3,64,64]: not a
  // Reshape target, so it is evaluated into a constant that resize-scale-extract can read.
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 3, 32, 32});
  ir::TensorId s = b.Op(OpType::kShape, "shape", {x}, "s", {4}, {}, DType::kInt64);
  ir::TensorId starts = b.Int64s("starts", {1}, {0});
  ir::TensorId ends = b.Int64s("ends", {1}, {2});
  ir::TensorId nc = b.Op(OpType::kSlice, "slice", {s, starts, ends}, "nc", {2}, {}, DType::kInt64);
  ir::TensorId hw = b.Int64s("hw", {2}, {64, 64});
  ir::TensorId sizes = b.Op(OpType::kConcat, "concat", {nc, hw}, "sizes", {4},
                            Attrs({{"axis", int64_t{0}}}), DType::kInt64);
  ir::TensorId y = b.Op(OpType::kResize, "resize", {x, ir::kNoTensor, ir::kNoTensor, sizes}, "y",
                        {1, 3, 64, 64});
  b.Output(y);
  ir::Graph g = b.Take();

  passes::ShapeOpFold(g);

  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"Resize"});
  ir::TensorId folded = g.ops[0].input(3);
  ASSERT_TRUE(g.IsConstant(folded));
  EXPECT_EQ(g.tensor(folded).dtype, DType::kInt64);
  EXPECT_EQ(g.tensor(folded).shape, ir::Shape{4});
  EXPECT_EQ(g.tensor(folded).DataAs<int64_t>(), (std::vector<int64_t>{1, 3, 64, 64}));
}

TEST(ShapeOpFold, EvaluatesGatherSliceCastAndSqueezeOnConstants) {
  // From Shape(x) = [1,3,32,48]:
  //   Gather(s, [-1])                 -> [48]      (negative index counts from the end)
  //   Slice(s, [-2], [INT64_MAX])     -> [32,48]   (end clamps to the extent 4)
  //   Slice(s, [3], [0], steps=[-2])  -> [48,3]    (indices 3, 1)
  //   Cast(Slice(..)) to float32      -> [32.0,48.0]
  //   Squeeze([48]) to a scalar       -> 48
  // Each result feeds an Identity whose output is a graph output, so it stays observable.
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 3, 32, 48});
  ir::TensorId s = b.Op(OpType::kShape, "shape", {x}, "s", {4}, {}, DType::kInt64);
  ir::TensorId last_index = b.Int64s("last_index", {1}, {-1});
  ir::TensorId last =
      b.Op(OpType::kGather, "gather", {s, last_index}, "last", {1}, {}, DType::kInt64);
  ir::TensorId tail = b.Op(
      OpType::kSlice, "slice",
      {s, b.Int64s("st", {1}, {-2}), b.Int64s("en", {1}, {std::numeric_limits<int64_t>::max()})},
      "tail", {2}, {}, DType::kInt64);
  ir::TensorId back = b.Op(OpType::kSlice, "slice_back",
                           {s, b.Int64s("st2", {1}, {3}), b.Int64s("en2", {1}, {0}),
                            b.Int64s("ax2", {1}, {0}), b.Int64s("step2", {1}, {-2})},
                           "back", {2}, {}, DType::kInt64);
  ir::TensorId tail_f = b.Op(OpType::kCast, "cast", {tail}, "tail_f", {2},
                             Attrs({{"to", int64_t{1}}}), DType::kFloat32);
  ir::TensorId scalar = b.Op(OpType::kSqueeze, "squeeze", {last}, "scalar", {}, {}, DType::kInt64);
  const std::vector<ir::TensorId> results = {last, tail, back, tail_f, scalar};
  for (size_t i = 0; i < results.size(); ++i) {
    const std::string name = "o" + std::to_string(i);
    b.Output(b.Op(OpType::kIdentity, "id_" + name, {results[i]}, name,
                  b.graph().tensor(results[i]).shape, {}, b.graph().tensor(results[i]).dtype));
  }
  ir::Graph g = b.Take();

  passes::ShapeOpFold(g);

  ASSERT_EQ(OpTypes(g), std::vector<std::string>(5, "Identity"));
  for (const ir::Op& op : g.ops) ASSERT_TRUE(g.IsConstant(op.input(0))) << op.name;
  EXPECT_EQ(g.tensor(g.ops[0].input(0)).DataAs<int64_t>(), std::vector<int64_t>{48});
  EXPECT_EQ(g.tensor(g.ops[1].input(0)).DataAs<int64_t>(), (std::vector<int64_t>{32, 48}));
  EXPECT_EQ(g.tensor(g.ops[2].input(0)).DataAs<int64_t>(), (std::vector<int64_t>{48, 3}));
  EXPECT_EQ(g.tensor(g.ops[3].input(0)).dtype, DType::kFloat32);
  EXPECT_EQ(g.tensor(g.ops[3].input(0)).DataAs<float>(), (std::vector<float>{32.0f, 48.0f}));
  EXPECT_EQ(g.tensor(g.ops[4].input(0)).shape, ir::Shape{});
  EXPECT_EQ(g.tensor(g.ops[4].input(0)).DataAs<int64_t>(), std::vector<int64_t>{48});
}

TEST(ShapeOpFold, DataConcatAndUnsqueezeStayWhileReshapeGetsItsTarget) {
  // Concat and Unsqueeze of activations move data: they must survive. The Reshape with a
  // constant target [1,-1] gets its resolved output shape [1,96] (= 1*2*6*8) as attribute.
  GraphBuilder b;
  ir::TensorId a = b.Input("a", {1, 1, 6, 8});
  ir::TensorId c = b.Input("c", {1, 1, 6, 8});
  ir::TensorId cat =
      b.Op(OpType::kConcat, "concat", {a, c}, "cat", {1, 2, 6, 8}, Attrs({{"axis", int64_t{1}}}));
  ir::TensorId target = b.Int64s("target", {2}, {1, -1});
  ir::TensorId flat = b.Op(OpType::kReshape, "reshape", {cat, target}, "flat", {1, 96});
  ir::TensorId axes = b.Int64s("axes", {1}, {2});
  b.Output(b.Op(OpType::kUnsqueeze, "unsqueeze", {flat, axes}, "y", {1, 96, 1}));
  ir::Graph g = b.Take();

  passes::ShapeOpFold(g);

  ASSERT_EQ(OpTypes(g), (std::vector<std::string>{"Concat", "Reshape", "Unsqueeze"}));
  EXPECT_EQ(g.ops[0].inputs, (std::vector<ir::TensorId>{a, c}));
  EXPECT_EQ(g.ops[1].inputs, std::vector<ir::TensorId>{cat});
  EXPECT_EQ(g.ops[1].attrs.GetInts("shape"), (std::vector<int64_t>{1, 96}));
  EXPECT_EQ(g.ops[2].inputs, (std::vector<ir::TensorId>{flat, axes}));
}

TEST(ShapeOpFold, ReshapedWeightBecomesConstant) {
  // mnist8 reshapes a weight before its MatMul. Reshaping constant bytes is a relabeling:
  // the weight [2,3] = 1..6 becomes a constant [3,2] with the same bytes in the same order.
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 3});
  ir::TensorId w = b.Floats("w", {2, 3}, {1, 2, 3, 4, 5, 6});
  ir::TensorId w2 =
      b.Op(OpType::kReshape, "reshape_w", {w, b.Int64s("shape", {2}, {3, 2})}, "w2", {3, 2});
  b.Output(b.Op(OpType::kMatMul, "matmul", {x, w2}, "y", {1, 2}));
  ir::Graph g = b.Take();

  passes::ShapeOpFold(g);

  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"MatMul"});
  const ir::Tensor& weight = g.tensor(g.ops[0].input(1));
  EXPECT_TRUE(weight.is_constant);
  EXPECT_EQ(weight.shape, (ir::Shape{3, 2}));
  EXPECT_EQ(weight.DataAs<float>(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
}

TEST(ShapeOpFold, FoldedShapeDisagreeingWithLoaderIsInvalidModel) {
  // Shape of a [1,3] tensor is a 2-vector; an output declared [3] means a broken graph.
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 3});
  ir::TensorId s = b.Op(OpType::kShape, "bad_shape", {x}, "s", {3}, {}, DType::kInt64);
  b.Output(b.Op(OpType::kIdentity, "id", {s}, "o", {3}, {}, DType::kInt64));
  ir::Graph g = b.Take();
  try {
    passes::ShapeOpFold(g);
    FAIL() << "expected tigris::Error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kInvalidModel);
    EXPECT_NE(std::string(e.what()).find("bad_shape"), std::string::npos) << e.what();
  }
}

TEST(ShapeOpFold, GatherIndexOutOfRangeIsInvalidModel) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 3});
  ir::TensorId s = b.Op(OpType::kShape, "shape", {x}, "s", {2}, {}, DType::kInt64);
  ir::TensorId n =
      b.Op(OpType::kGather, "bad_gather", {s, b.Int64s("i", {}, {2})}, "n", {}, {}, DType::kInt64);
  b.Output(b.Op(OpType::kIdentity, "id", {n}, "o", {}, {}, DType::kInt64));
  ir::Graph g = b.Take();
  try {
    passes::ShapeOpFold(g);
    FAIL() << "expected tigris::Error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kInvalidModel);
    EXPECT_NE(std::string(e.what()).find("bad_gather"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tigris
