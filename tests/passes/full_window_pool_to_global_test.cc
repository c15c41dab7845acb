// full-window-pool-to-global: a pool whose unpadded window is the whole map is a global pool.
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

using Ints = std::vector<int64_t>;

// x[1,64,25,5] -> POOL(attrs) -> y[1,64,oh,ow]: the classifier pooling of MLPerf Tiny's
// DS-CNN as tf2onnx writes it.
ir::Graph PoolGraph(OpType type, ir::Attributes attrs, ir::Shape out = {1, 64, 1, 1}) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 64, 25, 5});
  b.Output(b.Op(type, "pool", {x}, "y", std::move(out), std::move(attrs)));
  return b.Take();
}

TEST(FullWindowPoolToGlobal, AveragePoolOverTheWholeMapBecomesGlobalAveragePool) {
  ir::Graph g = PoolGraph(OpType::kAveragePool, Attrs({{"kernel_shape", Ints{25, 5}},
                                                       {"strides", Ints{25, 5}},
                                                       {"pads", Ints{0, 0, 0, 0}},
                                                       {"auto_pad", std::string("VALID")}}));
  passes::FullWindowPoolToGlobal(g);
  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"GlobalAveragePool"});
  EXPECT_EQ(g.ops[0].inputs, std::vector<ir::TensorId>{*g.FindTensor("x")});
  EXPECT_EQ(g.ops[0].outputs, std::vector<ir::TensorId>{*g.FindTensor("y")});
  EXPECT_TRUE(g.ops[0].attrs.values().empty());
}

TEST(FullWindowPoolToGlobal, MaxPoolOverTheWholeMapBecomesGlobalMaxPool) {
  ir::Graph g = PoolGraph(OpType::kMaxPool, Attrs({{"kernel_shape", Ints{25, 5}}}));
  passes::FullWindowPoolToGlobal(g);
  EXPECT_EQ(OpTypes(g), std::vector<std::string>{"GlobalMaxPool"});
}

TEST(FullWindowPoolToGlobal, WindowsThatAreNotTheWholeUnpaddedMapStay) {
  // Smaller than the map, padded (count_include_pad would count the pads), dilated, or
  // padded by auto_pad: each is a windowed pool.
  const std::vector<ir::Attributes> kept = {
      Attrs({{"kernel_shape", Ints{5, 5}}}),
      Attrs({{"kernel_shape", Ints{25, 5}}, {"pads", Ints{1, 0, 0, 0}}}),
      Attrs({{"kernel_shape", Ints{25, 5}}, {"dilations", Ints{2, 1}}}),
      Attrs({{"kernel_shape", Ints{25, 5}}, {"auto_pad", std::string("SAME_UPPER")}}),
  };
  for (const ir::Attributes& attrs : kept) {
    ir::Graph g = PoolGraph(OpType::kAveragePool, attrs, {1, 64, 5, 1});
    passes::FullWindowPoolToGlobal(g);
    EXPECT_EQ(OpTypes(g), std::vector<std::string>{"AveragePool"});
  }
}

}  // namespace
}  // namespace tigris
