/*
 * fault_probe.c: a firmware that executes an undefined instruction. The fault negative
 * control (tests/cortex-m/CMakeLists.txt) runs it to show that a fault ends the QEMU run
 * with exit status 3 and a report naming this function and line.
 */
#include <stdint.h>

int main(void);
void fault_probe_crash(void);

__attribute__((noinline)) void fault_probe_crash(void) {
  __asm__ volatile("udf #0"); /* permanently undefined: UsageFault UNDEFINSTR */
}

int main(void) {
  fault_probe_crash();
  return 0;
}
