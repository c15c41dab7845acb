#include "intermediates.h"

#include <sys/stat.h>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <new>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "tgrs_kernels.h"
#include "tigris_executor.h"

namespace tigris::cli {
namespace {

struct AlignedFree {
  void operator()(uint8_t* p) const {
    ::operator delete(p, std::align_val_t(TGRS_ARENA_ALIGNMENT));
  }
};
using AlignedBytes = std::unique_ptr<uint8_t, AlignedFree>;

AlignedBytes Allocate(size_t bytes) {
  return AlignedBytes(static_cast<uint8_t*>(
      ::operator new(bytes ? bytes : 1, std::align_val_t(TGRS_ARENA_ALIGNMENT))));
}

// One op output being assembled from the runtime's row reports, in the runtime layout.
struct Assembly {
  uint32_t op = 0;
  tgrs_plan_tensor tensor{};
  std::vector<uint8_t> bytes;
  std::vector<bool> written;  // per element of one batch (H x W x C, rank 4), or one entry
};

// The observer's state. The observer is called from C: it records defects instead of
// throwing through the runtime's frames.
struct Collector {
  const tgrs_plan* plan = nullptr;
  std::map<int32_t, Assembly> tensors;
  std::vector<int32_t> order;  // tensors in the order their op first reported
  std::string defect;

  void Take(const tgrs_op_rows& r) {
    auto it = tensors.find(r.tensor);
    if (it == tensors.end()) {
      Assembly a;
      a.op = r.op;
      if (r.tensor < 0 ||
          tgrs_plan_get_tensor(plan, static_cast<uint32_t>(r.tensor), &a.tensor) != TGRS_OK) {
        defect =
            "op " + std::to_string(r.op) + " reported unknown tensor " + std::to_string(r.tensor);
        return;
      }
      a.bytes.assign(tgrs_plan_tensor_bytes(&a.tensor), 0);
      a.written.assign(a.tensor.shape.count == 4 ? static_cast<size_t>(a.tensor.shape.data[1]) *
                                                       static_cast<size_t>(a.tensor.shape.data[2]) *
                                                       static_cast<size_t>(a.tensor.shape.data[3])
                                                 : 1,
                       false);
      it = tensors.emplace(r.tensor, std::move(a)).first;
      order.push_back(r.tensor);
    }
    Assembly& a = it->second;
    const tgrs_plan_tensor& t = a.tensor;
    if (t.shape.count != 4) {
      if (r.bytes != a.bytes.size()) {
        defect = std::string("tensor '") + t.name + "': a report of " + std::to_string(r.bytes) +
                 " bytes for a " + std::to_string(a.bytes.size()) + "-byte tensor";
        return;
      }
      std::memcpy(a.bytes.data(), r.data, r.bytes);
      a.written[0] = true;
      return;
    }
    // Box [N, rows, cols, chans] -> rows [row_begin, + rows) x cols [col_begin, + cols) x
    // channels [chan_begin, + chans) of [N, H, W, C] (cols = W except in a 2-D tile loop,
    // chans = C except with channel groups).
    const size_t n = static_cast<size_t>(t.shape.data[0]);
    const int32_t h = t.shape.data[1];
    const int32_t w = t.shape.data[2];
    const int32_t c = t.shape.data[3];
    const size_t row = a.bytes.size() / (n * static_cast<size_t>(h));
    const size_t pixel = w > 0 ? row / static_cast<size_t>(w) : 0;
    const size_t elem = c > 0 ? pixel / static_cast<size_t>(c) : 0;
    const size_t chunk = static_cast<size_t>(r.chans) * elem;  // one pixel of the box
    if (r.row_begin < 0 || r.rows < 0 || r.row_begin + r.rows > h || r.col_begin < 0 ||
        r.cols < 0 || r.col_begin + r.cols > w || r.chan_begin < 0 || r.chans < 0 ||
        r.chan_begin + r.chans > c ||
        r.bytes != n * static_cast<size_t>(r.rows) * static_cast<size_t>(r.cols) * chunk) {
      defect = std::string("tensor '") + t.name + "': rows [" + std::to_string(r.row_begin) + ", " +
               std::to_string(r.row_begin + r.rows) + ") of " + std::to_string(h) + ", columns [" +
               std::to_string(r.col_begin) + ", " + std::to_string(r.col_begin + r.cols) + ") of " +
               std::to_string(w) + ", channels [" + std::to_string(r.chan_begin) + ", " +
               std::to_string(r.chan_begin + r.chans) + ") of " + std::to_string(c) + " in " +
               std::to_string(r.bytes) + " bytes";
      return;
    }
    const uint8_t* src = static_cast<const uint8_t*>(r.data);
    for (size_t b = 0; b < n; ++b) {
      for (int32_t y = 0; y < r.rows; ++y) {
        for (int32_t x = 0; x < r.cols; ++x, src += chunk) {
          std::memcpy(a.bytes.data() + (b * static_cast<size_t>(h) + r.row_begin + y) * row +
                          static_cast<size_t>(r.col_begin + x) * pixel +
                          static_cast<size_t>(r.chan_begin) * elem,
                      src, chunk);
        }
      }
    }
    for (int32_t y = r.row_begin; y < r.row_begin + r.rows; ++y) {
      for (int32_t x = r.col_begin; x < r.col_begin + r.cols; ++x) {
        for (int32_t ch = r.chan_begin; ch < r.chan_begin + r.chans; ++ch) {
          a.written[(static_cast<size_t>(y) * static_cast<size_t>(w) + x) * static_cast<size_t>(c) +
                    ch] = true;
        }
      }
    }
  }

