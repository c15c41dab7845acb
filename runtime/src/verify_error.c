/*
 * verify_error.c: tgrs_verify_error_format(), the one-line text of a verification failure
 * ("ops[12].inputs[1]: tensor index 4087 out of range (tensors: 88)"). No printf: the
 * formatter is small enough for an MCU's log path and allocates nothing.
 */
#include <stddef.h>
#include <stdint.h>

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

static void put_int(text_sink* s, int64_t value) {
  char digits[24];
  int n = 0;
  /* Negate in unsigned arithmetic so INT64_MIN prints too. */
  uint64_t magnitude = value < 0 ? 0u - (uint64_t)value : (uint64_t)value;
  if (value < 0) put_char(s, '-');
  do {
    digits[n++] = (char)('0' + magnitude % 10u);
    magnitude /= 10u;
  } while (magnitude);
  while (n) put_char(s, digits[--n]);
}

size_t tgrs_verify_error_format(const tgrs_verify_error* error, char* out, size_t capacity) {
  text_sink s;
  const char* m;
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
    m = error->message ? error->message : tgrs_status_name(error->status);
    while (*m) {
      if (m[0] == '{' && (m[1] == 'v' || m[1] == 'l') && m[2] == '}') {
        put_int(&s, m[1] == 'v' ? error->value : error->limit);
        m += 3;
      } else {
        put_char(&s, *m++);
      }
    }
  }
  if (s.capacity) s.out[s.length < s.capacity ? s.length : s.capacity - 1] = '\0';
  return s.length;
}
