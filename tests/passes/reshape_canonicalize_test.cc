// Added pass after shape-op-fold: Squeeze, Unsqueeze and Flatten of activations become
// Reshape with a static "shape" attribute (pipeline.cc).
#include <gtest/gtest.h>

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

TEST(ReshapeCanonicalize, SqueezeFlattenUnsqueezeBecomeReshapes) {
  // cifar_mobilenet_relu6 ends GAP -> Squeeze(3) -> Squeeze(2); here a chain of all three
  // relabelings. Each target is the op's resolved output shape:
  //   [1,8,1,1] -Squeeze([3])-> [1,8,1] -Unsqueeze([0])-> [1,1,8,1] -Flatten(1)-> [1,8]
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 8, 1, 1});
  ir::TensorId sq =
      b.Op(OpType::kSqueeze, "squeeze", {x, b.Int64s("sq_axes", {1}, {3})}, "sq", {1, 8, 1});
  ir::TensorId un = b.Op(OpType::kUnsqueeze, "unsqueeze", {sq, b.Int64s("un_axes", {1}, {0})}, "un",
                         {1, 1, 8, 1});
  ir::TensorId fl =
      b.Op(OpType::kFlatten, "flatten", {un}, "fl", {1, 8}, Attrs({{"axis", int64_t{1}}}));
  b.Output(fl);
  ir::Graph g = b.Take();

  passes::ReshapeCanonicalize(g);

  ASSERT_EQ(OpTypes(g), std::vector<std::string>(3, "Reshape"));
  EXPECT_EQ(g.ops[0].inputs, std::vector<ir::TensorId>{x});
  EXPECT_EQ(g.ops[0].attrs.GetInts("shape"), (std::vector<int64_t>{1, 8, 1}));
  EXPECT_EQ(g.ops[1].inputs, std::vector<ir::TensorId>{sq});
  EXPECT_EQ(g.ops[1].attrs.GetInts("shape"), (std::vector<int64_t>{1, 1, 8, 1}));
  EXPECT_EQ(g.ops[2].inputs, std::vector<ir::TensorId>{un});
  EXPECT_EQ(g.ops[2].attrs.GetInts("shape"), (std::vector<int64_t>{1, 8}));
  EXPECT_FALSE(g.ops[2].attrs.Has("axis"));  // Flatten's axis means nothing to a Reshape
  EXPECT_EQ(g.ops[2].outputs, std::vector<ir::TensorId>{fl});
}

TEST(ReshapeCanonicalize, ReshapeWithShapeOperandGetsAttributeAndComputedOperandDies) {
  // A Reshape whose target an op computes (Cast of a constant, left unfolded here because
  // shape-op-fold did not run): the attribute comes from the output [2,12] and the Cast,
  // no longer read, is removed.
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 2, 3, 4});
  ir::TensorId t32 = b.Const("t32", {2}, DType::kInt32, std::vector<int32_t>{2, -1});
  ir::TensorId t64 = b.Op(OpType::kCast, "cast", {t32}, "t64", {2}, {}, DType::kInt64);
  b.Output(b.Op(OpType::kReshape, "reshape", {x, t64}, "y", {2, 12}));
  ir::Graph g = b.Take();

  passes::ReshapeCanonicalize(g);

  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"Reshape"});
  EXPECT_EQ(g.ops[0].inputs, std::vector<ir::TensorId>{x});
  EXPECT_EQ(g.ops[0].attrs.GetInts("shape"), (std::vector<int64_t>{2, 12}));
}

TEST(ReshapeCanonicalize, ElementCountMismatchIsInvalidModel) {
  // [1,8,1,1] holds 8 elements, [1,4] only 4: no relabeling can do that.
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 8, 1, 1});
  b.Output(b.Op(OpType::kSqueeze, "bad_squeeze", {x}, "y", {1, 4}));
  ir::Graph g = b.Take();
  try {
    passes::ReshapeCanonicalize(g);
    FAIL() << "expected tigris::Error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kInvalidModel);
    EXPECT_NE(std::string(e.what()).find("bad_squeeze"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tigris
