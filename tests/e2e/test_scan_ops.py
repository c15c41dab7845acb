"""Hardmax and CumSum (runtime/kernels/scan.c, issue 43), compiled and run by `tigris` as a
user would: float32 along every axis of a map (CumSum with each of its exclusive / reverse
flags) against onnxruntime, 1e-4 of the largest value; int64 CumSum of a graph input
exactly; and the forms the runtime has not refused by name.
"""
import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from conftest import WORK_DIR, tigris
from qdq_helpers import compile_plan, he_normal, onnxruntime_reference, run_plan, save_model

C, H, W = 4, 6, 5


def _run(path, feeds, name):
    (y,) = run_plan(compile_plan(path, name), feeds, name)
    return y


def _map_model(name, node, extra):
    """x -> Conv 3x3 -> h -> node -> m -> Conv 1x1 -> y."""
    rng = np.random.RandomState(31)
    nodes = [helper.make_node("Conv", ["x", "w1", "b1"], ["h"], pads=[1, 1, 1, 1]), node,
             helper.make_node("Conv", ["m", "w2", "b2"], ["y"])]
    inits = [he_normal(rng, "w1", [C, C, 3, 3]),
             numpy_helper.from_array(rng.standard_normal(C).astype(np.float32), "b1"),
             he_normal(rng, "w2", [C, C, 1, 1]),
             numpy_helper.from_array(np.zeros(C, np.float32), "b2")] + extra
    return save_model(nodes, name, [("x", TensorProto.FLOAT, [1, C, H, W])],
                      [("y", TensorProto.FLOAT, [1, C, H, W])], inits)


@pytest.mark.parametrize("axis", [0, 1, 2, 3, -1])
def test_hardmax_matches_onnxruntime(axis):
    name = f"scan_hardmax_{axis}".replace("-", "m")
    path = _map_model(name, helper.make_node("Hardmax", ["h"], ["m"], axis=axis), [])
    x = np.random.RandomState(2).standard_normal([1, C, H, W]).astype(np.float32)
    (ref,) = onnxruntime_reference(path, {"x": x})
    y = _run(path, {"x": x}, name)
    np.testing.assert_allclose(y, ref, rtol=0, atol=1e-4 * np.abs(ref).max())


@pytest.mark.parametrize("axis", [1, 2, 3])
@pytest.mark.parametrize("exclusive,reverse", [(0, 0), (1, 0), (0, 1), (1, 1)])
def test_cumsum_matches_onnxruntime(axis, exclusive, reverse):
    name = f"scan_cumsum_{axis}_{exclusive}{reverse}"
    node = helper.make_node("CumSum", ["h", "axis"], ["m"], exclusive=exclusive,
                            reverse=reverse)
    path = _map_model(name, node, [numpy_helper.from_array(np.array(axis, np.int64), "axis")])
    x = np.random.RandomState(3).standard_normal([1, C, H, W]).astype(np.float32)
    (ref,) = onnxruntime_reference(path, {"x": x})
    y = _run(path, {"x": x}, name)
    np.testing.assert_allclose(y, ref, rtol=0, atol=1e-4 * np.abs(ref).max())


def test_int64_cumsum_is_exact():
    shape = [3, 7]
    path = save_model([helper.make_node("CumSum", ["x", "axis"], ["y"], reverse=1)],
                      "scan_cumsum_int64", [("x", TensorProto.INT64, shape)],
                      [("y", TensorProto.INT64, shape)],
                      [numpy_helper.from_array(np.array([-1], np.int32), "axis")])
    x = np.random.RandomState(4).randint(-(2 ** 40), 2 ** 40, shape).astype(np.int64)
    y = _run(path, {"x": x}, "scan_cumsum_int64")
    assert y.dtype == np.int64
    assert np.array_equal(y, np.flip(np.cumsum(np.flip(x, 1), 1), 1))


def test_old_opset_hardmax_over_a_middle_axis_is_refused_by_name():
    path = save_model([helper.make_node("Hardmax", ["x"], ["y"], axis=1)], "scan_hardmax_opset11",
                      [("x", TensorProto.FLOAT, [2, 3, 4])], [("y", TensorProto.FLOAT, [2, 3, 4])],
                      [], opset=11)
    result = tigris("compile", path, "-m", "64M", "-o", WORK_DIR / "scan_hardmax_opset11.tgrs",
                    check=False)
    assert result.returncode != 0
    assert "Hardmax" in result.stderr and "one axis" in result.stderr, result.stderr
