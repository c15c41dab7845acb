// The C reader's hand-kept field ids (runtime/src/fb_read.h) tied to the schema, so that
// format/tgrs.fbs stays the one source of truth (issue 17, item 4):
//  - at compile time, each id equals flatc's vtable slot of the field it names
//    (VT_<FIELD> = 4 + 2 * id, FlatBuffers "Internals"): a field renamed, reordered or
//    inserted in the schema fails the build here, before a plan could be misread;
//  - at run time, the number of fields of each table, counted in format/tgrs.fbs itself,
//    equals the reader's last id + 1: a field appended to the schema without a reader id
//    (which the verifier would then not check) fails this test;
//  - the two structs' wire sizes equal flatc's.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include "../../runtime/src/fb_read.h"
#include "format/tgrs_generated.h"
#include "support/test_env.h"
#include "tgrs_kernels.h"

namespace {

namespace fb = ::tigris::tgrs;

constexpr int Slot(int vtable_offset) { return (vtable_offset - 4) / 2; }

#define TGRS_SAME_FIELD(c_id, table, field)            \
  static_assert((c_id) == Slot(fb::table::VT_##field), \
                #c_id " is not the slot of " #table "." #field " in format/tgrs.fbs")

TGRS_SAME_FIELD(FB_QUANT_SCALE, Quantization, SCALE);
TGRS_SAME_FIELD(FB_QUANT_ZERO_POINT, Quantization, ZERO_POINT);
TGRS_SAME_FIELD(FB_QUANT_AXIS, Quantization, AXIS);
TGRS_SAME_FIELD(FB_TENSOR_NAME, Tensor, NAME);
TGRS_SAME_FIELD(FB_TENSOR_DTYPE, Tensor, DTYPE);
TGRS_SAME_FIELD(FB_TENSOR_SHAPE, Tensor, SHAPE);
TGRS_SAME_FIELD(FB_TENSOR_QUANT, Tensor, QUANT);
TGRS_SAME_FIELD(FB_TENSOR_WEIGHT, Tensor, WEIGHT);
TGRS_SAME_FIELD(FB_TENSOR_HOST_PERMUTATION, Tensor, HOST_PERMUTATION);
TGRS_SAME_FIELD(FB_TENSOR_ONNX_SHAPE, Tensor, ONNX_SHAPE);
TGRS_SAME_FIELD(FB_TENSOR_HOST_DTYPE, Tensor, HOST_DTYPE);
TGRS_SAME_FIELD(FB_WEIGHT_OFFSET, Weight, OFFSET);
TGRS_SAME_FIELD(FB_WEIGHT_SIZE, Weight, SIZE);
TGRS_SAME_FIELD(FB_WEIGHT_BLOCK, Weight, BLOCK);
TGRS_SAME_FIELD(FB_BLOCK_STAGE, WeightBlock, STAGE);
TGRS_SAME_FIELD(FB_BLOCK_OFFSET, WeightBlock, OFFSET);
TGRS_SAME_FIELD(FB_BLOCK_COMPRESSED_SIZE, WeightBlock, COMPRESSED_SIZE);
TGRS_SAME_FIELD(FB_BLOCK_RAW_SIZE, WeightBlock, RAW_SIZE);
TGRS_SAME_FIELD(FB_ATTRS_KERNEL, OpAttrs, KERNEL);
TGRS_SAME_FIELD(FB_ATTRS_STRIDES, OpAttrs, STRIDES);
TGRS_SAME_FIELD(FB_ATTRS_PADS, OpAttrs, PADS);
TGRS_SAME_FIELD(FB_ATTRS_DILATIONS, OpAttrs, DILATIONS);
TGRS_SAME_FIELD(FB_ATTRS_GROUP, OpAttrs, GROUP);
TGRS_SAME_FIELD(FB_ATTRS_AXIS, OpAttrs, AXIS);
TGRS_SAME_FIELD(FB_ATTRS_PERM, OpAttrs, PERM);
TGRS_SAME_FIELD(FB_ATTRS_SHAPE, OpAttrs, SHAPE);
TGRS_SAME_FIELD(FB_ATTRS_ALPHA, OpAttrs, ALPHA);
TGRS_SAME_FIELD(FB_ATTRS_BETA, OpAttrs, BETA);
TGRS_SAME_FIELD(FB_ATTRS_GAMMA, OpAttrs, GAMMA);
TGRS_SAME_FIELD(FB_ATTRS_MIN, OpAttrs, MIN);
TGRS_SAME_FIELD(FB_ATTRS_MAX, OpAttrs, MAX);
TGRS_SAME_FIELD(FB_ATTRS_SCALES, OpAttrs, SCALES);
TGRS_SAME_FIELD(FB_ATTRS_MODE, OpAttrs, MODE);
TGRS_SAME_FIELD(FB_ATTRS_COORDINATE_TRANSFORMATION_MODE, OpAttrs, COORDINATE_TRANSFORMATION_MODE);
TGRS_SAME_FIELD(FB_ATTRS_NEAREST_MODE, OpAttrs, NEAREST_MODE);
TGRS_SAME_FIELD(FB_ATTRS_COUNT_INCLUDE_PAD, OpAttrs, COUNT_INCLUDE_PAD);
TGRS_SAME_FIELD(FB_ATTRS_CEIL_MODE, OpAttrs, CEIL_MODE);
TGRS_SAME_FIELD(FB_ATTRS_AXES, OpAttrs, AXES);
TGRS_SAME_FIELD(FB_ATTRS_KEEPDIMS, OpAttrs, KEEPDIMS);
TGRS_SAME_FIELD(FB_ATTRS_OUTPUT_PADDING, OpAttrs, OUTPUT_PADDING);
TGRS_SAME_FIELD(FB_ATTRS_PAD_VALUE, OpAttrs, PAD_VALUE);
TGRS_SAME_FIELD(FB_ATTRS_VIEW_SHAPE, OpAttrs, VIEW_SHAPE);
TGRS_SAME_FIELD(FB_ATTRS_BIAS, OpAttrs, BIAS);
TGRS_SAME_FIELD(FB_ATTRS_STARTS, OpAttrs, STARTS);
TGRS_SAME_FIELD(FB_ATTRS_ACTIVATIONS, OpAttrs, ACTIVATIONS);
TGRS_SAME_FIELD(FB_ATTRS_ACTIVATION_ALPHA, OpAttrs, ACTIVATION_ALPHA);
TGRS_SAME_FIELD(FB_ATTRS_ACTIVATION_BETA, OpAttrs, ACTIVATION_BETA);
TGRS_SAME_FIELD(FB_ATTRS_LINEAR_BEFORE_RESET, OpAttrs, LINEAR_BEFORE_RESET);
TGRS_SAME_FIELD(FB_ATTRS_OUTPUT_ROLES, OpAttrs, OUTPUT_ROLES);
TGRS_SAME_FIELD(FB_OP_CODE, Op, CODE);
TGRS_SAME_FIELD(FB_OP_NAME, Op, NAME);
TGRS_SAME_FIELD(FB_OP_INPUTS, Op, INPUTS);
TGRS_SAME_FIELD(FB_OP_OUTPUTS, Op, OUTPUTS);
TGRS_SAME_FIELD(FB_OP_ATTRS, Op, ATTRS);
TGRS_SAME_FIELD(FB_OP_ACTIVATION, Op, ACTIVATION);
TGRS_SAME_FIELD(FB_OP_OUTPUT_MULTIPLIER, Op, OUTPUT_MULTIPLIER);
TGRS_SAME_FIELD(FB_OP_OUTPUT_SHIFT, Op, OUTPUT_SHIFT);
TGRS_SAME_FIELD(FB_OP_ACT_MIN, Op, ACT_MIN);
TGRS_SAME_FIELD(FB_OP_ACT_MAX, Op, ACT_MAX);
TGRS_SAME_FIELD(FB_OP_INPUT_MULTIPLIER, Op, INPUT_MULTIPLIER);
TGRS_SAME_FIELD(FB_OP_INPUT_SHIFT, Op, INPUT_SHIFT);
TGRS_SAME_FIELD(FB_OP_LEFT_SHIFT, Op, LEFT_SHIFT);
TGRS_SAME_FIELD(FB_OP_LUT, Op, LUT);
TGRS_SAME_FIELD(FB_OP_CHANNEL_SCALE, Op, CHANNEL_SCALE);
TGRS_SAME_FIELD(FB_OP_CHANNEL_SHIFT, Op, CHANNEL_SHIFT);
TGRS_SAME_FIELD(FB_OP_CHANNEL_OFFSET, Op, CHANNEL_OFFSET);
TGRS_SAME_FIELD(FB_OP_ROUNDING, Op, ROUNDING);
TGRS_SAME_FIELD(FB_BUFFER_KIND, Buffer, KIND);
TGRS_SAME_FIELD(FB_BUFFER_TENSOR, Buffer, TENSOR);
TGRS_SAME_FIELD(FB_BUFFER_OP, Buffer, OP);
TGRS_SAME_FIELD(FB_BUFFER_FIRST_OP, Buffer, FIRST_OP);
TGRS_SAME_FIELD(FB_BUFFER_LAST_OP, Buffer, LAST_OP);
TGRS_SAME_FIELD(FB_BUFFER_BYTES, Buffer, BYTES);
TGRS_SAME_FIELD(FB_BUFFER_HOME, Buffer, HOME);
TGRS_SAME_FIELD(FB_TILE_DIM, TilePlan, DIM);
TGRS_SAME_FIELD(FB_TILE_TILE_SIZE, TilePlan, TILE_SIZE);
TGRS_SAME_FIELD(FB_TILE_COUNT, TilePlan, COUNT);
TGRS_SAME_FIELD(FB_TILE_HALO, TilePlan, HALO);
TGRS_SAME_FIELD(FB_TILE_OPS, TilePlan, OPS);
TGRS_SAME_FIELD(FB_TILE_REGIONS, TilePlan, REGIONS);
TGRS_SAME_FIELD(FB_TILE_BUFFERS, TilePlan, BUFFERS);
TGRS_SAME_FIELD(FB_TILE_PEAK_BYTES, TilePlan, PEAK_BYTES);
TGRS_SAME_FIELD(FB_TILE_STREAMED, TilePlan, STREAMED);
TGRS_SAME_FIELD(FB_TILE_COLUMNS, TilePlan, COLUMNS);
TGRS_SAME_FIELD(FB_TILE_CHANNELS, TilePlan, CHANNELS);
TGRS_SAME_FIELD(FB_STAGE_ID, Stage, ID);
TGRS_SAME_FIELD(FB_STAGE_STRATEGY, Stage, STRATEGY);
TGRS_SAME_FIELD(FB_STAGE_OPS, Stage, OPS);
TGRS_SAME_FIELD(FB_STAGE_BUFFERS, Stage, BUFFERS);
TGRS_SAME_FIELD(FB_STAGE_TILE, Stage, TILE);
TGRS_SAME_FIELD(FB_STAGE_CHAIN, Stage, CHAIN);
TGRS_SAME_FIELD(FB_STAGE_PEAK_BYTES, Stage, PEAK_BYTES);
TGRS_SAME_FIELD(FB_STAGE_SPILL_IN, Stage, SPILL_IN);
TGRS_SAME_FIELD(FB_STAGE_SPILL_OUT, Stage, SPILL_OUT);
TGRS_SAME_FIELD(FB_STAGE_WEIGHT_BLOCK, Stage, WEIGHT_BLOCK);
TGRS_SAME_FIELD(FB_STAGE_FAST_RESERVED_BYTES, Stage, FAST_RESERVED_BYTES);
TGRS_SAME_FIELD(FB_CHAIN_ID, Chain, ID);
TGRS_SAME_FIELD(FB_CHAIN_STAGES, Chain, STAGES);
TGRS_SAME_FIELD(FB_CHAIN_TILE, Chain, TILE);
TGRS_SAME_FIELD(FB_PLAN_SCHEMA_VERSION, Plan, SCHEMA_VERSION);
TGRS_SAME_FIELD(FB_PLAN_GENERATOR, Plan, GENERATOR);
TGRS_SAME_FIELD(FB_PLAN_MODEL_NAME, Plan, MODEL_NAME);
TGRS_SAME_FIELD(FB_PLAN_TENSORS, Plan, TENSORS);
TGRS_SAME_FIELD(FB_PLAN_OPS, Plan, OPS);
TGRS_SAME_FIELD(FB_PLAN_STAGES, Plan, STAGES);
TGRS_SAME_FIELD(FB_PLAN_CHAINS, Plan, CHAINS);
TGRS_SAME_FIELD(FB_PLAN_INPUTS, Plan, INPUTS);
TGRS_SAME_FIELD(FB_PLAN_OUTPUTS, Plan, OUTPUTS);
TGRS_SAME_FIELD(FB_PLAN_SLOW_BUFFERS, Plan, SLOW_BUFFERS);
TGRS_SAME_FIELD(FB_PLAN_FAST_ARENA_BYTES, Plan, FAST_ARENA_BYTES);
TGRS_SAME_FIELD(FB_PLAN_SLOW_ARENA_BYTES, Plan, SLOW_ARENA_BYTES);
TGRS_SAME_FIELD(FB_PLAN_SCHEDULED_PEAK_BYTES, Plan, SCHEDULED_PEAK_BYTES);
TGRS_SAME_FIELD(FB_PLAN_XIP, Plan, XIP);
TGRS_SAME_FIELD(FB_PLAN_COMPRESSION, Plan, COMPRESSION);
TGRS_SAME_FIELD(FB_PLAN_WEIGHTS, Plan, WEIGHTS);
TGRS_SAME_FIELD(FB_PLAN_WEIGHT_BLOCKS, Plan, WEIGHT_BLOCKS);
TGRS_SAME_FIELD(FB_PLAN_WEIGHT_DATA, Plan, WEIGHT_DATA);
TGRS_SAME_FIELD(FB_PLAN_MEMORIES, Plan, MEMORIES);
TGRS_SAME_FIELD(FB_PLAN_STATE, Plan, STATE);
TGRS_SAME_FIELD(FB_PLAN_STAGED_OFFSET, Plan, STAGED_OFFSET);
TGRS_SAME_FIELD(FB_PLAN_STAGED_BYTES, Plan, STAGED_BYTES);
TGRS_SAME_FIELD(FB_MEMORY_NAME, Memory, NAME);
TGRS_SAME_FIELD(FB_MEMORY_SIZE, Memory, SIZE);
TGRS_SAME_FIELD(FB_MEMORY_ALIGNMENT, Memory, ALIGNMENT);
TGRS_SAME_FIELD(FB_PLAN_INTEGRITY, Plan, INTEGRITY);
TGRS_SAME_FIELD(FB_INTEGRITY_CHECKSUM, Integrity, CHECKSUM);
TGRS_SAME_FIELD(FB_INTEGRITY_TABLES_CRC, Integrity, TABLES_CRC);
TGRS_SAME_FIELD(FB_INTEGRITY_WEIGHT_CRCS, Integrity, WEIGHT_CRCS);
TGRS_SAME_FIELD(FB_INTEGRITY_BLOCK_CRCS, Integrity, BLOCK_CRCS);

// The runtime's tgrs_rounding (tgrs_kernels.h) is the schema's Rounding, value for value.
static_assert(TGRS_ROUNDING_ONNX == static_cast<int>(fb::Rounding::ONNX) &&
                  TGRS_ROUNDING_TFLITE == static_cast<int>(fb::Rounding::TFLITE) &&
                  fb::Rounding::MAX == fb::Rounding::TFLITE,
              "tgrs_rounding and format/tgrs.fbs Rounding differ");
static_assert(FB_HOME_BYTES == sizeof(fb::Home) && FB_HOME_ALIGN == alignof(fb::Home),
              "Home's wire layout differs from flatc's");
static_assert(FB_TILE_REGION_BYTES == sizeof(fb::TileRegion),
              "TileRegion's wire layout differs from flatc's");
static_assert(FB_STATE_SLOT_BYTES == sizeof(fb::StateSlot) && alignof(fb::StateSlot) == 4,
              "StateSlot's wire layout differs from flatc's");

// Fields per table, from the schema's text: the lines `name: type ...;` between
// `table Name {` and `}`, comments removed.
std::map<std::string, int> SchemaFieldCounts() {
  std::ifstream in(tigris::testing::SourceDir() + "/format/tgrs.fbs");
  std::stringstream text;
  text << in.rdbuf();
  std::map<std::string, int> counts;
  const std::regex open(R"(^\s*table\s+(\w+)\s*\{)"), field(R"(^\s*\w+\s*:\s*[\w\[\]]+)");
  std::string line, table;
  std::smatch m;
  while (std::getline(text, line)) {
    line = line.substr(0, line.find("//"));
    if (std::regex_search(line, m, open)) {
      table = m[1];
      counts[table] = 0;
    } else if (!table.empty() && line.find('}') != std::string::npos) {
      table.clear();
    } else if (!table.empty() && std::regex_search(line, field)) {
      ++counts[table];
    }
  }
  return counts;
}

TEST(SchemaIds, EveryFieldOfEveryTableHasAReaderId) {
  const std::map<std::string, int> reader = {
      {"Quantization", FB_QUANT_AXIS + 1},
      {"Tensor", FB_TENSOR_HOST_DTYPE + 1},
      {"Weight", FB_WEIGHT_BLOCK + 1},
      {"WeightBlock", FB_BLOCK_RAW_SIZE + 1},
      {"OpAttrs", FB_ATTRS_OUTPUT_ROLES + 1},
      {"Op", FB_OP_ROUNDING + 1},
      {"Buffer", FB_BUFFER_HOME + 1},
      {"TilePlan", FB_TILE_CHANNELS + 1},
      {"Stage", FB_STAGE_FAST_RESERVED_BYTES + 1},
      {"Chain", FB_CHAIN_TILE + 1},
      {"Plan", FB_PLAN_INTEGRITY + 1},
      {"Memory", FB_MEMORY_ALIGNMENT + 1},
      {"Integrity", FB_INTEGRITY_BLOCK_CRCS + 1},
  };
  EXPECT_EQ(SchemaFieldCounts(), reader)
      << "format/tgrs.fbs has a table or field runtime/src/fb_read.h does not know";
}

}  // namespace
