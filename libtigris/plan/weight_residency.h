// Where each residency unit reads its weights from at run time (docs/planning.md, "Weight
// residency"; tensor-memory-attributes.txt, "Cold vs staged constants").
//
// A residency unit is a stage, or every stage of a chain (whose fused tile loop needs all
// their weights at once). Its constants are either
//  - cold: read in place from the plan, wherever the plan lives (flash); or
//  - copied ("staged"): copied, or LZ4-decompressed, into a prefix of the fast arena
//    before the unit runs (analysis/weight_prefix.h), the unit's activations after them.
//
// Three policies:
//  - kInPlace: every unit cold (`tigris compile --weights in-place`, the old --xip);
//  - kCopied:  every unit copied; the planner leaves room for each prefix
//              (Budget::reserve_weights) and a unit whose weights do not fit fails;
//  - kAuto:    the default. Plan as if cold, so weights never make a plan infeasible,
//              then copy a unit where both hold:
//                * it fits: prefix + the activation peak of each of its stages <= the fast
//                  budget, so copying never changes which stages fit;
//                * it saves reads from the slower memory: its ops read its weight bytes at
//                  least twice per inference (WeightReads). Copying costs one read of
//                  each byte from flash plus one write to SRAM; every further read then
//                  comes from SRAM. A classifier's weights, read once per inference, are
//                  cheaper left where they are.
#ifndef TIGRIS_PLAN_WEIGHT_RESIDENCY_H_
#define TIGRIS_PLAN_WEIGHT_RESIDENCY_H_

#include <cstdint>
#include <vector>

#include "ir/graph.h"
#include "plan/plan.h"

namespace tigris::plan {

enum class WeightResidency { kInPlace, kCopied, kAuto };

// "in-place", "copied", "auto".
const char* WeightResidencyName(WeightResidency residency);

// Bytes the kernels of `op` read from the weights it holds in the weight store, summed
// over one inference: each resident constant (analysis::ResidentConstants) times how
// often the kernel walks it. A convolution or a matrix product walks its weights and bias
// once per output position (output elements / output channels: pixels, or rows of a Gemm);
// any other op reads a constant operand once per broadcast (output elements / the
// constant's elements).
int64_t WeightReads(const ir::Graph& graph, const ir::Op& op);

// For kAuto: sets Stage::copy_weights and Stage::weight_bytes on every stage of each unit
// worth copying (see above) within `fast_bytes`; leaves the other stages cold. The plan's
// graph (result.graph) is the one measured.
void ChooseWeightCopies(PlanResult& result, int64_t fast_bytes);

}  // namespace tigris::plan

#endif  // TIGRIS_PLAN_WEIGHT_RESIDENCY_H_
