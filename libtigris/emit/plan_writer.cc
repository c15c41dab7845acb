#include "emit/plan_writer.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>

#include "analysis/alignment.h"
#include "emit/layout.h"
#include "emit/op_record.h"
#include "emit/weight_store.h"
#include "format/tgrs_generated.h"
#include "plan/tile_plan.h"
#include "tigris.h"
#include "tigris_runtime.h"
#include "util/aligned_bytes.h"
#include "util/error.h"

namespace tigris::emit {
namespace {

namespace fb = flatbuffers;

int32_t I32(int64_t v, const std::string& what) {
  if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) {
    throw Error(Status::kInvalidModel, what + " (" + std::to_string(v) + ") exceeds int32");
  }
  return static_cast<int32_t>(v);
}
uint32_t U32(int64_t v, const std::string& what) {
  if (v < 0 || v > std::numeric_limits<uint32_t>::max()) {
    throw Error(Status::kInvalidModel, what + " (" + std::to_string(v) + ") exceeds uint32");
  }
  return static_cast<uint32_t>(v);
}
std::vector<int32_t> I32s(const std::vector<int64_t>& v, const std::string& what) {
  std::vector<int32_t> out;
  for (int64_t x : v) out.push_back(I32(x, what));
  return out;
}

// An absent vector for an empty one: readers see both as empty, absent costs nothing.
template <typename T>
fb::Offset<fb::Vector<T>> Vec(fb::FlatBufferBuilder& b, const std::vector<T>& v) {
  return v.empty() ? 0 : b.CreateVector(v);
}
fb::Offset<fb::String> Str(fb::FlatBufferBuilder& b, const std::string& s) {
  return s.empty() ? 0 : b.CreateString(s);
}

tgrs::DType PlanDType(const ir::Tensor& t) {
  switch (t.dtype) {
    case ir::DType::kFloat32:
      return tgrs::DType::FLOAT32;
    case ir::DType::kInt8:
      return tgrs::DType::INT8;
    case ir::DType::kInt32:
      return tgrs::DType::INT32;
    case ir::DType::kInt64:
      return tgrs::DType::INT64;
    case ir::DType::kUInt8:
      return tgrs::DType::UINT8;
    case ir::DType::kInt16:
      return tgrs::DType::INT16;
    case ir::DType::kBool:
      return tgrs::DType::BOOL;
    default:
      throw Error(Status::kUnsupportedDType, "tensor '" + t.name + "' has dtype " +
                                                 std::string(ir::DTypeName(t.dtype)) +
                                                 ", which the plan format cannot store");
  }
}

class Writer {
 public:
  Writer(const ir::Graph& g, const plan::PlanResult& r, const EmitOptions& o)
      : g_(g), r_(r), o_(o) {}

