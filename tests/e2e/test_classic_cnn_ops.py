"""Operators of the classic ImageNet CNNs that the ONNX backend's light models use
(AlexNet, ZFNet, GoogLeNet: grouped Conv and LRN; ShuffleNet: the channel shuffle written
as Reshape -> rank-5 Transpose -> Reshape), compiled and run by `tigris` and compared with
onnxruntime (graph optimizations off), float32 and int8 QDQ: as onnxruntime's
quantize_static writes it (LRN and the shuffle stay float) and with every activation
quantized (so they run int8).

One small graph holds all three, so each budget exercises them together:

  x[1, 32, 12, 10] -> Conv(group 2) -> Relu -> LRN(size 5) -> Reshape[1, 4, 4, 12, 10]
    -> Transpose(0, 2, 1, 3, 4) -> Reshape[1, 16, 12, 10] -> Conv(1x1, group 4) -> y

At a roomy budget and at smaller ones that force row tiles on the first Conv, then on the
whole graph, then 2-D tiles (Conv and LRN are row-local; the shuffle moves channels within
each pixel, so it tiles by rows and columns too), the outputs must match onnxruntime
(float: 1e-4 of the largest magnitude; int8: within 1 LSB on >= 99% of the elements) and
be the same bytes."""
import json

import numpy as np
import onnx
import pytest
from onnx import helper, numpy_helper
from onnxruntime.quantization import QuantFormat, QuantType, quantize_static

from conftest import WORK_DIR, tigris
from qdq_helpers import (RandomInputs, assert_matches_reference, float_model, he_normal,
                         onnxruntime_reference, quantize_every_activation, tile_loops)

SHAPE = [1, 32, 12, 10]
BUDGETS = ["1M", "16K", "8K", "4K"]
# Weights copied into SRAM per stage at the first two; below 16K the first Conv's filter
# alone is over budget, so those read weights in place.
XIP_BUDGETS = {"8K", "4K"}


def classic_model():
    rng = np.random.RandomState(7)

    def weight(name, shape):
        return he_normal(rng, name, shape)

    inits = [
        weight("w1", [16, 16, 3, 3]),
        numpy_helper.from_array(rng.uniform(-0.1, 0.1, 16).astype(np.float32), "b1"),
        numpy_helper.from_array(np.array([1, 4, 4, 12, 10], np.int64), "view"),
        numpy_helper.from_array(np.array([1, 16, 12, 10], np.int64), "back"),
        weight("w2", [8, 4, 1, 1]),
    ]
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], group=2, pads=[1, 1, 1, 1],
                         kernel_shape=[3, 3]),
        helper.make_node("Relu", ["c1"], ["r1"]),
        # alpha far above AlexNet's 1e-4, so the normalization changes values visibly.
        helper.make_node("LRN", ["r1"], ["n1"], size=5, alpha=0.05, beta=0.75, bias=1.0),
        helper.make_node("Reshape", ["n1", "view"], ["v"]),
        helper.make_node("Transpose", ["v"], ["t"], perm=[0, 2, 1, 3, 4]),
        helper.make_node("Reshape", ["t", "back"], ["s"]),
        helper.make_node("Conv", ["s", "w2"], ["y"], group=4, kernel_shape=[1, 1]),
    ]
    return float_model(nodes, "classic_cnn_ops", SHAPE, [1, 8, 12, 10], inits)


@pytest.fixture(scope="module")
def models():
    WORK_DIR.mkdir(parents=True, exist_ok=True)
    float_path = WORK_DIR / "classic_cnn_ops.onnx"
    int8_path = WORK_DIR / "classic_cnn_ops.int8.onnx"
    all_int8_path = WORK_DIR / "classic_cnn_ops.all_int8.onnx"
    onnx.save(classic_model(), float_path)
    quantize_static(str(float_path), str(int8_path), RandomInputs(SHAPE, 1234),
                    quant_format=QuantFormat.QDQ, per_channel=True,
                    activation_type=QuantType.QInt8, weight_type=QuantType.QInt8)
    quantize_every_activation(int8_path, all_int8_path, RandomInputs(SHAPE, 1234))
    return {"float": float_path, "int8": int8_path, "all_int8": all_int8_path}


@pytest.mark.parametrize("variant", ["float", "int8", "all_int8"])
def test_grouped_conv_lrn_and_channel_shuffle_match_onnxruntime(models, variant):
    path = models[variant]
    x = np.random.RandomState(5).standard_normal(SHAPE).astype(np.float32)
    x_path = WORK_DIR / f"classic_cnn_ops.{variant}.x.npy"
    np.save(x_path, x)
    ref = onnxruntime_reference(path, {"x": x})[0]
    outputs = []
    for budget in BUDGETS:
        plan = WORK_DIR / f"classic_cnn_ops.{variant}.{budget}.tgrs"
        y_path = WORK_DIR / f"classic_cnn_ops.{variant}.{budget}.y.npy"
        xip = ["--xip"] if budget in XIP_BUDGETS else []
        tigris("compile", path, "-m", budget, *xip, "-o", plan)
        tigris("run", plan, "--input", x_path, "--output", y_path, "--dequantize")
        y = np.load(y_path)
        # int8: both sides are dequantized int8, so differences are whole LSBs.
        assert_matches_reference(y, ref, path, variant, f"budget {budget}")

        outputs.append(y.tobytes())
    for budget, output in zip(BUDGETS[1:], outputs[1:]):
        assert output == outputs[0], f"the plan at {budget} differs from the untiled one"


def test_the_shuffle_runs_in_row_tiles_and_in_2d_tiles(models):
    """The shuffle (a RESHAPE through a per-pixel view) sits in a tile loop at 8K, and in
    one that also cuts columns at 4K."""
    for budget, columns in (("8K", False), ("4K", True)):
        plan = WORK_DIR / f"classic_cnn_ops.shuffle.{budget}.tgrs"
        tigris("compile", models["float"], "-m", budget, "--xip", "-o", plan)
        info = json.loads(tigris("inspect", "--json", plan).stdout)
        shuffle = {i for i, op in enumerate(info["ops"]) if op["code"] == "RESHAPE"}
        loops = tile_loops(info)
        assert shuffle and any(shuffle & set(t["ops"]) and ("columns" in t) == columns
                               for t in loops), (budget, loops)


def test_the_small_budget_tiles(models):
    """16K is below the first Conv's untiled need, so the comparison above covers row tiles."""
    plan = WORK_DIR / "classic_cnn_ops.tiles.tgrs"
    result = tigris("compile", models["float"], "-m", BUDGETS[1], "-o", plan)
    report = tigris("inspect", plan).stdout
    assert " tiled " in report or " chain " in report, result.stdout + report
