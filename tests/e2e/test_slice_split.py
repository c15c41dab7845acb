"""Run-time Slice and Split, as ShuffleNetV2 uses them (torch `chunk` is a Split of the
channels in two) and as models crop along W and H, compiled and run by `tigris` and
compared with onnxruntime (graph optimizations off), float32, quantize_static int8 (Split
and Slice may stay float there) and with every activation quantized (they run int8).

  x[1, 16, 10, 12] -> Conv 1x1 -> Relu -> Split(C: 8, 8) -> a, b
  b -> Conv 1x1 (to 32) -> Relu -> depthwise 3x3 -> Conv 1x1 (to 8) -> Relu -> b2
  Concat(a, b2) -> channel shuffle (groups 2) -> Slice(W: 1..11 step 2)
    -> Slice(C reversed: step -1) -> Slice(H: 2..9 step 3) -> y[1, 16, 3, 5]

The Split and the channel and W slices keep every row, so they tile with their neighbours;
the H slice needs the whole tensor. At a roomy budget and at one that tiles, outputs match
onnxruntime (float: 1e-4 of the largest magnitude; int8: within 1 LSB on >= 99%) and are
the same bytes."""
import json

import numpy as np
import onnx
import pytest
from onnx import helper, numpy_helper
from onnxruntime.quantization import QuantFormat, QuantType, quantize_static

from conftest import WORK_DIR, tigris
from qdq_helpers import (RandomInputs, assert_matches_reference, float_model, he_normal,
                         onnxruntime_reference, quantize_every_activation)

SHAPE = [1, 16, 10, 12]
OUT_SHAPE = [1, 16, 3, 5]
# A roomy budget, and one that spills and chains the expanded branch (int8 needs 1/4).
BUDGETS = {"float": ["1M", "16K"], "int8": ["1M", "16K"], "all_int8": ["1M", "4K"]}
CROP_SHAPE = [1, 8, 32, 24]


def shufflenet_v2_unit():
    rng = np.random.RandomState(11)

    def weight(name, shape):
        return he_normal(rng, name, shape)

    def ints(name, values):
        return numpy_helper.from_array(np.array(values, np.int64), name)

    inits = [
        weight("w0", [16, 16, 1, 1]), weight("w1", [32, 8, 1, 1]), weight("wd", [32, 1, 3, 3]),
        weight("w2", [8, 32, 1, 1]), ints("halves", [8, 8]),
        ints("view", [1, 2, 8, 10, 12]), ints("back", SHAPE),
        ints("w_starts", [1]), ints("w_ends", [11]), ints("w_axes", [3]), ints("w_steps", [2]),
        ints("c_starts", [-1]), ints("c_ends", [-100]), ints("c_axes", [1]),
        ints("c_steps", [-1]),
        ints("h_starts", [2]), ints("h_ends", [9]), ints("h_axes", [-2]), ints("h_steps", [3]),
    ]
    nodes = [
        helper.make_node("Conv", ["x", "w0"], ["c0"]),
        helper.make_node("Relu", ["c0"], ["r0"]),
        helper.make_node("Split", ["r0", "halves"], ["a", "b"], axis=1),
        helper.make_node("Conv", ["b", "w1"], ["b1"]),
        helper.make_node("Relu", ["b1"], ["rb1"]),
        helper.make_node("Conv", ["rb1", "wd"], ["bd"], group=32, pads=[1, 1, 1, 1]),
        helper.make_node("Conv", ["bd", "w2"], ["b2"]),
        helper.make_node("Relu", ["b2"], ["rb2"]),
        helper.make_node("Concat", ["a", "rb2"], ["cat"], axis=1),
        helper.make_node("Reshape", ["cat", "view"], ["v"]),
        helper.make_node("Transpose", ["v"], ["t"], perm=[0, 2, 1, 3, 4]),
        helper.make_node("Reshape", ["t", "back"], ["shuffled"]),
        helper.make_node("Slice", ["shuffled", "w_starts", "w_ends", "w_axes", "w_steps"], ["sw"]),
        helper.make_node("Slice", ["sw", "c_starts", "c_ends", "c_axes", "c_steps"], ["sc"]),
        helper.make_node("Slice", ["sc", "h_starts", "h_ends", "h_axes", "h_steps"], ["y"]),
    ]
    return float_model(nodes, "slice_split", SHAPE, OUT_SHAPE, inits)


