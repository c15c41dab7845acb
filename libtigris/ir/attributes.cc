#include "ir/attributes.h"

namespace tigris::ir {
namespace {

template <typename T>
T GetAs(const std::map<std::string, AttrValue>& values, const std::string& name,
        const T& fallback) {
  auto it = values.find(name);
  if (it == values.end()) return fallback;
  if (const T* v = std::get_if<T>(&it->second)) return *v;
  return fallback;
}

}  // namespace

int64_t Attributes::GetInt(const std::string& name, int64_t fallback) const {
  return GetAs<int64_t>(values_, name, fallback);
}
float Attributes::GetFloat(const std::string& name, float fallback) const {
  // ONNX stores some float-valued knobs as ints in hand-written models; accept both.
  auto it = values_.find(name);
  if (it != values_.end()) {
    if (const int64_t* i = std::get_if<int64_t>(&it->second)) return static_cast<float>(*i);
  }
  return GetAs<float>(values_, name, fallback);
}
std::string Attributes::GetString(const std::string& name, const std::string& fallback) const {
  return GetAs<std::string>(values_, name, fallback);
}
std::vector<int64_t> Attributes::GetInts(const std::string& name,
                                         const std::vector<int64_t>& fallback) const {
  return GetAs<std::vector<int64_t>>(values_, name, fallback);
}
std::vector<float> Attributes::GetFloats(const std::string& name,
                                         const std::vector<float>& fallback) const {
  return GetAs<std::vector<float>>(values_, name, fallback);
}

std::vector<std::string> Attributes::GetStrings(const std::string& name,
                                                const std::vector<std::string>& fallback) const {
  return GetAs<std::vector<std::string>>(values_, name, fallback);
}

}  // namespace tigris::ir
