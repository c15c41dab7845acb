"""Persistent state (`tigris compile --state IN=OUT`) and staged constants (`--weights
staged`) against onnxruntime: a recurrent cell h' = tanh(x W + h U), y = h' V, run as a
streaming model runs, each step's h' fed back as the next step's h, from zeros.

The plan keeps h as a graph input for callers without a context (`tigris run` passes it
explicitly, as here); the runtime context that keeps it between invokes is tested in
tests/runtime/state_test.cc against this same explicit sequence."""
import json
import sys

import numpy as np
import onnx

from conftest import SOURCE_DIR, WORK_DIR, tigris
from qdq_helpers import onnxruntime_reference

sys.path.insert(0, str(SOURCE_DIR / "tests" / "models"))
from recurrent_cell import recurrent_cell as make_cell  # noqa: E402

IN, HIDDEN, OUT, STEPS = 6, 16, 3, 5


def recurrent_cell():
    return make_cell("recurrent_cell", IN, HIDDEN, OUT, seed=5, scale=0.4)


def test_a_state_plan_streams_like_onnxruntime():
    WORK_DIR.mkdir(parents=True, exist_ok=True)
    path = WORK_DIR / "state.cell.onnx"
    onnx.save(recurrent_cell(), path)
    plan = WORK_DIR / "state.cell.tgrs"
    report = tigris("compile", path, "-m", "2K", "--state", "h=h_next", "--weights", "staged",
                    "-o", plan).stdout
    assert "state    64 bytes arena" in report, report
    listing = tigris("inspect", plan).stdout
    assert "state      h 1x16 FLOAT32 <- h_next 1x16 FLOAT32" in listing, listing
    assert "staged: " in listing, listing
    # Where everything lives (tigris inspect --json, "placements"): the state in its arena,
    # each weight staged from the plan into the constants arena, back to back in
    # destination order (16-aligned sizes here), activations in scratch.
    placements = json.loads(tigris("inspect", plan, "--json").stdout)["placements"]
    state = [p for p in placements if p["kind"] == "PERSISTENT"]
    assert state == [{"tensor": "h", "kind": "PERSISTENT", "memory": "state", "offset": 0,
                      "size": 4 * HIDDEN, "staged_from": None}], state
    constants = sorted((p for p in placements if p["kind"] == "CONSTANT"),
                       key=lambda p: p["offset"])
    assert [p["size"] for p in constants] == [4 * IN * HIDDEN, 4 * HIDDEN * HIDDEN,
                                              4 * HIDDEN * OUT], constants
    assert all(p["memory"] == "constants" and p["staged_from"] == "flash" for p in constants)
    assert [p["offset"] for p in constants] == [0, 4 * IN * HIDDEN,
                                                4 * IN * HIDDEN + 4 * HIDDEN * HIDDEN]
    assert {p["memory"] for p in placements if p["kind"] == "SCRATCH"} == {"fast"}
    # A runtime built with this plan's ops keeps the state and staging code.
    header = WORK_DIR / "state.cell.ops.h"
    tigris("inspect", plan, "--ops-header", header)
    text = header.read_text()
    assert "#define TGRS_WITH_STATE 1" in text and "#define TGRS_WITH_STAGED_CONSTANTS 1" in text
    assert "TGRS_WITH_LZ4" not in text, text

    xs = np.random.RandomState(9).standard_normal([STEPS, 1, IN]).astype(np.float32)
    h_ref = np.zeros([1, HIDDEN], np.float32)
    h_ours = np.zeros([1, HIDDEN], np.float32)
    for k in range(STEPS):
        y_ref, h_ref = onnxruntime_reference(path, {"x": xs[k], "h": h_ref})
        paths = {name: WORK_DIR / f"state.step{k}.{name}.npy" for name in ("x", "h", "y", "hn")}
        np.save(paths["x"], xs[k])
        np.save(paths["h"], h_ours)
        tigris("run", plan, "--input", paths["x"], "--input", paths["h"],
               "--output", paths["y"], "--output", paths["hn"])
        y, h_ours = np.load(paths["y"]), np.load(paths["hn"])
        np.testing.assert_allclose(y, y_ref, rtol=1e-5, atol=1e-6, err_msg=f"y, step {k}")
        np.testing.assert_allclose(h_ours, h_ref, rtol=1e-5, atol=1e-6, err_msg=f"h, step {k}")


def test_a_state_pair_must_carry_one_tensor():
    path = WORK_DIR / "state.cell.onnx"
    onnx.save(recurrent_cell(), path)
    bad = tigris("compile", path, "-m", "2K", "--state", "h=y", "-o", WORK_DIR / "x.tgrs",
                 check=False)
    assert bad.returncode == 1
    assert "the input is 1x16 float32 but the output is 1x3 float32" in bad.stderr, bad.stderr
    unknown = tigris("compile", path, "-m", "2K", "--state", "c=h_next", "-o",
                     WORK_DIR / "x.tgrs", check=False)
    assert unknown.returncode == 1
    assert "'c' is not a graph input (inputs: x, h)" in unknown.stderr, unknown.stderr
    usage = tigris("compile", path, "-m", "2K", "--state", "h", "-o", WORK_DIR / "x.tgrs",
                   check=False)
    assert usage.returncode == 2
    assert "--state expects IN=OUT" in usage.stderr, usage.stderr
