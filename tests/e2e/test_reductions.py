"""ONNX's reductions (the op table's REDUCE kind: ReduceMean, ReduceSum, ReduceMax,
ReduceMin, ReduceProd, ReduceL1, ReduceL2, ReduceSumSquare, ReduceLogSumExp, ReduceLogSum),
compiled and
run by `tigris` as a user would, against onnxruntime (graph optimizations off).

float32: each reduction over the channel axis, the spatial axes, all of them, and none
(noop_with_empty_axes), with and without keepdims, in opset 18 (axes as an input) and
opset 13 (axes as an attribute, ReduceSum's an input since 13): within 1e-5 of the largest
value. int8 (DequantizeLinear -> op -> QuantizeLinear), for the four the runtime computes
in int8 (Sum, Mean, Max, Min): within 1 LSB of onnxruntime, and Max/Min exactly when input
and output share their quantization (no rounding at all). The other five in int8 are a
named compile error, and analyze says the same. ReduceLogSum of a sum with negative terms is
NaN on both sides; the inputs' signs make some sums negative, so NaN positions must match.
"""
import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from conftest import WORK_DIR, tigris
from qdq_helpers import onnxruntime_reference

OPS = ["ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1",
       "ReduceL2", "ReduceSumSquare", "ReduceLogSumExp", "ReduceLogSum"]
INT8_OPS = ["ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin"]
SHAPE = [1, 6, 5, 7]
AXES = {"channels": [1], "spatial": [2, 3], "all": [1, 2, 3], "none": []}


def reduced_shape(axes, keepdims):
    if not axes:
        return SHAPE
    return [1 if i in axes else d for i, d in enumerate(SHAPE) if keepdims or i not in axes]


def model_path(op, axes, keepdims, opset, elem_type=TensorProto.FLOAT, quant=None):
    tag = f"{op}_{'-'.join(map(str, axes)) or 'none'}_k{keepdims}_o{opset}_{elem_type}"
    attrs = {"keepdims": keepdims}
    inputs, inits = ["xf" if quant else "x"], []
    axes_as_input = opset >= 18 or (op == "ReduceSum" and opset >= 13)
    if axes_as_input:
        if axes:
            inits.append(numpy_helper.from_array(np.array(axes, np.int64), "axes"))
            inputs.append("axes")
        else:
            attrs["noop_with_empty_axes"] = 1
    elif axes:
        attrs["axes"] = axes
    nodes = [helper.make_node(op, inputs, ["yf" if quant else "y"], **attrs)]
    if quant:
        (xs, xz), (ys, yz) = quant
        nodes.insert(0, helper.make_node("DequantizeLinear", ["x", "xs", "xz"], ["xf"]))
        nodes.append(helper.make_node("QuantizeLinear", ["yf", "ys", "yz"], ["y"]))
        inits += [numpy_helper.from_array(np.array(xs, np.float32), "xs"),
                  numpy_helper.from_array(np.array(xz, np.int8), "xz"),
                  numpy_helper.from_array(np.array(ys, np.float32), "ys"),
                  numpy_helper.from_array(np.array(yz, np.int8), "yz")]
    graph = helper.make_graph(
        nodes, f"reduce_{tag}", [helper.make_tensor_value_info("x", elem_type, SHAPE)],
        [helper.make_tensor_value_info("y", elem_type, reduced_shape(axes, keepdims))], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    path = WORK_DIR / f"reduce_{tag}.onnx"
    onnx.save(model, str(path))
    return path


def compile_and_run(path, x):
    x_path, y_path = path.with_suffix(".x.npy"), path.with_suffix(".y.npy")
    plan = path.with_suffix(".tgrs")
    np.save(x_path, x)
    tigris("compile", path, "-m", "64M", "--xip", "-o", plan)
    tigris("run", plan, "--input", x_path, "--output", y_path)
    return np.load(y_path)


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("axes", sorted(AXES))
@pytest.mark.parametrize("keepdims", [0, 1])
def test_float32_matches_onnxruntime(op, axes, keepdims):
    if axes == "none" and keepdims == 0:
        pytest.skip("noop_with_empty_axes keeps every axis: keepdims has nothing to drop")
    # Positive inputs near 1 keep ReduceProd over 210 values finite and ReduceLogSumExp's
    # sum within float range; the signs still vary for the others through the offset.
    x = (np.random.RandomState(7).uniform(0.8, 1.2, SHAPE) *
         np.where(np.arange(np.prod(SHAPE)).reshape(SHAPE) % 3 == 0, -1, 1)).astype(np.float32)
    for opset in (13, 18):
        if axes == "none" and opset < 18 and op != "ReduceSum":
            continue  # noop_with_empty_axes is opset 18 (ReduceSum: 13)
        path = model_path(op, AXES[axes], keepdims, opset)
        y = compile_and_run(path, x)
        (ref,) = onnxruntime_reference(path, {"x": x})
        assert y.shape == ref.shape, f"{path.name}: {y.shape} vs {ref.shape}"
        np.testing.assert_allclose(y, ref, rtol=1e-5, atol=1e-5 * np.nanmax(np.abs(ref)),
                                   err_msg=path.name)


@pytest.mark.parametrize("op", INT8_OPS)
@pytest.mark.parametrize("axes", ["channels", "spatial", "all"])
def test_int8_within_one_lsb_of_onnxruntime(op, axes):
    x = np.random.RandomState(11).randint(-128, 128, SHAPE).astype(np.int8)
    n = int(np.prod([SHAPE[a] for a in AXES[axes]]))
    out_scale = 0.05 * (n if op == "ReduceSum" else 1) / 4
    path = model_path(op, AXES[axes], 1, 18, TensorProto.INT8, ((0.05, 3), (out_scale, -5)))
    y = compile_and_run(path, x)
    (ref,) = onnxruntime_reference(path, {"x": x})
    lsb = np.abs(y.astype(np.int32) - ref.astype(np.int32))
    assert lsb.max() <= 1, f"{path.name}: {lsb.max()} LSB from onnxruntime"


@pytest.mark.parametrize("op", ["ReduceMax", "ReduceMin"])
def test_int8_max_and_min_are_exact_with_shared_quantization(op):
    x = np.random.RandomState(13).randint(-128, 128, SHAPE).astype(np.int8)
    path = model_path(op, [2, 3], 0, 18, TensorProto.INT8, ((0.1, -7), (0.1, -7)))
    y = compile_and_run(path, x)
    expected = (x.max(axis=(2, 3)) if op == "ReduceMax" else x.min(axis=(2, 3)))
    assert np.array_equal(y, expected), path.name


@pytest.mark.parametrize("op", sorted(set(OPS) - set(INT8_OPS)))
def test_int8_without_a_kernel_is_a_named_error_in_analyze_and_compile(op):
    path = model_path(op, [1], 1, 18, TensorProto.INT8, ((0.05, 0), (0.05, 0)))
    compiled = tigris("compile", path, "-m", "64M", "-o", path.with_suffix(".tgrs"), check=False)
    analyzed = tigris("analyze", path, "-m", "64M", check=False)
    assert compiled.returncode != 0 and analyzed.returncode != 0, (compiled.stderr,
                                                                   analyzed.stdout)
    assert "TIGRIS_ERR_UNSUPPORTED_OP" in compiled.stderr, compiled.stderr
    assert op in compiled.stderr and "int8" in compiled.stderr, compiled.stderr