  EmittedPlan Run() {
    for (const ir::Op& op : g_.ops) records_.push_back(TranslateOp(g_, op));
    StagedPredicate staged;
    if (o_.xip && o_.stage_constants) {
      staged = [](const ir::Tensor&) { return true; };
    } else if (o_.xip && !o_.staged_constants.empty()) {
      staged = [this](const ir::Tensor& t) { return o_.staged_constants.count(t.name) > 0; };
    }
    store_ = BuildWeightStore(g_, r_, o_.xip, o_.lz4, records_, staged);

    EmittedPlan out;
    out.weight_bytes = store_.raw_bytes;
    out.stored_weight_bytes = store_.stored_bytes;
    // A joined plan (plan/joint_arena.h) keeps its spills at the top of the fast arena.
    out.slow_arena_bytes = r_.joint_arena_bytes > 0 ? 0 : r_.slow_peak_bytes;
    out.scheduled_peak_bytes = r_.scheduled_peak_bytes;
    out.stage_reserved_bytes = store_.stage_reserved;
    out.fast_arena_bytes = r_.joint_arena_bytes;
    for (const plan::Stage& s : r_.stages) {
      out.fast_arena_bytes = std::max(
          out.fast_arena_bytes, store_.stage_reserved[static_cast<size_t>(s.id)] + s.peak_bytes);
    }
    RequireJoinedHomesAboveStages();

    // weight_data first: force_align 16 makes the vector's first byte, and so (with the
    // builder's minimum alignment raised to 16) its absolute file offset, a multiple of 16.
    b_.ForceVectorAlignment(store_.data.size(), sizeof(uint8_t), 16);
    const auto weight_data = b_.CreateVector(store_.data);

    std::vector<fb::Offset<tgrs::Tensor>> tensors;
    for (size_t i = 0; i < store_.constants.size(); ++i) tensors.push_back(Tensor(i));
    std::vector<fb::Offset<tgrs::Op>> ops;
    for (const OpRecord& rec : records_) ops.push_back(Op(rec));
    std::vector<fb::Offset<tgrs::Stage>> stages;
    for (const plan::Stage& s : r_.stages) stages.push_back(Stage(s));
    std::vector<fb::Offset<tgrs::Chain>> chains;
    for (const plan::Chain& c : r_.chains) {
      const int64_t reserved = store_.stage_reserved[static_cast<size_t>(c.stages.front())];
      chains.push_back(
          tgrs::CreateChain(b_, c.id, b_.CreateVector(c.stages), Tile(c.tile, reserved)));
    }
    std::vector<fb::Offset<tgrs::Buffer>> slow;
    for (const plan::SlowBuffer& s : r_.slow_buffers) {
      // first_op / last_op hold STAGE indices for slow buffers (docs/plan-format.md).
      const tgrs::Home home(U32(s.home.offset, "slow offset"), U32(s.home.size, "slow size"),
                            Region(s.home.region));
      slow.push_back(tgrs::CreateBuffer(b_, tgrs::BufferKind::TENSOR, s.tensor, -1, s.first_stage,
                                        s.last_stage, U32(s.bytes, "slow bytes"), &home));
    }
    std::vector<fb::Offset<tgrs::Weight>> weights;
    for (const WeightRecord& w : store_.weights) {
      weights.push_back(tgrs::CreateWeight(b_, w.offset, w.size, w.block));
    }
    std::vector<fb::Offset<tgrs::WeightBlock>> blocks;
    for (const WeightBlockRecord& w : store_.blocks) {
      blocks.push_back(
          tgrs::CreateWeightBlock(b_, w.stage, w.offset, w.compressed_size, w.raw_size));
    }
    std::vector<int32_t> inputs(g_.inputs.begin(), g_.inputs.end());
    std::vector<int32_t> outputs(g_.outputs.begin(), g_.outputs.end());
    const std::vector<tgrs::StateSlot> state = StateSlots(out);
    out.staged_bytes = store_.staged_bytes;
    if (!state.empty() || out.staged_bytes > 0) {
      schema_version_ = std::max(schema_version_, kSchemaVersionState);
    }
    out.pinned_arena_bytes = r_.pinned_peak_bytes;
    if (out.pinned_arena_bytes > 0) schema_version_ = kSchemaVersionPinned;
    for (const OpRecord& op : records_) {
      if (op.rounding == tgrs::Rounding::TFLITE) schema_version_ = kSchemaVersionTflite;
    }

    const auto generator = b_.CreateString(GeneratorString());
    const auto name = b_.CreateString(g_.name);
    const auto plan = tgrs::CreatePlan(
        b_, schema_version_, generator, name, b_.CreateVector(tensors), b_.CreateVector(ops),
        b_.CreateVector(stages), b_.CreateVector(chains), b_.CreateVector(inputs),
        b_.CreateVector(outputs), b_.CreateVector(slow), U32(out.fast_arena_bytes, "fast arena"),
        U32(out.slow_arena_bytes, "slow arena"), U32(r_.scheduled_peak_bytes, "peak"),
        o_.xip && store_.blocks.empty(), o_.lz4 ? tgrs::Compression::LZ4 : tgrs::Compression::NONE,
        b_.CreateVector(weights), b_.CreateVector(blocks), weight_data, Memories(out),
        state.empty() ? 0 : b_.CreateVectorOfStructs(state), 0,
        U32(out.staged_bytes, "staged constants"), Integrity());
    tgrs::FinishPlanBuffer(b_, plan);
    out.bytes = Sealed(b_.GetBufferPointer(), b_.GetSize());
    return out;
  }

