/*
 * harness.c: runs one embedded .tgrs plan on an MPS2 board under QEMU, the way a firmware
 * would on a microcontroller (docs/cortex-m.md):
 *  - the plan is a const array in flash (plan_blob.S) and is read in place: verified once
 *    by tgrs_plan_init(), weights executed from flash when the plan was compiled --xip;
 *  - the fast arena is a static SRAM buffer of exactly the plan's fast_arena_bytes, the
 *    slow arena a static PSRAM buffer of exactly slow_arena_bytes (sizes from the
 *    generated tgrs_plan_config.h, checked against the plan at start), bound to a
 *    tgrs_context (tigris_context.h) after the context's error contract is checked on the
 *    target: the bind errors and the hydration latch;
 *  - no heap anywhere (the linker script gives newlib none; the tests check the map file).
 * Input and output travel through semihosting files (harness.h). Results are printed as
 * "tgrs.<key>=<value>" lines for tests/cortex-m/run_qemu_case.py.
 */
#include <stdint.h>
#include <string.h>

#include "harness.h"
#include "semihost.h"
#include "tgrs_plan_config.h" /* generated per plan by tests/cortex-m/plan_config.cmake */
#include "tigris_context.h"
#include "tigris_executor.h"
#include "tigris_runtime.h"

extern uint32_t __stack_limit__, __stack_top__;
extern const uint8_t tgrs_plan_data[];
extern const uint8_t tgrs_plan_data_end[];

/* Guard bytes right after each arena: the runtime must never write them. */
#define HARNESS_GUARD_BYTES 64u

/* One struct per arena so the guard follows the arena bytes with no padding between. */
static struct {
  uint8_t bytes[TGRS_PLAN_FAST_ARENA_BYTES];
  uint8_t guard[HARNESS_GUARD_BYTES];
} fast_arena __attribute__((aligned(TGRS_ARENA_ALIGNMENT)));

#if TGRS_PLAN_SLOW_ARENA_BYTES > 0
static struct {
  uint8_t bytes[TGRS_PLAN_SLOW_ARENA_BYTES];
  uint8_t guard[HARNESS_GUARD_BYTES];
} slow_arena __attribute__((aligned(TGRS_ARENA_ALIGNMENT), section(".psram")));
#endif

static uint8_t input_bytes[TGRS_PLAN_INPUT_BYTES] __attribute__((aligned(16)));
static uint8_t output_bytes[TGRS_PLAN_OUTPUT_BYTES] __attribute__((aligned(16)));

#define HARNESS_MAX_IO 16u

static int fail(int code, const char* what, const char* detail) {
  semihost_puts("tgrs-harness: ");
  semihost_puts(what);
  semihost_puts(detail);
  semihost_puts("\n");
  return code;
}

static int guard_intact(const uint8_t* guard) {
  uint32_t i;
  for (i = 0; i < HARNESS_GUARD_BYTES; ++i) {
    if (guard[i] != HARNESS_GUARD_BYTE) return 0;
  }
  return 1;
}

/* Deepest stack use: the paint startup.c laid down, read from the bottom up. */
static uint32_t stack_used_bytes(void) {
  const uint32_t* word = &__stack_limit__;
  while (word < &__stack_top__ && *word == HARNESS_STACK_PAINT) ++word;
  return (uint32_t)((uintptr_t)&__stack_top__ - (uintptr_t)word);
}

/* Byte size of each tensor in `ids` (the graph inputs or outputs, in plan order), which
 * must add up to `expected`, the total tgrs_plan_config.h sized the static buffer for. */
static int io_sizes(const tgrs_plan* plan, tgrs_i32s ids, uint32_t expected, const char* what,
                    size_t* sizes) {
  uint32_t i, total = 0;
  if (ids.count > HARNESS_MAX_IO) return fail(HARNESS_EXIT_SETUP_FAILED, "too many ", what);
  for (i = 0; i < ids.count; ++i) {
    tgrs_plan_tensor tensor;
    if (tgrs_plan_get_tensor(plan, (uint32_t)ids.data[i], &tensor) != TGRS_OK) {
      return fail(HARNESS_EXIT_SETUP_FAILED, "bad tensor index among the ", what);
    }
    sizes[i] = tgrs_plan_tensor_bytes(&tensor);
    total += (uint32_t)sizes[i];
  }
  if (total != expected) {
    return fail(HARNESS_EXIT_SETUP_FAILED, "tgrs_plan_config.h disagrees with the plan's ", what);
  }
  return HARNESS_EXIT_OK;
}

