// The writer on small hand-built graphs: layout-dependent attributes (Reshape across
// layouts, Transpose composition, Concat/Softmax axes), float BatchNormalization folding,
// per-stage weight copies and the option checks.
#include "emit/plan_writer.h"

#include <gtest/gtest.h>

#include <cmath>

#include "emit/compile.h"
#include "format/tgrs_generated.h"
#include "plan/planner.h"
#include "support/graph_builder.h"
#include "util/error.h"

namespace tigris::emit {
namespace {

using testing::GraphBuilder;

template <typename T, typename U>
std::vector<T> ToVec(const flatbuffers::Vector<U>* v) {
  std::vector<T> out;
  if (v) {
    for (auto x : *v) out.push_back(static_cast<T>(x));
  }
  return out;
}

EmittedPlan Emit(const ir::Graph& g, int64_t fast = 1 << 20, EmitOptions o = {}) {
  plan::Budget budget;
  budget.fast_bytes = fast;
  return EmitPlan(g, plan::PlanModel(g, budget), o);
}

TEST(PlanWriterTest, FlattenOfAnNchwTensorTransposesBackToOnnxOrder) {
  // x[1,2,3,3] -> Reshape -> y[1,18]. The runtime holds x as NHWC [1,3,3,2]; ONNX flattens
  // C-major, so the reshape is a transpose of the NHWC view by [0,3,1,2] (NHWC -> NCHW).
  GraphBuilder b;
  const ir::TensorId x = b.Input("x", {1, 2, 3, 3});
  ir::Attributes a;
  a.Set("shape", std::vector<int64_t>{1, 18});
  const ir::TensorId y = b.Op(ir::OpType::kReshape, "flatten", {x}, "y", {1, 18}, a);
  b.Output(y);
  const EmittedPlan e = Emit(b.graph());
  const tgrs::Op* op = tgrs::GetPlan(e.bytes.data())->ops()->Get(0);
  EXPECT_EQ(ToVec<int>(op->attrs()->shape()), (std::vector<int>{1, 18}));
  EXPECT_EQ(ToVec<int>(op->attrs()->perm()), (std::vector<int>{0, 3, 1, 2}));
  EXPECT_EQ(ToVec<int>(op->attrs()->view_shape()), (std::vector<int>{1, 3, 3, 2}));
}

TEST(PlanWriterTest, ReshapesThatKeepTheBytesAreCopies) {
  // [1,C,1,1] -> [1,C] (after a global pool): NHWC [1,1,1,C] has the same byte order.
  GraphBuilder b;
  const ir::TensorId x = b.Input("x", {1, 8, 1, 1});
  ir::Attributes a;
  a.Set("shape", std::vector<int64_t>{1, 8});
  b.Output(b.Op(ir::OpType::kReshape, "squeeze", {x}, "y", {1, 8}, a));
  const EmittedPlan e = Emit(b.graph());
  const tgrs::Op* op = tgrs::GetPlan(e.bytes.data())->ops()->Get(0);
  EXPECT_EQ(op->attrs()->perm(), nullptr);
  EXPECT_EQ(op->attrs()->view_shape(), nullptr);
}

TEST(PlanWriterTest, UnflattenLaysTheOnnxOrderOutChannelsLast) {
  // y[1,12] -> [1,3,2,2]: the input bytes are NCHW order; transpose the NCHW view to NHWC.
  GraphBuilder b;
  const ir::TensorId x = b.Input("x", {1, 12});
  ir::Attributes a;
  a.Set("shape", std::vector<int64_t>{1, 3, 2, 2});
  b.Output(b.Op(ir::OpType::kReshape, "unflatten", {x}, "y", {1, 3, 2, 2}, a));
  const EmittedPlan e = Emit(b.graph());  // p points into e.bytes: keep e alive
  const tgrs::Plan* p = tgrs::GetPlan(e.bytes.data());
  EXPECT_EQ(ToVec<int>(p->ops()->Get(0)->attrs()->perm()), (std::vector<int>{0, 2, 3, 1}));
  EXPECT_EQ(ToVec<int>(p->ops()->Get(0)->attrs()->view_shape()), (std::vector<int>{1, 3, 2, 2}));
  // Output host permutation: onnx = transpose(runtime NHWC, [0,3,1,2]).
  const tgrs::Tensor* out =
      p->tensors()->Get(static_cast<flatbuffers::uoffset_t>(p->outputs()->Get(0)));
  EXPECT_EQ(ToVec<int>(out->host_permutation()), (std::vector<int>{0, 3, 1, 2}));
  EXPECT_EQ(ToVec<int>(out->onnx_shape()), (std::vector<int>{1, 3, 2, 2}));
  EXPECT_EQ(ToVec<int>(out->shape()), (std::vector<int>{1, 2, 2, 3}));
}

TEST(PlanWriterTest, TransposePermIsComposedWithTheLayouts) {
  // IR: x[1,2,3,4] (N,C,H,W) -> Transpose([0,2,3,1]) -> y[1,3,4,2], y[n,a,b,c] = x[n,c,a,b].
  // Runtime: x_rt[n,H,W,C] = x[n,C,H,W]; y_rt[n,h,w,c] = y[n,c,h,w] = x[n,w,c,h]
  // = x_rt[n, c, h, w] -> y_rt dim 1 (h) is x_rt's W (2), dim 2 (w) its C (3), dim 3 (c)
  // its H (1): perm [0,2,3,1].
  GraphBuilder b;
  const ir::TensorId x = b.Input("x", {1, 2, 3, 4});
  ir::Attributes a;
  a.Set("perm", std::vector<int64_t>{0, 2, 3, 1});
  b.Output(b.Op(ir::OpType::kTranspose, "t", {x}, "y", {1, 3, 4, 2}, a));
  const EmittedPlan e = Emit(b.graph());  // p points into e.bytes: keep e alive
  const tgrs::Plan* p = tgrs::GetPlan(e.bytes.data());
  const std::vector<int> perm = ToVec<int>(p->ops()->Get(0)->attrs()->perm());
  EXPECT_EQ(perm, (std::vector<int>{0, 2, 3, 1}));
  // Check with shapes: x_rt [1,3,4,2] transposed by perm gives y_rt [1,4,2,3].
  const std::vector<int> x_rt = ToVec<int>(p->tensors()->Get(0)->shape());
  const std::vector<int> y_rt = ToVec<int>(p->tensors()->Get(1)->shape());
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(y_rt[i], x_rt[static_cast<size_t>(perm[i])]);
}

TEST(PlanWriterTest, FloatBatchNormBecomesScaleAndShift) {
  // eps 1. channel 0: gamma 2, beta 1, mean 3, var 3: scale = 2 / sqrt(4) = 1,
  // shift = 1 - 3 * 1 = -2. channel 1: gamma 1, beta 0, mean 0, var 3: scale 0.5, shift 0.
  GraphBuilder b;
  const ir::TensorId x = b.Input("x", {1, 2, 2, 2});
  const ir::TensorId gamma = b.Floats("gamma", {2}, {2.0f, 1.0f});
  const ir::TensorId beta = b.Floats("beta", {2}, {1.0f, 0.0f});
  const ir::TensorId mean = b.Floats("mean", {2}, {3.0f, 0.0f});
  const ir::TensorId var = b.Floats("var", {2}, {3.0f, 3.0f});
  ir::Attributes a;
  a.Set("epsilon", 1.0f);
  b.Output(b.Op(ir::OpType::kBatchNormalization, "bn", {x, gamma, beta, mean, var}, "y",
                {1, 2, 2, 2}, a));
  const EmittedPlan e = Emit(b.graph());  // p points into e.bytes: keep e alive
  const tgrs::Plan* p = tgrs::GetPlan(e.bytes.data());
  const tgrs::Op* op = p->ops()->Get(0);
  EXPECT_EQ(ToVec<float>(op->channel_scale()), (std::vector<float>{1.0f, 0.5f}));
  EXPECT_EQ(ToVec<float>(op->channel_shift()), (std::vector<float>{-2.0f, 0.0f}));
  EXPECT_EQ(op->inputs()->size(), 1u);  // statistics folded, not stored as weights
  EXPECT_EQ(p->weights()->size(), 0u);
}

TEST(PlanWriterTest, ConstantSharedByTwoStagesIsCopiedPerStageWithoutXip) {
  // y = x + c; z = y + c; w = z + x with 4 KiB tensors and an 8 KiB budget: the planner
  // puts each op in its own stage (docs/planning.md), so c is needed by stages 0 and 1.
  GraphBuilder b;
  const ir::TensorId x = b.Input("x", {1, 4, 16, 16});
  const ir::TensorId c = b.Floats("c", {1, 4, 1, 1}, {1, 2, 3, 4});
  const ir::TensorId y = b.Op(ir::OpType::kAdd, "a0", {x, c}, "y", {1, 4, 16, 16});
  const ir::TensorId z = b.Op(ir::OpType::kAdd, "a1", {y, c}, "z", {1, 4, 16, 16});
  b.Output(b.Op(ir::OpType::kAdd, "a2", {z, x}, "w", {1, 4, 16, 16}));
  EmitOptions o;
  o.xip = false;
  const EmittedPlan e = Emit(b.graph(), 8192, o);
  const tgrs::Plan* p = tgrs::GetPlan(e.bytes.data());
  ASSERT_GE(p->stages()->size(), 2u);
  ASSERT_EQ(p->tensors()->size(), b.graph().tensors.size() + 1);  // one copy appended
  const int copy = p->ops()->Get(1)->inputs()->Get(1);
  EXPECT_EQ(copy, static_cast<int>(b.graph().tensors.size()));
  EXPECT_EQ(p->tensors()->Get(static_cast<flatbuffers::uoffset_t>(copy))->name()->str(),
            "c@stage1");
  EXPECT_EQ(p->ops()->Get(0)->inputs()->Get(1), c);
  // Each stage's block holds its own 16 bytes; the stage reserves them below its buffers.
  EXPECT_EQ(p->stages()->Get(0)->fast_reserved_bytes(), 16u);
  EXPECT_EQ(p->stages()->Get(1)->fast_reserved_bytes(), 16u);
  EXPECT_EQ(p->stages()->Get(2)->fast_reserved_bytes(), 0u);
  EXPECT_EQ(p->stages()->Get(0)->buffers()->Get(0)->home()->offset(), 16u);
  EXPECT_EQ(p->fast_arena_bytes(), 16u + p->stages()->Get(0)->peak_bytes());
}

TEST(PlanWriterTest, OptionAndBudgetErrors) {
  GraphBuilder b;
  const ir::TensorId x = b.Input("x", {1, 4, 16, 16});
  const ir::TensorId c = b.Floats("c", {1, 4, 1, 1}, {1, 2, 3, 4});
  b.Output(b.Op(ir::OpType::kAdd, "a0", {x, c}, "y", {1, 4, 16, 16}));
  EmitOptions lz4_xip;
  lz4_xip.lz4 = true;
  try {
    Emit(b.graph(), 1 << 20, lz4_xip);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kInvalidArgument);
  }
  // Not xip: the planner reserves the 16 bytes of c below the activations, so at 8192 (x
  // and y alone are 8192) it must tile, and every stage keeps weights + peak <= budget.
  plan::Budget budget;
  budget.fast_bytes = 8192;
  EmitOptions copy;
  copy.xip = false;
  const CompiledPlan tight = Compile(b.graph(), budget, copy);
  for (const plan::Stage& s : tight.result.stages) {
    EXPECT_LE(tight.emitted.stage_reserved_bytes[static_cast<size_t>(s.id)] + s.peak_bytes,
              budget.fast_bytes);
  }
  EXPECT_LE(tgrs::GetPlan(tight.emitted.bytes.data())->fast_arena_bytes(), 8192u);
  // A constant bigger than the budget cannot be copied in at all: the planner says so.
  GraphBuilder big;
  const ir::TensorId bx = big.Input("x", {1, 4, 16, 16});
  const ir::TensorId bc = big.Floats("c", {1, 4, 16, 16}, std::vector<float>(1024, 1.0f));
  big.Output(big.Op(ir::OpType::kAdd, "a0", {bx, bc}, "y", {1, 4, 16, 16}));
  budget.fast_bytes = 4000;  // c alone is 4096 bytes
  try {
    Compile(big.graph(), budget, copy);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kDoesNotFit);
    EXPECT_NE(std::string(e.what()).find("4096 bytes of weights copied to fast memory"),
              std::string::npos)
        << e.what();
  }
  budget.fast_bytes = 1 << 20;
  budget.flash_bytes = 100;
  try {
    Compile(b.graph(), budget, EmitOptions{});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kFlashBudgetTooSmall);
    EXPECT_NE(std::string(e.what()).find("flash budget is 100 bytes"), std::string::npos);
  }
}

}  // namespace
}  // namespace tigris::emit
