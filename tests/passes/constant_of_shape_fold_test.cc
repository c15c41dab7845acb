// constant-of-shape-fold: ConstantOfShape becomes a filled constant.
#include <gtest/gtest.h>

#include "passes/passes.h"
#include "support/graph_builder.h"
#include "util/error.h"

namespace tigris::passes {
namespace {

using testing::GraphBuilder;
using testing::OpTypes;

TEST(ConstantOfShapeFold, ConstantShapeFillsWithValue) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {2, 3});
  ir::TensorId shape = b.Int64s("shape", {2}, {2, 3});
  ir::TensorId value = b.Floats("value", {1}, {0.5f});  // the loader's input 1
  ir::TensorId filled = b.Op(ir::OpType::kConstantOfShape, "fill", {shape, value}, "c", {2, 3});
  b.Output(b.Op(ir::OpType::kAdd, "add", {x, filled}, "y", {2, 3}));
  ir::Graph g = b.Take();

  ConstantOfShapeFold(g);

  EXPECT_EQ(OpTypes(g), std::vector<std::string>{"Add"});
  const ir::Tensor& c = g.tensor(g.ops[0].inputs[1]);
  EXPECT_TRUE(c.is_constant);
  EXPECT_EQ(c.dtype, ir::DType::kFloat32);
  // 2 x 3 = 6 copies of the fill value.
  EXPECT_EQ(c.DataAs<float>(), std::vector<float>(6, 0.5f));
}

TEST(ConstantOfShapeFold, ComputedShapeUsesTheResolvedOutputShapeAndFillDtype) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 4});
  ir::TensorId dims =
      b.Op(ir::OpType::kShape, "shape_of_x", {x}, "dims", {2}, {}, ir::DType::kInt64);
  ir::TensorId value = b.Int64s("value", {1}, {-3});
  b.Output(b.Op(ir::OpType::kConstantOfShape, "fill", {dims, value}, "c", {1, 4}, {},
                ir::DType::kInt64));
  ir::Graph g = b.Take();

  ConstantOfShapeFold(g);

  // Only the Shape op is left (shape-op-fold erases it once nothing reads it).
  EXPECT_EQ(OpTypes(g), std::vector<std::string>{"Shape"});
  const ir::Tensor& c = g.tensor(g.outputs[0]);
  EXPECT_TRUE(c.is_constant);
  EXPECT_EQ(c.dtype, ir::DType::kInt64);
  EXPECT_EQ(c.DataAs<int64_t>(), std::vector<int64_t>(4, -3));
}

TEST(ConstantOfShapeFold, ShapeOperandDisagreeingWithResolvedShapeIsRejected) {
  GraphBuilder b;
  ir::TensorId shape = b.Int64s("shape", {1}, {5});
  ir::TensorId value = b.Floats("value", {1}, {0.0f});
  b.Output(b.Op(ir::OpType::kConstantOfShape, "fill", {shape, value}, "c", {4}));
  ir::Graph g = b.Take();
  try {
    ConstantOfShapeFold(g);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kInvalidModel);
    EXPECT_NE(std::string(e.what()).find("fill"), std::string::npos) << e.what();
  }
}

TEST(ConstantOfShapeFold, AConstantOverOneGibibyteIsRejectedBeforeAllocating) {
  GraphBuilder b;
  ir::TensorId value = b.Floats("value", {1}, {1.0f});
  // 2^28 float32 elements is exactly 1 GiB: allowed; one row more is not.
  b.Output(b.Op(ir::OpType::kConstantOfShape, "huge", {ir::kNoTensor, value}, "c",
                {(int64_t{1} << 28) + 1}));
  ir::Graph g = b.Take();
  try {
    ConstantOfShapeFold(g);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kInvalidModel);
    EXPECT_NE(std::string(e.what()).find("'huge'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("1024 MiB"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tigris::passes
