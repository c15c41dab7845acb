/*
 * host_io.c: moving tensors between the caller's buffers, the slow arena and the fast arena.
 *
 * The caller's buffers hold ONNX layout; the arenas the runtime layout (rank 4 NHWC,
 * rank 3 NWC). host_permutation maps one to the other (docs/plan-format.md, "Graph inputs
 * and outputs"): inputs runtime = transpose(onnx, P), outputs onnx = transpose(runtime, P).
 * Only rank-4 tensors are tiled; their rows are the runtime H axis (index 1), their columns
 * W (index 2), and a strip of rows [a, b) and columns [c, d) is laid out [N, b - a, d - c, C]
 * (the kernels' tile layout).
 */
#include <string.h>

#include "exec_internal.h"

size_t tgrs_row_bytes(const tgrs_plan_tensor* t) {
  const int32_t rows = tgrs_tensor_rows(t);
  const size_t total = tgrs_plan_tensor_bytes(t);
  const size_t n = t->shape.count == 4 ? (size_t)t->shape.data[0] : 1u;
  if (rows <= 0 || n == 0) return 0;
  return total / n / (size_t)rows;
}

int32_t tgrs_tensor_rows(const tgrs_plan_tensor* t) {
  return t->shape.count == 4 ? t->shape.data[1] : 1;
}

int32_t tgrs_tensor_cols(const tgrs_plan_tensor* t) {
  return t->shape.count == 4 ? t->shape.data[2] : 1;
}

int32_t tgrs_tensor_chans(const tgrs_plan_tensor* t) {
  return t->shape.count == 4 ? t->shape.data[3] : 1;
}

tgrs_box tgrs_whole_box(const tgrs_plan_tensor* t) {
  tgrs_box b;
  b.row_begin = 0;
  b.row_end = tgrs_tensor_rows(t);
  b.col_begin = 0;
  b.col_end = tgrs_tensor_cols(t);
  b.chan_begin = 0;
  b.chan_end = tgrs_tensor_chans(t);
  return b;
}

tgrs_box tgrs_operand_box(const tgrs_operand* o) {
  tgrs_box b;
  b.row_begin = o->row_begin;
  b.row_end = o->row_begin + o->rows;
  b.col_begin = o->col_begin;
  b.col_end = o->col_begin + o->cols;
  b.chan_begin = o->chan_begin;
  b.chan_end = o->chan_begin + o->chans;
  return b;
}

void tgrs_copy_box(const tgrs_plan_tensor* t, uint8_t* whole, uint8_t* strip, const tgrs_box* b,
                   int to_strip) {
  const size_t row = tgrs_row_bytes(t);
  const int32_t width = tgrs_tensor_cols(t);
  const size_t pixel = width > 0 ? row / (size_t)width : 0;
  const int32_t depth = tgrs_tensor_chans(t);
  const size_t elem = depth > 0 ? pixel / (size_t)depth : 0;
  /* A channel group copies its channels of each pixel; whole pixels copy a box row at once. */
  const size_t chunk = (size_t)(b->chan_end - b->chan_begin) * elem;
  const int whole_pixels = chunk == pixel;
  const int32_t chunks = whole_pixels ? 1 : b->col_end - b->col_begin;
  const size_t span = whole_pixels ? (size_t)(b->col_end - b->col_begin) * pixel : chunk;
  const int32_t height = tgrs_tensor_rows(t);
  const int32_t n_count = t->shape.count == 4 ? t->shape.data[0] : 1;
  uint8_t* s = strip;
  int32_t n, y, x;
  for (n = 0; n < n_count; ++n) {
    for (y = b->row_begin; y < b->row_end; ++y) {
      uint8_t* w = whole + ((size_t)n * (size_t)height + (size_t)y) * row +
                   (size_t)b->col_begin * pixel + (size_t)b->chan_begin * elem;
      for (x = 0; x < chunks; ++x, w += pixel, s += span) {
        if (to_strip) {
          memcpy(s, w, span);
        } else {
          memcpy(w, s, span);
        }
      }
    }
  }
}

