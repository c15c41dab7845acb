#include "ir/tensor.h"

#include <gtest/gtest.h>

#include "ir/op_type.h"
#include "util/error.h"

namespace tigris::ir {
namespace {

TEST(ShapeTest, NumElementsAndText) {
  EXPECT_EQ(NumElements({1, 3, 96, 96}), 27648);
  EXPECT_EQ(NumElements({}), 1);  // scalar
  EXPECT_EQ(NumElements({4, 0}), 0);
  EXPECT_EQ(ShapeToString({1, 3, 96, 96}), "1x3x96x96");
  EXPECT_EQ(ShapeToString({}), "scalar");
}

TEST(TensorTest, ByteSizeUsesElementSize) {
  Tensor t;
  t.shape = {1, 16, 48, 48};
  t.dtype = DType::kFloat32;
  EXPECT_EQ(t.byte_size(), 16 * 48 * 48 * 4);
  t.dtype = DType::kInt8;
  EXPECT_EQ(t.byte_size(), 16 * 48 * 48);
}

TEST(TensorTest, ConstantConversionReadsEveryIntegerAndFloatType) {
  Tensor t;
  t.is_constant = true;
  t.dtype = DType::kInt32;
  t.SetData(std::vector<int32_t>{-1, 7});
  EXPECT_EQ(ConstantAsInt64s(t), (std::vector<int64_t>{-1, 7}));
  t.dtype = DType::kFloat64;
  t.SetData(std::vector<double>{0.5, 6.0});
  EXPECT_EQ(ConstantAsDoubles(t), (std::vector<double>{0.5, 6.0}));
  t.dtype = DType::kUInt8;
  t.SetData(std::vector<uint8_t>{255});
  EXPECT_EQ(ConstantAsInt64s(t), std::vector<int64_t>{255});
}

TEST(TensorTest, ConversionOfActivationIsAnError) {
  Tensor t;
  t.name = "act";
  t.dtype = DType::kFloat32;
  try {
    ConstantAsDoubles(t);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kInvalidModel);
    EXPECT_NE(std::string(e.what()).find("act"), std::string::npos);
  }
}

TEST(OpTypeTest, OnnxNamesMapAndIrOnlyNamesDoNot) {
  EXPECT_EQ(OpTypeFromOnnx("Conv"), OpType::kConv);
  EXPECT_EQ(OpTypeFromOnnx("QuantizeLinear"), OpType::kQuantizeLinear);
  EXPECT_FALSE(OpTypeFromOnnx("Trilu").has_value());
  EXPECT_FALSE(OpTypeFromOnnx("DepthwiseConv").has_value());  // IR-only
  EXPECT_TRUE(IsRuntimeOp(OpType::kDepthwiseConv));
  EXPECT_FALSE(IsRuntimeOp(OpType::kShape));
  EXPECT_EQ(OpTypeName(OpType::kGlobalAveragePool), "GlobalAveragePool");
}

}  // namespace
}  // namespace tigris::ir
