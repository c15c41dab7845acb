// Every shared model's plan, read back through the runtime's C99 reader
// (runtime/include/tigris_runtime.h), field by field, against flatc's generated C++ reader
// of the same bytes. plan_roundtrip_test.cc checks the generated reader's view against the
// IR and the planner; this test closes the loop: the two independent readers agree on
// every field, so the C99 reader sees exactly what the compiler wrote.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "emit/emit_test_util.h"
#include "format/tgrs_generated.h"
#include "support/graph_builder.h"
#include "tigris_runtime.h"

namespace tigris::testing {
namespace {

// Vectors as std::vector, so a mismatch prints both sides.
template <typename T, typename FbT>
std::vector<T> Fb(const flatbuffers::Vector<FbT>* v) {
  std::vector<T> out;
  if (v) {
    for (flatbuffers::uoffset_t i = 0; i < v->size(); ++i) out.push_back(static_cast<T>(v->Get(i)));
  }
  return out;
}
template <typename Span>
auto C(const Span& s) {
  using T = std::remove_const_t<std::remove_pointer_t<decltype(s.data)>>;
  return std::vector<T>(s.data, s.data + s.count);
}
std::string Str(const flatbuffers::String* s) { return s ? s->str() : ""; }
std::string Str(const char* s) { return s ? s : ""; }

void ExpectBufferEqual(const tgrs::Buffer* want, const tgrs_plan_buffer& got,
                       const std::string& where) {
  SCOPED_TRACE(where);
  EXPECT_EQ(static_cast<int>(want->kind()), static_cast<int>(got.kind));
  EXPECT_EQ(want->tensor(), got.tensor);
  EXPECT_EQ(want->op(), got.op);
  EXPECT_EQ(want->first_op(), got.first_op);
  EXPECT_EQ(want->last_op(), got.last_op);
  EXPECT_EQ(want->bytes(), got.bytes);
  ASSERT_EQ(want->home() != nullptr, got.has_home);
  if (got.has_home) {
    EXPECT_EQ(want->home()->offset(), got.home.offset);
    EXPECT_EQ(want->home()->size(), got.home.size);
    EXPECT_EQ(static_cast<int>(want->home()->region()), static_cast<int>(got.home.region));
  }
}

// What the tiles compared so far held, so the round trip shows it covered each form.
struct TileForms {
  int streamed = 0, columns = 0, channels = 0;
} g_forms;

// A TilePlan's columns or channels: `count` regions at `got`, NULL when there are none.
void ExpectRegionsEqual(const flatbuffers::Vector<const tgrs::TileRegion*>* want,
                        const tgrs_tile_region* got, uint32_t count, const std::string& where) {
  SCOPED_TRACE(where);
  ASSERT_EQ(want ? want->size() : 0u, count);
  EXPECT_EQ(count == 0, got == nullptr);
  for (uint32_t i = 0; i < count; ++i) {
    const tgrs::TileRegion* w = want->Get(i);
    EXPECT_EQ(w->in_begin(), got[i].in_begin);
    EXPECT_EQ(w->in_end(), got[i].in_end);
    EXPECT_EQ(w->out_begin(), got[i].out_begin);
    EXPECT_EQ(w->out_end(), got[i].out_end);
    EXPECT_EQ(w->pad_before(), got[i].pad_before);
    EXPECT_EQ(w->pad_after(), got[i].pad_after);
  }
}

void ExpectTileEqual(const tgrs::TilePlan* want, const tgrs_plan_tile& got,
                     const std::string& where) {
  SCOPED_TRACE(where);
  ASSERT_NE(want, nullptr);
  EXPECT_EQ(want->tile_size(), got.tile_size);
  EXPECT_EQ(want->count(), got.count);
  EXPECT_EQ(want->halo(), got.halo);
  EXPECT_EQ(want->peak_bytes(), got.peak_bytes);
  EXPECT_EQ(static_cast<int>(want->dim()), static_cast<int>(got.dim));
  EXPECT_EQ(want->streamed(), got.streamed);
  ExpectRegionsEqual(want->columns(), got.columns, got.column_count, "columns");
  ExpectRegionsEqual(want->channels(), got.channels, got.channel_count, "channels");
  g_forms.streamed += got.streamed;
  g_forms.columns += got.column_count != 0;
  g_forms.channels += got.channel_count != 0;
  EXPECT_EQ(Fb<int32_t>(want->ops()), C(got.ops));
  ASSERT_EQ(want->regions()->size(), got.region_count);
  for (uint32_t t = 0; t < static_cast<uint32_t>(got.count); ++t) {
    for (uint32_t k = 0; k < got.ops.count; ++k) {
      const tgrs::TileRegion* w = want->regions()->Get(t * got.ops.count + k);
      const tgrs_tile_region* g = tgrs_plan_tile_region(&got, t, k);
      ASSERT_NE(g, nullptr);
      EXPECT_EQ(w->in_begin(), g->in_begin);
      EXPECT_EQ(w->in_end(), g->in_end);
      EXPECT_EQ(w->out_begin(), g->out_begin);
      EXPECT_EQ(w->out_end(), g->out_end);
      EXPECT_EQ(w->pad_before(), g->pad_before);
      EXPECT_EQ(w->pad_after(), g->pad_after);
    }
  }
  ASSERT_EQ(want->buffers()->size(), got.buffer_count);
  for (uint32_t i = 0; i < got.buffer_count; ++i) {
    tgrs_plan_buffer b;
    ASSERT_EQ(tgrs_plan_tile_buffer(&got, i, &b), TGRS_OK);
    ExpectBufferEqual(want->buffers()->Get(i), b, "tile buffer " + std::to_string(i));
  }
}

void ExpectOpEqual(const tgrs::Op* want, const tgrs_plan* plan, uint32_t index) {
  SCOPED_TRACE("op " + std::to_string(index));
  tgrs_plan_op got;
  ASSERT_EQ(tgrs_plan_get_op(plan, index, &got), TGRS_OK);
  EXPECT_EQ(static_cast<int>(want->code()), static_cast<int>(got.code));
  EXPECT_EQ(Str(want->name()), Str(got.name));
  EXPECT_EQ(Fb<int32_t>(want->inputs()), C(got.inputs));
  EXPECT_EQ(Fb<int32_t>(want->outputs()), C(got.outputs));
  EXPECT_EQ(static_cast<int>(want->activation()), static_cast<int>(got.activation));
  EXPECT_EQ(Fb<int32_t>(want->output_multiplier()), C(got.output_multiplier));
  EXPECT_EQ(Fb<int8_t>(want->output_shift()), C(got.output_shift));
  EXPECT_EQ(want->act_min(), got.act_min);
  EXPECT_EQ(want->act_max(), got.act_max);
  EXPECT_EQ(Fb<int32_t>(want->input_multiplier()), C(got.input_multiplier));
  EXPECT_EQ(Fb<int8_t>(want->input_shift()), C(got.input_shift));
  EXPECT_EQ(want->left_shift(), got.left_shift);
  EXPECT_EQ(Fb<int8_t>(want->lut()), C(got.lut));
  EXPECT_EQ(Fb<float>(want->channel_scale()), C(got.channel_scale));
  EXPECT_EQ(Fb<float>(want->channel_shift()), C(got.channel_shift));
  EXPECT_EQ(Fb<int32_t>(want->channel_offset()), C(got.channel_offset));

  tgrs_plan_op_attrs a;
  ASSERT_EQ(tgrs_plan_get_op_attrs(plan, index, &a), TGRS_OK);
  const tgrs::OpAttrs* w = want->attrs();
  ASSERT_EQ(w != nullptr, got.has_attrs);
  if (!w) {
    // Every member at tgrs.fbs's default for OpAttrs.
    EXPECT_EQ(a.group, 1);
    EXPECT_EQ(a.axis, 0);
    EXPECT_TRUE(a.keepdims);
    EXPECT_FALSE(a.ceil_mode);
    EXPECT_EQ(a.kernel.count, 0u);
    EXPECT_EQ(a.kernel.data, nullptr);
    EXPECT_EQ(a.alpha, 0.0f);
    EXPECT_STREQ(a.mode, "");
    return;
  }
  EXPECT_EQ(Fb<int32_t>(w->kernel()), C(a.kernel));
  EXPECT_EQ(Fb<int32_t>(w->strides()), C(a.strides));
  EXPECT_EQ(Fb<int32_t>(w->pads()), C(a.pads));
  EXPECT_EQ(Fb<int32_t>(w->dilations()), C(a.dilations));
  EXPECT_EQ(w->group(), a.group);
  EXPECT_EQ(w->axis(), a.axis);
  EXPECT_EQ(Fb<int32_t>(w->perm()), C(a.perm));
  EXPECT_EQ(Fb<int32_t>(w->shape()), C(a.shape));
  EXPECT_EQ(Fb<int32_t>(w->view_shape()), C(a.view_shape));
  EXPECT_EQ(w->alpha(), a.alpha);
  EXPECT_EQ(w->beta(), a.beta);
  EXPECT_EQ(w->gamma(), a.gamma);
  EXPECT_EQ(w->min(), a.min);
  EXPECT_EQ(w->max(), a.max);
  EXPECT_EQ(Fb<float>(w->scales()), C(a.scales));
  EXPECT_EQ(Str(w->mode()), Str(a.mode));
  EXPECT_EQ(Str(w->coordinate_transformation_mode()), Str(a.coordinate_transformation_mode));
  EXPECT_EQ(Str(w->nearest_mode()), Str(a.nearest_mode));
  EXPECT_EQ(w->count_include_pad(), a.count_include_pad);
  EXPECT_EQ(w->ceil_mode(), a.ceil_mode);
  EXPECT_EQ(Fb<int32_t>(w->axes()), C(a.axes));
  EXPECT_EQ(w->keepdims(), a.keepdims);
  EXPECT_EQ(Fb<int32_t>(w->output_padding()), C(a.output_padding));
  EXPECT_EQ(w->pad_value(), a.pad_value);
  EXPECT_EQ(w->bias(), a.bias);
  EXPECT_EQ(Fb<int32_t>(w->starts()), C(a.starts));
}

void ExpectPlansEqual(const std::vector<uint8_t>& bytes) {
  const tgrs::Plan* want = tgrs::GetPlan(bytes.data());
  tgrs_plan plan;
  // The runtime requires a 16-aligned plan; std::vector<uint8_t> storage from operator new
  // is aligned to at least 16 on this host.
  ASSERT_EQ(tgrs_plan_init(&plan, bytes.data(), bytes.size()), TGRS_OK);

  EXPECT_EQ(want->schema_version(), tgrs_plan_schema_version(&plan));
  EXPECT_EQ(Str(want->generator()), Str(tgrs_plan_generator(&plan)));
  EXPECT_EQ(Str(want->model_name()), Str(tgrs_plan_model_name(&plan)));
  EXPECT_EQ(want->fast_arena_bytes(), tgrs_plan_fast_arena_bytes(&plan));
  EXPECT_EQ(want->slow_arena_bytes(), tgrs_plan_slow_arena_bytes(&plan));
  EXPECT_EQ(want->scheduled_peak_bytes(), tgrs_plan_scheduled_peak_bytes(&plan));
  EXPECT_EQ(want->xip(), tgrs_plan_xip(&plan));
  EXPECT_EQ(static_cast<int>(want->compression()), static_cast<int>(tgrs_plan_compression(&plan)));
  EXPECT_EQ(Fb<int32_t>(want->inputs()), C(tgrs_plan_inputs(&plan)));
  EXPECT_EQ(Fb<int32_t>(want->outputs()), C(tgrs_plan_outputs(&plan)));

  ASSERT_EQ(want->tensors()->size(), tgrs_plan_tensor_count(&plan));
  for (uint32_t i = 0; i < tgrs_plan_tensor_count(&plan); ++i) {
    SCOPED_TRACE("tensor " + std::to_string(i));
    const tgrs::Tensor* w = want->tensors()->Get(i);
    tgrs_plan_tensor t;
    ASSERT_EQ(tgrs_plan_get_tensor(&plan, i, &t), TGRS_OK);
    EXPECT_EQ(Str(w->name()), Str(t.name));
    EXPECT_EQ(static_cast<int>(w->dtype()), static_cast<int>(t.dtype));
    EXPECT_EQ(Fb<int32_t>(w->shape()), C(t.shape));
    EXPECT_EQ(w->weight(), t.weight);
    EXPECT_EQ(Fb<int32_t>(w->host_permutation()), C(t.host_permutation));
    EXPECT_EQ(Fb<int32_t>(w->onnx_shape()), C(t.onnx_shape));
    // host_dtype: the tensor's own dtype unless the plan names another.
    EXPECT_EQ(
        static_cast<int>(w->host_dtype() == tgrs::DType::UNKNOWN ? w->dtype() : w->host_dtype()),
        static_cast<int>(t.host_dtype));
    ASSERT_EQ(w->quant() != nullptr, t.has_quant);
    if (t.has_quant) {
      EXPECT_EQ(Fb<float>(w->quant()->scale()), C(t.scale));
      EXPECT_EQ(Fb<int32_t>(w->quant()->zero_point()), C(t.zero_point));
      EXPECT_EQ(w->quant()->axis(), t.quant_axis);
    }
  }

  ASSERT_EQ(want->ops()->size(), tgrs_plan_op_count(&plan));
  for (uint32_t i = 0; i < tgrs_plan_op_count(&plan); ++i) {
    ExpectOpEqual(want->ops()->Get(i), &plan, i);
  }

  ASSERT_EQ(want->stages()->size(), tgrs_plan_stage_count(&plan));
  for (uint32_t i = 0; i < tgrs_plan_stage_count(&plan); ++i) {
    const std::string where = "stage " + std::to_string(i);
    SCOPED_TRACE(where);
    const tgrs::Stage* w = want->stages()->Get(i);
    tgrs_plan_stage s;
    ASSERT_EQ(tgrs_plan_get_stage(&plan, i, &s), TGRS_OK);
    EXPECT_EQ(w->id(), s.id);
    EXPECT_EQ(static_cast<int>(w->strategy()), static_cast<int>(s.strategy));
    EXPECT_EQ(Fb<int32_t>(w->ops()), C(s.ops));
    EXPECT_EQ(w->chain(), s.chain);
    EXPECT_EQ(w->peak_bytes(), s.peak_bytes);
    EXPECT_EQ(Fb<int32_t>(w->spill_in()), C(s.spill_in));
    EXPECT_EQ(Fb<int32_t>(w->spill_out()), C(s.spill_out));
    EXPECT_EQ(w->weight_block(), s.weight_block);
    EXPECT_EQ(w->fast_reserved_bytes(), s.fast_reserved_bytes);
    const uint32_t buffers = w->buffers() ? w->buffers()->size() : 0;
    ASSERT_EQ(buffers, s.buffer_count);
    for (uint32_t b = 0; b < buffers; ++b) {
      tgrs_plan_buffer got;
      ASSERT_EQ(tgrs_plan_get_stage_buffer(&plan, i, b, &got), TGRS_OK);
      ExpectBufferEqual(w->buffers()->Get(b), got, where + " buffer " + std::to_string(b));
    }
    ASSERT_EQ(w->tile() != nullptr, s.has_tile);
    if (s.has_tile) {
      tgrs_plan_tile tile;
      ASSERT_EQ(tgrs_plan_get_stage_tile(&plan, i, &tile), TGRS_OK);
      ExpectTileEqual(w->tile(), tile, where + " tile");
    }
  }

  const uint32_t chains = want->chains() ? want->chains()->size() : 0;
  ASSERT_EQ(chains, tgrs_plan_chain_count(&plan));
  for (uint32_t i = 0; i < chains; ++i) {
    tgrs_plan_chain c;
    ASSERT_EQ(tgrs_plan_get_chain(&plan, i, &c), TGRS_OK);
    EXPECT_EQ(want->chains()->Get(i)->id(), c.id);
    EXPECT_EQ(Fb<int32_t>(want->chains()->Get(i)->stages()), C(c.stages));
    tgrs_plan_tile tile;
    ASSERT_EQ(tgrs_plan_get_chain_tile(&plan, i, &tile), TGRS_OK);
    ExpectTileEqual(want->chains()->Get(i)->tile(), tile, "chain " + std::to_string(i));
  }

  const uint32_t slow = want->slow_buffers() ? want->slow_buffers()->size() : 0;
  ASSERT_EQ(slow, tgrs_plan_slow_buffer_count(&plan));
  for (uint32_t i = 0; i < slow; ++i) {
    tgrs_plan_buffer got;
    ASSERT_EQ(tgrs_plan_get_slow_buffer(&plan, i, &got), TGRS_OK);
    ExpectBufferEqual(want->slow_buffers()->Get(i), got, "slow buffer " + std::to_string(i));
  }

  const uint32_t memories = want->memories() ? want->memories()->size() : 0;
  ASSERT_EQ(memories, tgrs_plan_memory_count(&plan));
  for (uint32_t i = 0; i < memories; ++i) {
    SCOPED_TRACE("memory " + std::to_string(i));
    const tgrs::Memory* w = want->memories()->Get(i);
    tgrs_plan_memory got;
    ASSERT_EQ(tgrs_plan_get_memory(&plan, i, &got), TGRS_OK);
    EXPECT_EQ(Str(w->name()), Str(got.name));
    EXPECT_EQ(w->size(), got.size);
    EXPECT_EQ(w->alignment(), got.alignment);
  }

  ASSERT_EQ(want->weights()->size(), tgrs_plan_weight_count(&plan));
  for (uint32_t i = 0; i < tgrs_plan_weight_count(&plan); ++i) {
    SCOPED_TRACE("weight " + std::to_string(i));
    const tgrs::Weight* w = want->weights()->Get(i);
    tgrs_plan_weight got;
    ASSERT_EQ(tgrs_plan_get_weight(&plan, i, &got), TGRS_OK);
    EXPECT_EQ(w->offset(), got.offset);
    EXPECT_EQ(w->size(), got.size);
    EXPECT_EQ(w->block(), got.block);
    if (got.block < 0) {
      // In place: the C reader's pointer is the generated reader's weight_data + offset.
      EXPECT_EQ(got.data, want->weight_data()->data() + w->offset());
    }
  }
  const uint32_t blocks = want->weight_blocks() ? want->weight_blocks()->size() : 0;
  ASSERT_EQ(blocks, tgrs_plan_weight_block_count(&plan));
  for (uint32_t i = 0; i < blocks; ++i) {
    const tgrs::WeightBlock* w = want->weight_blocks()->Get(i);
    tgrs_plan_weight_block got;
    ASSERT_EQ(tgrs_plan_get_weight_block(&plan, i, &got), TGRS_OK);
    EXPECT_EQ(w->stage(), got.stage);
    EXPECT_EQ(w->offset(), got.offset);
    EXPECT_EQ(w->compressed_size(), got.compressed_size);
    EXPECT_EQ(w->raw_size(), got.raw_size);
  }
}

class CReaderRoundTrip : public ::testing::TestWithParam<bool> {};  // param: xip

TEST_P(CReaderRoundTrip, EveryModelReadsTheSameThroughTheC99Reader) {
  emit::EmitOptions options;
  options.xip = GetParam();
  options.lz4 = !GetParam();
  const std::vector<std::string> models = FloatAndInt8Models();
  ASSERT_GE(models.size(), 20u) << "shared models or generated int8 models missing";
  g_forms = TileForms();
  for (const std::string& path : models) {
    SCOPED_TRACE(path);
    const ir::Graph g = LoadNormalized(path);
    const int64_t fast = SmallestWorkingBudget(g, options);
    ASSERT_GT(fast, 0);
    plan::Budget budget;
    budget.fast_bytes = fast;
    const emit::CompiledPlan c = emit::Compile(g, budget, options);
    // The plan's own op and tensor counts also match the IR it came from.
    const tgrs::Plan* fb = tgrs::GetPlan(c.emitted.bytes.data());
    EXPECT_EQ(fb->ops()->size(), g.ops.size());
    ExpectPlansEqual(c.emitted.bytes);
  }
  // Some of these plans stream (2-D tiles and channel groups: the test below).
  EXPECT_GT(g_forms.streamed, 0);
}

// Plans whose tile loops cut columns (vww_small_cnn float32 at 3 KiB) and channels
// (kws_small_cnn int8 at 1 KiB), as two Cortex-M cases run them (tests/cortex-m).
TEST(CReaderRoundTripTileForms, ColumnsAndChannelsReadTheSame) {
  emit::EmitOptions options;
  options.xip = true;
  g_forms = TileForms();
  const std::pair<std::string, int64_t> cases[] = {
      {ModelsDir() + "/onnx/vww_small_cnn.onnx", 3 * 1024},
      {GeneratedModelsDir() + "/kws_small_cnn.int8.onnx", 1024},
  };
  for (const auto& [path, fast] : cases) {
    SCOPED_TRACE(path);
    plan::Budget budget;
    budget.fast_bytes = fast;
    const emit::CompiledPlan c = emit::Compile(LoadNormalized(path), budget, options);
    ExpectPlansEqual(c.emitted.bytes);
  }
  EXPECT_GT(g_forms.columns, 0);
  EXPECT_GT(g_forms.channels, 0);
}

INSTANTIATE_TEST_SUITE_P(XipAndLz4, CReaderRoundTrip, ::testing::Values(true, false));

// A model without a single weight (Relu only) still makes a plan the runtime accepts, with
// and without xip and whatever offset the empty weight_data lands at: FlatBuffers does
// not pad a zero-length vector to its forced alignment, and nothing is read from it.
TEST(CReaderRoundTripWeightless, APlanWithoutWeightsVerifies) {
  for (const bool xip : {true, false}) {
    for (int64_t channels = 1; channels <= 4; ++channels) {  // shifts the blob's offset
      SCOPED_TRACE("xip " + std::to_string(xip) + ", channels " + std::to_string(channels));
      GraphBuilder b;
      const ir::TensorId x = b.Input("x", {1, channels, 8, 8});
      b.Output(b.Op(ir::OpType::kRelu, "relu", {x}, "y", {1, channels, 8, 8}));
      emit::EmitOptions options;
      options.xip = xip;
      plan::Budget budget;
      budget.fast_bytes = 64 * 1024;
      const emit::CompiledPlan c = emit::Compile(b.graph(), budget, options);
      ASSERT_EQ(tgrs::GetPlan(c.emitted.bytes.data())->weight_data()->size(), 0u);
      ExpectPlansEqual(c.emitted.bytes);
    }
  }
}

}  // namespace
}  // namespace tigris::testing
