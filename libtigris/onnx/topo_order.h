// Execution order of the loaded graph (tigris-compilation-pipeline.txt, stage 1:
// "DFS post-order with reversed child order. Reversing child order biases the schedule
// toward early tensor consumption, which reduces peak live memory").
//
// Precisely: a depth-first search over the op graph (edges run from an op to the ops that
// consume any of its outputs). A virtual root has as children, in this order: the
// consumers of each graph input (inputs in declaration order, each input's consumers in
// ONNX node order), then the consumers of each constant (in tensor order), then the ops
// with no inputs at all (Constant); duplicates keep their first place. Every op's children
// (and the root's) are visited in REVERSED order; ops are collected in post-order and the
// list is finally reversed.
//
// The child visited last lands first in the result, so the FIRST consumer of a tensor and
// its whole subtree are scheduled before the second consumer is touched. Example:
//
//        x ──> A ──> C          consumers(x) = [A, B]; visit B (then D), then A (then C):
//         └──> B ──> D          post-order D B C A  ->  order A C B D
//
// Plain DFS order would give B D A C; ONNX node order (A B C D) keeps both A's and B's
// outputs alive together.
#ifndef TIGRIS_ONNX_TOPO_ORDER_H_
#define TIGRIS_ONNX_TOPO_ORDER_H_

#include "ir/graph.h"

namespace tigris::onnx_import {

// Throws kGraphCycle naming an op on a cycle when the graph has one.
void CheckAcyclic(const ir::Graph& graph);

// Reorders graph.ops as documented above. Requires an acyclic graph (CheckAcyclic).
void SortOpsDfsReversedChildren(ir::Graph& graph);

}  // namespace tigris::onnx_import

#endif  // TIGRIS_ONNX_TOPO_ORDER_H_