/* Reads the input file into input_bytes and slices it into one buffer per graph input. */
static int load_inputs(const tgrs_plan* plan, tgrs_input_buffer* inputs, uint32_t* count) {
  const tgrs_i32s ids = tgrs_plan_inputs(plan);
  size_t sizes[HARNESS_MAX_IO];
  uint32_t i, offset = 0;
  int32_t file;
  int code = io_sizes(plan, ids, TGRS_PLAN_INPUT_BYTES, "inputs", sizes);
  if (code != HARNESS_EXIT_OK) return code;
  for (i = 0; i < ids.count; ++i) {
    inputs[i].data = input_bytes + offset;
    inputs[i].size = sizes[i];
    offset += (uint32_t)sizes[i];
  }
  *count = ids.count;
  file = semihost_open(HARNESS_INPUT_FILE, "rb");
  if (file < 0) return fail(HARNESS_EXIT_SETUP_FAILED, "cannot open ", HARNESS_INPUT_FILE);
  if (semihost_file_length(file) != (int32_t)offset) {
    code = fail(HARNESS_EXIT_SETUP_FAILED, "wrong byte count in ", HARNESS_INPUT_FILE);
  } else if (semihost_read(file, input_bytes, offset) != 0) {
    code = fail(HARNESS_EXIT_SETUP_FAILED, "short read from ", HARNESS_INPUT_FILE);
  }
  semihost_close(file);
  return code;
}

/* Points one output buffer per graph output into output_bytes. */
static int bind_outputs(const tgrs_plan* plan, tgrs_output_buffer* outputs, uint32_t* count) {
  const tgrs_i32s ids = tgrs_plan_outputs(plan);
  size_t sizes[HARNESS_MAX_IO];
  uint32_t i, offset = 0;
  const int code = io_sizes(plan, ids, TGRS_PLAN_OUTPUT_BYTES, "outputs", sizes);
  if (code != HARNESS_EXIT_OK) return code;
  for (i = 0; i < ids.count; ++i) {
    outputs[i].data = output_bytes + offset;
    outputs[i].size = sizes[i];
    offset += (uint32_t)sizes[i];
  }
  *count = ids.count;
  return HARNESS_EXIT_OK;
}

static int save_outputs(void) {
  const int32_t file = semihost_open(HARNESS_OUTPUT_FILE, "wb");
  int ok;
  if (file < 0) return fail(HARNESS_EXIT_SETUP_FAILED, "cannot create ", HARNESS_OUTPUT_FILE);
  ok = semihost_write(file, output_bytes, sizeof output_bytes) == 0;
  semihost_close(file);
  return ok ? HARNESS_EXIT_OK
            : fail(HARNESS_EXIT_SETUP_FAILED, "short write to ", HARNESS_OUTPUT_FILE);
}

/* Binds FAST over this function's own stack frame, as a linker script that puts an arena
 * where the stack grows would: the bind must refuse it (never dereferenced). Not inlined,
 * so the frame is below the caller's. */
__attribute__((noinline)) static tgrs_status stack_overlap_refused(tgrs_context* ctx, size_t fast) {
  volatile uint8_t here = 0;
  const uintptr_t sp = (uintptr_t)&here;
  uint8_t* over = (uint8_t*)((sp - (fast > 256u ? fast / 2u : 128u)) & ~(uintptr_t)15u);
  return tgrs_bind_arena(ctx, TGRS_REGION_FAST, over, fast > 256u ? fast : 256u);
}

/* tigris_context.h's error contract, on the target, before the real binds: each wrong
 * call must fail with its own status and bind nothing. */
