/*
 * exp, log, tanh, sqrt, pow, sin, cos and erf in single precision, owned by the runtime
 * instead of libm.
 *
 * Why: host libm (glibc) and target libm (newlib, whose Cortex-M4 and M7 builds even pick
 * different expf implementations) disagree in the last bit, so a model with Softmax,
 * Sigmoid or Tanh gave different bytes on the host and on the microcontroller. These
 * functions use only IEEE single-precision + - * / (plus exact scaling by powers of two and
 * a float-to-int truncation), evaluated in a fixed order, so every conforming C99 compiler
 * and FPU returns the same bits, provided floats are evaluated in float
 * (FLT_EVAL_METHOD == 0: SSE, Arm VFP, soft-float) and a*b+c is not contracted into an
 * FMA (-ffp-contract=off; runtime/CMakeLists.txt and the Cortex-M toolchain file set it).
 * Rounding mode: round to nearest (the C default; the runtime never changes it).
 *
 * Accuracy against the correctly rounded result (tests/runtime/math_test.cc, docs/runtime.md
 * "Transcendentals"): exp, log and tanh within 1 ulp over every float (measured
 * exhaustively), sqrt correctly rounded, pow, sin, cos and erf as stated below.
 */
#ifndef TGRS_KERNELS_TGRS_MATH_H_
#define TGRS_KERNELS_TGRS_MATH_H_

#ifdef __cplusplus
extern "C" {
#endif

/* e^x. NaN -> NaN, +inf and x > 88.7228317 -> +inf, -inf and x < -103.972076 -> +0,
 * subnormal results rounded once. */
float tgrs_expf(float x);

/* Natural logarithm. NaN and x < 0 -> NaN, +-0 -> -inf, +inf -> +inf, subnormal x exact. */
float tgrs_logf(float x);

/* Square root, correctly rounded (as IEEE 754 sqrt). NaN and x < 0 -> NaN, +-0 -> +-0,
 * +inf -> +inf. Integer arithmetic: no libm, no errno. */
float tgrs_sqrtf(float x);

/* x^y (C99 pow's special cases; tgrs_math.c states the accuracy): no libm. */
float tgrs_powf(float x, float y);

/* Sine and cosine: Cody-Waite reduction by pi/2 (exact products for |x| < 3200), Taylor
 * series on [-pi/4, pi/4]; NaN and +-inf -> NaN. Within 2 ulp for |x| <= 100, 2^-23
 * absolute below 3200 (tests/runtime/math_test.cc). */
float tgrs_sinf(float x);
float tgrs_cosf(float x);

/* Error function: a series below 1 (2 ulp), Abramowitz & Stegun 7.1.26 above (absolute
 * error below 2.5e-7), +-1 from 3.92; odd, NaN -> NaN. */
float tgrs_erff(float x);

/* Hyperbolic tangent: odd (so -0 -> -0), NaN -> NaN, |x| >= 10 -> +-1. */
float tgrs_tanhf(float x);

#ifdef __cplusplus
}
#endif

#endif /* TGRS_KERNELS_TGRS_MATH_H_ */