/* Per runtime axis (right-aligned to 4): extent and the host buffer's element stride. */
typedef struct host_map {
  int32_t dims[4];
  size_t host_stride[4];
  int identity;
} host_map;

static tgrs_status make_host_map(const tgrs_plan_tensor* t, int is_input, host_map* m) {
  const uint32_t rank = t->shape.count;
  const uint32_t pad = 4u - rank;
  size_t onnx_stride[4];
  uint32_t i, seen = 0;
  int32_t last = -1; /* the last axis of extent > 1 met, in the walk below */
  if (rank == 0 || rank > 4) return rank == 0 ? TGRS_OK : TGRS_ERR_UNSUPPORTED_OP;
  if (t->host_permutation.count != 0 && t->host_permutation.count != rank) {
    return TGRS_ERR_INCONSISTENT_PLAN;
  }
  if (t->onnx_shape.count != rank) {
    /* A caller shape of another rank and no permutation: the same bytes (a trailing Reshape
     * moved to the host, docs/plan-format.md; the verifier matched the element counts). */
    if (t->host_permutation.count != 0) return TGRS_ERR_INCONSISTENT_PLAN;
    m->identity = 1;
    return TGRS_OK;
  }
  onnx_stride[rank - 1] = 1;
  for (i = rank - 1; i > 0; --i) {
    onnx_stride[i - 1] = onnx_stride[i] * (size_t)t->onnx_shape.data[i];
  }
  for (i = 0; i < 4; ++i) {
    m->dims[i] = 1;
    m->host_stride[i] = 0;
  }
  m->identity = 1;
  for (i = 0; i < rank; ++i) {
    const int32_t p = t->host_permutation.count ? t->host_permutation.data[i] : (int32_t)i;
    if (p < 0 || (uint32_t)p >= rank || (seen & (1u << p))) return TGRS_ERR_INCONSISTENT_PLAN;
    seen |= 1u << p;
    /* The bytes are the runtime layout's, copied as they are, when the axes of extent > 1
     * keep their order (an NCHW input of one channel is NHWC already). */
    if ((is_input ? t->shape.data[i] : t->shape.data[p]) != 1) {
      if (p < last) m->identity = 0;
      last = p;
    }
    m->dims[pad + i] = t->shape.data[i];
    if (is_input) {
      /* runtime axis i is ONNX axis p */
      if (t->onnx_shape.data[p] != t->shape.data[i]) return TGRS_ERR_INCONSISTENT_PLAN;
      m->host_stride[pad + i] = onnx_stride[p];
    } else {
      /* ONNX axis i is runtime axis p */
      if (t->onnx_shape.data[i] != t->shape.data[p]) return TGRS_ERR_INCONSISTENT_PLAN;
      m->host_stride[pad + (uint32_t)p] = onnx_stride[i];
    }
  }
  return TGRS_OK;
}

/* uint8 <-> int8 for a tensor whose host dtype is UINT8 (docs/plan-format.md, "Graph
 * inputs and outputs"): q - 128 as int8 has the bits of q ^ 0x80. */
static void flip_bytes(uint8_t* p, size_t count) {
  size_t i;
  for (i = 0; i < count; ++i) p[i] ^= 0x80u;
}

/* Flips box `b` of a whole rank-4 tensor in the runtime layout (or all of a lower-rank one). */
static void flip_box(const tgrs_plan_tensor* t, uint8_t* whole, const tgrs_box* b) {
  int32_t n, h, w;
  if (t->shape.count != 4) {
    flip_bytes(whole, tgrs_plan_tensor_bytes(t));
    return;
  }
  for (n = 0; n < t->shape.data[0]; ++n) {
    for (h = b->row_begin; h < b->row_end; ++h) {
      for (w = b->col_begin; w < b->col_end; ++w) {
        const size_t pixel =
            ((size_t)n * (size_t)t->shape.data[1] + (size_t)h) * (size_t)t->shape.data[2] +
            (size_t)w;
        flip_bytes(whole + pixel * (size_t)t->shape.data[3] + (size_t)b->chan_begin,
                   (size_t)(b->chan_end - b->chan_begin));
      }
    }
  }
}