 private:
  // A joined plan's slow homes sit above the weights and activations of every stage they
  // live through (plan/joint_arena.h), with the weight prefixes this store really copies:
  // the planner's estimate of them is checked here, before any byte is written.
  void RequireJoinedHomesAboveStages() const {
    if (r_.joint_arena_bytes == 0) return;
    for (const plan::SlowBuffer& b : r_.slow_buffers) {
      if (b.home.region != plan::MemoryRegion::kFast) continue;
      for (int s = b.first_stage; s <= b.last_stage; ++s) {
        const int64_t top = store_.stage_reserved[static_cast<size_t>(s)] +
                            r_.stages[static_cast<size_t>(s)].peak_bytes;
        if (top > b.home.offset) {
          throw Error(Status::kInternal,
                      "the spill of '" + g_.tensor(b.tensor).name + "' at fast offset " +
                          std::to_string(b.home.offset) + " overlaps stage " + std::to_string(s) +
                          ", which needs " + std::to_string(top) + " bytes below it");
        }
      }
    }
  }

  // The checksums' table with placeholders the runtime's tgrs_plan_seal fills in once the
  // bytes are final (docs/integrity.md): one definition of what each checksum covers,
  // shared with the reader that checks it. A zero tables_crc would be left out as the
  // field's default, so the placeholder is not zero.
  fb::Offset<tgrs::Integrity> Integrity() {
    const std::vector<uint32_t> weight_crcs(store_.weights.size(), 0);
    const std::vector<uint32_t> block_crcs(store_.blocks.size(), 0);
    return tgrs::CreateIntegrity(b_, tgrs::Checksum::CRC32C, 0xFFFFFFFFu,
                                 b_.CreateVector(weight_crcs), b_.CreateVector(block_crcs));
  }

  // The finished plan with its checksums, sealed in a 16-aligned copy (the runtime reads a
  // plan only there: TGRS_PLAN_ALIGNMENT).
  static std::vector<uint8_t> Sealed(const uint8_t* bytes, size_t size) {
    AlignedBytes aligned = AllocateAligned(size);
    std::memcpy(aligned.get(), bytes, size);
    const tgrs_status st = tgrs_plan_seal(aligned.get(), size);
    if (st != TGRS_OK) {
      throw Error(Status::kInternal,
                  std::string("sealing the plan's checksums failed: ") + tgrs_status_name(st));
    }
    return std::vector<uint8_t>(aligned.get(), aligned.get() + size);
  }

  // Plan.memories in MemoryRegion order (tgrs.fbs, Memory): what a Home's region indexes.
  fb::Offset<fb::Vector<fb::Offset<tgrs::Memory>>> Memories(const EmittedPlan& out) {
    const uint32_t alignment = static_cast<uint32_t>(analysis::kArenaAlignment);
    std::vector<fb::Offset<tgrs::Memory>> memories = {
        tgrs::CreateMemory(b_, b_.CreateString(o_.memory_names[0]),
                           U32(out.fast_arena_bytes, "fast arena"), alignment),
        tgrs::CreateMemory(b_, b_.CreateString(o_.memory_names[1]),
                           U32(out.slow_arena_bytes, "slow arena"), alignment),
        tgrs::CreateMemory(b_, b_.CreateString(o_.memory_names[2]),
                           U32(static_cast<int64_t>(store_.data.size()), "weight data"), alignment),
        tgrs::CreateMemory(b_, b_.CreateString("host"), 0, 1),
    };
    if (out.state_arena_bytes > 0 || out.staged_bytes > 0 || out.pinned_arena_bytes > 0) {
      memories.push_back(tgrs::CreateMemory(b_, b_.CreateString(o_.memory_names[3]),
                                            U32(out.state_arena_bytes, "state arena"), alignment));
      memories.push_back(tgrs::CreateMemory(b_, b_.CreateString(o_.memory_names[4]),
                                            U32(out.staged_bytes, "staged constants"), alignment));
    }
    if (out.pinned_arena_bytes > 0) {
      memories.push_back(tgrs::CreateMemory(b_, b_.CreateString(o_.memory_names[5]),
                                            U32(out.pinned_arena_bytes, "pinned arena"),
                                            alignment));
    }
    return b_.CreateVector(memories);
  }

