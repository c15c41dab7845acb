"""Tile, Expand, DepthToSpace and SpaceToDepth (runtime/kernels/rearrange.c, issue 43),
compiled and run by `tigris` as a user would.

float32: x -> Conv 3x3 -> the rearrangement -> Conv 1x1 -> y, against onnxruntime (1e-4 of the
largest value), at 64M and at 12K (another plan; the output bytes equal, the rearrangements
themselves running on whole tensors). Expand is also fed a lower-rank activation (the compiler lifts it to the output's rank
first, passes/broadcast_rank_lift.cc).

int8: DequantizeLinear -> the rearrangement -> QuantizeLinear on another grid: the copy keeps
the input's quantization and a table requantizes after it (passes/requantize_split.cc);
onnxruntime's bytes (optimizations off) for every int8 input value.
"""
import re

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from conftest import WORK_DIR, tigris
from qdq_helpers import he_normal, onnxruntime_reference, save_model

C, H, W = 8, 6, 6


def _ints(name, values):
    return numpy_helper.from_array(np.array(values, np.int64), name)


# case -> (nodes from h [1, C, H, W] to m, extra initializers, m's shape)
CASES = {
    "tile": ([helper.make_node("Tile", ["h", "reps"], ["m"])], [_ints("reps", [1, 1, 2, 3])],
             [1, C, 2 * H, 3 * W]),
    "expand_pooled": ([helper.make_node("GlobalAveragePool", ["h"], ["g"]),
                       helper.make_node("Expand", ["g", "shape"], ["m"])],
                      [_ints("shape", [1, C, H, W])], [1, C, H, W]),
    # torch's x.expand(-1, -1, H, W): the shape kept by Where(Equal(shape, -1), ones, shape),
    # folded at compile time (constant_expression_fold.cc) so Expand sees [1, 1, H, W].
    "expand_torch_export": ([helper.make_node("GlobalAveragePool", ["h"], ["g"]),
                             helper.make_node("ConstantOfShape", ["four"], ["ones"],
                                              value=numpy_helper.from_array(
                                                  np.array([1], np.int64))),
                             helper.make_node("Mul", ["ones", "minus_one"], ["neg"]),
                             helper.make_node("Equal", ["shape", "neg"], ["keep"]),
                             helper.make_node("Where", ["keep", "ones", "shape"], ["target"]),
                             helper.make_node("Expand", ["g", "target"], ["m"])],
                            [_ints("four", [4]), _ints("minus_one", [-1]),
                             _ints("shape", [-1, -1, H, W])], [1, C, H, W]),
    # A rank-1 activation [W] expanded to [1, C, H, W]: the lift to rank 4 first.
    "expand_rank1": ([helper.make_node("ReduceMean", ["h"], ["r"], axes=[0, 1, 2], keepdims=0),
                      helper.make_node("Expand", ["r", "shape"], ["m"])],
                     [_ints("shape", [1, C, H, W])], [1, C, H, W]),
    "depth_to_space_dcr": ([helper.make_node("DepthToSpace", ["h"], ["m"], blocksize=2)], [],
                           [1, C // 4, 2 * H, 2 * W]),
    "depth_to_space_crd": ([helper.make_node("DepthToSpace", ["h"], ["m"], blocksize=2,
                                             mode="CRD")], [], [1, C // 4, 2 * H, 2 * W]),
    "space_to_depth": ([helper.make_node("SpaceToDepth", ["h"], ["m"], blocksize=3)], [],
                       [1, C * 9, H // 3, W // 3]),
}
# SpaceToDepth's CRD order (opset 25) is only in onnxruntime versions newer than some
# machines have; ONNX's conformance case test_spacetodepth_crd_mode_example holds it.


def float_case(case):
    nodes, extra, m_shape = CASES[case]
    rng = np.random.RandomState(23)
    head = [helper.make_node("Conv", ["x", "w1", "b1"], ["h"], pads=[1, 1, 1, 1])]
    tail = [helper.make_node("Conv", ["m", "w2", "b2"], ["y"])]
    out_c = 4
    inits = [he_normal(rng, "w1", [C, 3, 3, 3]),
             numpy_helper.from_array(rng.standard_normal(C).astype(np.float32), "b1"),
             he_normal(rng, "w2", [out_c, m_shape[1], 1, 1]),
             numpy_helper.from_array(np.zeros(out_c, np.float32), "b2")] + extra
    y_shape = [1, out_c] + m_shape[2:]
    path = save_model(head + nodes + tail, f"rearrange_{case}",
                      [("x", TensorProto.FLOAT, [1, 3, H, W])], [("y", TensorProto.FLOAT, y_shape)],
                      inits)
    return path


@pytest.mark.parametrize("case", sorted(CASES))
def test_float32_matches_onnxruntime(case):
    path = float_case(case)
    x = np.random.RandomState(8).standard_normal([1, 3, H, W]).astype(np.float32)
    x_path = WORK_DIR / f"rearrange_{case}.x.npy"
    np.save(x_path, x)
    (ref,) = onnxruntime_reference(path, {"x": x})
    outputs = {}
    for budget in ["64M", "12K"]:
        plan = WORK_DIR / f"rearrange_{case}.{budget}.tgrs"
        y_path = WORK_DIR / f"rearrange_{case}.{budget}.y.npy"
        tigris("compile", path, "-m", budget, "--xip", "-o", plan)
        tigris("run", plan, "--input", x_path, "--output", y_path)
        outputs[budget] = np.load(y_path)
    np.testing.assert_allclose(outputs["64M"], ref, rtol=0, atol=1e-4 * np.abs(ref).max(),
                               err_msg=case)
    assert outputs["12K"].tobytes() == outputs["64M"].tobytes(), f"{case}: 12K != 64M"
    if case == "expand_torch_export":  # the shape arithmetic left nothing to run
        info = tigris("inspect", WORK_DIR / f"rearrange_{case}.64M.tgrs").stdout
        assert not re.search(r"\b(EQUAL|WHERE|MUL)\b", info), info


INT8_CASES = {
    "tile": (lambda: [helper.make_node("Tile", ["xf", "reps"], ["yf"])],
             [_ints("reps", [1, 2, 1, 2])], [1, 1, 16, 16], [1, 2, 16, 32]),
    "depth_to_space": (lambda: [helper.make_node("DepthToSpace", ["xf"], ["yf"], blocksize=2,
                                                 mode="CRD")], [], [1, 4, 8, 8], [1, 1, 16, 16]),
    "space_to_depth": (lambda: [helper.make_node("SpaceToDepth", ["xf"], ["yf"], blocksize=2)],
                       [], [1, 1, 16, 16], [1, 4, 8, 8]),
}


@pytest.mark.parametrize("case", sorted(INT8_CASES))
def test_int8_requantizing_copy_gives_onnxruntime_bytes(case):
    make, extra, x_shape, y_shape = INT8_CASES[case]
    nodes = ([helper.make_node("DequantizeLinear", ["xq", "xs", "xz"], ["xf"])] + make() +
             [helper.make_node("QuantizeLinear", ["yf", "ys", "yz"], ["y"])])
    inits = [numpy_helper.from_array(np.array(0.05, np.float32), "xs"),
             numpy_helper.from_array(np.array(3, np.int8), "xz"),
             numpy_helper.from_array(np.array(0.0371, np.float32), "ys"),
             numpy_helper.from_array(np.array(-20, np.int8), "yz")] + extra
    path = save_model(nodes, f"rearrange_int8_{case}", [("xq", TensorProto.INT8, x_shape)],
                      [("y", TensorProto.INT8, y_shape)], inits)
    xq = np.arange(-128, 128, dtype=np.int8).reshape(x_shape)  # every int8 value once
    x_path, y_path = WORK_DIR / f"rearrange_int8_{case}.x.npy", WORK_DIR / f"rearrange_int8_{case}.y.npy"
    np.save(x_path, xq)
    plan = WORK_DIR / f"rearrange_int8_{case}.tgrs"
    tigris("compile", path, "-m", "64M", "-o", plan)
    tigris("run", plan, "--input", x_path, "--output", y_path)
    (ref,) = onnxruntime_reference(path, {"xq": xq})
    assert np.array_equal(np.load(y_path), ref)
