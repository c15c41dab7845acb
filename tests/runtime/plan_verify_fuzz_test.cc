// The verifier against hostile bytes: every truncation, thousands of random mutations,
// and one hand-made plan per class of defect, each asserting its specific status. Plans
// live in allocations that end at their last byte (AlignedPlan), so under ASan any read
// past the buffer aborts the test (tests/runtime/sanitized builds these sources with
// -fsanitize=address,undefined).
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "runtime/plan_fixture.h"
#include "tigris_runtime.h"

namespace tigris::runtime_test {
namespace {

std::string ErrorText(const tgrs_plan& plan) {
  char text[256];
  tgrs_verify_error_format(&plan.error, text, sizeof text);
  return std::string(tgrs_status_name(plan.error.status)) + " " + text;
}

// Walks every getter of an accepted plan and touches every byte each span points at, and
// checks the spans lie inside [base, base + size): the verifier's promise.
class AccessorWalk {
 public:
  AccessorWalk(const tgrs_plan* plan, const uint8_t* base, size_t size)
      : plan_(plan), base_(base), size_(size) {}

  void Run() {
    Str(tgrs_plan_generator(plan_));
    Str(tgrs_plan_model_name(plan_));
    Span(tgrs_plan_inputs(plan_));
    Span(tgrs_plan_outputs(plan_));
    tgrs_u8s wd = tgrs_plan_weight_data(plan_);
    Bytes(wd.data, wd.count);
    for (uint32_t i = 0; i < tgrs_plan_tensor_count(plan_); ++i) {
      tgrs_plan_tensor t;
      ASSERT_EQ(tgrs_plan_get_tensor(plan_, i, &t), TGRS_OK);
      Str(t.name);
      Span(t.shape);
      Span(t.scale);
      Span(t.zero_point);
      Span(t.host_permutation);
      Span(t.onnx_shape);
      sum_ += tgrs_plan_tensor_bytes(&t);
    }
    for (uint32_t i = 0; i < tgrs_plan_op_count(plan_); ++i) {
      tgrs_plan_op op;
      ASSERT_EQ(tgrs_plan_get_op(plan_, i, &op), TGRS_OK);
      Str(op.name);
      Span(op.inputs);
      Span(op.outputs);
      Span(op.output_multiplier);
      Span(op.output_shift);
      Span(op.input_multiplier);
      Span(op.input_shift);
      Span(op.lut);
      Span(op.channel_scale);
      Span(op.channel_shift);
      Span(op.channel_offset);
      tgrs_plan_op_attrs a;
      ASSERT_EQ(tgrs_plan_get_op_attrs(plan_, i, &a), TGRS_OK);
      for (tgrs_i32s s : {a.kernel, a.strides, a.pads, a.dilations, a.perm, a.shape, a.axes,
                          a.output_padding, a.view_shape}) {
        Span(s);
      }
      Span(a.scales);
      Str(a.mode);
      Str(a.coordinate_transformation_mode);
      Str(a.nearest_mode);
    }
    for (uint32_t i = 0; i < tgrs_plan_stage_count(plan_); ++i) {
      tgrs_plan_stage s;
      ASSERT_EQ(tgrs_plan_get_stage(plan_, i, &s), TGRS_OK);
      Span(s.ops);
      Span(s.spill_in);
      Span(s.spill_out);
      for (uint32_t k = 0; k < s.buffer_count; ++k) {
        tgrs_plan_buffer b;
        ASSERT_EQ(tgrs_plan_get_stage_buffer(plan_, i, k, &b), TGRS_OK);
        sum_ += b.home.offset + b.bytes;
      }
      tgrs_plan_tile tile;
      if (tgrs_plan_get_stage_tile(plan_, i, &tile) == TGRS_OK) Tile(tile);
    }
    for (uint32_t i = 0; i < tgrs_plan_chain_count(plan_); ++i) {
      tgrs_plan_chain c;
      ASSERT_EQ(tgrs_plan_get_chain(plan_, i, &c), TGRS_OK);
      Span(c.stages);
      tgrs_plan_tile tile;
      ASSERT_EQ(tgrs_plan_get_chain_tile(plan_, i, &tile), TGRS_OK);
      Tile(tile);
    }
    for (uint32_t i = 0; i < tgrs_plan_slow_buffer_count(plan_); ++i) {
      tgrs_plan_buffer b;
      ASSERT_EQ(tgrs_plan_get_slow_buffer(plan_, i, &b), TGRS_OK);
      sum_ += b.home.size;
    }
    for (uint32_t i = 0; i < tgrs_plan_weight_count(plan_); ++i) {
      tgrs_plan_weight w;
      ASSERT_EQ(tgrs_plan_get_weight(plan_, i, &w), TGRS_OK);
      if (w.block < 0) Bytes(w.data, w.size);
    }
    for (uint32_t i = 0; i < tgrs_plan_weight_block_count(plan_); ++i) {
      tgrs_plan_weight_block k;
      ASSERT_EQ(tgrs_plan_get_weight_block(plan_, i, &k), TGRS_OK);
      Bytes(k.compressed, k.compressed_size);
    }
  }

  uint64_t sum() const { return sum_; }

