// Persistent state and staged constants through tgrs_context (issue 15;
// tensor-memory-attributes.txt, "Persistent zero-init contract" and "Hydration contract").
// The model is a small recurrent cell, h' = tanh(x W + h U), y = h' V, whose state pair is
// h=h_next. The oracle is tgrs_run on the same plan with the state passed explicitly:
// zeros first, then the previous run's h_next. tgrs_run's own outputs are compared with
// onnxruntime elsewhere (tests/e2e); here the context must reproduce that sequence.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "emit/compile.h"
#include "executor_support.h"
#include "format/tgrs_generated.h"
#include "onnx/onnx_loader.h"
#include "passes/pass.h"
#include "support/onnx_builder.h"
#include "support/test_env.h"
#include "tigris_context.h"
#include "util/error.h"

namespace tigris::runtime_test {
namespace {

constexpr int kIn = 4, kHidden = 8, kOut = 3;

std::vector<float> Ramp(size_t n, float scale, float offset) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = scale * static_cast<float>((i * 7) % 11) - offset;
  return v;
}

// The cell h' = tanh(x W + h U), y = h' V (state pair h=h_next). With `accumulator`, also
// c_next = c + h' (pair c=c_next), inputs ordered h, x, c and outputs c_next, y, h_next:
// two state inputs around an ordinary one, outputs in another order than inputs.
ir::Graph Cell(bool accumulator = false) {
  testing::OnnxModelBuilder b(accumulator ? "two_state" : "cell", 13);
  if (accumulator) b.Input("h", {1, kHidden});
  b.Input("x", {1, kIn});
  b.Input(accumulator ? "c" : "h", {1, kHidden});
  b.Initializer("W", {kIn, kHidden}, Ramp(kIn * kHidden, 0.05f, 0.2f));
  b.Initializer("U", {kHidden, kHidden}, Ramp(kHidden * kHidden, 0.04f, 0.2f));
  b.Initializer("V", {kHidden, kOut}, Ramp(kHidden * kOut, 0.1f, 0.5f));
  b.Node("MatMul", {"x", "W"}, {"xw"}, "xw");
  b.Node("MatMul", {"h", "U"}, {"hu"}, "hu");
  b.Node("Add", {"xw", "hu"}, {"pre"}, "pre");
  b.Node("Tanh", {"pre"}, {"h_next"}, "tanh");
  if (accumulator) {
    b.Node("Add", {"c", "h_next"}, {"c_next"}, "accumulate");
    b.Output("c_next", {1, kHidden});
  }
  b.Node("MatMul", {"h_next", "V"}, {"y"}, "y");
  b.Output("y", {1, kOut});
  b.Output("h_next", {1, kHidden});
  const std::string bytes = b.Bytes();
  ir::Graph g = onnx_import::LoadOnnxBytes(bytes.data(), bytes.size(), {});
  passes::Normalize(g);
  return g;
}

// The plan of `graph` at a 4 KiB fast budget.
std::vector<uint8_t> CompileBytes(const ir::Graph& graph, const emit::EmitOptions& options) {
  plan::Budget budget;
  budget.fast_bytes = 4096;
  return emit::Compile(graph, budget, options).emitted.bytes;
}

std::unique_ptr<LoadedPlan> CompileCell(bool staged, std::vector<emit::StatePair> state) {
  emit::EmitOptions options;
  options.stage_constants = staged;
  options.state = std::move(state);
  return LoadPlanBytes(CompileBytes(Cell(), options));
}

std::vector<uint8_t> Bytes(const std::vector<float>& v) {
  std::vector<uint8_t> out(v.size() * sizeof(float));
  std::memcpy(out.data(), v.data(), out.size());
  return out;
}

// Input x of step k.
std::vector<uint8_t> StepInput(int k) { return Bytes(Ramp(kIn, 0.3f, 0.1f * k)); }

// The oracle: tgrs_run with h passed explicitly, zeros before the first step.
std::vector<std::vector<std::vector<uint8_t>>> Reference(const tgrs_plan& plan, int steps,
                                                         int first_step = 0) {
  std::vector<std::vector<std::vector<uint8_t>>> out;
  std::vector<uint8_t> h(kHidden * sizeof(float), 0);
  for (int k = 0; k < steps; ++k) {
    RunResult r = RunExact(plan, {StepInput(first_step + k), h});
    EXPECT_EQ(r.status, TGRS_OK);
    out.push_back(r.outputs);
    h = r.outputs[1];
  }
  return out;
}

struct Arenas {
  AlignedBuffer fast, state, constants;
};

// Inits ctx and binds its arenas (each exactly the plan's size); hydrates.
Arenas Bind(tgrs_context* ctx, const tgrs_plan& plan) {
  Arenas a;
  EXPECT_EQ(tgrs_context_init(ctx, &plan), TGRS_OK);
  const size_t fast = tgrs_context_arena_bytes(ctx, TGRS_REGION_FAST);
  const size_t state = tgrs_context_arena_bytes(ctx, TGRS_REGION_STATE);
  const size_t constants = tgrs_context_arena_bytes(ctx, TGRS_REGION_CONSTANTS);
  a.fast = PoisonedBuffer(fast);
  EXPECT_EQ(tgrs_bind_arena(ctx, TGRS_REGION_FAST, a.fast.get(), fast), TGRS_OK);
  if (state > 0) {
    a.state = PoisonedBuffer(state);  // not zero: binding must clear it
    EXPECT_EQ(tgrs_bind_arena(ctx, TGRS_REGION_STATE, a.state.get(), state), TGRS_OK);
  }
  if (constants > 0) {
    a.constants = PoisonedBuffer(constants);
    EXPECT_EQ(tgrs_bind_arena(ctx, TGRS_REGION_CONSTANTS, a.constants.get(), constants), TGRS_OK);
  }
  EXPECT_EQ(tgrs_hydrate_constants(ctx), TGRS_OK);
  return a;
}

// One invoke with x only (h comes from the state); returns y and h_next.
std::vector<std::vector<uint8_t>> Step(tgrs_context* ctx, int k, tgrs_status* status) {
  const std::vector<uint8_t> x = StepInput(k);
  std::vector<std::vector<uint8_t>> out = {std::vector<uint8_t>(kOut * sizeof(float)),
                                           std::vector<uint8_t>(kHidden * sizeof(float))};
  const tgrs_input_buffer in[1] = {{x.data(), x.size()}};
  const tgrs_output_buffer outs[2] = {{out[0].data(), out[0].size()},
                                      {out[1].data(), out[1].size()}};
  *status = tgrs_invoke(ctx, in, 1, outs, 2, nullptr);
  return out;
}

TEST(StateTest, PlanDescribesTheSlotAndItsArena) {
  auto loaded = CompileCell(false, {{"h", "h_next"}});
  ASSERT_NE(loaded, nullptr);
  const tgrs_plan& plan = loaded->plan;
  EXPECT_EQ(tgrs_plan_schema_version(&plan), 3u);
  ASSERT_EQ(tgrs_plan_state_count(&plan), 1u);
  tgrs_plan_state_slot s;
  ASSERT_EQ(tgrs_plan_get_state(&plan, 0, &s), TGRS_OK);
  EXPECT_EQ(s.input, 1u);   // inputs: x, h
  EXPECT_EQ(s.output, 1u);  // outputs: y, h_next
  EXPECT_EQ(s.offset, 0u);
  EXPECT_EQ(s.size, kHidden * sizeof(float));
  EXPECT_EQ(tgrs_plan_get_state(&plan, 1, &s), TGRS_ERR_BAD_INDEX);
  tgrs_context ctx;
  ASSERT_EQ(tgrs_context_init(&ctx, &plan), TGRS_OK);
  EXPECT_EQ(tgrs_context_arena_bytes(&ctx, TGRS_REGION_STATE), 32u);  // 8 floats, 16-aligned
  EXPECT_EQ(tgrs_context_arena_bytes(&ctx, TGRS_REGION_CONSTANTS), 0u);
}

TEST(StateTest, FirstInvokeReadsZerosThenThePreviousOutput) {
  auto loaded = CompileCell(false, {{"h", "h_next"}});
  ASSERT_NE(loaded, nullptr);
  const auto reference = Reference(loaded->plan, 4);
  tgrs_context ctx;
  Arenas arenas = Bind(&ctx, loaded->plan);
  tgrs_status st;
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(Step(&ctx, k, &st), reference[static_cast<size_t>(k)]) << "step " << k;
    ASSERT_EQ(st, TGRS_OK);
  }
  // Zero-filled again: the sequence starts over.
  tgrs_reset_state(&ctx);
  EXPECT_EQ(Step(&ctx, 0, &st), reference[0]);
  // The caller passes only the non-state inputs.
  const std::vector<uint8_t> x = StepInput(0);
  std::vector<uint8_t> y(kOut * 4), h(kHidden * 4);
  const tgrs_input_buffer two[2] = {{x.data(), x.size()}, {x.data(), x.size()}};
  const tgrs_output_buffer outs[2] = {{y.data(), y.size()}, {h.data(), h.size()}};
  EXPECT_EQ(tgrs_invoke(&ctx, two, 2, outs, 2, nullptr), TGRS_ERR_INPUT_COUNT);
}

