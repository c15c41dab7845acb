/*
 * fb_map.c: tgrs_fb_map_read(), the loop behind the reader's getters (fb_map.h).
 *
 * Members are written through memcpy of their exact bytes: the struct is the caller's
 * object of its declared type, and the bytes are what an assignment of the same value
 * would store on a little-endian target (fb_read.h refuses others). Spans, strings and
 * data pointers are stored as the pointer into the plan they are, which assumes what every
 * ABI the runtime targets gives: one representation for pointers to every object type. The
 * span types of tigris_runtime.h share one layout, checked below.
 */
#include "fb_map.h"

#include <stdbool.h>
#include <string.h>

#include "fb_read.h"
#include "tigris_runtime.h"

/* C99 has no static_assert: a negative array size fails the build. */
#define FB_MAP_CHECK(name, condition) typedef char name[(condition) ? 1 : -1]
#define FB_SAME_SPAN_(span)                                                                \
  (sizeof(span) == sizeof(tgrs_u8s) && offsetof(span, data) == offsetof(tgrs_u8s, data) && \
   offsetof(span, count) == offsetof(tgrs_u8s, count))
FB_MAP_CHECK(fb_map_spans_share_a_layout,
             FB_SAME_SPAN_(tgrs_i32s) && FB_SAME_SPAN_(tgrs_f32s) && FB_SAME_SPAN_(tgrs_i8s));

static void store_scalar(uint8_t* member, uint32_t value, unsigned bytes) {
  if (bytes == 4u) {
    memcpy(member, &value, 4);
  } else if (bytes == 2u) {
    const uint16_t half = (uint16_t)value;
    memcpy(member, &half, 2);
  } else {
    *member = (uint8_t)value;
  }
}

void tgrs_fb_map_read(const uint8_t* table, const fb_map* map, size_t count, void* out) {
  uint8_t* base = (uint8_t*)out;
  const fb_map* end = map + count;
  /* The vtable found once per table, not once per field (fb_field_in). */
  const uint8_t* vtable = table ? table - fb_i32(table) : NULL;
  const uint32_t vtable_bytes = vtable ? fb_u16(vtable) : 0u;
  for (; map != end; ++map) {
    const uint8_t* f = fb_field_in(table, vtable, vtable_bytes, map->id);
    uint8_t* member = base + map->offset;
    const unsigned how = map->how & 15u;
    const uint8_t* object;
    tgrs_u8s span;
    if (how <= FB_MAP_I32) {
      uint32_t value = (uint32_t)(int32_t)map->fallback;
      if (f) {
        value = how == FB_MAP_I32    ? fb_u32(f)
                : how == FB_MAP_U16  ? fb_u16(f)
                : how == FB_MAP_FLAG ? (uint32_t)(f[0] != 0)
                                     : f[0];
      }
      store_scalar(member, value, map->how >> 4);
      continue;
    }
    if (how == FB_MAP_PRESENT) {
      *member = f != NULL; /* a bool's bytes: 0 or 1 */
      continue;
    }
    object = f ? f + fb_u32(f) : NULL;
    if (how == FB_MAP_STRING) {
      const char* text = object ? (const char*)(object + 4) : "";
      memcpy(member, &text, sizeof text);
      continue;
    }
    if (how == FB_MAP_OBJECT) {
      memcpy(member, &object, sizeof object);
      continue;
    }
    span.count = fb_vec_len(object);
    span.data = span.count ? object + 4 : NULL;
    if (how == FB_MAP_SPAN) {
      memcpy(member, &span, sizeof span);
    } else if (how == FB_MAP_DATA) {
      memcpy(member, &span.data, sizeof span.data);
    } else { /* FB_MAP_LENGTH */
      memcpy(member, &span.count, sizeof span.count);
    }
  }
}
