#!/usr/bin/env python3
"""Side by side: the published Python TiGrIS (tigris-ml on PyPI) and this TiGrIS on the
same models and budgets. Prints one table row per (model, budget):

  verdict, scheduled peak, stages, tiled stages, chains, slow traffic, time to analyze

then whether our plan at that budget compiled and ran (`tigris compile` with its default
options, then `tigris run` on a fixed random input: the output bytes equal to the untiled
64M plan's, or within 1e-5 of its largest magnitude where an FDT split reorders float
sums), then the rows where ours is worse. See README.md here for what each column
measures.
Not part of the test suite: it needs the network once (pip) and takes a minute or two.

  bench/compare/compare_tigris_ml.py --build build [--int8] [--budgets 512,256,128,64,32]
  bench/compare/compare_tigris_ml.py --build build [--int8] --smallest

--smallest prints instead, per model, the smallest fast budget each planner accepts (slow
memory unlimited for both, bisected to 3%) and their ratio (issue 11's table).
"""

import argparse
import array
import ast
import atexit
import ctypes
import glob
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
TIGRIS_ML_VERSION = "0.12.1"  # the version this script was written against


def ensure_venv(venv: Path, version: str) -> Path:
    """tigris-ml in a venv of its own (never the project's .venv): its dependencies
    (click, huggingface-hub, lz4) are none of the project's business."""
    python = venv / "bin" / "python"
    if not python.exists():
        print(f"creating {venv} with tigris-ml=={version} ...", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", f"tigris-ml=={version}"],
                       check=True)
    return python


def theirs(python: Path, models: list[str], budget: int, repeat: int) -> dict[str, dict]:
    """One probe process per budget, all models: imports are paid once."""
    out = subprocess.run([str(python), str(HERE / "tigris_ml_probe.py"), str(budget),
                          str(repeat), *models], check=True, capture_output=True, text=True)
    rows = {}
    for line in out.stdout.splitlines():
        row = json.loads(line)
        rows[row["model"]] = row
    return rows


class AnalyzeOptions(ctypes.Structure):
    """tigris_analyze_options of include/tigris.h, version 1."""
    _fields_ = [("version", ctypes.c_int), ("fast_bytes", ctypes.c_uint64),
                ("slow_bytes", ctypes.c_uint64), ("flash_bytes", ctypes.c_uint64)]


def our_seconds(lib: ctypes.CDLL, model: str, budget: int, repeat: int) -> float:
    """tigris_load + tigris_analyze through the C ABI in this process, best of `repeat`:
    the same work the tigris-ml probe times (load, normalize, plan), without the CLI's
    process start (~20-30 ms of shared-library and protobuf start-up)."""
    best = float("inf")
    for _ in range(repeat):
        model_handle, analysis = ctypes.c_void_p(), ctypes.c_void_p()
        options = AnalyzeOptions(1, budget, 0, 0)
        start = time.perf_counter()
        status = lib.tigris_load(ctypes.byref(model_handle), model.encode(), None)
        if status == 0:
            status = lib.tigris_analyze(ctypes.byref(analysis), model_handle,
                                        ctypes.byref(options))
        best = min(best, time.perf_counter() - start)
        lib.tigris_analysis_free(analysis)
        lib.tigris_model_free(model_handle)
        if status != 0:
            raise RuntimeError(f"{model}: status {status}")
    return best