static tgrs_status host_copy(const tgrs_plan_tensor* t, int is_input, uint8_t* host, uint8_t* arena,
                             const tgrs_box* box) {
  const size_t elem = tgrs_dtype_size(t->dtype);
  const int flip =
      TGRS_WITH_UINT8_IO && t->host_dtype == TGRS_DTYPE_UINT8 && t->dtype == TGRS_DTYPE_INT8;
  host_map m;
  tgrs_box b = *box;
  size_t channel_step;
  uint8_t flip_mask;
  int32_t n, h, w, c;
  uint8_t* a = arena;
  tgrs_status st;
  if (!TGRS_WITH_UINT8_IO && t->host_dtype != t->dtype) return TGRS_ERR_UNSUPPORTED_OP;
  if (t->shape.count == 0) { /* a scalar */
    if (is_input) {
      memcpy(arena, host, elem);
      if (flip) flip_bytes(arena, 1);
    } else {
      memcpy(host, arena, elem);
      if (flip) flip_bytes(host, 1);
    }
    return TGRS_OK;
  }
  st = make_host_map(t, is_input, &m);
  if (st != TGRS_OK) return st;
  if (t->shape.count != 4) b = tgrs_whole_box(t); /* lower ranks are never tiled */
  if (!m.identity && !TGRS_WITH_HOST_PERMUTATION) return TGRS_ERR_UNSUPPORTED_OP;
  if (m.identity) {
    tgrs_copy_box(t, host, arena, &b, is_input);
    if (flip && is_input) {
      /* The strip holds the box as [N, rows, cols, chans] (a lower rank: all of it). */
      flip_bytes(arena, t->shape.count != 4
                            ? tgrs_plan_tensor_bytes(t)
                            : (size_t)t->shape.data[0] * (size_t)(b.row_end - b.row_begin) *
                                  (size_t)(b.col_end - b.col_begin) *
                                  (size_t)(b.chan_end - b.chan_begin));
    } else if (flip) {
      flip_box(t, host, &b); /* the caller's bytes, the runtime layout's (identity) */
    }
    return TGRS_OK;
  }
  channel_step = m.host_stride[3] * elem;
  flip_mask = flip ? 0x80u : 0u;
  /* Runtime axes 1 and 2 are H and W for rank 4; lower ranks take all of them. */
  if (t->shape.count != 4) {
    b.row_begin = b.col_begin = b.chan_begin = 0;
    b.row_end = m.dims[1];
    b.col_end = m.dims[2];
    b.chan_end = m.dims[3];
  }
  for (n = 0; n < m.dims[0]; ++n) {
    for (h = b.row_begin; h < b.row_end; ++h) {
      for (w = b.col_begin; w < b.col_end; ++w) {
        const size_t base = (size_t)n * m.host_stride[0] + (size_t)h * m.host_stride[1] +
                            (size_t)w * m.host_stride[2] + (size_t)b.chan_begin * m.host_stride[3];
        uint8_t* hp = host + base * elem;
        /* One element per step, in the two sizes plans hold without a call per element
         * (the top bit flip is uint8 <-> int8, one-byte elements only). */
        for (c = b.chan_begin; c < b.chan_end; ++c, a += elem, hp += channel_step) {
          uint8_t* to = is_input ? a : hp;
          const uint8_t* from = is_input ? hp : a;
          if (elem == 1u) {
            *to = (uint8_t)(*from ^ flip_mask);
          } else if (elem == 4u) {
            memcpy(to, from, 4);
          } else {
            memcpy(to, from, elem);
          }
        }
      }
    }
  }
  return TGRS_OK;
}

tgrs_status tgrs_host_to_runtime(const tgrs_plan_tensor* t, const uint8_t* host, uint8_t* dst,
                                 const tgrs_box* b) {
  /* host_copy only reads through `host` when is_input is set. */
  return host_copy(t, 1, (uint8_t*)(uintptr_t)host, dst, b);
}

tgrs_status tgrs_runtime_to_host(const tgrs_plan_tensor* t, const uint8_t* src, uint8_t* host,
                                 const tgrs_box* b) {
  return host_copy(t, 0, host, (uint8_t*)(uintptr_t)src, b);
}
