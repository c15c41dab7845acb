"""Operator forms of older opsets, compiled and run by `tigris` and compared with
onnxruntime: small graphs written here with onnx.helper, one per form whose meaning
changed across opsets (normalization: docs/normalization.md).

Softmax/LogSoftmax before opset 13 normalize the input coerced to 2-D,
[prod(shape[:axis]), prod(shape[axis:])]; opset 13 normalizes along the axis alone."""
import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper

from conftest import WORK_DIR, tigris

SOFTMAX_CASES = [
    # (op, opset, axis or None for the opset's default, input shape)
    ("Softmax", 11, None, [1, 3, 4, 5]),   # default axis 1: one softmax over C*H*W
    ("Softmax", 11, 2, [2, 3, 4, 5]),
    ("LogSoftmax", 9, -3, [2, 3, 4, 5]),
    ("Softmax", 7, 0, [2, 6]),
    ("Softmax", 11, 3, [1, 3, 4, 5]),      # last axis: both definitions agree
    ("Softmax", 13, 1, [1, 3, 4, 5]),      # opset 13: along axis 1 only
]


@pytest.mark.parametrize("op,opset,axis,shape", SOFTMAX_CASES,
                         ids=[f"{c[0]}-opset{c[1]}-axis{c[2]}" for c in SOFTMAX_CASES])
def test_softmax_forms_match_onnxruntime(op, opset, axis, shape):
    attrs = {} if axis is None else {"axis": axis}
    graph = helper.make_graph(
        [helper.make_node(op, ["x"], ["y"], **attrs)], "softmax_form",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, shape)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 7
    WORK_DIR.mkdir(parents=True, exist_ok=True)
    stem = f"softmax_form_{op}_{opset}_{axis}".replace("-", "m")
    path = WORK_DIR / f"{stem}.onnx"
    onnx.save(model, path)

    x = np.random.RandomState(opset).standard_normal(shape).astype(np.float32) * 3
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    ref = ort.InferenceSession(str(path), options,
                               providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]

    x_path, y_path, plan = (WORK_DIR / f"{stem}.x.npy", WORK_DIR / f"{stem}.y.npy",
                            WORK_DIR / f"{stem}.tgrs")
    np.save(x_path, x)
    tigris("compile", path, "-m", "1M", "-o", plan)
    tigris("run", plan, "--input", x_path, "--output", y_path)
    y = np.load(y_path)
    assert y.shape == ref.shape
    np.testing.assert_allclose(y, ref, rtol=1e-5, atol=1e-6)
