"""Memory-aware op order (issue 13, item 2; docs/planning.md, step 0b), end to end.

Two branches from one input, joined by a Concat:

  x[1, 4, 8, 8] -> Relu -> Conv 1x1 (to 32) -> Relu ----------------\\
               \\-> Conv 1x1 (to 64) -> Conv 1x1 (to 1) --------------> Concat -> y

Branch A is big in the middle (16 KiB) and ends small (256 B); branch B ends big (8 KiB).
Running B first leaves its 8 KiB output beside A's 16 KiB: the peak is x 1,024 + 8,192 +
16,384 = 25,600 bytes. Running A first peaks at its second Conv: 1,024 + 16,384 + 256 =
17,664 bytes (hand-computed, docs/memory-model.md: an op's inputs and outputs are
co-resident). The ONNX file is written with its nodes in both orders; whatever order the
loader makes of each, the plan must run A first, peak at 17,664 bytes, and match
onnxruntime, and the runtime's fast high-water mark must equal the plan's arena."""
import json

import numpy as np
import onnx
import pytest
from onnx import helper, numpy_helper

from conftest import WORK_DIR, tigris
from qdq_helpers import float_model, onnxruntime_reference

SHAPE = [1, 4, 8, 8]
BEST_PEAK, POOR_PEAK = 17_664, 25_600


def two_branches(a_first):
    rng = np.random.RandomState(3)

    def weight(name, shape):
        return numpy_helper.from_array(rng.standard_normal(shape).astype(np.float32), name)

    inits = [weight("w_b", [32, 4, 1, 1]), weight("w_a1", [64, 4, 1, 1]),
             weight("w_a2", [1, 64, 1, 1])]
    node = helper.make_node
    branch_b = [node("Relu", ["x"], ["b1"], name="b1"),
                node("Conv", ["b1", "w_b"], ["b2"], name="b2"),
                node("Relu", ["b2"], ["b3"], name="b3")]
    branch_a = [node("Conv", ["x", "w_a1"], ["a1"], name="a1"),
                node("Conv", ["a1", "w_a2"], ["a2"], name="a2")]
    nodes = (branch_a + branch_b) if a_first else (branch_b + branch_a)
    nodes.append(node("Concat", ["a2", "b3"], ["y"], axis=1, name="cat"))
    return float_model(nodes, "two_branches", SHAPE, [1, 33, 8, 8], inits)


@pytest.mark.parametrize("a_first", [True, False], ids=["a-first-in-file", "b-first-in-file"])
def test_the_plan_runs_the_branch_that_ends_small_first(a_first):
    path = WORK_DIR / f"two_branches.{'a' if a_first else 'b'}.onnx"
    onnx.save(two_branches(a_first), path)
    report = json.loads(tigris("analyze", path, "-m", "1M", "--json").stdout)
    schedule = report["schedule"]
    assert schedule["search"] == "exact"
    assert schedule["peak_bytes"] == BEST_PEAK
    assert schedule["load_order_peak_bytes"] in (BEST_PEAK, POOR_PEAK)
    assert schedule["reordered"] == (schedule["load_order_peak_bytes"] == POOR_PEAK)
    order = [step["op"] for step in report["timeline"]]
    assert order.index("a2") < order.index("b2"), order
    assert report["scheduled_peak_bytes"] == BEST_PEAK

    plan = WORK_DIR / f"two_branches.{'a' if a_first else 'b'}.tgrs"
    tigris("compile", path, "-m", "1M", "--xip", "-o", plan)
    x = np.random.RandomState(7).standard_normal(SHAPE).astype(np.float32)
    x_path, y_path = WORK_DIR / "two_branches.x.npy", WORK_DIR / "two_branches.y.npy"
    np.save(x_path, x)
    run = tigris("run", plan, "--input", x_path, "--output", y_path)
    assert f"fast high-water {BEST_PEAK} of {BEST_PEAK} bytes" in " ".join(run.stdout.split())
    ref = onnxruntime_reference(path, {"x": x})[0]
    y = np.load(y_path)
    np.testing.assert_allclose(y, ref, rtol=0, atol=1e-4 * np.abs(ref).max())


def test_both_file_orders_load_to_different_orders():
    """The test above covers the reorder only if one of the two files loads in the poor
    order: check that it does (the loader's DFS keeps the file's branch order)."""
    loads = []
    for a_first in (True, False):
        path = WORK_DIR / f"two_branches.{'a' if a_first else 'b'}.onnx"
        onnx.save(two_branches(a_first), path)
        loads.append(json.loads(tigris("analyze", path, "-m", "1M", "--json").stdout)
                     ["schedule"]["load_order_peak_bytes"])
    assert POOR_PEAK in loads, loads
