#include "analysis/receptive_field.h"

#include <gtest/gtest.h>

#include "analysis/conv_graphs.h"
#include "util/error.h"

namespace tigris::analysis {
namespace {

using testing::AddConv;
using testing::ConvSpec;
using testing::GraphBuilder;

// Builds the convs of one row of the reference table on a 1x4x32x32 input and returns the
// halo computed from their attributes.
int64_t HaloOf(const std::vector<ConvSpec>& specs) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 4, 32, 32});
  for (size_t i = 0; i < specs.size(); ++i) x = AddConv(b, "c" + std::to_string(i), x, specs[i]);
  std::vector<RowWindow> windows;
  for (const ir::Op& op : b.graph().ops) windows.push_back(SpatialRowWindow(b.graph(), op));
  const ReceptiveField rf = ComputeReceptiveField(windows);
  EXPECT_EQ(rf.halo, rf.rows - 1);
  return rf.halo;
}

// tigris-tiling.txt, "Examples" table: kernel / stride / dilation -> RF, halo.
TEST(ReceptiveFieldTest, ReferenceTable3x3Conv) { EXPECT_EQ(HaloOf({{4, 3, 1, 1, 1}}), 2); }
TEST(ReceptiveFieldTest, ReferenceTable5x5Conv) { EXPECT_EQ(HaloOf({{4, 5, 1, 2, 1}}), 4); }
TEST(ReceptiveFieldTest, ReferenceTable3x3Stride2) { EXPECT_EQ(HaloOf({{4, 3, 2, 1, 1}}), 2); }
TEST(ReceptiveFieldTest, ReferenceTableDepthwiseThenConv) {
  ConvSpec dw{4, 3, 1, 1, 1, true};
  EXPECT_EQ(HaloOf({dw, {4, 3, 1, 1, 1}}), 4);
}
TEST(ReceptiveFieldTest, ReferenceTableDilation2) { EXPECT_EQ(HaloOf({{4, 3, 1, 2, 2}}), 4); }

TEST(ReceptiveFieldTest, StrideCompoundsForEarlierOps) {
  // 3x3 s2 then 3x3 s1, walked in reverse: RF = 1 + 2*1 = 3, then 3 + 2*1 = 5 (the later
  // op's stride 1 multiplies); 3x3 s1 then 3x3 s2: 1 + 2*1 = 3, stride becomes 2, 3 + 2*2 = 7.
  EXPECT_EQ(ComputeReceptiveField({{3, 2, 1, 1, 1}, {3, 1, 1, 1, 1}}).rows, 5);
  EXPECT_EQ(ComputeReceptiveField({{3, 1, 1, 1, 1}, {3, 2, 1, 1, 1}}).rows, 7);
  EXPECT_EQ(ComputeReceptiveField({}).halo, 0);
}

TEST(ReceptiveFieldTest, ExactInputRowsDoNotOverAllocateWithStride) {
  // 4 output rows of a 3x3 stride-2 conv read rows 0..8: (4-1)*2 + (3-1)*1 + 1 = 9; the
  // reference's 4*2 + 2 = 10 is one row too many.
  RowWindow w{3, 2, 1, 1, 1};
  EXPECT_EQ(w.InputRows(4), 9);
  RowWindow dilated{3, 1, 2, 2, 2};
  EXPECT_EQ(dilated.InputRows(1), 5);  // taps at 0, 2, 4
}

TEST(ReceptiveFieldTest, ReadsPadsAsTopLeftBottomRight) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 1, 8, 8});
  ir::TensorId w = b.Floats("w", {1, 1, 3, 3}, std::vector<float>(9));
  b.Op(ir::OpType::kConv, "conv", {x, w}, "y", {1, 1, 8, 8},
       testing::Attrs({{"pads", std::vector<int64_t>{2, 0, 0, 0}}}));
  const RowWindow rw = SpatialRowWindow(b.graph(), b.graph().ops[0]);
  EXPECT_EQ(rw.kernel, 3);  // from the weight, kernel_shape absent
  EXPECT_EQ(rw.pad_top, 2);
  EXPECT_EQ(rw.pad_bottom, 0);
}

TEST(ReceptiveFieldTest, SameUpperAutoPadResolvedFromShapes) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 1, 8, 8});
  // 2x2 window stride 1 over 8 rows, 8 out: total pad (8-1)+2-8 = 1, SAME_UPPER puts the
  // odd row at the bottom.
  b.Op(ir::OpType::kMaxPool, "pool", {x}, "y", {1, 1, 8, 8},
       testing::Attrs({{"kernel_shape", std::vector<int64_t>{2, 2}},
                       {"auto_pad", std::string("SAME_UPPER")}}));
  const RowWindow rw = SpatialRowWindow(b.graph(), b.graph().ops[0]);
  EXPECT_EQ(rw.pad_top, 0);
  EXPECT_EQ(rw.pad_bottom, 1);
}

TEST(ReceptiveFieldTest, MalformedStridesNameTheNode) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 1, 8, 8});
  b.Op(ir::OpType::kMaxPool, "bad_pool", {x}, "y", {1, 1, 8, 8},
       testing::Attrs({{"kernel_shape", std::vector<int64_t>{2, 2}},
                       {"strides", std::vector<int64_t>{1, 1, 1}}}));
  try {
    SpatialRowWindow(b.graph(), b.graph().ops[0]);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kInvalidModel);
    EXPECT_NE(std::string(e.what()).find("bad_pool"), std::string::npos);
  }
}

}  // namespace
}  // namespace tigris::analysis
