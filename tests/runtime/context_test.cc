// tgrs_context (tigris_context.h, issue 15): the four bind errors, the hydration latch, an
// unbound arena, and two models sharing one scratch arena with their own slow arenas.
// Every output is checked against tgrs_run on fresh arenas of the same plan.
#include "tigris_context.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "executor_support.h"
#include "support/test_env.h"

namespace tigris::runtime_test {
namespace {

struct Model {
  std::unique_ptr<LoadedPlan> loaded;
  std::vector<std::vector<uint8_t>> inputs;
  RunResult reference;  // tgrs_run with fresh exact arenas
};

// A plan that spills (a slow arena) when `fast` is small enough.
Model Compile(const std::string& model, int64_t fast) {
  Model m;
  m.loaded = LoadPlanBytes(CompileModel(testing::SharedOnnxModel(model), fast, /*xip=*/true));
  EXPECT_NE(m.loaded, nullptr);
  if (!m.loaded) return m;
  m.inputs = DeterministicInputs(m.loaded->plan);
  m.reference = RunExact(m.loaded->plan, m.inputs);
  EXPECT_EQ(m.reference.status, TGRS_OK);
  return m;
}

struct Io {
  std::vector<tgrs_input_buffer> in;
  std::vector<std::vector<uint8_t>> out_bytes;
  std::vector<tgrs_output_buffer> out;
};

Io IoFor(const Model& m) {
  Io io;
  for (const auto& x : m.inputs) io.in.push_back({x.data(), x.size()});
  const uint32_t n = tgrs_plan_outputs(&m.loaded->plan).count;
  io.out_bytes.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    io.out_bytes[i].assign(IoBytes(m.loaded->plan, true, i), 0);
    io.out.push_back({io.out_bytes[i].data(), io.out_bytes[i].size()});
  }
  return io;
}

tgrs_status Invoke(tgrs_context* ctx, Io& io) {
  tgrs_run_stats stats;
  return tgrs_invoke(ctx, io.in.data(), static_cast<uint32_t>(io.in.size()), io.out.data(),
                     static_cast<uint32_t>(io.out.size()), &stats);
}

TEST(ContextTest, BindErrorsNameTheirCause) {
  Model m = Compile("mnist8.onnx", 4 * 1024);  // spills: both arenas in use
  ASSERT_NE(m.loaded, nullptr);
  const tgrs_plan& plan = m.loaded->plan;
  ASSERT_GT(tgrs_plan_slow_arena_bytes(&plan), 0u);
  tgrs_context ctx;
  ASSERT_EQ(tgrs_context_init(&ctx, &plan), TGRS_OK);
  const size_t fast = tgrs_context_arena_bytes(&ctx, TGRS_REGION_FAST);
  EXPECT_EQ(fast, tgrs_plan_fast_arena_bytes(&plan));
  AlignedBuffer buffer = PoisonedBuffer(fast + 16);

  // 1. Not an arena of the plan: the plan itself, the caller's buffers, past the list.
  EXPECT_EQ(tgrs_bind_arena(&ctx, TGRS_REGION_FLASH, buffer.get(), fast), TGRS_ERR_UNKNOWN_MEMORY);
  EXPECT_EQ(tgrs_bind_arena(&ctx, TGRS_REGION_HOST, buffer.get(), fast), TGRS_ERR_UNKNOWN_MEMORY);
  EXPECT_EQ(tgrs_bind_arena(&ctx, 99, buffer.get(), fast), TGRS_ERR_UNKNOWN_MEMORY);
  // 2. NULL buffer, NULL or uninitialised context.
  EXPECT_EQ(tgrs_bind_arena(&ctx, TGRS_REGION_FAST, nullptr, fast), TGRS_ERR_NULL_ARGUMENT);
  EXPECT_EQ(tgrs_bind_arena(nullptr, TGRS_REGION_FAST, buffer.get(), fast), TGRS_ERR_NULL_ARGUMENT);
  tgrs_context blank{};
  EXPECT_EQ(tgrs_bind_arena(&blank, TGRS_REGION_FAST, buffer.get(), fast), TGRS_ERR_NULL_ARGUMENT);
  // 3. One byte short.
  EXPECT_EQ(tgrs_bind_arena(&ctx, TGRS_REGION_FAST, buffer.get(), fast - 1),
            TGRS_ERR_ARENA_TOO_SMALL);
  // 4. Off the memory's 16-byte alignment (the plan's Memory entry).
  EXPECT_EQ(tgrs_bind_arena(&ctx, TGRS_REGION_FAST, buffer.get() + 8, fast),
            TGRS_ERR_ARENA_MISALIGNED);
  EXPECT_EQ(tgrs_bind_arena(&ctx, TGRS_REGION_FAST, buffer.get(), fast), TGRS_OK);
}

TEST(ContextTest, InvokeNeedsHydrationAndEveryArenaBound) {
  Model m = Compile("mnist8.onnx", 4 * 1024);
  ASSERT_NE(m.loaded, nullptr);
  const tgrs_plan& plan = m.loaded->plan;
  const size_t fast = tgrs_plan_fast_arena_bytes(&plan), slow = tgrs_plan_slow_arena_bytes(&plan);
  AlignedBuffer fast_arena = PoisonedBuffer(fast), slow_arena = PoisonedBuffer(slow);
  Io io = IoFor(m);
  tgrs_context ctx;
  EXPECT_EQ(tgrs_context_init(nullptr, &plan), TGRS_ERR_NULL_ARGUMENT);
  tgrs_plan unverified{};
  EXPECT_EQ(tgrs_context_init(&ctx, &unverified), TGRS_ERR_PLAN_NOT_VERIFIED);
  EXPECT_EQ(Invoke(&ctx, io), TGRS_ERR_NULL_ARGUMENT);  // the failed init left it unusable
  ASSERT_EQ(tgrs_context_init(&ctx, &plan), TGRS_OK);
  ASSERT_EQ(tgrs_bind_arena(&ctx, TGRS_REGION_FAST, fast_arena.get(), fast), TGRS_OK);

  EXPECT_EQ(Invoke(&ctx, io), TGRS_ERR_HYDRATION_REQUIRED);
  ASSERT_EQ(tgrs_hydrate_constants(&ctx), TGRS_OK);
  ASSERT_EQ(tgrs_hydrate_constants(&ctx), TGRS_OK);       // idempotent
  EXPECT_EQ(Invoke(&ctx, io), TGRS_ERR_ARENA_NOT_BOUND);  // the slow arena
  ASSERT_EQ(tgrs_bind_arena(&ctx, TGRS_REGION_SLOW, slow_arena.get(), slow), TGRS_OK);
  ASSERT_EQ(Invoke(&ctx, io), TGRS_OK);
  EXPECT_EQ(io.out_bytes, m.reference.outputs);
  ASSERT_EQ(Invoke(&ctx, io), TGRS_OK);  // again: scratch carries nothing between invokes
  EXPECT_EQ(io.out_bytes, m.reference.outputs);

  tgrs_clear_hydrated(&ctx);
  EXPECT_EQ(Invoke(&ctx, io), TGRS_ERR_HYDRATION_REQUIRED);
  tgrs_mark_hydrated(&ctx);  // the caller put staged constants in place itself
  EXPECT_EQ(Invoke(&ctx, io), TGRS_OK);
  ASSERT_EQ(tgrs_context_init(&ctx, &plan), TGRS_OK);  // init clears binds and the latch
  EXPECT_EQ(Invoke(&ctx, io), TGRS_ERR_HYDRATION_REQUIRED);
  tgrs_mark_hydrated(&ctx);
  EXPECT_EQ(Invoke(&ctx, io), TGRS_ERR_ARENA_NOT_BOUND);
  tgrs_mark_hydrated(nullptr);  // ignored
  tgrs_clear_hydrated(nullptr);
  EXPECT_EQ(tgrs_hydrate_constants(nullptr), TGRS_ERR_NULL_ARGUMENT);
}

TEST(ContextTest, TwoModelsShareScratchAndKeepTheirOwnSlowArenas) {
  Model a = Compile("mnist8.onnx", 4 * 1024);
  Model b = Compile("kws_small_cnn.onnx", 8 * 1024);
  ASSERT_NE(a.loaded, nullptr);
  ASSERT_NE(b.loaded, nullptr);
  const tgrs_plan& pa = a.loaded->plan;
  const tgrs_plan& pb = b.loaded->plan;
  const size_t scratch_bytes =
      std::max(tgrs_plan_fast_arena_bytes(&pa), tgrs_plan_fast_arena_bytes(&pb));
  AlignedBuffer scratch = PoisonedBuffer(scratch_bytes);
  AlignedBuffer slow_a = PoisonedBuffer(tgrs_plan_slow_arena_bytes(&pa));
  AlignedBuffer slow_b = PoisonedBuffer(tgrs_plan_slow_arena_bytes(&pb));
  tgrs_context ca, cb;
  ASSERT_EQ(tgrs_context_init(&ca, &pa), TGRS_OK);
  ASSERT_EQ(tgrs_context_init(&cb, &pb), TGRS_OK);
  ASSERT_EQ(tgrs_bind_arena(&ca, TGRS_REGION_FAST, scratch.get(), scratch_bytes), TGRS_OK);
  ASSERT_EQ(tgrs_bind_arena(&cb, TGRS_REGION_FAST, scratch.get(), scratch_bytes), TGRS_OK);
  ASSERT_EQ(tgrs_bind_arena(&ca, TGRS_REGION_SLOW, slow_a.get(), tgrs_plan_slow_arena_bytes(&pa)),
            TGRS_OK);
  ASSERT_EQ(tgrs_bind_arena(&cb, TGRS_REGION_SLOW, slow_b.get(), tgrs_plan_slow_arena_bytes(&pb)),
            TGRS_OK);
  ASSERT_EQ(tgrs_hydrate_constants(&ca), TGRS_OK);
  ASSERT_EQ(tgrs_hydrate_constants(&cb), TGRS_OK);
  Io ia = IoFor(a), ib = IoFor(b);
  for (int round = 0; round < 2; ++round) {  // interleaved: each run overwrites the scratch
    ASSERT_EQ(Invoke(&ca, ia), TGRS_OK);
    EXPECT_EQ(ia.out_bytes, a.reference.outputs);
    ASSERT_EQ(Invoke(&cb, ib), TGRS_OK);
    EXPECT_EQ(ib.out_bytes, b.reference.outputs);
  }
}

}  // namespace
}  // namespace tigris::runtime_test
