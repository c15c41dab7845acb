"""A recurrent cell h' = tanh(x W + h U), y = h' V with random weights: the streaming model
the persistent-state tests use (`tigris compile --state h=h_next`): tests/e2e/test_state.py
and the Cortex-M three-memory firmware (tests/cortex-m/state_cells.py)."""
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def recurrent_cell(name, n_in, hidden, n_out, seed, scale=0.3):
    """The cell as an ONNX model: inputs x [1, n_in] and h [1, hidden], outputs y [1, n_out]
    and h_next [1, hidden]."""
    rng = np.random.RandomState(seed)
    inits = [numpy_helper.from_array((rng.standard_normal(s) * scale).astype(np.float32), n)
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
