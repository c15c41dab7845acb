/*
 * recurrent.c: ONNX RNN, GRU and LSTM over float32 (tgrs_kernels.h). One loop for the three
 * cells: per direction and batch entry, the state lives in scratch and each step computes
 * its gates' inputs (W's products with X_t, R's with H_{t-1}, the biases), then the cell's
 * update. The equations are the ONNX operator specs' (RNN, GRU, LSTM); where the spec is
 * silent (the clip reaches each gate's whole input, peephole included; Y is zero past a
 * sequence's length) the kernel does what onnxruntime's CPU kernels do.
 */
#include "tgrs_kernels.h"
#include "tgrs_math.h"

static int32_t gate_count(int32_t cell) {
  switch (cell) {
    case TGRS_CELL_RNN:
      return 1;
    case TGRS_CELL_GRU:
      return 3;
    case TGRS_CELL_LSTM:
      return 4;
    default:
      return 0;
  }
}

size_t tgrs_recurrent_scratch_bytes(int32_t cell, int32_t hidden_size) {
  const int32_t gates = gate_count(cell);
  if (gates == 0 || hidden_size <= 0) return 0;
  return (size_t)(gates + 3) * (size_t)hidden_size * sizeof(float);
}

static float sigmoid(float x) {
  /* exp of a non-positive argument only, so it never overflows (tgrs_sigmoid_f32) */
  if (x >= 0.0f) return 1.0f / (1.0f + tgrs_expf(-x));
  {
    const float e = tgrs_expf(x);
    return e / (1.0f + e);
  }
}

static float apply(const tgrs_recurrent_fn* fn, float x) {
  switch (fn->kind) {
    case TGRS_RECURRENT_SIGMOID:
      return sigmoid(x);
    case TGRS_RECURRENT_TANH:
      return tgrs_tanhf(x);
    case TGRS_RECURRENT_RELU:
      return x > 0.0f ? x : 0.0f;
    case TGRS_RECURRENT_HARD_SIGMOID: {
      const float v = fn->alpha * x + fn->beta;
      return v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v;
    }
    case TGRS_RECURRENT_LEAKY_RELU:
      return x < 0.0f ? fn->alpha * x : x;
    case TGRS_RECURRENT_THRESHOLDED_RELU:
      return x > fn->alpha ? x : 0.0f;
    case TGRS_RECURRENT_SCALED_TANH:
      return fn->alpha * tgrs_tanhf(fn->beta * x);
    case TGRS_RECURRENT_AFFINE:
      return fn->alpha * x + fn->beta;
    case TGRS_RECURRENT_ELU:
      return x < 0.0f ? fn->alpha * (tgrs_expf(x) - 1.0f) : x;
    case TGRS_RECURRENT_SOFTSIGN:
      return x / (1.0f + (x < 0.0f ? -x : x));
    default: /* TGRS_RECURRENT_SOFTPLUS; the codes were checked before the loop */
      return x > 0.0f ? x + tgrs_logf(1.0f + tgrs_expf(-x)) : tgrs_logf(1.0f + tgrs_expf(x));
  }
}

static float clip(float x, float limit) {
  if (limit > 0.0f) {
    if (x < -limit) return -limit;
    if (x > limit) return limit;
  }
  return x;
}

/* sum over k < n of a[k * stride] * b[k] */
static float dot(const float* a, int32_t stride, const float* b, int32_t n) {
  float acc = 0.0f;
  int32_t k;
  for (k = 0; k < n; ++k) acc += a[k * stride] * b[k];
  return acc;
}

/* The weights of one direction, dense in ONNX's order. */
typedef struct direction_weights {
  const float* w;  /* [G H][I] */
  const float* r;  /* [G H][H] */
  const float* wb; /* [G H] or NULL */
  const float* rb; /* [G H] or NULL */
  const float* p;  /* [3 H] or NULL */
  const tgrs_recurrent_fn* fn;
} direction_weights;

