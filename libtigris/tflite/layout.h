// Where TFLite's channels-last tensors sit in the IR, which is ONNX's channels-first.
//
// A rank-4 TFLite activation [N, H, W, C] is the IR tensor [N, C, H, W]; other ranks keep
// their axis order (a [N, C] logits tensor or a [N, T, F] sequence reads the same in both).
// The importer writes every op in the IR's layout: axes, paddings and permutations are
// mapped here, and constants are permuted as they are read. Only graph inputs and outputs
// keep the file's layout, through one Transpose each, which normalization hands to the
// host (input/output transpose trim, docs/normalization.md).
#ifndef TIGRIS_TFLITE_LAYOUT_H_
#define TIGRIS_TFLITE_LAYOUT_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tigris::tflite_import {

// IR axis -> TFLite axis for rank 4 ({0, 3, 1, 2}: IR axis 1, C, is TFLite axis 3), the
// identity for other ranks. As a Transpose perm it turns a TFLite-layout tensor into the IR's.
std::vector<int64_t> IrFromTflPerm(size_t rank);
// TFLite axis -> IR axis ({0, 2, 3, 1} for rank 4): the perm from the IR's layout back to
// the file's.
std::vector<int64_t> TflFromIrPerm(size_t rank);

// A TFLite axis (negative counts from the end) as the IR axis; -1 when out of range.
int64_t IrAxis(int64_t tfl_axis, size_t rank);

// shape[perm[i]] for each i (the shape of transpose(x, perm)).
std::vector<int64_t> PermuteShape(const std::vector<int64_t>& shape,
                                  const std::vector<int64_t>& perm);

// transpose(data, perm) for a row-major tensor of `shape` with `elem_size`-byte elements.
std::vector<uint8_t> PermuteBytes(const std::vector<uint8_t>& data,
                                  const std::vector<int64_t>& shape,
                                  const std::vector<int64_t>& perm, size_t elem_size);

}  // namespace tigris::tflite_import

#endif  // TIGRIS_TFLITE_LAYOUT_H_
