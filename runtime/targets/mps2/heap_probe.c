/*
 * heap_probe.c: a firmware that DOES allocate. Never run; it exists so the no-heap check
 * (tests/cortex-m/check_map.py) is shown to detect malloc in a real map file produced by
 * this very toolchain and linker script (its --expect-heap negative control).
 */
#include <stdlib.h>

int main(void) {
  volatile unsigned char* block = malloc(64);
  const int ok = block != NULL;
  if (ok) block[0] = 1;
  free((void*)block);
  return ok ? 0 : 1;
}
