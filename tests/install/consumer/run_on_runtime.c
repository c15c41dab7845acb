/* run_on_runtime PLAN.tgrs OUT.bin: runs a float32 plan with the C99 runtime alone, the way
 * a firmware does: the plan verified in place, arenas of exactly the plan's sizes, no
 * compiler library. (A firmware would use static arrays; a host program may malloc.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tigris_executor.h>
#include <tigris_runtime.h>

#include "input_pattern.h"

/* 16-aligned storage from malloc'd memory (C99 has no aligned_alloc). */
static void* aligned16(size_t size, void** block) {
  *block = malloc(size + 16);
  return *block ? (void*)(((uintptr_t)*block + 15u) & ~(uintptr_t)15u) : NULL;
}

int main(int argc, char** argv) {
  FILE* f;
  long size;
  void *plan_block, *fast_block, *slow_block, *bytes, *fast, *slow;
  tgrs_plan plan;
  tgrs_plan_tensor in_t, out_t;
  tgrs_arenas arenas;
  tgrs_input_buffer in;
  tgrs_output_buffer out;
  tgrs_status st;
  float *x, *y;
  if (argc != 3) {
    fprintf(stderr, "usage: run_on_runtime PLAN.tgrs OUT.bin\n");
    return 2;
  }
  f = fopen(argv[1], "rb");
  if (!f || fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) <= 0) return 1;
  rewind(f);
  bytes = aligned16((size_t)size, &plan_block);
  if (fread(bytes, 1, (size_t)size, f) != (size_t)size) return 1;
  fclose(f);
  st = tgrs_plan_init(&plan, bytes, (size_t)size);
  if (st != TGRS_OK) {
    char detail[200];
    tgrs_verify_error_format(&plan.error, detail, sizeof detail);
    fprintf(stderr, "run_on_runtime: %s: %s\n", tgrs_status_name(st), detail);
    return 1;
  }
  tgrs_plan_get_tensor(&plan, (uint32_t)tgrs_plan_inputs(&plan).data[0], &in_t);
  tgrs_plan_get_tensor(&plan, (uint32_t)tgrs_plan_outputs(&plan).data[0], &out_t);
  x = (float*)malloc(tgrs_plan_tensor_bytes(&in_t));
  y = (float*)malloc(tgrs_plan_tensor_bytes(&out_t));
  fill_input(x, tgrs_plan_tensor_bytes(&in_t) / sizeof *x);
  fast = aligned16(tgrs_plan_fast_arena_bytes(&plan), &fast_block);
  slow = aligned16(tgrs_plan_slow_arena_bytes(&plan), &slow_block);
  arenas.fast = fast;
  arenas.fast_size = tgrs_plan_fast_arena_bytes(&plan);
  arenas.slow = slow;
  arenas.slow_size = tgrs_plan_slow_arena_bytes(&plan);
  in.data = x;
  in.size = tgrs_plan_tensor_bytes(&in_t);
  out.data = y;
  out.size = tgrs_plan_tensor_bytes(&out_t);
  st = tgrs_run(&plan, &arenas, &in, 1, &out, 1, NULL);
  if (st != TGRS_OK) {
    fprintf(stderr, "run_on_runtime: %s\n", tgrs_status_name(st));
    return 1;
  }
  printf("run_on_runtime: %s, %u bytes out\n", tgrs_plan_model_name(&plan), (unsigned)out.size);
  st = write_bytes(argv[2], y, out.size) ? TGRS_ERR_NULL_ARGUMENT : TGRS_OK;
  free(x);
  free(y);
  free(plan_block);
  free(fast_block);
  free(slow_block);
  return st == TGRS_OK ? 0 : 1;
}
