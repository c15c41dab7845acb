#include "analysis/macs.h"

#include <gtest/gtest.h>

#include "analysis/conv_graphs.h"

namespace tigris::analysis {
namespace {

using testing::GraphBuilder;

TEST(MacsTest, ConvDepthwiseGemmPool) {
  GraphBuilder g;
  ir::TensorId x = g.Input("x", {1, 3, 8, 8});
  // Conv 3->4, 3x3, pad 1: N*Cout*Hout*Wout*(Cin/group)*KH*KW = 1*4*8*8*3*3*3 = 6912.
  ir::TensorId c = testing::AddConv(g, "conv", x, {4, 3, 1, 1, 1});
  // Depthwise 4 channels, 3x3 stride 2 pad 1: out 4x4x4, 1*4*4*4*1*3*3 = 576.
  ir::TensorId d = testing::AddConv(g, "dw", c, {4, 3, 2, 1, 1, true});
  ir::TensorId p = g.Op(ir::OpType::kMaxPool, "pool", {d}, "p", {1, 4, 2, 2},
                        testing::Attrs({{"kernel_shape", std::vector<int64_t>{2, 2}},
                                        {"strides", std::vector<int64_t>{2, 2}}}));
  ir::TensorId f = g.Op(ir::OpType::kReshape, "flat", {p}, "f", {1, 16});
  ir::TensorId w = g.Floats("w", {10, 16}, std::vector<float>(160));
  g.Op(ir::OpType::kGemm, "fc", {f, w}, "y", {1, 10});  // M*N*K = 1*10*16 = 160
  const auto& ops = g.graph().ops;
  EXPECT_EQ(OpMacs(g.graph(), ops[0]), 6912);
  EXPECT_EQ(OpMacs(g.graph(), ops[1]), 576);
  EXPECT_EQ(OpMacs(g.graph(), ops[2]), 0);
  EXPECT_EQ(OpMacs(g.graph(), ops[3]), 0);
  EXPECT_EQ(OpMacs(g.graph(), ops[4]), 160);
}

TEST(MacsTest, ConvTransposeCountsPerInputElement) {
  // ConvTranspose 2->3 channels, 2x2 kernel over a 1x2x4x4 input:
  // N*Cin*Hin*Win*(Cout/group)*KH*KW = 1*2*4*4*3*2*2 = 384.
  GraphBuilder g;
  ir::TensorId x = g.Input("x", {1, 2, 4, 4});
  ir::TensorId w = g.Floats("w", {2, 3, 2, 2}, std::vector<float>(24));
  g.Op(ir::OpType::kConvTranspose, "up", {x, w}, "y", {1, 3, 8, 8},
       testing::Attrs({{"strides", std::vector<int64_t>{2, 2}}}));
  EXPECT_EQ(OpMacs(g.graph(), g.graph().ops[0]), 384);
}

}  // namespace
}  // namespace tigris::analysis
