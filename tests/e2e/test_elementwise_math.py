"""The elementwise math ops of the op table (Abs ... Mish, runtime/src/ops_math.c), compiled
and run by `tigris` as a user would.

float32: x -> Conv 3x3 -> [Sigmoid, for the ops defined on (0, inf) only] -> OP -> Conv 1x1
-> y, against onnxruntime (1e-4 of the largest value), and tiled against untiled: at a
budget that cuts the op into row tiles the output bytes are the whole-tensor plan's.

int8: the op alone between DequantizeLinear and QuantizeLinear, fed every int8 value once.
The runtime reads a 256-entry table the compiler computed (emit/lut.cc), so the expected
bytes are exact: ONNX's definition in float64, rounded half to even and saturated, as
QuantizeLinear does (an independent numpy oracle). onnxruntime, which evaluates the op in
float32 before quantizing, must agree within 1 LSB.
"""
import math
import re

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from conftest import WORK_DIR, tigris
from qdq_helpers import he_normal, onnxruntime_reference


def _erf(x):
    return np.vectorize(math.erf)(x)


def _softplus(x):
    return np.where(x > 0, x + np.log1p(np.exp(-np.abs(x))), np.log1p(np.exp(np.minimum(x, 0))))


# op -> (attributes, float64 definition (ONNX operators.md), needs a positive input)
OPS = {
    "Abs": ({}, np.abs, False),
    "Neg": ({}, np.negative, False),
    "Exp": ({}, np.exp, False),
    "Log": ({}, np.log, True),
    "Sqrt": ({}, np.sqrt, True),
    "Reciprocal": ({}, lambda x: 1.0 / x, True),
    "Floor": ({}, np.floor, False),
    "Ceil": ({}, np.ceil, False),
    "Round": ({}, np.rint, False),  # half to even
    "Sign": ({}, np.sign, False),
    "Elu": ({"alpha": 0.7}, lambda x: np.where(x >= 0, x, 0.7 * np.expm1(np.minimum(x, 0))),
            False),
    "Celu": ({"alpha": 1.5},
             lambda x: np.where(x >= 0, x, 1.5 * np.expm1(np.minimum(x, 0) / 1.5)), False),
    "Softplus": ({}, _softplus, False),
    "Softsign": ({}, lambda x: x / (1.0 + np.abs(x)), False),
    "Mish": ({}, lambda x: x * np.tanh(_softplus(x)), False),
    "Erf": ({}, _erf, False),
    "Gelu": ({}, lambda x: 0.5 * x * (1.0 + _erf(x / np.sqrt(2.0))), False),
    "Gelu_tanh": ({"approximate": "tanh"},
                  lambda x: 0.5 * x * (1.0 + np.tanh(np.sqrt(2.0 / np.pi)
                                                     * (x + 0.044715 * x ** 3))), False),
    "Sin": ({}, np.sin, False),
    "Cos": ({}, np.cos, False),
}
C, H, W = 4, 24, 24


def onnx_op(case):
    """The ONNX op of a case ("Gelu_tanh" is Gelu with an attribute)."""
    return case.split("_")[0]


def opset18_model(nodes, name, elem_type, shape, inits):
    """A checked model with input x and output y of one shape: opset 18 (Mish needs 18), or
    20 for Gelu."""
    graph = helper.make_graph(nodes, name, [helper.make_tensor_value_info("x", elem_type, shape)],
                              [helper.make_tensor_value_info("y", elem_type, shape)], inits)
    opset = 20 if any(n.op_type == "Gelu" for n in nodes) else 18
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def float_case(op):
    attrs, _, positive = OPS[op]
    rng = np.random.RandomState(3)
    nodes = [helper.make_node("Conv", ["x", "w1", "b1"], ["a"], pads=[1, 1, 1, 1])]
    src = "a"
    if positive:
        nodes.append(helper.make_node("Sigmoid", ["a"], ["p"]))
        src = "p"
    nodes += [helper.make_node(onnx_op(op), [src], ["m"], **attrs),
              helper.make_node("Conv", ["m", "w2", "b2"], ["y"])]
    inits = [he_normal(rng, "w1", [8, C, 3, 3]),
             numpy_helper.from_array(rng.standard_normal(8).astype(np.float32), "b1"),
             he_normal(rng, "w2", [C, 8, 1, 1]),
             numpy_helper.from_array(np.zeros(C, np.float32), "b2")]
    model = opset18_model(nodes, f"math_{op}", TensorProto.FLOAT, [1, C, H, W], inits)
    path = WORK_DIR / f"math_{op}.onnx"
    onnx.save(model, str(path))
    return path


