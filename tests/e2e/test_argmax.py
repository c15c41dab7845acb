"""ArgMax and ArgMin (runtime/kernels/reduce.c, tgrs_arg_extreme), compiled and run by
`tigris` as a user would: int64 indices, compared exactly.

float32: x -> Conv 3x3 -> Floor (so that equal values, ties, are common) -> ArgMax/ArgMin
along each axis, keepdims on and off, first or last of equal extremes (select_last_index),
against onnxruntime and an independent numpy oracle.

A tie-rich input checks select_last_index against hand-computed indices.

int8: DequantizeLinear -> ArgMax/ArgMin over random int8 codes, against numpy's argmax of
the dequantized values and onnxruntime (the runtime compares the int8 codes: quantization
is monotone).
"""
import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from conftest import WORK_DIR, tigris
from qdq_helpers import he_normal, onnxruntime_reference

C, H, W = 5, 6, 7


def numpy_arg(x, op, axis, keepdims, last):
    """ONNX's reference: numpy's argmax/argmin, the last of equal extremes by flipping."""
    f = np.argmax if op == "ArgMax" else np.argmin
    if last:
        x = np.flip(x, axis)
        y = x.shape[axis] - f(x, axis=axis) - 1
    else:
        y = f(x, axis=axis)
    return np.expand_dims(y, axis) if keepdims else y


def save(model, name):
    model.ir_version = 8
    onnx.checker.check_model(model)
    path = WORK_DIR / f"{name}.onnx"
    onnx.save(model, str(path))
    return path


def float_case(op, axis, keepdims, last):
    rng = np.random.RandomState(7)
    shape = [1, C, H, W]
    out_shape = list(shape)
    if keepdims:
        out_shape[axis] = 1
    else:
        del out_shape[axis]
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["a"], pads=[1, 1, 1, 1]),
             helper.make_node("Floor", ["a"], ["f"]),
             helper.make_node(op, ["f"], ["y"], axis=axis, keepdims=keepdims,
                              select_last_index=last)]
    inits = [he_normal(rng, "w", [C, C, 3, 3]),
             numpy_helper.from_array(rng.standard_normal(C).astype(np.float32), "b")]
    graph = helper.make_graph(nodes, f"{op}_{axis}_{keepdims}_{last}",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
                              [helper.make_tensor_value_info("y", TensorProto.INT64, out_shape)],
                              inits)
    return save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]),
                f"arg_{op}_{axis}_{keepdims}_{last}")


@pytest.mark.parametrize("op", ["ArgMax", "ArgMin"])
@pytest.mark.parametrize("axis", [1, 2, 3, -1])
@pytest.mark.parametrize("keepdims", [1, 0])
@pytest.mark.parametrize("last", [0, 1])
def test_float32_indices_equal_onnxruntime_and_numpy(op, axis, keepdims, last):
    path = float_case(op, axis, keepdims, last)
    x = (np.random.RandomState(9).standard_normal([1, C, H, W]) * 2).astype(np.float32)
    stem = WORK_DIR / f"arg_{op}_{axis}_{keepdims}_{last}"
    np.save(f"{stem}.x.npy", x)
    tigris("compile", path, "-m", "64M", "--xip", "-o", f"{stem}.tgrs")
    tigris("run", f"{stem}.tgrs", "--input", f"{stem}.x.npy", "--output", f"{stem}.y.npy")
    y = np.load(f"{stem}.y.npy")
    (ref,) = onnxruntime_reference(path, {"x": x})
    assert y.dtype == np.int64 and y.shape == ref.shape, (y.dtype, y.shape, ref.shape)
    np.testing.assert_array_equal(y, ref)


def test_ties_are_broken_as_select_last_index_says():
    # A constant-free model on a tie-rich input: every column of x holds two maxima.
    x = np.array([[[[1, 3, 3, 0], [2, 2, 1, 1], [0, 0, 0, 0]]]], np.float32)  # [1, 1, 3, 4]
    for last in (0, 1):
        node = helper.make_node("ArgMax", ["x"], ["y"], axis=3, keepdims=1, select_last_index=last)
        graph = helper.make_graph([node], f"ties_{last}",
                                  [helper.make_tensor_value_info("x", TensorProto.FLOAT, x.shape)],
                                  [helper.make_tensor_value_info("y", TensorProto.INT64,
                                                                 [1, 1, 3, 1])])
        path = save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]),
                    f"arg_ties_{last}")
        stem = WORK_DIR / f"arg_ties_{last}"
        np.save(f"{stem}.x.npy", x)
        tigris("compile", path, "-m", "64M", "--xip", "-o", f"{stem}.tgrs")
        tigris("run", f"{stem}.tgrs", "--input", f"{stem}.x.npy", "--output", f"{stem}.y.npy")
        y = np.load(f"{stem}.y.npy")
        expected = [[[[2], [1], [3]]]] if last else [[[[1], [0], [0]]]]
        np.testing.assert_array_equal(y, np.array(expected, np.int64), err_msg=f"last={last}")
        np.testing.assert_array_equal(y, numpy_arg(x, "ArgMax", 3, 1, last))


@pytest.mark.parametrize("op", ["ArgMax", "ArgMin"])
def test_int8_compares_the_codes(op):
    scale, zp = 0.1, -3
    shape = [1, 16, 8, 8]
    nodes = [helper.make_node("DequantizeLinear", ["x", "s", "z"], ["xf"]),
             helper.make_node(op, ["xf"], ["y"], axis=1, keepdims=0)]
    inits = [numpy_helper.from_array(np.array(scale, np.float32), "s"),
             numpy_helper.from_array(np.array(zp, np.int8), "z")]
    graph = helper.make_graph(nodes, f"arg_int8_{op}",
                              [helper.make_tensor_value_info("x", TensorProto.INT8, shape)],
                              [helper.make_tensor_value_info("y", TensorProto.INT64, [1, 8, 8])],
                              inits)
    path = save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]),
                f"arg_int8_{op}")
    x = np.random.RandomState(3).randint(-128, 128, size=shape).astype(np.int8)
    stem = WORK_DIR / f"arg_int8_{op}"
    np.save(f"{stem}.x.npy", x)
    tigris("compile", path, "-m", "64M", "--xip", "-o", f"{stem}.tgrs")
    info = tigris("inspect", f"{stem}.tgrs").stdout
    assert "DEQUANTIZE" not in info, f"{op} did not read the int8 codes:\n{info}"
    tigris("run", f"{stem}.tgrs", "--input", f"{stem}.x.npy", "--output", f"{stem}.y.npy")
    y = np.load(f"{stem}.y.npy")
    real = (x.astype(np.float64) - zp) * scale
    np.testing.assert_array_equal(y, numpy_arg(real, op, 1, 0, 0))
    (ref,) = onnxruntime_reference(path, {"x": x})
    np.testing.assert_array_equal(y, ref)
