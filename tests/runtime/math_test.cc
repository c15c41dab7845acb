// The runtime's own expf / logf / tanhf (runtime/kernels/tgrs_math.c) against an independent
// reference: libm's long double exp / log / tanh (64-bit significand, 40 bits more than a
// float) rounded to float. A dense sweep of bit patterns bounds the error in ulps; special
// values and the overflow / underflow thresholds are checked exactly; a few results are
// pinned to bit patterns computed offline with Python's decimal module at 60 digits (so
// neither glibc nor the code under test chose them). Those pinned bytes are what every target
// (host, Cortex-M4, Cortex-M7) must produce: the point of owning these functions.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "tgrs_kernels.h"
#include "tgrs_math.h"

namespace {

uint32_t Bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

float FromBits(uint32_t b) {
  float f;
  std::memcpy(&f, &b, sizeof f);
  return f;
}

// Position on the number line in ulps: consecutive floats differ by 1, -0 and +0 coincide,
// so |Key(a) - Key(b)| is the ulp distance even across 0 and binade boundaries.
int64_t Key(float f) {
  const uint32_t b = Bits(f);
  return (b & 0x80000000u) ? -static_cast<int64_t>(b & 0x7fffffffu) : static_cast<int64_t>(b);
}

int64_t UlpDistance(float a, float b) {
  const int64_t d = Key(a) - Key(b);
  return d < 0 ? -d : d;
}

float RefExp(float x) { return static_cast<float>(std::exp(static_cast<long double>(x))); }
float RefLog(float x) { return static_cast<float>(std::log(static_cast<long double>(x))); }
float RefTanh(float x) { return static_cast<float>(std::tanh(static_cast<long double>(x))); }

struct SweepStats {
  int64_t max_ulp = 0;
  float worst_x = 0.0f;
  uint64_t points = 0;
  uint64_t not_correctly_rounded = 0;

