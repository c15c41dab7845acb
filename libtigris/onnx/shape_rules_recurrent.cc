// Shape rule of RNN, GRU and LSTM (ONNX operator specs; ir/recurrent.h). Every input is
// checked against the sizes X and R give, so the emitter and the runtime see consistent
// shapes or the model is refused here naming the input.
#include <string>
#include <vector>

#include "ir/recurrent.h"
#include "onnx/shape_rules.h"

namespace tigris::onnx_import {
namespace {

void ExpectShape(ShapeContext& ctx, size_t i, const char* name, const ir::Shape& want) {
  if (!ctx.HasInput(i)) return;
  if (ctx.InputShape(i) != want) {
    ctx.Fail(std::string(name) + " (input " + std::to_string(i) + ") is " +
             ir::ShapeToString(ctx.InputShape(i)) + "; X and R make it " + ir::ShapeToString(want));
  }
}

}  // namespace

void RecurrentRule(ShapeContext& ctx) {
  const ir::OpType type = ctx.op().type;
  ir::RecurrentShape s;
  const std::string error = ir::ResolveRecurrentShape(type, ctx.InputShape(ir::kRecurrentX),
                                                      ctx.InputShape(ir::kRecurrentR),
                                                      ctx.attrs().GetInt("layout", 0), &s);
  if (!error.empty()) ctx.Fail(error);
  const std::string direction = ctx.attrs().GetString("direction", "forward");
  const int64_t directions = direction == "bidirectional" ? 2 : 1;
  if (direction != "forward" && direction != "reverse" && direction != "bidirectional") {
    ctx.Fail("direction '" + direction + "' (ONNX: forward, reverse or bidirectional)");
  }
  if (s.directions != directions) {
    ctx.Fail("R has " + std::to_string(s.directions) + " direction(s); direction '" + direction +
             "' needs " + std::to_string(directions));
  }
  if (ctx.attrs().Has("hidden_size") && ctx.attrs().GetInt("hidden_size") != s.hidden_size) {
    ctx.Fail("hidden_size " + std::to_string(ctx.attrs().GetInt("hidden_size")) +
             " but R's last axis is " + std::to_string(s.hidden_size));
  }
  for (size_t i = 0; i < ctx.op().inputs.size(); ++i) {
    if (!ctx.HasInput(i)) continue;
    const ir::DType want =
        i == ir::kRecurrentSequenceLens ? ir::DType::kInt32 : ir::DType::kFloat32;
    if (ctx.InputDType(i) != want) {
      ctx.Fail("input " + std::to_string(i) + " '" + ctx.Input(i).name + "' is " +
               std::string(ir::DTypeName(ctx.InputDType(i))) + "; it must be " +
               std::string(ir::DTypeName(want)));
    }
  }
  const int64_t gates = ir::RecurrentGates(type) * s.hidden_size;
  ExpectShape(ctx, ir::kRecurrentW, "W", {s.directions, gates, s.input_size});
  ExpectShape(ctx, ir::kRecurrentB, "B", {s.directions, 2 * gates});
  ExpectShape(ctx, ir::kRecurrentSequenceLens, "sequence_lens", {s.batch});
  ExpectShape(ctx, ir::kRecurrentInitialH, "initial_h", s.State());
  if (type == ir::OpType::kLSTM) {
    ExpectShape(ctx, ir::kRecurrentInitialC, "initial_c", s.State());
    ExpectShape(ctx, ir::kRecurrentP, "P", {s.directions, 3 * s.hidden_size});
  } else if (ctx.op().inputs.size() > ir::kRecurrentInitialC) {
    ctx.Fail("has " + std::to_string(ctx.op().inputs.size()) + " inputs; " +
             std::string(ir::OpTypeName(type)) + " takes at most 6");
  }
  const std::vector<int64_t> roles = ir::RecurrentOutputRoles(ctx.op());
  if (roles.size() != ctx.num_outputs()) ctx.Fail("output_roles does not match its outputs");
  const size_t max_role = type == ir::OpType::kLSTM ? ir::kRoleYC : ir::kRoleYH;
  for (size_t i = 0; i < roles.size(); ++i) {
    if (roles[i] < 0 || static_cast<size_t>(roles[i]) > max_role) {
      ctx.Fail("has " + std::to_string(ctx.num_outputs()) + " outputs; " +
               std::string(ir::OpTypeName(type)) + " has " + std::to_string(max_role + 1));
    }
    ctx.SetOutput(i, ir::DType::kFloat32, roles[i] == ir::kRoleY ? s.Y() : s.State());
  }
}

}  // namespace tigris::onnx_import
