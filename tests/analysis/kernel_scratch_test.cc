#include "analysis/kernel_scratch.h"

#include <gtest/gtest.h>

#include "analysis/conv_graphs.h"
#include "util/error.h"

namespace tigris::analysis {
namespace {

using testing::GraphBuilder;

TEST(KernelScratchTest, SoftmaxKeepsOneFloatPerElementOfItsAxis) {
  GraphBuilder g;
  ir::TensorId x = g.Input("x", {2, 10}, ir::DType::kInt8);
  g.Op(ir::OpType::kSoftmax, "sm", {x}, "y", {2, 10}, {}, ir::DType::kInt8);
  g.Op(ir::OpType::kLogSoftmax, "lsm", {x}, "z", {2, 10}, testing::Attrs({{"axis", int64_t{0}}}));
  EXPECT_EQ(KernelScratchBytes(g.graph(), g.graph().ops[0]), 40);  // default axis -1: 10
  EXPECT_EQ(KernelScratchBytes(g.graph(), g.graph().ops[1]), 8);   // axis 0: 2
}

TEST(KernelScratchTest, DirectConvolutionNeedsNone) {
  GraphBuilder g;
  ir::TensorId x = g.Input("x", {1, 3, 8, 8});
  testing::AddConv(g, "conv", x, {4, 3, 1, 1, 1});
  EXPECT_EQ(KernelScratchBytes(g.graph(), g.graph().ops[0]), 0);
}

TEST(KernelScratchTest, AxisOutsideRankIsInvalidModel) {
  GraphBuilder g;
  ir::TensorId x = g.Input("x", {2, 10});
  g.Op(ir::OpType::kSoftmax, "bad_sm", {x}, "y", {2, 10}, testing::Attrs({{"axis", int64_t{5}}}));
  try {
    KernelScratchBytes(g.graph(), g.graph().ops[0]);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kInvalidModel);
    EXPECT_NE(std::string(e.what()).find("bad_sm"), std::string::npos);
  }
}

}  // namespace
}  // namespace tigris::analysis