def ours(tigris: Path, lib: ctypes.CDLL, model: str, budget: int, repeat: int) -> dict:
    """The figures from `tigris analyze MODEL -m BYTES --json`, the time from the C ABI."""
    out = subprocess.run([str(tigris), "analyze", model, "-m", str(budget), "--json"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        return {"error": out.stderr.strip()}
    seconds = our_seconds(lib, model, budget, repeat)
    j = json.loads(out.stdout)
    return {
        "fits": j["verdict"] != "needs_work",
        "verdict": j["verdict"],
        "scheduled_peak_bytes": j["scheduled_peak_bytes"],
        "stages": len(j["stages"]),
        "tiled_stages": sum(1 for s in j["stages"] if s["strategy"] != "normal"),
        "chains": len(j["chains"]),
        "slow_traffic_bytes": j["totals"]["slow_traffic_bytes"],
        "seconds": seconds,
    }


def our_feasible(tigris: Path, model: str, budget: int) -> bool:
    out = subprocess.run([str(tigris), "analyze", model, "-m", str(budget), "--json"],
                         capture_output=True, text=True)
    return out.returncode == 0 and json.loads(out.stdout)["verdict"] != "needs_work"


def our_smallest(tigris: Path, model: str, lo: int = 256, hi: int = 64 << 20):
    """The same bisection as tigris_ml_probe.smallest: to 3% (or 64 bytes)."""
    if not our_feasible(tigris, model, hi):
        return None
    while hi - lo > max(64, lo * 3 // 100):
        mid = (lo + hi) // 2
        if our_feasible(tigris, model, mid):
            hi = mid
        else:
            lo = mid
    return hi


# .npy I/O without numpy (this script runs on the system Python): format version 1.0, a
# dict header padded to 64 bytes, little-endian data in C order.
NPY_TYPES = {"float32": ("<f4", "f"), "int8": ("|i1", "b"), "uint8": ("|u1", "B"),
             "int32": ("<i4", "i"), "int64": ("<i8", "q")}


def write_npy(path: Path, shape: list[int], dtype: str, rng: random.Random) -> None:
    descr, code = NPY_TYPES[dtype]
    count = 1
    for d in shape:
        count *= d
    if code == "f":
        values = array.array(code, (rng.gauss(0.0, 1.0) for _ in range(count)))
    else:
        lo, hi = (-128, 127) if code == "b" else (0, 255) if code == "B" else (0, 9)
        values = array.array(code, (rng.randint(lo, hi) for _ in range(count)))
    header = f"{{'descr': '{descr}', 'fortran_order': False, 'shape': {tuple(shape)}, }}"
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    path.write_bytes(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") +
                     header.encode() + values.tobytes())


def read_npy(path: Path) -> tuple[str, bytes]:
    raw = path.read_bytes()
    length = int.from_bytes(raw[8:10], "little")
    header = ast.literal_eval(raw[10:10 + length].decode())
    return header["descr"], raw[10 + length:]


def _run_once(tigris: Path, model: str, budget: int, work: Path) -> tuple[str, bytes] | str:
    """Compiles MODEL at BUDGET (compile's defaults) and runs it on the fixed input of
    `work`: the output (.npy descr, data), or what failed."""
    plan = work / f"{budget}.tgrs"
    out = subprocess.run([str(tigris), "compile", model, "-m", str(budget), "-o", str(plan)],
                         capture_output=True, text=True)
    if out.returncode != 0:
        return "compile refused"
    inputs = sum((["--input", str(p)] for p in sorted(work.glob("x*.npy"))), [])
    out = subprocess.run([str(tigris), "run", str(plan), *inputs, "--output",
                          str(work / f"{budget}.npy")], capture_output=True, text=True)
    return "run failed" if out.returncode != 0 else read_npy(work / f"{budget}.npy")


_UNTILED = {}  # model -> (work folder, the untiled plan's output or what failed)


def our_plan_runs(tigris: Path, model: str, budget: int) -> str:
    """Compiles MODEL at BUDGET (compile's defaults), runs it on one fixed input and
    compares with the untiled 64M plan's output (made once per model): "yes" (same bytes),
    "yes (1e-5)" (float within 1e-5 of the largest magnitude: an FDT split), else what
    failed."""
    if model not in _UNTILED:
        summary = subprocess.run([str(tigris), "analyze", model, "--json"], capture_output=True,
                                 text=True)
        if summary.returncode != 0:
            return "load failed"
        work = Path(tempfile.mkdtemp(prefix="tigris-compare-"))
        atexit.register(shutil.rmtree, work, True)
        rng = random.Random(0)
        for i, spec in enumerate(json.loads(summary.stdout)["model"]["inputs"]):
            if spec["dtype"] not in NPY_TYPES:
                return f"input dtype {spec['dtype']}"
            write_npy(work / f"x{i}.npy", spec["shape"], spec["dtype"], rng)
        _UNTILED[model] = (work, _run_once(tigris, model, 64 << 20, work))
    work, untiled = _UNTILED[model]
    if isinstance(untiled, str):
        return f"NO: untiled {untiled}"
    ours = _run_once(tigris, model, budget, work)
    if isinstance(ours, str):
        return f"NO: {ours}"
    (descr, ours_bytes), (_, untiled_bytes) = ours, untiled
    if ours_bytes == untiled_bytes:
        return "yes"
    if descr == "<f4":
        a, b = array.array("f", ours_bytes), array.array("f", untiled_bytes)
        largest = max((abs(v) for v in b), default=0.0) or 1.0
        if max(abs(x - y) for x, y in zip(a, b)) <= 1e-5 * largest:
            return "yes (1e-5)"
    return "NO: output differs"


def print_smallest(tigris: Path, python: Path, models: list[str], json_path) -> None:
    out = subprocess.run([str(python), str(HERE / "tigris_ml_probe.py"), "--smallest", *models],
                         check=True, capture_output=True, text=True)
    theirs_by_model = {}
    for line in out.stdout.splitlines():
        row = json.loads(line)
        theirs_by_model[row["model"]] = row
    rows = []
    print(f"{'model':40} {'ours':>10} {'tigris-ml':>10} {'ours/theirs':>12}  ours compiled+ran")
    print("-" * 95)
    for model in models:
        o = our_smallest(tigris, model)
        t = theirs_by_model.get(model, {})
        name = Path(model).name.removesuffix(".onnx")
        theirs_value = t.get("smallest")
        ratio = f"{o / theirs_value:.2f}" if o and theirs_value else "-"
        their_text = kib_exact(theirs_value) if "error" not in t else "error"
        ran = our_plan_runs(tigris, model, o) if o else "-"
        print(f"{name:40} {kib_exact(o):>10} {their_text:>10} {ratio:>12}  {ran}")
        rows.append({"model": name, "ours": o, "theirs": theirs_value, "error": t.get("error"),
                     "ours_ran": ran})
    if json_path:
        Path(json_path).write_text(json.dumps(rows, indent=1))


def kib_exact(n) -> str:
    return "-" if n is None else f"{n / 1024:.1f} KiB"


def kib(n) -> str:
    return "-" if n is None else f"{n / 1024:.0f}K" if n < 10 * 1024 * 1024 else \
        f"{n / 1048576:.1f}M"


def pair(a, b, fmt=str) -> str:
    return f"{fmt(a) if a is not None else '?'}/{fmt(b) if b is not None else '?'}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=str(ROOT / "build"), help="our build folder")
    ap.add_argument("--models", default=os.environ.get(
        "TIGRIS_MODELS_DIR", str(ROOT.parent / "shared" / "models")) + "/onnx",
                    help="folder of .onnx models (default: ../shared/models/onnx)")
    ap.add_argument("--int8", action="store_true",
                    help="also the int8 QDQ variants in BUILD/test-models")
    ap.add_argument("--budgets", default="512,256,128,64,32", help="KiB, comma-separated")
    ap.add_argument("--venv", default=None, help="tigris-ml venv (default BUILD/tigris-ml-venv)")
    ap.add_argument("--tigris-ml-version", default=TIGRIS_ML_VERSION)
    ap.add_argument("--repeat", type=int, default=3, help="times are the best of N runs")
    ap.add_argument("--json", metavar="FILE", help="also write every row as JSON")
    ap.add_argument("--smallest", action="store_true",
                    help="the smallest budget each planner accepts, per model")
    args = ap.parse_args()

    build = Path(args.build).resolve()
    tigris = build / "bin" / "tigris"
    if not tigris.exists():
        sys.exit(f"{tigris} not found: build the tigris_cli target first")
    lib = ctypes.CDLL(str(build / "libtigris" / "libtigris.so"))
    lib.tigris_load.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_char_p, ctypes.c_void_p]
    lib.tigris_analyze.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p,
                                   ctypes.POINTER(AnalyzeOptions)]
    lib.tigris_analysis_free.argtypes = [ctypes.c_void_p]
    lib.tigris_model_free.argtypes = [ctypes.c_void_p]
    python = ensure_venv(Path(args.venv) if args.venv else build / "tigris-ml-venv",
                         args.tigris_ml_version)
    models = sorted(glob.glob(os.path.join(args.models, "*.onnx")))
    if args.int8:
        models += sorted(glob.glob(str(build / "test-models" / "*.int8.onnx")))
    if args.smallest:
        print_smallest(tigris, python, models, args.json)
        return 0
    budgets = [int(k) * 1024 for k in args.budgets.split(",")]

    rows = []
    for budget in budgets:
        their_rows = theirs(python, models, budget, args.repeat)
        for model in models:
            o = ours(tigris, lib, model, budget, args.repeat)
            if o.get("fits"):
                o["ran"] = our_plan_runs(tigris, model, budget)
            rows.append({"model": Path(model).name.removesuffix(".onnx"), "budget": budget,
                         "ours": o, "theirs": their_rows[model]})
    rows.sort(key=lambda r: (r["model"], -r["budget"]))

    header = (f"{'model':34} {'budget':>6}  {'fits o/t':9} {'peak o/t':>13}  {'stages':>7} "
              f"{'tiled':>7} {'chains':>6} {'slow traffic o/t':>17} {'ms o/t':>13}  ours ran")
    print(header)
    print("-" * len(header))
    worse = []
    for r in rows:
        o, t = r["ours"], r["theirs"]
        if "error" in o or "error" in t:
            print(f"{r['model']:34} {kib(r['budget']):>6}  error: {o.get('error') or t.get('error')}")
            continue
        yn = lambda f: "yes" if f else "NO"  # noqa: E731
        print(f"{r['model']:34} {kib(r['budget']):>6}  {pair(o['fits'], t['fits'], yn):9} "
              f"{pair(o['scheduled_peak_bytes'], t['scheduled_peak_bytes'], kib):>13}  "
              f"{pair(o['stages'], t['stages']):>7} {pair(o['tiled_stages'], t['tiled_stages']):>7} "
              f"{pair(o['chains'], t['chains']):>6} "
              f"{pair(o['slow_traffic_bytes'], t['slow_traffic_bytes'], kib):>17} "
              f"{pair(o['seconds'] * 1000, t['seconds'] * 1000, lambda s: f'{s:.1f}'):>13}  "
              f"{o.get('ran', '-')}")
        why = []
        if o["fits"] and not o.get("ran", "").startswith("yes"):
            why.append(f"analyze fits but the plan did not run: {o.get('ran')}")
        if t["fits"] and not o["fits"]:
            why.append("does not fit where tigris-ml fits")
        if (o["fits"] and t["fits"] and t["slow_traffic_bytes"] is not None
                and o["slow_traffic_bytes"] > 1.1 * t["slow_traffic_bytes"]):
            why.append("more slow traffic")
        if o["seconds"] > 1.1 * t["seconds"]:
            why.append(f"slower ({o['seconds'] * 1000:.1f} vs {t['seconds'] * 1000:.1f} ms)")
        if why:
            worse.append((r, why))

    print(f"\nrows where ours is worse ({len(worse)}):")
    for r, why in worse:
        print(f"  {r['model']} @ {kib(r['budget'])}: {', '.join(why)}")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
