#!/usr/bin/env python3
"""Host latency side by side: this TiGrIS's C99 runtime and tigris-ml's bundled host runtime
(PyPI, its own venv, as compare_tigris_ml.py installs it), on the same model, budget and
input, in one run (issue 11: "vww at 64K: host latency <= tigris-ml's host runtime").

For each model: both compilers make a plan at the budget (weights in place, slow memory
unlimited); each runtime runs it --runs times after one warm-up run; the table gives the
median and fastest run, our recompute share from `tigris analyze`, and the largest
difference between the two runtimes' outputs (a sanity check that both computed the same
network; each is checked against onnxruntime by its own test suite).

  bench/compare/latency_tigris_ml.py --build build [--budget 64K] [--runs 50]
"""

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
from compare_tigris_ml import TIGRIS_ML_VERSION, ensure_venv  # noqa: E402

# Runs inside tigris-ml's venv: times Session.run on its plan; prints JSON.
THEIR_TIMER = r"""
import json, sys, time
import numpy as np
from tigris.runtime import Session
plan, x_path, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
x = np.load(x_path)
with Session(plan, slow_capacity=64 << 20) as s:
    spec = s.inputs[0]
    if tuple(spec["shape"]) != x.shape:  # its runtime takes NHWC where ONNX has NCHW
        x = np.ascontiguousarray(x.transpose(0, 2, 3, 1))
    feed = {spec["name"]: x.astype(spec["dtype"])}
    out = s.run(feed)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        s.run(feed)
        times.append(time.perf_counter() - start)
    times.sort()
    y = next(iter(out.values()))
    print(json.dumps({"median_ms": 1e3 * times[len(times) // 2], "fastest_ms": 1e3 * times[0],
                      "fast_peak_bytes": s.memory["fast_peak_bytes"],
                      "output": y.astype("float64").ravel().tolist()}))
"""


def ours(build: Path, model: Path, budget: str, x_path: Path, runs: int, work: Path) -> dict:
    cli = build / "bin" / "tigris"
    plan = work / "ours.tgrs"
    subprocess.run([str(cli), "compile", str(model), "-m", budget, "--xip", "-o", str(plan)],
                   check=True, capture_output=True)
    analysis = json.loads(subprocess.run([str(cli), "analyze", str(model), "-m", budget, "--json"],
                                         check=True, capture_output=True, text=True).stdout)
    y = work / "ours_y.npy"
    text = subprocess.run([str(cli), "run", str(plan), "-i", str(x_path), "-o", str(y),
                           "--repeat", str(runs)], check=True, capture_output=True, text=True).stdout
    latency = next(line for line in text.splitlines() if line.startswith("latency"))
    words = latency.split()  # latency  X ms median of N runs, fastest Y ms
    totals = analysis["totals"]
    return {"median_ms": float(words[1]), "fastest_ms": float(words[-2]),
            "recompute": totals["recompute_macs"] / max(totals["macs"], 1),
            "output": np.load(y).astype("float64").ravel()}


def theirs(python: Path, tigris: Path, model: Path, budget: str, x_path: Path, runs: int,
           work: Path) -> dict:
    plan = work / "theirs.tgrs"
    compiled = subprocess.run([str(tigris), "compile", str(model), "-m", budget, "--xip", "-o",
                               str(plan)], capture_output=True, text=True)
    if compiled.returncode != 0:
        return {"error": (compiled.stderr or compiled.stdout).strip().splitlines()[-1]}
    timer = work / "timer.py"
    timer.write_text(THEIR_TIMER)
    run = subprocess.run([str(python), str(timer), str(plan), str(x_path), str(runs)],
                         capture_output=True, text=True)
    if run.returncode != 0:
        return {"error": run.stderr.strip().splitlines()[-1]}
    result = json.loads(run.stdout)
    result["output"] = np.array(result["output"])
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", type=Path, required=True, help="the CMake build directory")
    parser.add_argument("--budget", default="64K", help="fast budget for both (default 64K)")
    parser.add_argument("--runs", type=int, default=50, help="timed runs per runtime")
    parser.add_argument("--venv", type=Path, help="tigris-ml venv (default BUILD/tigris-ml-venv)")
    parser.add_argument("models", nargs="*", type=Path,
                        help="ONNX models (default: the example vww_mobilenetv1_025_96)")
    args = parser.parse_args()
    build = args.build.resolve()
    python = ensure_venv((args.venv or build / "tigris-ml-venv").resolve(), TIGRIS_ML_VERSION)
    tigris_ml = python.parent / "tigris"
    models = args.models or [ROOT / "examples" / "vww_mobilenetv1_025_96.onnx"]
    print(f"host latency at {args.budget}, {args.runs} runs each (ms: median / fastest)")
    print(f"{'model':<30} {'ours':>15} {'tigris-ml':>15} {'ours/theirs':>11} "
          f"{'our recompute':>13} {'max |diff|':>10}")
    for model in models:
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp)
            import onnx  # the project venv has it; only for the input shape
            graph = onnx.load(str(model), load_external_data=False).graph
            dims = [d.dim_value or 1 for d in graph.input[0].type.tensor_type.shape.dim]
            x_path = work / "x.npy"
            np.save(x_path, np.random.RandomState(0).rand(*dims).astype(np.float32))
            a = ours(build, model, args.budget, x_path, args.runs, work)
            b = theirs(python, tigris_ml, model, args.budget, x_path, args.runs, work)
            mine = f"{a['median_ms']:.2f} / {a['fastest_ms']:.2f}"
            if "error" in b:
                print(f"{model.stem:<30} {mine:>15} {'error':>15}   ({b['error']})")
                continue
            other = f"{b['median_ms']:.2f} / {b['fastest_ms']:.2f}"
            diff = (float(np.max(np.abs(a["output"] - b["output"])))
                    if a["output"].shape == b["output"].shape else float("nan"))
            print(f"{model.stem:<30} {mine:>15} {other:>15} "
                  f"{a['median_ms'] / b['median_ms']:>11.2f} {100 * a['recompute']:>12.1f}% "
                  f"{diff:>10.2e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