static int check_context_contract(tgrs_context* ctx, const tgrs_input_buffer* inputs,
                                  uint32_t num_inputs, const tgrs_output_buffer* outputs,
                                  uint32_t num_outputs) {
  const size_t fast = TGRS_PLAN_FAST_ARENA_BYTES;
  tgrs_run_stats stats;
  if (tgrs_bind_arena(ctx, TGRS_REGION_FLASH, fast_arena.bytes, fast) != TGRS_ERR_UNKNOWN_MEMORY) {
    return fail(HARNESS_EXIT_SETUP_FAILED, "context contract: ", "binding FLASH");
  }
  if (tgrs_bind_arena(ctx, TGRS_REGION_FAST, NULL, fast) != TGRS_ERR_NULL_ARGUMENT) {
    return fail(HARNESS_EXIT_SETUP_FAILED, "context contract: ", "binding NULL");
  }
  if (fast > 0 && tgrs_bind_arena(ctx, TGRS_REGION_FAST, fast_arena.bytes, fast - 1) !=
                      TGRS_ERR_ARENA_TOO_SMALL) {
    return fail(HARNESS_EXIT_SETUP_FAILED, "context contract: ", "binding one byte short");
  }
  /* Never dereferenced: the check is on the address alone. */
  if (tgrs_bind_arena(ctx, TGRS_REGION_FAST, fast_arena.bytes + 8, fast) !=
      TGRS_ERR_ARENA_MISALIGNED) {
    return fail(HARNESS_EXIT_SETUP_FAILED, "context contract: ", "binding a misaligned arena");
  }
  if (tgrs_invoke(ctx, inputs, num_inputs, outputs, num_outputs, &stats) !=
      TGRS_ERR_HYDRATION_REQUIRED) {
    return fail(HARNESS_EXIT_SETUP_FAILED, "context contract: ", "invoking before hydration");
  }
  if (stack_overlap_refused(ctx, fast) != TGRS_ERR_ARENA_OVERLAP) {
    return fail(HARNESS_EXIT_SETUP_FAILED, "context contract: ", "binding over the stack");
  }
  semihost_put_u32("tgrs.context_contract_checks=", 6);
  return HARNESS_EXIT_OK;
}

static void report(const tgrs_run_stats* stats, uint64_t ticks) {
  semihost_put_u32("tgrs.fast_arena_bytes=", TGRS_PLAN_FAST_ARENA_BYTES);
  semihost_put_u32("tgrs.slow_arena_bytes=", TGRS_PLAN_SLOW_ARENA_BYTES);
  semihost_put_u32("tgrs.fast_hwm_bytes=", (uint32_t)stats->fast_hwm_bytes);
  semihost_put_u32("tgrs.slow_hwm_bytes=", (uint32_t)stats->slow_hwm_bytes);
  semihost_put_u32("tgrs.stages_run=", stats->stages_run);
  semihost_put_u32("tgrs.tiles_run=", stats->tiles_run);
  semihost_put_u32("tgrs.ops_run=", stats->ops_run);
  semihost_put_u32("tgrs.systick_hi=", (uint32_t)(ticks >> 32));
  semihost_put_u32("tgrs.systick_lo=", (uint32_t)ticks);
  semihost_put_u32("tgrs.stack_used_bytes=", stack_used_bytes());
}

/* The cost of the plan's integrity check (docs/integrity.md): tgrs_plan_init with and
 * without it, and tgrs_plan_check_integrity alone, in SysTick ticks like the inference. */
static void report_integrity_cost(uint64_t init_ticks) {
  static tgrs_plan unchecked;
  const size_t size = (size_t)(tgrs_plan_data_end - tgrs_plan_data);
  uint64_t ticks;
  tgrs_status status;
  semihost_put_u32("tgrs.plan_bytes=", (uint32_t)size);
  semihost_put_u32("tgrs.init_ticks=", (uint32_t)init_ticks);
  cycle_counter_start();
  status = tgrs_plan_init_with(&unchecked, tgrs_plan_data, size, TGRS_INTEGRITY_NONE);
  ticks = cycle_counter_read();
  if (status == TGRS_OK) semihost_put_u32("tgrs.init_unchecked_ticks=", (uint32_t)ticks);
  cycle_counter_start();
  status = tgrs_plan_check_integrity(&unchecked, NULL);
  ticks = cycle_counter_read();
  if (status == TGRS_OK) semihost_put_u32("tgrs.integrity_ticks=", (uint32_t)ticks);
}

/* After the counted run and its checks: the same plan once more, each op timed
 * (op_profile.c). It writes the same bytes to the same arenas and outputs. */
static int profile_ops(const tgrs_plan* plan, const tgrs_input_buffer* inputs, uint32_t num_inputs,
                       const tgrs_output_buffer* outputs, uint32_t num_outputs) {
  tgrs_arenas arenas;
  memset(&arenas, 0, sizeof arenas);
  arenas.fast = fast_arena.bytes;
  arenas.fast_size = sizeof fast_arena.bytes;
#if TGRS_PLAN_SLOW_ARENA_BYTES > 0
  arenas.slow = slow_arena.bytes;
  arenas.slow_size = sizeof slow_arena.bytes;
#endif
  if (op_profile_run(plan, &arenas, inputs, num_inputs, outputs, num_outputs) != 0) {
    return fail(HARNESS_EXIT_RUN_FAILED, "the profiled run failed", "");
  }
  return HARNESS_EXIT_OK;
}

