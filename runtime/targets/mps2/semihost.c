/* semihost.c: Arm semihosting calls (semihost.h; Arm IHI 0058 "Semihosting for AArch32
 * and AArch64", operation numbers and argument blocks in its section 6). */
#include "semihost.h"

#include <string.h>

enum {
  kSysOpen = 0x01,
  kSysClose = 0x02,
  kSysWrite0 = 0x04,
  kSysWrite = 0x05,
  kSysRead = 0x06,
  kSysFlen = 0x0C,
  kSysExitExtended = 0x20,
};

/* ADP_Stopped_ApplicationExit: with SYS_EXIT_EXTENDED the subcode becomes the exit status. */
#define SEMIHOST_APPLICATION_EXIT 0x20026u

static int32_t semihost_call(int32_t op, const void* args) {
  register int32_t r0 __asm__("r0") = op;
  register const void* r1 __asm__("r1") = args;
  __asm__ volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

int32_t semihost_open(const char* path, const char* mode) {
  /* ISO C fopen() modes are numbered: "rb" = 1, "wb" = 5 (IHI 0058, SYS_OPEN). */
  const uint32_t mode_number = mode[0] == 'w' ? 5u : 1u;
  const uint32_t args[3] = {(uint32_t)(uintptr_t)path, mode_number, (uint32_t)strlen(path)};
  return semihost_call(kSysOpen, args);
}

void semihost_close(int32_t handle) {
  const uint32_t args[1] = {(uint32_t)handle};
  (void)semihost_call(kSysClose, args);
}

int32_t semihost_file_length(int32_t handle) {
  const uint32_t args[1] = {(uint32_t)handle};
  return semihost_call(kSysFlen, args);
}

/* SYS_READ and SYS_WRITE return the number of bytes NOT transferred. */
int semihost_read(int32_t handle, void* buffer, size_t size) {
  const uint32_t args[3] = {(uint32_t)handle, (uint32_t)(uintptr_t)buffer, (uint32_t)size};
  return semihost_call(kSysRead, args) == 0 ? 0 : -1;
}

int semihost_write(int32_t handle, const void* buffer, size_t size) {
  const uint32_t args[3] = {(uint32_t)handle, (uint32_t)(uintptr_t)buffer, (uint32_t)size};
  return semihost_call(kSysWrite, args) == 0 ? 0 : -1;
}

void semihost_puts(const char* text) { (void)semihost_call(kSysWrite0, text); }

static void put_number(const char* label, uint32_t value, uint32_t base) {
  static const char kDigits[] = "0123456789abcdef";
  char text[16];
  size_t at = sizeof text;
  text[--at] = '\0';
  text[--at] = '\n';
  do {
    text[--at] = kDigits[value % base];
    value /= base;
  } while (value != 0);
  if (base == 16) {
    text[--at] = 'x';
    text[--at] = '0';
  }
  semihost_puts(label);
  semihost_puts(&text[at]);
}

void semihost_put_u32(const char* label, uint32_t value) { put_number(label, value, 10); }

void semihost_put_u32s(const char* label, const uint32_t* values, size_t count) {
  char text[12];
  size_t i;
  semihost_puts(label);
  for (i = 0; i < count; ++i) {
    uint32_t value = values[i];
    size_t at = sizeof text;
    text[--at] = '\0';
    do {
      text[--at] = (char)('0' + value % 10u);
      value /= 10u;
    } while (value != 0);
    if (i > 0) semihost_puts(" ");
    semihost_puts(&text[at]);
  }
  semihost_puts("\n");
}
void semihost_put_hex(const char* label, uint32_t value) { put_number(label, value, 16); }

void semihost_exit(int code) {
  const uint32_t args[2] = {SEMIHOST_APPLICATION_EXIT, (uint32_t)code};
  (void)semihost_call(kSysExitExtended, args);
  for (;;) {
    /* Not reached under QEMU; on a board without a debugger, park here. */
  }
}