  // The planner numbers its regions as the format does (plan/buffer.h).
  static_assert(static_cast<int>(plan::MemoryRegion::kFast) ==
                static_cast<int>(tgrs::MemoryRegion::FAST));
  static_assert(static_cast<int>(plan::MemoryRegion::kSlow) ==
                static_cast<int>(tgrs::MemoryRegion::SLOW));
  static_assert(static_cast<int>(plan::MemoryRegion::kPinned) ==
                static_cast<int>(tgrs::MemoryRegion::PINNED));
  static tgrs::MemoryRegion Region(plan::MemoryRegion region) {
    return static_cast<tgrs::MemoryRegion>(region);
  }

  // The caller's view of a graph input or output (the onnx_shape Tensor() writes).
  std::vector<int64_t> CallerShape(const ir::Tensor& t, bool is_input) const {
    const Perm hp = t.host_permutation.empty() ? IdentityPerm(t.shape.size()) : t.host_permutation;
    if (!t.host_shape.empty()) return t.host_shape;
    return is_input ? PermuteShape(t.shape, InversePerm(hp)) : PermuteShape(t.shape, hp);
  }
  static ir::DType CallerDType(const ir::Tensor& t) {
    return t.host_dtype == ir::DType::kUnknown ? t.dtype : t.host_dtype;
  }

  // Plan.state from o_.state, sorted by input position, 16-aligned in the STATE arena
  // (whose size it sets in out).
  std::vector<tgrs::StateSlot> StateSlots(EmittedPlan& out) const {
    auto position = [](const std::vector<ir::TensorId>& ids, const ir::Graph& g,
                       const std::string& name) {
      for (size_t i = 0; i < ids.size(); ++i) {
        if (g.tensor(ids[i]).name == name) return static_cast<int>(i);
      }
      return -1;
    };
    auto names = [this](const std::vector<ir::TensorId>& ids) {
      std::string list;
      for (ir::TensorId id : ids) list += (list.empty() ? "" : ", ") + g_.tensor(id).name;
      return list;
    };
    std::vector<std::pair<int, int>> pairs;
    for (const StatePair& p : o_.state) {
      const int in = position(g_.inputs, g_, p.input);
      const int outp = position(g_.outputs, g_, p.output);
      const std::string what = "state " + p.input + "=" + p.output + ": ";
      if (in < 0) {
        throw Error(
            Status::kInvalidArgument,
            what + "'" + p.input + "' is not a graph input (inputs: " + names(g_.inputs) + ")");
      }
      if (outp < 0) {
        throw Error(
            Status::kInvalidArgument,
            what + "'" + p.output + "' is not a graph output (outputs: " + names(g_.outputs) + ")");
      }
      const ir::Tensor& ti = g_.tensor(g_.inputs[static_cast<size_t>(in)]);
      const ir::Tensor& to = g_.tensor(g_.outputs[static_cast<size_t>(outp)]);
      if (CallerShape(ti, true) != CallerShape(to, false) || CallerDType(ti) != CallerDType(to)) {
        throw Error(Status::kInvalidArgument,
                    what + "the input is " + ir::ShapeToString(CallerShape(ti, true)) + " " +
                        std::string(ir::DTypeName(CallerDType(ti))) + " but the output is " +
                        ir::ShapeToString(CallerShape(to, false)) + " " +
                        std::string(ir::DTypeName(CallerDType(to))) +
                        "; a state pair carries one tensor");
      }
      for (const auto& [other_in, other_out] : pairs) {
        if (other_in == in || other_out == outp) {
          throw Error(Status::kInvalidArgument,
                      what + "the input or output is already in another state pair");
        }
      }
      pairs.emplace_back(in, outp);
    }
    std::sort(pairs.begin(), pairs.end());
    std::vector<tgrs::StateSlot> slots;
    for (const auto& [in, outp] : pairs) {
      const int64_t bytes = g_.tensor(g_.inputs[static_cast<size_t>(in)]).byte_size();
      slots.emplace_back(in, outp, U32(out.state_arena_bytes, "state offset"),
                         U32(bytes, "state size"));
      out.state_arena_bytes += analysis::AlignUp(bytes);
    }
    return slots;
  }

