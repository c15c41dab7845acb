"""The binary ops beside Add (Max, Min, Pow, PRelu; runtime/kernels/elementwise.c) and ONNX's
variadic Max, Min, Sum and Mean (passes/binary_canonicalize.cc), compiled and run by
`tigris` as a user would.

float32: x -> Conv 3x3 -> three maps a, b, c -> OP -> Conv 1x1 -> y, against onnxruntime
(1e-4 of the largest value), and tiled against untiled: at a budget that cuts the op into row
tiles the output bytes are the whole-tensor plan's.

int8 Max and Min: DequantizeLinear of two int8 maps on different grids, the op, then
QuantizeLinear, fed every pair of int8 values once. Expected: ONNX's definition in float64,
rounded half to even and saturated as QuantizeLinear does (an independent numpy oracle);
the runtime rescales both inputs to the output's grid with 20-odd fraction bits and rounds
once, so only values at a rounding tie of the float32 scales may land 1 LSB away.
"""
import re

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from conftest import WORK_DIR, tigris
from qdq_helpers import he_normal, onnxruntime_reference

C, H, W = 4, 24, 24


def _per_channel(name, values):
    return numpy_helper.from_array(np.array(values, np.float32).reshape(C, 1, 1), name)


# case -> (nodes reading a, b, c (c > 0 for Pow's base) and writing m, extra initializers)
CASES = {
    "max": ([helper.make_node("Max", ["a", "b"], ["m"])], []),
    "min": ([helper.make_node("Min", ["a", "b"], ["m"])], []),
    "max3": ([helper.make_node("Max", ["a", "b", "c"], ["m"])], []),
    "min3": ([helper.make_node("Min", ["a", "b", "c"], ["m"])], []),
    "sum3": ([helper.make_node("Sum", ["a", "b", "c"], ["m"])], []),
    "mean3": ([helper.make_node("Mean", ["a", "b", "c"], ["m"])], []),
    "mean2": ([helper.make_node("Mean", ["a", "b"], ["m"])], []),
    # Run-time base and exponent; a constant per-channel exponent (integers and not).
    "pow": ([helper.make_node("Pow", ["c", "b"], ["m"])], []),
    "pow_const": ([helper.make_node("Pow", ["c", "e"], ["m"])],
                  [_per_channel("e", [2.0, -1.0, 0.5, 3.3])]),
    "prelu": ([helper.make_node("PRelu", ["a", "s"], ["m"])],
              [_per_channel("s", [0.1, -0.5, 2.0, 0.0])]),
    "prelu_scalar": ([helper.make_node("PRelu", ["a", "s"], ["m"])],
                     [numpy_helper.from_array(np.array([0.25], np.float32), "s")]),
}


def float_case(case):
    nodes, extra = CASES[case]
    rng = np.random.RandomState(11)
    head = [helper.make_node("Conv", ["x", "w1", "b1"], ["abc"], pads=[1, 1, 1, 1]),
            helper.make_node("Split", ["abc", "split"], ["a", "b", "cr"], axis=1),
            # Pow's base must be positive for a real result: c = Sigmoid(.) + 0.5.
            helper.make_node("Sigmoid", ["cr"], ["cs"]),
            helper.make_node("Add", ["cs", "half"], ["c"])]
    tail = [helper.make_node("Conv", ["m", "w2", "b2"], ["y"])]
    inits = [he_normal(rng, "w1", [3 * C, C, 3, 3]),
             numpy_helper.from_array(rng.standard_normal(3 * C).astype(np.float32), "b1"),
             numpy_helper.from_array(np.array([C, C, C], np.int64), "split"),
             numpy_helper.from_array(np.array(0.5, np.float32), "half"),
             he_normal(rng, "w2", [C, C, 1, 1]),
             numpy_helper.from_array(np.zeros(C, np.float32), "b2")] + extra
    graph = helper.make_graph(head + nodes + tail, f"binary_{case}",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, C, H, W])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, C, H, W])],
                              inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    path = WORK_DIR / f"binary_{case}.onnx"
    onnx.save(model, str(path))
    return path


