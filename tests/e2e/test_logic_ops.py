"""Comparisons, logic, Where and Cast (runtime/kernels/logical.c, issue 43) and the BOOL dtype
they carry, compiled and run by `tigris` as a user would.

float32: x -> Conv 3x3 -> three maps a, b, c -> a mask made of comparisons and logic ops ->
Where or a Cast -> Conv 1x1 -> y, against onnxruntime (1e-4 of the largest value), and tiled
against untiled: at a budget that cuts the ops into row tiles (every bool mask a strip
beside the float ones), the output bytes are the whole-tensor plan's. Two cases broadcast a
one-row activation under a tile loop (a ReduceMax over H), the form the runtime's tile loop
must hand every tile whole (stage_tiled.c, broadcast_row).

Bool and int64 at the plan's edges: a bool input and output, int64 ids compared, as NumPy
arrays through `tigris run`, against onnxruntime exactly.

int8: a Where between DequantizeLinear and QuantizeLinear runs on the int8 codes (qdq_fold.cc;
X and Y moved to the output's grid by tables the compiler computes in float32 as ONNX's
DequantizeLinear -> QuantizeLinear pair does), fed every pair of int8 values once, and
equals onnxruntime's bytes (optimizations off); with a Y computed in float the Where stays a
float island between Dequantize and Quantize, also onnxruntime's bytes.
"""
import re

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from conftest import WORK_DIR, tigris
from qdq_helpers import he_normal, onnxruntime_reference, save_model

C, H, W = 4, 24, 24


def _node(op, inputs, output, **attrs):
    return helper.make_node(op, inputs, [output], **attrs)


def _const(name, value, dtype=np.float32):
    return numpy_helper.from_array(np.array(value, dtype), name)


# case -> (nodes reading a, b, c and writing m, extra initializers, the plan op to find)
CASES = {
    # LeakyRelu written as a user would in PyTorch: torch.where(a > 0, a, 0.1 * a).
    "where_greater": ([_node("Greater", ["a", "zero"], "pos"), _node("Mul", ["a", "tenth"], "a10"),
                       _node("Where", ["pos", "a", "a10"], "m")],
                      [_const("zero", 0.0), _const("tenth", 0.1)], "WHERE"),
    "and_not": ([_node("Greater", ["a", "b"], "p"), _node("Less", ["c", "zero"], "q"),
                 _node("Not", ["q"], "nq"), _node("And", ["p", "nq"], "r"),
                 _node("Where", ["r", "a", "c"], "m")], [_const("zero", 0.0)], "AND"),
    "or_xor_ge_le": ([_node("GreaterOrEqual", ["a", "b"], "p"), _node("LessOrEqual", ["b", "c"], "q"),
                      _node("Xor", ["p", "q"], "r"), _node("Less", ["a", "zero"], "s"),
                      _node("Or", ["r", "s"], "t"), _node("Where", ["t", "b", "c"], "m")],
                     [_const("zero", 0.0)], "XOR"),
    # Cast float -> int32 (truncation) and an Equal of integers, then the mask as a float.
    "cast_equal": ([_node("Mul", ["a", "four"], "a4"), _node("Mul", ["b", "four"], "b4"),
                    _node("Cast", ["a4"], "ai", to=TensorProto.INT32),
                    _node("Cast", ["b4"], "bi", to=TensorProto.INT32),
                    _node("Equal", ["ai", "bi"], "e"), _node("Cast", ["e"], "ef", to=TensorProto.FLOAT),
                    _node("Add", ["ef", "c"], "m")], [_const("four", 4.0)], "EQUAL"),
    # A per-column mask from a ReduceMax over H, broadcast down every row of a tile.
    "where_row_broadcast": ([_node("ReduceMax", ["a"], "top", axes=[2], keepdims=1),
                             _node("Greater", ["top", "one"], "hot"),
                             _node("Where", ["hot", "b", "c"], "m")], [_const("one", 1.0)],
                            "WHERE"),
    # The same broadcast into Max (BINARY like Add: the runtime's tile loop must agree).
    "max_row_broadcast": ([_node("ReduceMax", ["a"], "top", axes=[2], keepdims=1),
                           _node("Max", ["b", "top"], "m")], [], "MAX"),
}


