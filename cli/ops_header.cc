#include "ops_header.h"

#include <set>

namespace tigris::cli {
namespace {

// Calls `visit` with every tile loop of the plan: tiled stages' and chains'.
template <typename Visit>
void ForEachTile(const tgrs_plan& plan, Visit visit) {
  tgrs_plan_tile tile{};
  for (uint32_t i = 0; i < tgrs_plan_stage_count(&plan); ++i) {
    if (tgrs_plan_get_stage_tile(&plan, i, &tile) == TGRS_OK) visit(tile);
  }
  for (uint32_t i = 0; i < tgrs_plan_chain_count(&plan); ++i) {
    if (tgrs_plan_get_chain_tile(&plan, i, &tile) == TGRS_OK) visit(tile);
  }
}

// Whether a GEMM runs inside one of the plan's tile loops (a banded reduction: the
// planner's gemm-as-banded-reduction).
bool HasTiledGemm(const tgrs_plan& plan) {
  bool found = false;
  ForEachTile(plan, [&](const tgrs_plan_tile& tile) {
    for (uint32_t k = 0; k < tile.ops.count; ++k) {
      tgrs_plan_op op{};
      found = found ||
              (tgrs_plan_get_op(&plan, static_cast<uint32_t>(tile.ops.data[k]), &op) == TGRS_OK &&
               op.code == TGRS_OP_GEMM);
    }
  });
  return found;
}

// Whether graph input (or output) `t`'s host permutation reorders its bytes: whether it
// moves an axis of extent > 1 past another, as the runtime decides (host_io.c,
// make_host_map). An NCHW input of one channel moves only a unit axis.
bool ReordersBytes(const tgrs_plan_tensor& t, bool is_input) {
  int32_t last = -1;
  for (uint32_t i = 0; i < t.host_permutation.count && i < t.shape.count; ++i) {
    const int32_t p = t.host_permutation.data[i];
    if (p < 0 || static_cast<uint32_t>(p) >= t.shape.count) return true;
    if ((is_input ? t.shape.data[i] : t.shape.data[p]) == 1) continue;
    if (p < last) return true;
    last = p;
  }
  return false;
}

// Whether a graph input or output of the plan is copied element by element.
bool HasHostPermutation(const tgrs_plan& plan) {
  for (bool is_input : {true, false}) {
    const tgrs_i32s ids = is_input ? tgrs_plan_inputs(&plan) : tgrs_plan_outputs(&plan);
    for (uint32_t k = 0; k < ids.count; ++k) {
      tgrs_plan_tensor t{};
      if (ids.data[k] >= 0 &&
          tgrs_plan_get_tensor(&plan, static_cast<uint32_t>(ids.data[k]), &t) == TGRS_OK &&
          ReordersBytes(t, is_input)) {
        return true;
      }
    }
  }
  return false;
}

// Whether a GEMM keeps int32 sums: an int8 layer the planner's fdt-fan-out-fan-in split,
// whose parts write int32 or read the parts before as an int32 C.
bool HasGemmParts(const tgrs_plan& plan) {
  auto dtype = [&](const tgrs_i32s& ids, uint32_t k) {
    tgrs_plan_tensor t{};
    if (k >= ids.count || ids.data[k] < 0 ||
        tgrs_plan_get_tensor(&plan, static_cast<uint32_t>(ids.data[k]), &t) != TGRS_OK) {
      return TGRS_DTYPE_UNKNOWN;
    }
    return t.weight < 0 ? t.dtype : TGRS_DTYPE_UNKNOWN;  // activations only
  };
  for (uint32_t i = 0; i < tgrs_plan_op_count(&plan); ++i) {
    tgrs_plan_op op{};
    if (tgrs_plan_get_op(&plan, i, &op) == TGRS_OK && op.code == TGRS_OP_GEMM &&
        (dtype(op.outputs, 0) == TGRS_DTYPE_INT32 || dtype(op.inputs, 2) == TGRS_DTYPE_INT32)) {
      return true;
    }
  }
  return false;
}

}  // namespace

std::string OpsHeader(const std::vector<const LoadedPlan*>& plans) {
  std::set<int> codes;
  bool float32 = false, int8 = false, gemm_bands = false, gemm_parts = false, uint8_io = false;
  bool lz4 = false, weight_blocks = false, columns = false, channels = false,
       host_permutation = false;
  bool state = false, staged = false, pinned = false, tflite_rounding = false;
  std::string sources;
  for (const LoadedPlan* loaded : plans) {
    const tgrs_plan& plan = loaded->plan();
    for (uint32_t i = 0; i < tgrs_plan_op_count(&plan); ++i) {
      tgrs_plan_op op{};
      if (tgrs_plan_get_op(&plan, i, &op) != TGRS_OK) continue;
      codes.insert(static_cast<int>(op.code));
      tflite_rounding = tflite_rounding || op.rounding == 1;  // TGRS_ROUNDING_TFLITE
    }
    for (uint32_t i = 0; i < tgrs_plan_tensor_count(&plan); ++i) {
      tgrs_plan_tensor t{};
      if (tgrs_plan_get_tensor(&plan, i, &t) != TGRS_OK) continue;
      float32 = float32 || t.dtype == TGRS_DTYPE_FLOAT32;
      int8 = int8 || t.dtype == TGRS_DTYPE_INT8;
      uint8_io = uint8_io || t.host_dtype != t.dtype;
    }
    ForEachTile(plan, [&](const tgrs_plan_tile& tile) {
      columns = columns || tile.column_count != 0;
      channels = channels || tile.channel_count != 0;
    });
    gemm_bands = gemm_bands || HasTiledGemm(plan);
    gemm_parts = gemm_parts || HasGemmParts(plan);
    lz4 = lz4 || tgrs_plan_compression(&plan) == TGRS_COMPRESSION_LZ4;
    host_permutation = host_permutation || HasHostPermutation(plan);
    weight_blocks = weight_blocks || tgrs_plan_weight_block_count(&plan) > 0;
    state = state || tgrs_plan_state_count(&plan) > 0;
    staged = staged || tgrs_plan_staged_constants(&plan).count > 0;
    pinned = pinned || tgrs_plan_pinned_arena_bytes(&plan) > 0;
    std::string path = loaded->path();  // a "*/" in it would end the comment early
    for (size_t at = path.find("*/"); at != std::string::npos; at = path.find("*/", at + 2)) {
      path.replace(at, 2, "*\\/");
    }
    sources += " *   " + path + "\n";
  }
  std::string h =
      "/* Op selection for the TiGrIS runtime, written by `tigris inspect --ops-header`\n"
      " * (runtime/include/tgrs_op_select.h, docs/runtime.md \"Selecting ops\"). Compile the\n"
      " * runtime with -DTGRS_OPS_HEADER=\\\"<this file>\\\" to link only the kernels of:\n" +
      sources +
      " * A plan holding another op fails at it with TGRS_ERR_UNSUPPORTED_OP. */\n"
      "#ifndef TGRS_OPS_SELECTED\n"
      "#define TGRS_OPS_SELECTED 1\n";
  for (int code : codes) {
    h += std::string("#define TGRS_WITH_OP_") + tgrs_op_code_name(static_cast<tgrs_op_code>(code)) +
         " 1\n";
  }
  // Plan features the selected runtime leaves out unless a plan uses them.
  if (gemm_bands) h += "#define TGRS_WITH_GEMM_BANDS 1\n";
  if (gemm_parts) h += "#define TGRS_WITH_GEMM_PARTS 1\n";
  if (uint8_io) h += "#define TGRS_WITH_UINT8_IO 1\n";
  if (lz4) h += "#define TGRS_WITH_LZ4 1\n";
  if (weight_blocks) h += "#define TGRS_WITH_WEIGHT_BLOCKS 1\n";
  if (columns) h += "#define TGRS_WITH_TILE_COLUMNS 1\n";
  if (channels) h += "#define TGRS_WITH_TILE_CHANNELS 1\n";
  if (host_permutation) h += "#define TGRS_WITH_HOST_PERMUTATION 1\n";
  if (state) h += "#define TGRS_WITH_STATE 1\n";
  if (staged) h += "#define TGRS_WITH_STAGED_CONSTANTS 1\n";
  if (pinned) h += "#define TGRS_WITH_PINNED 1\n";
  if (tflite_rounding) h += "#define TGRS_WITH_TFLITE_ROUNDING 1\n";
  // A dtype no tensor has is left out (tigris_executor.h), unless that would leave none.
  if (float32 != int8) {
    h += float32 ? "#define TGRS_WITH_INT8 0\n" : "#define TGRS_WITH_FLOAT32 0\n";
  }
  h += "#endif\n";
  return h;
}

}  // namespace tigris::cli
