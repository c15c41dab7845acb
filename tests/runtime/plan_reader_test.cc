// The C reader reads back every table and field that flatc's generated C++ builder wrote
// (plan_fixture.h). Expected values are the fixture's inputs, written out here by hand.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/plan_fixture.h"
#include "tigris_runtime.h"

namespace tigris::runtime_test {
namespace {

std::vector<int32_t> Vec(tgrs_i32s s) { return std::vector<int32_t>(s.data, s.data + s.count); }
std::vector<float> Vec(tgrs_f32s s) { return std::vector<float>(s.data, s.data + s.count); }
std::vector<int8_t> Vec(tgrs_i8s s) { return std::vector<int8_t>(s.data, s.data + s.count); }

class PlanReaderTest : public ::testing::Test {
 protected:
  void Load(bool compressed) {
    bytes_ = std::make_unique<AlignedPlan>(Serialize(FullPlan(compressed)));
    ASSERT_EQ(tgrs_plan_init(&plan_, bytes_->data(), bytes_->size()), TGRS_OK)
        << Describe(plan_.error);
  }
  static std::string Describe(const tgrs_verify_error& e) {
    char text[256];
    tgrs_verify_error_format(&e, text, sizeof text);
    return std::string(tgrs_status_name(e.status)) + ": " + text;
  }
  std::unique_ptr<AlignedPlan> bytes_;
  tgrs_plan plan_{};
};

TEST_F(PlanReaderTest, Header) {
  Load(false);
  EXPECT_EQ(plan_.error.status, TGRS_OK);
  EXPECT_EQ(tgrs_plan_schema_version(&plan_), 1u);
  EXPECT_STREQ(tgrs_plan_generator(&plan_), "tigris 0.1.0");
  EXPECT_STREQ(tgrs_plan_model_name(&plan_), "fixture_net");
  EXPECT_EQ(tgrs_plan_fast_arena_bytes(&plan_), 512u);
  EXPECT_EQ(tgrs_plan_slow_arena_bytes(&plan_), 256u);
  EXPECT_EQ(tgrs_plan_scheduled_peak_bytes(&plan_), 192u);
  EXPECT_TRUE(tgrs_plan_xip(&plan_));
  EXPECT_EQ(tgrs_plan_compression(&plan_), TGRS_COMPRESSION_NONE);
  EXPECT_EQ(Vec(tgrs_plan_inputs(&plan_)), std::vector<int32_t>({0}));
  EXPECT_EQ(Vec(tgrs_plan_outputs(&plan_)), std::vector<int32_t>({6}));
  EXPECT_EQ(tgrs_plan_tensor_count(&plan_), 7u);
  EXPECT_EQ(tgrs_plan_op_count(&plan_), 4u);
  EXPECT_EQ(tgrs_plan_stage_count(&plan_), 4u);
  EXPECT_EQ(tgrs_plan_chain_count(&plan_), 1u);
  EXPECT_EQ(tgrs_plan_slow_buffer_count(&plan_), 1u);
  EXPECT_EQ(tgrs_plan_weight_count(&plan_), 2u);
  EXPECT_EQ(tgrs_plan_weight_block_count(&plan_), 0u);
}

TEST_F(PlanReaderTest, Tensors) {
  Load(false);
  tgrs_plan_tensor t;
  ASSERT_EQ(tgrs_plan_get_tensor(&plan_, 0, &t), TGRS_OK);
  EXPECT_STREQ(t.name, "input");
  EXPECT_EQ(t.dtype, TGRS_DTYPE_INT8);
  EXPECT_EQ(Vec(t.shape), std::vector<int32_t>({1, 8, 8, 3}));
  EXPECT_TRUE(t.has_quant);
  EXPECT_EQ(Vec(t.scale), std::vector<float>({0.5f}));
  EXPECT_EQ(Vec(t.zero_point), std::vector<int32_t>({-1}));
  EXPECT_EQ(t.quant_axis, -1);
  EXPECT_EQ(t.weight, -1);
  EXPECT_EQ(t.host_permutation.count, 0u);
  EXPECT_EQ(t.host_permutation.data, nullptr);
  EXPECT_EQ(Vec(t.onnx_shape), std::vector<int32_t>({1, 3, 8, 8}));
  EXPECT_EQ(t.host_dtype, TGRS_DTYPE_INT8);     // absent: the caller's dtype is the tensor's
  EXPECT_EQ(tgrs_plan_tensor_bytes(&t), 192u);  // 1*8*8*3 int8

  ASSERT_EQ(tgrs_plan_get_tensor(&plan_, 1, &t), TGRS_OK);
  EXPECT_STREQ(t.name, "conv.weight");
  EXPECT_EQ(Vec(t.scale), std::vector<float>({0.1f, 0.2f, 0.3f, 0.4f}));
  EXPECT_EQ(t.quant_axis, 0);
  EXPECT_EQ(t.weight, 0);

  ASSERT_EQ(tgrs_plan_get_tensor(&plan_, 2, &t), TGRS_OK);
  EXPECT_EQ(t.dtype, TGRS_DTYPE_INT32);
  EXPECT_FALSE(t.has_quant);
  EXPECT_EQ(t.scale.count, 0u);
  EXPECT_EQ(t.quant_axis, -1);  // schema default when the table is absent
  EXPECT_EQ(t.weight, 1);
  EXPECT_EQ(tgrs_plan_tensor_bytes(&t), 16u);

  ASSERT_EQ(tgrs_plan_get_tensor(&plan_, 6, &t), TGRS_OK);
  EXPECT_STREQ(t.name, "probs");
  EXPECT_EQ(Vec(t.host_permutation), std::vector<int32_t>({0, 3, 1, 2}));
  EXPECT_EQ(Vec(t.zero_point), std::vector<int32_t>({-128}));

  EXPECT_EQ(tgrs_plan_get_tensor(&plan_, 7, &t), TGRS_ERR_BAD_INDEX);
  EXPECT_EQ(t.name, nullptr);  // zeroed
  EXPECT_EQ(tgrs_plan_get_tensor(&plan_, 0, nullptr), TGRS_ERR_NULL_ARGUMENT);
  EXPECT_EQ(tgrs_plan_get_tensor(nullptr, 0, &t), TGRS_ERR_NULL_ARGUMENT);
}

TEST_F(PlanReaderTest, OpsAndAttributes) {
  Load(false);
  tgrs_plan_op op;
  ASSERT_EQ(tgrs_plan_get_op(&plan_, 0, &op), TGRS_OK);
  EXPECT_EQ(op.code, TGRS_OP_CONV);
  EXPECT_STREQ(op.name, "conv0");
  EXPECT_EQ(Vec(op.inputs), std::vector<int32_t>({0, 1, 2}));
  EXPECT_EQ(Vec(op.outputs), std::vector<int32_t>({3}));
  EXPECT_TRUE(op.has_attrs);
  EXPECT_EQ(op.activation, TGRS_ACTIVATION_RELU);
  EXPECT_EQ(Vec(op.output_multiplier),
            std::vector<int32_t>({1073741824, 1200000000, 1300000000, 1400000000}));
  EXPECT_EQ(Vec(op.output_shift), std::vector<int8_t>({-1, -2, 0, 3}));
  EXPECT_EQ(op.act_min, -1);
  EXPECT_EQ(op.act_max, 127);  // the default, written as absent
  EXPECT_EQ(op.lut.count, 0u);

  tgrs_plan_op_attrs a;
  ASSERT_EQ(tgrs_plan_get_op_attrs(&plan_, 0, &a), TGRS_OK);
  EXPECT_EQ(Vec(a.kernel), std::vector<int32_t>({3, 3}));
  EXPECT_EQ(Vec(a.strides), std::vector<int32_t>({1, 1}));
  EXPECT_EQ(Vec(a.pads), std::vector<int32_t>({1, 1, 1, 1}));
  EXPECT_EQ(Vec(a.dilations), std::vector<int32_t>({1, 1}));
  EXPECT_EQ(a.group, 1);
  EXPECT_TRUE(a.keepdims);
  EXPECT_STREQ(a.mode, "");

  ASSERT_EQ(tgrs_plan_get_op(&plan_, 1, &op), TGRS_OK);
  EXPECT_EQ(op.code, TGRS_OP_MAX_POOL);
  EXPECT_EQ(Vec(op.inputs), std::vector<int32_t>({3, -1}));
  EXPECT_EQ(op.activation, TGRS_ACTIVATION_RELU6);
  EXPECT_EQ(Vec(op.output_multiplier), std::vector<int32_t>({1500000000}));
  EXPECT_EQ(Vec(op.output_shift), std::vector<int8_t>({-5}));
  EXPECT_EQ(op.act_min, -100);
  EXPECT_EQ(op.act_max, 100);
  EXPECT_EQ(Vec(op.input_multiplier), std::vector<int32_t>({1100000000, 1000000000}));
  EXPECT_EQ(Vec(op.input_shift), std::vector<int8_t>({-3, -4}));
  EXPECT_EQ(op.left_shift, 20);
  ASSERT_EQ(op.lut.count, 256u);
  EXPECT_EQ(op.lut.data[0], -128);
  EXPECT_EQ(op.lut.data[255], 127);
  EXPECT_EQ(Vec(op.channel_scale), std::vector<float>({0.5f, 1.5f}));
  EXPECT_EQ(Vec(op.channel_shift), std::vector<float>({-0.25f, 0.75f}));
  EXPECT_EQ(Vec(op.channel_offset), std::vector<int32_t>({-7, 9}));

  ASSERT_EQ(tgrs_plan_get_op_attrs(&plan_, 1, &a), TGRS_OK);
  EXPECT_EQ(Vec(a.kernel), std::vector<int32_t>({2, 2}));
  EXPECT_EQ(Vec(a.strides), std::vector<int32_t>({2, 2}));
  EXPECT_EQ(Vec(a.pads), std::vector<int32_t>({0, 0, 0, 0}));
  EXPECT_EQ(Vec(a.dilations), std::vector<int32_t>({1, 1}));
  EXPECT_EQ(a.group, 2);
  EXPECT_EQ(a.axis, 3);
  EXPECT_EQ(Vec(a.perm), std::vector<int32_t>({0, 2, 1, 3}));
  EXPECT_EQ(Vec(a.shape), std::vector<int32_t>({1, -1}));
  EXPECT_EQ(a.alpha, 0.125f);
  EXPECT_EQ(a.beta, 0.5f);
  EXPECT_EQ(a.gamma, 1.5f);
  EXPECT_EQ(a.min, -6.0f);
  EXPECT_EQ(a.max, 6.0f);
  EXPECT_EQ(Vec(a.scales), std::vector<float>({1.0f, 2.0f, 2.0f, 1.0f}));
  EXPECT_STREQ(a.mode, "linear");
  EXPECT_STREQ(a.coordinate_transformation_mode, "half_pixel");
  EXPECT_STREQ(a.nearest_mode, "round_prefer_floor");
  EXPECT_TRUE(a.count_include_pad);
  EXPECT_TRUE(a.ceil_mode);
  EXPECT_EQ(Vec(a.axes), std::vector<int32_t>({1, 2}));
  EXPECT_FALSE(a.keepdims);
  EXPECT_EQ(Vec(a.output_padding), std::vector<int32_t>({1, 0}));
  EXPECT_EQ(a.pad_value, -0.75f);
  EXPECT_EQ(Vec(a.view_shape), std::vector<int32_t>({1, 4, 2, 8}));

  // RELU has no attrs table: every attribute reads as its schema default.
  ASSERT_EQ(tgrs_plan_get_op(&plan_, 2, &op), TGRS_OK);
  EXPECT_FALSE(op.has_attrs);
  EXPECT_EQ(op.act_min, -128);
  ASSERT_EQ(tgrs_plan_get_op_attrs(&plan_, 2, &a), TGRS_OK);
  EXPECT_EQ(a.group, 1);
  EXPECT_TRUE(a.keepdims);
  EXPECT_EQ(a.kernel.count, 0u);
  EXPECT_STREQ(a.nearest_mode, "");

  EXPECT_EQ(tgrs_plan_get_op(&plan_, 4, &op), TGRS_ERR_BAD_INDEX);
  EXPECT_EQ(tgrs_plan_get_op_attrs(&plan_, 4, &a), TGRS_ERR_BAD_INDEX);
}

TEST_F(PlanReaderTest, StagesTilesChainsAndBuffers) {
  Load(false);
  tgrs_plan_stage s;
  ASSERT_EQ(tgrs_plan_get_stage(&plan_, 0, &s), TGRS_OK);
  EXPECT_EQ(s.id, 0);
  EXPECT_EQ(s.strategy, TGRS_STRATEGY_TILED);
  EXPECT_EQ(Vec(s.ops), std::vector<int32_t>({0}));
  EXPECT_TRUE(s.has_tile);
  EXPECT_EQ(s.chain, -1);
  EXPECT_EQ(s.peak_bytes, 160u);
  EXPECT_EQ(Vec(s.spill_out), std::vector<int32_t>({3}));
  EXPECT_EQ(s.spill_in.count, 0u);
  EXPECT_EQ(s.weight_block, -1);
  EXPECT_EQ(s.buffer_count, 0u);

  tgrs_plan_tile tile;
  ASSERT_EQ(tgrs_plan_get_stage_tile(&plan_, 0, &tile), TGRS_OK);
  EXPECT_EQ(tile.dim, TGRS_TILE_DIM_HEIGHT);
  EXPECT_EQ(tile.tile_size, 2);
  EXPECT_EQ(tile.count, 4);
  EXPECT_EQ(tile.halo, 2);
  EXPECT_EQ(Vec(tile.ops), std::vector<int32_t>({0}));
  ASSERT_EQ(tile.region_count, 4u);
  const tgrs_tile_region* r = tgrs_plan_tile_region(&tile, 3, 0);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->in_begin, 5);
  EXPECT_EQ(r->in_end, 8);
  EXPECT_EQ(r->out_begin, 6);
  EXPECT_EQ(r->out_end, 8);
  EXPECT_EQ(r->pad_before, 0);
  EXPECT_EQ(r->pad_after, 1);
  EXPECT_EQ(tgrs_plan_tile_region(&tile, 0, 0)->pad_before, 1);
  EXPECT_EQ(tgrs_plan_tile_region(&tile, 4, 0), nullptr);
  EXPECT_EQ(tgrs_plan_tile_region(&tile, 0, 1), nullptr);
  EXPECT_EQ(tile.peak_bytes, 160u);
  ASSERT_EQ(tile.buffer_count, 2u);
  tgrs_plan_buffer b;
  ASSERT_EQ(tgrs_plan_tile_buffer(&tile, 1, &b), TGRS_OK);
  EXPECT_EQ(b.kind, TGRS_BUFFER_ROW_STRIP);
  EXPECT_EQ(b.tensor, 3);
  EXPECT_EQ(b.op, -1);
  EXPECT_EQ(b.bytes, 64u);
  EXPECT_TRUE(b.has_home);
  EXPECT_EQ(b.home.offset, 96u);
  EXPECT_EQ(b.home.size, 64u);
  EXPECT_EQ(b.home.region, TGRS_REGION_FAST);
  EXPECT_EQ(tgrs_plan_tile_buffer(&tile, 2, &b), TGRS_ERR_BAD_INDEX);

