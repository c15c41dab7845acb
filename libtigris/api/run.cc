// tigris_run_plan: the C99 runtime (runtime/, tgrs_plan_init + tgrs_run) behind the C ABI,
// so the CLI (`tigris run`) and the bindings check a plan on the host with the very code a
// microcontroller runs. The host side only adds what an MCU caller would do itself:
// an aligned copy of the plan, arenas of the requested sizes, and float <-> int8
// conversion of inputs and outputs with the plan's scales (ONNX QuantizeLinear /
// DequantizeLinear, the kernels' own helpers).
#include <chrono>
#include <cstddef>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "api/plan_handle.h"
#include "api/runtime_bridge.h"
#include "api/status.h"

extern "C" {
#include "tgrs_kernels.h"
#include "tigris_executor.h"
#include "tigris_runtime.h"
}

namespace tigris::api {
namespace {

std::string ShapeText(tgrs_i32s shape) {
  std::string s;
  for (uint32_t i = 0; i < shape.count; ++i) {
    if (i) s += "x";
    s += std::to_string(shape.data[i]);
  }
  return s.empty() ? "scalar" : s;
}

// " 'name'", or nothing for a plan compiled with --strip-names (the index says which).
std::string QuotedName(const char* name) {
  return name[0] ? std::string(" '") + name + "'" : std::string();
}

std::string TensorText(const char* role, size_t index, const tgrs_plan_tensor& t) {
  return std::string(role) + " " + std::to_string(index) + QuotedName(t.name) + " (" +
         ShapeText(t.onnx_shape.count ? t.onnx_shape : t.shape) + " " +
         tgrs_dtype_name(t.host_dtype) + ")";
}

std::string DTypeText(tigris_dtype dtype) {
  const tgrs_dtype runtime = ToRuntimeDType(dtype);
  return runtime != TGRS_DTYPE_UNKNOWN ? tgrs_dtype_name(runtime)
                                       : "dtype " + std::to_string(static_cast<int>(dtype));
}

[[noreturn]] void Fail(Status status, tgrs_status runtime, const std::string& what) {
  throw Error(status, std::string("tigris_run_plan: ") + tgrs_status_name(runtime) + ": " + what);
}

tgrs_plan_tensor PlanTensor(const tgrs_plan& plan, int32_t index) {
  tgrs_plan_tensor t;
  if (tgrs_plan_get_tensor(&plan, static_cast<uint32_t>(index), &t) != TGRS_OK) {
    Fail(Status::kInvalidArgument, TGRS_ERR_INCONSISTENT_PLAN,
         "tensor " + std::to_string(index) + " is not in the plan");
  }
  return t;
}

size_t Elements(const tgrs_plan_tensor& t) {
  return tgrs_plan_tensor_bytes(&t) / tgrs_dtype_size(t.dtype);
}

// True when the caller's buffer is float32 and the plan's tensor is int8 (a conversion).
bool Converts(const tigris_run_io& io, const tgrs_plan_tensor& t) {
  return io.dtype == TIGRIS_DTYPE_FLOAT32 && t.dtype == TGRS_DTYPE_INT8;
}

// The runtime passes a tensor whose host dtype is UINT8 as uint8 bytes (host_io.c flips
// the top bit); float32 given for it is quantized to int8, then flipped the same way.
void FlipToHost(const tgrs_plan_tensor& t, int8_t* bytes, size_t count) {
  if (t.host_dtype == t.dtype) return;
  for (size_t k = 0; k < count; ++k) bytes[k] = static_cast<int8_t>(bytes[k] ^ 0x80);
}

void CheckIo(const tigris_run_io& io, const tgrs_plan_tensor& t, const char* role, size_t i,
             tgrs_status size_status) {
  if (io.version < 1 || io.version > TIGRIS_RUN_IO_VERSION) {
    throw Error(Status::kVersionMismatch, std::string("tigris_run_plan: ") + role + " " +
                                              std::to_string(i) + " has version " +
                                              std::to_string(io.version));
  }
  if (!Converts(io, t) && ToRuntimeDType(io.dtype) != t.host_dtype) {
    Fail(Status::kInvalidArgument, size_status,
         TensorText(role, i, t) + " cannot be given as " + DTypeText(io.dtype) + " (use " +
             tgrs_dtype_name(t.host_dtype) +
             (t.dtype == TGRS_DTYPE_INT8 ? ", or FLOAT32, which is quantized)" : ")"));
  }
  const size_t elem = Converts(io, t) ? 4 : tgrs_dtype_size(t.dtype);
  if (io.data == nullptr || io.size != Elements(t) * elem) {
    Fail(Status::kInvalidArgument, size_status,
         TensorText(role, i, t) + " needs " + std::to_string(Elements(t) * elem) + " bytes, got " +
             std::to_string(io.data ? io.size : 0));
  }
}

// A position-dependent pattern, so a kernel writing a constant cannot recreate it by chance.
uint8_t Poison(size_t i) { return static_cast<uint8_t>((i * 131u + 0x5Bu) >> 1); }

void PoisonArena(uint8_t* arena, size_t size) {
  for (size_t i = 0; i < size; ++i) arena[i] = Poison(i);
}

bool PoisonIntact(const uint8_t* arena, size_t from, size_t size) {
  for (size_t i = from; i < size; ++i) {
    if (arena[i] != Poison(i)) return false;
  }
  return true;
}

Status ToStatus(tgrs_status st) {
  return st == TGRS_ERR_UNSUPPORTED_OP ? Status::kUnsupportedOp : Status::kInvalidArgument;
}

// Zeroes *stats (keeping its version) before anything can fail, so a caller reads a
// defined failed_op (-1) and runtime_status whatever happens.
// A caller's tigris_run_stats is as large as its version: version 1 ends before the pinned
// arena's fields.
size_t StatsBytes(int version) {
  return version >= 2 ? sizeof(tigris_run_stats) : offsetof(tigris_run_stats, pinned_arena_bytes);
}

void ResetStats(tigris_run_stats* stats) {
  if (stats && stats->version >= 1 && stats->version <= TIGRIS_RUN_STATS_VERSION) {
    const int version = stats->version;
    std::memset(stats, 0, StatsBytes(version));
    stats->version = version;
    stats->failed_op = -1;
  }
}

// The body of tigris_run_plan and tigris_plan_run; throws tigris::Error.
void RunPlan(const void* plan_bytes, size_t plan_size, const tigris_run_options* options,
             const tigris_run_io* inputs, size_t num_inputs, tigris_run_io* outputs,
             size_t num_outputs, tigris_run_stats* stats) {
  if (!plan_bytes || plan_size == 0) {
    throw Error(Status::kInvalidArgument, "tigris_run_plan: plan must not be NULL or empty");
  }
  if (stats) CheckStructVersion(stats->version, TIGRIS_RUN_STATS_VERSION, "tigris_run_stats");
  if (options) {
    CheckStructVersion(options->version, TIGRIS_RUN_OPTIONS_VERSION, "tigris_run_options");
  }
  if ((num_inputs && !inputs) || (num_outputs && !outputs)) {
    throw Error(Status::kInvalidArgument, "tigris_run_plan: inputs/outputs must not be NULL");
  }
  // The runtime reads weights in place through aligned pointers: copy to a 16-aligned base.
  AlignedBytes bytes = AllocateAligned(plan_size);
  std::memcpy(bytes.get(), plan_bytes, plan_size);
  tgrs_plan plan;
  tgrs_status st = tgrs_plan_init(&plan, bytes.get(), plan_size);
  if (st != TGRS_OK) {
    char detail[256];
    tgrs_verify_error_format(&plan.error, detail, sizeof detail);
    if (stats) stats->runtime_status = st;
    Fail(Status::kInvalidArgument, st, std::string("the plan is invalid: ") + detail);
  }

  const tgrs_i32s plan_inputs = tgrs_plan_inputs(&plan);
  const tgrs_i32s plan_outputs = tgrs_plan_outputs(&plan);
  if (num_inputs != plan_inputs.count) {
    Fail(Status::kInvalidArgument, TGRS_ERR_INPUT_COUNT,
         "the plan has " + std::to_string(plan_inputs.count) + " inputs, got " +
             std::to_string(num_inputs));
  }
  if (num_outputs != plan_outputs.count) {
    Fail(Status::kInvalidArgument, TGRS_ERR_OUTPUT_COUNT,
         "the plan has " + std::to_string(plan_outputs.count) + " outputs, got " +
             std::to_string(num_outputs));
  }

  // Inputs: pass through, or quantize float32 with the plan's scale and zero point.
  std::vector<std::vector<int8_t>> quantized(num_inputs);
  std::vector<tgrs_input_buffer> in(num_inputs);
  for (size_t i = 0; i < num_inputs; ++i) {
    const tgrs_plan_tensor t = PlanTensor(plan, plan_inputs.data[i]);
    CheckIo(inputs[i], t, "input", i, TGRS_ERR_INPUT_SIZE);
    in[i].data = inputs[i].data;
    in[i].size = inputs[i].size;
    if (Converts(inputs[i], t)) {
      quantized[i].resize(Elements(t));
      tgrs_quantize_f32_s8(t.has_quant ? t.scale.data[0] : 1.0f,
                           t.has_quant ? t.zero_point.data[0] : 0, Elements(t),
                           static_cast<const float*>(inputs[i].data), quantized[i].data());
      FlipToHost(t, quantized[i].data(), quantized[i].size());
      in[i].data = quantized[i].data();
      in[i].size = quantized[i].size();
    }
  }
  std::vector<AlignedBytes> produced;
  std::vector<tgrs_output_buffer> out(num_outputs);
  for (size_t i = 0; i < num_outputs; ++i) {
    const tgrs_plan_tensor t = PlanTensor(plan, plan_outputs.data[i]);
    CheckIo(outputs[i], t, "output", i, TGRS_ERR_OUTPUT_SIZE);
    produced.push_back(AllocateAligned(tgrs_plan_tensor_bytes(&t)));
    out[i].data = produced.back().get();
    out[i].size = tgrs_plan_tensor_bytes(&t);
  }

  const uint64_t fast_size =
      options && options->fast_bytes ? options->fast_bytes : tgrs_plan_fast_arena_bytes(&plan);
  const uint64_t slow_size =
      options && options->slow_bytes ? options->slow_bytes : tgrs_plan_slow_arena_bytes(&plan);
  AlignedBytes fast = AllocateAligned(static_cast<size_t>(fast_size));
  AlignedBytes slow = AllocateAligned(static_cast<size_t>(slow_size));
  // Tensors rules pinned to another memory (schema 4): their arena, at the plan's size.
  const size_t pinned_size = tgrs_plan_pinned_arena_bytes(&plan);
  AlignedBytes pinned = AllocateAligned(pinned_size);
  tgrs_arenas arenas = {fast.get(),   static_cast<size_t>(fast_size),
                        slow.get(),   static_cast<size_t>(slow_size),
                        pinned.get(), pinned_size};
  PoisonArena(fast.get(), static_cast<size_t>(fast_size));
  PoisonArena(slow.get(), static_cast<size_t>(slow_size));
  PoisonArena(pinned.get(), pinned_size);
  tgrs_run_stats run_stats;
  const auto start = std::chrono::steady_clock::now();
  st = tgrs_run(&plan, &arenas, in.data(), static_cast<uint32_t>(in.size()), out.data(),
                static_cast<uint32_t>(out.size()), &run_stats);
  const auto stop = std::chrono::steady_clock::now();
  if (stats) {
    stats->fast_arena_bytes = fast_size;
    stats->slow_arena_bytes = slow_size;
    stats->fast_hwm_bytes = run_stats.fast_hwm_bytes;
    stats->slow_hwm_bytes = run_stats.slow_hwm_bytes;
    stats->run_seconds = std::chrono::duration<double>(stop - start).count();
    stats->runtime_status = st;
    stats->failed_op = run_stats.failed_op;
    stats->fast_untouched_beyond_hwm =
        PoisonIntact(fast.get(), run_stats.fast_hwm_bytes, static_cast<size_t>(fast_size));
    stats->slow_untouched_beyond_hwm =
        PoisonIntact(slow.get(), run_stats.slow_hwm_bytes, static_cast<size_t>(slow_size));
    if (stats->version >= 2) {
      stats->pinned_arena_bytes = pinned_size;
      stats->pinned_hwm_bytes = run_stats.pinned_hwm_bytes;
      stats->pinned_untouched_beyond_hwm =
          PoisonIntact(pinned.get(), run_stats.pinned_hwm_bytes, pinned_size);
    }
  }
  if (st != TGRS_OK) {
    std::string where;
    if (st == TGRS_ERR_ARENA_TOO_SMALL) {
      where = "fast arena of " + std::to_string(fast_size) + " bytes; the plan needs " +
              std::to_string(tgrs_plan_fast_arena_bytes(&plan));
    } else if (st == TGRS_ERR_SLOW_ARENA_TOO_SMALL) {
      where = "slow arena of " + std::to_string(slow_size) + " bytes; the plan needs " +
              std::to_string(tgrs_plan_slow_arena_bytes(&plan));
    } else if (run_stats.failed_op >= 0) {
      tgrs_plan_op op;
      tgrs_plan_get_op(&plan, static_cast<uint32_t>(run_stats.failed_op), &op);
      where = "op " + std::to_string(run_stats.failed_op) + QuotedName(op.name) + " (" +
              tgrs_op_code_name(op.code) + ") in stage " + std::to_string(run_stats.failed_stage);
      if (run_stats.kernel_status) {
        where += ", kernel status " + std::to_string(run_stats.kernel_status);
      }
    } else {
      where = "stage " + std::to_string(run_stats.failed_stage);
    }
    Fail(ToStatus(st), st, where);
  }

  // Outputs: copy, or dequantize int8 to float32.
  for (size_t i = 0; i < num_outputs; ++i) {
    const tgrs_plan_tensor t = PlanTensor(plan, plan_outputs.data[i]);
    if (Converts(outputs[i], t)) {
      FlipToHost(t, reinterpret_cast<int8_t*>(produced[i].get()), Elements(t));  // back to int8
      tgrs_dequantize_s8_f32(
          t.has_quant ? t.scale.data[0] : 1.0f, t.has_quant ? t.zero_point.data[0] : 0, Elements(t),
          reinterpret_cast<const int8_t*>(produced[i].get()), static_cast<float*>(outputs[i].data));
    } else {
      std::memcpy(outputs[i].data, produced[i].get(), out[i].size);
    }
  }
}

}  // namespace
}  // namespace tigris::api

