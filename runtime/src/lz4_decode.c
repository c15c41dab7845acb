/*
 * lz4_decode.c: a bounds-checked decoder for the LZ4 *block* format (no frame), written
 * from the specification (lz4/doc/lz4_Block_format.md). Compressed plans carry one block
 * per stage; the executor decodes it into the stage's fast_reserved prefix.
 *
 * A block is a series of sequences:
 *   token (1 byte): high nibble = literal length, low nibble = match length - 4;
 *   [literal length extension: while the nibble is 15, add bytes; a 255 byte continues];
 *   literals;
 *   offset (2 bytes little-endian, 1..65535: distance back from the current output);
 *   [match length extension, same rule];
 * and the last sequence stops after its literals (no offset, no match). The encoder's
 * end-of-block rules (last 5 bytes are literals, last match 12 bytes before the end)
 * help fast decoders; this one does not rely on them, and checks every read and write.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tigris_runtime.h"

#define LZ4_MIN_MATCH 4u    /* the low nibble counts match bytes beyond these */
#define LZ4_NIBBLE_MORE 15u /* a nibble of 15 continues in extension bytes */

/* Adds the extension bytes of a length whose nibble was 15. */
static tgrs_status read_length(const uint8_t* src, size_t src_size, size_t* ip, size_t* length) {
  uint8_t byte;
  do {
    if (*ip >= src_size) return TGRS_ERR_LZ4_CORRUPT; /* truncated inside a length */
    byte = src[(*ip)++];
    if (*length > SIZE_MAX - 255u) return TGRS_ERR_LZ4_CORRUPT; /* overflowing length */
    *length += byte;
  } while (byte == 255u);
  return TGRS_OK;
}

tgrs_status tgrs_lz4_decode(uint8_t* dst, size_t dst_capacity, const uint8_t* src, size_t src_size,
                            size_t* out_written) {
  size_t ip = 0, op = 0;
  if (out_written) *out_written = 0;
  if (!src || (!dst && dst_capacity > 0)) return TGRS_ERR_NULL_ARGUMENT;
  if (src_size == 0) return TGRS_ERR_LZ4_CORRUPT; /* a block holds at least one token */
  for (;;) {
    /* Loop invariant: ip < src_size, so the token is inside src. */
    uint8_t token = src[ip++];
    size_t literals = token >> 4, match, offset;
    tgrs_status st;
    if (literals == LZ4_NIBBLE_MORE) {
      st = read_length(src, src_size, &ip, &literals);
      if (st != TGRS_OK) return st;
    }
    if (literals > src_size - ip) return TGRS_ERR_LZ4_CORRUPT; /* literals truncated */
    if (literals > dst_capacity - op) return TGRS_ERR_LZ4_DST_TOO_SMALL;
    if (literals) memcpy(dst + op, src + ip, literals);
    ip += literals;
    op += literals;
    if (ip == src_size) break; /* the last sequence ends after its literals */

    if (src_size - ip < 2u) return TGRS_ERR_LZ4_CORRUPT; /* truncated offset */
    offset = (size_t)src[ip] | ((size_t)src[ip + 1] << 8);
    ip += 2;
    /* Offset 0 is invalid; an offset reaching before dst's start is corrupt. */
    if (offset == 0 || offset > op) return TGRS_ERR_LZ4_CORRUPT;
    match = token & 15u;
    if (match == LZ4_NIBBLE_MORE) {
      st = read_length(src, src_size, &ip, &match);
      if (st != TGRS_OK) return st;
    }
    match += LZ4_MIN_MATCH; /* read_length keeps match <= SIZE_MAX - 255 */
    if (match > dst_capacity - op) return TGRS_ERR_LZ4_DST_TOO_SMALL;
    if (offset >= match) {
      memcpy(dst + op, dst + op - offset, match); /* source and target do not overlap */
      op += match;
    } else {
      /* Overlapping match: byte by byte, so bytes written by this match are read again
       * (offset 1 repeats one byte, offset 2 a pair, ...), as the format defines. */
      size_t end = op + match;
      for (; op < end; ++op) dst[op] = dst[op - offset];
    }
    if (ip == src_size) return TGRS_ERR_LZ4_CORRUPT; /* a block must end with literals */
  }
  if (out_written) *out_written = op;
  return TGRS_OK;
}
