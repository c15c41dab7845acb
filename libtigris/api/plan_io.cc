// A plan's graph inputs and outputs, and plan handles made from .tgrs bytes
// (include/tigris.h, "A plan's graph inputs and outputs"). Everything is read from the
// bytes with the C99 runtime's verifying reader, the same code a microcontroller trusts,
// so a compiled plan and the file it was written to describe themselves identically.
#include <cstring>
#include <string>

#include "api/plan_handle.h"
#include "api/runtime_bridge.h"
#include "api/status.h"
#include "util/file_io.h"

namespace tigris::api {
namespace {

std::vector<PlanIoTensor> DescribeTensors(const tgrs_plan& plan, tgrs_i32s indices) {
  std::vector<PlanIoTensor> out;
  for (uint32_t i = 0; i < indices.count; ++i) {
    tgrs_plan_tensor t;
    // The verifier has checked every graph input/output index against the tensor table.
    if (tgrs_plan_get_tensor(&plan, static_cast<uint32_t>(indices.data[i]), &t) != TGRS_OK) {
      throw Error(Status::kInternal,
                  "verified plan has no tensor " + std::to_string(indices.data[i]));
    }
    PlanIoTensor io;
    io.name = t.name ? t.name : "";
    // The caller's dtype: a uint8 tensor the runtime holds as int8 is described as the model
    // declares it, zero points included (the int8 ones plus 128).
    io.dtype = ToApiDType(t.host_dtype);
    const int32_t zero_point_shift = t.host_dtype != t.dtype ? 128 : 0;
    // Graph inputs and outputs carry the ONNX shape the caller sees; older plans may not.
    const tgrs_i32s shape = t.onnx_shape.count ? t.onnx_shape : t.shape;
    io.shape.assign(shape.data, shape.data + shape.count);
    if (t.has_quant) {
      io.scales.assign(t.scale.data, t.scale.data + t.scale.count);
      for (uint32_t k = 0; k < t.zero_point.count; ++k) {
        io.zero_points.push_back(t.zero_point.data[k] + zero_point_shift);
      }
      io.quant_axis = t.quant_axis;
    }
    out.push_back(std::move(io));
  }
  return out;
}

void FillInfo(const PlanIoTensor& io, tigris_tensor_info* info) {
  const int version = info->version;
  std::memset(info, 0, sizeof *info);
  info->version = version;
  info->name = io.name.c_str();
  info->dtype = io.dtype;
  info->rank = io.shape.size();
  info->shape = io.shape.data();
  info->is_constant = 0;
  info->num_scales = io.scales.size();
  info->scales = io.scales.empty() ? nullptr : io.scales.data();
  info->zero_points = io.zero_points.empty() ? nullptr : io.zero_points.data();
  info->quant_axis = io.quant_axis;
}

tigris_status Describe(const tigris_execution_plan* plan, size_t index, tigris_tensor_info* info,
                       bool output) {
  std::string* err = plan ? &const_cast<tigris_execution_plan*>(plan)->last_error : nullptr;
  const char* function = output ? "tigris_plan_output" : "tigris_plan_input";
  return Guard(err, [&] {
    if (!plan || !info) {
      throw Error(Status::kInvalidArgument, std::string(function) + ": plan and info are required");
    }
    CheckStructVersion(info->version, TIGRIS_TENSOR_INFO_VERSION, "tigris_tensor_info");
    const auto& list = output ? plan->outputs : plan->inputs;
    if (index >= list.size()) {
      throw Error(Status::kInvalidArgument,
                  std::string(function) + ": index " + std::to_string(index) +
                      " out of range (the plan has " + std::to_string(list.size()) + ")");
    }
    FillInfo(list[index], info);
  });
}

}  // namespace

void DescribePlan(tigris_execution_plan& handle, bool summary) {
  // The reader needs the plan 16-byte aligned (weights are read in place); a vector's
  // storage need not be, so verify an aligned copy.
  const size_t size = handle.bytes.size();
  AlignedBytes aligned = AllocateAligned(size);
  if (size) std::memcpy(aligned.get(), handle.bytes.data(), size);
  tgrs_plan plan;
  if (tgrs_plan_init(&plan, aligned.get(), size) != TGRS_OK) {
    char detail[256];
    tgrs_verify_error_format(&plan.error, detail, sizeof detail);
    throw Error(Status::kInvalidPlan, std::string("the .tgrs plan is invalid: ") + detail + " [" +
                                          tgrs_status_name(plan.error.status) + "]");
  }
  handle.inputs = DescribeTensors(plan, tgrs_plan_inputs(&plan));
  handle.outputs = DescribeTensors(plan, tgrs_plan_outputs(&plan));
  if (summary) {
    handle.fast_arena_bytes = tgrs_plan_fast_arena_bytes(&plan);
    handle.slow_arena_bytes = tgrs_plan_slow_arena_bytes(&plan);
    handle.stored_weight_bytes = tgrs_plan_weight_data(&plan).count;
    handle.weight_bytes = handle.stored_weight_bytes;
  }
}

}  // namespace tigris::api

using tigris::Error;
using tigris::Status;

extern "C" {

TIGRIS_API tigris_status tigris_plan_from_memory(tigris_execution_plan** out, const void* data,
                                                 size_t size) {
  return tigris::api::CreateHandle(
      out, nullptr, "tigris_plan_from_memory", [&](tigris_execution_plan& handle) {
        if (!data || size == 0) {
          throw Error(Status::kInvalidArgument,
                      "tigris_plan_from_memory: data must not be NULL or empty");
        }
        const auto* bytes = static_cast<const uint8_t*>(data);
        handle.bytes.assign(bytes, bytes + size);
        tigris::api::DescribePlan(handle, /*summary=*/true);
      });
}

TIGRIS_API tigris_status tigris_plan_from_file(tigris_execution_plan** out, const char* path) {
  return tigris::api::CreateHandle(
      out, nullptr, "tigris_plan_from_file", [&](tigris_execution_plan& handle) {
        if (!path) throw Error(Status::kInvalidArgument, "tigris_plan_from_file: path is NULL");
        std::string bytes;
        const std::string failed = tigris::ReadWholeFile(path, &bytes);
        if (!failed.empty()) {
          throw Error(Status::kIoError, std::string("cannot read plan '") + path + "': " + failed);
        }
        if (bytes.empty()) {
          throw Error(Status::kInvalidPlan, std::string("plan '") + path + "' is empty (0 bytes)");
        }
        handle.bytes.assign(bytes.begin(), bytes.end());
        tigris::api::DescribePlan(handle, /*summary=*/true);
      });
}

TIGRIS_API size_t tigris_plan_input_count(const tigris_execution_plan* plan) {
  return plan ? plan->inputs.size() : 0;
}
TIGRIS_API size_t tigris_plan_output_count(const tigris_execution_plan* plan) {
  return plan ? plan->outputs.size() : 0;
}

TIGRIS_API tigris_status tigris_plan_input(const tigris_execution_plan* plan, size_t index,
                                           tigris_tensor_info* info) {
  return tigris::api::Describe(plan, index, info, /*output=*/false);
}
TIGRIS_API tigris_status tigris_plan_output(const tigris_execution_plan* plan, size_t index,
                                            tigris_tensor_info* info) {
  return tigris::api::Describe(plan, index, info, /*output=*/true);
}

}  // extern "C"