@pytest.mark.parametrize("case", sorted(CASES))
def test_float32_matches_onnxruntime_tiled_and_whole(case):
    path = float_case(case)
    x = np.random.RandomState(5).standard_normal([1, C, H, W]).astype(np.float32)
    x_path = WORK_DIR / f"binary_{case}.x.npy"
    np.save(x_path, x)
    (ref,) = onnxruntime_reference(path, {"x": x})
    outputs = {}
    for budget in ["64M", "8K"]:
        plan = WORK_DIR / f"binary_{case}.{budget}.tgrs"
        y_path = WORK_DIR / f"binary_{case}.{budget}.y.npy"
        tigris("compile", path, "-m", budget, "--xip", "-o", plan)
        tigris("run", plan, "--input", x_path, "--output", y_path)
        outputs[budget] = np.load(y_path)
    np.testing.assert_allclose(outputs["64M"], ref, rtol=0, atol=1e-4 * np.abs(ref).max(),
                               err_msg=case)
    assert outputs["8K"].tobytes() == outputs["64M"].tobytes(), f"{case}: tiled != whole"
    info = tigris("inspect", WORK_DIR / f"binary_{case}.8K.tgrs").stdout
    op = {"max3": "MAX", "min3": "MIN", "sum3": "ADD", "mean3": "DIV", "mean2": "DIV",
          "pow_const": "POW", "prelu_scalar": "PRELU"}.get(case, case.upper())
    assert re.search(rf"\b{op}\b", info), f"{case}: no {op} op in the plan:\n{info}"
    assert "tile:" in info, f"{case}: 8K did not tile:\n{info}"


def int8_case(op, a_q, b_q, y_q):
    nodes = [helper.make_node("DequantizeLinear", ["xa", "as", "az"], ["af"]),
             helper.make_node("DequantizeLinear", ["xb", "bs", "bz"], ["bf"]),
             helper.make_node(op, ["af", "bf"], ["yf"]),
             helper.make_node("QuantizeLinear", ["yf", "ys", "yz"], ["y"])]
    inits = []
    for prefix, (scale, zp) in (("a", a_q), ("b", b_q), ("y", y_q)):
        inits += [numpy_helper.from_array(np.array(scale, np.float32), prefix + "s"),
                  numpy_helper.from_array(np.array(zp, np.int8), prefix + "z")]
    shape = [1, 1, 256, 256]
    graph = helper.make_graph(nodes, f"binary_{op}_int8",
                              [helper.make_tensor_value_info("xa", TensorProto.INT8, shape),
                               helper.make_tensor_value_info("xb", TensorProto.INT8, shape)],
                              [helper.make_tensor_value_info("y", TensorProto.INT8, shape)], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    path = WORK_DIR / f"binary_{op}_int8.onnx"
    onnx.save(model, str(path))
    return path


@pytest.mark.parametrize("op", ["Max", "Min"])
def test_int8_max_min_within_one_lsb_of_the_exact_result(op):
    a_q, b_q, y_q = (0.05, 3), (0.0371, -20), (0.06, -7)
    path = int8_case(op, a_q, b_q, y_q)
    values = np.arange(-128, 128, dtype=np.int8)
    xa = np.repeat(values, 256).reshape(1, 1, 256, 256)  # every pair once
    xb = np.tile(values, 256).reshape(1, 1, 256, 256)
    # ONNX's definition with the model's float32 scales: DequantizeLinear, the op, then
    # QuantizeLinear (x / scale rounded half to even), in float64 so nothing else rounds.
    f32 = lambda v: float(np.float32(v))  # noqa: E731
    real_a = (xa.astype(np.float64) - a_q[1]) * f32(a_q[0])
    real_b = (xb.astype(np.float64) - b_q[1]) * f32(b_q[0])
    real = np.maximum(real_a, real_b) if op == "Max" else np.minimum(real_a, real_b)
    expected = np.clip(np.rint(real / f32(y_q[0])) + y_q[1], -128, 127).astype(np.int32)

    paths = {n: WORK_DIR / f"binary_{op}_int8.{n}.npy" for n in ("xa", "xb", "y")}
    np.save(paths["xa"], xa)
    np.save(paths["xb"], xb)
    plan = WORK_DIR / f"binary_{op}_int8.tgrs"
    tigris("compile", path, "-m", "64M", "--xip", "-o", plan)
    info = tigris("inspect", plan).stdout
    ops = re.findall(r"^\s+\d+\s+([A-Z_]+)\s", info.split("\nops\n")[1].split("\ntensors")[0],
                     re.M)
    assert ops == [op.upper()], f"{op} did not run alone in int8: {ops}"
    tigris("run", plan, "--input", paths["xa"], "--input", paths["xb"],
           "--output", paths["y"])
    y = np.load(paths["y"]).astype(np.int32)
    lsb = np.abs(y - expected)
    assert lsb.max() <= 1, f"{op}: {lsb.max()} LSB from the exact result"
    # Off only at the float32 scales' near-ties, which the Q0.31 multipliers perturb: 217 of
    # the 65536 pairs for Max, measured.
    assert np.count_nonzero(lsb) < 400, f"{op}: {np.count_nonzero(lsb)} of 65536 pairs off"
    (ref,) = onnxruntime_reference(path, {"xa": xa, "xb": xb})
    assert np.abs(y - ref.astype(np.int32)).max() <= 1, f"{op}: more than 1 LSB from onnxruntime"
