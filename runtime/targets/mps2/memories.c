/*
 * memories.c: two streaming models on one part with three memories (issue 15; docs/cortex-m.md,
 * "Three memories"), wired the way tensor-memory-attributes.txt's "Application wiring with
 * caller-supplied arenas" wires them, from the headers `tigris compile --emit-c` wrote for
 * tests/cortex-m/three_memories.yaml:
 *  - DTCM: one scratch buffer (.bss, the board's SSRAM2/3), shared by both models;
 *  - SRAM: each model's own persistent state and staged constants, and cell_b's pinned
 *    arena (two activations its placement rules pin there; .psram, the board's PSRAM
 *    window);
 *  - FLASH: both plans (cell_a.c, cell_b.c: const arrays in .tgrs_plan, the board's SSRAM1),
 *    the source the constants are staged from.
 * On the target it checks the context contract for the new arenas (the four bind errors,
 * the zero-fill of bound state, the latch and an unbound constants arena, the staged bytes),
 * then runs the models interleaved for a number of steps, each step's state carried by its
 * context, and writes every output for tests/cortex-m/run_memories_case.py to compare with
 * the host runtime. Input: all of cell_a's x, step by step, then all of cell_b's. Output:
 * per step cell_a's y and h_next, then cell_b's.
 */
#include <stdint.h>
#include <string.h>

#include "cell_a.h"
#include "cell_b.h"
#include "harness.h"
#include "semihost.h"
#include "tigris_context.h"
#include "tigris_runtime.h"

#define STEPS 4u
#define MAX_IO_BYTES 4096u
#define SCRATCH_BYTES                                                       \
  (CELL_A_ARENA_DTCM_SIZE > CELL_B_ARENA_DTCM_SIZE ? CELL_A_ARENA_DTCM_SIZE \
                                                   : CELL_B_ARENA_DTCM_SIZE)

static uint8_t scratch[SCRATCH_BYTES] __attribute__((aligned(CELL_A_ARENA_DTCM_ALIGNMENT)));
static uint8_t state_a[CELL_A_ARENA_PERSISTENT_SRAM_SIZE]
    __attribute__((aligned(CELL_A_ARENA_PERSISTENT_SRAM_ALIGNMENT), section(".psram")));
static uint8_t state_b[CELL_B_ARENA_PERSISTENT_SRAM_SIZE]
    __attribute__((aligned(CELL_B_ARENA_PERSISTENT_SRAM_ALIGNMENT), section(".psram")));
static uint8_t const_a[CELL_A_ARENA_CONST_SRAM_SIZE]
    __attribute__((aligned(CELL_A_ARENA_CONST_SRAM_ALIGNMENT), section(".psram")));
static uint8_t const_b[CELL_B_ARENA_CONST_SRAM_SIZE]
    __attribute__((aligned(CELL_B_ARENA_CONST_SRAM_ALIGNMENT), section(".psram")));
static uint8_t pinned_b[CELL_B_ARENA_PINNED_SRAM_SIZE]
    __attribute__((aligned(CELL_B_ARENA_PINNED_SRAM_ALIGNMENT), section(".psram")));

static uint8_t input_bytes[MAX_IO_BYTES] __attribute__((aligned(16)));
static uint8_t output_bytes[MAX_IO_BYTES] __attribute__((aligned(16)));

typedef struct model {
  const char* name;
  tgrs_plan plan;
  tgrs_context ctx;
  uint32_t x_bytes, y_bytes, h_bytes;
} model;

static int fail(int code, const char* what, const char* detail) {
  semihost_puts("tgrs-memories: ");
  semihost_puts(what);
  semihost_puts(detail);
  semihost_puts("\n");
  return code;
}

static uint32_t tensor_bytes(const tgrs_plan* plan, tgrs_i32s ids, uint32_t i) {
  tgrs_plan_tensor t;
  if (i >= ids.count || tgrs_plan_get_tensor(plan, (uint32_t)ids.data[i], &t) != TGRS_OK) return 0;
  return tgrs_plan_tensor_bytes(&t);
}

static int init_model(model* m, const char* name, const uint8_t* bytes, size_t size) {
  m->name = name;
  if (tgrs_plan_init(&m->plan, bytes, size) != TGRS_OK) {
    return fail(HARNESS_EXIT_SETUP_FAILED, "plan rejected: ", name);
  }
  /* inputs x, h; outputs y, h_next; one state slot h <- h_next (tigris compile --state). */
  m->x_bytes = tensor_bytes(&m->plan, tgrs_plan_inputs(&m->plan), 0);
  m->y_bytes = tensor_bytes(&m->plan, tgrs_plan_outputs(&m->plan), 0);
  m->h_bytes = tensor_bytes(&m->plan, tgrs_plan_outputs(&m->plan), 1);
  if (tgrs_plan_state_count(&m->plan) != 1 || m->x_bytes == 0 || m->y_bytes == 0 ||
      m->h_bytes == 0) {
    return fail(HARNESS_EXIT_SETUP_FAILED, "not a one-state cell: ", name);
  }
  if (tgrs_context_init(&m->ctx, &m->plan) != TGRS_OK) {
    return fail(HARNESS_EXIT_SETUP_FAILED, "tgrs_context_init failed: ", name);
  }
  return HARNESS_EXIT_OK;
}

