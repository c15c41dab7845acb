// Round trip of every shared model (float and int8) through the .tgrs writer and the
// flatc-GENERATED C++ reader: every op, tensor, stage, buffer home, tile region and weight
// byte read back is compared with the IR and the planner's PlanResult, using expectations
// computed independently here (runtime shapes, the weight transposition of
// emit_test_util.h, plan::TileRows for regions).
#include <gtest/gtest.h>
#include <lz4.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "emit/emit_test_util.h"
#include "format/tgrs_generated.h"
#include "plan/tile_plan.h"

namespace tigris::testing {
namespace {

using tgrs::Plan;

template <typename T, typename U>
std::vector<T> ToVec(const flatbuffers::Vector<U>* v) {
  std::vector<T> out;
  if (v) {
    for (auto x : *v) out.push_back(static_cast<T>(x));
  }
  return out;
}

// NCHW -> NHWC, NCW -> NWC (format/tgrs.fbs conventions), written out per rank.
std::vector<int64_t> ExpectedActivationShape(const ir::Shape& s) {
  if (s.size() == 4) return {s[0], s[2], s[3], s[1]};
  if (s.size() == 3) return {s[0], s[2], s[1]};
  return s;
}

// "DepthwiseConv" -> "DEPTHWISE_CONV" (the schema's spelling of each IR op).
std::string ExpectedCode(ir::OpType type) {
  const std::string name(ir::OpTypeName(type));
  if (name == "MatMul") return "MATMUL";
  std::string out;
  for (size_t i = 0; i < name.size(); ++i) {
    if (i > 0 && std::isupper(static_cast<unsigned char>(name[i])) &&
        std::islower(static_cast<unsigned char>(name[i - 1]))) {
      out += '_';
    }
    out += static_cast<char>(std::toupper(static_cast<unsigned char>(name[i])));
  }
  return out;
}

struct ExpectedConstant {
  std::vector<int64_t> shape;
  std::vector<uint8_t> bytes;
  int32_t axis = -1;
};

// The layout the reference (tigris-compilation-pipeline.txt stage 7) asks for.
ExpectedConstant ExpectConstant(const ir::Graph& g, const ir::Op& op, size_t index) {
  const ir::Tensor& t = g.tensor(op.inputs[index]);
  const size_t elem = ir::DTypeSize(t.dtype);
  const ir::Shape& s = t.shape;
  ExpectedConstant e;
  e.axis = t.quant ? t.quant->axis : -1;
  const bool filter = index == 1;
  if (filter && op.type == ir::OpType::kDepthwiseConv) {  // [C, 1, KH, KW] -> [KH, KW, C]
    e.shape = {s[2], s[3], s[0]};
    e.bytes = ReferenceTranspose(t.data, s, {1, 2, 3, 0}, elem);
    if (e.axis == 0) e.axis = 2;
  } else if ((filter && op.type == ir::OpType::kGemm) ||
             (index == 2 && op.type != ir::OpType::kAdd && op.type != ir::OpType::kMul &&
              op.type != ir::OpType::kSub && op.type != ir::OpType::kDiv)) {
    e.shape = s;  // [N, K] and biases as they are
    e.bytes = t.data;
  } else if (s.size() == 4) {  // OIHW -> OHWI, like any NCHW tensor
    e.shape = {s[0], s[2], s[3], s[1]};
    e.bytes = ReferenceTranspose(t.data, s, {0, 2, 3, 1}, elem);
    if (e.axis >= 1) e.axis = e.axis == 1 ? 3 : e.axis - 1;
  } else if (s.size() == 3) {  // OIW -> OWI
    e.shape = {s[0], s[2], s[1]};
    e.bytes = ReferenceTranspose(t.data, s, {0, 2, 1}, elem);
    if (e.axis >= 1) e.axis = e.axis == 1 ? 2 : 1;
  } else {
    e.shape = s;
    e.bytes = t.data;
  }
  return e;
}

void ExpectBuffersEqual(const std::vector<plan::Buffer>& want,
                        const flatbuffers::Vector<flatbuffers::Offset<tgrs::Buffer>>* got,
                        int64_t shift, const std::string& where) {
  ASSERT_EQ(got ? got->size() : 0u, want.size()) << where;
  for (size_t i = 0; i < want.size(); ++i) {
    const tgrs::Buffer* b = got->Get(static_cast<flatbuffers::uoffset_t>(i));
    const plan::Buffer& w = want[i];
    EXPECT_EQ(static_cast<int>(b->kind()), static_cast<int>(w.kind)) << where << " buffer " << i;
    EXPECT_EQ(b->tensor(), w.tensor) << where << " buffer " << i;
    EXPECT_EQ(b->op(), w.op) << where << " buffer " << i;
    EXPECT_EQ(b->first_op(), w.first_op) << where << " buffer " << i;
    EXPECT_EQ(b->last_op(), w.last_op) << where << " buffer " << i;
    EXPECT_EQ(b->bytes(), static_cast<uint32_t>(w.bytes)) << where << " buffer " << i;
    ASSERT_NE(b->home(), nullptr);
    EXPECT_EQ(b->home()->region(), tgrs::MemoryRegion::FAST) << where;
    EXPECT_EQ(b->home()->offset(), static_cast<uint32_t>(w.home.offset + shift)) << where;
    EXPECT_EQ(b->home()->size(), static_cast<uint32_t>(w.home.size)) << where;
  }
}

void ExpectTileEqual(const plan::TilePlan& want, const tgrs::TilePlan* got, int64_t shift,
                     const std::string& where) {
  ASSERT_NE(got, nullptr) << where;
  EXPECT_EQ(got->dim(), tgrs::TileDim::HEIGHT);
  EXPECT_EQ(got->tile_size(), want.tile_rows) << where;
  EXPECT_EQ(got->count(), want.count) << where;
  EXPECT_EQ(got->halo(), want.halo) << where;
  EXPECT_EQ(got->peak_bytes(), static_cast<uint32_t>(want.peak_bytes)) << where;
  std::vector<int> ops;
  for (const plan::TileOp& op : want.ops) ops.push_back(op.op);
  EXPECT_EQ(ToVec<int>(got->ops()), ops) << where;
  ASSERT_NE(got->regions(), nullptr);
  ASSERT_EQ(got->regions()->size(), static_cast<size_t>(want.count) * ops.size()) << where;
  if (want.tile_cols > 0) {
    ASSERT_NE(got->columns(), nullptr) << where;
    ASSERT_EQ(got->columns()->size(), got->regions()->size()) << where;
  } else {
    EXPECT_EQ(got->columns(), nullptr) << where << ": full-width tiles have no column regions";
  }
  if (want.tile_channels > 0) {
    ASSERT_NE(got->channels(), nullptr) << where;
    ASSERT_EQ(got->channels()->size(), got->regions()->size()) << where;
  } else {
    EXPECT_EQ(got->channels(), nullptr) << where << ": tiles of every channel have no groups";
  }
  for (int64_t t = 0; t < want.count; ++t) {
    const std::vector<plan::OpTileRows> rows = plan::TileRows(want, t);
    for (size_t k = 0; k < rows.size(); ++k) {
      const tgrs::TileRegion* r =
          got->regions()->Get(static_cast<flatbuffers::uoffset_t>(t * ops.size() + k));
      EXPECT_EQ(r->in_begin(), rows[k].input.begin) << where << " tile " << t;
      EXPECT_EQ(r->in_end(), rows[k].input.end) << where << " tile " << t;
      EXPECT_EQ(r->out_begin(), rows[k].output.begin) << where << " tile " << t;
      EXPECT_EQ(r->out_end(), rows[k].output.end) << where << " tile " << t;
      EXPECT_EQ(r->pad_before(), rows[k].pad_top) << where << " tile " << t;
      EXPECT_EQ(r->pad_after(), rows[k].pad_bottom) << where << " tile " << t;
      if (want.tile_channels > 0) {  // channel groups: what each op reads is what it writes
        const tgrs::TileRegion* g =
            got->channels()->Get(static_cast<flatbuffers::uoffset_t>(t * ops.size() + k));
        EXPECT_EQ(g->in_begin(), rows[k].channels.begin) << where << " tile " << t;
        EXPECT_EQ(g->in_end(), rows[k].channels.end) << where << " tile " << t;
        EXPECT_EQ(g->out_begin(), rows[k].channels.begin) << where << " tile " << t;
        EXPECT_EQ(g->out_end(), rows[k].channels.end) << where << " tile " << t;
      }
      if (want.tile_cols <= 0) continue;
      // 2-D tiles: the column regions, laid out like the row regions.
      const tgrs::TileRegion* c =
          got->columns()->Get(static_cast<flatbuffers::uoffset_t>(t * ops.size() + k));
      EXPECT_EQ(c->in_begin(), rows[k].input_cols.begin) << where << " tile " << t;
      EXPECT_EQ(c->in_end(), rows[k].input_cols.end) << where << " tile " << t;
      EXPECT_EQ(c->out_begin(), rows[k].output_cols.begin) << where << " tile " << t;
      EXPECT_EQ(c->out_end(), rows[k].output_cols.end) << where << " tile " << t;
      EXPECT_EQ(c->pad_before(), rows[k].pad_left) << where << " tile " << t;
      EXPECT_EQ(c->pad_after(), rows[k].pad_right) << where << " tile " << t;
    }
  }
  ExpectBuffersEqual(want.buffers, got->buffers(), shift, where + " tile");
}

// The bytes of weight `w` of `plan` (xip: in place; else the decompressed block).
std::vector<uint8_t> WeightBytes(const Plan* plan, int32_t w,
                                 std::map<int, std::vector<uint8_t>>& blocks) {
  const tgrs::Weight* weight = plan->weights()->Get(static_cast<flatbuffers::uoffset_t>(w));
  const uint8_t* data = plan->weight_data()->data();
  if (weight->block() < 0) {
    return std::vector<uint8_t>(data + weight->offset(), data + weight->offset() + weight->size());
  }
  auto it = blocks.find(weight->block());
  if (it == blocks.end()) {
    const tgrs::WeightBlock* b =
        plan->weight_blocks()->Get(static_cast<flatbuffers::uoffset_t>(weight->block()));
    std::vector<uint8_t> raw(b->raw_size());
    if (plan->compression() == tgrs::Compression::LZ4 && b->compressed_size() < b->raw_size()) {
      const int n = LZ4_decompress_safe(
          reinterpret_cast<const char*>(data + b->offset()), reinterpret_cast<char*>(raw.data()),
          static_cast<int>(b->compressed_size()), static_cast<int>(raw.size()));
      EXPECT_EQ(n, static_cast<int>(raw.size()));
    } else {  // stored raw: no compression, or LZ4 did not shrink it
      EXPECT_EQ(b->compressed_size(), b->raw_size());
      std::memcpy(raw.data(), data + b->offset(), raw.size());
    }
    it = blocks.emplace(weight->block(), std::move(raw)).first;
  }
  return std::vector<uint8_t>(it->second.begin() + weight->offset(),
                              it->second.begin() + weight->offset() + weight->size());
}

void CheckRoundTrip(const ir::Graph& g, const emit::CompiledPlan& c, bool xip) {
  const std::vector<uint8_t>& bytes = c.emitted.bytes;
  const plan::PlanResult& r = c.result;
  flatbuffers::Verifier verifier(bytes.data(), bytes.size());
  ASSERT_TRUE(tgrs::VerifyPlanBuffer(verifier));
  const Plan* p = tgrs::GetPlan(bytes.data());
  // Stamped with the oldest version that describes the plan: 2 only with 2-D tiles or
  // channel groups.
  EXPECT_EQ(p->schema_version(), UsesSchema2(r) ? 2u : 1u);
  EXPECT_EQ(p->generator()->str(), "tigris 0.4.0");
  EXPECT_EQ(p->model_name()->str(), g.name);
  EXPECT_EQ(p->xip(), xip);
  EXPECT_EQ(ToVec<int>(p->inputs()), std::vector<int>(g.inputs.begin(), g.inputs.end()));
  EXPECT_EQ(ToVec<int>(p->outputs()), std::vector<int>(g.outputs.begin(), g.outputs.end()));
  EXPECT_EQ(p->scheduled_peak_bytes(), static_cast<uint32_t>(r.scheduled_peak_bytes));
  EXPECT_EQ(p->slow_arena_bytes(), static_cast<uint32_t>(r.slow_peak_bytes));

  // Stages: reserved weight prefix + activation peak; homes shifted by the prefix.
  std::map<int, int64_t> reserved;
  int64_t fast = 0;
  ASSERT_EQ(p->stages()->size(), r.stages.size());
  for (size_t s = 0; s < r.stages.size(); ++s) {
    const plan::Stage& want = r.stages[s];
    const tgrs::Stage* got = p->stages()->Get(static_cast<flatbuffers::uoffset_t>(s));
    const std::string where = g.name + " stage " + std::to_string(s);
    EXPECT_EQ(got->id(), want.id) << where;
    EXPECT_EQ(static_cast<int>(got->strategy()), static_cast<int>(want.strategy)) << where;
    EXPECT_EQ(ToVec<int>(got->ops()), want.ops) << where;
    EXPECT_EQ(got->peak_bytes(), static_cast<uint32_t>(want.peak_bytes)) << where;
    EXPECT_EQ(got->chain(), want.chain) << where;
    EXPECT_EQ(ToVec<int>(got->spill_in()),
              std::vector<int>(want.spill_in.begin(), want.spill_in.end()));
    EXPECT_EQ(ToVec<int>(got->spill_out()),
              std::vector<int>(want.spill_out.begin(), want.spill_out.end()));
    const int64_t shift = got->fast_reserved_bytes();
    if (xip) {
      EXPECT_EQ(shift, 0) << where;
      EXPECT_EQ(got->weight_block(), -1) << where;
    } else if (got->weight_block() >= 0) {
      const tgrs::WeightBlock* b =
          p->weight_blocks()->Get(static_cast<flatbuffers::uoffset_t>(got->weight_block()));
      EXPECT_EQ(shift, static_cast<int64_t>(b->raw_size())) << where;
      EXPECT_EQ(shift % 16, 0) << where;
    }
    reserved[want.id] = shift;
    fast = std::max(fast, shift + want.peak_bytes);
    ExpectBuffersEqual(want.buffers, got->buffers(), shift, where);
    if (want.tile) ExpectTileEqual(*want.tile, got->tile(), shift, where);
  }
  EXPECT_EQ(p->fast_arena_bytes(), static_cast<uint32_t>(fast));
  if (xip) {
    EXPECT_EQ(p->fast_arena_bytes(), static_cast<uint32_t>(r.scheduled_peak_bytes));
  }
  ASSERT_EQ(p->chains() ? p->chains()->size() : 0u, r.chains.size());
  for (size_t i = 0; i < r.chains.size(); ++i) {
    const tgrs::Chain* got = p->chains()->Get(static_cast<flatbuffers::uoffset_t>(i));
    EXPECT_EQ(ToVec<int>(got->stages()), r.chains[i].stages);
    ExpectTileEqual(r.chains[i].tile, got->tile(), reserved[r.chains[i].stages.front()],
                    g.name + " chain " + std::to_string(i));
  }
  ASSERT_EQ(p->slow_buffers()->size(), r.slow_buffers.size());
  for (size_t i = 0; i < r.slow_buffers.size(); ++i) {
    const tgrs::Buffer* b = p->slow_buffers()->Get(static_cast<flatbuffers::uoffset_t>(i));
    EXPECT_EQ(b->tensor(), r.slow_buffers[i].tensor);
    EXPECT_EQ(b->first_op(), r.slow_buffers[i].first_stage);
    EXPECT_EQ(b->last_op(), r.slow_buffers[i].last_stage);
    EXPECT_EQ(b->home()->region(), tgrs::MemoryRegion::SLOW);
    EXPECT_EQ(b->home()->offset(), static_cast<uint32_t>(r.slow_buffers[i].home.offset));
    EXPECT_EQ(b->home()->size(), static_cast<uint32_t>(r.slow_buffers[i].home.size));
  }

  // Every blob (xip) or block starts 16-aligned in the FILE.
  const size_t data_at = static_cast<size_t>(p->weight_data()->data() - bytes.data());
  for (const tgrs::Weight* w : *p->weights()) {
    EXPECT_EQ(w->offset() % 16, 0u);
    if (w->block() < 0) {
      EXPECT_EQ((data_at + w->offset()) % 16, 0u) << g.name;
    }
  }
  if (p->weight_blocks()) {
    for (const tgrs::WeightBlock* b : *p->weight_blocks()) {
      EXPECT_EQ((data_at + b->offset()) % 16, 0u) << g.name;
    }
  }

  // Ops and the tensors they read.
  std::map<int, std::vector<uint8_t>> blocks;
  ASSERT_EQ(p->ops()->size(), g.ops.size());
  const auto* tensors = p->tensors();
  ASSERT_GE(tensors->size(), g.tensors.size());
  std::vector<bool> checked(tensors->size(), false);
  for (size_t i = 0; i < g.ops.size(); ++i) {
    const ir::Op& op = g.ops[i];
    const tgrs::Op* got = p->ops()->Get(static_cast<flatbuffers::uoffset_t>(i));
    const std::string where = g.name + " op " + op.name;
    EXPECT_EQ(got->name()->str(), op.name);
    EXPECT_STREQ(tgrs_op_code_name(static_cast<tgrs_op_code>(got->code())),
                 ExpectedCode(op.type).c_str())
        << where;
    EXPECT_EQ(ToVec<int>(got->outputs()), std::vector<int>(op.outputs.begin(), op.outputs.end()));
    EXPECT_EQ(static_cast<int>(got->activation()), static_cast<int>(op.fused_activation)) << where;
    const std::vector<int> inputs = ToVec<int>(got->inputs());
    ASSERT_LE(inputs.size(), op.inputs.size()) << where;
    for (size_t k = 0; k < inputs.size(); ++k) {
      if (inputs[k] < 0) {
        EXPECT_EQ(op.inputs[k], ir::kNoTensor);
        continue;
      }
      const tgrs::Tensor* t = tensors->Get(static_cast<flatbuffers::uoffset_t>(inputs[k]));
      if (inputs[k] != op.inputs[k]) {  // a per-stage copy (not xip)
        EXPECT_FALSE(xip) << where;
        EXPECT_EQ(t->name()->str().rfind(g.tensor(op.inputs[k]).name + "@stage", 0), 0u);
      }
      if (!g.IsConstant(op.inputs[k])) continue;
      const ExpectedConstant e = ExpectConstant(g, op, k);
      ASSERT_GE(t->weight(), 0) << where << " input " << k;
      EXPECT_EQ(ToVec<int64_t>(t->shape()), e.shape) << where << " input " << k;
      EXPECT_TRUE(WeightBytes(p, t->weight(), blocks) == e.bytes) << where << " input " << k;
      if (t->quant()) {
        EXPECT_EQ(t->quant()->axis(), e.axis) << where << " input " << k;
      }
      checked[static_cast<size_t>(inputs[k])] = true;
    }
    // int8 weighted ops: |m * 2^(shift - 31) - s| / s < 2^-30 per output channel.
    const ir::Tensor& out = g.tensor(op.outputs[0]);
    if (out.dtype == ir::DType::kInt8 && g.tensor(op.inputs[0]).dtype == ir::DType::kInt8 &&
        (op.type == ir::OpType::kConv || op.type == ir::OpType::kDepthwiseConv ||
         op.type == ir::OpType::kGemm || op.type == ir::OpType::kConv1D)) {
      const ir::Tensor& w = g.tensor(op.inputs[1]);
      ASSERT_TRUE(got->output_multiplier() && got->output_shift()) << where;
      ASSERT_EQ(got->output_multiplier()->size(), w.quant->scales.size()) << where;
      for (size_t ch = 0; ch < w.quant->scales.size(); ++ch) {
        const double s = double{g.tensor(op.inputs[0]).quant->scales[0]} *
                         double{w.quant->scales[ch]} / double{out.quant->scales[0]};
        const double m = std::ldexp(static_cast<double>(got->output_multiplier()->Get(ch)),
                                    got->output_shift()->Get(ch) - 31);
        if (s < std::ldexp(1.0, -32)) {
          // Dead channels (all-zero weights get tiny scales): |acc| < 2^31 times s is below
          // 0.5, so the channel is its zero point either way; TFLite flushes to {0, 0}.
          EXPECT_EQ(m, 0.0) << where << " channel " << ch;
          continue;
        }
        EXPECT_LT(std::fabs(m - s) / s, std::ldexp(1.0, -30)) << where << " channel " << ch;
      }
    }
  }
  // Activations: runtime shapes and quantization (axis remapped).
  for (size_t i = 0; i < g.tensors.size(); ++i) {
    const ir::Tensor& want = g.tensor(static_cast<ir::TensorId>(i));
    const tgrs::Tensor* got = tensors->Get(static_cast<flatbuffers::uoffset_t>(i));
    EXPECT_EQ(got->name()->str(), want.name);
    if (want.is_constant) continue;
    EXPECT_EQ(got->weight(), -1) << want.name;
    EXPECT_EQ(ToVec<int64_t>(got->shape()), ExpectedActivationShape(want.shape)) << want.name;
    ASSERT_EQ(got->quant() != nullptr, want.quant.has_value()) << want.name;
    if (want.quant) {
      EXPECT_EQ(ToVec<float>(got->quant()->scale()), want.quant->scales) << want.name;
      EXPECT_EQ(ToVec<int32_t>(got->quant()->zero_point()), want.quant->zero_points);
    }
  }
}

class PlanRoundTrip : public ::testing::TestWithParam<bool> {};  // param: xip

TEST_P(PlanRoundTrip, EveryModelReadsBackThroughTheGeneratedReader) {
  const bool xip = GetParam();
  emit::EmitOptions options;
  options.xip = xip;
  options.lz4 = !xip;  // the non-xip run also covers LZ4 blocks
  const std::vector<std::string> models = FloatAndInt8Models();
  ASSERT_GE(models.size(), 20u) << "shared models or generated int8 models missing";
  for (const std::string& path : models) {
    SCOPED_TRACE(path);
    const ir::Graph g = LoadNormalized(path);
    const int64_t fast = SmallestWorkingBudget(g, options);
    ASSERT_GT(fast, 0);
    plan::Budget budget;
    budget.fast_bytes = fast;
    const emit::CompiledPlan c = emit::Compile(g, budget, options);
    CheckRoundTrip(g, c, xip);
    if (fast != 64 * 1024)
      std::printf("[ note ] %s compiled at %lld bytes\n", path.c_str(),
                  static_cast<long long>(fast));
  }
}

INSTANTIATE_TEST_SUITE_P(XipAndLz4, PlanRoundTrip, ::testing::Values(true, false));

}  // namespace
}  // namespace tigris::testing
