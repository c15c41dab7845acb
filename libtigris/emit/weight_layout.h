// Constants in the layout their kernel reads (tigris-compilation-pipeline.txt, stage 7
// step 1; format/tgrs.fbs conventions; runtime/kernels/tgrs_kernels.h):
//
//   role                     IR (ONNX)               runtime                 perm
//   conv / conv1d filter     [O, I, KH, KW] / [O,I,K] [O, KH, KW, I] / [O,K,I] L (as activations)
//   depthwise filter         [C, 1, KH, KW]          [KH, KW, C]             [1, 2, 3, 0], drop 1
//   conv transpose filter    [I, O/g, KH, KW]        [O, KH, KW, I]          [1, 2, 3, 0]
//   gemm B (transB = 1)      [N, K]                  [N, K]                  identity
//   matmul constant B        [K, N]                  [N, K]                  [1, 0]
//   gather table             [V] / [V, D]            [V] / [V, D]            identity
//   elementwise operand      broadcast rank r < R    ones prepended to R, then L(R)
//   anything else            rank 4 / 3              NHWC / NWC              L
//
// A per-channel quantization axis moves with its dimension.
#ifndef TIGRIS_EMIT_WEIGHT_LAYOUT_H_
#define TIGRIS_EMIT_WEIGHT_LAYOUT_H_

#include <optional>
#include <string>
#include <vector>

#include "emit/layout.h"
#include "ir/graph.h"

namespace tigris::emit {

enum class WeightRole : uint8_t {
  kActivationLike = 0,  // L by rank (conv filters included)
  kDepthwiseFilter,
  kConvTransposeFilter,
  kAsIs,              // gemm B, biases
  kMatMulB,           // 2-D constant B of MatMul
  kBroadcastOperand,  // elementwise operand, broadcast to the op's output rank
};

// Role of input `index` of `op` when it is a constant. `broadcast_rank` receives the
// output rank for kBroadcastOperand.
WeightRole ConstantRole(const ir::Graph& graph, const ir::Op& op, size_t index,
                        size_t* broadcast_rank);

struct LaidOutConstant {
  ir::Shape shape;                       // runtime shape
  std::vector<uint8_t> data;             // runtime bytes
  std::optional<ir::QuantParams> quant;  // axis in the runtime layout
};

// Throws kInvalidModel naming the tensor when its shape does not suit the role.
LaidOutConstant LayOutConstant(const ir::Tensor& tensor, WeightRole role, size_t broadcast_rank);

}  // namespace tigris::emit

#endif  // TIGRIS_EMIT_WEIGHT_LAYOUT_H_