TEST(StateTest, TwoContextsShareScratchButNotState) {
  auto loaded = CompileCell(false, {{"h", "h_next"}});
  ASSERT_NE(loaded, nullptr);
  const tgrs_plan& plan = loaded->plan;
  const auto ref_a = Reference(plan, 3, 0), ref_b = Reference(plan, 3, 5);
  tgrs_context a, b;
  Arenas arenas_a = Bind(&a, plan);
  Arenas arenas_b = Bind(&b, plan);
  // b runs in a's scratch buffer.
  const size_t fast = tgrs_context_arena_bytes(&b, TGRS_REGION_FAST);
  ASSERT_EQ(tgrs_bind_arena(&b, TGRS_REGION_FAST, arenas_a.fast.get(), fast), TGRS_OK);
  tgrs_status st;
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(Step(&a, k, &st), ref_a[static_cast<size_t>(k)]) << "a, step " << k;
    EXPECT_EQ(st, TGRS_OK);
    EXPECT_EQ(Step(&b, 5 + k, &st), ref_b[static_cast<size_t>(k)]) << "b, step " << k;
    EXPECT_EQ(st, TGRS_OK);
  }
}

TEST(StateTest, StagedConstantsAreReadFromTheirArena) {
  auto loaded = CompileCell(true, {{"h", "h_next"}});
  ASSERT_NE(loaded, nullptr);
  const tgrs_plan& plan = loaded->plan;
  const tgrs_u8s staged = tgrs_plan_staged_constants(&plan);
  // W, U and V, each 16-aligned in weight_data: the whole blob is staged.
  EXPECT_EQ(staged.count, tgrs_plan_weight_data(&plan).count);
  EXPECT_EQ(staged.count, (32u + 64u + 24u) * 4u);
  const auto reference = Reference(plan, 2);

  tgrs_context ctx;
  ASSERT_EQ(tgrs_context_init(&ctx, &plan), TGRS_OK);
  const size_t constants = tgrs_context_arena_bytes(&ctx, TGRS_REGION_CONSTANTS);
  EXPECT_EQ(constants, staged.count);
  EXPECT_EQ(tgrs_hydrate_constants(&ctx), TGRS_ERR_ARENA_NOT_BOUND);
  Arenas arenas = Bind(&ctx, plan);
  EXPECT_EQ(std::memcmp(arenas.constants.get(), staged.data, staged.count), 0);
  tgrs_status st;
  EXPECT_EQ(Step(&ctx, 0, &st), reference[0]);
  ASSERT_EQ(st, TGRS_OK);

  // The kernels read the arena, not the plan: with it zeroed the output changes.
  std::memset(arenas.constants.get(), 0, constants);
  tgrs_reset_state(&ctx);
  const auto zeroed = Step(&ctx, 0, &st);
  ASSERT_EQ(st, TGRS_OK);
  EXPECT_NE(zeroed, reference[0]);
  // Binding a new CONSTANTS buffer clears the latch; hydrating fills it again.
  ASSERT_EQ(tgrs_bind_arena(&ctx, TGRS_REGION_CONSTANTS, arenas.constants.get(), constants),
            TGRS_OK);
  Step(&ctx, 0, &st);
  EXPECT_EQ(st, TGRS_ERR_HYDRATION_REQUIRED);
  ASSERT_EQ(tgrs_hydrate_constants(&ctx), TGRS_OK);
  tgrs_reset_state(&ctx);
  EXPECT_EQ(Step(&ctx, 0, &st), reference[0]);
  EXPECT_EQ(Step(&ctx, 1, &st), reference[1]);
}