  const ir::Tensor& IrTensor(size_t i) const {
    return g_.tensor(i < g_.tensors.size() ? static_cast<ir::TensorId>(i)
                                           : store_.copy_of[i - g_.tensors.size()]);
  }

  fb::Offset<tgrs::Tensor> Tensor(size_t i) {
    const ir::Tensor& t = IrTensor(i);
    const LaidOutConstant& laid = store_.constants[i];
    const bool has_weight = store_.tensor_weight[i] >= 0;
    const ir::Shape shape = has_weight ? laid.shape : RuntimeShape(t.shape);
    // A plain copy, not std::optional's: GCC 12 reports a false -Wmaybe-uninitialized.
    const std::optional<ir::QuantParams>& source = has_weight ? laid.quant : t.quant;
    fb::Offset<tgrs::Quantization> q = 0;
    if (source.has_value()) {
      int32_t axis = source->axis;
      if (!has_weight && axis >= 0) {
        axis = static_cast<int32_t>(RuntimeAxis(axis, t.shape.size()));
      }
      q = tgrs::CreateQuantization(b_, b_.CreateVector(source->scales),
                                   b_.CreateVector(source->zero_points), axis);
    }
    // Host permutations (docs/plan-format.md): inputs runtime = transpose(onnx, perm);
    // outputs onnx = transpose(runtime, perm).
    const ir::TensorId id = static_cast<ir::TensorId>(i);
    const bool is_input = i < g_.tensors.size() &&
                          std::find(g_.inputs.begin(), g_.inputs.end(), id) != g_.inputs.end();
    const bool is_output = i < g_.tensors.size() && g_.IsGraphOutput(id);
    std::vector<int32_t> host_perm, onnx_shape;
    if ((is_input || is_output) && !t.host_shape.empty()) {
      // The same bytes in the runtime layout and the caller's (ir::Tensor::host_shape).
      onnx_shape = I32s(t.host_shape, "tensor '" + t.name + "' shape");
    } else if (is_output) {
      Perm hp = t.host_permutation.empty() ? IdentityPerm(t.shape.size()) : t.host_permutation;
      const Perm total = Compose(InversePerm(RuntimeLayout(t.shape.size())), hp);
      if (!IsIdentity(total)) host_perm = I32s(total, "host permutation");
      onnx_shape = I32s(PermuteShape(t.shape, hp), "tensor '" + t.name + "' shape");
    } else if (is_input) {
      // runtime = transpose(IR, L) and IR = transpose(onnx, hp): runtime =
      // transpose(onnx, Compose(hp, L)); the caller's shape is IR's permuted back.
      const Perm hp =
          t.host_permutation.empty() ? IdentityPerm(t.shape.size()) : t.host_permutation;
      const Perm total = Compose(hp, RuntimeLayout(t.shape.size()));
      if (!IsIdentity(total)) host_perm = I32s(total, "host permutation");
      onnx_shape = I32s(PermuteShape(t.shape, InversePerm(hp)), "tensor '" + t.name + "' shape");
    }
    std::string name = t.name;
    if (i >= g_.tensors.size()) {
      name += "@stage" +
              std::to_string(
                  store_
                      .blocks[static_cast<size_t>(
                          store_.weights[static_cast<size_t>(store_.tensor_weight[i])].block)]
                      .stage);
    }
    // The caller's dtype when the model declares another (ir::Tensor::host_dtype): only
    // uint8 for an int8 tensor, which the runtime converts by flipping the top bit.
    tgrs::DType host_dtype = tgrs::DType::UNKNOWN;
    if ((is_input || is_output) && t.host_dtype != ir::DType::kUnknown && t.host_dtype != t.dtype) {
      if (t.host_dtype != ir::DType::kUInt8 || t.dtype != ir::DType::kInt8) {
        throw Error(Status::kInternal, "tensor '" + t.name + "' would reach the caller as " +
                                           std::string(ir::DTypeName(t.host_dtype)) +
                                           " from the runtime's " +
                                           std::string(ir::DTypeName(t.dtype)));
      }
      host_dtype = tgrs::DType::UINT8;
    }
    // --strip-names: only the graph's inputs and outputs keep theirs (the caller's handles;
    // docs/plan-format.md, "Names"); readers print indices for the rest.
    const bool named = !o_.strip_names || is_input || is_output;
    return tgrs::CreateTensor(b_, named ? b_.CreateString(name) : 0, PlanDType(t),
                              b_.CreateVector(I32s(shape, "tensor '" + t.name + "' shape")), q,
                              store_.tensor_weight[i], Vec(b_, host_perm), Vec(b_, onnx_shape),
                              host_dtype);
  }

