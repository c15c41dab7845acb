// Kernel scratch: the one rule, shared with the runtime, for the temporary bytes an op's
// reference kernel needs besides its inputs and outputs.
//
// The reference kernels compute convolutions directly (no im2col), pools and elementwise
// ops in a single pass, Gemm/MatMul one dot product at a time, and ReduceMean /
// GlobalAveragePool with one accumulator in a register; none of them needs scratch.
// Softmax and LogSoftmax are the exception: they keep one float32 accumulator per element
// of the reduced axis (the exponentials, before normalization), so they need
// 4 * extent(axis) bytes whatever the activation type. The recurrent layers (RNN, GRU,
// LSTM) keep one step's gates, the hidden and cell states and one temporary:
// 4 * (gates + 3) * hidden_size bytes (tgrs_recurrent_scratch_bytes). The planner adds this
// (aligned) to the arena at the op's step; the runtime calls the same rule to size it.
#ifndef TIGRIS_ANALYSIS_KERNEL_SCRATCH_H_
#define TIGRIS_ANALYSIS_KERNEL_SCRATCH_H_

#include <cstdint>

#include "ir/graph.h"

namespace tigris::analysis {

// Unaligned scratch bytes the kernel of `op` needs while it runs (0 for most ops).
int64_t KernelScratchBytes(const ir::Graph& graph, const ir::Op& op);

}  // namespace tigris::analysis

#endif  // TIGRIS_ANALYSIS_KERNEL_SCRATCH_H_
