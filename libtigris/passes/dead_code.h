// Dead-op elimination, shared by the passes that cut ops off the data flow
// (shape_op_fold.cc, reshape_canonicalize.cc).
#ifndef TIGRIS_PASSES_DEAD_CODE_H_
#define TIGRIS_PASSES_DEAD_CODE_H_

#include <cstddef>

#include "ir/graph.h"

namespace tigris::passes {

// Removes every op none of whose outputs is read by another op or is a graph output, to a
// fixed point: a Shape -> Gather -> Unsqueeze -> Concat chain whose Reshape no longer reads
// the Concat disappears as a whole. Returns the number of ops removed. Tensors are left to
// Graph::Compact() (pass.h contract).
size_t EraseDeadOps(ir::Graph& graph);

}  // namespace tigris::passes

#endif  // TIGRIS_PASSES_DEAD_CODE_H_
