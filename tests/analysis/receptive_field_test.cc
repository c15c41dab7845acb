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
  EXPECT_EQ(ComputeReceptiveField({{3, 2, 1, 1, 1, {}}, {3, 1, 1, 1, 1, {}}}).rows, 5);
  EXPECT_EQ(ComputeReceptiveField({{3, 1, 1, 1, 1, {}}, {3, 2, 1, 1, 1, {}}}).rows, 7);
  EXPECT_EQ(ComputeReceptiveField({}).halo, 0);
}

TEST(ReceptiveFieldTest, ExactInputRowsDoNotOverAllocateWithStride) {
  // 4 output rows of a 3x3 stride-2 conv read rows 0..8: (4-1)*2 + (3-1)*1 + 1 = 9; the
  // reference's 4*2 + 2 = 10 is one row too many.
  RowWindow w{3, 2, 1, 1, 1, {}};
  EXPECT_EQ(w.InputRows(4), 9);
  RowWindow dilated{3, 1, 2, 2, 2, {}};
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

// A Resize's windows, hand-computed from ONNX's formulas (onnx Resize spec, "half_pixel":
// x_original = (x + 0.5) / scale - 0.5).
ir::Op Resize(GraphBuilder& b, int64_t in, int64_t out, float scale, const std::string& mode) {
  ir::TensorId x = b.Input("x", {1, 2, in, in});
  b.Op(ir::OpType::kResize, "up", {x}, "y", {1, 2, out, out},
       testing::Attrs({{"scales", std::vector<float>{1, 1, scale, scale}},
                       {"mode", mode},
                       {"coordinate_transformation_mode", std::string("half_pixel")}}));
  return b.graph().ops[0];
}

TEST(ResampleMapTest, NearestHalfPixelRoundsHalvesDown) {
  // scale 2, 4 -> 8 rows: x_original = -0.25, 0.25, 0.75, ..., 3.25, rounded (prefer floor)
  // and clamped: 0 0 1 1 2 2 3 3.
  GraphBuilder b;
  const ResampleMap m = ResizeMap(b.graph(), Resize(b, 4, 8, 2.0f, "nearest"), 0);
  const int64_t expected[] = {0, 0, 1, 1, 2, 2, 3, 3};
  for (int64_t x = 0; x < 8; ++x) {
    EXPECT_EQ(m.Sources(x), std::make_pair(expected[x], expected[x])) << "row " << x;
  }
}

TEST(ResampleMapTest, LinearFractionalScaleReadsTwoNeighbours) {
  // scale 2.5, 8 -> 20 rows. Row 0: -0.3 clamps to 0 -> rows 0, 1; row 10: 3.7 -> 3, 4;
  // row 19: 7.3 clamps to 7 -> 7, 7 (the last row twice).
  GraphBuilder b;
  const ir::Op op = Resize(b, 8, 20, 2.5f, "linear");
  RowWindow w;
  w.resample = ResizeMap(b.graph(), op, 0);
  EXPECT_EQ(w.resample->Sources(0), std::make_pair(int64_t{0}, int64_t{1}));
  EXPECT_EQ(w.resample->Sources(10), std::make_pair(int64_t{3}, int64_t{4}));
  EXPECT_EQ(w.resample->Sources(19), std::make_pair(int64_t{7}, int64_t{7}));
  // Rows [8, 12): 2.9 -> 2, 3 up to 4.1 -> 4, 5: input rows [2, 6), never padded.
  EXPECT_EQ(w.Taps(8, 12), std::make_pair(int64_t{2}, int64_t{6}));
}

TEST(ResampleMapTest, ConvolutionWindowTapsIncludeItsPadding) {
  // 3 taps, stride 2, one row of padding on top: row 0 reads -1..1, row 1 reads 1..3.
  const RowWindow w{3, 2, 1, 1, 1, {}};
  EXPECT_EQ(w.Taps(0, 2), std::make_pair(int64_t{-1}, int64_t{4}));
}

TEST(ResampleMapTest, CubicHasNoKernelAndNamesTheNode) {
  GraphBuilder b;
  const ir::Op op = Resize(b, 4, 8, 2.0f, "cubic");
  try {
    ResizeMap(b.graph(), op, 0);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kInvalidModel);
    EXPECT_NE(std::string(e.what()).find("'up'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tigris::analysis