int main(void) {
  static tgrs_plan plan;
  tgrs_input_buffer inputs[HARNESS_MAX_IO];
  tgrs_output_buffer outputs[HARNESS_MAX_IO];
  uint32_t num_inputs = 0, num_outputs = 0;
  static tgrs_context ctx;
  tgrs_run_stats stats;
  tgrs_status status;
  uint64_t ticks, init_ticks;
  int code;

  cycle_counter_start();
  status = tgrs_plan_init(&plan, tgrs_plan_data, (size_t)(tgrs_plan_data_end - tgrs_plan_data));
  init_ticks = cycle_counter_read();
  if (status != TGRS_OK) {
    char detail[160];
    (void)tgrs_verify_error_format(&plan.error, detail, sizeof detail);
    semihost_put_u32("tgrs.status=", (uint32_t)status);
    semihost_puts("tgrs-harness: plan rejected: ");
    semihost_puts(tgrs_status_name(status));
    semihost_puts(" ");
    semihost_puts(detail);
    semihost_puts("\n");
    return HARNESS_EXIT_SETUP_FAILED;
  }
  if (tgrs_plan_fast_arena_bytes(&plan) != TGRS_PLAN_FAST_ARENA_BYTES ||
      tgrs_plan_slow_arena_bytes(&plan) != TGRS_PLAN_SLOW_ARENA_BYTES) {
    return fail(HARNESS_EXIT_SETUP_FAILED,
                "firmware built for another plan: ", "arena sizes differ from tgrs_plan_config.h");
  }
  if ((code = load_inputs(&plan, inputs, &num_inputs)) != HARNESS_EXIT_OK) return code;
  if ((code = bind_outputs(&plan, outputs, &num_outputs)) != HARNESS_EXIT_OK) return code;

  if (tgrs_context_init(&ctx, &plan) != TGRS_OK) {
    return fail(HARNESS_EXIT_SETUP_FAILED, "tgrs_context_init: ", "failed");
  }
  code = check_context_contract(&ctx, inputs, num_inputs, outputs, num_outputs);
  if (code != HARNESS_EXIT_OK) return code;
  memset(&fast_arena, HARNESS_GUARD_BYTE, sizeof fast_arena);
  status = tgrs_bind_arena(&ctx, TGRS_REGION_FAST, fast_arena.bytes, sizeof fast_arena.bytes);
#if TGRS_PLAN_SLOW_ARENA_BYTES > 0
  memset(&slow_arena, HARNESS_GUARD_BYTE, sizeof slow_arena);
  if (status == TGRS_OK) {
    status = tgrs_bind_arena(&ctx, TGRS_REGION_SLOW, slow_arena.bytes, sizeof slow_arena.bytes);
  }
#endif
  if (status == TGRS_OK) status = tgrs_hydrate_constants(&ctx);
  if (status != TGRS_OK) {
    /* The number too: a runtime built without names (TGRS_WITH_MESSAGES 0) has only it. */
    semihost_put_u32("tgrs.status=", (uint32_t)status);
    return fail(HARNESS_EXIT_SETUP_FAILED, "binding the arenas: ", tgrs_status_name(status));
  }

  cycle_counter_start();
  status = tgrs_invoke(&ctx, inputs, num_inputs, outputs, num_outputs, &stats);
  ticks = cycle_counter_read();

  if (status != TGRS_OK) {
    semihost_put_u32("tgrs.failed_stage=", (uint32_t)stats.failed_stage);
    semihost_put_u32("tgrs.failed_op=", (uint32_t)stats.failed_op);
    semihost_put_u32("tgrs.status=", (uint32_t)status);
    return fail(HARNESS_EXIT_RUN_FAILED, "tgrs_invoke: ", tgrs_status_name(status));
  }
  report(&stats, ticks);
  report_integrity_cost(init_ticks);
  if (!guard_intact(fast_arena.guard)) {
    return fail(HARNESS_EXIT_CORRUPTED, "bytes past the fast arena were overwritten", "");
  }
#if TGRS_PLAN_SLOW_ARENA_BYTES > 0
  if (!guard_intact(slow_arena.guard)) {
    return fail(HARNESS_EXIT_CORRUPTED, "bytes past the slow arena were overwritten", "");
  }
#endif
  if (__stack_limit__ != HARNESS_STACK_PAINT) {
    return fail(HARNESS_EXIT_CORRUPTED, "stack overflow: the stack limit's paint is gone", "");
  }
  if ((code = save_outputs()) != HARNESS_EXIT_OK) return code;
  return profile_ops(&plan, inputs, num_inputs, outputs, num_outputs);
}
