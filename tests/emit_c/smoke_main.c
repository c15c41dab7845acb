/* The generated glue as a firmware uses it (tests/emit_c/CMakeLists.txt): the plan array
 * verifies in place, arenas of exactly the generated sizes and alignments bind, and the
 * output equals a tgrs_run of the same plan on arenas allocated here. Exit 0 on success. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mnist8_glue.h"
#include "tigris_context.h"

static uint8_t scratch[MNIST8_GLUE_ARENA_TCM_SIZE]
    __attribute__((aligned(MNIST8_GLUE_ARENA_TCM_ALIGNMENT)));
static uint8_t spills[MNIST8_GLUE_ARENA_SRAM_SIZE]
    __attribute__((aligned(MNIST8_GLUE_ARENA_SRAM_ALIGNMENT)));

/* `bytes` (at least 1) at a 16-aligned address inside *block, which the caller frees:
 * C99 has no aligned_alloc. */
static uint8_t* aligned16(size_t bytes, void** block) {
  *block = malloc(bytes + 16u);
  if (*block == NULL) return NULL;
  return (uint8_t*)*block + (16u - (uintptr_t)*block % 16u) % 16u;
}

static int fail(const char* what, tgrs_status status) {
  fprintf(stderr, "emit_c smoke: %s: %s\n", what, tgrs_status_name(status));
  return 1;
}

int main(void) {
  static tgrs_plan plan;
  static tgrs_context ctx;
  tgrs_plan_tensor in_t, out_t;
  tgrs_input_buffer in;
  tgrs_output_buffer out, ref;
  tgrs_arenas arenas;
  uint8_t *input, *fast, *slow;
  void *fast_block, *slow_block;
  size_t i, in_bytes, out_bytes;
  tgrs_status st = tgrs_plan_init(&plan, mnist8_glue_plan, MNIST8_GLUE_PLAN_BYTES);
  if (st != TGRS_OK) return fail("tgrs_plan_init", st);
  if (MNIST8_GLUE_ARENA_SRAM_SIZE == 0) return fail("the plan must spill", TGRS_OK);
  if (tgrs_plan_get_tensor(&plan, (uint32_t)tgrs_plan_inputs(&plan).data[0], &in_t) != TGRS_OK ||
      tgrs_plan_get_tensor(&plan, (uint32_t)tgrs_plan_outputs(&plan).data[0], &out_t) != TGRS_OK) {
    return fail("graph input or output", TGRS_ERR_INCONSISTENT_PLAN);
  }
  in_bytes = tgrs_plan_tensor_bytes(&in_t);
  out_bytes = tgrs_plan_tensor_bytes(&out_t);
  input = malloc(in_bytes);
  out.data = calloc(1, out_bytes);
  ref.data = calloc(1, out_bytes);
  fast = aligned16(tgrs_plan_fast_arena_bytes(&plan), &fast_block);
  slow = aligned16(tgrs_plan_slow_arena_bytes(&plan), &slow_block);
  if (!input || !out.data || !ref.data || !fast || !slow) return fail("malloc", TGRS_OK);
  for (i = 0; i < in_bytes / sizeof(float); ++i) ((float*)input)[i] = (float)(i % 17) / 17.0f;
  in.data = input;
  in.size = in_bytes;
  out.size = ref.size = out_bytes;

  if ((st = tgrs_context_init(&ctx, &plan)) != TGRS_OK) return fail("tgrs_context_init", st);
  if ((st = tgrs_bind_arena(&ctx, MNIST8_GLUE_ARENA_TCM, scratch, sizeof scratch)) != TGRS_OK) {
    return fail("binding TCM", st);
  }
  if ((st = tgrs_bind_arena(&ctx, MNIST8_GLUE_ARENA_SRAM, spills, sizeof spills)) != TGRS_OK) {
    return fail("binding SRAM", st);
  }
  if ((st = tgrs_hydrate_constants(&ctx)) != TGRS_OK) return fail("hydrate", st);
  if ((st = tgrs_invoke(&ctx, &in, 1, &out, 1, NULL)) != TGRS_OK) return fail("tgrs_invoke", st);

  arenas.fast = fast;
  arenas.fast_size = tgrs_plan_fast_arena_bytes(&plan);
  arenas.slow = slow;
  arenas.slow_size = tgrs_plan_slow_arena_bytes(&plan);
  if ((st = tgrs_run(&plan, &arenas, &in, 1, &ref, 1, NULL)) != TGRS_OK)
    return fail("tgrs_run", st);
  if (memcmp(out.data, ref.data, out_bytes) != 0) {
    fprintf(stderr, "emit_c smoke: outputs differ\n");
    return 1;
  }
  printf("emit_c smoke: ok (%zu output bytes, arenas %u + %u)\n", out_bytes,
         MNIST8_GLUE_ARENA_TCM_SIZE, MNIST8_GLUE_ARENA_SRAM_SIZE);
  free(input);
  free(out.data);
  free(ref.data);
  free(fast_block);
  free(slow_block);
  return 0;
}
