"""MatMul beyond two matrices (tgrs_matmul_strided_{f32,s8}, issue 43), compiled and run by
`tigris` as a user would, against onnxruntime (graph optimizations off): rank-1 rows and
columns, batch axes that broadcast, a constant B beside run-time A, operands in the
runtime's channels-last layouts, float32 and between QDQ pairs; and a small transformer
encoder block (tests/models/tiny_encoder.py: LayerNormalization, attention's MatMuls of two
run-time operands, Softmax, Gelu), float and as quantize_static quantizes it, whole and at a
2 KiB fast budget, where it spills.
"""
import json
import sys

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from onnxruntime.quantization import QuantFormat, QuantType, quantize_static

from conftest import SOURCE_DIR, WORK_DIR, tigris
from qdq_helpers import (RandomInputs, compile_plan, onnxruntime_reference, output_scale,
                         run_plan, save_model)

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


def _qdq(name, scale, zero, axis=None):
    """A QuantizeLinear -> DequantizeLinear pair on `name`: the nodes and their constants."""
    extra = {} if axis is None else {"axis": axis}
    nodes = [helper.make_node("QuantizeLinear", [name, f"{name}_s", f"{name}_z"], [f"{name}_q"],
                              **extra),
             helper.make_node("DequantizeLinear", [f"{name}_q", f"{name}_s", f"{name}_z"],
                              [f"{name}_d"], **extra)]
    inits = [numpy_helper.from_array(np.asarray(scale, np.float32), f"{name}_s"),
             numpy_helper.from_array(np.asarray(zero, np.int8), f"{name}_z")]
    return nodes, inits


INT8_CASES = [c for c in CASES if len(c[0]) > 1 and len(c[1]) > 1]


@pytest.mark.parametrize("a_shape,b_shape,constant", INT8_CASES)
def test_int8_matches_onnxruntime(a_shape, b_shape, constant):
    """The same MatMuls between QDQ pairs (tgrs_matmul_strided_s8): a run-time B per
    tensor with its own zero point, a constant B quantized per column (axis 1, as
    quantize_static writes a MatMul's weights), against onnxruntime with graph
    optimizations off: 1 LSB at most."""
    name = "matmul_s8_" + "x".join(map(str, a_shape)) + "_" + "x".join(map(str, b_shape))
    rng = np.random.RandomState(len(name) + 7)
    a = rng.standard_normal(a_shape).astype(np.float32)
    b = rng.standard_normal(b_shape).astype(np.float32)
    y_shape = list(np.matmul(a, b).shape)
    nodes, inits = _qdq("a", 0.03, -5)
    inputs = [("a", TensorProto.FLOAT, a_shape)]
    if constant:  # int8 weights and per-column scales, dequantized along axis 1
        scales = (np.abs(b).max(axis=0) / 127).astype(np.float32)
        inits += [numpy_helper.from_array(np.rint(b / scales).astype(np.int8), "b_q"),
                  numpy_helper.from_array(scales, "b_s"),
                  numpy_helper.from_array(np.zeros(scales.shape, np.int8), "b_z")]
        nodes.append(helper.make_node("DequantizeLinear", ["b_q", "b_s", "b_z"], ["b_d"], axis=1))
    else:
        more_nodes, more_inits = _qdq("b", 0.025, 9)
        nodes, inits = nodes + more_nodes, inits + more_inits
        inputs.append(("b", TensorProto.FLOAT, b_shape))
    nodes.append(helper.make_node("MatMul", ["a_d", "b_d"], ["y"]))
    out_nodes, out_inits = _qdq("y", float(np.abs(np.matmul(a, b)).max() / 100), 3)
    out_nodes[-1].output[0] = "yd"
    path = save_model(nodes + out_nodes, name, inputs, [("yd", TensorProto.FLOAT, y_shape)],
                      inits + out_inits, opset=13)
    feeds = {"a": a} if constant else {"a": a, "b": b}
    (ref,) = onnxruntime_reference(path, feeds)
    (y,) = run_plan(compile_plan(path, name), feeds, name, outputs=["yd"], extra=["--dequantize"])
    assert y.shape == ref.shape
    assert np.abs(y - ref).max() <= output_scale(path, "yd") * 1.001


@pytest.mark.parametrize("budget", ["64M", "2K"])
def test_quantized_transformer_encoder_block_matches_onnxruntime(budget):
    """quantize_static (QDQ, per-channel weights) quantizes every MatMul of the encoder
    block: the projections by constant weights and attention's two products of run-time
    rank-4 operands, all int8 in the plan (LayerNormalization, Softmax and Gelu between
    them as onnxruntime leaves them); to within 1 LSB of onnxruntime on every element."""
    path = WORK_DIR / "tiny_encoder.onnx"
    onnx.save(tiny_encoder(), str(path))
    qpath = WORK_DIR / "tiny_encoder_int8.onnx"
    quantize_static(str(path), str(qpath), RandomInputs([1, 8, 16], seed=5),
                    quant_format=QuantFormat.QDQ, activation_type=QuantType.QInt8,
                    weight_type=QuantType.QInt8, per_channel=True)
    name = f"tiny_encoder_int8_{budget}"
    plan = compile_plan(qpath, name, budget)
    inspect = json.loads(tigris("inspect", plan, "--json").stdout)
    dtypes = [inspect["tensors"][op["outputs"][0]]["dtype"] for op in inspect["ops"]
              if op["code"] == "MATMUL"]
    in_model = sum(n.op_type == "MatMul" for n in onnx.load(str(qpath)).graph.node)
    assert dtypes == ["INT8"] * in_model, dtypes
    for seed in range(3):
        x = np.random.RandomState(seed).standard_normal([1, 8, 16]).astype(np.float32)
        (ref,) = onnxruntime_reference(qpath, {"x": x})
        (y,) = run_plan(plan, {"x": x}, name, extra=["--dequantize"])
        assert y.shape == ref.shape
        assert np.abs(y - ref).max() <= output_scale(qpath) * 1.001


def test_int8_matmul_by_weights_quantized_along_k_is_refused_by_name():
    """Requantization is per column of B; weights quantized per row (axis 0) have no such
    form, and the refusal names the op, the weight and the axis."""
    name = "matmul_s8_axis0"
    nodes, inits = _qdq("a", 0.05, 0)
    inits += [numpy_helper.from_array(np.ones([4, 5], np.int8), "b_q"),
              numpy_helper.from_array(np.full(4, 0.01, np.float32), "b_s"),
              numpy_helper.from_array(np.zeros(4, np.int8), "b_z")]
    nodes += [helper.make_node("DequantizeLinear", ["b_q", "b_s", "b_z"], ["b_d"], axis=0),
              helper.make_node("MatMul", ["a_d", "b_d"], ["y"])]
    out_nodes, out_inits = _qdq("y", 0.05, 0)
    path = save_model(nodes + out_nodes, name, [("a", TensorProto.FLOAT, [2, 3, 4])],
                      [("y_d", TensorProto.FLOAT, [2, 3, 5])], inits + out_inits, opset=13)
    result = tigris("compile", path, "-m", "64M", "-o", WORK_DIR / f"{name}.tgrs", check=False)
    assert result.returncode != 0
    assert "MatMul" in result.stderr and "along axis 0" in result.stderr, result.stderr
