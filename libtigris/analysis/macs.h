// Multiply-accumulate counts per op, for the plan's totals and the halo recompute cost.
//
//   Conv / DepthwiseConv  N * Cout * Hout * Wout * (Cin / group) * KH * KW
//                         (= output elements * weight elements per output channel;
//                         depthwise is the same formula with Cin / group = 1)
//   Conv1D                N * Cout * Lout * (Cin / group) * K
//   ConvTranspose         N * Cin * Hin * Win * (Cout / group) * KH * KW
//   Gemm / MatMul         M * N * K (output elements * reduced extent)
//   everything else       0: pools, elementwise, reductions and data movement do no
//                         multiply-accumulates (window compares and adds are not MACs).
#ifndef TIGRIS_ANALYSIS_MACS_H_
#define TIGRIS_ANALYSIS_MACS_H_

#include <cstdint>

#include "ir/graph.h"

namespace tigris::analysis {

// MACs of one output element of `op` (0 for ops that do none). Every op above except
// ConvTranspose does the same work for each output element.
int64_t MacsPerOutputElement(const ir::Graph& graph, const ir::Op& op);

// Total MACs of `op` over its whole output. Throws kInvalidModel naming the node when a
// weight operand is missing or has the wrong rank.
int64_t OpMacs(const ir::Graph& graph, const ir::Op& op);

// Total MACs of every op of `graph` (OpMacs summed).
int64_t GraphMacs(const ir::Graph& graph);

}  // namespace tigris::analysis

#endif  // TIGRIS_ANALYSIS_MACS_H_
