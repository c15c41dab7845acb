/*
 * Comparisons, logic, selection and conversion: ONNX Equal, Greater, Less, GreaterOrEqual,
 * LessOrEqual, Not, And, Or, Xor, Where and Cast over float32, int32, int64 and bool, with
 * Add's broadcasting (broadcast.h). A bool is one byte, read as true when nonzero and written
 * as 0 or 1 (NumPy's bool), so a caller's bool bytes other than 0 and 1 still mean what
 * NumPy means by them.
 */
#include <string.h>

#include "broadcast.h"
#include "kernel_util.h"
#include "tgrs_kernels.h"

static int args_ok(const tgrs_dims* a_dims, const void* a, const tgrs_dims* b_dims, const void* b,
                   const tgrs_dims* output_dims, const void* output) {
  return tgrs_dims_valid(output_dims) && tgrs_broadcasts_to(a_dims, output_dims) &&
         tgrs_broadcasts_to(b_dims, output_dims) && a != NULL && b != NULL && output != NULL;
}

/* A comparison as the set of outcomes that make it true, bit k for outcome k of
 * TGRS_OUTCOME: 0 less, 1 equal, 2 greater, 3 unordered (a NaN: true for none). One loop per
 * operand type serves all five comparisons, a third of the code of a loop per comparison
 * (measured on Cortex-M4, bench/cortex_m_report.py). */
static const uint8_t kCompareOutcomes[] = {
    0x2u, /* TGRS_COMPARE_EQ */
    0x4u, /* TGRS_COMPARE_GT */
    0x1u, /* TGRS_COMPARE_LT */
    0x6u, /* TGRS_COMPARE_GE */
    0x3u, /* TGRS_COMPARE_LE */
};

#define TGRS_OUTCOME(x, y) ((x) < (y) ? 0 : (x) == (y) ? 1 : (x) > (y) ? 2 : 3)

tgrs_kernel_status tgrs_compare(tgrs_compare_op op, tgrs_elem_type type, const tgrs_dims* a_dims,
                                const void* a, const tgrs_dims* b_dims, const void* b,
                                const tgrs_dims* output_dims, uint8_t* output) {
  unsigned outcomes;
  if (!args_ok(a_dims, a, b_dims, b, output_dims, output) || (unsigned)op > TGRS_COMPARE_LE) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  outcomes = kCompareOutcomes[op];
  switch (type) {
    case TGRS_ELEM_F32:
      TGRS_BROADCAST2_LOOP(float, float, (uint8_t)((outcomes >> TGRS_OUTCOME(x, y)) & 1u));
      return TGRS_KERNEL_OK;
    case TGRS_ELEM_I32:
      TGRS_BROADCAST2_LOOP(int32_t, int32_t, (uint8_t)((outcomes >> TGRS_OUTCOME(x, y)) & 1u));
      return TGRS_KERNEL_OK;
    case TGRS_ELEM_I64:
      TGRS_BROADCAST2_LOOP(int64_t, int64_t, (uint8_t)((outcomes >> TGRS_OUTCOME(x, y)) & 1u));
      return TGRS_KERNEL_OK;
    case TGRS_ELEM_BOOL:
      /* ONNX orders no bools; Equal compares truth values, not bytes. */
      if (op != TGRS_COMPARE_EQ) return TGRS_KERNEL_BAD_ARGUMENT;
      TGRS_BROADCAST2_LOOP(uint8_t, uint8_t, (uint8_t)((x != 0) == (y != 0)));
      return TGRS_KERNEL_OK;
    default:
      return TGRS_KERNEL_BAD_ARGUMENT;
  }
}