def float_case(case):
    nodes, extra, _ = CASES[case]
    rng = np.random.RandomState(17)
    head = [_node("Conv", ["x", "w1", "b1"], "abc", pads=[1, 1, 1, 1]),
            helper.make_node("Split", ["abc", "split"], ["a", "b", "c"], axis=1)]
    tail = [_node("Conv", ["m", "w2", "b2"], "y")]
    inits = [he_normal(rng, "w1", [3 * C, C, 3, 3]),
             numpy_helper.from_array(rng.standard_normal(3 * C).astype(np.float32), "b1"),
             numpy_helper.from_array(np.array([C, C, C], np.int64), "split"),
             he_normal(rng, "w2", [C, C, 1, 1]),
             numpy_helper.from_array(np.zeros(C, np.float32), "b2")] + extra
    path = save_model(head + nodes + tail, f"logic_{case}",
                      [("x", TensorProto.FLOAT, [1, C, H, W])],
                      [("y", TensorProto.FLOAT, [1, C, H, W])], inits)
    return path


@pytest.mark.parametrize("case", sorted(CASES))
def test_float32_matches_onnxruntime_tiled_and_whole(case):
    path = float_case(case)
    x = np.random.RandomState(3).standard_normal([1, C, H, W]).astype(np.float32)
    x_path = WORK_DIR / f"logic_{case}.x.npy"
    np.save(x_path, x)
    (ref,) = onnxruntime_reference(path, {"x": x})
    # The ReduceMax of the row cases needs its 9 KB input whole (reductions are not tiled).
    tiled = "16K" if "row_broadcast" in case else "8K"
    outputs = {}
    for budget in ["64M", tiled]:
        plan = WORK_DIR / f"logic_{case}.{budget}.tgrs"
        y_path = WORK_DIR / f"logic_{case}.{budget}.y.npy"
        tigris("compile", path, "-m", budget, "--xip", "-o", plan)
        tigris("run", plan, "--input", x_path, "--output", y_path)
        outputs[budget] = np.load(y_path)
    np.testing.assert_allclose(outputs["64M"], ref, rtol=0, atol=1e-4 * np.abs(ref).max(),
                               err_msg=case)
    assert outputs[tiled].tobytes() == outputs["64M"].tobytes(), f"{case}: tiled != whole"
    info = tigris("inspect", WORK_DIR / f"logic_{case}.{tiled}.tgrs").stdout
    op = CASES[case][2]
    assert re.search(rf"\b{op}\b", info), f"{case}: no {op} op in the plan:\n{info}"
    assert "tile:" in info, f"{case}: {tiled} did not tile:\n{info}"


def test_bool_and_int64_at_the_edges_equal_onnxruntime():
    """mask (bool) and ids (int64) in; Not(mask) AND ids == 2 out as bool."""
    shape = [1, 3, 5, 7]
    nodes = [_node("Not", ["mask"], "nm"), _node("Equal", ["ids", "two"], "is2"),
             _node("And", ["nm", "is2"], "y")]
    path = save_model(nodes, "logic_edges",
                      [("mask", TensorProto.BOOL, shape), ("ids", TensorProto.INT64, shape)],
                      [("y", TensorProto.BOOL, shape)], [_const("two", [2], np.int64)])
    rng = np.random.RandomState(4)
    feeds = {"mask": rng.rand(*shape) > 0.5, "ids": rng.randint(0, 4, shape).astype(np.int64)}
    paths = {n: WORK_DIR / f"logic_edges.{n}.npy" for n in ("mask", "ids", "y")}
    for name, value in feeds.items():
        np.save(paths[name], value)
    plan = WORK_DIR / "logic_edges.tgrs"
    tigris("compile", path, "-m", "64M", "-o", plan)
    tigris("run", plan, "--input", paths["mask"], "--input", paths["ids"], "--output", paths["y"])
    y = np.load(paths["y"])
    (ref,) = onnxruntime_reference(path, feeds)
    assert y.dtype == np.bool_ and y.shape == tuple(shape)
    assert np.array_equal(y, ref)
    assert 0 < np.count_nonzero(y) < y.size  # both values occur


