/*
 * op_profile.c: instructions per op on the target (issue 40, docs/cortex-m.md "Per-op
 * profile"). The harness runs the plan a second time, after the counted inference, through
 * tgrs_run_observed(): the executor calls the observer after every kernel call, so the
 * SysTick ticks between two calls are the kernel call just finished plus the executor's
 * work leading to it (operand lookup, tile geometry, a stage's weight copy, the graph
 * input's copy for the first op). Each op gets the ticks of all its calls. The observer's
 * own bookkeeping is left out: the counter is read again after it, and the next interval
 * starts there. With -icount shift=0 one tick is 40 instructions; per call the reading is
 * within one tick, and the sum over an op's calls within a tick per call.
 */
#include <stdint.h>
#include <string.h>

#include "harness.h"
#include "semihost.h"
#include "tigris_executor.h"
#include "tigris_runtime.h"

/* Larger than any op count among the test plans (MobileNetV2-1.0: 66). */
#define OP_PROFILE_MAX_OPS 512u

static struct {
  uint64_t ticks[OP_PROFILE_MAX_OPS];
  uint32_t calls[OP_PROFILE_MAX_OPS];
  uint64_t since;   /* the counter when the current interval began */
  uint32_t dropped; /* reports of an op index past the table (never, by the check below) */
} profile;

static void on_kernel_call(void* user, const tgrs_op_rows* rows) {
  const uint64_t now = cycle_counter_read();
  (void)user;
  if (rows->op < OP_PROFILE_MAX_OPS) {
    profile.ticks[rows->op] += now - profile.since;
    ++profile.calls[rows->op];
  } else {
    ++profile.dropped;
  }
  profile.since = cycle_counter_read();
}

/* Prints "tgrs-profile <op> <ticks> <calls>" per op that ran (run_qemu_case.py reads
 * them), then the profiled run's own total, which exceeds the counted run's by the
 * observer's calls. */
static void print_profile(uint32_t op_count, uint64_t total) {
  uint32_t op;
  for (op = 0; op < op_count; ++op) {
    uint32_t line[3];
    if (profile.calls[op] == 0) continue;
    line[0] = op;
    line[1] = (uint32_t)profile.ticks[op];
    line[2] = profile.calls[op];
    semihost_put_u32s("tgrs-profile ", line, 3);
  }
  semihost_put_u32("tgrs.profile_ticks=", (uint32_t)total);
}

int op_profile_run(const tgrs_plan* plan, const tgrs_arenas* arenas,
                   const tgrs_input_buffer* inputs, uint32_t num_inputs,
                   const tgrs_output_buffer* outputs, uint32_t num_outputs) {
  const uint32_t op_count = tgrs_plan_op_count(plan);
  tgrs_run_stats stats;
  tgrs_status status;
  uint64_t total;
  if (op_count > OP_PROFILE_MAX_OPS) {
    semihost_puts("tgrs-harness: no per-op profile: the plan has more ops than the table\n");
    return 0;
  }
  memset(&profile, 0, sizeof profile);
  cycle_counter_start();
  profile.since = cycle_counter_read();
  status = tgrs_run_observed(plan, arenas, inputs, num_inputs, outputs, num_outputs, &stats,
                             on_kernel_call, NULL);
  total = cycle_counter_read();
  if (status != TGRS_OK || profile.dropped != 0) return -1;
  print_profile(op_count, total);
  return 0;
}
