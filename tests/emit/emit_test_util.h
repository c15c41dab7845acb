// Shared helpers of the emit tests: normalized shared models, the smallest power-of-two
// budget a model compiles at, and an independent NCHW -> runtime transposition written
// with explicit index arithmetic (not emit/layout.h), so the round-trip tests compare the
// writer against something it does not share code with.
#ifndef TIGRIS_TESTS_EMIT_EMIT_TEST_UTIL_H_
#define TIGRIS_TESTS_EMIT_EMIT_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "emit/compile.h"
#include "onnx/onnx_loader.h"
#include "passes/pass.h"
#include "support/test_env.h"
#include "util/error.h"

namespace tigris::testing {

inline ir::Graph LoadNormalized(const std::string& path) {
  ir::Graph g = onnx_import::LoadOnnxFile(path, onnx_import::LoadOptions{});
  passes::Normalize(g);
  return g;
}

// Every shared float model and its int8 variant from GeneratedModelsDir().
inline std::vector<std::string> FloatAndInt8Models() {
  std::vector<std::string> out = SharedOnnxModels();
  for (const std::string& f : SharedOnnxModels()) {
    const std::string stem = std::filesystem::path(f).stem().string();
    const std::string q = GeneratedModelsDir() + "/" + stem + ".int8.onnx";
    if (std::filesystem::exists(q)) out.push_back(q);
  }
  return out;
}

// The smallest power of two >= 64K at which Compile succeeds (64K for every model that
// fits there), or -1 after 1 GiB.
inline int64_t SmallestWorkingBudget(const ir::Graph& g, const emit::EmitOptions& options) {
  for (int64_t fast = 64 * 1024; fast <= (int64_t{1} << 30); fast *= 2) {
    try {
      plan::Budget budget;
      budget.fast_bytes = fast;
      emit::Compile(g, budget, options);
      return fast;
    } catch (const Error& e) {
      if (e.status() != Status::kDoesNotFit) throw;
    }
  }
  return -1;
}

// Whether any tile loop of the plan cuts columns or channels (2-D tiles, channel groups:
// schema 2).
inline bool UsesSchema2(const plan::PlanResult& r) {
  auto cuts = [](const plan::TilePlan& t) { return t.tile_cols > 0 || t.tile_channels > 0; };
  for (const plan::Stage& s : r.stages) {
    if (s.tile && cuts(*s.tile)) return true;
  }
  for (const plan::Chain& c : r.chains) {
    if (cuts(c.tile)) return true;
  }
  return false;
}

// transpose(data, perm) for rank <= 4 by explicit nested loops over the output index.
inline std::vector<uint8_t> ReferenceTranspose(const std::vector<uint8_t>& data,
                                               std::vector<int64_t> shape,
                                               std::vector<int64_t> perm, size_t elem) {
  while (shape.size() < 4) {  // pad to rank 4 with leading unit dims
    shape.insert(shape.begin(), 1);
    for (int64_t& p : perm) ++p;
    perm.insert(perm.begin(), 0);
  }
  const int64_t d[4] = {shape[0], shape[1], shape[2], shape[3]};
  const int64_t stride[4] = {d[1] * d[2] * d[3], d[2] * d[3], d[3], 1};
  std::vector<uint8_t> out(data.size());
  size_t n = 0;
  int64_t i[4];
  for (i[0] = 0; i[0] < d[perm[0]]; ++i[0]) {
    for (i[1] = 0; i[1] < d[perm[1]]; ++i[1]) {
      for (i[2] = 0; i[2] < d[perm[2]]; ++i[2]) {
        for (i[3] = 0; i[3] < d[perm[3]]; ++i[3]) {
          int64_t src = 0;
          for (int k = 0; k < 4; ++k) src += i[k] * stride[perm[k]];
          std::memcpy(out.data() + n * elem, data.data() + static_cast<size_t>(src) * elem, elem);
          ++n;
        }
      }
    }
  }
  return out;
}

}  // namespace tigris::testing

#endif  // TIGRIS_TESTS_EMIT_EMIT_TEST_UTIL_H_