  fb::Offset<tgrs::Op> Op(const OpRecord& r) {
    const OpAttrsRecord& a = r.attrs;
    const auto kernel = Vec(b_, a.kernel), strides = Vec(b_, a.strides), pads = Vec(b_, a.pads),
               dilations = Vec(b_, a.dilations), perm = Vec(b_, a.perm), shape = Vec(b_, a.shape),
               axes = Vec(b_, a.axes), output_padding = Vec(b_, a.output_padding),
               view_shape = Vec(b_, a.view_shape), starts = Vec(b_, a.starts),
               activations = Vec(b_, a.activations), output_roles = Vec(b_, a.output_roles);
    const auto scales = Vec(b_, a.scales), activation_alpha = Vec(b_, a.activation_alpha),
               activation_beta = Vec(b_, a.activation_beta);
    const auto mode = Str(b_, a.mode), ctm = Str(b_, a.coordinate_transformation_mode),
               nearest = Str(b_, a.nearest_mode);
    const auto attrs = tgrs::CreateOpAttrs(
        b_, kernel, strides, pads, dilations, a.group, a.axis, perm, shape, a.alpha, a.beta,
        a.gamma, a.min, a.max, scales, mode, ctm, nearest, a.count_include_pad, a.ceil_mode, axes,
        a.keepdims, output_padding, a.pad_value, view_shape, a.bias, starts, activations,
        activation_alpha, activation_beta, a.linear_before_reset, output_roles);
    const auto name = o_.strip_names ? 0 : b_.CreateString(r.name);
    const auto inputs = b_.CreateVector(r.inputs), outputs = b_.CreateVector(r.outputs);
    return tgrs::CreateOp(b_, r.code, name, inputs, outputs, attrs, r.activation,
                          Vec(b_, r.output_multiplier), Vec(b_, r.output_shift), r.act_min,
                          r.act_max, Vec(b_, r.input_multiplier), Vec(b_, r.input_shift),
                          r.left_shift, Vec(b_, r.lut), Vec(b_, r.channel_scale),
                          Vec(b_, r.channel_shift), Vec(b_, r.channel_offset), r.rounding);
  }

  // `shift`: the fast-arena prefix reserved for weights (not xip), below every buffer.
  fb::Offset<fb::Vector<fb::Offset<tgrs::Buffer>>> Buffers(const std::vector<plan::Buffer>& in,
                                                           int64_t shift) {
    std::vector<fb::Offset<tgrs::Buffer>> out;
    for (const plan::Buffer& buf : in) {
      // The weight prefix is in the fast arena only.
      const bool fast = buf.home.region == plan::MemoryRegion::kFast;
      const tgrs::Home home(U32(buf.home.offset + (fast ? shift : 0), "buffer offset"),
                            U32(buf.home.size, "buffer size"), Region(buf.home.region));
      out.push_back(tgrs::CreateBuffer(b_, static_cast<tgrs::BufferKind>(buf.kind), buf.tensor,
                                       buf.op, buf.first_op, buf.last_op,
                                       U32(buf.bytes, "buffer bytes"), &home));
    }
    return b_.CreateVector(out);
  }

