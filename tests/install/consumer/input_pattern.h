/* The input every consumer program feeds the plan, so that their outputs can be compared
 * byte for byte: element i of every float32 input is ((i * 7) % 23) / 8 - 1.25. */
#ifndef TIGRIS_CONSUMER_INPUT_PATTERN_H_
#define TIGRIS_CONSUMER_INPUT_PATTERN_H_

#include <stddef.h>
#include <stdio.h>

static void fill_input(float* data, size_t count) {
  size_t i;
  for (i = 0; i < count; ++i) data[i] = (float)((i * 7) % 23) / 8.0f - 1.25f;
}

/* Writes `size` bytes to `path`; 0 on success. */
static int write_bytes(const char* path, const void* data, size_t size) {
  FILE* f = fopen(path, "wb");
  if (!f) return 1;
  if (fwrite(data, 1, size, f) != size) {
    fclose(f);
    return 1;
  }
  return fclose(f) != 0;
}

#endif
