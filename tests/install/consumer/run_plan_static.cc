// run_plan_static PLAN.tgrs OUT.bin: loads a .tgrs file through the C ABI of the static
// libtigris.a and runs it with the input pattern of input_pattern.h; a C++ consumer.
#include <tigris.h>

#include <cstdio>
#include <memory>
#include <vector>

#include "input_pattern.h"

namespace {

struct PlanFree {
  void operator()(tigris_execution_plan* p) const { tigris_plan_free(p); }
};

size_t Elements(const tigris_tensor_info& info) {
  size_t n = 1;
  for (size_t i = 0; i < info.rank; ++i) n *= static_cast<size_t>(info.shape[i]);
  return n;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: run_plan_static PLAN.tgrs OUT.bin\n");
    return 2;
  }
  tigris_execution_plan* raw = nullptr;
  if (tigris_plan_from_file(&raw, argv[1]) != TIGRIS_OK) {
    std::fprintf(stderr, "run_plan_static: %s\n", tigris_last_error());
    return 1;
  }
  std::unique_ptr<tigris_execution_plan, PlanFree> plan(raw);
  tigris_tensor_info in_info{}, out_info{};
  in_info.version = out_info.version = TIGRIS_TENSOR_INFO_VERSION;
  if (tigris_plan_input(plan.get(), 0, &in_info) != TIGRIS_OK ||
      tigris_plan_output(plan.get(), 0, &out_info) != TIGRIS_OK) {
    std::fprintf(stderr, "run_plan_static: %s\n", tigris_plan_last_error(plan.get()));
    return 1;
  }
  std::vector<float> x(Elements(in_info)), y(Elements(out_info));
  fill_input(x.data(), x.size());
  tigris_run_io in{TIGRIS_RUN_IO_VERSION, TIGRIS_DTYPE_FLOAT32, x.data(), x.size() * 4};
  tigris_run_io out{TIGRIS_RUN_IO_VERSION, TIGRIS_DTYPE_FLOAT32, y.data(), y.size() * 4};
  tigris_run_stats stats{};
  stats.version = TIGRIS_RUN_STATS_VERSION;
  if (tigris_plan_run(plan.get(), nullptr, &in, 1, &out, 1, &stats) != TIGRIS_OK) {
    std::fprintf(stderr, "run_plan_static: %s\n", tigris_plan_last_error(plan.get()));
    return 1;
  }
  std::printf("run_plan_static: fast high-water mark %llu of %llu bytes\n",
              static_cast<unsigned long long>(stats.fast_hwm_bytes),
              static_cast<unsigned long long>(stats.fast_arena_bytes));
  return write_bytes(argv[2], y.data(), y.size() * 4);
}
