// RNN, GRU and LSTM (runtime/kernels/recurrent.c) on one hidden unit and one input feature,
// where the ONNX equations can be followed by hand: the expected values are written out
// from the specs' formulas, step by step, in double.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "tgrs_kernels.h"

namespace tigris {
namespace {

double Sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// One direction, one batch entry, one input, one hidden unit: X [S, 1, 1], Y [S, 1, 1, 1].
tgrs_recurrent_params Scalar(int32_t cell, int32_t steps) {
  tgrs_recurrent_params p = {};
  p.cell = cell;
  p.seq_length = steps;
  p.batch = 1;
  p.input_size = 1;
  p.hidden_size = 1;
  p.directions = 1;
  p.fn[0][0] = {TGRS_RECURRENT_SIGMOID, 0.0f, 0.0f};
  p.fn[0][1] = {TGRS_RECURRENT_TANH, 0.0f, 0.0f};
  p.fn[0][2] = {TGRS_RECURRENT_TANH, 0.0f, 0.0f};
  p.x_stride[0] = 1;
  p.y_stride[0] = 1;
  return p;
}

TEST(RecurrentKernel, RnnFollowsItsRecurrenceExactly) {
  // f = Affine(1, 0), the identity: H_t = 2 X_t + 0.5 H_{t-1} + (0.25 + 0.25).
  tgrs_recurrent_params p = Scalar(TGRS_CELL_RNN, 3);
  p.fn[0][0] = {TGRS_RECURRENT_AFFINE, 1.0f, 0.0f};
  const float x[] = {1.0f, 0.0f, -1.0f}, w[] = {2.0f}, r[] = {0.5f}, b[] = {0.25f, 0.25f};
  std::vector<float> scratch(tgrs_recurrent_scratch_bytes(TGRS_CELL_RNN, 1) / 4);
  float y[3], y_h[1];
  ASSERT_EQ(tgrs_recurrent_f32(scratch.data(), scratch.size() * 4, &p, x, w, r, b, nullptr, nullptr,
                               nullptr, nullptr, y, y_h, nullptr),
            TGRS_KERNEL_OK);
  // 2 + 0.5 = 2.5; 0 + 1.25 + 0.5 = 1.75; -2 + 0.875 + 0.5 = -0.625 (all exact in float)
  EXPECT_EQ(y[0], 2.5f);
  EXPECT_EQ(y[1], 1.75f);
  EXPECT_EQ(y[2], -0.625f);
  EXPECT_EQ(y_h[0], -0.625f);
}

TEST(RecurrentKernel, ReverseWithAShortSequenceZeroesThePadding) {
  // Reverse over a length-2 sequence of 3: steps t = 1 then t = 0; Y[2] = 0.
  tgrs_recurrent_params p = Scalar(TGRS_CELL_RNN, 3);
  p.reverse = 1;
  p.fn[0][0] = {TGRS_RECURRENT_AFFINE, 1.0f, 0.0f};
  const float x[] = {1.0f, 4.0f, 100.0f}, w[] = {1.0f}, r[] = {0.5f};
  const int32_t lens[] = {2};
  const float h0[] = {2.0f};
  std::vector<float> scratch(tgrs_recurrent_scratch_bytes(TGRS_CELL_RNN, 1) / 4);
  float y[3] = {-1, -1, -1}, y_h[1];
  ASSERT_EQ(tgrs_recurrent_f32(scratch.data(), scratch.size() * 4, &p, x, w, r, nullptr, lens, h0,
                               nullptr, nullptr, y, y_h, nullptr),
            TGRS_KERNEL_OK);
  EXPECT_EQ(y[1], 5.0f);  // 4 + 0.5 * 2
  EXPECT_EQ(y[0], 3.5f);  // 1 + 0.5 * 5
  EXPECT_EQ(y[2], 0.0f);
  EXPECT_EQ(y_h[0], 3.5f);
}

TEST(RecurrentKernel, GruBothResetForms) {
  // W = [z, r, h] = [0.5, -1, 2], R = [1, 0.5, -0.5], Wb = [0.1, 0.2, 0.3], Rb = [0, 0, 0.4].
  const float x[] = {1.0f, -0.5f}, w[] = {0.5f, -1.0f, 2.0f}, r[] = {1.0f, 0.5f, -0.5f};
  const float b[] = {0.1f, 0.2f, 0.3f, 0.0f, 0.0f, 0.4f};
  for (int lbr = 0; lbr <= 1; ++lbr) {
    tgrs_recurrent_params p = Scalar(TGRS_CELL_GRU, 2);
    p.linear_before_reset = lbr;
    std::vector<float> scratch(tgrs_recurrent_scratch_bytes(TGRS_CELL_GRU, 1) / 4);
    float y[2], y_h[1];
    ASSERT_EQ(tgrs_recurrent_f32(scratch.data(), scratch.size() * 4, &p, x, w, r, b, nullptr,
                                 nullptr, nullptr, nullptr, y, y_h, nullptr),
              TGRS_KERNEL_OK);
    double h = 0.0;
    for (int t = 0; t < 2; ++t) {
      const double z = Sigmoid(0.5 * x[t] + 1.0 * h + 0.1);
      const double rr = Sigmoid(-1.0 * x[t] + 0.5 * h + 0.2);
      const double pre = lbr ? 2.0 * x[t] + 0.3 + rr * (-0.5 * h + 0.4)
                             : 2.0 * x[t] + 0.3 + (-0.5 * (rr * h) + 0.4);
      h = (1.0 - z) * std::tanh(pre) + z * h;
      EXPECT_NEAR(y[t], h, 1e-6) << "linear_before_reset " << lbr << " step " << t;
    }
    EXPECT_NEAR(y_h[0], h, 1e-6);
  }
}

TEST(RecurrentKernel, LstmWithPeepholesAndClip) {
  // Gates [i, o, f, c]: Wb = [0.1, 0, 0.2, -0.1], Rb = [0, 0.3, 0, 0]; P = [i, o, f]; clip
  // 1.5 bounds every gate's input.
  tgrs_recurrent_params p = Scalar(TGRS_CELL_LSTM, 3);
  p.clip = 1.5f;
  const float x[] = {0.5f, -1.0f, 2.0f};
  const float w[] = {1.0f, -0.5f, 0.25f, 2.0f}, r[] = {0.5f, 1.0f, -1.0f, 0.75f};
  const float b[] = {0.1f, 0.0f, 0.2f, -0.1f, 0.0f, 0.3f, 0.0f, 0.0f};
  const float peep[] = {0.5f, -0.25f, 1.0f};
  const float h0[] = {0.2f}, c0[] = {-0.4f};
  std::vector<float> scratch(tgrs_recurrent_scratch_bytes(TGRS_CELL_LSTM, 1) / 4);
  float y[3], y_h[1], y_c[1];
  ASSERT_EQ(tgrs_recurrent_f32(scratch.data(), scratch.size() * 4, &p, x, w, r, b, nullptr, h0, c0,
                               peep, y, y_h, y_c),
            TGRS_KERNEL_OK);
  const auto clip = [](double v) { return std::fmax(-1.5, std::fmin(1.5, v)); };
  double h = 0.2, c = -0.4;
  for (int t = 0; t < 3; ++t) {
    const double i = Sigmoid(clip(1.0 * x[t] + 0.5 * h + 0.5 * c + 0.1 + 0.0));
    const double f = Sigmoid(clip(0.25 * x[t] - 1.0 * h + 1.0 * c + 0.2 + 0.0));
    const double ct = std::tanh(clip(2.0 * x[t] + 0.75 * h - 0.1 + 0.0));
    c = f * c + i * ct;
    const double o = Sigmoid(clip(-0.5 * x[t] + 1.0 * h - 0.25 * c + 0.0 + 0.3));
    h = o * std::tanh(c);
    EXPECT_NEAR(y[t], h, 1e-6) << "step " << t;
  }
  EXPECT_NEAR(y_h[0], h, 1e-6);
  EXPECT_NEAR(y_c[0], c, 1e-6);
}

TEST(RecurrentKernel, RefusesWhatItCannotRun) {
  tgrs_recurrent_params p = Scalar(TGRS_CELL_GRU, 2);
  const float x[] = {1.0f, 2.0f}, w[] = {1, 1, 1}, r[] = {1, 1, 1};
  std::vector<float> scratch(tgrs_recurrent_scratch_bytes(TGRS_CELL_GRU, 1) / 4);
  float y_h[1];
  const int32_t too_long[] = {3}, empty[] = {0};
  EXPECT_EQ(tgrs_recurrent_f32(scratch.data(), scratch.size() * 4, &p, x, w, r, nullptr, too_long,
                               nullptr, nullptr, nullptr, nullptr, y_h, nullptr),
            TGRS_KERNEL_INDEX_OUT_OF_RANGE);
  EXPECT_EQ(tgrs_recurrent_f32(scratch.data(), scratch.size() * 4, &p, x, w, r, nullptr, empty,
                               nullptr, nullptr, nullptr, nullptr, y_h, nullptr),
            TGRS_KERNEL_INDEX_OUT_OF_RANGE);
  EXPECT_EQ(tgrs_recurrent_f32(scratch.data(), scratch.size() * 4 - 4, &p, x, w, r, nullptr,
                               nullptr, nullptr, nullptr, nullptr, nullptr, y_h, nullptr),
            TGRS_KERNEL_BAD_ARGUMENT);
  p.fn[0][1].kind = TGRS_RECURRENT_ACTIVATION_COUNT;
  EXPECT_EQ(tgrs_recurrent_f32(scratch.data(), scratch.size() * 4, &p, x, w, r, nullptr, nullptr,
                               nullptr, nullptr, nullptr, nullptr, y_h, nullptr),
            TGRS_KERNEL_BAD_ARGUMENT);
  EXPECT_EQ(tgrs_recurrent_scratch_bytes(7, 4), 0u);
}

}  // namespace
}  // namespace tigris