// Real models, whose weights end off the 16-byte grid: through a context that staged
// them, the outputs equal tgrs_run's, which reads the same bytes in place.
TEST(StateTest, TwoSlotsAroundAnOrdinaryInput) {
  emit::EmitOptions options;
  options.state = {{"c", "c_next"}, {"h", "h_next"}};  // given out of order: the plan sorts
  const std::vector<uint8_t> bytes = CompileBytes(Cell(/*accumulator=*/true), options);
  auto loaded = LoadPlanBytes(bytes);
  ASSERT_NE(loaded, nullptr);
  const tgrs_plan& plan = loaded->plan;
  ASSERT_EQ(tgrs_plan_state_count(&plan), 2u);
  tgrs_plan_state_slot s0, s1;
  ASSERT_EQ(tgrs_plan_get_state(&plan, 0, &s0), TGRS_OK);
  ASSERT_EQ(tgrs_plan_get_state(&plan, 1, &s1), TGRS_OK);
  EXPECT_EQ(s0.input, 0u);    // h
  EXPECT_EQ(s0.output, 2u);   // h_next
  EXPECT_EQ(s1.input, 2u);    // c
  EXPECT_EQ(s1.output, 0u);   // c_next
  EXPECT_EQ(s1.offset, 32u);  // after h's 32 bytes

  // The oracle: tgrs_run with h and c passed by hand, zeros first.
  std::vector<uint8_t> h(kHidden * 4, 0), c(kHidden * 4, 0);
  tgrs_context ctx;
  Arenas arenas = Bind(&ctx, plan);
  for (int k = 0; k < 4; ++k) {
    const std::vector<uint8_t> x = StepInput(k);
    RunResult r = RunExact(plan, {h, x, c});
    ASSERT_EQ(r.status, TGRS_OK);
    std::vector<std::vector<uint8_t>> out = {std::vector<uint8_t>(kHidden * 4),
                                             std::vector<uint8_t>(kOut * 4),
                                             std::vector<uint8_t>(kHidden * 4)};
    const tgrs_input_buffer in[1] = {{x.data(), x.size()}};
    const tgrs_output_buffer outs[3] = {{out[0].data(), out[0].size()},
                                        {out[1].data(), out[1].size()},
                                        {out[2].data(), out[2].size()}};
    ASSERT_EQ(tgrs_invoke(&ctx, in, 1, outs, 3, nullptr), TGRS_OK);
    EXPECT_EQ(out, r.outputs) << "step " << k;
    c = r.outputs[0];
    h = r.outputs[2];
  }

  // The verifier refuses the slots out of input order.
  const size_t at = PositionIn(bytes, tgrs::GetPlan(bytes.data())->state()->Get(0));
  uint8_t swapped[32];
  std::memcpy(swapped, bytes.data() + at + 16, 16);
  std::memcpy(swapped + 16, bytes.data() + at, 16);
  std::string text;
  EXPECT_EQ(VerifyCorrupted(bytes, at, swapped, sizeof swapped, &text), TGRS_ERR_BAD_VALUE);
  EXPECT_NE(text.find("state[1]: input 0 does not follow the previous slot's 2"), std::string::npos)
      << text;
}

