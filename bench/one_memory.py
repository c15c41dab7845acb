#!/usr/bin/env python3
"""The smallest part with one RAM each model compiles for (issue 39, docs/memories.md
"Scratch and spills in one memory"): `tigris compile --target` with one SRAM beside a 16M
flash, the SRAM's size bisected on the 16-byte grid, and `tigris analyze --target` at that
size (its verdict must be compile's). Beside it: the untiled peak (about the smallest
one-SRAM footprint before spills could share the memory), TensorFlow Lite Micro's activation arena
where ../shared/models/onnx-from-tflite/README.md gives one, the plan's one arena (and how
much of it the spills take at most) and the recompute. Exit 1 when analyze disagrees with
compile.

  .venv/bin/python bench/one_memory.py --build build [MODEL.onnx ...]

Without models it runs the five onnx-from-tflite conversions, the shared models' int8 QDQ
variants the build makes (build/test-models) and the shared float models. Where `ctest -L cortex-m` has run a
model's one-RAM QEMU case (tests/cortex-m/CMakeLists.txt: <model>_int8_onemem beside
<model>_int8_untiled), its Cortex-M4 instruction counts follow the table.
"""
import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODELS = ROOT.parent / "shared" / "models"
GRID = 16


def target(size):
    return (f"memories:\n  - {{name: SRAM, size: {size}}}\n"
            "  - {name: FLASH, size: 16M, read_only: true}\n")


def compile_for(tigris, model, size, work):
    yaml = work / "one_sram.yaml"
    yaml.write_text(target(size))
    plan = work / "one_sram.tgrs"
    out = subprocess.run([str(tigris), "compile", str(model), "--target", str(yaml), "-o",
                          str(plan)], capture_output=True, text=True)
    return out.returncode == 0, out.stdout


def analyze_verdict(tigris, model, size, work):
    yaml = work / "one_sram.yaml"
    yaml.write_text(target(size))
    out = subprocess.run([str(tigris), "analyze", str(model), "--target", str(yaml), "--json"],
                         capture_output=True, text=True)
    if out.returncode != 0 and not out.stdout.strip().startswith("{"):
        return "error", None
    j = json.loads(out.stdout)
    return j["verdict"], j


def smallest(tigris, model, work, hi=64 << 20):
    ok, _ = compile_for(tigris, model, hi, work)
    if not ok:
        return None
    lo = GRID
    while hi - lo > GRID:
        mid = (lo + hi) // 2 // GRID * GRID
        if compile_for(tigris, model, mid, work)[0]:
            hi = mid
        else:
            lo = mid
    return hi


def tflm_arenas():
    """TFLM's non-persistent arena per model, from the conversions' README."""
    readme = MODELS / "onnx-from-tflite" / "README.md"
    arenas = {}
    if readme.exists():
        for m in re.finditer(r"^\| (\w+) \| ([\d,]+) \| [\d,]+ \|$", readme.read_text(), re.M):
            arenas[m.group(1)] = int(m.group(2).replace(",", ""))
    return arenas


def qemu_instructions(build):
    """Cortex-M4 instructions of the one-RAM QEMU cases and their untiled twins, by case: a
    case's `_untiled`, or for TFLite Micro's models its `_arena` (untiled at TFLM's arena)."""
    runs = build / "tests" / "cortex-m" / "m4" / "runs"
    found = {}
    for path in sorted(runs.glob("*_int8_*/result.json")) if runs.exists() else []:
        r = json.loads(path.read_text())
        if r["case"].endswith(("_onemem", "_untiled", "_arena")):
            found[r["case"]] = r["instructions"]
    return found


def print_instructions(build):
    found = qemu_instructions(build)
    cases = sorted(c.removesuffix("_onemem") for c in found if c.endswith("_onemem"))
    if not cases:
        print("\n(no one-RAM QEMU results: run `ctest -L cortex-m`)")
        return
    print("\nCortex-M4 (QEMU mps2-an386, docs/cortex-m.md), one inference:\n")
    print("| case | one RAM | untiled | ratio |")
    print("|---|---:|---:|---:|")
    for case in cases:
        one = found[case + "_onemem"]
        whole = found.get(case + "_untiled", found.get(case + "_arena"))
        ratio = f"{one / whole:.3f}x" if whole else "-"
        whole_text = f"{whole / 1e6:.2f} M" if whole else "-"
        print(f"| {case} | {one / 1e6:.2f} M | {whole_text} | {ratio} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", type=Path, default=ROOT / "build")
    parser.add_argument("models", nargs="*", type=Path)
    args = parser.parse_args()
    tigris = args.build / "bin" / "tigris"
    models = args.models or (sorted((MODELS / "onnx-from-tflite").glob("*.onnx")) +
                             sorted((args.build / "test-models").glob("*.int8.onnx")) +
                             sorted((MODELS / "onnx").glob("*.onnx")))
    tflm = tflm_arenas()
    print("| model | one SRAM | its arena (spills in it) | untiled peak | TFLM arena | recompute | "
          "analyze |")
    print("|---|---:|---:|---:|---:|---:|---|")
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for model in models:
            name = model.name.removesuffix(".onnx")
            size = smallest(tigris, model, work)
            if size is None:
                print(f"| {name} | does not compile | | | | | |", flush=True)
                continue
            compile_for(tigris, model, size, work)
            verdict, j = analyze_verdict(tigris, model, size, work)
            agrees = verdict in ("ok", "tiled")
            failed |= not agrees
            untiled = j["memory"]["naive_peak_bytes"] if j else 0
            recompute = (j["totals"]["recompute_macs"] / j["totals"]["macs"]
                         if j and j["totals"]["macs"] else 0.0)
            plan = json.loads(subprocess.run(
                [str(tigris), "inspect", "--json", str(work / "one_sram.tgrs")],
                capture_output=True, text=True).stdout)["plan"]
            # One arena, the spills at its top (plan/joint_arena.h): their extent from the
            # analysis, which is the compile's plan.
            spilled = j["slow_peak_bytes"] if j else 0
            split = (f"{plan['fast_arena_bytes'] + plan['slow_arena_bytes']:,} "
                     f"({spilled:,})")
            key = name.removesuffix(".int8")
            print(f"| {name} | {size:,} | {split} | {untiled:,} | "
                  f"{tflm[key]:,} |" if key in tflm else
                  f"| {name} | {size:,} | {split} | {untiled:,} | - |", end="")
            print(f" {100 * recompute:.1f}% | {verdict if agrees else 'DISAGREES: ' + verdict} |",
                  flush=True)
    print_instructions(args.build)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