  static void Observe(void* self, const tgrs_op_rows* rows) {
    Collector* c = static_cast<Collector*>(self);
    if (c->defect.empty()) c->Take(*rows);
  }
};

// The ONNX layout of a runtime-layout tensor: onnx = transpose(runtime, perm). Graph
// outputs state theirs (host_permutation); every other tensor follows the emitter's rule
// (docs/plan-format.md): rank 4 is NHWC for NCHW, rank 3 NWC for NCW.
std::vector<int32_t> OnnxPermutation(const tgrs_plan_tensor& t) {
  if (t.host_permutation.count == t.shape.count && t.shape.count > 0) {
    return std::vector<int32_t>(t.host_permutation.data,
                                t.host_permutation.data + t.host_permutation.count);
  }
  if (t.shape.count == 4) return {0, 3, 1, 2};
  if (t.shape.count == 3) return {0, 2, 1};
  std::vector<int32_t> identity(t.shape.count);
  for (size_t i = 0; i < identity.size(); ++i) identity[i] = static_cast<int32_t>(i);
  return identity;
}

// result = transpose(data, perm): result's axis i is data's axis perm[i].
NpyArray Transpose(const tgrs_plan_tensor& t, const std::vector<uint8_t>& data,
                   const std::vector<int32_t>& perm) {
  const size_t rank = t.shape.count;
  const size_t elem = tgrs_dtype_size(t.dtype);
  std::vector<int64_t> in_shape(t.shape.data, t.shape.data + rank);
  std::vector<int64_t> in_stride(rank, 1);
  for (size_t i = rank; i-- > 1;) in_stride[i - 1] = in_stride[i] * in_shape[i];
  NpyArray out;
  out.descr = NpyDescr(t.dtype);
  for (int32_t p : perm) out.shape.push_back(in_shape[static_cast<size_t>(p)]);
  out.data.resize(data.size());
  std::vector<int64_t> index(rank, 0);  // position in the output
  const size_t count = data.size() / elem;
  for (size_t k = 0; k < count; ++k) {
    int64_t src = 0;
    for (size_t i = 0; i < rank; ++i) src += index[i] * in_stride[static_cast<size_t>(perm[i])];
    std::memcpy(out.data.data() + k * elem, data.data() + static_cast<size_t>(src) * elem, elem);
    for (size_t i = rank; i-- > 0;) {
      if (++index[i] < out.shape[i]) break;
      index[i] = 0;
    }
  }
  return out;
}

// A file name from a tensor name: ONNX names hold '/', ':' and worse (torch's
// "/features/features.0/Conv_output_0").
std::string FileStem(size_t order, const std::string& name) {
  std::string stem = std::to_string(order);
  if (stem.size() < 3) stem.insert(0, 3 - stem.size(), '0');
  stem += '_';
  const size_t prefix = stem.size();
  for (char ch : name) {
    const bool keep = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                      (ch >= '0' && ch <= '9') || ch == '.' || ch == '-' || ch == '_';
    stem += keep ? ch : '_';
  }
  while (stem.size() > prefix && (stem.back() == '.' || stem.back() == '_')) stem.pop_back();
  return stem;
}

void MakeDirectory(const std::string& dir) {
  if (::mkdir(dir.c_str(), 0777) != 0 && errno != EEXIST) {
    throw std::runtime_error("cannot create directory '" + dir + "': " + std::strerror(errno));
  }
  struct stat st;
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    throw std::runtime_error("'" + dir + "' is not a directory");
  }
}

}  // namespace