  ASSERT_EQ(tgrs_plan_get_stage(&plan_, 1, &s), TGRS_OK);
  EXPECT_EQ(s.strategy, TGRS_STRATEGY_CHAIN);
  EXPECT_EQ(s.chain, 0);
  EXPECT_FALSE(s.has_tile);
  EXPECT_EQ(Vec(s.spill_in), std::vector<int32_t>({3}));
  EXPECT_EQ(tgrs_plan_get_stage_tile(&plan_, 1, &tile), TGRS_ERR_MISSING_FIELD);

  tgrs_plan_chain c;
  ASSERT_EQ(tgrs_plan_get_chain(&plan_, 0, &c), TGRS_OK);
  EXPECT_EQ(c.id, 0);
  EXPECT_EQ(Vec(c.stages), std::vector<int32_t>({1, 2}));
  ASSERT_EQ(tgrs_plan_get_chain_tile(&plan_, 0, &tile), TGRS_OK);
  EXPECT_EQ(tile.count, 2);
  EXPECT_EQ(tile.halo, 1);
  EXPECT_EQ(Vec(tile.ops), std::vector<int32_t>({1, 2}));
  r = tgrs_plan_tile_region(&tile, 1, 0);  // tile 1, op slot 0 (the pool)
  EXPECT_EQ(r->in_begin, 4);
  EXPECT_EQ(r->out_end, 4);
  ASSERT_EQ(tgrs_plan_tile_buffer(&tile, 1, &b), TGRS_OK);
  EXPECT_EQ(b.first_op, 1);
  EXPECT_EQ(b.last_op, 2);
  EXPECT_EQ(b.home.offset, 128u);
  EXPECT_EQ(b.home.size, 32u);
  EXPECT_EQ(tgrs_plan_get_chain(&plan_, 1, &c), TGRS_ERR_BAD_INDEX);

