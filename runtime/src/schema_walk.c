/*
 * schema_walk.c: the first layer of the verifier. It checks a buffer's FlatBuffers wire
 * format against the schema's descriptions (plan_schema.c), table by table from the
 * root, so every uoffset, vtable, vector and string the reader will follow lies inside
 * the buffer and is aligned, and every field lies inside its table (fb_read.h has the
 * format). It also checks the rules a single field declares: enum ranges, indices into
 * the plan's vectors, presence. plan_verify.c checks the rest on the trusted result.
 *
 * One interpreter over data rather than a function per table: the walk is the same for
 * every table, and a schema change is a line in plan_schema.c (issue 17: the verifier was
 * the largest part of the Cortex-M runtime).
 */
#include <string.h>

#include "fb_read.h"
#include "verify_internal.h"

/* --- error path ------------------------------------------------------------------------ */

static void push_name(vctx* c, const char* name, int32_t index) {
  if (c->depth < TGRS_VERIFY_PATH_DEPTH) {
    c->path[c->depth].field = name;
    c->path[c->depth].index = index;
  }
  c->depth++;
}

void tgrs_verify_push_(vctx* c, unsigned field, int32_t index) {
  push_name(c, tgrs_fb_field_name(field), index);
}

void tgrs_verify_index_(vctx* c, uint32_t index) {
  if (c->depth && c->depth <= TGRS_VERIFY_PATH_DEPTH) c->path[c->depth - 1].index = (int32_t)index;
}

void tgrs_verify_pop_(vctx* c) { c->depth--; }

tgrs_status tgrs_verify_fail_(vctx* c, unsigned field, tgrs_status status,
                              TGRS_VERIFY_MESSAGE_ARG(const char* message) int64_t value,
                              int64_t limit) {
  uint32_t n;
  if (field != FB_NO_FIELD) tgrs_verify_push_(c, field, -1);
  n = c->depth < TGRS_VERIFY_PATH_DEPTH ? c->depth : TGRS_VERIFY_PATH_DEPTH;
  c->err->status = status;
  c->err->depth = n;
  memcpy(c->err->path, c->path, sizeof(c->path[0]) * n);
  c->err->message = TGRS_MESSAGE(message);
  c->err->value = value;
  c->err->limit = limit;
  return status;
}

/* `bits` as a number, read as two's complement when `is_signed` (reinterpreted as
 * fb_i32 does, not converted: C leaves converting a large uint32_t to int32_t to the
 * implementation). */
static int64_t widen(uint32_t bits, uint32_t is_signed) {
  int32_t as_signed;
  memcpy(&as_signed, &bits, sizeof as_signed);
  return is_signed ? (int64_t)as_signed : (int64_t)bits;
}

tgrs_status tgrs_verify_fail32_(vctx* c, unsigned field, uint32_t status_signs,
                                TGRS_VERIFY_MESSAGE_ARG(const char* message) uint32_t value,
                                uint32_t limit) {
  return tgrs_verify_fail_(c, field, (tgrs_status)(status_signs / 4u),
                           TGRS_VERIFY_MESSAGE_ARG(message)
                               widen(value, status_signs & TGRS_VERIFY_VALUE_SIGNED),
                           widen(limit, status_signs & TGRS_VERIFY_LIMIT_SIGNED));
}

tgrs_status tgrs_verify_spend_(vctx* c, uint64_t units) {
  if (c->budget < units) {
    return tgrs_verify_fail_(
        c, FB_NO_FIELD, TGRS_ERR_TOO_COMPLEX,
        TGRS_VERIFY_MESSAGE_ARG("verification work exceeds {l} units (shared tables?)") 0,
        (int64_t)c->budget);
  }
  c->budget -= units;
  return TGRS_OK;
}

#define FAIL(c, status, message, value, limit) \
  TGRS_VERIFY_FAIL(c, FB_NO_FIELD, status, message, value, limit)

/* The path's name of field `id`, described by `f`: its name, or without messages its id
 * (fb_id_name). */
#if TGRS_WITH_MESSAGES
#define NAME_OF(f, id) ((f)->name)
#else
#define NAME_OF(f, id) fb_id_name(id)
#endif

/* --- wire format -------------------------------------------------------------------------- */

