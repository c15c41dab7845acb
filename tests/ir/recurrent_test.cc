// ir/recurrent.h: the sizes of RNN, GRU and LSTM from X and R in both layouts, and their
// gate functions as onnxruntime reads ONNX's attributes (rnn_helpers.cc: a function takes
// the next activation_alpha / activation_beta only if it has that parameter; a list run
// short leaves the default).
#include "ir/recurrent.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tigris::ir {
namespace {

Op RecurrentOp(OpType type) {
  Op op;
  op.type = type;
  op.name = "rnn";
  return op;
}

TEST(RecurrentShapeTest, SizesAndAxesInBothLayouts) {
  RecurrentShape s;
  ASSERT_EQ(ResolveRecurrentShape(OpType::kGRU, {7, 2, 5}, {2, 12, 4}, 0, &s), "");
  EXPECT_EQ(s.seq_length, 7);
  EXPECT_EQ(s.batch, 2);
  EXPECT_EQ(s.input_size, 5);
  EXPECT_EQ(s.hidden_size, 4);
  EXPECT_EQ(s.directions, 2);
  EXPECT_EQ(s.Y(), (std::vector<int64_t>{7, 2, 2, 4}));
  EXPECT_EQ(s.State(), (std::vector<int64_t>{2, 2, 4}));
  ASSERT_EQ(ResolveRecurrentShape(OpType::kGRU, {2, 7, 5}, {2, 12, 4}, 1, &s), "");
  EXPECT_EQ(s.seq_length, 7);
  EXPECT_EQ(s.batch, 2);
  EXPECT_EQ(s.Y(), (std::vector<int64_t>{2, 7, 2, 4}));
  EXPECT_EQ(s.State(), (std::vector<int64_t>{2, 2, 4}));
  EXPECT_EQ(s.XAxes(), (std::vector<int64_t>{1, 0, 2}));      // sequence, batch, input
  EXPECT_EQ(s.YAxes(), (std::vector<int64_t>{1, 2, 0, 3}));   // sequence, direction, batch, hidden
  EXPECT_EQ(s.StateAxes(), (std::vector<int64_t>{1, 0, 2}));  // direction, batch, hidden
}

TEST(RecurrentShapeTest, WhatIsWrongIsSaid) {
  RecurrentShape s;
  EXPECT_NE(ResolveRecurrentShape(OpType::kLSTM, {7, 2, 5}, {1, 12, 4}, 0, &s).find("[D, 4 H, H]"),
            std::string::npos);
  EXPECT_NE(ResolveRecurrentShape(OpType::kRNN, {7, 5}, {1, 4, 4}, 0, &s).find("rank 3"),
            std::string::npos);
  EXPECT_NE(ResolveRecurrentShape(OpType::kRNN, {7, 2, 5}, {1, 4, 4}, 2, &s).find("layout 2"),
            std::string::npos);
}

TEST(RecurrentFunctionsTest, DefaultsPerCellAndBothDirections) {
  std::vector<RecurrentFunction> f;
  ASSERT_EQ(ResolveRecurrentFunctions(RecurrentOp(OpType::kRNN), 2, &f), "");
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].code, 1);  // Tanh
  EXPECT_EQ(f[1].code, 1);
  ASSERT_EQ(ResolveRecurrentFunctions(RecurrentOp(OpType::kLSTM), 1, &f), "");
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[0].code, 0);  // Sigmoid, Tanh, Tanh
  EXPECT_EQ(f[1].code, 1);
  EXPECT_EQ(f[2].code, 1);
}

TEST(RecurrentFunctionsTest, ParametersGoToTheFunctionsThatTakeThemInOrder) {
  Op op = RecurrentOp(OpType::kGRU);
  // Relu takes nothing; LeakyRelu the first alpha; HardSigmoid the second alpha and the
  // first beta; ThresholdedRelu finds the alphas used up and keeps its default 1.
  op.attrs.Set("activations",
               std::vector<std::string>{"relu", "LeakyRelu", "HARDSIGMOID", "ThresholdedRelu"});
  op.attrs.Set("activation_alpha", std::vector<float>{0.5f, 0.25f});
  op.attrs.Set("activation_beta", std::vector<float>{0.75f});
  std::vector<RecurrentFunction> f;
  ASSERT_EQ(ResolveRecurrentFunctions(op, 2, &f), "");
  ASSERT_EQ(f.size(), 4u);
  EXPECT_EQ(f[0].code, 2);
  EXPECT_EQ(f[1].code, 4);
  EXPECT_EQ(f[1].alpha, 0.5f);
  EXPECT_EQ(f[2].code, 3);
  EXPECT_EQ(f[2].alpha, 0.25f);
  EXPECT_EQ(f[2].beta, 0.75f);
  EXPECT_EQ(f[3].code, 5);
  EXPECT_EQ(f[3].alpha, 1.0f);
}

TEST(RecurrentFunctionsTest, RefusalsNameTheProblem) {
  std::vector<RecurrentFunction> f;
  Op op = RecurrentOp(OpType::kLSTM);
  op.attrs.Set("activations", std::vector<std::string>{"Sigmoid", "Tanh"});
  EXPECT_NE(ResolveRecurrentFunctions(op, 1, &f).find("take 3"), std::string::npos);
  op.attrs.Set("activations", std::vector<std::string>{"Sigmoid", "Gelu", "Tanh"});
  EXPECT_NE(ResolveRecurrentFunctions(op, 1, &f).find("'Gelu'"), std::string::npos);
  op.attrs.Set("activations", std::vector<std::string>{"Sigmoid", "Affine", "Tanh"});
  op.attrs.Set("activation_alpha", std::vector<float>{2.0f});
  EXPECT_NE(ResolveRecurrentFunctions(op, 1, &f).find("activation_beta"), std::string::npos);
}

TEST(RecurrentOutputRolesTest, PositionsUntilTheAttributeSaysOtherwise) {
  Op op = RecurrentOp(OpType::kLSTM);
  op.outputs = {kNoTensor, 4, 5};
  EXPECT_EQ(RecurrentOutputRoles(op), (std::vector<int64_t>{0, 1, 2}));
  op.outputs = {5};
  op.attrs.Set("output_roles", std::vector<int64_t>{2});
  EXPECT_EQ(RecurrentOutputRoles(op), (std::vector<int64_t>{2}));
}

}  // namespace
}  // namespace tigris::ir