  fb::Offset<tgrs::TilePlan> Tile(const plan::TilePlan& t, int64_t shift) {
    std::vector<int32_t> ops;
    for (const plan::TileOp& op : t.ops) ops.push_back(op.op);
    std::vector<tgrs::TileRegion> regions;
    std::vector<tgrs::TileRegion> columns;   // 2-D tiles only
    std::vector<tgrs::TileRegion> channels;  // channel groups only
    for (const std::vector<plan::OpTileRows>& tile : plan::AllTileRows(t)) {
      for (const plan::OpTileRows& rows : tile) {
        regions.emplace_back(I32(rows.input.begin, "row"), I32(rows.input.end, "row"),
                             I32(rows.output.begin, "row"), I32(rows.output.end, "row"),
                             I32(rows.pad_top, "row"), I32(rows.pad_bottom, "row"));
        if (t.tile_channels > 0) {  // the channels each op reads, then those it writes
          channels.emplace_back(
              I32(rows.input_channels.begin, "channel"), I32(rows.input_channels.end, "channel"),
              I32(rows.channels.begin, "channel"), I32(rows.channels.end, "channel"), 0, 0);
        }
        if (t.tile_cols <= 0) continue;
        columns.emplace_back(
            I32(rows.input_cols.begin, "column"), I32(rows.input_cols.end, "column"),
            I32(rows.output_cols.begin, "column"), I32(rows.output_cols.end, "column"),
            I32(rows.pad_left, "column"), I32(rows.pad_right, "column"));
      }
    }
    const auto ops_v = b_.CreateVector(ops);
    const auto regions_v = b_.CreateVectorOfStructs(regions);
    const auto buffers = Buffers(t.buffers, shift);
    const auto columns_v = columns.empty() ? 0 : b_.CreateVectorOfStructs(columns);
    const auto channels_v = channels.empty() ? 0 : b_.CreateVectorOfStructs(channels);
    if (!columns.empty() || !channels.empty()) schema_version_ = kSchemaVersion2DTiles;
    return tgrs::CreateTilePlan(b_, tgrs::TileDim::HEIGHT, I32(t.tile_rows, "tile rows"),
                                I32(t.count, "tile count"), I32(t.halo, "halo"), ops_v, regions_v,
                                buffers, U32(t.peak_bytes, "tile peak"), t.streamed, columns_v,
                                channels_v);
  }

  fb::Offset<tgrs::Stage> Stage(const plan::Stage& s) {
    const int64_t reserved = store_.stage_reserved[static_cast<size_t>(s.id)];
    const auto ops = b_.CreateVector(s.ops);
    const auto buffers = Buffers(s.buffers, reserved);
    fb::Offset<tgrs::TilePlan> tile = 0;
    if (s.tile) tile = Tile(*s.tile, reserved);
    const std::vector<int32_t> spill_in(s.spill_in.begin(), s.spill_in.end());
    const std::vector<int32_t> spill_out(s.spill_out.begin(), s.spill_out.end());
    const auto in_v = b_.CreateVector(spill_in), out_v = b_.CreateVector(spill_out);
    return tgrs::CreateStage(b_, s.id, static_cast<tgrs::StageStrategy>(s.strategy), ops, buffers,
                             tile, s.chain, U32(s.peak_bytes, "stage peak"), in_v, out_v,
                             store_.stage_block[static_cast<size_t>(s.id)],
                             U32(reserved, "reserved bytes"));
  }

  const ir::Graph& g_;
  const plan::PlanResult& r_;
  const EmitOptions& o_;
  std::vector<OpRecord> records_;
  WeightStore store_;
  fb::FlatBufferBuilder b_{1 << 16};
  uint32_t schema_version_ = kSchemaVersion;  // raised by the features the plan uses
};

}  // namespace

std::string GeneratorString() {
  return "tigris " + std::to_string(TIGRIS_VERSION_MAJOR) + "." +
         std::to_string(TIGRIS_VERSION_MINOR) + "." + std::to_string(TIGRIS_VERSION_PATCH);
}

EmittedPlan EmitPlan(const ir::Graph& graph, const plan::PlanResult& result,
                     const EmitOptions& options) {
  if (options.lz4 && options.xip) {
    throw Error(Status::kInvalidArgument,
                "LZ4-compressed weights cannot be executed in place: use xip = 0 with LZ4");
  }
  return Writer(graph, result, options).Run();
}

}  // namespace tigris::emit
