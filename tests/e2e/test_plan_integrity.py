"""A corrupted plan is refused, never run (issue 42, docs/integrity.md).

The experiment of the issue, as a user would run it: compiled plans of three shared models
(float32 and int8, weights read in place with --xip and copied by default), damaged, then
`tigris run`. Every damaged plan must either be refused with a named status (exit 1,
`tigris: error: ... [TGRS_ERR_...]`) or, when the damage hit bytes nothing reads (alignment
padding in weight_data), give the undamaged plan's output bytes. A run that exits 0 with
different bytes is a silent corruption; a signal is a crash. Both fail the test.

Damage, 1,000 of each by default (TIGRIS_INTEGRITY_TRIALS sets the count), deterministic:
  - single-bit flips at random positions;
  - multi-byte corruption: a random 4-byte word, a zeroed 64-byte range, a truncated tail.
The table of outcomes goes to <build>/e2e-integrity-summary.txt.
"""
import hashlib
import json
import os
import random
import subprocess
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from conftest import BUILD_DIR, MODELS_DIR, TIGRIS, WORK_DIR, tigris

TRIALS = int(os.environ.get("TIGRIS_INTEGRITY_TRIALS", "1000"))
SUMMARY = BUILD_DIR / "e2e-integrity-summary.txt"

# name, model, budget, compile options
PLANS = [
    ("kws_dscnn_int8_xip", MODELS_DIR / "onnx-from-tflite" / "mlperf_kws_dscnn_int8.onnx",
     "8K", ["--xip"]),
    ("vww_small_cnn_f32", MODELS_DIR / "onnx" / "vww_small_cnn.onnx", "16K", []),
    ("mnist8_int8", BUILD_DIR / "test-models" / "mnist8.int8.onnx", "2K", []),
]


def corrupt(good, rng, kind):
    bad = bytearray(good)
    if kind == "bit":
        pos = rng.randrange(len(bad))
        bad[pos] ^= 1 << rng.randrange(8)
        return bytes(bad), f"bit {pos}"
    shape = rng.choice(("word", "zeros", "tail"))
    if shape == "word":
        pos = rng.randrange(len(bad) - 4)
        old = bytes(bad[pos:pos + 4])
        while bytes(bad[pos:pos + 4]) == old:
            bad[pos:pos + 4] = rng.randbytes(4)
        return bytes(bad), f"word {pos}"
    if shape == "zeros":
        pos = rng.randrange(len(bad) - 64)
        while bad[pos:pos + 64] == bytes(64):  # a range already zero changes nothing
            pos = rng.randrange(len(bad) - 64)
        bad[pos:pos + 64] = bytes(64)
        return bytes(bad), f"zeros {pos}"
    cut = rng.randrange(8, len(bad))
    return bytes(bad[:cut]), f"tail {cut}"


def run(plan, x, out):
    return subprocess.run([TIGRIS, "run", str(plan), "--input", str(x), "--output", str(out)],
                          capture_output=True, text=True)


@pytest.fixture(scope="module")
def plans():
    WORK_DIR.mkdir(parents=True, exist_ok=True)
    made = []
    for name, model, budget, options in PLANS:
        if not model.exists():
            pytest.fail(f"{model} is missing (TIGRIS_MODELS_DIR, or build tigris_test_models)")
        plan = WORK_DIR / f"integrity_{name}.tgrs"
        tigris("compile", model, "-m", budget, *options, "-o", plan)
        info = json.loads(tigris("inspect", "--json", plan).stdout)
        tensor = info["tensors"][info["plan"]["inputs"][0]]
        x = WORK_DIR / f"integrity_{name}.in.npy"
        # Float inputs are quantized by `tigris run` for an int8 plan (its input scale).
        np.save(x, np.random.default_rng(3).uniform(-1, 1, tensor["onnx_shape"])
                .astype(np.float32))
        out = WORK_DIR / f"integrity_{name}.out.npy"
        result = run(plan, x, out)
        assert result.returncode == 0, result.stderr
        made.append((name, plan, x, np.load(out).tobytes()))
    return made


@pytest.mark.parametrize("kind", ["bit", "multi"])
def test_damaged_plans_are_refused_or_harmless(plans, kind):
    rng = random.Random(42 if kind == "bit" else 43)
    jobs = []
    for k in range(TRIALS):
        name, plan, x, reference = plans[k % len(plans)]
        bad, where = corrupt(plan.read_bytes(), rng, kind)
        path = WORK_DIR / f"integrity_{kind}_{k}.tgrs"
        path.write_bytes(bad)
        jobs.append((name, path, x, reference, where))

    def trial(job):
        name, path, x, reference, where = job
        out = path.with_suffix(".out.npy")
        result = run(path, x, out)
        if result.returncode < 0 or result.returncode > 1:
            outcome = "crashed"
        elif result.returncode == 1:
            named = "tigris: error:" in result.stderr and "TGRS_ERR_" in result.stderr
            outcome = "refused" if named else "unnamed"
        else:
            outcome = "same" if np.load(out).tobytes() == reference else "silent"
        path.unlink()
        out.unlink(missing_ok=True)
        return name, outcome, where, result.stderr.strip()[-200:]

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = list(pool.map(trial, jobs))

    counts = {}
    for name, outcome, _, _ in results:
        counts[(name, outcome)] = counts.get((name, outcome), 0) + 1
    outcomes = ("refused", "same", "silent", "unnamed", "crashed")
    lines = [f"{kind} corruptions, {TRIALS} trials: " + ", ".join(
        f"{o} {sum(v for (n, oo), v in counts.items() if oo == o)}" for o in outcomes)]
    for name, *_ in PLANS:
        lines.append(f"  {name:<22} " + ", ".join(f"{o} {counts.get((name, o), 0)}"
                                                  for o in outcomes))
    with SUMMARY.open("a") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    bad = [r for r in results if r[1] in ("silent", "unnamed", "crashed")]
    assert not bad, "\n".join(f"{n}: {o} after {w}: {e}" for n, o, w, e in bad[:10])


def test_inspect_prints_the_plans_sha256(plans):
    """The digest a firmware holds for tgrs_plan_check_digest is the file's SHA-256, as
    Python's hashlib computes it (an independent implementation)."""
    for _, plan, _, _ in plans:
        info = json.loads(tigris("inspect", "--json", plan).stdout)
        assert info["plan"]["integrity"]["sha256"] == hashlib.sha256(plan.read_bytes()).hexdigest()
        assert info["plan"]["integrity"]["checksum"] == "crc32c"
        assert info["plan"]["integrity"]["checked"] is True