  ASSERT_EQ(tgrs_plan_get_stage(&plan_, 3, &s), TGRS_OK);
  EXPECT_EQ(s.strategy, TGRS_STRATEGY_NORMAL);
  EXPECT_EQ(s.peak_bytes, 144u);
  ASSERT_EQ(s.buffer_count, 3u);
  ASSERT_EQ(tgrs_plan_get_stage_buffer(&plan_, 3, 2, &b), TGRS_OK);
  EXPECT_EQ(b.kind, TGRS_BUFFER_SCRATCH);
  EXPECT_EQ(b.tensor, -1);
  EXPECT_EQ(b.op, 3);
  EXPECT_EQ(b.bytes, 16u);
  EXPECT_EQ(b.home.offset, 128u);
  EXPECT_EQ(tgrs_plan_get_stage_buffer(&plan_, 3, 3, &b), TGRS_ERR_BAD_INDEX);

  ASSERT_EQ(tgrs_plan_get_slow_buffer(&plan_, 0, &b), TGRS_OK);
  EXPECT_EQ(b.tensor, 3);
  EXPECT_EQ(b.bytes, 256u);
  EXPECT_EQ(b.home.region, TGRS_REGION_SLOW);
  EXPECT_EQ(b.home.size, 256u);
}

TEST_F(PlanReaderTest, RawWeightsAreReadInPlaceAligned) {
  Load(false);
  std::vector<uint8_t> raw = FullWeightBytes();
  tgrs_u8s data = tgrs_plan_weight_data(&plan_);
  ASSERT_EQ(data.count, 128u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(data.data) % 16, 0u);
  // Zero-copy: the blob lies inside the caller's plan bytes.
  EXPECT_GE(data.data, bytes_->data());
  EXPECT_LE(data.data + data.count, bytes_->data() + bytes_->size());
  tgrs_plan_weight w;
  ASSERT_EQ(tgrs_plan_get_weight(&plan_, 1, &w), TGRS_OK);
  EXPECT_EQ(w.offset, 112u);
  EXPECT_EQ(w.size, 16u);
  EXPECT_EQ(w.block, -1);
  ASSERT_EQ(w.data, data.data + 112);
  EXPECT_EQ(reinterpret_cast<const int32_t*>(w.data)[1], -200);  // the fixture's bias
  EXPECT_EQ(std::vector<uint8_t>(data.data, data.data + 128), raw);
}

TEST_F(PlanReaderTest, CompressedWeightsDecodeToTheRawBlock) {
  Load(true);
  EXPECT_FALSE(tgrs_plan_xip(&plan_));
  EXPECT_EQ(tgrs_plan_compression(&plan_), TGRS_COMPRESSION_LZ4);
  ASSERT_EQ(tgrs_plan_weight_block_count(&plan_), 1u);
  tgrs_plan_weight_block k;
  ASSERT_EQ(tgrs_plan_get_weight_block(&plan_, 0, &k), TGRS_OK);
  EXPECT_EQ(k.stage, 0);
  EXPECT_EQ(k.offset, 0u);
  EXPECT_EQ(k.raw_size, 128u);
  EXPECT_EQ(k.compressed_size, tgrs_plan_weight_data(&plan_).count);
  tgrs_plan_weight w;
  ASSERT_EQ(tgrs_plan_get_weight(&plan_, 0, &w), TGRS_OK);
  EXPECT_EQ(w.block, 0);
  EXPECT_EQ(w.data, nullptr);  // lives in the decompressed block, not in place
  tgrs_plan_stage s;
  ASSERT_EQ(tgrs_plan_get_stage(&plan_, 0, &s), TGRS_OK);
  EXPECT_EQ(s.weight_block, 0);
  EXPECT_EQ(s.fast_reserved_bytes, 128u);

  std::vector<uint8_t> out(k.raw_size);
  size_t written = 0;
  ASSERT_EQ(tgrs_lz4_decode(out.data(), out.size(), k.compressed, k.compressed_size, &written),
            TGRS_OK);
  EXPECT_EQ(written, 128u);
  EXPECT_EQ(out, FullWeightBytes());
}

TEST(PlanReaderErrors, FailedInitLeavesAnEmptyPlan) {
  std::vector<uint8_t> junk(64, 0xAB);
  AlignedPlan bytes(junk);
  tgrs_plan plan;
  EXPECT_EQ(tgrs_plan_init(&plan, bytes.data(), bytes.size()), TGRS_ERR_BAD_IDENTIFIER);
  EXPECT_EQ(tgrs_plan_tensor_count(&plan), 0u);
  EXPECT_STREQ(tgrs_plan_model_name(&plan), "");
  EXPECT_EQ(tgrs_plan_inputs(&plan).count, 0u);
  tgrs_plan_op op;
  EXPECT_EQ(tgrs_plan_get_op(&plan, 0, &op), TGRS_ERR_BAD_INDEX);
  EXPECT_EQ(tgrs_plan_init(nullptr, bytes.data(), bytes.size()), TGRS_ERR_NULL_ARGUMENT);
  EXPECT_EQ(tgrs_plan_init(&plan, nullptr, 0), TGRS_ERR_NULL_ARGUMENT);
}

TEST(PlanReaderErrors, ErrorTextNamesThePathAndNumbers) {
  PlanParts parts = FullPlan();
  parts.ops[0].inputs[1] = 4087;
  AlignedPlan bytes(Serialize(parts));
  tgrs_plan plan;
  ASSERT_EQ(tgrs_plan_init(&plan, bytes.data(), bytes.size()), TGRS_ERR_BAD_INDEX);
  char text[128];
  size_t n = tgrs_verify_error_format(&plan.error, text, sizeof text);
  EXPECT_STREQ(text, "ops[0].inputs[1]: tensor index 4087 out of range (tensors: 7)");
  EXPECT_EQ(n, std::string(text).size());
  // Truncation keeps a terminated prefix and still reports the full length.
  char small[8];
  EXPECT_EQ(tgrs_verify_error_format(&plan.error, small, sizeof small), n);
  EXPECT_STREQ(small, "ops[0].");
}

TEST(PlanReaderVerifyErrorText, Int64ExtremesPrintInDecimal) {
  // Values from <cstdint>'s limits written out by hand: INT64_MIN = -2^63 =
  // -9223372036854775808, INT64_MAX = 2^63 - 1; 2^32 and 10^18 cross the formatter's
  // 16-bit limbs and a power of ten; -1 and 0 are the short cases.
  tgrs_verify_error e{};
  e.status = TGRS_ERR_BAD_VALUE;
  e.message = "{v} {l}";
  char text[64];
  const struct {
    int64_t value, limit;
    const char* want;
  } cases[] = {
      {INT64_MIN, INT64_MAX, "plan: -9223372036854775808 9223372036854775807"},
      {int64_t{1} << 32, 1000000000000000000, "plan: 4294967296 1000000000000000000"},
      {-1, 0, "plan: -1 0"},
      {65535, 65536, "plan: 65535 65536"},
      {999999999999999999, -4294967295, "plan: 999999999999999999 -4294967295"},
  };
  for (const auto& c : cases) {
    e.value = c.value;
    e.limit = c.limit;
    EXPECT_EQ(tgrs_verify_error_format(&e, text, sizeof text), std::string(c.want).size());
    EXPECT_STREQ(text, c.want);
  }
}

TEST(PlanReaderNames, StatusAndEnumNames) {
  EXPECT_STREQ(tgrs_status_name(TGRS_OK), "TGRS_OK");
  EXPECT_STREQ(tgrs_status_name(TGRS_ERR_BAD_VTABLE), "TGRS_ERR_BAD_VTABLE");
  EXPECT_STREQ(tgrs_status_name(TGRS_ERR_LZ4_CORRUPT), "TGRS_ERR_LZ4_CORRUPT");
  EXPECT_STREQ(tgrs_status_name(static_cast<tgrs_status>(65)), "TGRS_ERR_UNKNOWN");
  // Pinned values (never renumbered: the executor appends from 48).
  EXPECT_EQ(TGRS_ERR_BAD_INDEX, 10);
  EXPECT_EQ(TGRS_ERR_LZ4_CORRUPT, 32);
  EXPECT_STREQ(tgrs_op_code_name(TGRS_OP_DEQUANTIZE), "DEQUANTIZE");
  EXPECT_STREQ(tgrs_op_code_name(TGRS_OP_SPLIT), "SPLIT");
  EXPECT_STREQ(tgrs_op_code_name(static_cast<tgrs_op_code>(TGRS_OP_CODE_COUNT)), "?");
  EXPECT_STREQ(tgrs_dtype_name(TGRS_DTYPE_INT16), "INT16");
  EXPECT_STREQ(tgrs_dtype_name(TGRS_DTYPE_BOOL), "BOOL");
  EXPECT_EQ(tgrs_dtype_size(TGRS_DTYPE_BOOL), 1u);
  EXPECT_EQ(tgrs_dtype_size(TGRS_DTYPE_INT64), 8u);
  // Op codes are the op table's, pinned (tgrs_ops.def); the other enums match the
  // schema's (flatc's generated enums).
  EXPECT_EQ(TGRS_OP_DEQUANTIZE, 33);
  EXPECT_EQ(TGRS_OP_GATHER, 37);
  EXPECT_EQ(static_cast<int>(fb::DType::MAX), TGRS_DTYPE_BOOL);
  EXPECT_EQ(static_cast<int>(fb::MemoryRegion::MAX), TGRS_REGION_PINNED);
  EXPECT_EQ(static_cast<int>(fb::StageStrategy::MAX), TGRS_STRATEGY_CHAIN);
  EXPECT_EQ(static_cast<int>(fb::BufferKind::MAX), TGRS_BUFFER_SCRATCH);
  EXPECT_EQ(static_cast<int>(fb::Activation::MAX), TGRS_ACTIVATION_RELU6);
  EXPECT_EQ(static_cast<int>(fb::Compression::MAX), TGRS_COMPRESSION_LZ4);
}

}  // namespace
}  // namespace tigris::runtime_test
