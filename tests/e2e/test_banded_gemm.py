"""A fully connected layer over a feature map, as AlexNet, ZFNet and VGG end: the Flatten
folds into the Gemm (normalization's gemm-flatten-fold orders B's columns H, W, C), and
when the map and the Gemm's output do not fit the fast budget together the planner makes
the Gemm a reduction over the map's rows (gemm-as-banded-reduction), fed band by band in a
tile loop. Compiled and run by `tigris` and compared with onnxruntime (graph optimizations
off), float32 and quantize_static int8, and across budgets (the float sums keep the
whole-tensor order, so the bytes are the same).

  x[1, 8, 6, 6] -> Conv 3x3 (16) -> Relu -> Flatten -> Gemm(576 -> 64) -> Relu
    -> Gemm(64 -> 10) -> y[1, 10]"""
import json

import numpy as np
import onnx
import pytest
from onnx import helper, numpy_helper
from onnxruntime.quantization import QuantFormat, QuantType, quantize_static

from conftest import WORK_DIR, tigris
from qdq_helpers import (RandomInputs, assert_matches_reference, float_model, he_normal,
                         onnxruntime_reference)

SHAPE = [1, 8, 6, 6]
# Roomy, then budgets under the map (2304 B float, 576 B int8) plus the Gemm's output.
BUDGETS = {"float": ["1M", "2K", "1K"], "int8": ["1M", "512", "384"]}


def map_head():
    rng = np.random.RandomState(17)
    inits = [he_normal(rng, "wc", [16, 8, 3, 3]), he_normal(rng, "w6", [64, 576]),
             he_normal(rng, "w7", [10, 64]),
             numpy_helper.from_array((rng.standard_normal(64) * 0.1).astype(np.float32), "b6"),
             numpy_helper.from_array((rng.standard_normal(10) * 0.1).astype(np.float32), "b7")]
    nodes = [helper.make_node("Conv", ["x", "wc"], ["c"], pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c"], ["r"]),
             helper.make_node("Flatten", ["r"], ["f"]),
             helper.make_node("Gemm", ["f", "w6", "b6"], ["h"], transB=1),
             helper.make_node("Relu", ["h"], ["rh"]),
             helper.make_node("Gemm", ["rh", "w7", "b7"], ["y"], transB=1)]
    return float_model(nodes, "map_head", SHAPE, [1, 10], inits)


@pytest.fixture(scope="module")
def models():
    WORK_DIR.mkdir(parents=True, exist_ok=True)
    paths = {v: WORK_DIR / f"banded_gemm.{v}.onnx" for v in ("float", "int8")}
    onnx.save(map_head(), paths["float"])
    quantize_static(str(paths["float"]), str(paths["int8"]), RandomInputs(SHAPE, 31),
                    quant_format=QuantFormat.QDQ, per_channel=True,
                    activation_type=QuantType.QInt8, weight_type=QuantType.QInt8)
    return paths


def rewrites(path, budget):
    report = json.loads(tigris("analyze", path, "-m", budget, "--json").stdout)
    return [r["kind"] for r in report.get("rewrites", [])]


@pytest.mark.parametrize("variant", ["float", "int8"])
def test_a_gemm_over_a_map_runs_band_by_band(models, variant):
    path = models[variant]
    x = np.random.RandomState(3).standard_normal(SHAPE).astype(np.float32)
    x_path = WORK_DIR / f"banded_gemm.{variant}.x.npy"
    np.save(x_path, x)
    ref = onnxruntime_reference(path, {"x": x})[0]
    outputs = []
    for budget in BUDGETS[variant]:
        banded = "gemm-as-banded-reduction" in rewrites(path, budget)
        assert banded == (budget != "1M"), (budget, rewrites(path, budget))
        plan = WORK_DIR / f"banded_gemm.{variant}.{budget}.tgrs"
        y_path = WORK_DIR / f"banded_gemm.{variant}.{budget}.y.npy"
        tigris("compile", path, "-m", budget, "--xip", "-o", plan)
        tigris("run", plan, "--input", x_path, "--output", y_path, "--dequantize")
        y = np.load(y_path)
        assert_matches_reference(y, ref, path, variant, f"budget {budget}", max_lsb=1)
        outputs.append(y.tobytes())
    for budget, output in zip(BUDGETS[variant][1:], outputs[1:]):
        assert output == outputs[0], f"the plan at {budget} differs from the untiled one"


def test_the_ops_header_selects_the_band_kernels_only_for_a_banded_plan(models):
    """`tigris inspect --ops-header` defines TGRS_WITH_GEMM_BANDS for a plan whose Gemm runs
    in a tile loop, and not for the same model planned whole (docs/runtime.md)."""
    for budget, banded in (("1M", False), ("1K", True)):
        plan = WORK_DIR / f"banded_gemm.ops.{budget}.tgrs"
        header = WORK_DIR / f"banded_gemm.ops.{budget}.h"
        tigris("compile", models["float"], "-m", budget, "--xip", "-o", plan)
        tigris("inspect", plan, "--ops-header", header)
        text = header.read_text()
        assert "#define TGRS_WITH_OP_GEMM 1" in text, text
        assert ("#define TGRS_WITH_GEMM_BANDS 1" in text) == banded, text
