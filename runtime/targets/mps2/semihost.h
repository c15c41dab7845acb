/*
 * semihost.h: Arm semihosting, the debugger channel QEMU serves for a guest started with
 * `-semihosting-config enable=on`: the guest executes `BKPT 0xAB` with an operation number
 * in r0 and a pointer to its arguments in r1, and the host answers in r0 ("Semihosting for
 * AArch32 and AArch64", Arm IHI 0058). Only what the harness needs: files, console, exit.
 */
#ifndef TIGRIS_MPS2_SEMIHOST_H_
#define TIGRIS_MPS2_SEMIHOST_H_

#include <stddef.h>
#include <stdint.h>

/* Opens a host file for binary reading ("rb") or writing ("wb": created or truncated).
 * Returns a handle >= 0, or -1. */
int32_t semihost_open(const char* path, const char* mode);
void semihost_close(int32_t handle);
/* Length of an open file in bytes, or -1. */
int32_t semihost_file_length(int32_t handle);
/* Reads / writes exactly `size` bytes; returns 0 on success, -1 on a short transfer. */
int semihost_read(int32_t handle, void* buffer, size_t size);
int semihost_write(int32_t handle, const void* buffer, size_t size);

/* Console output (QEMU's stdout). */
void semihost_puts(const char* text);
/* "<label><value>" helpers, so the harness needs no printf (and newlib no heap). */
void semihost_put_u32(const char* label, uint32_t value);
void semihost_put_hex(const char* label, uint32_t value);
/* "<label>v0 v1 ...": decimal values separated by spaces, one line. */
void semihost_put_u32s(const char* label, const uint32_t* values, size_t count);

/* Ends the emulation with the process exit status `code` (SYS_EXIT_EXTENDED). */
void semihost_exit(int code) __attribute__((noreturn));

#endif /* TIGRIS_MPS2_SEMIHOST_H_ */
