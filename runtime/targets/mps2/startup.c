/*
 * startup.c: reset and fault handling for the MPS2 Cortex-M images under QEMU.
 *
 * The vector table sits at address 0 (mps2_sections.ld keeps .vectors first in FLASH); on
 * reset the core loads the stack pointer from word 0 and jumps to word 1. The reset
 * handler enables the FPU, copies .data out of flash, clears .bss, paints the stack (so
 * the harness can report its deepest use) and calls main(); main's return value becomes
 * QEMU's exit status through semihosting.
 *
 * Every fault ends the run with exit status 3 and a register dump (the stacked pc and lr,
 * and the fault status registers, Armv7-M ARM B3.2.15-B3.2.18), which
 * tests/cortex-m/run_qemu_case.py turns into file:line with addr2line.
 */
#include <stdint.h>
#include <string.h>

#include "harness.h"
#include "semihost.h"

extern uint32_t __data_start__, __data_end__, __data_load__;
extern uint32_t __bss_start__, __bss_end__;
extern uint32_t __stack_limit__, __stack_top__;

int main(void);
void tgrs_reset_handler(void);
void tgrs_fault_handler(void);
void tgrs_fault_report(const uint32_t* frame);
void tgrs_default_handler(void);
void tgrs_systick_handler(void);

/* System control block registers (Armv7-M ARM, B3.2.2). */
#define SCB_CPACR (*(volatile uint32_t*)0xE000ED88u)
#define SCB_CCR (*(volatile uint32_t*)0xE000ED14u)
#define SCB_SHCSR (*(volatile uint32_t*)0xE000ED24u)
#define SCB_CFSR (*(volatile uint32_t*)0xE000ED28u)
#define SCB_HFSR (*(volatile uint32_t*)0xE000ED2Cu)
#define SCB_MMFAR (*(volatile uint32_t*)0xE000ED34u)
#define SCB_BFAR (*(volatile uint32_t*)0xE000ED38u)

#define CCR_DIV_0_TRP (1u << 4)
#define SHCSR_FAULTS_ENABLE ((1u << 16) | (1u << 17) | (1u << 18)) /* Mem, Bus, Usage */

typedef void (*tgrs_vector)(void);

/* Cortex-M exception vectors 0..15 (the MPS2 device interrupts are never enabled). */
__attribute__((section(".vectors"), used)) static const tgrs_vector kVectors[16] = {
    (tgrs_vector)(uintptr_t)&__stack_top__, /* 0: initial main stack pointer */
    tgrs_reset_handler,                     /* 1: reset */
    tgrs_fault_handler,                     /* 2: NMI */
    tgrs_fault_handler,                     /* 3: HardFault */
    tgrs_fault_handler,                     /* 4: MemManage */
    tgrs_fault_handler,                     /* 5: BusFault */
    tgrs_fault_handler,                     /* 6: UsageFault */
    0,
    0,
    0,
    0,
    tgrs_default_handler, /* 11: SVCall */
    tgrs_default_handler, /* 12: DebugMonitor */
    0,
    tgrs_default_handler, /* 14: PendSV */
    tgrs_systick_handler, /* 15: SysTick (harness.c counts its wraps) */
};

void tgrs_reset_handler(void) {
  uint32_t* word;
  /* The paint stops 256 bytes below the top: this function's own frame lives there. */
  const uintptr_t paint_end = (uintptr_t)&__stack_top__ - 256u;
#if defined(__ARM_FP)
  /* Full access to coprocessors 10 and 11, the FPU (Armv7-M ARM B3.2.20). */
  SCB_CPACR |= 0xFu << 20;
  __asm__ volatile("dsb\n\tisb" ::: "memory");
#endif
  /* Faults get their own handlers' names in the report instead of all escalating to
   * HardFault; integer division by zero traps instead of returning 0. */
  SCB_SHCSR |= SHCSR_FAULTS_ENABLE;
  SCB_CCR |= CCR_DIV_0_TRP;

  memcpy(&__data_start__, &__data_load__,
         (size_t)((uintptr_t)&__data_end__ - (uintptr_t)&__data_start__));
  memset(&__bss_start__, 0, (size_t)((uintptr_t)&__bss_end__ - (uintptr_t)&__bss_start__));

  /* Paint the stack below the current frame; harness_stack_used() finds the high tide. */
  for (word = &__stack_limit__; (uintptr_t)word < paint_end; ++word) *word = HARNESS_STACK_PAINT;

  semihost_exit(main());
}

/* Chooses the stack the faulting code used (EXC_RETURN bit 2) and hands its exception
 * frame {r0, r1, r2, r3, r12, lr, pc, xpsr} to tgrs_fault_report. */
__attribute__((naked)) void tgrs_fault_handler(void) {
  __asm__ volatile(
      "tst lr, #4\n\t"
      "ite eq\n\t"
      "mrseq r0, msp\n\t"
      "mrsne r0, psp\n\t"
      "b tgrs_fault_report\n\t");
}

void tgrs_fault_report(const uint32_t* frame) {
  uint32_t ipsr;
  __asm__ volatile("mrs %0, ipsr" : "=r"(ipsr));
  semihost_put_u32("tgrs-harness: FAULT in exception ", ipsr & 0x1FFu);
  semihost_put_hex("fault.pc=", frame[6]);
  semihost_put_hex("fault.lr=", frame[5]);
  semihost_put_hex("fault.cfsr=", SCB_CFSR);
  semihost_put_hex("fault.hfsr=", SCB_HFSR);
  semihost_put_hex("fault.mmfar=", SCB_MMFAR);
  semihost_put_hex("fault.bfar=", SCB_BFAR);
  semihost_exit(HARNESS_EXIT_FAULT);
}

void tgrs_default_handler(void) {
  semihost_puts("tgrs-harness: unexpected exception\n");
  semihost_exit(HARNESS_EXIT_FAULT);
}