TEST(StateTest, StagedSharedModelsRunAsInPlace) {
  for (const char* name : {"mnist8.onnx", "conv1d_small.onnx", "kws_small_cnn.onnx"}) {
    SCOPED_TRACE(name);
    ir::Graph g = onnx_import::LoadOnnxFile(testing::SharedOnnxModel(name), {});
    passes::Normalize(g);
    plan::Budget budget;
    budget.fast_bytes = 8 * 1024;
    emit::EmitOptions options;
    options.stage_constants = true;
    auto loaded = LoadPlanBytes(emit::Compile(g, budget, options).emitted.bytes);
    ASSERT_NE(loaded, nullptr);
    const tgrs_plan& plan = loaded->plan;
    EXPECT_EQ(tgrs_plan_staged_constants(&plan).count, tgrs_plan_weight_data(&plan).count);
    const std::vector<std::vector<uint8_t>> inputs = DeterministicInputs(plan);
    const RunResult reference = RunExact(plan, inputs);
    ASSERT_EQ(reference.status, TGRS_OK);
    tgrs_context ctx;
    ASSERT_EQ(tgrs_context_init(&ctx, &plan), TGRS_OK);
    const size_t fast = tgrs_context_arena_bytes(&ctx, TGRS_REGION_FAST);
    const size_t slow = tgrs_context_arena_bytes(&ctx, TGRS_REGION_SLOW);
    const size_t constants = tgrs_context_arena_bytes(&ctx, TGRS_REGION_CONSTANTS);
    AlignedBuffer a = PoisonedBuffer(fast), b = PoisonedBuffer(slow + 16),
                  c = PoisonedBuffer(constants);
    ASSERT_EQ(tgrs_bind_arena(&ctx, TGRS_REGION_FAST, a.get(), fast), TGRS_OK);
    if (slow > 0) {
      ASSERT_EQ(tgrs_bind_arena(&ctx, TGRS_REGION_SLOW, b.get(), slow), TGRS_OK);
    }
    ASSERT_EQ(tgrs_bind_arena(&ctx, TGRS_REGION_CONSTANTS, c.get(), constants), TGRS_OK);
    ASSERT_EQ(tgrs_hydrate_constants(&ctx), TGRS_OK);
    std::vector<tgrs_input_buffer> in;
    for (const auto& x : inputs) in.push_back({x.data(), x.size()});
    std::vector<std::vector<uint8_t>> out(reference.outputs.size());
    std::vector<tgrs_output_buffer> outs;
    for (size_t i = 0; i < out.size(); ++i) {
      out[i].assign(reference.outputs[i].size(), 0);
      outs.push_back({out[i].data(), out[i].size()});
    }
    ASSERT_EQ(tgrs_invoke(&ctx, in.data(), static_cast<uint32_t>(in.size()), outs.data(),
                          static_cast<uint32_t>(outs.size()), nullptr),
              TGRS_OK);
    EXPECT_EQ(out, reference.outputs);
  }
}