/* gates[k] = X_t W_k^T + H R_k^T + Wb_k + Rb_k for rows [first, last). */
static void gate_inputs(const tgrs_recurrent_params* prm, const direction_weights* dw,
                        const float* xt, const float* h, int32_t first, int32_t last,
                        float* gates) {
  const int32_t in = prm->input_size, hid = prm->hidden_size;
  int32_t k;
  for (k = first; k < last; ++k) {
    float acc = dot(xt, prm->x_stride[2], dw->w + (size_t)k * (size_t)in, in);
    acc += dot(h, 1, dw->r + (size_t)k * (size_t)hid, hid);
    if (dw->wb != NULL) acc += dw->wb[k] + dw->rb[k];
    gates[k] = acc;
  }
}

/* One step of direction dw from state (h, c), in place. tmp holds hidden_size floats. */
static void step(const tgrs_recurrent_params* prm, const direction_weights* dw, const float* xt,
                 float* gates, float* h, float* c, float* tmp) {
  const int32_t hid = prm->hidden_size, in = prm->input_size;
  const float lim = prm->clip;
  int32_t j;
  if (prm->cell == TGRS_CELL_RNN) {
    gate_inputs(prm, dw, xt, h, 0, hid, gates);
    for (j = 0; j < hid; ++j) h[j] = apply(&dw->fn[0], clip(gates[j], lim));
    return;
  }
  if (prm->cell == TGRS_CELL_GRU) {
    /* z and r from H_{t-1}; then h~, whose R product reads r (.) H_{t-1} or, with
     * linear_before_reset, is multiplied by r after its bias. */
    float* z = gates;
    float* r = gates + hid;
    float* hh = gates + 2 * hid;
    gate_inputs(prm, dw, xt, h, 0, 2 * hid, gates);
    for (j = 0; j < 2 * hid; ++j) gates[j] = apply(&dw->fn[0], clip(gates[j], lim));
    if (!prm->linear_before_reset) {
      for (j = 0; j < hid; ++j) tmp[j] = r[j] * h[j];
    }
    for (j = 0; j < hid; ++j) {
      const size_t row = (size_t)(2 * hid + j);
      const float xw = dot(xt, prm->x_stride[2], dw->w + row * (size_t)in, in) +
                       (dw->wb != NULL ? dw->wb[row] : 0.0f);
      const float rb = dw->rb != NULL ? dw->rb[row] : 0.0f;
      const float* rrow = dw->r + row * (size_t)hid;
      const float pre = prm->linear_before_reset ? xw + r[j] * (dot(h, 1, rrow, hid) + rb)
                                                 : xw + (dot(tmp, 1, rrow, hid) + rb);
      hh[j] = apply(&dw->fn[1], clip(pre, lim));
    }
    for (j = 0; j < hid; ++j) h[j] = (1.0f - z[j]) * hh[j] + z[j] * h[j];
    return;
  }
  /* LSTM: gates i, o, f, c; peepholes P = [i, o, f]. */
  gate_inputs(prm, dw, xt, h, 0, 4 * hid, gates);
  for (j = 0; j < hid; ++j) {
    const float pi = dw->p != NULL ? dw->p[j] * c[j] : 0.0f;
    const float pf = dw->p != NULL ? dw->p[2 * hid + j] * c[j] : 0.0f;
    const float i = apply(&dw->fn[0], clip(gates[j] + pi, lim));
    const float f = apply(&dw->fn[0], clip(gates[2 * hid + j] + pf, lim));
    const float ct = apply(&dw->fn[1], clip(gates[3 * hid + j], lim));
    const float cell = f * c[j] + i * ct;
    const float po = dw->p != NULL ? dw->p[hid + j] * cell : 0.0f;
    const float o = apply(&dw->fn[0], clip(gates[hid + j] + po, lim));
    c[j] = cell;
    h[j] = o * apply(&dw->fn[2], cell);
  }
}