tgrs_kernel_status tgrs_logic(tgrs_logic_op op, const tgrs_dims* a_dims, const uint8_t* a,
                              const tgrs_dims* b_dims, const uint8_t* b,
                              const tgrs_dims* output_dims, uint8_t* output) {
  if (!args_ok(a_dims, a, b_dims, b, output_dims, output)) return TGRS_KERNEL_BAD_ARGUMENT;
  switch (op) {
    case TGRS_LOGIC_AND:
      TGRS_BROADCAST2_LOOP(uint8_t, uint8_t, (uint8_t)(x != 0 && y != 0));
      return TGRS_KERNEL_OK;
    case TGRS_LOGIC_OR:
      TGRS_BROADCAST2_LOOP(uint8_t, uint8_t, (uint8_t)(x != 0 || y != 0));
      return TGRS_KERNEL_OK;
    case TGRS_LOGIC_XOR:
      TGRS_BROADCAST2_LOOP(uint8_t, uint8_t, (uint8_t)((x != 0) != (y != 0)));
      return TGRS_KERNEL_OK;
    default:
      return TGRS_KERNEL_BAD_ARGUMENT;
  }
}

tgrs_kernel_status tgrs_not(size_t count, const uint8_t* input, uint8_t* output) {
  size_t i;
  if (input == NULL || output == NULL) return TGRS_KERNEL_BAD_ARGUMENT;
  for (i = 0; i < count; ++i) output[i] = (uint8_t)(input[i] == 0);
  return TGRS_KERNEL_OK;
}

/* output = cond ? PICK_X : PICK_Y over elements of C type T, vx and vy the broadcast X and
 * Y elements, all three operands broadcast. */
#define TGRS_WHERE_LOOP(T, PICK_X, PICK_Y)                                   \
  do {                                                                       \
    const tgrs_strides4 sc = tgrs_broadcast_strides(cond_dims, output_dims); \
    const tgrs_strides4 sx = tgrs_broadcast_strides(x_dims, output_dims);    \
    const tgrs_strides4 sy = tgrs_broadcast_strides(y_dims, output_dims);    \
    T* out = (T*)output;                                                     \
    int32_t n, h, w, c;                                                      \
    for (n = 0; n < output_dims->n; ++n) {                                   \
      for (h = 0; h < output_dims->h; ++h) {                                 \
        for (w = 0; w < output_dims->w; ++w) {                               \
          const uint8_t* pc = cond + n * sc.n + h * sc.h + w * sc.w;         \
          const T* px = (const T*)x + n * sx.n + h * sx.h + w * sx.w;        \
          const T* py = (const T*)y + n * sy.n + h * sy.h + w * sy.w;        \
          for (c = 0; c < output_dims->c; ++c, ++out) {                      \
            const T vx = px[c * sx.c];                                       \
            const T vy = py[c * sy.c];                                       \
            *out = pc[c * sc.c] != 0 ? (PICK_X) : (PICK_Y);                  \
          }                                                                  \
        }                                                                    \
      }                                                                      \
    }                                                                        \
  } while (0)

#define TGRS_WHERE_AS(T) TGRS_WHERE_LOOP(T, vx, vy)

tgrs_kernel_status tgrs_where(tgrs_elem_type type, const tgrs_dims* cond_dims, const uint8_t* cond,
                              const tgrs_dims* x_dims, const void* x, const tgrs_dims* y_dims,
                              const void* y, const tgrs_dims* output_dims, void* output) {
  if (!args_ok(x_dims, x, y_dims, y, output_dims, output) || cond == NULL ||
      !tgrs_broadcasts_to(cond_dims, output_dims)) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  /* Copied as bits of the element's width: float32 and int32 alike. */
  switch (type) {
    case TGRS_ELEM_F32:
    case TGRS_ELEM_I32:
      TGRS_WHERE_AS(uint32_t);
      return TGRS_KERNEL_OK;
    case TGRS_ELEM_I64:
      TGRS_WHERE_AS(uint64_t);
      return TGRS_KERNEL_OK;
    case TGRS_ELEM_BOOL:
      TGRS_WHERE_AS(uint8_t);
      return TGRS_KERNEL_OK;
    default:
      return TGRS_KERNEL_BAD_ARGUMENT;
  }
}

