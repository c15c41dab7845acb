#!/usr/bin/env python3
"""The .tflite front end side by side with TensorFlow Lite Micro (issue 41, docs/tflite.md),
per .tflite file:

- TFLM's activation arena (the non-persistent head of its allocator, from
  ../shared/models/tflite/tflm_reference.json, measured with tflite-micro's interpreter);
- our smallest fast budget with an unlimited second memory (`tigris analyze` bisected on
  the 16-byte grid; compile agrees, tests/e2e/test_verdict_promise.py);
- our one-memory footprint: the smallest single SRAM beside a flash `tigris compile
  --target` accepts (bench/one_memory.py's bisection);
- whether our output bytes equal TFLM's for TFLM's recorded input, and the largest
  difference in LSB.

  .venv/bin/python bench/tflite_report.py --build build [MODEL.tflite ...]
"""
import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from one_memory import MODELS, ROOT, smallest  # noqa: E402

GRID = 16


def fits(tigris, model, budget):
    out = subprocess.run([str(tigris), "analyze", str(model), "-m", str(budget), "--json"],
                         capture_output=True, text=True)
    return out.returncode == 0 and json.loads(out.stdout)["verdict"] != "needs_work"


def smallest_fast(tigris, model, hi=64 << 20):
    lo = GRID
    if fits(tigris, model, lo):
        return lo
    while hi - lo > GRID:
        mid = (lo + hi) // 2 // GRID * GRID
        lo, hi = (lo, mid) if fits(tigris, model, mid) else (mid, hi)
    return hi


def against_tflm(tigris, model, work):
    """(equal, max LSB) of the untiled plan's output vs TFLM's, or None without a record."""
    x = MODELS / "tflite" / "tflm" / f"{model.stem}.input.npy"
    ref = MODELS / "tflite" / "tflm" / f"{model.stem}.tflm_output.npy"
    if not x.exists() or not ref.exists():
        return None
    plan, y = work / "untiled.tgrs", work / "y.npy"
    subprocess.run([str(tigris), "compile", str(model), "-m", "64M", "-o", str(plan)],
                   check=True, capture_output=True)
    subprocess.run([str(tigris), "run", str(plan), "--input", str(x), "--output", str(y)],
                   check=True, capture_output=True)
    ours, theirs = np.load(y), np.load(ref)
    lsb = int(np.abs(ours.astype(np.int64) - theirs.astype(np.int64)).max())
    return ours.tobytes() == theirs.tobytes(), lsb


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", type=Path, default=ROOT / "build")
    parser.add_argument("models", nargs="*", type=Path)
    args = parser.parse_args()
    tigris = args.build / "bin" / "tigris"
    models = args.models or sorted((MODELS / "tflite").glob("*.tflite"))
    reference = json.loads((MODELS / "tflite" / "tflm_reference.json").read_text())
    arenas = reference["arena_head_bytes"]
    print("| model | TFLM arena | our smallest fast budget | our one SRAM | output == TFLM's "
          "(max LSB) |")
    print("|---|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for model in models:
            arena = f"{arenas[model.stem]:,}" if model.stem in arenas else "-"
            fast = smallest_fast(tigris, model)
            one = smallest(tigris, model, work)
            compared = against_tflm(tigris, model, work)
            same = "-" if compared is None else (
                f"{'yes' if compared[0] else 'no'} ({compared[1]})")
            print(f"| {model.stem} | {arena} | {fast:,} | "
                  f"{one:,} | {same} |" if one else
                  f"| {model.stem} | {arena} | {fast:,} | does not compile | {same} |",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