 private:
  void Bytes(const void* p, size_t n) {
    if (n == 0) return;
    const uint8_t* b = static_cast<const uint8_t*>(p);
    ASSERT_GE(b, base_);
    ASSERT_LE(b + n, base_ + size_);
    for (size_t i = 0; i < n; ++i) sum_ += b[i];
  }
  template <typename S>
  void Span(S s) {
    Bytes(s.data, s.count * sizeof(*s.data));
  }
  void Str(const char* s) {
    ASSERT_NE(s, nullptr);
    if (*s == '\0') return;  // "" for absent strings may be a static literal
    Bytes(s, std::strlen(s) + 1);
  }
  void Tile(const tgrs_plan_tile& tile) {
    Span(tile.ops);
    Bytes(tile.regions, tile.region_count * sizeof(tgrs_tile_region));
    for (uint32_t t = 0; t < static_cast<uint32_t>(tile.count); ++t) {
      for (uint32_t k = 0; k < tile.ops.count; ++k) {
        const tgrs_tile_region* r = tgrs_plan_tile_region(&tile, t, k);
        ASSERT_NE(r, nullptr);
        sum_ += static_cast<uint32_t>(r->in_end - r->in_begin);
      }
    }
    for (uint32_t k = 0; k < tile.buffer_count; ++k) {
      tgrs_plan_buffer b;
      ASSERT_EQ(tgrs_plan_tile_buffer(&tile, k, &b), TGRS_OK);
      sum_ += b.home.offset;
    }
  }

