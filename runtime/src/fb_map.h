/*
 * fb_map.h: a getter's struct filled from a verified table by data (not installed).
 *
 * Each getter of plan_reader.c lists, per member of its struct (tigris_runtime.h), the
 * field the member comes from and how it converts; tgrs_fb_map_read() does the reads in one
 * loop. As code, every member was a call and a store in every getter: 1.3 KB of Cortex-M
 * code for the reader's structs (issue 17), where an entry is four bytes. The verifier's
 * descriptions (plan_schema.h) are the same idea for checking.
 */
#ifndef TIGRIS_RUNTIME_FB_MAP_H_
#define TIGRIS_RUNTIME_FB_MAP_H_

#include <stddef.h>
#include <stdint.h>

/* How a field becomes its member. */
enum {
  FB_MAP_U8 = 0, /* a ubyte (a byte-wide enum on the wire), zero-extended */
  FB_MAP_FLAG,   /* a bool on the wire: 1 when its byte is not 0 */
  FB_MAP_U16,    /* a ushort, zero-extended */
  FB_MAP_I32,    /* an int, uint or float: its four bytes as they are */
  FB_MAP_SPAN,   /* a vector as a {data, count} span (tgrs_i32s, ...); data NULL when empty */
  FB_MAP_DATA,   /* a pointer to a vector's first element, NULL when empty */
  FB_MAP_LENGTH, /* a vector's length, uint32_t */
  FB_MAP_STRING, /* a string's characters, "" when absent */
  FB_MAP_OBJECT, /* the object (vector, table) a uoffset points at, NULL when absent */
  FB_MAP_PRESENT /* bool: whether the field is there */
};

typedef struct fb_map {
  uint8_t id;      /* field id in the table (fb_read.h FB_*) */
  uint8_t how;     /* FB_MAP_* in the low four bits; a scalar member's bytes (1, 2, 4) above */
  uint8_t offset;  /* of the member in its struct */
  int8_t fallback; /* a scalar's value when the field is absent (the schema's default) */
} fb_map;

/* offsetof(type, member), which must fit the entry's byte: a larger one fails to compile. */
#define FB_MAP_OFFSET_(type, member) \
  (offsetof(type, member) + 0u * sizeof(char[offsetof(type, member) < 256u ? 1 : -1]))

/* A scalar member (FB_MAP_U8 .. FB_MAP_I32): its bytes come from the member's own type, so
 * enums are right whatever width the target gives them (arm-none-eabi: one byte). */
#define FB_SCALAR(type, member, id, how, fallback)                     \
  {                                                                    \
    (uint8_t)(id), (uint8_t)((how) | sizeof(((type*)0)->member) << 4), \
        (uint8_t)FB_MAP_OFFSET_(type, member), (int8_t)(fallback)      \
  }
/* Any other member (FB_MAP_SPAN .. FB_MAP_PRESENT): a pointer, a span, a length, a bool. */
#define FB_VIEW(type, member, id, how) \
  { (uint8_t)(id), (uint8_t)(how), (uint8_t)FB_MAP_OFFSET_(type, member), 0 }

#define FB_MAP_COUNT(map) (sizeof(map) / sizeof((map)[0]))

/* Fills the members `map` names in `out` from `table` (a verified table, or NULL: every
 * field absent). Members it does not name keep their bytes. */
void tgrs_fb_map_read(const uint8_t* table, const fb_map* map, size_t count, void* out);

#endif /* TIGRIS_RUNTIME_FB_MAP_H_ */
