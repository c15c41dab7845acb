"""MatMul beyond two matrices (tgrs_matmul_strided_f32, issue 43), compiled and run by
`tigris` as a user would, against onnxruntime (graph optimizations off): rank-1 rows and
columns, batch axes that broadcast, a constant B beside run-time A, operands in the
runtime's channels-last layouts; and a small transformer encoder block
(tests/models/tiny_encoder.py: LayerNormalization, attention's MatMuls of two run-time
operands, Softmax, Gelu) whole and at a 2 KiB fast budget, where it spills.
"""
import sys

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from conftest import SOURCE_DIR, WORK_DIR, tigris
from qdq_helpers import compile_plan, onnxruntime_reference, run_plan, save_model

sys.path.insert(0, str(SOURCE_DIR / "tests" / "models"))
from tiny_encoder import tiny_encoder  # noqa: E402


def _run(path, feeds, name, budget="64M"):
    (y,) = run_plan(compile_plan(path, name, budget), feeds, name)
    return y


CASES = [  # A, B, whether B is a constant
    ([2, 3, 4], [2, 4, 5], False),
    ([1, 6, 4], [4, 5], True),          # a rank-3 activation by a weight matrix
    ([2, 1, 3, 4], [1, 3, 4, 2], False),  # both batch axes broadcast
    ([3, 2, 4, 5], [5, 3], False),
    ([4], [2, 4, 3], False),            # a row
    ([2, 3, 4], [4], True),             # a column
    ([4], [4], False),                  # a dot product: a scalar
]


@pytest.mark.parametrize("a_shape,b_shape,constant", CASES)
def test_matches_onnxruntime(a_shape, b_shape, constant):
    name = "matmul_" + "x".join(map(str, a_shape)) + "_" + "x".join(map(str, b_shape))
    rng = np.random.RandomState(len(name))
    a = rng.standard_normal(a_shape).astype(np.float32)
    b = rng.standard_normal(b_shape).astype(np.float32)
    y_shape = list(np.matmul(a, b).shape)
    inputs = [("a", TensorProto.FLOAT, a_shape)]
    inits = [numpy_helper.from_array(b, "b")] if constant else []
    if not constant:
        inputs.append(("b", TensorProto.FLOAT, b_shape))
    path = save_model([helper.make_node("MatMul", ["a", "b"], ["y"])], name, inputs,
                      [("y", TensorProto.FLOAT, y_shape)], inits, opset=13)
    feeds = {"a": a} if constant else {"a": a, "b": b}
    (ref,) = onnxruntime_reference(path, feeds)
    y = _run(path, feeds, name)
    assert y.shape == ref.shape
    np.testing.assert_allclose(y, ref, rtol=0, atol=1e-5 * max(np.abs(ref).max(), 1.0))


@pytest.mark.parametrize("budget", ["64M", "2K"])
def test_transformer_encoder_block_matches_onnxruntime(budget):
    path = WORK_DIR / "tiny_encoder.onnx"
    onnx.save(tiny_encoder(), str(path))
    x = np.random.RandomState(1).standard_normal([1, 8, 16]).astype(np.float32)
    (ref,) = onnxruntime_reference(path, {"x": x})
    y = _run(path, {"x": x}, f"tiny_encoder_{budget}", budget)
    np.testing.assert_allclose(y, ref, rtol=0, atol=1e-4 * np.abs(ref).max())


def test_an_int8_matmul_beyond_two_matrices_is_refused_by_name():
    """The strided MatMul is float32; an int8 one between QDQ pairs is refused, naming the op
    and the rule, rather than planned and then refused on the target."""
    name = "matmul_int8_rank3"
    nodes = [helper.make_node("QuantizeLinear", ["a", "s", "z"], ["aq"]),
             helper.make_node("DequantizeLinear", ["aq", "s", "z"], ["ad"]),
             helper.make_node("QuantizeLinear", ["b", "s", "z"], ["bq"]),
             helper.make_node("DequantizeLinear", ["bq", "s", "z"], ["bd"]),
             helper.make_node("MatMul", ["ad", "bd"], ["y"]),
             helper.make_node("QuantizeLinear", ["y", "s", "z"], ["yq"]),
             helper.make_node("DequantizeLinear", ["yq", "s", "z"], ["yd"])]
    inits = [numpy_helper.from_array(np.array(0.05, np.float32), "s"),
             numpy_helper.from_array(np.array(0, np.int8), "z")]
    path = save_model(nodes, name, [("a", TensorProto.FLOAT, [2, 3, 4]),
                                    ("b", TensorProto.FLOAT, [2, 4, 5])],
                      [("yd", TensorProto.FLOAT, [2, 3, 5])], inits, opset=13)
    result = tigris("compile", path, "-m", "64M", "-o", WORK_DIR / f"{name}.tgrs", check=False)
    assert result.returncode != 0
    assert "MatMul" in result.stderr and "two matrices" in result.stderr
