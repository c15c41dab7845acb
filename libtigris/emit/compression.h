// Weight compression (tigris-compilation-pipeline.txt, stage 7 step 3): one LZ4 block per
// stage, LZ4 block format without a frame (the runtime carries its own small block
// decoder), compressed with liblz4's high-compression mode at its maximum level: emission
// runs once per model, decompression on every inference, and HC output decodes just as
// fast as the fast mode's.
#ifndef TIGRIS_EMIT_COMPRESSION_H_
#define TIGRIS_EMIT_COMPRESSION_H_

#include <cstdint>
#include <vector>

namespace tigris::emit {

// LZ4 block of `raw` (LZ4_compress_HC, LZ4HC_CLEVEL_MAX). Deterministic. Throws kInternal
// when liblz4 fails (it cannot for a correctly sized destination).
std::vector<uint8_t> Lz4CompressBlock(const std::vector<uint8_t>& raw);

}  // namespace tigris::emit

#endif  // TIGRIS_EMIT_COMPRESSION_H_