/* The new arenas' contract on the target, then the real binds. Returns checks passed. */
static int bind_and_check(model* m, uint8_t* state, size_t state_size, uint8_t* constants,
                          size_t constants_size, uint32_t* checks) {
  tgrs_u8s staged = tgrs_plan_staged_constants(&m->plan);
  uint8_t x[MAX_IO_BYTES / 4];
  uint8_t y[MAX_IO_BYTES / 4], h[MAX_IO_BYTES / 4];
  tgrs_input_buffer in[1];
  tgrs_output_buffer out[2];
  size_t i;
  if (tgrs_bind_arena(&m->ctx, TGRS_REGION_FAST, scratch, sizeof scratch) != TGRS_OK) {
    return fail(HARNESS_EXIT_SETUP_FAILED, "binding scratch: ", m->name);
  }
  /* The four bind errors, on the STATE arena. */
  *checks +=
      tgrs_bind_arena(&m->ctx, TGRS_REGION_FLASH, state, state_size) == TGRS_ERR_UNKNOWN_MEMORY;
  *checks +=
      tgrs_bind_arena(&m->ctx, TGRS_REGION_STATE, NULL, state_size) == TGRS_ERR_NULL_ARGUMENT;
  *checks += tgrs_bind_arena(&m->ctx, TGRS_REGION_STATE, state, state_size - 1) ==
             TGRS_ERR_ARENA_TOO_SMALL;
  *checks += tgrs_bind_arena(&m->ctx, TGRS_REGION_STATE, state + 8, state_size) ==
             TGRS_ERR_ARENA_MISALIGNED;
  /* Zero-init: caller memory is not BSS, binding clears it. */
  memset(state, HARNESS_GUARD_BYTE, state_size);
  if (tgrs_bind_arena(&m->ctx, TGRS_REGION_STATE, state, state_size) != TGRS_OK) {
    return fail(HARNESS_EXIT_SETUP_FAILED, "binding state: ", m->name);
  }
  for (i = 0; i < state_size && state[i] == 0; ++i) {
  }
  *checks += i == state_size;
  /* The latch, and hydration that needs its arena. */
  memset(x, 0, sizeof x);
  in[0].data = x;
  in[0].size = m->x_bytes;
  out[0].data = y;
  out[0].size = m->y_bytes;
  out[1].data = h;
  out[1].size = m->h_bytes;
  *checks += tgrs_invoke(&m->ctx, in, 1, out, 2, NULL) == TGRS_ERR_HYDRATION_REQUIRED;
  *checks += tgrs_hydrate_constants(&m->ctx) == TGRS_ERR_ARENA_NOT_BOUND;
  if (tgrs_bind_arena(&m->ctx, TGRS_REGION_CONSTANTS, constants, constants_size) != TGRS_OK ||
      tgrs_hydrate_constants(&m->ctx) != TGRS_OK) {
    return fail(HARNESS_EXIT_SETUP_FAILED, "binding or hydrating constants: ", m->name);
  }
  /* Staged from the flash-resident plan, byte for byte. */
  *checks += staged.count == constants_size && memcmp(constants, staged.data, staged.count) == 0;
  return HARNESS_EXIT_OK;
}

static tgrs_status step(model* m, const uint8_t* x, uint8_t* y) {
  tgrs_input_buffer in[1];
  tgrs_output_buffer out[2];
  in[0].data = x;
  in[0].size = m->x_bytes;
  out[0].data = y;
  out[0].size = m->y_bytes;
  out[1].data = y + m->y_bytes;
  out[1].size = m->h_bytes;
  return tgrs_invoke(&m->ctx, in, 1, out, 2, NULL);
}

/* cell_b's PINNED arena: invoking without it, then two bind errors, then the bind. */
static int bind_pinned(model* m, uint8_t* arena, size_t size, uint32_t* checks) {
  uint8_t x[MAX_IO_BYTES / 4], out[MAX_IO_BYTES / 4];
  if (m->y_bytes + m->h_bytes > sizeof out) {
    return fail(HARNESS_EXIT_SETUP_FAILED, "outputs exceed the buffer: ", m->name);
  }
  memset(x, 0, sizeof x);
  *checks += step(m, x, out) == TGRS_ERR_ARENA_NOT_BOUND;
  *checks +=
      tgrs_bind_arena(&m->ctx, TGRS_REGION_PINNED, arena, size - 1) == TGRS_ERR_ARENA_TOO_SMALL;
  *checks +=
      tgrs_bind_arena(&m->ctx, TGRS_REGION_PINNED, arena + 8, size) == TGRS_ERR_ARENA_MISALIGNED;
  if (tgrs_bind_arena(&m->ctx, TGRS_REGION_PINNED, arena, size) != TGRS_OK) {
    return fail(HARNESS_EXIT_SETUP_FAILED, "binding the pinned arena: ", m->name);
  }
  return HARNESS_EXIT_OK;
}