tgrs_status tgrs_check_table_(vctx* c, uint32_t pos, vtab* t) {
  int64_t vt;
  TRY(tgrs_verify_spend_(c, 1));
  if (pos % 4u != 0 || (uint64_t)pos + 4u > c->size) {
    return FAIL(c, TGRS_ERR_BAD_OFFSET, "table at {v} outside the buffer or misaligned", pos,
                c->size);
  }
  vt = (int64_t)pos - (int64_t)fb_i32(c->base + pos);
  if (vt < 0 || vt % 2 != 0 || vt + 4 > (int64_t)c->size) {
    return FAIL(c, TGRS_ERR_BAD_VTABLE, "vtable at {v} outside the buffer (size {l})", vt, c->size);
  }
  t->pos = pos;
  t->vt = (uint32_t)vt;
  t->vsize = fb_u16(c->base + t->vt);
  t->tsize = fb_u16(c->base + t->vt + 2);
  if (t->vsize < 4u || t->vsize % 2u != 0 || (uint64_t)t->vt + t->vsize > c->size) {
    return FAIL(c, TGRS_ERR_BAD_VTABLE, "vtable of {v} bytes runs outside the buffer", t->vsize,
                c->size);
  }
  if (t->tsize < 4u || (uint64_t)pos + t->tsize > c->size) {
    return FAIL(c, TGRS_ERR_BAD_VTABLE, "table of {v} bytes runs outside the buffer", t->tsize,
                c->size);
  }
  return TGRS_OK;
}

/* Position of field `f` (id `id`) of table `t`, 0 when absent; the field is checked to
 * lie inside the table, aligned. The field is on the path when this fails. */
static tgrs_status field_at(vctx* c, const vtab* t, unsigned id, const fb_field_schema* f,
                            uint32_t* at) {
  const uint32_t slot = 4u + 2u * id;
  const uint32_t off = slot < t->vsize ? fb_u16(c->base + t->vt + slot) : 0u;
  const uint32_t bytes = FB_KIND_OF(f) <= FB_KIND_STRUCT ? f->size : 4u;
  const uint32_t align = FB_KIND_OF(f) == FB_KIND_SCALAR ? f->size : 4u;
  *at = 0;
  if (off == 0) {
    if (FB_RULE_OF(f) & FB_REQUIRED) {
      return FAIL(c, TGRS_ERR_MISSING_FIELD, "required field is absent", 0, 0);
    }
    return TGRS_OK;
  }
  if (off < 4u || off + bytes > t->tsize || (t->pos + off) % align != 0) {
    return FAIL(c, TGRS_ERR_BAD_VTABLE,
                "field at table offset {v} outside the table ({l} bytes) or misaligned", off,
                t->tsize);
  }
  *at = t->pos + off;
  return TGRS_OK;
}

/* The object a uoffset at `at` points to. */
static tgrs_status follow(vctx* c, uint32_t at, uint32_t* to) {
  const uint64_t target = (uint64_t)at + fb_u32(c->base + at);
  if (target >= c->size) {
    return FAIL(c, TGRS_ERR_BAD_OFFSET, "offset to {v} points outside the buffer (size {l})",
                (int64_t)target, c->size);
  }
  *to = (uint32_t)target;
  return TGRS_OK;
}

/* The vector of `elem_bytes` elements at `pos` lies inside the buffer (elem_bytes 0: a
 * string, NUL included); *len = its length. Its elements cost one unit per 4 bytes. */
static tgrs_status check_vector(vctx* c, uint32_t pos, uint32_t elem_bytes, uint32_t* len) {
  uint64_t end;
  if (pos % 4u != 0 || (uint64_t)pos + 4u > c->size) {
    return FAIL(c, TGRS_ERR_BAD_OFFSET,
                elem_bytes ? "vector at {v} outside the buffer or misaligned"
                           : "string at {v} outside the buffer or misaligned",
                pos, c->size);
  }
  *len = fb_u32(c->base + pos);
  if (elem_bytes == 0) { /* a string: its bytes and the NUL after them */
    if ((uint64_t)pos + 4u + *len + 1u > c->size || c->base[pos + 4u + *len] != 0) {
      return FAIL(c, TGRS_ERR_BAD_STRING,
                  "string of {v} bytes not NUL-terminated inside the buffer (size {l})", *len,
                  c->size);
    }
    return TGRS_OK;
  }
  end = (uint64_t)pos + 4u + (uint64_t)*len * elem_bytes;
  if (end > c->size) {
    return FAIL(c, TGRS_ERR_BAD_VECTOR, "vector of {v} elements runs past the buffer end ({l})",
                *len, c->size);
  }
  return tgrs_verify_spend_(c, (uint64_t)*len * elem_bytes / 4u);
}

