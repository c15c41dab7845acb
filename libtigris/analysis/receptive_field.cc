#include "analysis/receptive_field.h"

#include <algorithm>
#include <string>

#include "util/error.h"

namespace tigris::analysis {
namespace {

[[noreturn]] void Malformed(const ir::Op& op, const std::string& what) {
  throw Error(Status::kInvalidModel,
              "op '" + op.name + "' (" + std::string(ir::OpTypeName(op.type)) + "): " + what);
}

// Kernel extent along spatial axis `axis` (0: H, 1: W).
int64_t KernelExtent(const ir::Graph& graph, const ir::Op& op, size_t axis) {
  std::vector<int64_t> kernel = op.attrs.GetInts("kernel_shape");
  if (kernel.size() == 2) return kernel[axis];
  if (!kernel.empty()) Malformed(op, "kernel_shape must have 2 entries for a 2-D window");
  const bool has_weight = op.type == ir::OpType::kConv || op.type == ir::OpType::kDepthwiseConv;
  const ir::TensorId weight = op.input(1);
  if (has_weight && weight != ir::kNoTensor && graph.tensor(weight).shape.size() == 4) {
    return graph.tensor(weight).shape[2 + axis];  // [Cout, Cin/group, KH, KW]
  }
  Malformed(op, "no kernel_shape attribute and no 4-D weight");
}

int64_t AttrAt(const ir::Op& op, const char* name, size_t index, size_t expected_size,
               int64_t fallback) {
  std::vector<int64_t> values = op.attrs.GetInts(name);
  if (values.empty()) return fallback;
  if (values.size() != expected_size) {
    Malformed(op, std::string(name) + " must have " + std::to_string(expected_size) +
                      " entries, has " + std::to_string(values.size()));
  }
  return values[index];
}

}  // namespace

namespace {

// The window along spatial axis `axis` (0: H, 1: W); pads are [top, left, bottom, right].
RowWindow SpatialWindow(const ir::Graph& graph, const ir::Op& op, size_t axis) {
  if (op.inputs.empty() || op.outputs.empty() || op.input(0) == ir::kNoTensor) {
    Malformed(op, "missing input or output");
  }
  const ir::Shape& in = graph.tensor(op.input(0)).shape;
  const ir::Shape& out = graph.tensor(op.outputs[0]).shape;
  if (in.size() != 4 || out.size() != 4) Malformed(op, "input and output must be NCHW");

  RowWindow w;
  w.kernel = KernelExtent(graph, op, axis);
  w.stride = AttrAt(op, "strides", axis, 2, 1);
  w.dilation = AttrAt(op, "dilations", axis, 2, 1);
  w.pad_top = AttrAt(op, "pads", axis, 4, 0);
  w.pad_bottom = AttrAt(op, "pads", 2 + axis, 4, 0);
  if (w.kernel < 1 || w.stride < 1 || w.dilation < 1 || w.pad_top < 0 || w.pad_bottom < 0) {
    Malformed(op, "kernel, stride and dilation must be >= 1 and pads >= 0");
  }
  const std::string auto_pad = op.attrs.GetString("auto_pad", "NOTSET");
  if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
    const int64_t total = std::max<int64_t>(0, w.InputRows(out[2 + axis]) - in[2 + axis]);
    w.pad_top = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
    w.pad_bottom = total - w.pad_top;
  } else if (auto_pad == "VALID") {
    w.pad_top = w.pad_bottom = 0;
  }
  return w;
}

}  // namespace

RowWindow SpatialRowWindow(const ir::Graph& graph, const ir::Op& op) {
  return SpatialWindow(graph, op, 0);
}

RowWindow SpatialColumnWindow(const ir::Graph& graph, const ir::Op& op) {
  return SpatialWindow(graph, op, 1);
}

ReceptiveField ComputeReceptiveField(const std::vector<RowWindow>& windows_in_order) {
  ReceptiveField rf;
  int64_t cumulative_stride = 1;
  for (auto it = windows_in_order.rbegin(); it != windows_in_order.rend(); ++it) {
    rf.rows += (it->effective_kernel() - 1) * cumulative_stride;
    cumulative_stride *= it->stride;
  }
  rf.halo = rf.rows - 1;
  return rf;
}

}  // namespace tigris::analysis