int main(void) {
  static model a, b;
  uint32_t checks = 0, k, in_bytes, out_bytes, at = 0;
  int32_t file;
  int code;
  tgrs_status status;
  static uint8_t again[MAX_IO_BYTES / 4];

  if ((code = init_model(&a, "cell_a", cell_a_plan, sizeof cell_a_plan)) != HARNESS_EXIT_OK ||
      (code = init_model(&b, "cell_b", cell_b_plan, sizeof cell_b_plan)) != HARNESS_EXIT_OK) {
    return code;
  }
  in_bytes = STEPS * (a.x_bytes + b.x_bytes);
  out_bytes = STEPS * (a.y_bytes + a.h_bytes + b.y_bytes + b.h_bytes);
  if (in_bytes > sizeof input_bytes || out_bytes > sizeof output_bytes ||
      a.y_bytes + a.h_bytes > sizeof again) {
    return fail(HARNESS_EXIT_SETUP_FAILED, "inputs or outputs exceed the buffers", "");
  }
  if ((code = bind_and_check(&a, state_a, sizeof state_a, const_a, sizeof const_a, &checks)) !=
          HARNESS_EXIT_OK ||
      (code = bind_and_check(&b, state_b, sizeof state_b, const_b, sizeof const_b, &checks)) !=
          HARNESS_EXIT_OK ||
      (code = bind_pinned(&b, pinned_b, sizeof pinned_b, &checks)) != HARNESS_EXIT_OK) {
    return code;
  }

  file = semihost_open(HARNESS_INPUT_FILE, "rb");
  if (file < 0) return fail(HARNESS_EXIT_SETUP_FAILED, "cannot open ", HARNESS_INPUT_FILE);
  code = semihost_file_length(file) == (int32_t)in_bytes &&
                 semihost_read(file, input_bytes, in_bytes) == 0
             ? HARNESS_EXIT_OK
             : fail(HARNESS_EXIT_SETUP_FAILED, "wrong input file ", HARNESS_INPUT_FILE);
  semihost_close(file);
  if (code != HARNESS_EXIT_OK) return code;

  /* Interleaved: each invoke overwrites the shared scratch; the state is each context's. */
  for (k = 0; k < STEPS; ++k) {
    status = step(&a, input_bytes + k * a.x_bytes, output_bytes + at);
    if (status != TGRS_OK)
      return fail(HARNESS_EXIT_RUN_FAILED, "cell_a: ", tgrs_status_name(status));
    at += a.y_bytes + a.h_bytes;
    status = step(&b, input_bytes + STEPS * a.x_bytes + k * b.x_bytes, output_bytes + at);
    if (status != TGRS_OK)
      return fail(HARNESS_EXIT_RUN_FAILED, "cell_b: ", tgrs_status_name(status));
    at += b.y_bytes + b.h_bytes;
  }
  /* Reset: cell_a's first step again gives its first outputs again. */
  tgrs_reset_state(&a.ctx);
  status = step(&a, input_bytes, again);
  checks += status == TGRS_OK && memcmp(again, output_bytes, a.y_bytes + a.h_bytes) == 0;

  /* RAM disturbed after hydration (docs/integrity.md): one bit of cell_a's staged
   * constants; the periodic check names it, and hydrating again repairs it. */
  {
    tgrs_verify_error error;
    const_a[sizeof const_a / 2] ^= 0x10u;
    status = tgrs_context_check_integrity(&a.ctx, &error);
    checks += status == TGRS_ERR_PLAN_CORRUPT && error.status == TGRS_ERR_PLAN_CORRUPT;
    if (status != TGRS_OK) {
      char detail[160];
      (void)tgrs_verify_error_format(&error, detail, sizeof detail);
      semihost_puts("tgrs-memories: staged constants after a flipped bit: ");
      semihost_puts(tgrs_status_name(status));
      semihost_puts(" ");
      semihost_puts(detail);
      semihost_puts("\n");
    }
    checks += tgrs_hydrate_constants(&a.ctx) == TGRS_OK &&
              tgrs_context_check_integrity(&a.ctx, NULL) == TGRS_OK;
  }

  semihost_put_u32("tgrs.memories_checks=", checks);
  semihost_put_u32("tgrs.steps=", STEPS);
  file = semihost_open(HARNESS_OUTPUT_FILE, "wb");
  if (file < 0) return fail(HARNESS_EXIT_SETUP_FAILED, "cannot create ", HARNESS_OUTPUT_FILE);
  code = semihost_write(file, output_bytes, out_bytes) == 0
             ? HARNESS_EXIT_OK
             : fail(HARNESS_EXIT_SETUP_FAILED, "short write to ", HARNESS_OUTPUT_FILE);
  semihost_close(file);
  return code;
}
