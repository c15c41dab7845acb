// Op attributes: a small ordered map from ONNX attribute names to typed values.
// Names follow ONNX (kernel_shape, strides, pads, dilations, group, axis, perm, alpha,
// beta, ...). Normalization adds IR-only attributes, documented where they are set
// (e.g. Reshape "shape" by the shape-op fold, Resize "scales" by the scale extract).
#ifndef TIGRIS_IR_ATTRIBUTES_H_
#define TIGRIS_IR_ATTRIBUTES_H_

#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

namespace tigris::ir {

using AttrValue = std::variant<int64_t, float, std::string, std::vector<int64_t>,
                               std::vector<float>, std::vector<std::string>>;

class Attributes {
 public:
  bool Has(const std::string& name) const { return values_.count(name) != 0; }
  void Set(const std::string& name, AttrValue value) { values_[name] = std::move(value); }
  void Erase(const std::string& name) { values_.erase(name); }

  // Typed getters return the fallback when the attribute is absent or of another type.
  int64_t GetInt(const std::string& name, int64_t fallback = 0) const;
  float GetFloat(const std::string& name, float fallback = 0.0f) const;
  std::string GetString(const std::string& name, const std::string& fallback = "") const;
  std::vector<int64_t> GetInts(const std::string& name,
                               const std::vector<int64_t>& fallback = {}) const;
  std::vector<float> GetFloats(const std::string& name,
                               const std::vector<float>& fallback = {}) const;
  std::vector<std::string> GetStrings(const std::string& name,
                                      const std::vector<std::string>& fallback = {}) const;

  const std::map<std::string, AttrValue>& values() const { return values_; }
  bool operator==(const Attributes& other) const { return values_ == other.values_; }

 private:
  std::map<std::string, AttrValue> values_;  // ordered: deterministic JSON and plans
};

}  // namespace tigris::ir

#endif  // TIGRIS_IR_ATTRIBUTES_H_
