// Plans for the C reader's tests, written with flatc's GENERATED C++ builder (the same
// code the compiler's emitter uses), so the C reader is checked against an independent
// writer of format/tgrs.fbs.
//
// PlanParts mirrors the schema with plain C++ values; tests start from FullPlan(), which
// sets every table and field to a non-default value, break one thing, and Serialize().
// An empty std::vector is written as an absent vector.
#ifndef TIGRIS_TESTS_RUNTIME_PLAN_FIXTURE_H_
#define TIGRIS_TESTS_RUNTIME_PLAN_FIXTURE_H_

#include <lz4.h>

#include <cstdint>
#include <cstring>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "format/tgrs_generated.h"
#include "tigris_runtime.h"

namespace tigris::runtime_test {

namespace fb = ::tigris::tgrs;

struct QuantParts {
  std::vector<float> scale;
  std::vector<int32_t> zero_point;
  int32_t axis = -1;
};

struct TensorParts {
  std::string name;
  fb::DType dtype = fb::DType::INT8;
  std::vector<int32_t> shape;
  std::optional<QuantParts> quant;
  int32_t weight = -1;
  std::vector<int32_t> host_permutation;
  std::vector<int32_t> onnx_shape;
  fb::DType host_dtype = fb::DType::UNKNOWN;
};

struct AttrsParts {
  std::vector<int32_t> kernel, strides, pads, dilations;
  int32_t group = 1;
  int32_t axis = 0;
  std::vector<int32_t> perm, shape;
  float alpha = 0, beta = 0, gamma = 0, min = 0, max = 0;
  std::vector<float> scales;
  std::string mode, coordinate_transformation_mode, nearest_mode;  // "" = absent
  bool count_include_pad = false, ceil_mode = false;
  std::vector<int32_t> axes;
  bool keepdims = true;
  std::vector<int32_t> output_padding;
  float pad_value = 0;
  std::vector<int32_t> view_shape;
  float bias = 0;
  std::vector<int32_t> starts;
};

struct OpParts {
  uint16_t code = TGRS_OP_CONV;  // an op table code, or any value (fuzzing)
  std::string name;
  std::vector<int32_t> inputs, outputs;
  std::optional<AttrsParts> attrs;
  fb::Activation activation = fb::Activation::NONE;
  std::vector<int32_t> output_multiplier;
  std::vector<int8_t> output_shift;
  int32_t act_min = -128, act_max = 127;
  std::vector<int32_t> input_multiplier;
  std::vector<int8_t> input_shift;
  int32_t left_shift = 0;
  std::vector<int8_t> lut;
  std::vector<float> channel_scale, channel_shift;
  std::vector<int32_t> channel_offset;
};

struct BufferParts {
  fb::BufferKind kind = fb::BufferKind::TENSOR;
  int32_t tensor = -1, op = -1, first_op = 0, last_op = 0;
  uint32_t bytes = 0;
  std::optional<fb::Home> home;
};

struct TileParts {
  fb::TileDim dim = fb::TileDim::HEIGHT;
  int32_t tile_size = 0, count = 0, halo = 0;
  std::vector<int32_t> ops;
  std::vector<fb::TileRegion> regions;
  std::vector<BufferParts> buffers;
  uint32_t peak_bytes = 0;
  bool streamed = false;
  std::vector<fb::TileRegion> columns;   // 2-D tiles (schema 2)
  std::vector<fb::TileRegion> channels;  // channel groups (schema 2)
};

struct StageParts {
  int32_t id = 0;
  fb::StageStrategy strategy = fb::StageStrategy::NORMAL;
  std::vector<int32_t> ops;
  std::vector<BufferParts> buffers;
  std::optional<TileParts> tile;
  int32_t chain = -1;
  uint32_t peak_bytes = 0;
  std::vector<int32_t> spill_in, spill_out;
  int32_t weight_block = -1;
  uint32_t fast_reserved_bytes = 0;
};

struct ChainParts {
  int32_t id = 0;
  std::vector<int32_t> stages;
  std::optional<TileParts> tile;
};

struct WeightParts {
  uint32_t offset = 0, size = 0;
  int32_t block = -1;
};

struct BlockParts {
  int32_t stage = 0;
  uint32_t offset = 0, compressed_size = 0, raw_size = 0;
};

struct MemoryParts {
  std::string name;
  uint32_t size = 0, alignment = 16;
};

struct PlanParts {
  uint32_t schema_version = 1;
  std::string generator, model_name;
  std::vector<TensorParts> tensors;
  std::vector<OpParts> ops;
  std::vector<StageParts> stages;
  std::vector<ChainParts> chains;
  std::vector<int32_t> inputs, outputs;
  std::vector<BufferParts> slow_buffers;
  uint32_t fast_arena_bytes = 0, slow_arena_bytes = 0, scheduled_peak_bytes = 0;
  bool xip = false;
  fb::Compression compression = fb::Compression::NONE;
  std::vector<WeightParts> weights;
  std::vector<BlockParts> weight_blocks;
  std::vector<uint8_t> weight_data;
  std::vector<MemoryParts> memories;  // empty: absent, as in plans before the list
  // Integrity sealed as the compiler seals it (docs/integrity.md); false: absent, as in
  // plans written before checksums.
  bool sealed = true;
};

// --- serialization with the generated builder ---------------------------------------------

namespace detail {

template <typename T>
const std::vector<T>* Opt(const std::vector<T>& v) {
  return v.empty() ? nullptr : &v;
}
inline const char* Opt(const std::string& s) { return s.empty() ? nullptr : s.c_str(); }

inline flatbuffers::Offset<fb::Buffer> WriteBuffer(flatbuffers::FlatBufferBuilder& b,
                                                   const BufferParts& p) {
  return fb::CreateBuffer(b, p.kind, p.tensor, p.op, p.first_op, p.last_op, p.bytes,
                          p.home ? &*p.home : nullptr);
}

inline flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<fb::Buffer>>> WriteBuffers(
    flatbuffers::FlatBufferBuilder& b, const std::vector<BufferParts>& parts) {
  if (parts.empty()) return 0;
  std::vector<flatbuffers::Offset<fb::Buffer>> offsets;
  for (const auto& p : parts) offsets.push_back(WriteBuffer(b, p));
  return b.CreateVector(offsets);
}

inline flatbuffers::Offset<fb::TilePlan> WriteTile(flatbuffers::FlatBufferBuilder& b,
                                                   const std::optional<TileParts>& t) {
  if (!t) return 0;
  auto buffers = WriteBuffers(b, t->buffers);
  auto ops = t->ops.empty() ? 0 : b.CreateVector(t->ops);
  auto regions = t->regions.empty() ? 0 : b.CreateVectorOfStructs(t->regions);
  auto columns = t->columns.empty() ? 0 : b.CreateVectorOfStructs(t->columns);
  auto channels = t->channels.empty() ? 0 : b.CreateVectorOfStructs(t->channels);
  return fb::CreateTilePlan(b, t->dim, t->tile_size, t->count, t->halo, ops, regions, buffers,
                            t->peak_bytes, t->streamed, columns, channels);
}

}  // namespace detail

// Recomputes the checksums of a plan edited in place (tgrs_plan_seal, in a 16-aligned
// copy), so a test of the verifier meets the defect it planted rather than the checksum
// mismatch that planting it caused. A plan without Integrity is left as it is
// (TGRS_ERR_NO_CHECKSUM), as is one the sealer cannot walk to its Integrity.
inline tgrs_status Reseal(std::vector<uint8_t>& bytes) {
  if (bytes.empty()) return TGRS_ERR_PLAN_TOO_SMALL;
  uint8_t* aligned = new (std::align_val_t(16)) uint8_t[bytes.size()];
  std::memcpy(aligned, bytes.data(), bytes.size());
  const tgrs_status st = tgrs_plan_seal(aligned, bytes.size());
  if (st == TGRS_OK) std::memcpy(bytes.data(), aligned, bytes.size());
  ::operator delete[](aligned, std::align_val_t(16));
  return st;
}

inline std::vector<uint8_t> Serialize(const PlanParts& p) {
  using detail::Opt;
  flatbuffers::FlatBufferBuilder b;
  // First, so the placeholders are in place when the tables are checksummed; a zero
  // tables_crc would be left out as the default.
  flatbuffers::Offset<fb::Integrity> integrity = 0;
  if (p.sealed) {
    const std::vector<uint32_t> weight_crcs(p.weights.size(), 0);
    const std::vector<uint32_t> block_crcs(p.weight_blocks.size(), 0);
    integrity =
        fb::CreateIntegrityDirect(b, fb::Checksum::CRC32C, 0xFFFFFFFFu, &weight_crcs, &block_crcs);
  }
  std::vector<flatbuffers::Offset<fb::Tensor>> tensors;
  for (const auto& t : p.tensors) {
    flatbuffers::Offset<fb::Quantization> quant = 0;
    if (t.quant) {
      quant = fb::CreateQuantizationDirect(b, Opt(t.quant->scale), Opt(t.quant->zero_point),
                                           t.quant->axis);
    }
    tensors.push_back(fb::CreateTensorDirect(b, Opt(t.name), t.dtype, Opt(t.shape), quant, t.weight,
                                             Opt(t.host_permutation), Opt(t.onnx_shape),
                                             t.host_dtype));
  }
  std::vector<flatbuffers::Offset<fb::Op>> ops;
  for (const auto& o : p.ops) {
    flatbuffers::Offset<fb::OpAttrs> attrs = 0;
    if (o.attrs) {
      const AttrsParts& a = *o.attrs;
      attrs = fb::CreateOpAttrsDirect(
          b, Opt(a.kernel), Opt(a.strides), Opt(a.pads), Opt(a.dilations), a.group, a.axis,
          Opt(a.perm), Opt(a.shape), a.alpha, a.beta, a.gamma, a.min, a.max, Opt(a.scales),
          Opt(a.mode), Opt(a.coordinate_transformation_mode), Opt(a.nearest_mode),
          a.count_include_pad, a.ceil_mode, Opt(a.axes), a.keepdims, Opt(a.output_padding),
          a.pad_value, Opt(a.view_shape), a.bias, Opt(a.starts));
    }
    ops.push_back(fb::CreateOpDirect(
        b, o.code, Opt(o.name), Opt(o.inputs), Opt(o.outputs), attrs, o.activation,
        Opt(o.output_multiplier), Opt(o.output_shift), o.act_min, o.act_max,
        Opt(o.input_multiplier), Opt(o.input_shift), o.left_shift, Opt(o.lut), Opt(o.channel_scale),
        Opt(o.channel_shift), Opt(o.channel_offset)));
  }
  std::vector<flatbuffers::Offset<fb::Stage>> stages;
  for (const auto& s : p.stages) {
    auto buffers = detail::WriteBuffers(b, s.buffers);
    auto tile = detail::WriteTile(b, s.tile);
    stages.push_back(fb::CreateStage(b, s.id, s.strategy, s.ops.empty() ? 0 : b.CreateVector(s.ops),
                                     buffers, tile, s.chain, s.peak_bytes,
                                     s.spill_in.empty() ? 0 : b.CreateVector(s.spill_in),
                                     s.spill_out.empty() ? 0 : b.CreateVector(s.spill_out),
                                     s.weight_block, s.fast_reserved_bytes));
  }
  std::vector<flatbuffers::Offset<fb::Chain>> chains;
  for (const auto& c : p.chains) {
    auto tile = detail::WriteTile(b, c.tile);
    chains.push_back(
        fb::CreateChain(b, c.id, c.stages.empty() ? 0 : b.CreateVector(c.stages), tile));
  }
  std::vector<flatbuffers::Offset<fb::Buffer>> slow_buffers;
  for (const auto& sb : p.slow_buffers) slow_buffers.push_back(detail::WriteBuffer(b, sb));
  std::vector<flatbuffers::Offset<fb::Weight>> weights;
  for (const auto& w : p.weights) weights.push_back(fb::CreateWeight(b, w.offset, w.size, w.block));
  std::vector<flatbuffers::Offset<fb::WeightBlock>> blocks;
  for (const auto& k : p.weight_blocks) {
    blocks.push_back(fb::CreateWeightBlock(b, k.stage, k.offset, k.compressed_size, k.raw_size));
  }
  std::vector<flatbuffers::Offset<fb::Memory>> memories;
  for (const auto& m : p.memories) {
    memories.push_back(fb::CreateMemoryDirect(b, Opt(m.name), m.size, m.alignment));
  }
  // CreatePlanDirect applies weight_data's force_align: 16 (ForceVectorAlignment).
  auto root = fb::CreatePlanDirect(
      b, p.schema_version, Opt(p.generator), Opt(p.model_name), Opt(tensors), Opt(ops), Opt(stages),
      Opt(chains), Opt(p.inputs), Opt(p.outputs), Opt(slow_buffers), p.fast_arena_bytes,
      p.slow_arena_bytes, p.scheduled_peak_bytes, p.xip, p.compression, Opt(weights), Opt(blocks),
      Opt(p.weight_data), Opt(memories), nullptr, 0, 0, integrity);
  fb::FinishPlanBuffer(b, root);
  std::vector<uint8_t> bytes(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
  if (p.sealed) Reseal(bytes);
  return bytes;
}

// A copy of plan bytes at a 16-aligned address (TGRS_PLAN_ALIGNMENT), as flash would hold
// them, in an allocation that ends exactly at the last byte so AddressSanitizer catches any
// read past it; `shift` moves the start off alignment on purpose.
class AlignedPlan {
 public:
  explicit AlignedPlan(const std::vector<uint8_t>& bytes, size_t shift = 0)
      : storage_(static_cast<uint8_t*>(::operator new(bytes.size() + shift, std::align_val_t(16)))),
        data_(storage_ + shift),
        size_(bytes.size()) {
    if (!bytes.empty()) std::memcpy(data_, bytes.data(), bytes.size());
  }
  ~AlignedPlan() { ::operator delete(storage_, std::align_val_t(16)); }
  AlignedPlan(const AlignedPlan&) = delete;
  AlignedPlan& operator=(const AlignedPlan&) = delete;
  uint8_t* data() { return data_; }
  size_t size() const { return size_; }

 private:
  uint8_t* storage_;
  uint8_t* data_;
  size_t size_;
};

// --- the full plan ------------------------------------------------------------------------
//
// An int8 model, 4 ops, one stage of each strategy:
//   op 0 CONV      t0 input [1,8,8,3] (+ t1 weights [4,3,3,3], t2 bias [4]) -> t3 [1,8,8,4]
//   op 1 MAX_POOL  t3 -> t4 [1,4,4,4]         op 2 RELU  t4 -> t5 [1,4,4,4]
//   op 3 SOFTMAX   t5 -> t6 [1,4,4,4] (graph output, NCHW [1,4,4,4] on the host)
// stage 0 TILED (op 0: 4 tiles of 2 rows, 3x3 pad 1), stages 1-2 CHAIN 0 (ops 1-2: 2 tiles
// of 2 output rows), stage 3 NORMAL (op 3 with softmax scratch). t3 spills to slow.
// Weights: t1 = 108 bytes at 0, t2 = 16 bytes at 112 (16-aligned), 128 bytes in all;
// `compressed` moves both into one LZ4 block of stage 0.
inline std::vector<uint8_t> FullWeightBytes() {
  std::vector<uint8_t> raw(128, 0);
  for (size_t i = 0; i < 108; ++i) raw[i] = static_cast<uint8_t>((i * 7) % 5);  // repetitive
  int32_t bias[4] = {100, -200, 300, -400};
  std::memcpy(raw.data() + 112, bias, sizeof bias);
  return raw;
}

inline fb::TileRegion Region(int in_begin, int in_end, int out_begin, int out_end, int pad_before,
                             int pad_after) {
  return fb::TileRegion(in_begin, in_end, out_begin, out_end, pad_before, pad_after);
}

inline BufferParts Buf(fb::BufferKind kind, int32_t tensor, int32_t op, int32_t first, int32_t last,
                       uint32_t bytes, uint32_t offset,
                       fb::MemoryRegion region = fb::MemoryRegion::FAST) {
  BufferParts b;
  b.kind = kind;
  b.tensor = tensor;
  b.op = op;
  b.first_op = first;
  b.last_op = last;
  b.bytes = bytes;
  b.home = fb::Home(offset, (bytes + 15) / 16 * 16, region);
  return b;
}

inline PlanParts FullPlan(bool compressed = false) {
  using fb::BufferKind;
  PlanParts p;
  p.generator = "tigris 0.1.0";
  p.model_name = "fixture_net";

  TensorParts t0{"input", fb::DType::INT8, {1, 8, 8, 3}, QuantParts{{0.5f}, {-1}, -1}, -1,
                 {},      {1, 3, 8, 8}};
  TensorParts t1{"conv.weight",
                 fb::DType::INT8,
                 {4, 3, 3, 3},
                 QuantParts{{0.1f, 0.2f, 0.3f, 0.4f}, {0, 0, 0, 0}, 0},
                 0,
                 {},
                 {}};
  TensorParts t2{"conv.bias", fb::DType::INT32, {4}, std::nullopt, 1, {}, {}};
  TensorParts t3{"conv_out", fb::DType::INT8, {1, 8, 8, 4}, QuantParts{{0.25f}, {3}, -1}, -1, {},
                 {}};
  TensorParts t4{"pool_out", fb::DType::INT8, {1, 4, 4, 4}, QuantParts{{0.25f}, {3}, -1}, -1, {},
                 {}};
  TensorParts t5{"relu_out", fb::DType::INT8, {1, 4, 4, 4}, QuantParts{{0.25f}, {3}, -1}, -1, {},
                 {}};
  TensorParts t6{"probs", fb::DType::INT8, {1, 4, 4, 4}, QuantParts{{1.0f / 256}, {-128}, -1},
                 -1,      {0, 3, 1, 2},    {1, 4, 4, 4}};
  p.tensors = {t0, t1, t2, t3, t4, t5, t6};

  OpParts conv;
  conv.code = TGRS_OP_CONV;
  conv.name = "conv0";
  conv.inputs = {0, 1, 2};
  conv.outputs = {3};
  AttrsParts ca;
  ca.kernel = {3, 3};
  ca.strides = {1, 1};
  ca.pads = {1, 1, 1, 1};
  ca.dilations = {1, 1};
  conv.attrs = ca;
  conv.activation = fb::Activation::RELU;
  conv.output_multiplier = {1073741824, 1200000000, 1300000000, 1400000000};
  conv.output_shift = {-1, -2, 0, 3};
  conv.act_min = -1;
  conv.act_max = 127;

  OpParts pool;  // every remaining attribute and op field, with non-default values
  pool.code = TGRS_OP_MAX_POOL;
  pool.name = "pool0";
  pool.inputs = {3, -1};
  pool.outputs = {4};
  AttrsParts pa;
  pa.kernel = {2, 2};
  pa.strides = {2, 2};
  pa.pads = {0, 0, 0, 0};
  pa.dilations = {1, 1};
  pa.group = 2;
  pa.axis = 3;
  pa.perm = {0, 2, 1, 3};
  pa.shape = {1, -1};
  pa.alpha = 0.125f;
  pa.beta = 0.5f;
  pa.gamma = 1.5f;
  pa.min = -6.0f;
  pa.max = 6.0f;
  pa.scales = {1.0f, 2.0f, 2.0f, 1.0f};
  pa.mode = "linear";
  pa.coordinate_transformation_mode = "half_pixel";
  pa.nearest_mode = "round_prefer_floor";
  pa.count_include_pad = true;
  pa.ceil_mode = true;
  pa.axes = {1, 2};
  pa.keepdims = false;
  pa.output_padding = {1, 0};
  pa.pad_value = -0.75f;
  pa.view_shape = {1, 4, 2, 8};
  pool.attrs = pa;
  pool.activation = fb::Activation::RELU6;
  pool.output_multiplier = {1500000000};
  pool.output_shift = {-5};
  pool.act_min = -100;
  pool.act_max = 100;
  pool.input_multiplier = {1100000000, 1000000000};
  pool.input_shift = {-3, -4};
  pool.left_shift = 20;
  pool.lut.resize(256);
  for (int i = 0; i < 256; ++i) pool.lut[i] = static_cast<int8_t>(i - 128);
  pool.channel_scale = {0.5f, 1.5f};
  pool.channel_shift = {-0.25f, 0.75f};
  pool.channel_offset = {-7, 9};

  OpParts relu;
  relu.code = TGRS_OP_RELU;
  relu.name = "relu0";
  relu.inputs = {4};
  relu.outputs = {5};
  OpParts softmax;
  softmax.code = TGRS_OP_SOFTMAX;
  softmax.name = "softmax0";
  softmax.inputs = {5};
  softmax.outputs = {6};
  AttrsParts sa;
  sa.axis = 3;
  softmax.attrs = sa;
  p.ops = {conv, pool, relu, softmax};

  // Stage 0, TILED: 2 output rows per tile; a 3x3 pad-1 conv reads rows
  // [2t - 1, 2t + 3) clipped to [0, 8) (tile_plan.h), padding the first and last tile.
  TileParts tile0;
  tile0.tile_size = 2;
  tile0.count = 4;
  tile0.halo = 2;
  tile0.ops = {0};
  tile0.regions = {Region(0, 3, 0, 2, 1, 0), Region(1, 5, 2, 4, 0, 0), Region(3, 7, 4, 6, 0, 0),
                   Region(5, 8, 6, 8, 0, 1)};
  // Strips: 4 input rows * 8 * 3 = 96 bytes, 2 output rows * 8 * 4 = 64 bytes.
  tile0.buffers = {Buf(BufferKind::ROW_STRIP, 0, -1, 0, 0, 96, 0),
                   Buf(BufferKind::ROW_STRIP, 3, -1, 0, 0, 64, 96)};
  tile0.peak_bytes = 160;
  StageParts s0;
  s0.id = 0;
  s0.strategy = fb::StageStrategy::TILED;
  s0.ops = {0};
  s0.tile = tile0;
  s0.peak_bytes = 160;
  s0.spill_out = {3};

  // Chain 0 over ops 1-2: pool halves the rows, relu keeps them.
  TileParts tile1;
  tile1.tile_size = 2;
  tile1.count = 2;
  tile1.halo = 1;
  tile1.ops = {1, 2};
  tile1.regions = {Region(0, 4, 0, 2, 0, 0), Region(0, 2, 0, 2, 0, 0), Region(4, 8, 2, 4, 0, 0),
                   Region(2, 4, 2, 4, 0, 0)};
  tile1.buffers = {Buf(BufferKind::ROW_STRIP, 3, -1, 1, 1, 128, 0),
                   Buf(BufferKind::ROW_STRIP, 4, -1, 1, 2, 32, 128),
                   Buf(BufferKind::ROW_STRIP, 5, -1, 2, 2, 32, 160)};
  tile1.peak_bytes = 192;
  ChainParts chain;
  chain.id = 0;
  chain.stages = {1, 2};
  chain.tile = tile1;
  p.chains = {chain};
  StageParts s1;
  s1.id = 1;
  s1.strategy = fb::StageStrategy::CHAIN;
  s1.ops = {1};
  s1.chain = 0;
  s1.peak_bytes = 192;
  s1.spill_in = {3};
  StageParts s2 = s1;
  s2.id = 2;
  s2.ops = {2};
  s2.spill_in = {};

  StageParts s3;  // NORMAL, with softmax's scratch (4 bytes per element of the axis)
  s3.id = 3;
  s3.ops = {3};
  s3.buffers = {Buf(BufferKind::TENSOR, 5, -1, 3, 3, 64, 0),
                Buf(BufferKind::TENSOR, 6, -1, 3, 3, 64, 64),
                Buf(BufferKind::SCRATCH, -1, 3, 3, 3, 16, 128)};
  s3.peak_bytes = 144;
  p.stages = {s0, s1, s2, s3};

  p.inputs = {0};
  p.outputs = {6};
  p.slow_buffers = {Buf(BufferKind::TENSOR, 3, -1, 0, 1, 256, 0, fb::MemoryRegion::SLOW)};
  p.fast_arena_bytes = 512;
  p.slow_arena_bytes = 256;
  p.scheduled_peak_bytes = 192;
  p.weights = {WeightParts{0, 108, -1}, WeightParts{112, 16, -1}};
  std::vector<uint8_t> raw = FullWeightBytes();
  if (!compressed) {
    p.xip = true;
    p.weight_data = raw;
    return p;
  }
  p.compression = fb::Compression::LZ4;
  std::vector<char> packed(LZ4_compressBound(static_cast<int>(raw.size())));
  int n = LZ4_compress_default(reinterpret_cast<const char*>(raw.data()), packed.data(),
                               static_cast<int>(raw.size()), static_cast<int>(packed.size()));
  p.weight_data.assign(packed.begin(), packed.begin() + n);
  p.weight_blocks = {BlockParts{0, 0, static_cast<uint32_t>(n), 128}};
  p.weights[0].block = 0;
  p.weights[1].block = 0;
  p.stages[0].weight_block = 0;
  p.stages[0].fast_reserved_bytes = 128;  // 128 + peak 160 = 288 <= 512
  // Fast homes are absolute: the stage's strips move past its reserved weights.
  for (BufferParts& b : p.stages[0].tile->buffers) {
    b.home = fb::Home(b.home->offset() + 128, b.home->size(), b.home->region());
  }
  return p;
}

}  // namespace tigris::runtime_test

#endif  // TIGRIS_TESTS_RUNTIME_PLAN_FIXTURE_H_