def _plan_ops(plan):
    info = tigris("inspect", plan).stdout
    return re.findall(r"^\s+\d+\s+([A-Z_]+)\s", info.split("\nops\n")[1].split("\ntensors")[0],
                      re.M)


@pytest.mark.parametrize("grids", ["different", "shared"])
def test_int8_where_gives_onnxruntime_bytes_for_every_pair(grids):
    """y = Q(Where(DQ(xa) > DQ(xb), DQ(xa), DQ(xb))): Max written as a selection."""
    quant = {"different": [(0.05, 3), (0.0371, -20), (0.06, -7)],
             "shared": [(0.05, 3)] * 3}[grids]
    nodes = [_node("DequantizeLinear", ["xa", "as", "az"], "af"),
             _node("DequantizeLinear", ["xb", "bs", "bz"], "bf"),
             _node("Greater", ["af", "bf"], "gt"),
             _node("Where", ["gt", "af", "bf"], "yf"),
             _node("QuantizeLinear", ["yf", "ys", "yz"], "y")]
    inits = []
    for prefix, (scale, zp) in zip("aby", quant):
        inits += [_const(prefix + "s", scale), _const(prefix + "z", zp, np.int8)]
    shape = [1, 1, 256, 256]
    path = save_model(nodes, f"logic_where_int8_{grids}",
                      [("xa", TensorProto.INT8, shape), ("xb", TensorProto.INT8, shape)],
                      [("y", TensorProto.INT8, shape)], inits)
    values = np.arange(-128, 128, dtype=np.int8)
    feeds = {"xa": np.repeat(values, 256).reshape(shape),  # every pair once
             "xb": np.tile(values, 256).reshape(shape)}
    paths = {n: WORK_DIR / f"logic_where_int8_{grids}.{n}.npy" for n in ("xa", "xb", "y")}
    for name, value in feeds.items():
        np.save(paths[name], value)
    (ref,) = onnxruntime_reference(path, feeds)
    outputs = {}
    for budget in ["64M", "32K"]:
        plan = WORK_DIR / f"logic_where_int8_{grids}.{budget}.tgrs"
        tigris("compile", path, "-m", budget, "--xip", "-o", plan)
        assert "WHERE" in _plan_ops(plan)
        tigris("run", plan, "--input", paths["xa"], "--input", paths["xb"],
               "--output", paths["y"])
        outputs[budget] = np.load(paths["y"])
        assert np.array_equal(outputs[budget], ref), f"{grids} at {budget}: not onnxruntime's"
    info = tigris("inspect", WORK_DIR / f"logic_where_int8_{grids}.32K.tgrs").stdout
    assert "tile:" in info, f"32K did not tile:\n{info}"


def test_int8_model_runs_where_as_a_float_island_with_onnxruntime_bytes():
    shape = [1, C, 8, 8]
    nodes = [_node("DequantizeLinear", ["xq", "s", "z"], "xf"),
             _node("Greater", ["xf", "zero"], "pos"), _node("Mul", ["xf", "half"], "xh"),
             _node("Where", ["pos", "xf", "xh"], "yf"),
             _node("QuantizeLinear", ["yf", "s", "z"], "y")]
    inits = [_const("s", 0.05), _const("z", 3, np.int8), _const("zero", 0.0),
             _const("half", 0.5)]
    path = save_model(nodes, "logic_int8", [("xq", TensorProto.INT8, shape)],
                      [("y", TensorProto.INT8, shape)], inits)
    xq = np.arange(-128, 128, dtype=np.int8)[:C * 64].reshape(shape)
    x_path, y_path = WORK_DIR / "logic_int8.x.npy", WORK_DIR / "logic_int8.y.npy"
    np.save(x_path, xq)
    plan = WORK_DIR / "logic_int8.tgrs"
    tigris("compile", path, "-m", "64M", "-o", plan)
    ops = _plan_ops(plan)
    assert "DEQUANTIZE" in ops and "WHERE" in ops and "QUANTIZE" in ops, ops
    tigris("run", plan, "--input", x_path, "--output", y_path)
    (ref,) = onnxruntime_reference(path, {"xq": xq})
    assert np.array_equal(np.load(y_path), ref)
