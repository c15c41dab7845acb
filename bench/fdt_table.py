#!/usr/bin/env python3
"""The FDT paper's table (fused-depthwise-tiling-paper.txt, Table 2: untiled / FFMT only /
FDT only / combined; working memory and MACs) for our planner, per model: the untiled
peak; the smallest fast budget `tigris analyze` accepts with feature-map tiling alone
(`--no-fdt`) and with the FDT splits too (docs/planning.md, "Rewrites"), each bisected;
the least fast memory of the search's plans (`analyze -m 64M --explore`,
docs/planning.md "Search") that use no feature-map tiling ("FDT only": stages, spills
and the FDT splits) and of all its plans ("search"); and the MACs of each plan (the
recompute of feature-map tiling on top of the model's own).

  .venv/bin/python bench/fdt_table.py --build build [MODEL.onnx ...]

Without models it runs every model in ../shared/models/onnx and onnx-from-tflite. The
budgets are bisected to 0.2% (or 16 bytes), as the comparison with tigris-ml bisects to 3%;
the search bisects its planning budgets to 1/256 of what fits, so its figures are the
peaks of plans it made (not budgets), within 0.4% of its least."""
import argparse
import glob
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def analyze(tigris: Path, model: str, budget: int, fdt: bool, *options: str):
    args = [str(tigris), "analyze", model, "-m", str(budget), "--json", *options]
    if not fdt:
        args.append("--no-fdt")
    out = subprocess.run(args, capture_output=True, text=True)
    if out.returncode != 0:
        return None
    return json.loads(out.stdout)


def smallest(tigris: Path, model: str, fdt: bool, lo: int = 64, hi: int = 64 << 20):
    """The smallest feasible budget and its analysis, or (None, None)."""
    best = analyze(tigris, model, hi, fdt)
    if best is None or best["verdict"] == "needs_work":
        return None, None
    while hi - lo > max(16, lo // 500):
        mid = (lo + hi) // 2
        j = analyze(tigris, model, mid, fdt)
        if j is not None and j["verdict"] != "needs_work":
            hi, best = mid, j
        else:
            lo = mid
    return hi, best


def macs_text(j, recompute=None) -> str:
    """A plan's MACs (its analysis `j`) with the recompute on top; `recompute` overrides
    the analysis' own (a search's plan other than the chosen one)."""
    if j is None:
        return "-"
    extra_macs = j["totals"]["recompute_macs"] if recompute is None else recompute
    total = j["totals"]["macs"] + extra_macs
    extra = extra_macs / j["totals"]["macs"] if j["totals"]["macs"] else 0
    return f"{total / 1e6:.2f}M (+{extra:.1%})"


def least(plans, keep):
    """The plan with the least fast bytes among the search's `plans` that `keep` keeps."""
    kept = [p for p in plans if keep(p)]
    return min(kept, key=lambda p: (p["fast_bytes"], p["recompute_macs"])) if kept else None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=str(ROOT / "build"), help="our build folder")
    ap.add_argument("--json", metavar="FILE", help="also write every row as JSON")
    ap.add_argument("models", nargs="*", help="ONNX models (default: the shared ones)")
    args = ap.parse_args()
    tigris = Path(args.build).resolve() / "bin" / "tigris"
    if not tigris.exists():
        sys.exit(f"{tigris} not found: build the tigris_cli target first")
    models = args.models
    if not models:
        shared = Path(os.environ.get("TIGRIS_MODELS_DIR", ROOT.parent / "shared" / "models"))
        models = sorted(glob.glob(str(shared / "onnx" / "*.onnx"))) + sorted(
            glob.glob(str(shared / "onnx-from-tflite" / "*.onnx")))

    header = (f"{'model':32} {'untiled':>9} {'FFMT only':>10} {'FDT only':>9} {'combined':>10} "
              f"{'search':>8} {'saved':>6}  {'MACs FFMT only':>16} {'MACs FDT only':>16} "
              f"{'MACs combined':>16} {'MACs search':>16}  rewrites")
    print(header)
    print("-" * len(header))
    rows = []
    for model in models:
        name = Path(model).name.removesuffix(".onnx")
        roomy = analyze(tigris, model, 64 << 20, True)
        untiled = roomy["memory"]["naive_peak_bytes"] if roomy else None
        ffmt, ffmt_j = smallest(tigris, model, fdt=False)
        both, both_j = smallest(tigris, model, fdt=True)
        searched = analyze(tigris, model, 64 << 20, True, "--explore")
        plans = searched["exploration"]["plans"] if searched else []
        fdt_only = least(plans, lambda p: not p["strategies"])
        best = least(plans, lambda p: True)
        saved = f"{1 - both / ffmt:.0%}" if ffmt and both else "-"
        kinds = sorted({r["kind"] for r in both_j["rewrites"]}) if both_j else []
        fdt_text = fdt_only["fast_bytes"] if fdt_only else "-"
        best_text = best["fast_bytes"] if best else "-"
        fdt_macs = macs_text(searched, fdt_only["recompute_macs"]) if fdt_only else "-"
        best_macs = macs_text(searched, best["recompute_macs"]) if best else "-"
        print(f"{name:32} {untiled or '-':>9} {ffmt or '-':>10} {fdt_text:>9} {both or '-':>10} "
              f"{best_text:>8} {saved:>6}  {macs_text(ffmt_j):>16} {fdt_macs:>16} "
              f"{macs_text(both_j):>16} {best_macs:>16}  {', '.join(kinds) or '-'}", flush=True)
        rows.append({"model": name, "untiled_bytes": untiled, "ffmt_only_bytes": ffmt,
                     "fdt_only_bytes": fdt_only and fdt_only["fast_bytes"],
                     "combined_bytes": both, "search_bytes": best and best["fast_bytes"],
                     "rewrites": kinds,
                     "ffmt_only_macs": ffmt_j and ffmt_j["totals"],
                     "combined_macs": both_j and both_j["totals"],
                     "fdt_only_recompute_macs": fdt_only and fdt_only["recompute_macs"],
                     "search_recompute_macs": best and best["recompute_macs"]})
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