@pytest.fixture(scope="module")
def models():
    WORK_DIR.mkdir(parents=True, exist_ok=True)
    paths = {v: WORK_DIR / f"slice_split.{v}.onnx" for v in ("float", "int8", "all_int8")}
    onnx.save(shufflenet_v2_unit(), paths["float"])
    quantize_static(str(paths["float"]), str(paths["int8"]), RandomInputs(SHAPE, 4321),
                    quant_format=QuantFormat.QDQ, per_channel=True,
                    activation_type=QuantType.QInt8, weight_type=QuantType.QInt8)
    quantize_every_activation(paths["int8"], paths["all_int8"], RandomInputs(SHAPE, 4321))
    return paths


@pytest.mark.parametrize("variant", ["float", "int8", "all_int8"])
def test_split_and_slices_match_onnxruntime(models, variant):
    path = models[variant]
    x = np.random.RandomState(6).standard_normal(SHAPE).astype(np.float32)
    x_path = WORK_DIR / f"slice_split.{variant}.x.npy"
    np.save(x_path, x)
    ref = onnxruntime_reference(path, {"x": x})[0]
    assert list(ref.shape) == OUT_SHAPE
    outputs = []
    for budget in BUDGETS[variant]:
        plan = WORK_DIR / f"slice_split.{variant}.{budget}.tgrs"
        y_path = WORK_DIR / f"slice_split.{variant}.{budget}.y.npy"
        tigris("compile", path, "-m", budget, "--xip", "-o", plan)
        tigris("run", plan, "--input", x_path, "--output", y_path, "--dequantize")
        y = np.load(y_path)
        assert_matches_reference(y, ref, path, variant, f"budget {budget}")
        outputs.append(y.tobytes())
    assert outputs[0] == outputs[1], "the tiled plan's output differs from the untiled one's"


def crop_model():
    """x[1, 8, 32, 24] -> Slice(C: 2..8, W: 1..23 step 2) -> Conv 3x3 -> y[1, 4, 32, 11]: a
    crop of the input, which a small budget can only run in row strips."""
    rng = np.random.RandomState(3)
    inits = [numpy_helper.from_array(np.array(v, np.int64), n) for n, v in
             (("starts", [2, 1]), ("ends", [8, 23]), ("axes", [1, 3]), ("steps", [1, 2]))]
    inits.append(numpy_helper.from_array(
        (rng.standard_normal([4, 6, 3, 3]) * 0.2).astype(np.float32), "w"))
    nodes = [helper.make_node("Slice", ["x", "starts", "ends", "axes", "steps"], ["crop"]),
             helper.make_node("Conv", ["crop", "w"], ["y"], pads=[1, 1, 1, 1])]
    return float_model(nodes, "crop", CROP_SHAPE, [1, 4, 32, 11], inits)


def test_a_crop_runs_in_row_strips():
    path = WORK_DIR / "slice_crop.onnx"
    onnx.save(crop_model(), path)
    x = np.random.RandomState(8).standard_normal(CROP_SHAPE).astype(np.float32)
    x_path = WORK_DIR / "slice_crop.x.npy"
    np.save(x_path, x)
    ref = onnxruntime_reference(path, {"x": x})[0]
    outputs = []
    for budget in ("1M", "8K"):  # the input alone is 24 KiB
        plan = WORK_DIR / f"slice_crop.{budget}.tgrs"
        y_path = WORK_DIR / f"slice_crop.{budget}.y.npy"
        tigris("compile", path, "-m", budget, "--xip", "-o", plan)
        info = json.loads(tigris("inspect", "--json", plan).stdout)
        tiled = [s["strategy"] for s in info["stages"] if s["strategy"] != "normal"]
        assert bool(tiled) == (budget == "8K"), (budget, tiled)
        tigris("run", plan, "--input", x_path, "--output", y_path)
        y = np.load(y_path)
        np.testing.assert_allclose(y, ref, rtol=0, atol=1e-4 * np.abs(ref).max(),
                                   err_msg=f"budget {budget}")
        outputs.append(y.tobytes())
    assert outputs[0] == outputs[1], "the tiled plan's output differs from the untiled one's"
