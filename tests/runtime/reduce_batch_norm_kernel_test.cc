// ReduceMean and BatchNormalization kernels (runtime/kernels/reduce.c, batch_norm.c).
#include <gtest/gtest.h>

#include <vector>

#include "runtime/reference/kernel_test_support.h"
#include "runtime/reference/requant_ref.h"
#include "tgrs_kernels.h"

namespace tigris::ref {
namespace {

TEST(ReduceMean, EveryAxisSubset) {
  const int dim[4] = {2, 3, 4, 5};
  const tgrs_dims d{2, 3, 4, 5};
  const std::vector<float> x = RandomF32(120, 600);
  for (uint32_t mask = 1; mask < 16; ++mask) {
    int out_dim[4], count = 1;
    for (int i = 0; i < 4; ++i) {
      out_dim[i] = (mask & (1u << i)) ? 1 : dim[i];
      count *= (mask & (1u << i)) ? dim[i] : 1;
    }
    std::vector<double> sum(static_cast<size_t>(out_dim[0] * out_dim[1] * out_dim[2] * out_dim[3]),
                            0.0);
    for (int a = 0; a < 2; ++a)
      for (int b = 0; b < 3; ++b)
        for (int c = 0; c < 4; ++c)
          for (int e = 0; e < 5; ++e) {
            const int o[4] = {mask & 1 ? 0 : a, mask & 2 ? 0 : b, mask & 4 ? 0 : c,
                              mask & 8 ? 0 : e};
            sum[((o[0] * out_dim[1] + o[1]) * out_dim[2] + o[2]) * out_dim[3] + o[3]] +=
                x[((a * 3 + b) * 4 + c) * 5 + e];
          }
    std::vector<float> got(sum.size());
    ASSERT_EQ(tgrs_reduce_mean_f32(mask, &d, x.data(), got.data()), TGRS_KERNEL_OK);
    for (size_t i = 0; i < sum.size(); ++i) EXPECT_NEAR(got[i], sum[i] / count, 1e-6) << mask;
  }
}

TEST(BatchNorm, F32IsPerChannelAffine) {
  const tgrs_dims d{2, 3, 2, 4};
  const std::vector<float> x = RandomF32(48, 610), scale{0.5f, -2.0f, 1.0f, 3.0f},
                           shift{1.0f, 0.0f, -0.5f, 0.25f};
  std::vector<float> y(48);
  ASSERT_EQ(tgrs_batch_norm_f32(&d, scale.data(), shift.data(), x.data(), y.data()),
            TGRS_KERNEL_OK);
  for (int i = 0; i < 48; ++i) EXPECT_EQ(y[i], x[i] * scale[i % 4] + shift[i % 4]);
}

TEST(BatchNorm, S8RequantizesPerChannelWithSignedMultipliers) {
  const tgrs_dims d{1, 4, 3, 3};
  const std::vector<int8_t> x = RandomS8(36, 620);
  const ChannelQuant cq = MakeChannelQuant({0.7, -1.3, 0.05});  // negative gamma in channel 1
  const std::vector<int32_t> offset{10, -20, 0};
  const tgrs_quant_s8 q{-3, 4, -128, 127};
  const tgrs_per_channel_quant pcq = cq.view();
  std::vector<int8_t> y(36);
  ASSERT_EQ(tgrs_batch_norm_s8(&q, &pcq, offset.data(), &d, x.data(), y.data()), TGRS_KERNEL_OK);
  for (int i = 0; i < 36; ++i) {
    const int c = i % 3;
    const int64_t v =
        int64_t(MultiplyByQuantizedMultiplier(x[i] + 3, cq.multiplier[c], cq.shift[c])) + 4 +
        offset[c];
    EXPECT_EQ(y[i], std::clamp<int64_t>(v, -128, 127)) << i;
  }
}

}  // namespace
}  // namespace tigris::ref
