"""GatherElements (runtime/kernels/gather_elements.c, issue 43), compiled and run by `tigris`
as a user would: along every axis of a map with constant indices (negative ones among them)
against onnxruntime; int64 indices given at run time, exactly; an index outside the axis
refused at run time with its named status.
"""
import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from qdq_helpers import compile_plan, he_normal, onnxruntime_reference, run_plan, save_model

C, H, W = 4, 6, 5


def _run(path, feeds, name, check=True):
    """The output, or the failed run's CompletedProcess (check=False)."""
    result = run_plan(compile_plan(path, name), feeds, name, check=check)
    return result[0] if isinstance(result, list) else result


@pytest.mark.parametrize("axis", [0, 1, 2, 3, -1])
def test_constant_indices_match_onnxruntime(axis):
    """x -> Conv 3x3 -> h -> GatherElements(h, idx) -> g -> Conv 1x1 -> y; idx narrower than
    h along the axis it gathers on and along one other, so both extents are exercised."""
    name = f"gather_elements_{axis}".replace("-", "m")
    rng = np.random.RandomState(5)
    dims = [1, C, H, W]
    a = axis % 4
    shape = list(dims)
    shape[a] = max(1, dims[a] - 1) if a else 1
    if a != 3:
        shape[3] = W - 1
    idx = rng.randint(-dims[a], dims[a], shape).astype(np.int64)
    out_c = shape[1]
    nodes = [helper.make_node("Conv", ["x", "w1", "b1"], ["h"], pads=[1, 1, 1, 1]),
             helper.make_node("GatherElements", ["h", "idx"], ["g"], axis=axis),
             helper.make_node("Conv", ["g", "w2", "b2"], ["y"])]
    inits = [he_normal(rng, "w1", [C, C, 3, 3]),
             numpy_helper.from_array(rng.standard_normal(C).astype(np.float32), "b1"),
             numpy_helper.from_array(idx, "idx"),
             he_normal(rng, "w2", [C, out_c, 1, 1]),
             numpy_helper.from_array(np.zeros(C, np.float32), "b2")]
    path = save_model(nodes, name, [("x", TensorProto.FLOAT, dims)],
                      [("y", TensorProto.FLOAT, [1, C] + shape[2:])], inits)
    x = rng.standard_normal(dims).astype(np.float32)
    (ref,) = onnxruntime_reference(path, {"x": x})
    y = _run(path, {"x": x}, name)
    np.testing.assert_allclose(y, ref, rtol=0, atol=1e-4 * np.abs(ref).max())


def _runtime_indices_model(name):
    return save_model([helper.make_node("GatherElements", ["x", "i"], ["y"], axis=1)], name,
                      [("x", TensorProto.INT64, [3, 4]), ("i", TensorProto.INT64, [3, 2])],
                      [("y", TensorProto.INT64, [3, 2])], [])


def test_run_time_indices_are_exact():
    path = _runtime_indices_model("gather_elements_runtime")
    x = np.arange(12, dtype=np.int64).reshape(3, 4) * (2 ** 33)
    i = np.array([[0, 3], [-1, 1], [2, -4]], np.int64)
    y = _run(path, {"x": x, "i": i}, "gather_elements_runtime")
    assert y.dtype == np.int64
    assert np.array_equal(y, np.take_along_axis(x, np.where(i < 0, i + 4, i), axis=1))


def test_an_index_outside_the_axis_is_refused_at_run_time():
    path = _runtime_indices_model("gather_elements_bad_index")
    x = np.zeros([3, 4], np.int64)
    i = np.array([[0, 4], [0, 0], [0, 0]], np.int64)
    result = _run(path, {"x": x, "i": i}, "gather_elements_bad_index", check=False)
    assert result.returncode != 0
    assert "TGRS_ERR_INDEX_OUT_OF_RANGE" in result.stderr