@pytest.mark.parametrize("op", sorted(OPS))
def test_float32_matches_onnxruntime_tiled_and_whole(op):
    path = float_case(op)
    x = np.random.RandomState(5).standard_normal([1, C, H, W]).astype(np.float32)
    x_path = WORK_DIR / f"math_{op}.x.npy"
    np.save(x_path, x)
    (ref,) = onnxruntime_reference(path, {"x": x})
    outputs = {}
    for budget in ["64M", "8K"]:
        plan = WORK_DIR / f"math_{op}.{budget}.tgrs"
        y_path = WORK_DIR / f"math_{op}.{budget}.y.npy"
        tigris("compile", path, "-m", budget, "--xip", "-o", plan)
        tigris("run", plan, "--input", x_path, "--output", y_path)
        outputs[budget] = np.load(y_path)
    np.testing.assert_allclose(outputs["64M"], ref, rtol=0, atol=1e-4 * np.abs(ref).max(),
                               err_msg=op)
    assert outputs["8K"].tobytes() == outputs["64M"].tobytes(), f"{op}: tiled != whole"
    # The op (plan op 1) runs inside a tile loop at 8K.
    info = tigris("inspect", WORK_DIR / f"math_{op}.8K.tgrs").stdout
    assert re.search(r"tile: .* ops [0-9,]*\b1\b", info), f"{op}: 8K did not tile it:\n{info}"


def int8_case(op, in_scale, in_zp, out_scale, out_zp):
    attrs, _, _ = OPS[op]
    nodes = [helper.make_node("DequantizeLinear", ["x", "xs", "xz"], ["xf"]),
             helper.make_node(onnx_op(op), ["xf"], ["yf"], **attrs),
             helper.make_node("QuantizeLinear", ["yf", "ys", "yz"], ["y"])]
    inits = [numpy_helper.from_array(np.array(in_scale, np.float32), "xs"),
             numpy_helper.from_array(np.array(in_zp, np.int8), "xz"),
             numpy_helper.from_array(np.array(out_scale, np.float32), "ys"),
             numpy_helper.from_array(np.array(out_zp, np.int8), "yz")]
    model = opset18_model(nodes, f"math_{op}_int8", TensorProto.INT8, [1, 1, 16, 16], inits)
    path = WORK_DIR / f"math_{op}_int8.onnx"
    onnx.save(model, str(path))
    return path


@pytest.mark.parametrize("op", sorted(OPS))
def test_int8_is_the_exact_table_over_every_input(op):
    _, f, positive = OPS[op]
    # Inputs over [-4, 4) (or (0, 8] for the ops defined on positives), outputs scaled to
    # the function's range there.
    in_scale, in_zp = 1.0 / 32, (-128 if positive else 0)
    x = np.arange(-128, 128, dtype=np.int8).reshape(1, 1, 16, 16)
    real = (x.astype(np.float64) - in_zp) * in_scale
    with np.errstate(divide="ignore", invalid="ignore"):
        values = f(real)
    finite = values[np.isfinite(values)]
    out_scale = float(np.float32(max(np.abs(finite).max(), 1.0) / 100.0))
    out_zp = 10
    path = int8_case(op, in_scale, in_zp, out_scale, out_zp)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        expected = np.clip(np.rint(values / out_scale) + out_zp, -128, 127)
    expected = np.where(np.isnan(expected), out_zp, expected).astype(np.int8)

    x_path, y_path = WORK_DIR / f"math_{op}_int8.x.npy", WORK_DIR / f"math_{op}_int8.y.npy"
    np.save(x_path, x)
    plan = WORK_DIR / f"math_{op}_int8.tgrs"
    tigris("compile", path, "-m", "64M", "--xip", "-o", plan)
    tigris("run", plan, "--input", x_path, "--output", y_path)
    y = np.load(y_path)
    assert y.dtype == np.int8
    wrong = np.flatnonzero(y.reshape(-1) != expected.reshape(-1))
    assert wrong.size == 0, (f"{op}: {wrong.size} of 256 inputs differ from the exact table, "
                             f"first at q={int(x.reshape(-1)[wrong[0]])}: "
                             f"{int(y.reshape(-1)[wrong[0]])} vs {int(expected.reshape(-1)[wrong[0]])}")
    (ref,) = onnxruntime_reference(path, {"x": x})
    lsb = np.abs(y.astype(np.int32) - ref.astype(np.int32))
    assert lsb.max() <= 1, f"{op}: {lsb.max()} LSB from onnxruntime"
