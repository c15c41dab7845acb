// Normalization passes: each rewrites the IR graph toward the runtime's operator set.
// One pass per file (passes/<name>.cc); the order lives in pipeline.cc, where every entry
// says why it sits where it does (tigris-compilation-pipeline.txt, stage 2).
//
// Contract for every pass:
//  - input: a graph whose ops are in topological order with every shape resolved;
//  - output: the same, with ops rewritten or removed. A pass that creates tensors sets
//    their dtype, shape and quantization itself. It may leave unreferenced tensors behind:
//    the pipeline calls Graph::Compact() after each pass.
//  - a pass never fails silently: a pattern it must rewrite but cannot throws
//    tigris::Error naming the node.
#ifndef TIGRIS_PASSES_PASS_H_
#define TIGRIS_PASSES_PASS_H_

#include <string_view>
#include <vector>

#include "ir/graph.h"

namespace tigris::passes {

struct PassInfo {
  std::string_view name;     // kebab-case, e.g. "constant-op-fold"
  std::string_view summary;  // one line
  void (*run)(ir::Graph& graph);
};

// The normalization pipeline, in execution order.
const std::vector<PassInfo>& NormalizationPipeline();

// Runs every pass in order (compacting after each), then Verify().
void Normalize(ir::Graph& graph);

// Throws tigris::Error(kUnsupportedOp) naming op type, node and model when the graph holds
// an op the runtime does not run, and kInvalidModel for a broken invariant (an op reading
// a tensor produced later, a tensor without a shape).
void Verify(const ir::Graph& graph);

// Verify's invariant 6 (runtime_forms.cc): throws kUnsupportedOp naming the op, tensor or
// attribute when an op is in a form the runtime's op functions refuse (a rank above 4, an
// integer activation, a run-time filter, a pad mode or resize transform it lacks, ...).
void CheckRuntimeForms(const ir::Graph& graph);

}  // namespace tigris::passes

#endif  // TIGRIS_PASSES_PASS_H_
