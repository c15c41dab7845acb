/*
 * verify_error.c: tgrs_verify_error_format(), the one-line text of a verification failure
 * ("ops[12].inputs[1]: tensor index 4087 out of range (tensors: 88)"). No printf: the
 * formatter is small enough for an MCU's log path and allocates nothing.
 */
#include <stddef.h>
#include <stdint.h>

#include "tgrs_op_select.h" /* TGRS_WITH_MESSAGES */
#include "tigris_runtime.h"

typedef struct text_sink {
  char* out;
  size_t capacity;
  size_t length; /* bytes the full text needs (excluding the NUL) */
} text_sink;

static void put_char(text_sink* s, char ch) {
  if (s->length + 1 < s->capacity) s->out[s->length] = ch;
  s->length++;
}

static void put_text(text_sink* s, const char* text) {
  while (*text) put_char(s, *text++);
}

/* Decimal digits by schoolbook division of four 16-bit limbs by 10: each step divides a
 * number below 10 * 2^16 in 32-bit arithmetic, so no 64-bit division is linked
 * (__aeabi_uldivmod + __udivmoddi4, ~750 bytes of libgcc on Cortex-M). */
static void put_int(text_sink* s, int64_t value) {
  char digits[20]; /* 2^64 - 1 has 20 digits */
  uint32_t limb[4];
  uint32_t rest;
  int n = 0, i;
  /* Negate in unsigned arithmetic so INT64_MIN prints too. */
  const uint64_t magnitude = value < 0 ? 0u - (uint64_t)value : (uint64_t)value;
  if (value < 0) put_char(s, '-');
  for (i = 0; i < 4; ++i) limb[i] = (uint32_t)(magnitude >> (48 - 16 * i)) & 0xFFFFu;
  do {
    uint32_t remainder = 0;
    rest = 0;
    for (i = 0; i < 4; ++i) {
      const uint32_t part = (remainder << 16) | limb[i];
      limb[i] = part / 10u;
      remainder = part - limb[i] * 10u;
      rest |= limb[i];
    }
    digits[n++] = (char)('0' + remainder);
  } while (rest);
  while (n) put_char(s, digits[--n]);
}

size_t tgrs_verify_error_format(const tgrs_verify_error* error, char* out, size_t capacity) {
  text_sink s;
#if TGRS_WITH_MESSAGES
  const char* m;
#endif
  uint32_t i;
  s.out = out;
  s.capacity = out ? capacity : 0;
  s.length = 0;
  if (!error) {
    put_text(&s, "no error");
  } else {
    if (error->depth == 0) put_text(&s, "plan");
    for (i = 0; i < error->depth && i < TGRS_VERIFY_PATH_DEPTH; ++i) {
      if (i) put_char(&s, '.');
      put_text(&s, error->path[i].field ? error->path[i].field : "?");
      if (error->path[i].index >= 0) {
        put_char(&s, '[');
        put_int(&s, error->path[i].index);
        put_char(&s, ']');
      }
    }
    put_text(&s, ": ");
#if TGRS_WITH_MESSAGES
    /* A rule without a sentence: the status with the value and limit it compared. */
    m = error->message ? error->message : "{s} (value {v}, limit {l})";
    while (*m) {
      if (m[0] == '{' && m[1] == 's' && m[2] == '}') {
        put_text(&s, tgrs_status_name(error->status));
        m += 3;
      } else if (m[0] == '{' && (m[1] == 'v' || m[1] == 'l') && m[2] == '}') {
        put_int(&s, m[1] == 'v' ? error->value : error->limit);
        m += 3;
      } else {
        put_char(&s, *m++);
      }
    }
#else
    /* A runtime built with TGRS_WITH_MESSAGES 0 records no sentence and names no status:
     * the status's number with the value and limit the rule compared. */
    put_text(&s, "status ");
    put_int(&s, error->status);
    put_text(&s, " (value ");
    put_int(&s, error->value);
    put_text(&s, ", limit ");
    put_int(&s, error->limit);
    put_char(&s, ')');
#endif
  }
  if (s.capacity) s.out[s.length < s.capacity ? s.length : s.capacity - 1] = '\0';
  return s.length;
}