/* A scalar or each int32 of a vector under an index rule: an index into the collection,
 * or -1 when the rule allows none. */
static tgrs_status check_index(vctx* c, const fb_field_schema* f, int32_t x) {
  const uint32_t count = c->count[f->arg];
  if ((x == -1 && (FB_RULE_OF(f) & FB_RULE_MASK) == FB_RULE_INDEX_OR_NONE) ||
      (x >= 0 && (uint32_t)x < count)) {
    return TGRS_OK;
  }
  return FAIL(c, TGRS_ERR_BAD_INDEX, tgrs_fb_collection_messages[f->arg], x, count);
}

static tgrs_status walk_field(vctx* c, uint32_t at, const fb_field_schema* f) {
  const unsigned rule = FB_RULE_OF(f) & FB_RULE_MASK;
  uint32_t to, len, i;
  vtab sub;
  if (FB_KIND_OF(f) == FB_KIND_SCALAR) {
    if (rule == FB_RULE_ENUM) {
      const uint32_t value = f->size == 1u ? c->base[at] : fb_u16(c->base + at);
      if (value >= f->arg) {
        return FAIL(c, TGRS_ERR_BAD_ENUM, "unknown value {v} (known: 0..{l})", value,
                    (int64_t)f->arg - 1);
      }
    } else if (rule != FB_RULE_NONE) {
      return check_index(c, f, fb_i32(c->base + at));
    }
    return TGRS_OK;
  }
  if (FB_KIND_OF(f) == FB_KIND_STRUCT) return TGRS_OK;
  TRY(follow(c, at, &to));
  switch (FB_KIND_OF(f)) {
    case FB_KIND_STRING:
      return check_vector(c, to, 0, &len);
    case FB_KIND_VECTOR:
      TRY(check_vector(c, to, f->size, &len));
      for (i = 0; rule != FB_RULE_NONE && i < len; ++i) {
        tgrs_verify_index_(c, i);
        TRY(check_index(c, f, fb_i32(c->base + to + 4u + 4u * i)));
      }
      return TGRS_OK;
    case FB_KIND_TABLE:
      TRY(tgrs_check_table_(c, to, &sub));
      return tgrs_walk_table_(c, &sub, f->size);
    default: /* FB_KIND_TABLES */
      TRY(check_vector(c, to, 4, &len));
      for (i = 0; i < len; ++i) {
        tgrs_verify_index_(c, i);
        TRY(follow(c, to + 4u + 4u * i, &at));
        TRY(tgrs_check_table_(c, at, &sub));
        TRY(tgrs_walk_table_(c, &sub, f->size));
      }
      return TGRS_OK;
  }
}

tgrs_status tgrs_walk_table_(vctx* c, const vtab* t, unsigned table) {
  const fb_table_schema* s = &tgrs_fb_schema_tables[table];
  unsigned id;
  for (id = 0; id < s->count; ++id) {
    const fb_field_schema* f = &tgrs_fb_schema_fields[s->first + id];
    uint32_t at;
    push_name(c, NAME_OF(f, id), -1);
    TRY(field_at(c, t, id, f, &at));
    if (at) TRY(walk_field(c, at, f));
    tgrs_verify_pop_(c);
  }
  return TGRS_OK;
}

tgrs_status tgrs_table_field_(vctx* c, const vtab* t, unsigned table, unsigned id, uint32_t* at,
                              uint32_t* to, uint32_t* len) {
  const fb_field_schema* f = &tgrs_fb_schema_fields[tgrs_fb_schema_tables[table].first + id];
  vtab sub;
  push_name(c, NAME_OF(f, id), -1);
  TRY(field_at(c, t, id, f, at));
  if (to != NULL) *to = 0;
  if (len != NULL) *len = 0;
  if (*at && (to != NULL || len != NULL)) {
    uint32_t target;
    TRY(follow(c, *at, &target));
    if (FB_KIND_OF(f) == FB_KIND_TABLE) {
      TRY(tgrs_check_table_(c, target, &sub));
    } else if (len != NULL) {
      TRY(check_vector(c, target, FB_KIND_OF(f) == FB_KIND_TABLES ? 4u : f->size, len));
    }
    if (to != NULL) *to = target;
  }
  tgrs_verify_pop_(c);
  return TGRS_OK;
}

tgrs_status tgrs_root_field_(vctx* c, const vtab* root, unsigned id, uint32_t* at, uint32_t* len) {
  return tgrs_table_field_(c, root, TGRS_TABLE_PLAN, id, at, NULL, len);
}
