// Integer ops over static shapes and constants, evaluated at import: TFLite's converter
// writes a Keras Flatten (and other reshapes whose batch is dynamic in the Keras model) as
// SHAPE -> STRIDED_SLICE -> PACK -> RESHAPE, computing the target shape at run time. Our
// shapes are static, so the chain is a constant; RESHAPE itself takes the shape its
// output tensor states. Nothing here reaches the plan.
#include <algorithm>

#include "tflite/op_import.h"

namespace tigris::tflite_import {
namespace {

bool IsIntegerConstant(const ModelImporter& m, int index) {
  const fb::TensorType type = m.Tensor(index).type();
  return m.IsConstant(index) && (type == fb::TensorType::INT32 || type == fb::TensorType::INT64);
}

// TFLite's strided slice over a 1-D constant (reference kernel strided_slice.h: masks
// first, then negative indices count from the end and are clamped into range).
std::vector<int64_t> Slice1D(const ModelImporter& m, const OpSite& site,
                             const std::vector<int64_t>& values, const fb::StridedSliceOptions& o) {
  const int64_t n = static_cast<int64_t>(values.size());
  const std::vector<int64_t> b = m.ConstantInts(site, m.Input(site, 1));
  const std::vector<int64_t> e = m.ConstantInts(site, m.Input(site, 2));
  const std::vector<int64_t> s = m.ConstantInts(site, m.Input(site, 3));
  if (b.size() != 1 || e.size() != 1 || s.size() != 1 || s[0] == 0) {
    m.Refuse(site, Status::kInvalidModel, "a 1-D slice needs one begin, end and nonzero stride");
  }
  const int64_t step = s[0];
  const auto clamp = [&](int64_t v, bool forward) {
    if (v < 0) v += n;
    return forward ? std::clamp<int64_t>(v, 0, n) : std::clamp<int64_t>(v, -1, n - 1);
  };
  const bool forward = step > 0;
  int64_t start = (o.begin_mask() & 1) ? (forward ? 0 : n - 1) : clamp(b[0], forward);
  int64_t stop = (o.end_mask() & 1) ? (forward ? n : -1) : clamp(e[0], forward);
  if (o.shrink_axis_mask() & 1) {
    start = b[0] < 0 ? b[0] + n : b[0];
    if (start < 0 || start >= n) {
      m.Refuse(site, Status::kInvalidModel,
               "it keeps index " + std::to_string(b[0]) + " of " + std::to_string(n) + " values");
    }
    return {values[static_cast<size_t>(start)]};
  }
  std::vector<int64_t> out;
  for (int64_t i = start; forward ? i < stop : i > stop; i += step) {
    out.push_back(values[static_cast<size_t>(i)]);
  }
  return out;
}

}  // namespace

bool FoldIntegerOp(ModelImporter& m, const OpSite& site) {
  using Op = fb::BuiltinOperator;
  switch (site.code) {
    case Op::SHAPE:
      m.DefineFolded(site, m.Output(site, 0), m.TflShape(m.Input(site, 0)));
      return true;
    case Op::STRIDED_SLICE: {
      const int x = m.Input(site, 0);
      const auto* o = site.op->builtin_options_as_StridedSliceOptions();
      if (!o || !IsIntegerConstant(m, x) || m.Rank(x) != 1) return false;
      if (o->ellipsis_mask() != 0 || o->new_axis_mask() != 0 || o->offset()) return false;
      m.DefineFolded(site, m.Output(site, 0), Slice1D(m, site, m.ConstantInts(site, x), *o));
      return true;
    }
    case Op::PACK: {
      const auto* o = site.op->builtin_options_as_PackOptions();
      std::vector<int64_t> values;
      for (size_t i = 0; i < m.NumInputs(site); ++i) {
        const int x = m.Input(site, i);
        if (!IsIntegerConstant(m, x) || m.Rank(x) > 1 || (o && o->axis() != 0)) {
          m.Refuse(site, Status::kUnsupportedOp,
                   "only PACK of constant integer scalars or vectors along axis 0 is "
                   "supported (the shapes converters compute)");
        }
        const std::vector<int64_t> v = m.ConstantInts(site, x);
        values.insert(values.end(), v.begin(), v.end());
      }
      m.DefineFolded(site, m.Output(site, 0), values);
      return true;
    }
    default:
      return false;
  }
}

}  // namespace tigris::tflite_import