static int params_valid(const tgrs_recurrent_params* prm) {
  const int32_t fns = prm->cell == TGRS_CELL_LSTM ? 3 : prm->cell == TGRS_CELL_GRU ? 2 : 1;
  int32_t d, k;
  if (gate_count(prm->cell) == 0 || prm->seq_length <= 0 || prm->batch <= 0 ||
      prm->input_size <= 0 || prm->hidden_size <= 0 ||
      (prm->directions != 1 && prm->directions != 2)) {
    return 0;
  }
  for (d = 0; d < prm->directions; ++d) {
    for (k = 0; k < fns; ++k) {
      if (prm->fn[d][k].kind < 0 || prm->fn[d][k].kind >= TGRS_RECURRENT_ACTIVATION_COUNT) {
        return 0;
      }
    }
  }
  return 1;
}

tgrs_kernel_status tgrs_recurrent_f32(void* scratch, size_t scratch_bytes,
                                      const tgrs_recurrent_params* params, const float* x,
                                      const float* w, const float* r, const float* b,
                                      const int32_t* sequence_lens, const float* initial_h,
                                      const float* initial_c, const float* p, float* y, float* y_h,
                                      float* y_c) {
  const tgrs_recurrent_params* prm = params;
  int32_t gates_per_step, hid, d, bt, t, j;
  float *gates, *h, *c, *tmp;
  if (prm == NULL || x == NULL || w == NULL || r == NULL || scratch == NULL || !params_valid(prm) ||
      scratch_bytes < tgrs_recurrent_scratch_bytes(prm->cell, prm->hidden_size)) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  if (sequence_lens != NULL) {
    for (bt = 0; bt < prm->batch; ++bt) {
      if (sequence_lens[bt] < 1 || sequence_lens[bt] > prm->seq_length) {
        return TGRS_KERNEL_INDEX_OUT_OF_RANGE; /* run-time data; onnxruntime refuses it too */
      }
    }
  }
  hid = prm->hidden_size;
  gates_per_step = gate_count(prm->cell) * hid;
  gates = (float*)scratch;
  h = gates + gates_per_step;
  c = h + hid;
  tmp = c + hid;
  for (d = 0; d < prm->directions; ++d) {
    const int backwards = prm->directions == 2 ? d == 1 : prm->reverse != 0;
    direction_weights dw;
    dw.w = w + (size_t)d * (size_t)gates_per_step * (size_t)prm->input_size;
    dw.r = r + (size_t)d * (size_t)gates_per_step * (size_t)hid;
    dw.wb = b != NULL ? b + (size_t)d * 2u * (size_t)gates_per_step : NULL;
    dw.rb = b != NULL ? dw.wb + gates_per_step : NULL;
    dw.p = p != NULL ? p + (size_t)d * 3u * (size_t)hid : NULL;
    dw.fn = prm->fn[d];
    for (bt = 0; bt < prm->batch; ++bt) {
      const int32_t len = sequence_lens != NULL ? sequence_lens[bt] : prm->seq_length;
      const int32_t state = d * prm->state_stride[0] + bt * prm->state_stride[1];
      for (j = 0; j < hid; ++j) {
        const int32_t at = state + j * prm->state_stride[2];
        h[j] = initial_h != NULL ? initial_h[at] : 0.0f;
        c[j] = initial_c != NULL ? initial_c[at] : 0.0f;
      }
      for (t = 0; t < prm->seq_length; ++t) {
        const int32_t at = t * prm->y_stride[0] + d * prm->y_stride[1] + bt * prm->y_stride[2];
        if (t < len) {
          const int32_t time = backwards ? len - 1 - t : t;
          step(prm, &dw, x + time * prm->x_stride[0] + bt * prm->x_stride[1], gates, h, c, tmp);
          if (y != NULL) {
            const int32_t row =
                time * prm->y_stride[0] + d * prm->y_stride[1] + bt * prm->y_stride[2];
            for (j = 0; j < hid; ++j) y[row + j * prm->y_stride[3]] = h[j];
          }
        } else if (y != NULL) {
          for (j = 0; j < hid; ++j) y[at + j * prm->y_stride[3]] = 0.0f;
        }
      }
      for (j = 0; j < hid; ++j) {
        const int32_t at = state + j * prm->state_stride[2];
        if (y_h != NULL) y_h[at] = h[j];
        if (y_c != NULL) y_c[at] = c[j];
      }
    }
  }
  return TGRS_KERNEL_OK;
}
