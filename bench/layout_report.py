#!/usr/bin/env python3
"""Op order and arena layout quality per model (issue 13; docs/planning.md step 0b,
docs/memory-model.md).

For every model it runs `tigris analyze MODEL -m BUDGET --json` twice, with `--layout
greedy` and `--layout exact --time-limit T`, and prints the live peak of the load order
and of the memory-aware order the planner used (with the search that found it and the
downsets it visited), then, for the largest arena of the plan (one stage when the budget
is large), the arena each layout needs, the live-bytes bound of the same schedule, the
best proven bound, whether the arena is proven optimal, and the wall time of each run.
With the default budget (64M) every model plans as one stage.

Usage: bench/layout_report.py --build build [--budget 64M] [--time-limit 30]
                              [--models-dir ../shared/models] [--json] [MODEL.onnx ...]
Without MODEL arguments: every model in MODELS_DIR/onnx and MODELS_DIR/onnx-from-tflite,
and the int8 QDQ variants the build made (BUILD/test-models/*.int8.onnx).
"""
import argparse
import json
import pathlib
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]


def default_models(build, models_dir):
    models = sorted((models_dir / "onnx").glob("*.onnx"))
    models += sorted((models_dir / "onnx-from-tflite").glob("*.onnx"))
    models += sorted((build / "test-models").glob("*.int8.onnx"))
    return models


def analyze(cli, model, budget, extra):
    start = time.monotonic()
    done = subprocess.run([str(cli), "analyze", str(model), "-m", budget, "--json", *extra],
                          capture_output=True, text=True)
    seconds = time.monotonic() - start
    if done.returncode != 0:
        return None, seconds, done.stderr.strip().splitlines()[-1:]
    return json.loads(done.stdout), seconds, None


def worst_stage(report):
    """The stage whose arena is the plan's peak (the first one on a tie)."""
    return max(report["stages"], key=lambda s: s["layout"]["arena_bytes"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", type=pathlib.Path, default=ROOT / "build")
    parser.add_argument("--budget", default="64M")
    parser.add_argument("--time-limit", default="30")
    parser.add_argument("--models-dir", type=pathlib.Path, default=ROOT.parent / "shared" / "models")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument("models", nargs="*", type=pathlib.Path)
    args = parser.parse_args()
    cli = args.build / "bin" / "tigris"
    if not cli.exists():
        sys.exit(f"layout_report: {cli} not found; build first (cmake --build {args.build})")
    models = args.models or default_models(args.build, args.models_dir)

    rows = []
    for model in models:
        row = {"model": model.name}
        greedy, row["greedy_seconds"], error = analyze(cli, model, args.budget, [])
        if greedy is None:
            row["error"] = error
            rows.append(row)
            continue
        exact, row["exact_seconds"], error = analyze(
            cli, model, args.budget, ["--layout", "exact", "--time-limit", args.time_limit])
        g, e = worst_stage(greedy)["layout"], worst_stage(exact)["layout"]
        order = greedy["schedule"]
        row.update(load_order_peak_bytes=order["load_order_peak_bytes"],
                   order_peak_bytes=order["peak_bytes"], order_search=order["search"],
                   downsets=order["downsets"])
        row.update(stages=len(greedy["stages"]), greedy_bytes=g["arena_bytes"],
                   live_bound_bytes=g["live_lower_bound_bytes"], exact_bytes=e["arena_bytes"],
                   exact_live_bound_bytes=e["live_lower_bound_bytes"],
                   proven_bound_bytes=e["lower_bound_bytes"], optimal=e["optimal"],
                   exact_stages=len(exact["stages"]))
        rows.append(row)
        print(f"  {model.name}: done", file=sys.stderr)

    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(f"budget {args.budget}, exact time limit {args.time_limit} s; the largest arena of "
          "each plan")
    print(f"{'model':36} {'load order':>10} {'ordered':>9} {'search':>6} {'sets':>5} "
          f"{'stages':>6} {'greedy':>9} {'exact':>9} {'live bound':>10} {'proven':>9} "
          f"{'over':>6} {'optimal':>7} {'greedy s':>8} {'exact s':>8}")
    for r in rows:
        if "error" in r:
            print(f"{r['model']:36} error: {' '.join(r['error'])}")
            continue
        over = 100.0 * (r["exact_bytes"] - r["exact_live_bound_bytes"]) / r["exact_live_bound_bytes"]
        print(f"{r['model']:36} {r['load_order_peak_bytes']:>10} {r['order_peak_bytes']:>9} "
              f"{r['order_search']:>6} {r['downsets']:>5} "
              f"{r['stages']:>6} {r['greedy_bytes']:>9} {r['exact_bytes']:>9} "
              f"{r['exact_live_bound_bytes']:>10} {r['proven_bound_bytes']:>9} {over:>5.1f}% "
              f"{'yes' if r['optimal'] else 'no':>7} {r['greedy_seconds']:>8.2f} "
              f"{r['exact_seconds']:>8.2f}")


if __name__ == "__main__":
    main()
