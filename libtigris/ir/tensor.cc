#include "ir/tensor.h"

#include "util/error.h"

namespace tigris::ir {
namespace {

template <typename Out, typename In>
void AppendConverted(const Tensor& t, std::vector<Out>& out) {
  size_t n = t.data.size() / sizeof(In);
  out.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    In v;
    std::memcpy(&v, t.data.data() + i * sizeof(In), sizeof(In));
    out.push_back(static_cast<Out>(v));
  }
}

template <typename Out>
std::vector<Out> Convert(const Tensor& t) {
  if (!t.is_constant) {
    throw Error(Status::kInvalidModel, "tensor '" + t.name + "' must be a constant here");
  }
  std::vector<Out> out;
  switch (t.dtype) {
    case DType::kFloat32:
      AppendConverted<Out, float>(t, out);
      break;
    case DType::kFloat64:
      AppendConverted<Out, double>(t, out);
      break;
    case DType::kInt8:
      AppendConverted<Out, int8_t>(t, out);
      break;
    case DType::kUInt8:
      AppendConverted<Out, uint8_t>(t, out);
      break;
    case DType::kBool:
      AppendConverted<Out, uint8_t>(t, out);
      break;
    case DType::kInt16:
      AppendConverted<Out, int16_t>(t, out);
      break;
    case DType::kUInt16:
      AppendConverted<Out, uint16_t>(t, out);
      break;
    case DType::kInt32:
      AppendConverted<Out, int32_t>(t, out);
      break;
    case DType::kInt64:
      AppendConverted<Out, int64_t>(t, out);
      break;
    default:
      throw Error(Status::kUnsupportedDType, "constant '" + t.name + "' has dtype " +
                                                 std::string(DTypeName(t.dtype)) +
                                                 ", which cannot be read as numbers here");
  }
  return out;
}

}  // namespace

std::vector<double> ConstantAsDoubles(const Tensor& tensor) { return Convert<double>(tensor); }
std::vector<int64_t> ConstantAsInt64s(const Tensor& tensor) { return Convert<int64_t>(tensor); }

}  // namespace tigris::ir
