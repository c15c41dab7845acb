/*
 * harness.h: what the MPS2 test firmware shares between its files and with its runner
 * (tests/cortex-m/run_qemu_case.py reads the exit statuses and the "tgrs.<key>=<value>"
 * lines the firmware prints).
 */
#ifndef TIGRIS_MPS2_HARNESS_H_
#define TIGRIS_MPS2_HARNESS_H_

#include <stdint.h>

/* QEMU exit statuses. */
#define HARNESS_EXIT_OK 0
#define HARNESS_EXIT_RUN_FAILED 1   /* tgrs_run returned an error */
#define HARNESS_EXIT_SETUP_FAILED 2 /* plan rejected, wrong firmware for the plan, file I/O */
#define HARNESS_EXIT_FAULT 3        /* a HardFault / MemManage / BusFault / UsageFault */
#define HARNESS_EXIT_CORRUPTED 4    /* bytes past an arena, or the stack limit, overwritten */

/* Files the firmware reads and writes through semihosting, relative to QEMU's working
 * directory: all graph inputs back to back (plan order, ONNX layout, the plan's dtypes),
 * and all outputs likewise. */
#define HARNESS_INPUT_FILE "tgrs_input.bin"
#define HARNESS_OUTPUT_FILE "tgrs_output.bin"

/* Pattern startup.c paints over the stack and the harness over arena guard bytes. */
#define HARNESS_STACK_PAINT 0x5AC3A55Cu
#define HARNESS_GUARD_BYTE 0xA5u

/* SysTick wraps counted by its interrupt (cycle_counter.c). */
void cycle_counter_start(void);
/* Core clock ticks since cycle_counter_start() (64-bit: wraps are counted). */
uint64_t cycle_counter_read(void);

/* Runs the plan once more with every kernel call timed, and prints the instructions per
 * op (op_profile.c). Returns 0, or -1 when that run failed. */
struct tgrs_plan;
struct tgrs_arenas;
struct tgrs_input_buffer;
struct tgrs_output_buffer;
int op_profile_run(const struct tgrs_plan* plan, const struct tgrs_arenas* arenas,
                   const struct tgrs_input_buffer* inputs, uint32_t num_inputs,
                   const struct tgrs_output_buffer* outputs, uint32_t num_outputs);

#endif /* TIGRIS_MPS2_HARNESS_H_ */
