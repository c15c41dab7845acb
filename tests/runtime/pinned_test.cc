// Pinned tensors (plan/pinning.h; docs/memories.md, "Pinned tensors"): whole tensors moved
// after planning into a PINNED arena of their own. The oracle is the same plan unpinned:
// pinning moves bytes, never changes them. Also the PINNED arena's contract (binding,
// high-water mark) and the verifier's rules for it, on real plans corrupted one field at a
// time.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "emit/plan_writer.h"
#include "executor_support.h"
#include "format/tgrs_generated.h"
#include "onnx/onnx_loader.h"
#include "passes/pass.h"
#include "plan/pinning.h"
#include "plan/planner.h"
#include "support/onnx_builder.h"
#include "tigris_context.h"
#include "util/error.h"

namespace tigris::runtime_test {
namespace {

constexpr int kC = 4, kH = 16, kW = 16;

std::vector<float> Ramp(size_t n, float scale, float offset) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = scale * static_cast<float>((i * 7) % 13) - offset;
  return v;
}

// x -> conv a -> relu r -> conv b -> add(b, a) s -> y: `a` is read twice, so nothing fuses
// it away, and a small budget tiles the convolutions.
ir::Graph Net() {
  testing::OnnxModelBuilder b("pin_net", 13);
  b.Input("x", {1, kC, kH, kW});
  b.Initializer("w1", {kC, kC, 3, 3}, Ramp(kC * kC * 9, 0.05f, 0.3f));
  b.Initializer("w2", {kC, kC, 3, 3}, Ramp(kC * kC * 9, 0.04f, 0.2f));
  b.Node("Conv", {"x", "w1"}, {"a"}, "conv_a").Attr("pads", testing::Ints{1, 1, 1, 1});
  b.Node("Relu", {"a"}, {"r"}, "relu");
  b.Node("Conv", {"r", "w2"}, {"b"}, "conv_b").Attr("pads", testing::Ints{1, 1, 1, 1});
  b.Node("Add", {"b", "a"}, {"s"}, "add");
  b.Node("Sigmoid", {"s"}, {"y"}, "sigmoid");
  b.Output("y", {1, kC, kH, kW});
  const std::string bytes = b.Bytes();
  ir::Graph g = onnx_import::LoadOnnxBytes(bytes.data(), bytes.size(), {});
  passes::Normalize(g);
  return g;
}

ir::TensorId Named(const ir::Graph& g, const std::string& name) {
  for (size_t i = 0; i < g.tensors.size(); ++i) {
    if (g.tensors[i].name == name) return static_cast<ir::TensorId>(i);
  }
  ADD_FAILURE() << "no tensor " << name;
  return ir::kNoTensor;
}

plan::PlanResult PlanNet(int64_t fast_bytes) {
  plan::Budget budget;
  budget.fast_bytes = fast_bytes;
  return plan::PlanModel(Net(), budget);
}

std::vector<uint8_t> Emit(const plan::PlanResult& result) {
  emit::EmitOptions options;
  options.xip = true;
  return emit::EmitPlan(result.graph, result, options).bytes;
}

std::vector<uint8_t> Input() {
  const std::vector<float> x = Ramp(kC * kH * kW, 0.1f, 0.5f);
  std::vector<uint8_t> out(x.size() * sizeof(float));
  std::memcpy(out.data(), x.data(), out.size());
  return out;
}

// The unpinned plan at 64 KiB (one normal stage), and the same with `a` and `r` pinned.
struct Pair {
  plan::PlanResult unpinned, pinned;
};
Pair Plans() {
  Pair p{PlanNet(64 * 1024), PlanNet(64 * 1024)};
  plan::PinTensors(p.pinned, {Named(p.pinned.graph, "a"), Named(p.pinned.graph, "r")});
  return p;
}

TEST(PinnedTest, PinnedTensorsLeaveTheFastArenaAndKeepEveryOutputByte) {
  Pair p = Plans();
  ASSERT_EQ(p.unpinned.stages.size(), 1u);
  const int64_t tensor = kC * kH * kW * sizeof(float);  // 4 KiB, a multiple of 16
  // a and r are live together (a feeds add), so they need two homes.
  EXPECT_EQ(p.pinned.pinned_peak_bytes, 2 * tensor);
  EXPECT_LE(p.pinned.scheduled_peak_bytes, p.unpinned.scheduled_peak_bytes - tensor);
  auto unpinned = LoadPlanBytes(Emit(p.unpinned));
  auto pinned = LoadPlanBytes(Emit(p.pinned));
  ASSERT_NE(unpinned, nullptr);
  ASSERT_NE(pinned, nullptr);
  EXPECT_EQ(tgrs_plan_schema_version(&pinned->plan), 4u);
  EXPECT_EQ(tgrs_plan_pinned_arena_bytes(&pinned->plan), static_cast<uint32_t>(2 * tensor));
  EXPECT_EQ(tgrs_plan_pinned_arena_bytes(&unpinned->plan), 0u);
  const RunResult want = RunExact(unpinned->plan, {Input()});
  const RunResult got = RunExact(pinned->plan, {Input()});
  ASSERT_EQ(want.status, TGRS_OK);
  ASSERT_EQ(got.status, TGRS_OK);
  EXPECT_EQ(got.outputs, want.outputs);
  // The run touches exactly the arenas the plan sizes.
  EXPECT_EQ(got.stats.pinned_hwm_bytes, static_cast<size_t>(2 * tensor));
  EXPECT_EQ(got.stats.fast_hwm_bytes, tgrs_plan_fast_arena_bytes(&pinned->plan));
  EXPECT_EQ(want.stats.pinned_hwm_bytes, 0u);
}

TEST(PinnedTest, AContextBindsThePinnedArena) {
  Pair p = Plans();
  auto pinned = LoadPlanBytes(Emit(p.pinned));
  auto unpinned = LoadPlanBytes(Emit(p.unpinned));
  ASSERT_NE(pinned, nullptr);
  tgrs_context ctx;
  ASSERT_EQ(tgrs_context_init(&ctx, &pinned->plan), TGRS_OK);
  const size_t fast = tgrs_context_arena_bytes(&ctx, TGRS_REGION_FAST);
  const size_t bytes = tgrs_context_arena_bytes(&ctx, TGRS_REGION_PINNED);
  EXPECT_EQ(bytes, tgrs_plan_pinned_arena_bytes(&pinned->plan));
  AlignedBuffer fast_arena = PoisonedBuffer(fast), arena = PoisonedBuffer(bytes + 16);
  ASSERT_EQ(tgrs_bind_arena(&ctx, TGRS_REGION_FAST, fast_arena.get(), fast), TGRS_OK);
  ASSERT_EQ(tgrs_hydrate_constants(&ctx), TGRS_OK);
  const std::vector<uint8_t> x = Input();
  std::vector<uint8_t> y(x.size());
  const tgrs_input_buffer in[1] = {{x.data(), x.size()}};
  const tgrs_output_buffer out[1] = {{y.data(), y.size()}};
  // Unbound, then the four bind errors, then bound.
  EXPECT_EQ(tgrs_invoke(&ctx, in, 1, out, 1, nullptr), TGRS_ERR_ARENA_NOT_BOUND);
  EXPECT_EQ(tgrs_bind_arena(&ctx, TGRS_REGION_PINNED, nullptr, bytes), TGRS_ERR_NULL_ARGUMENT);
  EXPECT_EQ(tgrs_bind_arena(&ctx, TGRS_REGION_PINNED, arena.get(), bytes - 1),
            TGRS_ERR_ARENA_TOO_SMALL);
  EXPECT_EQ(tgrs_bind_arena(&ctx, TGRS_REGION_PINNED, arena.get() + 8, bytes),
            TGRS_ERR_ARENA_MISALIGNED);
  EXPECT_EQ(tgrs_bind_arena(&ctx, 7, arena.get(), bytes), TGRS_ERR_UNKNOWN_MEMORY);
  ASSERT_EQ(tgrs_bind_arena(&ctx, TGRS_REGION_PINNED, arena.get(), bytes), TGRS_OK);
  tgrs_run_stats stats;
  ASSERT_EQ(tgrs_invoke(&ctx, in, 1, out, 1, &stats), TGRS_OK);
  EXPECT_EQ(stats.pinned_hwm_bytes, bytes);
  EXPECT_EQ(std::vector<std::vector<uint8_t>>{y}, RunExact(unpinned->plan, {x}).outputs);
  // A plan that pins nothing has no PINNED memory to bind.
  tgrs_context plain;
  ASSERT_EQ(tgrs_context_init(&plain, &unpinned->plan), TGRS_OK);
  EXPECT_EQ(tgrs_context_arena_bytes(&plain, TGRS_REGION_PINNED), 0u);
  EXPECT_EQ(tgrs_bind_arena(&plain, TGRS_REGION_PINNED, arena.get(), bytes),
            TGRS_ERR_UNKNOWN_MEMORY);
}

TEST(PinnedTest, VerifierHoldsPinnedHomesToTheirArena) {
  const std::vector<uint8_t> good = Emit(Plans().pinned);
  const tgrs::Plan* root = tgrs::GetPlan(good.data());
  auto at = [&](const void* p) {
    return static_cast<size_t>(static_cast<const uint8_t*>(p) - good.data());
  };
  std::string text;
  // Schema 3 readers know no PINNED region.
  const size_t version = at(reinterpret_cast<const flatbuffers::Table*>(root)->GetAddressOf(
      tgrs::Plan::VT_SCHEMA_VERSION));
  EXPECT_EQ(VerifyCorrupted(good, version, 3, &text), TGRS_ERR_BAD_ENUM) << text;
  EXPECT_NE(text.find("region 6 (PINNED) holds whole tensors of a schema 4 plan"),
            std::string::npos)
      << text;
  // A smaller PINNED entry leaves the second home outside the arena.
  const auto* entry =
      reinterpret_cast<const flatbuffers::Table*>(root->memories()->Get(TGRS_REGION_PINNED));
  const size_t size = at(entry->GetAddressOf(tgrs::Memory::VT_SIZE));
  const uint32_t bytes = root->memories()->Get(TGRS_REGION_PINNED)->size();
  EXPECT_EQ(VerifyCorrupted(good, size, bytes - 16, &text), TGRS_ERR_BAD_SIZE) << text;
  EXPECT_NE(text.find("past the arena's"), std::string::npos) << text;
  // A pinned home must be a whole tensor's: corrupt the kind of a pinned buffer to a strip.
  const tgrs::Buffer* pinned_buffer = nullptr;
  for (const tgrs::Buffer* b : *root->stages()->Get(0)->buffers()) {
    if (b->home()->region() == tgrs::MemoryRegion::PINNED) pinned_buffer = b;
  }
  ASSERT_NE(pinned_buffer, nullptr);
  const size_t home = at(pinned_buffer->home());
  EXPECT_EQ(VerifyCorrupted(good, home + 8, 7, &text), TGRS_ERR_BAD_ENUM) << text;
  EXPECT_NE(text.find("unknown region 7"), std::string::npos) << text;
  EXPECT_EQ(VerifyCorrupted(good, home, 16 * 1024, &text), TGRS_ERR_BAD_SIZE) << text;
}

// Budget::pinned: the planner leaves pinned tensors out of the fast budget, so a budget
// that only fits without them gives one normal stage instead of tiles.
TEST(PinnedTest, ThePlannerCountsPinnedTensorsAgainstNoFastBudget) {
  constexpr int64_t kBudget = 9 * 1024;  // b and s (4 KiB each) with room for scratch
  plan::Budget budget;
  budget.fast_bytes = kBudget;
  budget.pinned = {"a", "r"};
  const plan::PlanResult pinned = plan::PlanModel(Net(), budget);
  ASSERT_EQ(pinned.stages.size(), 1u);
  EXPECT_EQ(pinned.stages[0].strategy, plan::StageStrategy::kNormal);
  EXPECT_LE(pinned.scheduled_peak_bytes, kBudget);
  EXPECT_EQ(pinned.pinned_peak_bytes, 2 * kC * kH * kW * int64_t{sizeof(float)});
  // Without the pins the same budget needs more than one normal stage.
  const plan::PlanResult plain = PlanNet(kBudget);
  EXPECT_FALSE(plain.stages.size() == 1 &&
               plain.stages[0].strategy == plan::StageStrategy::kNormal);
  // Pinning the finished plan again changes nothing.
  plan::PlanResult again = pinned;
  plan::PinTensors(again, {Named(again.graph, "a"), Named(again.graph, "r")});
  EXPECT_EQ(Emit(again), Emit(pinned));
  EXPECT_EQ(again.slow_traffic_bytes, pinned.slow_traffic_bytes);
  auto loaded = LoadPlanBytes(Emit(pinned));
  auto reference = LoadPlanBytes(Emit(PlanNet(64 * 1024)));
  ASSERT_NE(loaded, nullptr);
  const RunResult got = RunExact(loaded->plan, {Input()});
  ASSERT_EQ(got.status, TGRS_OK);
  EXPECT_EQ(got.outputs, RunExact(reference->plan, {Input()}).outputs);
}

TEST(PinnedTest, TensorsNeverHeldWholeAreRefusedByName) {
  // At 2 KiB the convolutions run in a tile loop: `r` exists only as row strips.
  plan::PlanResult tiled = PlanNet(2 * 1024);
  bool strips_only = true;
  for (const plan::Stage& s : tiled.stages) {
    for (const plan::Buffer& b : s.buffers) strips_only &= b.tensor != Named(tiled.graph, "r");
  }
  for (const plan::SlowBuffer& b : tiled.slow_buffers) {
    strips_only &= b.tensor != Named(tiled.graph, "r");
  }
  ASSERT_TRUE(strips_only) << "the test needs r inside a tile loop";
  try {
    plan::PinTensors(tiled, {Named(tiled.graph, "r")});
    FAIL() << "pinned a tile-loop intermediate";
  } catch (const plan::UnpinnableTensor& e) {
    EXPECT_EQ(e.status(), Status::kInvalidArgument);
    EXPECT_EQ(e.tensor(), "r");
    EXPECT_NE(std::string(e.what()).find("tensor 'r' cannot be pinned"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("computes it in tiles"), std::string::npos) << e.what();
  }
  plan::PlanResult whole = PlanNet(64 * 1024);
  try {
    plan::PinTensors(whole, {Named(whole.graph, "w1")});
    FAIL() << "pinned a constant";
  } catch (const plan::UnpinnableTensor& e) {
    EXPECT_NE(std::string(e.what()).find("tensor 'w1' is a constant"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace tigris::runtime_test