  void Add(float x, float got, float want) {
    const int64_t d = UlpDistance(got, want);
    ++points;
    if (d != 0) ++not_correctly_rounded;
    if (d > max_ulp) {
      max_ulp = d;
      worst_x = x;
    }
  }
};

// Every `step`-th bit pattern from `lo` to `hi` (both included; hi >= lo, same sign), plus
// every pattern within `window` of each entry of `dense` (branch boundaries, thresholds).
template <typename Fn, typename Ref>
void SweepRange(uint32_t lo, uint32_t hi, uint32_t step, Fn fn, Ref ref, SweepStats* stats) {
  for (uint64_t b = lo; b <= hi; b += step) {
    const float x = FromBits(static_cast<uint32_t>(b));
    stats->Add(x, fn(x), ref(x));
  }
  stats->Add(FromBits(hi), fn(FromBits(hi)), ref(FromBits(hi)));
}

template <typename Fn, typename Ref>
void SweepAround(const std::vector<float>& centres, uint32_t window, uint32_t lo, uint32_t hi,
                 Fn fn, Ref ref, SweepStats* stats) {
  for (float c : centres) {
    const uint32_t cb = Bits(c);
    for (uint32_t b = cb - window; b != cb + window; ++b) {
      if (b < lo || b > hi) continue;
      stats->Add(FromBits(b), fn(FromBits(b)), ref(FromBits(b)));
    }
  }
}

void Report(const char* name, const SweepStats& s) {
  std::printf("[ %s ] max error %lld ulp (at x = %a), %llu of %llu points not correctly rounded\n",
              name, static_cast<long long>(s.max_ulp), static_cast<double>(s.worst_x),
              static_cast<unsigned long long>(s.not_correctly_rounded),
              static_cast<unsigned long long>(s.points));
}

// 97 is odd and prime: the sweep hits every residue of the low mantissa bits, about 22
// million points per function over its whole float domain.
constexpr uint32_t kStep = 97;
constexpr uint32_t kWindow = 2048;

// Overflow: the largest float whose exp is finite; underflow: the smallest whose exp rounds
// to a nonzero float. ExpThresholdsBracketTheMath derives both from ln(FLT_MAX) and
// ln(2^-150).
constexpr uint32_t kExpMaxFiniteBits = 0x42b17217u;   // 88.7228317
constexpr uint32_t kExpMinNonzeroBits = 0xc2cff1b4u;  // -103.972076

TEST(TgrsMath, ExpWithinOneUlpOverItsDomain) {
  SweepStats s;
  SweepRange(0x00000000u, kExpMaxFiniteBits, kStep, tgrs_expf, RefExp, &s);   // [+0, 88.72]
  SweepRange(0x80000000u, kExpMinNonzeroBits, kStep, tgrs_expf, RefExp, &s);  // [-0, -103.97]
  for (int k = -149; k <= 6; ++k) {  // every power of two (and its negative) below 88.7
    const float p = std::ldexp(1.0f, k);
    s.Add(p, tgrs_expf(p), RefExp(p));
    s.Add(-p, tgrs_expf(-p), RefExp(-p));
  }
  // Around the thresholds, the subnormal-result boundary (e^x = 2^-126 at x = -87.34) and
  // the range-reduction boundaries x = +-ln2/2 (k switches between 0 and +-1).
  SweepAround({FromBits(kExpMaxFiniteBits), FromBits(kExpMinNonzeroBits), -87.3365447f, 0.34657359f,
               -0.34657359f},
              kWindow, 0, 0xffffffffu, tgrs_expf, RefExp, &s);
  Report("tgrs_expf", s);
  EXPECT_LE(s.max_ulp, 1) << "worst x = " << s.worst_x;
}

TEST(TgrsMath, LogWithinOneUlpOverItsDomain) {
  SweepStats s;
  SweepRange(0x00000001u, 0x7f7fffffu, kStep, tgrs_logf, RefLog, &s);  // subnormals to FLT_MAX
  for (int k = -149; k <= 127; ++k) {
    const float p = std::ldexp(1.0f, k);
    s.Add(p, tgrs_logf(p), RefLog(p));
  }
  // Around 1 (log(x) tiny, relative accuracy matters most), the sqrt(2) mantissa split, the
  // subnormal/normal boundary and FLT_MAX.
  SweepAround({1.0f, FromBits(0x3fb504f3u), 0.70710677f, FLT_MIN, FLT_MAX}, kWindow, 0x00000001u,
              0x7f7fffffu, tgrs_logf, RefLog, &s);
  Report("tgrs_logf", s);
  EXPECT_LE(s.max_ulp, 1) << "worst x = " << s.worst_x;
}

TEST(TgrsMath, TanhWithinTwoUlpsOverItsDomain) {
  SweepStats s;
  // Both signs up to 11 (past the +-1 cut at 10).
  SweepRange(0x00000000u, 0x41300000u, kStep, tgrs_tanhf, RefTanh, &s);
  SweepRange(0x80000000u, 0xc1300000u, kStep, tgrs_tanhf, RefTanh, &s);
  for (int k = -149; k <= 127; ++k) {
    const float p = std::ldexp(1.0f, k);
    s.Add(p, tgrs_tanhf(p), RefTanh(p));
    s.Add(-p, tgrs_tanhf(-p), RefTanh(-p));
  }
  // The branch boundaries: series / quotient at 0.5, quotient / 1 - 2/(e+1) at 2, 1 at 10.
  SweepAround({0.5f, -0.5f, 2.0f, -2.0f, 10.0f, -10.0f}, kWindow, 0, 0xffffffffu, tgrs_tanhf,
              RefTanh, &s);
  Report("tgrs_tanhf", s);
  // Measured 1 ulp; the bound is the task's 2 ulp for tanh.
  EXPECT_LE(s.max_ulp, 2) << "worst x = " << s.worst_x;
}

TEST(TgrsMath, TanhIsExactlyOdd) {
  for (uint64_t b = 0; b <= 0x41300000u; b += 1009) {
    const float x = FromBits(static_cast<uint32_t>(b));
    EXPECT_EQ(Bits(tgrs_tanhf(-x)), Bits(tgrs_tanhf(x)) ^ 0x80000000u) << "x = " << x;
  }
}

TEST(TgrsMath, ExpThresholdsBracketTheMath) {
  // e^x > FLT_MAX (and rounds to +inf: FLT_MAX's successor would be 2^128) iff
  // x > ln(FLT_MAX) = 88.72283911...; e^x rounds to 0 iff e^x <= 2^-150 (half the smallest
  // subnormal, the tie going to the even 0) iff x <= -150 ln 2 = -103.97207708...
  const long double ln_max = std::log(static_cast<long double>(FLT_MAX));
  const long double ln_half_min = -150.0L * std::log(2.0L);
  ASSERT_LT(static_cast<long double>(FromBits(kExpMaxFiniteBits)), ln_max);
  ASSERT_GT(static_cast<long double>(FromBits(kExpMaxFiniteBits + 1)), ln_max);
  ASSERT_GT(static_cast<long double>(FromBits(kExpMinNonzeroBits)), ln_half_min);
  ASSERT_LT(static_cast<long double>(FromBits(kExpMinNonzeroBits + 1)), ln_half_min);

  const float max_finite = tgrs_expf(FromBits(kExpMaxFiniteBits));
  EXPECT_TRUE(std::isfinite(max_finite));
  EXPECT_LE(UlpDistance(max_finite, RefExp(FromBits(kExpMaxFiniteBits))), 1);
  EXPECT_EQ(tgrs_expf(FromBits(kExpMaxFiniteBits + 1)), INFINITY);
  EXPECT_EQ(tgrs_expf(1000.0f), INFINITY);
  // Just above 2^-150 rounds up to the smallest subnormal, 2^-149 (bits 1).
  EXPECT_EQ(Bits(tgrs_expf(FromBits(kExpMinNonzeroBits))), 0x00000001u);
  EXPECT_EQ(Bits(tgrs_expf(FromBits(kExpMinNonzeroBits + 1))), 0x00000000u);
  EXPECT_EQ(Bits(tgrs_expf(-1000.0f)), 0x00000000u);
}

TEST(TgrsMath, ExpSpecialValues) {
  EXPECT_TRUE(std::isnan(tgrs_expf(NAN)));
  EXPECT_TRUE(std::isnan(tgrs_expf(-NAN)));
  EXPECT_EQ(tgrs_expf(INFINITY), INFINITY);
  EXPECT_EQ(Bits(tgrs_expf(-INFINITY)), 0x00000000u);  // +0
  EXPECT_EQ(tgrs_expf(0.0f), 1.0f);                    // e^0 = 1 exactly
  EXPECT_EQ(tgrs_expf(-0.0f), 1.0f);
  // Subnormal inputs: e^x = 1 + x rounds to 1 (|x| < 2^-126 is far below half an ulp of 1).
  EXPECT_EQ(tgrs_expf(FromBits(0x00000001u)), 1.0f);
  EXPECT_EQ(tgrs_expf(FromBits(0x80000001u)), 1.0f);
}

TEST(TgrsMath, LogSpecialValues) {
  EXPECT_TRUE(std::isnan(tgrs_logf(NAN)));
  EXPECT_TRUE(std::isnan(tgrs_logf(-1.0f)));
  EXPECT_TRUE(std::isnan(tgrs_logf(-INFINITY)));
  EXPECT_TRUE(std::isnan(tgrs_logf(-FLT_MIN)));
  EXPECT_TRUE(std::isnan(tgrs_logf(FromBits(0x80000001u))));  // negative subnormal
  EXPECT_EQ(tgrs_logf(0.0f), -INFINITY);
  EXPECT_EQ(tgrs_logf(-0.0f), -INFINITY);
  EXPECT_EQ(tgrs_logf(INFINITY), INFINITY);
  EXPECT_EQ(Bits(tgrs_logf(1.0f)), 0x00000000u);  // log 1 = +0 exactly
  // Smallest subnormal: log(2^-149) = -149 ln 2 = -103.27892990...
  EXPECT_LE(UlpDistance(tgrs_logf(FromBits(1)), static_cast<float>(-149.0L * std::log(2.0L))), 1);
}

// IEEE 754 requires sqrt correctly rounded; the host's std::sqrt(float) is (SSE sqrtss), and
// so is long double's rounded once more to float (64 bits >= 2 * 24 + 2: the double rounding
// is innocuous). Every 97th pattern of [smallest subnormal, +inf), every power of two and
// the windows around the subnormal boundary and 1: not one ulp off.
float RefSqrt(float x) { return static_cast<float>(std::sqrt(static_cast<long double>(x))); }

TEST(TgrsMath, SqrtIsCorrectlyRounded) {
  SweepStats s;
  SweepRange(0x00000001u, 0x7f7fffffu, kStep, tgrs_sqrtf, RefSqrt, &s);
  for (int k = -149; k <= 127; ++k) {
    const float p = std::ldexp(1.0f, k);
    s.Add(p, tgrs_sqrtf(p), RefSqrt(p));
  }
  SweepAround({1.0f, 2.0f, FLT_MIN, FLT_MAX}, kWindow, 0x00000001u, 0x7f7fffffu, tgrs_sqrtf,
              RefSqrt, &s);
  Report("tgrs_sqrtf", s);
  EXPECT_EQ(s.max_ulp, 0) << "worst x = " << s.worst_x;
  EXPECT_EQ(s.not_correctly_rounded, 0u);
}

TEST(TgrsMath, SqrtSpecialValues) {
  EXPECT_TRUE(std::isnan(tgrs_sqrtf(NAN)));
  EXPECT_TRUE(std::isnan(tgrs_sqrtf(-1.0f)));
  EXPECT_TRUE(std::isnan(tgrs_sqrtf(-INFINITY)));
  EXPECT_TRUE(std::isnan(tgrs_sqrtf(FromBits(0x80000001u))));
  EXPECT_EQ(Bits(tgrs_sqrtf(0.0f)), 0x00000000u);
  EXPECT_EQ(Bits(tgrs_sqrtf(-0.0f)), 0x80000000u);
  EXPECT_EQ(tgrs_sqrtf(INFINITY), INFINITY);
  EXPECT_EQ(tgrs_sqrtf(4.0f), 2.0f);
  EXPECT_EQ(tgrs_sqrtf(FromBits(1)), std::ldexp(1.0f, -75) * std::sqrt(2.0f));  // 2^-74.5
}

TEST(TgrsMath, TanhSpecialValues) {
  EXPECT_TRUE(std::isnan(tgrs_tanhf(NAN)));
  EXPECT_EQ(tgrs_tanhf(INFINITY), 1.0f);
  EXPECT_EQ(tgrs_tanhf(-INFINITY), -1.0f);
  EXPECT_EQ(Bits(tgrs_tanhf(0.0f)), 0x00000000u);
  EXPECT_EQ(Bits(tgrs_tanhf(-0.0f)), 0x80000000u);  // odd: the sign of zero survives
  // tanh(x) = x - x^3/3 + ...: for subnormal x the cubic term is far below half an ulp.
  EXPECT_EQ(Bits(tgrs_tanhf(FromBits(0x00000001u))), 0x00000001u);
  EXPECT_EQ(Bits(tgrs_tanhf(FromBits(0x807fffffu))), 0x807fffffu);
  // tanh(9) = 1 - 2/(e^18 + 1) = 1 - 3.046e-8: closer to 1 - 2^-24 (0x3f7fffff, 2.91e-8
  // away) than to 1 (3.05e-8 away), so a cut to +-1 at 9 would be 1 ulp off.
  EXPECT_EQ(Bits(tgrs_tanhf(9.0f)), 0x3f7fffffu);
  // tanh(10) = 1 - 4.1e-9, within half an ulp (2^-25) of 1.
  EXPECT_EQ(tgrs_tanhf(10.0f), 1.0f);
  EXPECT_EQ(tgrs_tanhf(-10.0f), -1.0f);
  EXPECT_EQ(tgrs_tanhf(FLT_MAX), 1.0f);
}

// Correctly rounded results computed with Python's decimal module (60 digits, then the
// nearest float), independent of glibc, newlib and this code. Only inputs where tgrs_* is
// correctly rounded are listed; every target must reproduce these bytes.
struct Pinned {
  float x;
  uint32_t bits;
};

TEST(TgrsMath, PinnedBitPatterns) {
  const Pinned exp_cases[] = {
      {1.0f, 0x402df854u},    {0.5f, 0x3fd3094cu},    {-1.0f, 0x3ebc5ab2u},
      {0.1f, 0x3f8d763eu},    {10.0f, 0x46ac14eeu},   {-10.0f, 0x383e6bceu},
      {20.0f, 0x4de75844u},   {88.0f, 0x7ef882b7u},   {-87.5f, 0x006cb2bcu},  // subnormal
      {-100.0f, 0x0000001bu}, {-103.5f, 0x00000001u}, {0.001f, 0x3f8020c9u},
  };
  for (const Pinned& c : exp_cases) {
    EXPECT_EQ(Bits(tgrs_expf(c.x)), c.bits) << "expf(" << c.x << ")";
  }
  const Pinned log_cases[] = {
      {2.0f, 0x3f317218u},  {10.0f, 0x40135d8eu}, {0.1f, 0xc0135d8eu},
      {0.5f, 0xbf317218u},  {3.0f, 0x3f8c9f54u},  {0.001f, 0xc0dd0c55u},
      {1e30f, 0x428a27b5u}, {1.5f, 0x3ecf991fu},  {FromBits(0x000116c2u), 0xc2b834f2u},
  };
  for (const Pinned& c : log_cases) {
    EXPECT_EQ(Bits(tgrs_logf(c.x)), c.bits) << "logf(" << c.x << ")";
  }
  const Pinned tanh_cases[] = {
      {0.1f, 0x3dcc1ebcu}, {1.0f, 0x3f42f7d6u},   {2.0f, 0x3f76ca83u},
      {3.0f, 0x3f7ebbe9u}, {0.001f, 0x3a83126cu}, {-0.75f, 0xbf22991fu},
  };
  for (const Pinned& c : tanh_cases) {
    EXPECT_EQ(Bits(tgrs_tanhf(c.x)), c.bits) << "tanhf(" << c.x << ")";
  }
}

// The kernels must call these functions, not libm's: their outputs equal the documented
// formulas (runtime/kernels/tgrs_kernels.h) evaluated here with tgrs_*, bit for bit, over
// enough points that libm's differing last bits (about 1 in 300 inputs) would show.
std::vector<float> Inputs() {
  std::vector<float> v;
  for (int i = -40000; i <= 40000; ++i) v.push_back(static_cast<float>(i) * 0.000377f);
  return v;
}

TEST(TgrsMath, ActivationKernelsUseRuntimeMath) {
  const std::vector<float> x = Inputs();
  const size_t n = x.size();
  std::vector<float> tanh_out(n), sig(n), selu(n);
  tgrs_tanh_f32(n, x.data(), tanh_out.data());
  tgrs_sigmoid_f32(n, x.data(), sig.data());
  tgrs_selu_f32(1.67326f, 1.0507f, n, x.data(), selu.data());
  for (size_t i = 0; i < n; ++i) {
    const float v = x[i];
    ASSERT_EQ(Bits(tanh_out[i]), Bits(tgrs_tanhf(v))) << "x = " << v;
    const float e = tgrs_expf(v);
    const float want_sig = v >= 0.0f ? 1.0f / (1.0f + tgrs_expf(-v)) : e / (1.0f + e);
    ASSERT_EQ(Bits(sig[i]), Bits(want_sig)) << "x = " << v;
    const float want_selu = 1.0507f * (v > 0.0f ? v : 1.67326f * (e - 1.0f));
    ASSERT_EQ(Bits(selu[i]), Bits(want_selu)) << "x = " << v;
  }
}

TEST(TgrsMath, SoftmaxKernelsUseRuntimeMath) {
  // 2000 lines of 8: outer = 2000, axis_len = 8, inner = 1.
  const std::vector<float> all = Inputs();
  const int32_t len = 8, outer = 2000;
  std::vector<float> x(all.begin(), all.begin() + len * outer);
  for (size_t i = 0; i < x.size(); ++i) x[i] *= static_cast<float>(1 + i % 5);  // spread
  std::vector<float> soft(x.size()), logsoft(x.size()), scratch(len);
  ASSERT_EQ(tgrs_softmax_f32(scratch.data(), outer, len, 1, x.data(), soft.data()), TGRS_KERNEL_OK);
  ASSERT_EQ(tgrs_log_softmax_f32(scratch.data(), outer, len, 1, x.data(), logsoft.data()),
            TGRS_KERNEL_OK);
  for (int32_t o = 0; o < outer; ++o) {
    const float* line = &x[static_cast<size_t>(o) * len];
    float max = line[0];
    for (int32_t i = 1; i < len; ++i) max = line[i] > max ? line[i] : max;
    float e[8], sum = 0.0f;
    for (int32_t i = 0; i < len; ++i) {  // e_i = exp(x_i - m), s = sum ascending
      e[i] = tgrs_expf(line[i] - max);
      sum += e[i];
    }
    const float log_sum = tgrs_logf(sum);
    for (int32_t i = 0; i < len; ++i) {
      const size_t at = static_cast<size_t>(o) * len + i;
      ASSERT_EQ(Bits(soft[at]), Bits(e[i] / sum)) << "line " << o << " i " << i;
      ASSERT_EQ(Bits(logsoft[at]), Bits(line[i] - max - log_sum)) << "line " << o << " i " << i;
    }
  }
}

TEST(TgrsMath, PowSpecialValuesFollowC99) {
  const float inf = INFINITY;
  EXPECT_EQ(tgrs_powf(NAN, 0.0f), 1.0f);  // y = 0: 1 whatever x
  EXPECT_EQ(tgrs_powf(1.0f, NAN), 1.0f);  // x = 1: 1 whatever y
  EXPECT_TRUE(std::isnan(tgrs_powf(-2.0f, 0.5f)));
  EXPECT_EQ(tgrs_powf(-2.0f, 3.0f), -8.0f);
  EXPECT_EQ(tgrs_powf(-2.0f, -2.0f), 0.25f);
  EXPECT_EQ(Bits(tgrs_powf(-0.0f, 3.0f)), Bits(-0.0f));
  EXPECT_EQ(Bits(tgrs_powf(-0.0f, 2.0f)), Bits(0.0f));
  EXPECT_EQ(tgrs_powf(0.0f, -1.0f), inf);
  EXPECT_EQ(tgrs_powf(-0.0f, -3.0f), -inf);
  EXPECT_EQ(tgrs_powf(0.5f, inf), 0.0f);
  EXPECT_EQ(tgrs_powf(2.0f, inf), inf);
  EXPECT_EQ(tgrs_powf(-2.0f, -inf), 0.0f);
  EXPECT_EQ(tgrs_powf(-1.0f, inf), 1.0f);
  EXPECT_EQ(tgrs_powf(3.0f, 5.0f), 243.0f);  // small integer powers multiply: exact here
  // Beyond 64 through exp(y ln x): 2^100 within the bound (100 ln 2 * 2^-24 + 2 ulp).
  EXPECT_NEAR(tgrs_powf(2.0f, 100.0f) / 0x1p100f, 1.0f, 70.0f * 0x1p-24f);
}

// Relative error against long double powl over bases (0, 64] and exponents [-8, 8]: the
// bound stated in tgrs_math.c, |y ln x| * 2^-24 + 2 ulp, with a factor 2 of margin.
TEST(TgrsMath, PowWithinItsStatedBound) {
  double worst = 0.0;
  for (int i = 1; i <= 2048; ++i) {
    const float x = static_cast<float>(i) / 32.0f;
    for (int j = -64; j <= 64; ++j) {
      const float y = static_cast<float>(j) / 8.0f + (j % 3 == 0 ? 0.0f : 0.0371f);
      const long double exact = powl(static_cast<long double>(x), static_cast<long double>(y));
      if (exact > FLT_MAX || exact < FLT_MIN) continue;
      const double rel =
          static_cast<double>(fabsl((static_cast<long double>(tgrs_powf(x, y)) - exact) / exact));
      const double bound = 2.0 * (std::fabs(y * std::log(x)) * 0x1p-24 + 2.0 * 0x1p-24);
      ASSERT_LE(rel, bound) << "x = " << x << " y = " << y;
      if (rel / bound > worst) worst = rel / bound;
    }
  }
  std::printf("[ pow ] worst error %.2f of the bound\n", worst);
}

// sin and cos against long double sinl / cosl: within 2 ulp where |x| <= 100 (a model's
// angles), and within 2^-24 absolute where |x| < 3200 (the reduction's exact range; near
// the zeros an absolute bound is the meaningful one).
TEST(TgrsMath, SinCosWithinTheirBounds) {
  int64_t worst_ulp = 0;
  double worst_abs = 0.0;
  for (int i = -3200000; i <= 3200000; ++i) {
    const float x = static_cast<float>(i) * 0.001f + static_cast<float>(i % 7) * 1e-4f;
    for (int which = 0; which < 2; ++which) {
      const long double exact = which == 0 ? sinl(x) : cosl(x);
      const float got = which == 0 ? tgrs_sinf(x) : tgrs_cosf(x);
      const double abs_err = static_cast<double>(fabsl(static_cast<long double>(got) - exact));
      worst_abs = std::max(worst_abs, abs_err);
      ASSERT_LE(abs_err, 0x1p-23) << (which ? "cos(" : "sin(") << x << ")";
      if (std::fabs(x) <= 100.0f) {
        const int64_t ulp = std::llabs(Key(got) - Key(static_cast<float>(exact)));
        worst_ulp = std::max(worst_ulp, ulp);
        ASSERT_LE(ulp, 2) << (which ? "cos(" : "sin(") << x << ")";
      }
    }
  }
  std::printf("[ sin/cos ] %lld ulp for |x| <= 100, %.3g absolute to 3200\n",
              static_cast<long long>(worst_ulp), worst_abs);
  EXPECT_TRUE(std::isnan(tgrs_sinf(INFINITY)));
  EXPECT_TRUE(std::isnan(tgrs_cosf(NAN)));
  EXPECT_EQ(Bits(tgrs_sinf(-0.0f)), Bits(-0.0f));
  EXPECT_EQ(tgrs_cosf(0.0f), 1.0f);
}

// erf against long double erfl: 2.5e-7 absolute (Abramowitz & Stegun 7.1.26's 1.5e-7 plus
// the float evaluation) from 1 on, and 2 ulp below 1 where the series runs.
TEST(TgrsMath, ErfWithinItsBound) {
  double worst = 0.0;
  for (int i = -600000; i <= 600000; ++i) {
    const float x = static_cast<float>(i) * 1e-5f;
    const long double exact = erfl(x);
    const float got = tgrs_erff(x);
    const double err = static_cast<double>(fabsl(static_cast<long double>(got) - exact));
    worst = std::max(worst, err);
    ASSERT_LE(err, 2.5e-7) << "erf(" << x << ")";
    if (std::fabs(x) < 1.0f) {
      ASSERT_LE(std::llabs(Key(got) - Key(static_cast<float>(exact))), 2) << "erf(" << x << ")";
    }
    ASSERT_EQ(Bits(tgrs_erff(-x)), Bits(-got)) << "erf is odd";
  }
  std::printf("[ erf ] %.3g absolute\n", worst);
  EXPECT_EQ(tgrs_erff(10.0f), 1.0f);
  EXPECT_TRUE(std::isnan(tgrs_erff(NAN)));
}

}  // namespace
