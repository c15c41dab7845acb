#include "ir/recurrent.h"

#include <cctype>

namespace tigris::ir {
namespace {

// ONNX's activation names (RNN, GRU and LSTM specs) in RecurrentActivation's code order,
// with the parameters each takes and ONNX's defaults for them (the operators of the same
// name; Affine and ScaledTanh have no operator, so no default: a model must give them).
struct FunctionInfo {
  const char* name;
  int params;  // 0, 1 (alpha) or 2 (alpha, beta)
  float alpha, beta;
  bool needs_values;
};
constexpr FunctionInfo kFunctions[] = {
    {"sigmoid", 0, 0.0f, 0.0f, false},    {"tanh", 0, 0.0f, 0.0f, false},
    {"relu", 0, 0.0f, 0.0f, false},       {"hardsigmoid", 2, 0.2f, 0.5f, false},
    {"leakyrelu", 1, 0.01f, 0.0f, false}, {"thresholdedrelu", 1, 1.0f, 0.0f, false},
    {"scaledtanh", 2, 0.0f, 0.0f, true},  {"affine", 2, 0.0f, 0.0f, true},
    {"elu", 1, 1.0f, 0.0f, false},        {"softsign", 0, 0.0f, 0.0f, false},
    {"softplus", 0, 0.0f, 0.0f, false},
};

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

int64_t RecurrentGates(OpType type) {
  return type == OpType::kLSTM ? 4 : type == OpType::kGRU ? 3 : 1;
}

size_t RecurrentFunctions(OpType type) {
  return type == OpType::kLSTM ? 3 : type == OpType::kGRU ? 2 : 1;
}

std::vector<int64_t> RecurrentOutputRoles(const Op& op) {
  if (op.attrs.Has("output_roles")) return op.attrs.GetInts("output_roles");
  std::vector<int64_t> roles;
  for (size_t i = 0; i < op.outputs.size(); ++i) roles.push_back(static_cast<int64_t>(i));
  return roles;
}

std::string ResolveRecurrentFunctions(const Op& op, int64_t directions,
                                      std::vector<RecurrentFunction>* out) {
  const size_t per = RecurrentFunctions(op.type);
  std::vector<std::string> names;
  if (op.attrs.Has("activations")) {
    names = op.attrs.GetStrings("activations");
  } else if (op.type == OpType::kRNN) {
    names = {"Tanh"};
  } else {
    names = {"Sigmoid", "Tanh", "Tanh"};
    names.resize(per);
  }
  const size_t want = per * static_cast<size_t>(directions);
  if (names.size() == per && want == 2 * per) {
    const std::vector<std::string> one = names;
    names.insert(names.end(), one.begin(), one.end());
  }
  if (names.size() != want) {
    return "activations lists " + std::to_string(names.size()) + " functions; " +
           std::to_string(directions) + " direction(s) of " + std::string(OpTypeName(op.type)) +
           " take " + std::to_string(want);
  }
  const std::vector<float> alphas = op.attrs.GetFloats("activation_alpha");
  const std::vector<float> betas = op.attrs.GetFloats("activation_beta");
  size_t next_alpha = 0, next_beta = 0;
  out->clear();
  for (const std::string& name : names) {
    const std::string key = Lower(name);
    int32_t code = -1;
    for (size_t c = 0; c < std::size(kFunctions); ++c) {
      if (key == kFunctions[c].name) code = static_cast<int32_t>(c);
    }
    if (code < 0) {
      return "activation '" + name +
             "' (ONNX's recurrent activations: Relu, Tanh, Sigmoid, Affine, LeakyRelu, "
             "ThresholdedRelu, ScaledTanh, HardSigmoid, Elu, Softsign, Softplus)";
    }
    const FunctionInfo& info = kFunctions[code];
    RecurrentFunction f;
    f.code = code;
    f.alpha = info.alpha;
    f.beta = info.beta;
    if (info.params >= 1) {
      if (next_alpha < alphas.size()) {
        f.alpha = alphas[next_alpha++];
      } else if (info.needs_values) {
        return "activation '" + name + "' needs a value in activation_alpha";
      }
    }
    if (info.params >= 2) {
      if (next_beta < betas.size()) {
        f.beta = betas[next_beta++];
      } else if (info.needs_values) {
        return "activation '" + name + "' needs a value in activation_beta";
      }
    }
    out->push_back(f);
  }
  return "";
}

std::vector<int64_t> RecurrentShape::Y() const {
  if (layout == 1) return {batch, seq_length, directions, hidden_size};
  return {seq_length, directions, batch, hidden_size};
}

std::vector<int64_t> RecurrentShape::State() const {
  if (layout == 1) return {batch, directions, hidden_size};
  return {directions, batch, hidden_size};
}

std::vector<int64_t> RecurrentShape::XAxes() const {
  if (layout == 1) return {1, 0, 2};
  return {0, 1, 2};
}

std::vector<int64_t> RecurrentShape::YAxes() const {
  if (layout == 1) return {1, 2, 0, 3};
  return {0, 1, 2, 3};
}

std::vector<int64_t> RecurrentShape::StateAxes() const {
  if (layout == 1) return {1, 0, 2};
  return {0, 1, 2};
}

std::string ResolveRecurrentShape(OpType type, const std::vector<int64_t>& x,
                                  const std::vector<int64_t>& r, int64_t layout,
                                  RecurrentShape* out) {
  if (layout != 0 && layout != 1) return "layout " + std::to_string(layout) + " (ONNX: 0 or 1)";
  if (x.size() != 3) return "X must have rank 3, got rank " + std::to_string(x.size());
  if (r.size() != 3) return "R must have rank 3 [D, G H, H], got rank " + std::to_string(r.size());
  RecurrentShape s;
  s.layout = layout;
  s.seq_length = x[layout == 1 ? 1 : 0];
  s.batch = x[layout == 1 ? 0 : 1];
  s.input_size = x[2];
  s.directions = r[0];
  s.hidden_size = r[2];
  if (s.hidden_size < 1 || r[1] != RecurrentGates(type) * s.hidden_size) {
    return "R's shape [" + std::to_string(r[0]) + ", " + std::to_string(r[1]) + ", " +
           std::to_string(r[2]) + "] is not [D, " + std::to_string(RecurrentGates(type)) + " H, H]";
  }
  if (s.seq_length < 1 || s.batch < 1 || s.input_size < 1) return "X has an empty axis";
  *out = s;
  return "";
}

}  // namespace tigris::ir
