"""LayerNormalization, InstanceNormalization, GroupNormalization and LpNormalization, which
the compiler decomposes into reductions and binary ops (passes/norm_decompose.cc), compiled
and run by `tigris` as a user would, against onnxruntime (1e-4 of the largest value).

float32: x -> Conv 3x3 -> NORM -> Conv 1x1 -> y, with per-channel scale and bias.
int8: the same model quantized by onnxruntime's quantize_static (which quantizes
LayerNormalization and InstanceNormalization): the decomposition runs as a float island
between a dequantize and a quantize, as onnxruntime computes it, within 2 LSB.
"""
import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from onnxruntime.quantization import QuantFormat, QuantType, quantize_static

from conftest import WORK_DIR, tigris
from qdq_helpers import RandomInputs, he_normal, onnxruntime_reference, output_scale

C, H, W = 6, 10, 12


def norm_nodes(case, rng):
    """The normalization node(s) reading 'a' and writing 'n', and their initializers."""
    if case == "layer":  # over the last two axes [H, W], a transformer's form
        return ([helper.make_node("LayerNormalization", ["a", "g", "b"], ["n"], axis=-2,
                                  epsilon=1e-3)],
                [numpy_helper.from_array(rng.uniform(0.5, 1.5, [H, W]).astype(np.float32), "g"),
                 numpy_helper.from_array(rng.standard_normal([H, W]).astype(np.float32), "b")])
    if case == "layer_no_bias":
        return ([helper.make_node("LayerNormalization", ["a", "g"], ["n"], axis=1)],
                [numpy_helper.from_array(rng.uniform(0.5, 1.5, [C, H, W]).astype(np.float32),
                                         "g")])
    if case == "instance":
        return ([helper.make_node("InstanceNormalization", ["a", "g", "b"], ["n"],
                                  epsilon=1e-4)],
                [numpy_helper.from_array(rng.uniform(0.5, 1.5, C).astype(np.float32), "g"),
                 numpy_helper.from_array(rng.standard_normal(C).astype(np.float32), "b")])
    if case == "group":  # 3 groups of 2 channels
        per = C
        return ([helper.make_node("GroupNormalization", ["a", "g", "b"], ["n"], num_groups=3,
                                  epsilon=1e-3)],
                [numpy_helper.from_array(rng.uniform(0.5, 1.5, per).astype(np.float32), "g"),
                 numpy_helper.from_array(rng.standard_normal(per).astype(np.float32), "b")])
    p = 1 if case == "lp1" else 2
    return [helper.make_node("LpNormalization", ["a"], ["n"], axis=1, p=p)], []


CASES = ["layer", "layer_no_bias", "instance", "group", "lp1", "lp2"]
OPSET = {"group": 21}


def float_case(case):
    rng = np.random.RandomState(4)
    body, extra = norm_nodes(case, rng)
    nodes = ([helper.make_node("Conv", ["x", "w1", "b1"], ["a"], pads=[1, 1, 1, 1])] + body +
             [helper.make_node("Conv", ["n", "w2", "b2"], ["y"])])
    inits = [he_normal(rng, "w1", [C, C, 3, 3]),
             numpy_helper.from_array(rng.standard_normal(C).astype(np.float32), "b1"),
             he_normal(rng, "w2", [C, C, 1, 1]),
             numpy_helper.from_array(np.zeros(C, np.float32), "b2")] + extra
    graph = helper.make_graph(nodes, f"norm_{case}",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, C, H, W])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, C, H, W])],
                              inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET.get(case, 17))])
    model.ir_version = 8
    onnx.checker.check_model(model)
    path = WORK_DIR / f"norm_{case}.onnx"
    onnx.save(model, str(path))
    return path


def run(path, x, stem, budget="64M"):
    """y as `tigris run` returns it, dequantized when the plan's output is int8."""
    np.save(f"{stem}.x.npy", x)
    tigris("compile", path, "-m", budget, "--xip", "-o", f"{stem}.tgrs")
    tigris("run", f"{stem}.tgrs", "--input", f"{stem}.x.npy", "--output", f"{stem}.y.npy",
           "--dequantize")
    return np.load(f"{stem}.y.npy")


@pytest.mark.parametrize("case", CASES)
def test_float32_matches_onnxruntime(case):
    path = float_case(case)
    x = np.random.RandomState(8).standard_normal([1, C, H, W]).astype(np.float32)
    (ref,) = onnxruntime_reference(path, {"x": x})
    y = run(path, x, WORK_DIR / f"norm_{case}")
    np.testing.assert_allclose(y, ref, rtol=0, atol=1e-4 * np.abs(ref).max(), err_msg=case)
    # At a small budget the ops around it tile; the bytes are the whole-tensor plan's.
    small = run(path, x, WORK_DIR / f"norm_{case}_small", "12K")
    assert small.tobytes() == y.tobytes(), f"{case}: 12K plan != 64M plan"


@pytest.mark.parametrize("case", ["layer", "instance"])
def test_int8_quantize_static_within_2_lsb(case):
    path = float_case(case)
    qpath = WORK_DIR / f"norm_{case}_int8.onnx"
    # Per-tensor weights: onnxruntime's per-channel path fails on LayerNormalization's
    # 2-D scale (qdq_quantizer.py compares an array's truth value).
    quantize_static(str(path), str(qpath), RandomInputs([1, C, H, W], 31),
                    quant_format=QuantFormat.QDQ, per_channel=False,
                    activation_type=QuantType.QInt8, weight_type=QuantType.QInt8)
    x = np.random.RandomState(12).standard_normal([1, C, H, W]).astype(np.float32)
    (ref,) = onnxruntime_reference(qpath, {"x": x})
    y = run(qpath, x, WORK_DIR / f"norm_{case}_int8")
    lsb = np.abs(y.astype(np.float64) - ref.astype(np.float64)) / output_scale(qpath)
    assert lsb.max() <= 2.0 + 1e-6, f"{case}: {lsb.max():.2f} LSB from onnxruntime"