tgrs_kernel_status tgrs_where_s8(const tgrs_dims* cond_dims, const uint8_t* cond,
                                 const tgrs_dims* x_dims, const int8_t* x, const tgrs_dims* y_dims,
                                 const int8_t* y, const int8_t* x_table, const int8_t* y_table,
                                 const tgrs_dims* output_dims, int8_t* output) {
  if (!args_ok(x_dims, x, y_dims, y, output_dims, output) || cond == NULL ||
      !tgrs_broadcasts_to(cond_dims, output_dims) || (x_table == NULL) != (y_table == NULL)) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  if (x_table == NULL) {
    TGRS_WHERE_LOOP(int8_t, vx, vy);
  } else {
    TGRS_WHERE_LOOP(int8_t, x_table[vx + 128], y_table[vy + 128]);
  }
  return TGRS_KERNEL_OK;
}

/* A float truncated toward zero into [lo, hi] (hi_float = 2^31 or 2^63, one past the
 * largest value, exactly representable); NaN gives 0. Magnitudes of 2^31 and more are whole
 * numbers, taken from the float's bits: C's (int64_t)v would call libgcc's __fixsfdi, which
 * on a single-precision FPU goes through software double arithmetic (2 KB of flash,
 * measured). */
static int64_t float_to_int(float v, float hi_float, int64_t lo, int64_t hi) {
  uint32_t bits;
  int32_t exponent;
  uint64_t magnitude;
  if (v != v) return 0;
  if (v >= hi_float) return hi;
  if (v <= -hi_float) return lo;
  if (v > -2147483648.0f && v < 2147483648.0f) return (int32_t)v; /* the FPU's vcvt */
  memcpy(&bits, &v, sizeof bits);
  exponent = (int32_t)((bits >> 23) & 0xFFu) - 150; /* v = mantissa * 2^exponent */
  magnitude = (uint64_t)((bits & 0x7FFFFFu) | 0x800000u) << exponent; /* 8 <= exponent < 40 */
  return (bits >> 31) != 0 ? -(int64_t)magnitude : (int64_t)magnitude;
}

/* Element i of `input` (of type `from`) as an int64 and as a float (whichever the target
 * needs), and as a truth value. */
typedef struct cast_value {
  int is_float;
  float f;
  int64_t i;
} cast_value;

static cast_value load(tgrs_elem_type from, const void* input, size_t i) {
  cast_value v;
  v.is_float = from == TGRS_ELEM_F32;
  v.f = 0.0f;
  v.i = 0;
  switch (from) {
    case TGRS_ELEM_F32:
      v.f = ((const float*)input)[i];
      break;
    case TGRS_ELEM_I32:
      v.i = ((const int32_t*)input)[i];
      break;
    case TGRS_ELEM_I64:
      v.i = ((const int64_t*)input)[i];
      break;
    default:
      v.i = ((const uint8_t*)input)[i] != 0;
      break;
  }
  return v;
}

tgrs_kernel_status tgrs_cast(tgrs_elem_type from, tgrs_elem_type to, size_t count,
                             const void* input, void* output) {
  size_t i;
  if (input == NULL || output == NULL || (unsigned)from > TGRS_ELEM_BOOL ||
      (unsigned)to > TGRS_ELEM_BOOL) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  for (i = 0; i < count; ++i) {
    const cast_value v = load(from, input, i);
    switch (to) {
      case TGRS_ELEM_F32:
        ((float*)output)[i] = v.is_float ? v.f : (float)v.i;
        break;
      case TGRS_ELEM_I32:
        /* From int64: the low 32 bits, as a two's complement int32. */
        ((int32_t*)output)[i] =
            v.is_float ? (int32_t)float_to_int(v.f, 2147483648.0f, INT32_MIN, INT32_MAX)
                       : (int32_t)(uint32_t)(uint64_t)v.i;
        break;
      case TGRS_ELEM_I64:
        ((int64_t*)output)[i] =
            v.is_float ? float_to_int(v.f, 9223372036854775808.0f, INT64_MIN, INT64_MAX) : v.i;
        break;
      default:
        ((uint8_t*)output)[i] = (uint8_t)(v.is_float ? v.f != 0.0f : v.i != 0);
        break;
    }
  }
  return TGRS_KERNEL_OK;
}