using tigris::Error;
using tigris::Status;
using namespace tigris::api;

extern "C" TIGRIS_API tigris_status tigris_run_plan(const void* plan_bytes, size_t plan_size,
                                                    const tigris_run_options* options,
                                                    const tigris_run_io* inputs, size_t num_inputs,
                                                    tigris_run_io* outputs, size_t num_outputs,
                                                    tigris_run_stats* stats) {
  ResetStats(stats);
  return Guard(nullptr, [&] {
    RunPlan(plan_bytes, plan_size, options, inputs, num_inputs, outputs, num_outputs, stats);
  });
}

extern "C" TIGRIS_API tigris_status tigris_plan_run(const tigris_execution_plan* plan,
                                                    const tigris_run_options* options,
                                                    const tigris_run_io* inputs, size_t num_inputs,
                                                    tigris_run_io* outputs, size_t num_outputs,
                                                    tigris_run_stats* stats) {
  ResetStats(stats);
  std::string* err = plan ? &const_cast<tigris_execution_plan*>(plan)->last_error : nullptr;
  return Guard(err, [&] {
    if (!plan) throw Error(Status::kInvalidArgument, "tigris_plan_run: plan must not be NULL");
    RunPlan(plan->bytes.data(), plan->bytes.size(), options, inputs, num_inputs, outputs,
            num_outputs, stats);
  });
}
