#!/usr/bin/env python3
"""Writes the two streaming models of the Cortex-M three-memory test (memories.c): recurrent
cells h' = tanh(x W + h U), y = h' V with the state pair h=h_next, of different sizes, so
two plans share one scratch arena and keep their own state.

  state_cells.py OUT_DIR   ->  OUT_DIR/cell_a.onnx, OUT_DIR/cell_b.onnx"""
import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

# name: (inputs, hidden, outputs, seed)
CELLS = {"cell_a": (16, 64, 8, 1), "cell_b": (8, 56, 4, 2)}


def cell(name, n_in, hidden, n_out, seed):
    rng = np.random.RandomState(seed)
    inits = [numpy_helper.from_array((rng.standard_normal(s) * 0.3).astype(np.float32), n)
             for n, s in (("W", [n_in, hidden]), ("U", [hidden, hidden]), ("V", [hidden, n_out]))]
    nodes = [
        helper.make_node("MatMul", ["x", "W"], ["xw"], name="input_proj"),
        helper.make_node("MatMul", ["h", "U"], ["hu"], name="recurrent_proj"),
        helper.make_node("Add", ["xw", "hu"], ["pre"], name="sum"),
        helper.make_node("Tanh", ["pre"], ["h_next"], name="cell"),
        helper.make_node("MatMul", ["h_next", "V"], ["y"], name="readout"),
    ]
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, n_in]),
         helper.make_tensor_value_info("h", TensorProto.FLOAT, [1, hidden])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, n_out]),
         helper.make_tensor_value_info("h_next", TensorProto.FLOAT, [1, hidden])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def main():
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for name, (n_in, hidden, n_out, seed) in CELLS.items():
        onnx.save(cell(name, n_in, hidden, n_out, seed), out / f"{name}.onnx")


if __name__ == "__main__":
    main()