TEST(StateTest, PlansWithoutThemHaveNoStateOrConstantsMemory) {
  auto loaded = CompileCell(false, {});
  ASSERT_NE(loaded, nullptr);
  EXPECT_LT(tgrs_plan_schema_version(&loaded->plan), 3u);
  tgrs_context ctx;
  ASSERT_EQ(tgrs_context_init(&ctx, &loaded->plan), TGRS_OK);
  AlignedBuffer buffer = PoisonedBuffer(64);
  EXPECT_EQ(tgrs_bind_arena(&ctx, TGRS_REGION_STATE, buffer.get(), 64), TGRS_ERR_UNKNOWN_MEMORY);
  EXPECT_EQ(tgrs_bind_arena(&ctx, TGRS_REGION_CONSTANTS, buffer.get(), 64),
            TGRS_ERR_UNKNOWN_MEMORY);
}

// The verifier holds each slot to the plan: indices, sizes, alignment, the arena.
TEST(StateTest, VerifierRefusesBrokenSlots) {
  emit::EmitOptions options;
  options.state = {{"h", "h_next"}};
  const std::vector<uint8_t> good = CompileBytes(Cell(), options);
  const size_t at = PositionIn(good, tgrs::GetPlan(good.data())->state()->Get(0));
  auto verify = [&](size_t field, uint32_t value, std::string* text) {
    return VerifyCorrupted(good, at + 4 * field, &value, 4, text);
  };
  std::string text;
  EXPECT_EQ(verify(0, 0, &text), TGRS_ERR_BAD_SIZE) << text;  // x is 4 floats, h_next 8
  EXPECT_EQ(verify(0, 2, &text), TGRS_ERR_BAD_INDEX) << text;
  EXPECT_NE(text.find("state[0]: input 2 or output out of range (inputs: 2)"), std::string::npos)
      << text;
  EXPECT_EQ(verify(1, 2, &text), TGRS_ERR_BAD_INDEX) << text;
  EXPECT_EQ(verify(2, 8, &text), TGRS_ERR_BAD_ALIGNMENT) << text;
  EXPECT_EQ(verify(2, 16, &text), TGRS_ERR_BAD_SIZE) << text;  // past the 32-byte arena
  EXPECT_NE(text.find("slot ends at 48, past the state arena's 32 bytes"), std::string::npos)
      << text;
  EXPECT_EQ(verify(3, 16, &text), TGRS_ERR_BAD_SIZE) << text;
  EXPECT_EQ(verify(0, 1, &text), TGRS_OK) << text;
}

