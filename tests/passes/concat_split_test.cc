// concat-split: a Concat of more inputs than the runtime's op call holds becomes a chain
// (passes/concat_split.cc).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "passes/passes.h"
#include "support/graph_builder.h"

namespace tigris {
namespace {

using ir::OpType;
using testing::Attrs;
using testing::GraphBuilder;
using testing::OpTypes;

// y = Concat(x0 .. x{n-1}) along C, each x_i [1, i + 1, 4, 4]: y has n (n + 1) / 2 channels.
ir::Graph WideConcat(size_t n) {
  GraphBuilder b;
  std::vector<ir::TensorId> inputs;
  int64_t channels = 0;
  for (size_t i = 0; i < n; ++i) {
    inputs.push_back(b.Input("x" + std::to_string(i), {1, static_cast<int64_t>(i) + 1, 4, 4}));
    channels += static_cast<int64_t>(i) + 1;
  }
  b.Output(b.Op(OpType::kConcat, "cat", inputs, "y", {1, channels, 4, 4},
                Attrs({{"axis", int64_t{-3}}})));
  ir::Graph g = b.Take();
  ir::QuantParams q;
  q.scales = {0.5f};
  q.zero_points = {3};
  g.tensor(g.outputs[0]).quant = q;
  return g;
}

TEST(ConcatSplit, TwentyFiveInputsBecomeTwoLinks) {
  // DenseNet-121's block 3: 25 inputs -> Concat(x0..x15) -> p; Concat(p, x16..x24) -> y.
  ir::Graph g = WideConcat(25);
  const std::vector<ir::TensorId> inputs = g.ops[0].inputs;
  passes::ConcatSplit(g);
  ASSERT_EQ(OpTypes(g), (std::vector<std::string>{"Concat", "Concat"}));
  const ir::Op& first = g.ops[0];
  const ir::Op& last = g.ops[1];
  ASSERT_EQ(first.inputs.size(), passes::kMaxOpInputs);
  EXPECT_TRUE(std::equal(first.inputs.begin(), first.inputs.end(), inputs.begin()));
  const ir::Tensor& partial = g.tensor(first.outputs[0]);
  EXPECT_EQ(partial.shape, (ir::Shape{1, 16 * 17 / 2, 4, 4}));
  EXPECT_TRUE(partial.quant == g.tensor(g.outputs[0]).quant) << "the output's quantization";
  ASSERT_EQ(last.inputs.size(), 10u);
  EXPECT_EQ(last.inputs[0], first.outputs[0]);
  EXPECT_EQ(last.inputs.back(), inputs.back());
  EXPECT_EQ(last.name, "cat");
  EXPECT_EQ(last.outputs, g.outputs);
  EXPECT_EQ(last.attrs.GetInt("axis", 0), -3);
}

TEST(ConcatSplit, FortyInputsBecomeThreeLinksAndSixteenStayOne) {
  ir::Graph wide = WideConcat(40);
  passes::ConcatSplit(wide);
  ASSERT_EQ(wide.ops.size(), 3u);  // 16, then 1 + 15, then 1 + 9
  for (const ir::Op& op : wide.ops) EXPECT_LE(op.inputs.size(), passes::kMaxOpInputs);
  EXPECT_EQ(wide.tensor(wide.ops[1].outputs[0]).shape[1], 31 * 32 / 2);

  ir::Graph fits = WideConcat(16);
  passes::ConcatSplit(fits);
  EXPECT_EQ(fits.ops.size(), 1u);
}

}  // namespace
}  // namespace tigris
