"""A channel Concat inside 2-D tiles (DenseNet's and Inception's joins): each column tile
concatenates its inputs' column views, so a stage with a Concat no longer needs whole
rows. Compiled and run by `tigris` at a roomy budget and at budgets whose tile loops cut
columns, float32 and quantize_static int8 (its Concat requantizes when the branches'
scales differ), compared with onnxruntime (graph optimizations off) and across budgets.

  x[1, 4, 8, 96] -> Conv 3x3 -> Relu -> a[8 ch]
  x              -> Conv 1x1         -> b[8 ch]
  Concat(a, b) [16 ch] -> Conv 3x3 -> y[1, 8, 8, 96]"""
import json

import numpy as np
import onnx
import pytest
from onnx import helper
from onnxruntime.quantization import QuantFormat, QuantType, quantize_static

from conftest import WORK_DIR, tigris
from qdq_helpers import (RandomInputs, assert_matches_reference, float_model, he_normal,
                         onnxruntime_reference, tile_loops)

SHAPE = [1, 4, 8, 96]
# A roomy budget (one stage), then budgets where one row of the join is over budget.
BUDGETS = {"float": ["1M", "8K", "2K"], "int8": ["1M", "2K", "1K"]}


def joined_branches():
    rng = np.random.RandomState(5)
    nodes = [helper.make_node("Conv", ["x", "wa"], ["a"], pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["a"], ["ra"]),
             helper.make_node("Conv", ["x", "wb"], ["b"]),
             helper.make_node("Concat", ["ra", "b"], ["cat"], axis=1),
             helper.make_node("Conv", ["cat", "wc"], ["y"], pads=[1, 1, 1, 1])]
    return float_model(nodes, "concat_columns", SHAPE, [1, 8, 8, 96],
                       [he_normal(rng, "wa", [8, 4, 3, 3]), he_normal(rng, "wb", [8, 4, 1, 1]),
                        he_normal(rng, "wc", [8, 16, 3, 3])])


@pytest.fixture(scope="module")
def models():
    WORK_DIR.mkdir(parents=True, exist_ok=True)
    paths = {v: WORK_DIR / f"concat_columns.{v}.onnx" for v in ("float", "int8")}
    onnx.save(joined_branches(), paths["float"])
    quantize_static(str(paths["float"]), str(paths["int8"]), RandomInputs(SHAPE, 77),
                    quant_format=QuantFormat.QDQ, per_channel=True,
                    activation_type=QuantType.QInt8, weight_type=QuantType.QInt8)
    return paths


def concat_runs_on_columns(plan):
    """Whether the plan's Concat sits in a tile loop that cuts columns."""
    info = json.loads(tigris("inspect", "--json", plan).stdout)
    concat = {i for i, op in enumerate(info["ops"]) if op["code"] == "CONCAT"}
    return any("columns" in t and concat & set(t["ops"]) for t in tile_loops(info))


@pytest.mark.parametrize("variant", ["float", "int8"])
def test_a_channel_concat_in_column_tiles_matches_onnxruntime(models, variant):
    path = models[variant]
    x = np.random.RandomState(9).standard_normal(SHAPE).astype(np.float32)
    x_path = WORK_DIR / f"concat_columns.{variant}.x.npy"
    np.save(x_path, x)
    ref = onnxruntime_reference(path, {"x": x})[0]
    outputs, on_columns = [], []
    for budget in BUDGETS[variant]:
        plan = WORK_DIR / f"concat_columns.{variant}.{budget}.tgrs"
        y_path = WORK_DIR / f"concat_columns.{variant}.{budget}.y.npy"
        tigris("compile", path, "-m", budget, "--xip", "-o", plan)
        on_columns.append(concat_runs_on_columns(plan))
        tigris("run", plan, "--input", x_path, "--output", y_path, "--dequantize")
        y = np.load(y_path)
        assert_matches_reference(y, ref, path, variant, f"budget {budget}")
        outputs.append(y.tobytes())
    assert on_columns == [False, True, True], on_columns
    assert outputs[1] == outputs[0] and outputs[2] == outputs[0], \
        "a tiled plan's output differs from the untiled one's"


def test_the_planner_states_why_a_join_along_w_keeps_whole_rows():
    # Concat along W (axis 3): a column of the output is not a column of each input.
    nodes = [helper.make_node("Relu", ["x"], ["r"]),
             helper.make_node("Concat", ["r", "x"], ["y"], axis=3)]
    path = WORK_DIR / "concat_w.onnx"
    WORK_DIR.mkdir(parents=True, exist_ok=True)
    onnx.save(float_model(nodes, "concat_w", SHAPE, [1, 4, 8, 192], []), path)
    report = tigris("analyze", path, "-m", "2K").stdout
    assert "Concat joins along W" in report, report
