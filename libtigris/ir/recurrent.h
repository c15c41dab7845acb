// ONNX RNN, GRU and LSTM, described once for the places that read them: the shape rule
// (onnx/shape_rules_recurrent.cc), the output compaction (passes/recurrent_outputs.cc), the
// verifier (passes/runtime_forms.cc), the attributes (emit/op_attrs.cc), the scratch
// (analysis/kernel_scratch.cc) and the MACs (analysis/macs.cc).
//
// Inputs by position: X, W, R, B, sequence_lens, initial_h, then LSTM's initial_c and P.
// Outputs by role: Y (every step's state), Y_h (the last state), LSTM's Y_c (the last cell).
// ONNX lists outputs by position and omits any; once recurrent-outputs has run, the op lists
// only the outputs it keeps and the attribute "output_roles" says which each is.
#ifndef TIGRIS_IR_RECURRENT_H_
#define TIGRIS_IR_RECURRENT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "ir/op.h"
#include "ir/op_type.h"

namespace tigris::ir {

enum RecurrentInput : size_t {
  kRecurrentX = 0,
  kRecurrentW,
  kRecurrentR,
  kRecurrentB,
  kRecurrentSequenceLens,
  kRecurrentInitialH,
  kRecurrentInitialC,
  kRecurrentP
};
enum RecurrentRole : int64_t { kRoleY = 0, kRoleYH = 1, kRoleYC = 2 };

inline bool IsRecurrentOp(OpType type) {
  return type == OpType::kRNN || type == OpType::kGRU || type == OpType::kLSTM;
}
// Gates per step (W's rows per hidden unit): 1, 3 (z, r, h) or 4 (i, o, f, c).
int64_t RecurrentGates(OpType type);
// Gate functions per direction: RNN f; GRU f, g; LSTM f, g, h.
size_t RecurrentFunctions(OpType type);
// The roles of the op's outputs, in order: "output_roles" once set, else ONNX's positions.
std::vector<int64_t> RecurrentOutputRoles(const Op& op);

// One gate function: a RecurrentActivation code (format/tgrs.fbs; tgrs_recurrent_activation)
// with its alpha and beta (0 where the function has none).
struct RecurrentFunction {
  int32_t code = 0;
  float alpha = 0.0f, beta = 0.0f;
};
// The op's gate functions for `directions` directions, RecurrentFunctions(type) per
// direction: "activations" (ONNX's names, any case; default Tanh, or Sigmoid, Tanh[, Tanh];
// one direction's list serves both), each taking its parameters in order from
// "activation_alpha" / "activation_beta" as onnxruntime does (a function without one takes
// none; a list run short leaves ONNX's default). An empty string, or what is wrong.
std::string ResolveRecurrentFunctions(const Op& op, int64_t directions,
                                      std::vector<RecurrentFunction>* out);

// The sizes of one recurrent op, from its inputs' shapes. layout 0: X [S, B, I], Y
// [S, D, B, H], states [D, B, H]; layout 1: X [B, S, I], Y [B, S, D, H], states [B, D, H].
struct RecurrentShape {
  int64_t seq_length = 0, batch = 0, input_size = 0, hidden_size = 0, directions = 0;
  int64_t layout = 0;
  std::vector<int64_t> Y() const;
  std::vector<int64_t> State() const;  // initial_h, initial_c, Y_h, Y_c
  // The positions of ONNX's (sequence, batch, input) in X, (sequence, direction, batch,
  // hidden) in Y, (direction, batch, hidden) in the states.
  std::vector<int64_t> XAxes() const;
  std::vector<int64_t> YAxes() const;
  std::vector<int64_t> StateAxes() const;
};

// Reads the sizes from X's and R's shapes and the layout attribute; an empty string, or what
// is wrong with them (for the caller to report naming the op).
std::string ResolveRecurrentShape(OpType type, const std::vector<int64_t>& x,
                                  const std::vector<int64_t>& r, int64_t layout,
                                  RecurrentShape* out);

}  // namespace tigris::ir

#endif  // TIGRIS_IR_RECURRENT_H_
