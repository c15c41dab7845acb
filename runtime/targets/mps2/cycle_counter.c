/*
 * cycle_counter.c: elapsed core clock ticks from SysTick (Armv7-M ARM B3.3), the one timer
 * every Cortex-M has. QEMU has no DWT cycle counter, but run with `-icount shift=0` it
 * advances virtual time by 1 ns per instruction; the MPS2 core clock is 25 MHz, so one
 * SysTick tick is 40 instructions (docs/cortex-m.md, "Measuring on QEMU").
 */
#include <stdint.h>

#include "harness.h"

void tgrs_systick_handler(void);

#define SYST_CSR (*(volatile uint32_t*)0xE000E010u)
#define SYST_RVR (*(volatile uint32_t*)0xE000E014u)
#define SYST_CVR (*(volatile uint32_t*)0xE000E018u)
#define SYST_CSR_ENABLE (1u << 0)
#define SYST_CSR_TICKINT (1u << 1)
#define SYST_CSR_CLKSOURCE_CORE (1u << 2)
#define SYST_CSR_COUNTFLAG (1u << 16)
#define SYST_RELOAD 0x00FFFFFFu                 /* 24-bit down counter */
#define ICSR (*(volatile uint32_t*)0xE000ED04u) /* Interrupt Control and State, B3.2.4 */
#define ICSR_PENDSTSET (1u << 26)               /* SysTick exception pending */

static volatile uint32_t wraps;

void tgrs_systick_handler(void) { ++wraps; }

void cycle_counter_start(void) {
  SYST_CSR = 0;
  wraps = 0;
  SYST_RVR = SYST_RELOAD;
  SYST_CVR = 0; /* any write clears the counter and COUNTFLAG */
  SYST_CSR = SYST_CSR_ENABLE | SYST_CSR_TICKINT | SYST_CSR_CLKSOURCE_CORE;
  /* The cleared counter reloads on the next tick: until then it reads 0, which
   * cycle_counter_read would take for a whole period elapsed. */
  while (SYST_CVR == 0u) {
  }
  wraps = 0;
}

uint64_t cycle_counter_read(void) {
  uint32_t before, now, pending;
  /* Re-read when the interrupt counts a wrap between reading the counter and the wrap
   * count. A wrap whose interrupt is still pending (QEMU delivers interrupts only between
   * translated blocks, so it can stay pending for several instructions) is not counted
   * yet: the counter then reads near the reload value when it wrapped before it was read,
   * near zero when it wraps just after. */
  do {
    before = wraps;
    now = SYST_CVR;
    pending = ICSR & ICSR_PENDSTSET;
  } while (before != wraps);
  if (pending != 0u && now > SYST_RELOAD / 2u) ++before;
  return (uint64_t)before * (SYST_RELOAD + 1u) + (SYST_RELOAD - now);
}