const char* NpyDescr(tgrs_dtype dtype) {
  switch (dtype) {
    case TGRS_DTYPE_FLOAT32:
      return "<f4";
    case TGRS_DTYPE_INT8:
      return "|i1";
    case TGRS_DTYPE_UINT8:
      return "|u1";
    case TGRS_DTYPE_INT16:
      return "<i2";
    case TGRS_DTYPE_INT32:
      return "<i4";
    case TGRS_DTYPE_BOOL:
      return "|b1";  // NumPy's bool: one byte, 0 or 1, as the plan holds it
    default:
      return "<i8";
  }
}

size_t DumpIntermediates(const tgrs_plan& plan, const std::vector<NpyArray>& inputs,
                         uint64_t fast_bytes, uint64_t slow_bytes, const std::string& dir) {
  const tgrs_i32s plan_inputs = tgrs_plan_inputs(&plan);
  const tgrs_i32s plan_outputs = tgrs_plan_outputs(&plan);
  // Inputs in the plan's dtype: float32 arrays for an int8 tensor are quantized, as
  // tigris_run_plan does.
  std::vector<std::vector<int8_t>> quantized(plan_inputs.count);
  std::vector<tgrs_input_buffer> in(plan_inputs.count);
  for (uint32_t i = 0; i < plan_inputs.count; ++i) {
    tgrs_plan_tensor t;
    tgrs_plan_get_tensor(&plan, static_cast<uint32_t>(plan_inputs.data[i]), &t);
    in[i] = {inputs[i].data.data(), inputs[i].data.size()};
    if (inputs[i].descr == "<f4" && t.dtype == TGRS_DTYPE_INT8) {
      const size_t n = inputs[i].data.size() / sizeof(float);
      quantized[i].resize(n);
      tgrs_quantize_f32_s8(
          t.has_quant ? t.scale.data[0] : 1.0f, t.has_quant ? t.zero_point.data[0] : 0, n,
          reinterpret_cast<const float*>(inputs[i].data.data()), quantized[i].data());
      in[i] = {quantized[i].data(), quantized[i].size()};
    }
  }
  std::vector<AlignedBytes> out_storage;
  std::vector<tgrs_output_buffer> out(plan_outputs.count);
  for (uint32_t i = 0; i < plan_outputs.count; ++i) {
    tgrs_plan_tensor t;
    tgrs_plan_get_tensor(&plan, static_cast<uint32_t>(plan_outputs.data[i]), &t);
    out_storage.push_back(Allocate(tgrs_plan_tensor_bytes(&t)));
    out[i] = {out_storage.back().get(), tgrs_plan_tensor_bytes(&t)};
  }
  const size_t fast_size = fast_bytes ? fast_bytes : tgrs_plan_fast_arena_bytes(&plan);
  const size_t slow_size = slow_bytes ? slow_bytes : tgrs_plan_slow_arena_bytes(&plan);
  const size_t pinned_size = tgrs_plan_pinned_arena_bytes(&plan);
  AlignedBytes fast = Allocate(fast_size), slow = Allocate(slow_size),
               pinned = Allocate(pinned_size);
  const tgrs_arenas arenas = {fast.get(), fast_size,    slow.get(),
                              slow_size,  pinned.get(), pinned_size};

  Collector collector;
  collector.plan = &plan;
  tgrs_run_stats stats;
  const tgrs_status st =
      tgrs_run_observed(&plan, &arenas, in.data(), plan_inputs.count, out.data(),
                        plan_outputs.count, &stats, Collector::Observe, &collector);
  if (st != TGRS_OK) {
    throw std::runtime_error(std::string("the observed run failed: ") + tgrs_status_name(st) +
                             " at op " + std::to_string(stats.failed_op));
  }
  if (!collector.defect.empty()) {
    throw std::runtime_error("the runtime reported inconsistent rows: " + collector.defect);
  }

  MakeDirectory(dir);
  nlohmann::ordered_json index = nlohmann::ordered_json::array();
  for (size_t k = 0; k < collector.order.size(); ++k) {
    const Assembly& a = collector.tensors.at(collector.order[k]);
    const tgrs_plan_tensor& t = a.tensor;
    tgrs_plan_op op;
    tgrs_plan_get_op(&plan, a.op, &op);
    const std::string file = FileStem(k, t.name) + ".npy";
    NpyArray array = Transpose(t, a.bytes, OnnxPermutation(t));
    if (t.onnx_shape.count != 0 && t.onnx_shape.count != t.shape.count) {
      // A graph output the caller receives in another shape with the same bytes (a
      // classifier's [N, M, 1, 1] map as [N, M]; docs/plan-format.md): dumped as the caller
      // receives it, like the output file of the run.
      array.shape.assign(t.onnx_shape.data, t.onnx_shape.data + t.onnx_shape.count);
    }
    WriteNpy(dir + "/" + file, array);
    // Rows no tile computes: a chain computes only the rows its next op reads (a strided
    // pool's floor drops the last ones), so those rows of the .npy hold 0.
    std::vector<int32_t> missing;  // rows with an element no tile computed
    const size_t width = t.shape.count == 4 ? static_cast<size_t>(t.shape.data[2]) *
                                                  static_cast<size_t>(t.shape.data[3])
                                            : 1;
    for (size_t y = 0; width > 0 && y < a.written.size() / width; ++y) {
      for (size_t x = 0; x < width; ++x) {
        if (!a.written[y * width + x]) {
          missing.push_back(static_cast<int32_t>(y));
          break;
        }
      }
    }
    nlohmann::ordered_json entry = {{"file", file},
                                    {"tensor", t.name},
                                    {"op", op.name},
                                    {"op_index", a.op},
                                    {"code", tgrs_op_code_name(op.code)},
                                    {"dtype", array.descr},
                                    {"shape", array.shape},
                                    {"complete", missing.empty()}};
    if (!missing.empty()) entry["rows_not_computed"] = missing;
    if (t.has_quant && t.scale.count >= 1) {
      entry["scale"] = t.scale.data[0];
      entry["zero_point"] = t.zero_point.data[0];
    }
    index.push_back(entry);
  }
  const std::string index_path = dir + "/index.json";
  std::ofstream json(index_path);
  json << index.dump(2) << "\n";
  if (!json) throw std::runtime_error("cannot write '" + index_path + "'");
  return collector.order.size();
}

}  // namespace tigris::cli
