#include "ir/slice.h"

#include <algorithm>
#include <cstdint>

namespace tigris::ir {

std::string ResolveSlice(const Shape& in, const std::vector<int64_t>& starts,
                         const std::vector<int64_t>& ends, std::vector<int64_t> axes,
                         std::vector<int64_t> steps, SliceWindow* out) {
  const int64_t rank = static_cast<int64_t>(in.size());
  if (axes.empty()) {
    for (size_t i = 0; i < starts.size(); ++i) axes.push_back(static_cast<int64_t>(i));
  }
  if (steps.empty()) steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() ||
      steps.size() != starts.size()) {
    return "starts, ends, axes and steps must have the same length";
  }
  out->first.assign(in.size(), 0);
  out->step.assign(in.size(), 1);
  out->extent = in;
  std::vector<bool> named(in.size(), false);
  for (size_t i = 0; i < starts.size(); ++i) {
    int64_t axis = axes[i];
    if (axis < -rank || axis >= rank) {
      return "axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank);
    }
    if (axis < 0) axis += rank;
    const size_t a = static_cast<size_t>(axis);
    if (named[a]) return "axis " + std::to_string(axes[i]) + " is named twice";
    named[a] = true;
    const int64_t dim = in[a];
    const int64_t step = steps[i];
    if (step == 0) return "step 0 on axis " + std::to_string(axes[i]);
    int64_t start = starts[i] < 0 ? starts[i] + dim : starts[i];
    int64_t end = ends[i] < 0 ? ends[i] + dim : ends[i];
    int64_t extent = 0;
    if (dim == 0) {
      start = 0;
    } else if (step > 0) {
      start = std::clamp(start, int64_t{0}, dim);
      end = std::clamp(end, int64_t{0}, dim);
      extent = end > start ? (end - start - 1) / step + 1 : 0;  // no overflow for huge steps
    } else {
      start = std::clamp(start, int64_t{0}, dim - 1);
      end = std::clamp(end, int64_t{-1}, dim - 1);
      const int64_t stride = step == INT64_MIN ? INT64_MAX : -step;
      extent = start > end ? (start - end - 1) / stride + 1 : 0;
    }
    out->first[a] = start;
    out->step[a] = step;
    out->extent[a] = extent;
  }
  return "";
}

std::string ResolvePads(size_t rank, const std::vector<int64_t>& pads, std::vector<int64_t> axes,
                        std::vector<int64_t>* out) {
  const int64_t r = static_cast<int64_t>(rank);
  if (axes.empty()) {
    for (int64_t a = 0; a < r; ++a) axes.push_back(a);
  }
  if (pads.size() != 2 * axes.size()) {
    return "pads has " + std::to_string(pads.size()) + " entries for " +
           std::to_string(axes.size()) + " axes";
  }
  out->assign(2 * rank, 0);
  std::vector<bool> seen(rank, false);
  for (size_t i = 0; i < axes.size(); ++i) {
    const int64_t a = axes[i] < 0 ? axes[i] + r : axes[i];
    if (a < 0 || a >= r || seen[static_cast<size_t>(a)]) {
      return "axis " + std::to_string(axes[i]) + " is out of range or repeated";
    }
    seen[static_cast<size_t>(a)] = true;
    (*out)[static_cast<size_t>(a)] = pads[i];
    (*out)[static_cast<size_t>(a) + rank] = pads[i + axes.size()];
  }
  return "";
}

}  // namespace tigris::ir
