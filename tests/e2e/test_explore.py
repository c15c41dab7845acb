"""The planner's search (issue 14, docs/planning.md "Search") through the `tigris` command:
`analyze --explore` prints and reports the plans it found, `compile --objective memory`
makes the one with the least fast memory, and that plan runs in the arena it was planned
for with the untiled plan's output bytes, equal to onnxruntime's (graph optimizations
off). The expected figures come from outside the search: the single planning pass of
`analyze` without an objective, the untiled plan, and onnxruntime."""
import json
import re

import numpy as np
import pytest

from conftest import MODELS_DIR, WORK_DIR, tigris
from qdq_helpers import assert_matches_reference, onnxruntime_reference

CASES = [
    ("float", MODELS_DIR / "onnx" / "kws_small_cnn.onnx", "16K"),
    ("int8", MODELS_DIR / "onnx-from-tflite" / "mlperf_kws_dscnn_int8.onnx", "16K"),
]


def analyze(path, budget, *options):
    return json.loads(tigris("analyze", path, "-m", budget, "--json", *options).stdout)


def model_input(path):
    """A deterministic input for the model's one graph input, and its name."""
    import onnx
    graph = onnx.load(str(path)).graph
    initializers = {i.name for i in graph.initializer}
    (spec,) = [i for i in graph.input if i.name not in initializers]
    shape = [d.dim_value or 1 for d in spec.type.tensor_type.shape.dim]
    rng = np.random.RandomState(3)
    if spec.type.tensor_type.elem_type == onnx.TensorProto.INT8:
        return spec.name, rng.randint(-128, 128, size=shape).astype(np.int8)
    return spec.name, rng.standard_normal(shape).astype(np.float32)


def run(plan, x_path, tag):
    """The plan's output on the input at `x_path` (int8 outputs as stored) and the fast
    arena's measured high-water mark."""
    y_path = WORK_DIR / f"explore.{tag}.y.npy"
    out = tigris("run", plan, "--input", x_path, "--output", y_path).stdout
    high_water = re.search(r"fast +high-water (\d+) of (\d+) bytes", out)
    assert high_water, out
    return np.load(y_path), int(high_water.group(1))


@pytest.mark.parametrize("variant,path,budget", CASES, ids=[c[0] for c in CASES])
def test_the_memory_objective_runs_in_the_least_memory_it_found(variant, path, budget):
    single = analyze(path, budget)
    searched = analyze(path, budget, "--explore")
    exploration = searched["exploration"]
    chosen = exploration["plans"][exploration["chosen"]]
    # No more than the single pass needs, and the least of every plan listed.
    assert searched["scheduled_peak_bytes"] <= single["scheduled_peak_bytes"]
    assert chosen["fast_bytes"] == searched["scheduled_peak_bytes"]
    assert chosen["fast_bytes"] == min(p["fast_bytes"] for p in exploration["plans"])
    assert chosen["on_front"]
    assert searched["totals"]["macs"] == single["totals"]["macs"]

    # Compiled with the objective at the least it found as the budget, it still fits; the
    # runtime's high-water mark is within it (docs/memory-model.md: to the 16-byte
    # alignment), and its output is the untiled plan's, byte for byte.
    least = chosen["fast_bytes"]
    name, x = model_input(path)
    x_path = WORK_DIR / f"explore.{variant}.x.npy"
    np.save(x_path, x)
    plan = WORK_DIR / f"explore.{variant}.tgrs"
    compiled = tigris("compile", path, "-m", least, "--xip", "--objective", "memory", "-o",
                      plan).stdout
    assert re.search(r"^search +memory objective: plan \d+ of \d+ that fit", compiled, re.M), \
        compiled
    untiled = WORK_DIR / f"explore.{variant}.untiled.tgrs"
    tigris("compile", path, "-m", "64M", "--xip", "-o", untiled)
    y, high_water = run(plan, x_path, variant)
    y_untiled, _ = run(untiled, x_path, f"{variant}.untiled")
    assert least - 16 < high_water <= least
    assert y.tobytes() == y_untiled.tobytes()
    ref = onnxruntime_reference(path, {name: x})[0]
    if variant == "float":
        assert_matches_reference(y, ref, path, "float", f"--objective memory at {least} B")
    else:  # an int8 graph output: within 1 of onnxruntime's integers
        assert np.abs(y.astype(np.int32) - ref.astype(np.int32)).max() <= 1


def test_the_table_marks_the_front_and_the_choice():
    path = MODELS_DIR / "onnx" / "kws_small_cnn.onnx"
    out = tigris("analyze", path, "-m", "16K", "--explore").stdout
    assert re.search(r"search\s+memory objective: \d+ plans that fit, from 7 configurations", out), out
    assert len(re.findall(r"^\s+chosen \*", out, re.M)) == 1, out
    # -v lists every plan, not only the front.
    everything = tigris("analyze", path, "-m", "16K", "--explore", "-v").stdout
    listed = len(re.findall(r"^\s+(chosen \*|front)?\s+[\d.]+ (B|KiB)\s", everything, re.M))
    plans = analyze(path, "16K", "--explore")["exploration"]["plans"]
    assert listed == len(plans), everything


def test_latency_without_recompute():
    """With a 0% recompute limit the chosen plan recomputes nothing; latency takes the
    plan with the least recompute, then slow traffic."""
    path = MODELS_DIR / "onnx" / "mobilenet_v2_035_144.onnx"
    lean = analyze(path, "32K", "--objective", "latency", "--max-recompute", "0")
    assert lean["totals"]["recompute_macs"] == 0
    plans = lean["exploration"]["plans"]
    chosen = plans[lean["exploration"]["chosen"]]
    assert chosen["slow_traffic_bytes"] == min(p["slow_traffic_bytes"] for p in plans
                                               if p["recompute_macs"] == 0)


@pytest.mark.parametrize("args,message", [
    (["--max-recompute", "5"], "--max-recompute needs a search"),
    (["--objective", "speed"], "--objective expects memory or latency"),
    (["--objective", "memory", "--max-recompute", "-1"], "--max-recompute expects a percentage"),
])
def test_bad_search_options_are_usage_errors(args, message):
    path = MODELS_DIR / "onnx" / "mnist8.onnx"
    result = tigris("analyze", path, "-m", "16K", *args, check=False)
    assert result.returncode == 2, result.stderr
    assert message in result.stderr, result.stderr


def test_explore_needs_a_budget():
    result = tigris("analyze", MODELS_DIR / "onnx" / "mnist8.onnx", "--explore", check=False)
    assert result.returncode == 2 and "--explore needs -m FAST" in result.stderr, result.stderr