  const tgrs_plan* plan_;
  const uint8_t* base_;
  size_t size_;
  uint64_t sum_ = 0;
};

// The verifier's view of `bytes`: resealed first (plan_fixture.h), so each test meets the
// defect it planted rather than the checksum mismatch planting it caused; a plan built
// without Integrity is read with the check off (plan_integrity_test.cc tests the checks).
tgrs_status Init(const std::vector<uint8_t>& bytes, tgrs_plan* plan) {
  std::vector<uint8_t> resealed = bytes;
  const bool sealed = Reseal(resealed) != TGRS_ERR_NO_CHECKSUM;
  AlignedPlan aligned(resealed);
  return tgrs_plan_init_with(plan, aligned.data(), aligned.size(),
                             sealed ? TGRS_INTEGRITY_ALL : TGRS_INTEGRITY_NONE);
}

tgrs_status InitParts(const PlanParts& parts, std::string* text = nullptr) {
  tgrs_plan plan;
  AlignedPlan aligned(Serialize(parts));
  tgrs_status st = tgrs_plan_init(&plan, aligned.data(), aligned.size());
  if (text) *text = ErrorText(plan);
  return st;
}

// Position of `p` inside `bytes`.
uint32_t Pos(const std::vector<uint8_t>& bytes, const void* p) {
  return static_cast<uint32_t>(static_cast<const uint8_t*>(p) - bytes.data());
}
void Put32(std::vector<uint8_t>& bytes, uint32_t pos, uint32_t value) {
  std::memcpy(bytes.data() + pos, &value, 4);  // little-endian host (the runtime's target)
}

TEST(PlanVerifyFuzz, BothFixturesVerifyAndWalk) {
  for (bool compressed : {false, true}) {
    std::vector<uint8_t> bytes = Serialize(FullPlan(compressed));
    AlignedPlan aligned(bytes);
    tgrs_plan plan;
    ASSERT_EQ(tgrs_plan_init(&plan, aligned.data(), aligned.size()), TGRS_OK) << ErrorText(plan);
    AccessorWalk walk(&plan, aligned.data(), aligned.size());
    walk.Run();
    EXPECT_GT(walk.sum(), 0u);
  }
}

TEST(PlanVerifyFuzz, EveryTruncationIsRejected) {
  for (bool compressed : {false, true}) {
    std::vector<uint8_t> bytes = Serialize(FullPlan(compressed));
    for (size_t n = 0; n < bytes.size(); ++n) {
      std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + n);
      tgrs_plan plan;
      tgrs_status st = Init(cut, &plan);
      ASSERT_NE(st, TGRS_OK) << "accepted a plan truncated to " << n << " bytes";
      EXPECT_EQ(plan.error.status, st);
      if (n < 8) {
        EXPECT_EQ(st, TGRS_ERR_PLAN_TOO_SMALL) << n;
      }
    }
  }
}

TEST(PlanVerifyFuzz, RandomMutationsAreRejectedOrStayInBounds) {
  std::mt19937 rng(20261121);  // deterministic: the same mutants on every run
  int rejected = 0, accepted = 0;
  for (bool compressed : {false, true}) {
    const std::vector<uint8_t> bytes = Serialize(FullPlan(compressed));
    for (int m = 0; m < 2000; ++m) {
      std::vector<uint8_t> mutant = bytes;
      int flips = 1 + static_cast<int>(rng() % 4);
      for (int f = 0; f < flips; ++f) {
        size_t pos = rng() % mutant.size();
        // Half the time a single bit (near-valid values), else a random byte.
        mutant[pos] = (rng() & 1) ? static_cast<uint8_t>(mutant[pos] ^ (1u << (rng() % 8)))
                                  : static_cast<uint8_t>(rng());
      }
      // Every other mutant resealed: the checksum refuses the rest, and the verifier must
      // still hold for mutants that carry a valid one (a buggy or hostile writer).
      if (m % 2 == 0) Reseal(mutant);
      AlignedPlan aligned(mutant);
      tgrs_plan plan;
      tgrs_status st = tgrs_plan_init(&plan, aligned.data(), aligned.size());
      if (st != TGRS_OK) {
        ++rejected;
        ASSERT_EQ(plan.error.status, st);
        ASSERT_NE(plan.error.message, nullptr);
        char text[256];
        ASSERT_GT(tgrs_verify_error_format(&plan.error, text, sizeof text), 0u);
        continue;
      }
      ++accepted;
      AccessorWalk walk(&plan, aligned.data(), aligned.size());
      walk.Run();
      ASSERT_FALSE(::testing::Test::HasFatalFailure()) << "mutant " << m;
    }
  }
  // Both outcomes occur (flips in weight bytes or names keep a plan valid), so the walk
  // over accepted mutants is exercised too.
  EXPECT_GT(rejected, 1000);
  EXPECT_GT(accepted, 10);
}

// --- one defect per class ----------------------------------------------------------------

TEST(PlanVerifyDefects, BufferLevel) {
  std::vector<uint8_t> bytes = Serialize(FullPlan());
  tgrs_plan plan;
  EXPECT_EQ(Init(std::vector<uint8_t>(bytes.begin(), bytes.begin() + 7), &plan),
            TGRS_ERR_PLAN_TOO_SMALL);

  AlignedPlan shifted(bytes, 4);
  EXPECT_EQ(tgrs_plan_init(&plan, shifted.data(), shifted.size()), TGRS_ERR_PLAN_MISALIGNED);

  std::vector<uint8_t> wrong_id = bytes;
  std::memcpy(wrong_id.data() + 4, "TFL3", 4);
  EXPECT_EQ(Init(wrong_id, &plan), TGRS_ERR_BAD_IDENTIFIER);

  EXPECT_EQ(tgrs_plan_init(&plan, bytes.data(), static_cast<size_t>(0x80000000u)),
            TGRS_ERR_PLAN_TOO_LARGE);  // rejected before any byte is read
}

TEST(PlanVerifyDefects, SchemaVersion) {
  PlanParts parts = FullPlan();
  parts.schema_version = TGRS_SCHEMA_VERSION + 1;
  std::string text;
  EXPECT_EQ(InitParts(parts, &text), TGRS_ERR_UNSUPPORTED_VERSION);
  const std::string expected =
      "schema_version: plan schema " + std::to_string(TGRS_SCHEMA_VERSION + 1) +
      " is newer than this reader's " + std::to_string(TGRS_SCHEMA_VERSION);
  EXPECT_NE(text.find(expected), std::string::npos) << text;
  parts.schema_version = 0;  // the default: absent on the wire
  EXPECT_EQ(InitParts(parts), TGRS_ERR_MISSING_FIELD);
}

TEST(PlanVerifyDefects, WireFormat) {
  const std::vector<uint8_t> bytes = Serialize(FullPlan());
  const fb::Plan* root = fb::GetPlan(bytes.data());
  const auto* table = reinterpret_cast<const flatbuffers::Table*>(root);
  uint32_t root_pos = Pos(bytes, root);
  tgrs_plan plan;

  // The root's uoffset to `tensors` pointing past the end.
  std::vector<uint8_t> far = bytes;
  uint32_t field = root_pos + table->GetOptionalFieldOffset(fb::Plan::VT_TENSORS);
  Put32(far, field, static_cast<uint32_t>(bytes.size()));
  EXPECT_EQ(Init(far, &plan), TGRS_ERR_BAD_OFFSET);
  EXPECT_EQ(std::string(plan.error.path[0].field), "tensors");

  // The root table's vtable outside the buffer (soffset = -size: vtable after the end).
  std::vector<uint8_t> vt = bytes;
  Put32(vt, root_pos, static_cast<uint32_t>(-static_cast<int32_t>(bytes.size())));
  EXPECT_EQ(Init(vt, &plan), TGRS_ERR_BAD_VTABLE);
  // ... and before the start.
  Put32(vt, root_pos, root_pos + 2);
  EXPECT_EQ(Init(vt, &plan), TGRS_ERR_BAD_VTABLE);

  // A vector length that runs past the end: ops[0].inputs.
  std::vector<uint8_t> vec = bytes;
  Put32(vec, Pos(bytes, root->ops()->Get(0)->inputs()), 0x3FFFFFFFu);
  EXPECT_EQ(Init(vec, &plan), TGRS_ERR_BAD_VECTOR);
  EXPECT_EQ(ErrorText(plan).find("ops[0].inputs: vector of 1073741823 elements"),
            std::string("TGRS_ERR_BAD_VECTOR ").size())
      << ErrorText(plan);

  // A string whose terminating NUL is overwritten.
  std::vector<uint8_t> str = bytes;
  const flatbuffers::String* name = root->model_name();
  str[Pos(bytes, name->c_str()) + name->size()] = 'x';
  EXPECT_EQ(Init(str, &plan), TGRS_ERR_BAD_STRING);

  // A string whose length runs past the end.
  Put32(str, Pos(bytes, name), 0x7FFFFFF0u);
  EXPECT_EQ(Init(str, &plan), TGRS_ERR_BAD_STRING);
}

TEST(PlanVerifyDefects, Indices) {
  std::string text;
  PlanParts p = FullPlan();
  p.ops[0].inputs[1] = 4087;
  EXPECT_EQ(InitParts(p, &text), TGRS_ERR_BAD_INDEX);
  EXPECT_NE(text.find("ops[0].inputs[1]: tensor index 4087 out of range (tensors: 7)"),
            std::string::npos)
      << text;

  p = FullPlan();
  p.ops[3].outputs[0] = -1;  // outputs never take the "absent" sentinel
  EXPECT_EQ(InitParts(p), TGRS_ERR_BAD_INDEX);

  p = FullPlan();
  p.tensors[1].weight = 2;
  EXPECT_EQ(InitParts(p, &text), TGRS_ERR_BAD_INDEX);
  EXPECT_NE(text.find("tensors[1].weight: weight index 2 out of range (weights: 2)"),
            std::string::npos)
      << text;

  p = FullPlan();
  p.stages[1].chain = 1;
  EXPECT_EQ(InitParts(p), TGRS_ERR_BAD_INDEX);

  p = FullPlan();
  p.chains[0].stages = {1, 4};
  EXPECT_EQ(InitParts(p), TGRS_ERR_BAD_INDEX);

  p = FullPlan();
  p.stages[2].ops = {1};  // overlaps stage 1: stages must partition the ops in order
  EXPECT_EQ(InitParts(p, &text), TGRS_ERR_BAD_INDEX);
  EXPECT_NE(text.find("stages[2].ops[0]"), std::string::npos) << text;

  p = FullPlan();
  p.stages.pop_back();  // op 3 never runs
  EXPECT_EQ(InitParts(p, &text), TGRS_ERR_BAD_INDEX);

  p = FullPlan();
  p.stages[0].tile->regions[3] = Region(5, 9, 6, 8, 0, 0);  // row 8 of an 8-row input
  EXPECT_EQ(InitParts(p, &text), TGRS_ERR_BAD_INDEX);
  EXPECT_NE(text.find("stages[0].tile.regions[3]: input end 9 past the input's extent 8"),
            std::string::npos)
      << text;

  p = FullPlan(true);
  p.weights[0].block = 1;
  EXPECT_EQ(InitParts(p), TGRS_ERR_BAD_INDEX);

  p = FullPlan(true);
  p.weight_blocks[0].stage = 1;  // stage 0 names a block owned by stage 1
  EXPECT_EQ(InitParts(p), TGRS_ERR_BAD_INDEX);

  p = FullPlan();
  p.tensors[6].host_permutation = {0, 3, 1, 4};
  EXPECT_EQ(InitParts(p), TGRS_ERR_BAD_INDEX);
}

TEST(PlanVerifyDefects, Alignment) {
  std::string text;
  PlanParts p = FullPlan();
  p.weights[1].offset = 104;  // in range, not a multiple of 16
  EXPECT_EQ(InitParts(p, &text), TGRS_ERR_BAD_ALIGNMENT);
  EXPECT_NE(text.find("weights[1].offset: offset 104 is not a multiple of 16"), std::string::npos)
      << text;

  p = FullPlan();
  p.stages[3].buffers[1].home = fb::Home(72, 64, fb::MemoryRegion::FAST);
  EXPECT_EQ(InitParts(p, &text), TGRS_ERR_BAD_ALIGNMENT);
  EXPECT_NE(text.find("stages[3].buffers[1].home"), std::string::npos) << text;
}

// The numbers a rule compared travel in 32 bits when their types allow it
// (TGRS_VERIFY_FAIL, verify_internal.h): unsigned fields past 2^31 and negative signed ones
// must print as written, and 64-bit sums whole.
TEST(PlanVerifyDefects, NumbersKeepTheirSignsAndWidths) {
  std::string text;
  PlanParts p = FullPlan();
  p.weights[1].offset = 0xFFFFFFF8u;  // uint32, past INT32_MAX
  EXPECT_EQ(InitParts(p, &text), TGRS_ERR_BAD_ALIGNMENT);
  EXPECT_NE(text.find("weights[1].offset: offset 4294967288 is not a multiple of 16"),
            std::string::npos)
      << text;

  p = FullPlan();
  p.tensors[1].weight = -7;  // int32, negative
  EXPECT_EQ(InitParts(p, &text), TGRS_ERR_BAD_INDEX);
  EXPECT_NE(text.find("tensors[1].weight: weight index -7 out of range (weights: 2)"),
            std::string::npos)
      << text;

  p = FullPlan();
  p.tensors[0].shape = {1, -3, 8, 3};
  EXPECT_EQ(InitParts(p, &text), TGRS_ERR_BAD_VALUE);
  EXPECT_NE(text.find("tensors[0].shape[1]: negative dimension -3"), std::string::npos) << text;

  p = FullPlan();
  p.tensors[0].shape = {1, 65536, 65536, 3};  // 3 * 2^32 elements
  EXPECT_EQ(InitParts(p, &text), TGRS_ERR_BAD_SIZE);
  EXPECT_NE(text.find("tensors[0].shape[2]: more than 4294967295 elements"), std::string::npos)
      << text;

  p = FullPlan();
  p.weights[1].offset = 0xFFFFFFF0u;  // aligned: offset + size, a 64-bit sum, passes 2^32
  EXPECT_EQ(InitParts(p, &text), TGRS_ERR_BAD_OFFSET);
  EXPECT_NE(text.find("weights[1].size: weight ends at 4294967296, past its"), std::string::npos)
      << text;
}

TEST(PlanVerifyDefects, WeightDataMustStart16Aligned) {
  // Built by hand without force_align's ForceVectorAlignment: weight_data lands wherever
  // the objects written after it (an unreferenced vector of `pad` ints, 4 + 4 * pad bytes)
  // push it, 16-aligned or not.
  int aligned = 0, misaligned = 0;
  for (size_t pad = 0; pad < 4; ++pad) {
    flatbuffers::FlatBufferBuilder b;
    std::vector<uint8_t> blob(32, 7);
    auto data = b.CreateVector(blob);
    b.CreateVector(std::vector<int32_t>(pad, 0));
    auto tensors = b.CreateVector(std::vector<flatbuffers::Offset<fb::Tensor>>{});
    auto ops = b.CreateVector(std::vector<flatbuffers::Offset<fb::Op>>{});
    auto stages = b.CreateVector(std::vector<flatbuffers::Offset<fb::Stage>>{});
    auto io = b.CreateVector(std::vector<int32_t>{});
    fb::PlanBuilder pb(b);
    pb.add_schema_version(1);
    pb.add_tensors(tensors);
    pb.add_ops(ops);
    pb.add_stages(stages);
    pb.add_inputs(io);
    pb.add_outputs(io);
    pb.add_weight_data(data);
    fb::FinishPlanBuffer(b, pb.Finish());
    std::vector<uint8_t> bytes(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
    uint32_t blob_pos = Pos(bytes, fb::GetPlan(bytes.data())->weight_data()->data());
    tgrs_plan plan;
    tgrs_status st = Init(bytes, &plan);
    if (blob_pos % 16 == 0) {
      ++aligned;
      EXPECT_EQ(st, TGRS_OK) << ErrorText(plan);
    } else {
      ++misaligned;
      EXPECT_EQ(st, TGRS_ERR_BAD_ALIGNMENT) << ErrorText(plan);
    }
  }
  EXPECT_GT(aligned, 0);
  EXPECT_GT(misaligned, 0);
}

TEST(PlanVerifyDefects, Enums) {
  PlanParts p = FullPlan();
  p.ops[2].code = 99;
  std::string text;
  EXPECT_EQ(InitParts(p, &text), TGRS_ERR_BAD_ENUM);
  // The known range is the schema's (format/tgrs.fbs), not the runtime's own count.
  const std::string known = "(known: 0.." + std::to_string(TGRS_OP_CODE_COUNT - 1) + ")";
  EXPECT_NE(text.find("ops[2].code: unknown value 99 " + known), std::string::npos) << text;

  p = FullPlan();
  p.tensors[3].dtype = fb::DType::UNKNOWN;
  EXPECT_EQ(InitParts(p), TGRS_ERR_BAD_ENUM);
  p = FullPlan();
  p.stages[3].strategy = static_cast<fb::StageStrategy>(3);
  EXPECT_EQ(InitParts(p), TGRS_ERR_BAD_ENUM);
  p = FullPlan();
  p.ops[0].activation = static_cast<fb::Activation>(3);
  EXPECT_EQ(InitParts(p), TGRS_ERR_BAD_ENUM);
  p = FullPlan();
  p.slow_buffers[0].home = fb::Home(0, 256, static_cast<fb::MemoryRegion>(4));
  EXPECT_EQ(InitParts(p), TGRS_ERR_BAD_ENUM);
  p = FullPlan();
  p.stages[3].buffers[0].kind = static_cast<fb::BufferKind>(3);
  EXPECT_EQ(InitParts(p), TGRS_ERR_BAD_ENUM);
  p = FullPlan();
  p.compression = static_cast<fb::Compression>(2);
  p.xip = false;
  EXPECT_EQ(InitParts(p), TGRS_ERR_BAD_ENUM);
  p = FullPlan();
  p.chains[0].tile->dim = static_cast<fb::TileDim>(1);
  EXPECT_EQ(InitParts(p), TGRS_ERR_BAD_ENUM);
}

TEST(PlanVerifyDefects, Sizes) {
  std::string text;
  PlanParts p = FullPlan();
  p.weights[0].size = 100;  // the tensor [4,3,3,3] int8 needs 108
  EXPECT_EQ(InitParts(p, &text), TGRS_ERR_BAD_SIZE);
  EXPECT_NE(text.find("tensors[1].weight: weight of 100 bytes for a tensor of 108 bytes"),
            std::string::npos)
      << text;

  p = FullPlan();
  p.fast_arena_bytes = 159;  // stage 0 peaks at 160
  EXPECT_EQ(InitParts(p), TGRS_ERR_BAD_SIZE);

  p = FullPlan();
  p.slow_arena_bytes = 128;  // the slow home [0, 256) ends past it
  EXPECT_EQ(InitParts(p, &text), TGRS_ERR_BAD_SIZE);
  EXPECT_NE(text.find("slow_buffers[0].home: home ends at 256, past the arena's 128 bytes"),
            std::string::npos)
      << text;

  p = FullPlan();
  p.stages[3].buffers[0].bytes = 63;  // t5 is 64 bytes
  p.stages[3].buffers[0].home = fb::Home(0, 64, fb::MemoryRegion::FAST);
  EXPECT_EQ(InitParts(p), TGRS_ERR_BAD_SIZE);

  p = FullPlan();
  p.stages[3].buffers[0].home = fb::Home(0, 80, fb::MemoryRegion::FAST);  // 64 rounds to 64
  EXPECT_EQ(InitParts(p), TGRS_ERR_BAD_SIZE);

  p = FullPlan();
  p.ops[1].output_shift = {-5, -6};  // one multiplier
  EXPECT_EQ(InitParts(p), TGRS_ERR_BAD_SIZE);

  p = FullPlan();
  p.ops[1].lut.resize(255);
  EXPECT_EQ(InitParts(p), TGRS_ERR_BAD_SIZE);

  p = FullPlan();
  p.tensors[1].quant->scale = {0.1f, 0.2f, 0.3f};  // 4 channels on axis 0
  p.tensors[1].quant->zero_point = {0, 0, 0};
  EXPECT_EQ(InitParts(p), TGRS_ERR_BAD_SIZE);

  p = FullPlan();
  p.stages[0].tile->regions.pop_back();  // count * len(ops) = 4
  EXPECT_EQ(InitParts(p), TGRS_ERR_BAD_SIZE);

  p = FullPlan(true);
  p.stages[0].fast_reserved_bytes = 64;  // the block decompresses to 128
  EXPECT_EQ(InitParts(p), TGRS_ERR_BAD_SIZE);

  p = FullPlan();
  p.tensors[0].shape = {1, 65536, 65536, 3};  // 12 GiB
  EXPECT_EQ(InitParts(p), TGRS_ERR_BAD_SIZE);
}

TEST(PlanVerifyDefects, OffsetsInsideWeightData) {
  PlanParts p = FullPlan();
  p.weights[1].size = 32;  // [112, 144) past 128 bytes; the tensor check comes later
  std::string text;
  EXPECT_EQ(InitParts(p, &text), TGRS_ERR_BAD_OFFSET);
  EXPECT_NE(text.find("weights[1].size: weight ends at 144, past its 128 source bytes"),
            std::string::npos)
      << text;

  p = FullPlan(true);
  p.weight_blocks[0].compressed_size += 1;
  EXPECT_EQ(InitParts(p), TGRS_ERR_BAD_OFFSET);
}

TEST(PlanVerifyDefects, WeightBlocks) {
  // compression NONE may still group weights in blocks, stored raw (compressed == raw:
  // a plain copy, docs/plan-format.md "Weights").
  PlanParts p = FullPlan(true);
  p.compression = fb::Compression::NONE;
  p.weight_data = FullWeightBytes();
  p.weight_blocks[0].compressed_size = 128;
  EXPECT_EQ(InitParts(p), TGRS_OK);
  p.weight_blocks[0].compressed_size = 112;  // smaller would be LZ4, which NONE forbids
  EXPECT_EQ(InitParts(p), TGRS_ERR_BAD_VALUE);
  p = FullPlan(true);
  p.weight_blocks[0].raw_size = 16;  // stored bytes never exceed the raw size
  EXPECT_EQ(InitParts(p), TGRS_ERR_BAD_SIZE);

  // A chain is one residency unit: its second stage names the block of its first.
  p = FullPlan(true);
  p.weight_blocks.push_back(BlockParts{1, 0, p.weight_blocks[0].compressed_size, 128});
  p.stages[1].weight_block = 1;
  p.stages[1].fast_reserved_bytes = 128;
  p.stages[2].weight_block = 1;
  p.stages[2].fast_reserved_bytes = 128;
  std::string text;
  EXPECT_EQ(InitParts(p, &text), TGRS_OK) << text;
  p.stages[3].weight_block = 1;  // a normal stage outside the chain
  EXPECT_EQ(InitParts(p), TGRS_ERR_BAD_INDEX);
}

TEST(PlanVerifyDefects, StageHomesLieAfterTheReservedWeights) {
  PlanParts p = FullPlan(true);  // stage 0 reserves 128 bytes; its strips start at 128
  p.stages[0].tile->buffers[0].home = fb::Home(112, 96, fb::MemoryRegion::FAST);
  std::string text;
  EXPECT_EQ(InitParts(p, &text), TGRS_ERR_BAD_SIZE);
  EXPECT_NE(text.find("home at 112 overlaps the stage's 128 reserved weight bytes"),
            std::string::npos)
      << text;
  p = FullPlan();
  p.stages[3].buffers[2].home = fb::Home(144, 16, fb::MemoryRegion::FAST);  // peak is 144
  EXPECT_EQ(InitParts(p), TGRS_ERR_BAD_SIZE);
  p = FullPlan();
  p.slow_buffers[0].last_op = 4;  // slow homes count stages (4 of them)
  EXPECT_EQ(InitParts(p, &text), TGRS_ERR_BAD_INDEX);
  EXPECT_NE(text.find("stage index 4 out of range (stages: 4)"), std::string::npos) << text;
}

TEST(PlanVerifyDefects, MissingFields) {
  PlanParts p = FullPlan();
  p.stages[0].tile.reset();  // a TILED stage without its tile plan
  std::string text;
  EXPECT_EQ(InitParts(p, &text), TGRS_ERR_MISSING_FIELD);
  EXPECT_NE(text.find("stages[0].tile: required field is absent"), std::string::npos) << text;

  p = FullPlan();
  p.chains[0].tile.reset();
  EXPECT_EQ(InitParts(p), TGRS_ERR_MISSING_FIELD);
  p = FullPlan();
  p.stages[1].chain = -1;  // CHAIN without its chain
  EXPECT_EQ(InitParts(p), TGRS_ERR_MISSING_FIELD);
  p = FullPlan();
  p.stages[3].buffers[0].home.reset();
  EXPECT_EQ(InitParts(p), TGRS_ERR_MISSING_FIELD);
  p = FullPlan();
  p.tensors.clear();
  EXPECT_EQ(InitParts(p), TGRS_ERR_MISSING_FIELD);
}

TEST(PlanVerifyDefects, HostDtypeIsTheTensorsOrUint8ForInt8) {
  std::string text;
  PlanParts p = FullPlan();
  p.tensors[0].host_dtype = fb::DType::UINT8;  // an int8 input the model declares uint8
  EXPECT_EQ(InitParts(p, &text), TGRS_OK) << text;
  p.tensors[0].host_dtype = fb::DType::INT8;  // the tensor's own, written out
  EXPECT_EQ(InitParts(p, &text), TGRS_OK) << text;
  p.tensors[0].host_dtype = fb::DType::FLOAT32;
  EXPECT_EQ(InitParts(p, &text), TGRS_ERR_BAD_VALUE);
  EXPECT_NE(text.find("tensors[0].host_dtype"), std::string::npos) << text;
  p = FullPlan();
  p.tensors[2].host_dtype = fb::DType::UINT8;  // the int32 bias
  EXPECT_EQ(InitParts(p, &text), TGRS_ERR_BAD_VALUE);
  EXPECT_NE(text.find("host dtype 5 for a tensor of dtype 3"), std::string::npos) << text;
}

TEST(PlanVerifyDefects, Values) {
  PlanParts p = FullPlan();
  p.ops[1].act_min = 101;  // act_max is 100
  EXPECT_EQ(InitParts(p), TGRS_ERR_BAD_VALUE);
  p = FullPlan();
  p.stages[0].tile->tile_size = 0;
  EXPECT_EQ(InitParts(p), TGRS_ERR_BAD_VALUE);
  p = FullPlan();
  p.tensors[2].shape = {-4};
  EXPECT_EQ(InitParts(p), TGRS_ERR_BAD_VALUE);
  p = FullPlan(true);
  p.xip = true;  // in place and compressed contradict each other
  EXPECT_EQ(InitParts(p), TGRS_ERR_BAD_VALUE);
  p = FullPlan();
  p.stages[0].tile->regions[1] = Region(4, 2, 2, 4, 0, 0);  // begin after end
  EXPECT_EQ(InitParts(p), TGRS_ERR_BAD_VALUE);
}

// 2-D tiles and channel groups (TilePlan.columns, .channels, schema 2): every column and
// channel region is bounded like a row region, along W or C, and the loop's form must
// allow them at all.
TEST(PlanVerifyDefects, Memories) {
  // The list is optional (plans before it); present, it has one entry per region, the
  // arenas' with the plan's arena sizes and 16-byte alignment, every alignment a power of
  // two. Hand-written figures: FullPlan's arenas.
  std::string text;
  PlanParts p = FullPlan();
  EXPECT_EQ(InitParts(p, &text), TGRS_OK) << text;
  auto listed = [](const PlanParts& plan) {
    return std::vector<MemoryParts>{{"fast", plan.fast_arena_bytes, 16},
                                    {"slow", plan.slow_arena_bytes, 16},
                                    {"flash", static_cast<uint32_t>(plan.weight_data.size()), 16},
                                    {"host", 0, 1}};
  };
  p.memories = listed(p);
  ASSERT_EQ(InitParts(p, &text), TGRS_OK) << text;

  p.memories.pop_back();
  EXPECT_EQ(InitParts(p, &text), TGRS_ERR_BAD_SIZE);
  EXPECT_NE(text.find("memories: 3 memories, one per region needs 4"), std::string::npos) << text;

  p.memories = listed(p);
  p.memories[0].size += 16;
  EXPECT_EQ(InitParts(p, &text), TGRS_ERR_BAD_SIZE);
  EXPECT_NE(text.find("memories[0].size: " + std::to_string(p.fast_arena_bytes + 16) +
                      " bytes, the plan's arena is " + std::to_string(p.fast_arena_bytes)),
            std::string::npos)
      << text;

  p.memories = listed(p);
  p.memories[3].alignment = 3;
  EXPECT_EQ(InitParts(p, &text), TGRS_ERR_BAD_ALIGNMENT);
  EXPECT_NE(text.find("memories[3].alignment: 3: not a power of two"), std::string::npos) << text;

  p.memories = listed(p);
  p.memories[1].alignment = 32;  // a power of two, but the slow arena's homes are 16-aligned
  EXPECT_EQ(InitParts(p, &text), TGRS_ERR_BAD_ALIGNMENT);
  EXPECT_NE(text.find("memories[1].alignment: 32"), std::string::npos) << text;

  p.memories = listed(p);
  p.memories.push_back({"itcm", 4096, 4});  // a named memory after the four regions
  EXPECT_EQ(InitParts(p, &text), TGRS_OK) << text;
}

TEST(PlanVerifyDefects, TileColumnsAndChannels) {
  // Stage 0's conv over an 8-wide input: column regions spanning the full width (one column
  // band per row band) are valid 2-D regions.
  const std::vector<fb::TileRegion> full(4, Region(0, 8, 0, 8, 0, 0));
  std::string text;
  PlanParts p = FullPlan();
  p.schema_version = 2;
  p.stages[0].tile->columns = full;
  EXPECT_EQ(InitParts(p, &text), TGRS_OK) << text;

  p.schema_version = 1;  // columns are a schema 2 feature
  EXPECT_EQ(InitParts(p, &text), TGRS_ERR_BAD_VALUE);
  EXPECT_NE(text.find("stages[0].tile.columns: 4 regions in a streamed loop or a schema 1 plan"),
            std::string::npos)
      << text;

  p = FullPlan();
  p.schema_version = 2;
  p.stages[0].tile->columns = full;
  p.stages[0].tile->columns.pop_back();  // count * len(ops) = 4
  EXPECT_EQ(InitParts(p, &text), TGRS_ERR_BAD_SIZE);
  EXPECT_NE(text.find("stages[0].tile.columns: 3 regions, count * len(ops) = 4"), std::string::npos)
      << text;

  p.stages[0].tile->columns = full;
  p.stages[0].tile->columns[2] = Region(4, 9, 4, 8, 0, 0);  // column 8 of an 8-wide input
  EXPECT_EQ(InitParts(p, &text), TGRS_ERR_BAD_INDEX);
  EXPECT_NE(text.find("stages[0].tile.columns[2]: input end 9 past the input's extent 8"),
            std::string::npos)
      << text;

  p.stages[0].tile->columns[2] = Region(4, 8, 3, 9, 0, 0);
  EXPECT_EQ(InitParts(p, &text), TGRS_ERR_BAD_INDEX);
  EXPECT_NE(text.find("columns[2]: output end 9 past the output's extent 8"), std::string::npos)
      << text;

  p.stages[0].tile->columns[2] = Region(6, 4, 3, 5, 0, 0);
  EXPECT_EQ(InitParts(p, &text), TGRS_ERR_BAD_VALUE);
  EXPECT_NE(text.find("columns[2]: input [6, 4) is not a range"), std::string::npos) << text;

  p.stages[0].tile->columns[2] = Region(4, 8, 4, 8, -1, 0);
  EXPECT_EQ(InitParts(p, &text), TGRS_ERR_BAD_VALUE);
  EXPECT_NE(text.find("columns[2]: negative padding -1"), std::string::npos) << text;

  // Channel groups, the same way along C: stage 0's conv reads 3 channels and writes 4.
  p = FullPlan();
  p.schema_version = 2;
  p.stages[0].tile->channels = std::vector<fb::TileRegion>(4, Region(0, 3, 0, 3, 0, 0));
  EXPECT_EQ(InitParts(p, &text), TGRS_OK) << text;  // the runtime refuses a conv later
  p.stages[0].tile->channels[1] = Region(0, 4, 0, 4, 0, 0);
  EXPECT_EQ(InitParts(p, &text), TGRS_ERR_BAD_INDEX);
  EXPECT_NE(text.find("stages[0].tile.channels[1]: input end 4 past the input's extent 3"),
            std::string::npos)
      << text;
  p.stages[0].tile->channels.pop_back();
  EXPECT_EQ(InitParts(p, &text), TGRS_ERR_BAD_SIZE);
  EXPECT_NE(text.find("stages[0].tile.channels: 3 regions, count * len(ops) = 4"),
            std::string::npos)
      << text;
  p.stages[0].tile->channels = std::vector<fb::TileRegion>(4, Region(0, 3, 0, 3, 0, 0));
  p.schema_version = 1;
  EXPECT_EQ(InitParts(p, &text), TGRS_ERR_BAD_VALUE);
  EXPECT_NE(text.find("stages[0].tile.channels: 4 regions in a streamed loop or a schema 1 plan"),
            std::string::npos)
      << text;

  p = FullPlan();
  p.schema_version = 2;
  p.stages[0].tile->columns = full;
  p.stages[0].tile->streamed = true;  // a streamed loop keeps whole rows
  EXPECT_EQ(InitParts(p, &text), TGRS_ERR_BAD_VALUE);
  EXPECT_NE(text.find("stages[0].tile.columns: 4 regions in a streamed loop or a schema 2 plan"),
            std::string::npos)
      << text;
}

// The ranges the int8 kernels' arithmetic relies on (kernel_util.h, requantize.h): a zero
// point of the tensor's own type, shifts as tgrs_quantize_multiplier makes them, an Add's
// left shift that keeps (x - zero_point) << left_shift within int32. Each boundary value is
// accepted and the next one rejected, naming the field and element.
TEST(PlanVerifyDefects, QuantizationRanges) {
  struct Case {
    const char* what;
    void (*apply)(PlanParts&, int32_t);
    int32_t ok, bad;
    const char* path;
  };
  const Case cases[] = {
      {"int8 zero point high",
       [](PlanParts& p, int32_t v) { p.tensors[3].quant->zero_point = {v}; }, 127, 128,
       "tensors[3].quant.zero_point[0]"},
      {"int8 zero point low", [](PlanParts& p, int32_t v) { p.tensors[3].quant->zero_point = {v}; },
       -128, -129, "tensors[3].quant.zero_point[0]"},
      {"uint8 zero point",
       [](PlanParts& p, int32_t v) {
         p.tensors[6].dtype = fb::DType::UINT8;
         p.tensors[6].quant->zero_point = {v};
       },
       0, -1, "tensors[6].quant.zero_point[0]"},
      {"output shift high", [](PlanParts& p, int32_t v) { p.ops[0].output_shift[2] = int8_t(v); },
       30, 31, "ops[0].output_shift[2]"},
      {"output shift low", [](PlanParts& p, int32_t v) { p.ops[0].output_shift[2] = int8_t(v); },
       -31, -32, "ops[0].output_shift[2]"},
      {"input shift", [](PlanParts& p, int32_t v) { p.ops[1].input_shift[1] = int8_t(v); }, 30, 127,
       "ops[1].input_shift[1]"},
      {"left shift high", [](PlanParts& p, int32_t v) { p.ops[1].left_shift = v; }, 22, 23,
       "ops[1].left_shift"},
      {"left shift low", [](PlanParts& p, int32_t v) { p.ops[1].left_shift = v; }, 0, -1,
       "ops[1].left_shift"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    PlanParts p = FullPlan();
    c.apply(p, c.ok);
    std::string text;
    EXPECT_EQ(InitParts(p, &text), TGRS_OK) << text;
    p = FullPlan();
    c.apply(p, c.bad);
    EXPECT_EQ(InitParts(p, &text), TGRS_ERR_BAD_VALUE);
    EXPECT_NE(text.find(c.path), std::string::npos) << text;
    EXPECT_NE(text.find(std::to_string(c.bad)), std::string::npos) << text;
  }
}

TEST(PlanVerifyDefects, SharedTablesCannotBlowUpVerificationTime) {
  // One op table with 20000 inputs referenced 20000 times: a ~160 KB buffer that would
  // cost 4e8 index checks; the work budget stops it.
  flatbuffers::FlatBufferBuilder b;
  std::vector<int32_t> inputs(20000, 0);
  auto op = fb::CreateOpDirect(b, TGRS_OP_RELU, nullptr, &inputs);
  std::vector<flatbuffers::Offset<fb::Op>> ops(20000, op);
  std::vector<int32_t> shape = {1};
  std::vector<flatbuffers::Offset<fb::Tensor>> tensors = {
      fb::CreateTensorDirect(b, "t", fb::DType::INT8, &shape)};
  std::vector<flatbuffers::Offset<fb::Stage>> stages;
  std::vector<int32_t> io = {0};
  auto root =
      fb::CreatePlanDirect(b, 1, nullptr, nullptr, &tensors, &ops, &stages, nullptr, &io, &io);
  fb::FinishPlanBuffer(b, root);
  std::vector<uint8_t> bytes(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
  tgrs_plan plan;
  EXPECT_EQ(Init(bytes, &plan), TGRS_ERR_TOO_COMPLEX) << ErrorText(plan);
}

}  // namespace
}  // namespace tigris::runtime_test