// The root's schema-3 fields and the two new Memory entries, corrupted one at a time in a
// plan with state and staged constants.
TEST(StateTest, VerifierHoldsStagingAndArenasToThePlan) {
  emit::EmitOptions options;
  options.state = {{"h", "h_next"}};
  options.stage_constants = true;
  const std::vector<uint8_t> good = CompileBytes(Cell(), options);
  const tgrs::Plan* root = tgrs::GetPlan(good.data());
  const auto* table = reinterpret_cast<const flatbuffers::Table*>(root);
  auto at = [&](const void* p) { return PositionIn(good, p); };
  auto verify = [&](size_t pos, uint32_t value, std::string* text) {
    return VerifyCorrupted(good, pos, &value, 4, text);
  };
  std::string text;
  const uint32_t data = root->weight_data()->size();
  ASSERT_EQ(root->staged_bytes(), data);  // W, U, V: every weight is staged
  const size_t staged = at(table->GetAddressOf(tgrs::Plan::VT_STAGED_BYTES));
  EXPECT_EQ(verify(staged, data + 16, &text), TGRS_ERR_BAD_OFFSET) << text;
  EXPECT_NE(text.find("staged_bytes: staged constants end at"), std::string::npos) << text;
  // Older schemas have neither state nor staging.
  const size_t version = at(table->GetAddressOf(tgrs::Plan::VT_SCHEMA_VERSION));
  EXPECT_EQ(verify(version, 2, &text), TGRS_ERR_BAD_VALUE) << text;
  EXPECT_NE(text.find("state: persistent state or staged constants in a schema 2 plan"),
            std::string::npos)
      << text;
  // The CONSTANTS entry must state the staged bytes; the STATE entry covers the slots.
  const auto* constants = root->memories()->Get(TGRS_REGION_CONSTANTS);
  const size_t constants_size = at(
      reinterpret_cast<const flatbuffers::Table*>(constants)->GetAddressOf(tgrs::Memory::VT_SIZE));
  EXPECT_EQ(verify(constants_size, data - 16, &text), TGRS_ERR_BAD_SIZE) << text;
  EXPECT_NE(text.find("memories[5].size"), std::string::npos) << text;
  const auto* state = root->memories()->Get(TGRS_REGION_STATE);
  const size_t state_size =
      at(reinterpret_cast<const flatbuffers::Table*>(state)->GetAddressOf(tgrs::Memory::VT_SIZE));
  EXPECT_EQ(verify(state_size, 16, &text), TGRS_ERR_BAD_SIZE) << text;
  EXPECT_NE(text.find("state[0]: slot ends at 32, past the state arena's 16 bytes"),
            std::string::npos)
      << text;
  EXPECT_EQ(verify(state_size, 32, &text), TGRS_OK) << text;
}

TEST(StateTest, CompileRefusesPairsThatAreNotOneTensor) {
  auto message = [](std::vector<emit::StatePair> state) -> std::string {
    try {
      CompileCell(false, std::move(state));
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::kInvalidArgument);
      return e.what();
    }
    return "(compiled)";
  };
  EXPECT_NE(message({{"hh", "h_next"}}).find("'hh' is not a graph input (inputs: x, h)"),
            std::string::npos);
  EXPECT_NE(message({{"h", "z"}}).find("'z' is not a graph output (outputs: y, h_next)"),
            std::string::npos);
  EXPECT_NE(message({{"h", "y"}}).find("the input is 1x8 float32 but the output is 1x3 float32"),
            std::string::npos)
      << message({{"h", "y"}});
  EXPECT_NE(message({{"h", "h_next"}, {"h", "h_next"}}).find("already in another state pair"),
            std::string::npos);
}

}  // namespace
}  // namespace tigris::runtime_test
