#include "plan/exact_layout.h"

#include <Cbc_C_Interface.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "analysis/alignment.h"
#include "plan/offset_layout.h"

namespace tigris::plan {
namespace {

using analysis::kArenaAlignment;

bool Overlap(const Interval& a, const Interval& b) {
  return a.first <= b.last && b.first <= a.last;
}

// True when no two buffers live at one step share a byte: the solver's answer is checked,
// never trusted (a tolerance slip would corrupt an arena on the device).
bool Disjoint(const std::vector<Interval>& intervals, const std::vector<int64_t>& offsets) {
  for (size_t i = 0; i < intervals.size(); ++i) {
    const int64_t si = analysis::AlignUp(intervals[i].size);
    if (offsets[i] < 0 || offsets[i] % kArenaAlignment != 0) return false;
    for (size_t j = i + 1; j < intervals.size(); ++j) {
      const int64_t sj = analysis::AlignUp(intervals[j].size);
      if (si == 0 || sj == 0 || !Overlap(intervals[i], intervals[j])) continue;
      if (offsets[i] < offsets[j] + sj && offsets[j] < offsets[i] + si) return false;
    }
  }
  return true;
}

int64_t PeakOf(const std::vector<Interval>& intervals, const std::vector<int64_t>& offsets) {
  int64_t peak = 0;
  for (size_t i = 0; i < intervals.size(); ++i) {
    const int64_t size = analysis::AlignUp(intervals[i].size);
    if (size > 0) peak = std::max(peak, offsets[i] + size);
  }
  return peak;
}

struct CbcDeleter {
  void operator()(Cbc_Model* model) const { Cbc_deleteModel(model); }
};

// CBC keeps process-wide state in its command-line driver (Cbc_solve runs CbcMain1): one
// solve at a time.
std::mutex& SolverMutex() {
  static std::mutex mutex;
  return mutex;
}

}  // namespace

ExactLayoutResult SolveExactLayout(const std::vector<Interval>& intervals,
                                   const std::vector<int64_t>& start_offsets, int64_t start_peak,
                                   int64_t floor_bytes, double seconds) {
  const int64_t live_bound = LiveLowerBound(intervals);
  ExactLayoutResult result;
  result.offsets = start_offsets;
  result.peak_bytes = start_peak;
  result.lower_bound_bytes = live_bound;
  const int64_t floor = std::max(floor_bytes, live_bound);
  auto finish = [&] {
    result.optimal = result.peak_bytes == result.lower_bound_bytes;
    result.reached_floor = result.peak_bytes <= floor;
    return result;
  };
  if (start_peak <= floor || seconds <= 0) return finish();

  // Columns: the offsets o_i, the peak P, then one binary per conflicting pair, all in units
  // of the alignment (sizes are multiples of it, so an optimal layout is one too).
  const int n = static_cast<int>(intervals.size());
  std::vector<double> units(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    units[static_cast<size_t>(i)] = static_cast<double>(
        analysis::AlignUp(intervals[static_cast<size_t>(i)].size) / kArenaAlignment);
  }
  std::vector<std::pair<int, int>> conflicts;
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      if (units[static_cast<size_t>(i)] > 0 && units[static_cast<size_t>(j)] > 0 &&
          Overlap(intervals[static_cast<size_t>(i)], intervals[static_cast<size_t>(j)])) {
        conflicts.emplace_back(i, j);
      }
    }
  }
  const double big_m = static_cast<double>(start_peak / kArenaAlignment);
  const int peak_col = n;

  std::lock_guard<std::mutex> lock(SolverMutex());
  std::unique_ptr<Cbc_Model, CbcDeleter> model(Cbc_newModel());
  Cbc_Model* m = model.get();
  Cbc_setLogLevel(m, 0);
  for (int i = 0; i < n; ++i) {
    const std::string name = "o" + std::to_string(i);
    Cbc_addCol(m, name.c_str(), 0.0, std::max(0.0, big_m - units[static_cast<size_t>(i)]), 0.0, 0,
               0, nullptr, nullptr);
  }
  Cbc_addCol(m, "peak", static_cast<double>(floor / kArenaAlignment), big_m, 1.0, 0, 0, nullptr,
             nullptr);
  for (size_t k = 0; k < conflicts.size(); ++k) {
    const std::string name = "z" + std::to_string(k);
    Cbc_addCol(m, name.c_str(), 0.0, 1.0, 0.0, 1, 0, nullptr, nullptr);
  }
  for (int i = 0; i < n; ++i) {  // o_i + s_i <= P
    const int cols[2] = {i, peak_col};
    const double coefs[2] = {1.0, -1.0};
    Cbc_addRow(m, "", 2, cols, coefs, 'L', -units[static_cast<size_t>(i)]);
  }
  for (size_t k = 0; k < conflicts.size(); ++k) {
    const auto [i, j] = conflicts[k];
    const int z = peak_col + 1 + static_cast<int>(k);
    // z = 1: i below j (o_i + s_i <= o_j); z = 0: j below i (o_j + s_j <= o_i).
    const int below_cols[3] = {i, j, z};
    const double below[3] = {1.0, -1.0, big_m};
    Cbc_addRow(m, "", 3, below_cols, below, 'L', big_m - units[static_cast<size_t>(i)]);
    const double above[3] = {-1.0, 1.0, -big_m};
    Cbc_addRow(m, "", 3, below_cols, above, 'L', -units[static_cast<size_t>(j)]);
  }
  Cbc_setObjSense(m, 1.0);  // minimise
  Cbc_setMaximumSeconds(m, seconds);
  // The optimum is a whole number of units: a gap under one unit proves it.
  Cbc_setAllowableGap(m, 0.999);

  // The starting layout is the first incumbent.
  std::vector<int> start_cols;
  std::vector<double> start_values;
  for (int i = 0; i < n; ++i) {
    start_cols.push_back(i);
    start_values.push_back(
        static_cast<double>(start_offsets[static_cast<size_t>(i)] / kArenaAlignment));
  }
  start_cols.push_back(peak_col);
  start_values.push_back(big_m);
  for (size_t k = 0; k < conflicts.size(); ++k) {
    const auto [i, j] = conflicts[k];
    start_cols.push_back(peak_col + 1 + static_cast<int>(k));
    start_values.push_back(
        start_offsets[static_cast<size_t>(i)] < start_offsets[static_cast<size_t>(j)] ? 1.0 : 0.0);
  }
  Cbc_setMIPStartI(m, static_cast<int>(start_cols.size()), start_cols.data(), start_values.data());

  Cbc_solve(m);
  result.time_limit_reached = Cbc_isSecondsLimitReached(m) != 0;
  if (floor == live_bound) {
    // The solver's bound is a bound of the layout problem itself only when the peak's
    // lower limit was the live bound (a budget floor would fake one).
    const double bound = Cbc_getBestPossibleObjValue(m);
    if (std::isfinite(bound)) {
      const auto bound_units = static_cast<int64_t>(std::ceil(bound - 1e-6));
      result.lower_bound_bytes = std::max(live_bound, bound_units * kArenaAlignment);
    }
  }
  const double* solution = Cbc_bestSolution(m);
  if (solution) {
    // Offsets are continuous in the model; with whole-unit sizes, rounding every offset down
    // keeps each pair's order, and so the layout valid (checked below anyway).
    std::vector<int64_t> offsets(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
      offsets[static_cast<size_t>(i)] =
          static_cast<int64_t>(std::floor(solution[i] + 1e-6)) * kArenaAlignment;
    }
    const int64_t peak = PeakOf(intervals, offsets);
    if (peak < result.peak_bytes && Disjoint(intervals, offsets)) {
      result.offsets = std::move(offsets);
      result.peak_bytes = peak;
    }
  }
  result.lower_bound_bytes = std::min(result.lower_bound_bytes, result.peak_bytes);
  return finish();
}

}  // namespace tigris::plan
