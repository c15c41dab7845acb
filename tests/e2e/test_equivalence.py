"""End-to-end equivalence: `tigris compile` + `tigris run` (the C99 runtime) against
onnxruntime, for every shared model, float32 and int8 QDQ (tests/models/make_qdq_models.py),
and the int8 models tf2onnx converted from TFLite (variant "tflite").

For each model and budget (64M = no pressure, 256K and 64K, which force partitioning,
tiling and chains, and the smallest budget the planner accepts, found by bisection over
`tigris compile` success):
  - equivalence with onnxruntime: float outputs within 1e-4 of onnxruntime's relative to
    the output's largest magnitude; int8 outputs within 1 LSB on at least 99% of the
    elements; the same top-1 class for classifiers;
  - tiling is invisible: the output bytes equal the untiled (64M) run's bytes; a float
    plan whose layers the planner split (fdt-fan-out-fan-in, issue 14) adds their partial
    sums in another order, so its outputs are held to the issue's 1e-5 of the largest
    magnitude instead (int8 splits keep int32 sums: bytes equal);
  - the memory promise: the run uses a fast arena of exactly the plan's fast_arena_bytes
    (`tigris run` defaults to the plan's sizes), the runtime's measured high-water mark
    rounded up to the 16-byte arena alignment equals fast_arena_bytes (max over stages of
    weight prefix + scheduled peak, docs/runtime-executor.md), and the poison written over
    both arenas before the run is intact beyond both high-water marks.
One non-xip LZ4 plan per model checks weights decompressed into the fast arena's prefix.
"""
import functools
import json
import re

import numpy as np
import onnxruntime as ort
import pytest

from conftest import BUILD_DIR, MODELS_DIR, SOURCE_DIR, WORK_DIR, record, tigris
from plan_checks import ALIGNMENT, check_memory_promise, inspect, run_plan
from qdq_helpers import reference_run

UNTILED = "64M"
# mobilenet_v2_100_224 is by far the heaviest model: three budgets (issue 5).
HEAVY = {"mobilenet_v2_100_224"}
# Outputs that are not class scores (an autoencoder reconstructs its input).
NOT_CLASSIFIERS = {"anomaly_fc_autoencoder", "mlperf_ad_autoencoder_int8"}
def stems():
    return sorted(p.stem for p in (MODELS_DIR / "onnx").glob("*.onnx"))


# int8 models converted from TFLite by tf2onnx (MODELS_DIR/onnx-from-tflite/README.md):
# another exporter's QDQ forms, int8 graph inputs and outputs.
TFLITE_DIR = MODELS_DIR / "onnx-from-tflite"


def tflite_stems():
    return sorted(p.stem for p in TFLITE_DIR.glob("*.onnx"))


def budgets_for(stem):
    return ["64M", "256K", "min"] if stem in HEAVY else ["64M", "256K", "64K", "min"]


def model_path(stem, variant):
    if variant == "float":
        return MODELS_DIR / "onnx" / f"{stem}.onnx"
    if variant == "tflite":
        return TFLITE_DIR / f"{stem}.onnx"
    if variant == "u8w":  # uint8 per-tensor weights with non-zero zero points
        return BUILD_DIR / "test-models" / f"{stem}.u8w.onnx"
    return BUILD_DIR / "test-models" / f"{stem}.int8.onnx"


def parse_size(text):
    units = {"K": 1024, "M": 1024 * 1024}
    return int(text[:-1]) * units[text[-1]] if text[-1] in units else int(text)


def splits_float_layers(stem, variant, budget):
    """Whether the plan at `budget` (weights in place, as compile_plan makes it) splits
    layers by fdt-fan-out-fan-in: `tigris analyze` plans the same way and lists it."""
    analysis = json.loads(tigris("analyze", model_path(stem, variant), "-m", str(budget),
                                 "--json").stdout)
    return "fdt-fan-out-fan-in" in [r["kind"] for r in analysis["rewrites"]]


@functools.lru_cache(maxsize=None)
def reference(stem, variant):
    """The deterministic input (saved as .npy) and onnxruntime's output for it."""
    options = ort.SessionOptions()
    # QDQ models run as they are (no QDQ fusion); float models only get basic folding.
    options.graph_optimization_level = (ort.GraphOptimizationLevel.ORT_DISABLE_ALL
                                        if variant != "float" else
                                        ort.GraphOptimizationLevel.ORT_ENABLE_BASIC)
    session = ort.InferenceSession(str(model_path(stem, variant)), options,
                                   providers=["CPUExecutionProvider"])
    x_path = WORK_DIR / f"{stem}.{variant}.input.npy"
    return x_path, reference_run(session, x_path)


def plan_path(stem, variant, budget, tag="xip"):
    return WORK_DIR / f"{stem}.{variant}.{budget}.{tag}.tgrs"


def compile_plan(stem, variant, budget, xip=True, lz4=False, out=None, exact=False):
    """Returns the plan path, or None when the planner cannot fit the model. xip: True
    (--weights in-place), False (the default policy, auto, which copies every stage's
    weights with lz4), or "auto"."""
    tag = {True: "xip", "auto": "auto"}.get(xip, "lz4") + (".exact" if exact else "")
    out = out or plan_path(stem, variant, budget, tag)
    args = ["compile", model_path(stem, variant), "-m", budget, "-o", out]
    if xip is True:
        args.append("--xip")
    if lz4:
        args += ["-c", "lz4"]
    if exact:
        args += ["--layout", "exact", "--time-limit", "60"]
    result = tigris(*args, check=False)
    if result.returncode == 0:
        return out
    assert "TIGRIS_ERR_DOES_NOT_FIT" in result.stderr, result.stderr
    return None


@functools.lru_cache(maxsize=None)
def min_budget(stem, variant):
    """Smallest budget (1K steps) `tigris compile --xip` accepts, by bisection."""
    probe = WORK_DIR / f"{stem}.{variant}.bisect.tgrs"
    fits = lambda k: compile_plan(stem, variant, f"{k}K", out=probe) is not None  # noqa: E731
    lo, hi = 1, None  # lo: does not fit (or the floor); hi: fits
    for k in (64, 256, 64 * 1024):
        if fits(k):
            hi = k
            break
        lo = k
    assert hi is not None, f"{stem} {variant} does not fit even at 64M"
    if lo == 1 and fits(1):
        return "1K"
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if fits(mid):
            hi = mid
        else:
            lo = mid
    return f"{hi}K"


@functools.lru_cache(maxsize=None)
def untiled_bytes(stem, variant):
    x_path, _ = reference(stem, variant)
    plan = compile_plan(stem, variant, UNTILED)
    assert plan is not None
    y, _ = run_plan(plan, x_path, "untiled")
    return y.tobytes()


def compare(stem, variant, plan, y, ref):
    """Records and returns the accuracy numbers against onnxruntime."""
    key = f"{stem} {variant}"
    out = inspect(plan)["tensors"][inspect(plan)["plan"]["outputs"][0]]
    numbers = {}
    if out["dtype"] == "INT8":
        scale, zp = out["quant"]["scale"][0], out["quant"]["zero_point"][0]
        if ref.dtype == np.int8:  # the model's output is int8 itself
            ref_q = ref.astype(np.int64)
        else:  # DequantizeLinear of the int8 result: back to int8 exactly
            ref_q = np.clip(np.round(ref.astype(np.float64) / scale) + zp, -128, 127)
        lsb = np.abs(y.astype(np.int64) - ref_q.astype(np.int64))
        numbers.update(within_1_lsb=float(np.mean(lsb <= 1)), max_lsb=int(lsb.max()))
        y_real = (y.astype(np.float64) - zp) * scale
    else:
        y_real = y.astype(np.float64)
        scale_ref = float(np.abs(ref).max()) or 1.0
        numbers["max_rel_err"] = float(np.abs(y_real - ref).max() / scale_ref)
    if stem not in NOT_CLASSIFIERS and ref.ndim == 2 and ref.shape[1] > 1:
        numbers["top1_agree"] = bool(np.argmax(y_real, axis=1).tolist() ==
                                     np.argmax(ref, axis=1).tolist())
    record(key, **numbers)
    return numbers


CASES = [(stem, variant, budget) for stem in stems() for variant in ("float", "int8")
         for budget in budgets_for(stem)]
CASES += [(stem, "tflite", budget) for stem in tflite_stems() for budget in budgets_for(stem)]
# Asymmetric weights (tests/models/make_qdq_models.py, UINT8_MODELS).
CASES += [(stem, "u8w", budget) for stem in ("kws_small_cnn", "mnist8")
          for budget in budgets_for(stem)]


@pytest.mark.parametrize("stem,variant,budget", CASES,
                         ids=[f"{s}-{v}-{b}" for s, v, b in CASES])
def test_equivalence(stem, variant, budget):
    if not model_path(stem, variant).exists():
        pytest.fail(f"{model_path(stem, variant)} missing: the build generates it (tests/models)")
    x_path, ref = reference(stem, variant)
    if budget == "min":
        budget = min_budget(stem, variant)
    plan = compile_plan(stem, variant, budget)
    if plan is None:
        assert budget != UNTILED
        pytest.skip(f"the planner cannot fit {stem} {variant} in {budget}")
    y, stats = run_plan(plan, x_path, "run")
    check_memory_promise(plan, stats)
    untiled = np.frombuffer(untiled_bytes(stem, variant), dtype=y.dtype).reshape(y.shape)
    if variant == "float" and splits_float_layers(stem, variant, budget):
        np.testing.assert_allclose(y, untiled, rtol=0, atol=1e-5 * np.abs(untiled).max(),
                                   err_msg="split layers' output too far from the untiled run's")
    else:
        identical = y.tobytes() == untiled.tobytes()
        assert identical, "tiled output differs from the untiled run's"
    record(f"{stem} {variant}", budget=budget)
    numbers = compare(stem, variant, plan, y, ref)
    if "top1_agree" in numbers:
        assert numbers["top1_agree"], numbers
    if "max_rel_err" in numbers:
        assert numbers["max_rel_err"] <= 1e-4, numbers
    if "within_1_lsb" in numbers:
        assert numbers["within_1_lsb"] >= 0.99, numbers


LZ4_CASES = [(stem, variant) for stem in stems() if stem not in HEAVY
             for variant in ("float", "int8")]


@pytest.mark.parametrize("stem,variant", LZ4_CASES, ids=[f"{s}-{v}" for s, v in LZ4_CASES])
def test_lz4_weights_in_fast_prefix(stem, variant):
    """Weights copied or LZ4-decompressed into the fast arena's reserved prefix per stage
    give the same bytes as reading them in place."""
    if not model_path(stem, variant).exists():
        pytest.fail(f"{model_path(stem, variant)} missing: the build generates it (tests/models)")
    x_path, _ = reference(stem, variant)
    plan = None
    for budget in ("256K", UNTILED):
        plan = compile_plan(stem, variant, budget, xip=False, lz4=True)
        if plan is not None:
            break
    assert plan is not None
    header = inspect(plan)["plan"]
    assert not header["xip"] and header["compression"] == "lz4"
    assert header["fast_arena_bytes"] > header["scheduled_peak_bytes"] or \
        not inspect(plan)["weights"], "the weight prefix must count in the fast arena"
    y, stats = run_plan(plan, x_path, "lz4")
    check_memory_promise(plan, stats)
    assert y.tobytes() == untiled_bytes(stem, variant)


AUTO_CASES = [(stem, variant) for stem in stems() for variant in ("float", "int8")]
AUTO_CASES += [(stem, "tflite") for stem in tflite_stems()]


@pytest.mark.parametrize("stem,variant", AUTO_CASES, ids=[f"{s}-{v}" for s, v in AUTO_CASES])
def test_default_weights_fit_256k(stem, variant):
    """`tigris compile MODEL -m 256K` with the default weight policy (auto: in place,
    copied where a stage's weights fit and are read more than once; docs/planning.md)
    succeeds for every shared model, keeps the memory promise, and gives the bytes of the
    weights-in-place untiled run: where weights are read from never changes a result."""
    if not model_path(stem, variant).exists():
        pytest.fail(f"{model_path(stem, variant)} missing: the build generates it (tests/models)")
    x_path, _ = reference(stem, variant)
    plan = compile_plan(stem, variant, "256K", xip="auto")
    assert plan is not None, f"{stem} {variant} must compile at 256K with weights in place"
    header = inspect(plan)["plan"]
    assert header["fast_arena_bytes"] <= 256 * 1024
    y, stats = run_plan(plan, x_path, "auto")
    check_memory_promise(plan, stats)
    assert y.tobytes() == untiled_bytes(stem, variant)


@pytest.mark.parametrize("stem,variant", AUTO_CASES, ids=[f"{s}-{v}" for s, v in AUTO_CASES])
def test_staged_weights_for_every_model(stem, variant):
    """`tigris compile MODEL -m 256K --weights staged` stages every constant of every shared
    model: the plan verifies (its staged range inside weight_data, whatever the last
    weight's size), each constant is placed in the constants arena, copied from the plan,
    and the plan gives the bytes of the untiled in-place run (without a context it reads
    the same bytes in place; tests/runtime/state_test.cc runs them from the arena)."""
    if not model_path(stem, variant).exists():
        pytest.fail(f"{model_path(stem, variant)} missing: the build generates it (tests/models)")
    x_path, _ = reference(stem, variant)
    plan = WORK_DIR / f"{stem}.{variant}.staged.tgrs"
    tigris("compile", model_path(stem, variant), "-m", "256K", "--weights", "staged", "-o", plan)
    doc = inspect(plan)
    constants = [p for p in doc["placements"] if p["kind"] == "CONSTANT"]
    assert constants, "every shared model has weights"
    assert {(p["memory"], p["staged_from"]) for p in constants} == {("constants", "flash")}
    assert doc["plan"]["memories"][5]["size"] <= doc["plan"]["weight_data_bytes"]
    y, stats = run_plan(plan, x_path, "staged")
    check_memory_promise(plan, stats)
    assert y.tobytes() == untiled_bytes(stem, variant)


@pytest.mark.parametrize("stem,variant", AUTO_CASES, ids=[f"{s}-{v}" for s, v in AUTO_CASES])
def test_stm32h7_target(stem, variant):
    """`tigris compile MODEL --target examples/targets/stm32h7.yaml` (DTCM 128K, AXI SRAM
    512K, PSRAM 8M, the plan in 64M of external flash) fits every shared model, each arena
    in the memory the table names and within its size, and runs to the bytes of the
    untiled weights-in-place run."""
    if not model_path(stem, variant).exists():
        pytest.fail(f"{model_path(stem, variant)} missing: the build generates it (tests/models)")
    x_path, _ = reference(stem, variant)
    plan = WORK_DIR / f"{stem}.{variant}.stm32h7.tgrs"
    result = tigris("compile", model_path(stem, variant), "--target",
                    SOURCE_DIR / "examples" / "targets" / "stm32h7.yaml", "-o", plan)
    rows = {m.group(1): (int(m.group(2)), int(m.group(3)), m.group(4)) for m in re.finditer(
        r"^(\w+) +(\d+) +(\d+) +\d+  (\S+)$", result.stdout, re.M)}
    assert set(rows) == {"DTCM", "AXI_SRAM", "PSRAM", "OSPI_FLASH"}, result.stdout
    assert all(used <= size for size, used, _ in rows.values()), result.stdout
    header = inspect(plan)["plan"]
    assert rows["DTCM"][1:] == (header["fast_arena_bytes"], "scratch"), result.stdout
    assert rows["OSPI_FLASH"][2] == "plan"
    spills = [name for name, (_, _, role) in rows.items() if role == "spills"]
    assert len(spills) == (1 if header["slow_arena_bytes"] else 0), result.stdout
    y, stats = run_plan(plan, x_path, "stm32h7")
    check_memory_promise(plan, stats)
    assert y.tobytes() == untiled_bytes(stem, variant)


# Exact layouts (docs/memory-model.md): cifar_mobilenet_relu6 is the shared model whose
# single stage the greedy layouts leave above its live bound; vww tiles at 64K.
EXACT_CASES = [(stem, variant, budget) for stem in ("cifar_mobilenet_relu6", "vww_mobilenetv1_025_96")
               for variant in ("float", "int8") for budget in (UNTILED, "64K")]


@pytest.mark.parametrize("stem,variant,budget", EXACT_CASES,
                         ids=[f"{s}-{v}-{b}" for s, v, b in EXACT_CASES])
def test_exact_layout_keeps_every_promise(stem, variant, budget):
    """An exact layout never needs more fast memory than the greedy one, the runtime's
    high-water mark still equals the plan's arena, and the output bytes do not change."""
    x_path, _ = reference(stem, variant)
    greedy = compile_plan(stem, variant, budget)
    exact = compile_plan(stem, variant, budget, exact=True)
    assert greedy is not None and exact is not None
    greedy_arena = inspect(greedy)["plan"]["fast_arena_bytes"]
    exact_arena = inspect(exact)["plan"]["fast_arena_bytes"]
    assert exact_arena <= greedy_arena
    if stem == "cifar_mobilenet_relu6" and budget == UNTILED:
        assert exact_arena < greedy_arena, "the exact layout must pack the single stage tighter"
    y, stats = run_plan(exact, x_path, "exact")
    check_memory_promise(exact, stats)
    assert y.tobytes() == untiled_bytes(stem, variant)


# Pinned tensors (docs/memories.md, "Pinned tensors"): a small DTCM makes the planner spill
# and tile, then id rules pin whole tensors (some spilled between stages, some in a normal
# stage) to SRAM. Constants stay in the plan in both compiles, so the two differ only there.
PIN_CASES = [("vww_small_cnn", "float"), ("kws_small_cnn", "int8"), ("mnist8", "float"),
             ("cifar_mobilenet_relu6", "int8")]
PIN_TARGET = ("memories:\n  - {name: DTCM, size: %s}\n  - {name: SRAM, size: 1M}\n"
              "  - {name: PSRAM, size: 8M}\n  - {name: FLASH, size: 16M, read_only: true}\n")


@pytest.mark.parametrize("stem,variant", PIN_CASES, ids=[f"{s}-{v}" for s, v in PIN_CASES])
def test_pinned_tensors_keep_every_output_byte(stem, variant):
    """Pinning moves tensors out of the scratch and spill arenas without changing a byte of
    the output (the untiled run's), and the arenas they left only shrink."""
    x_path, _ = reference(stem, variant)
    target = WORK_DIR / f"{stem}.{variant}.pin_target.yaml"
    target.write_text(PIN_TARGET % "24K")
    cold = "tensors:\n  - type: CONSTANT\n    attributes: { memory: FLASH }\n"
    base_rules = WORK_DIR / f"{stem}.{variant}.pin_base.yaml"
    base_rules.write_text(cold)
    base = WORK_DIR / f"{stem}.{variant}.pin_base.tgrs"
    tigris("compile", model_path(stem, variant), "--target", target, "--rules", base_rules,
           "-o", base)
    before = inspect(base)
    # Whole tensors (no "buffer": not a tile strip), spilled ones (in SRAM or PSRAM) first.
    whole = [p for p in before["placements"] if p["kind"] == "SCRATCH" and "buffer" not in p]
    spilled = sorted({p["tensor"] for p in whole if p["memory"] != "DTCM"})
    in_stage = sorted({p["tensor"] for p in whole if p["memory"] == "DTCM"} - set(spilled))
    chosen = spilled[:2] + in_stage[:2]
    assert chosen, before["placements"]
    pin_rules = WORK_DIR / f"{stem}.{variant}.pin.yaml"
    pin_rules.write_text(cold + "  - id: [%s]\n    attributes: { memory: SRAM }\n"
                         % ", ".join(chosen))
    pinned = WORK_DIR / f"{stem}.{variant}.pin.tgrs"
    tigris("compile", model_path(stem, variant), "--target", target, "--rules", pin_rules,
           "-o", pinned)
    after = inspect(pinned)
    moved = {p["tensor"] for p in after["placements"] if p["kind"] == "SCRATCH" and
             p["memory"] == "SRAM" and "buffer" not in p}
    assert set(chosen) <= moved, (chosen, moved)
    assert after["plan"]["schema_version"] == 4
    assert after["plan"]["fast_arena_bytes"] <= before["plan"]["fast_arena_bytes"]
    assert after["plan"]["slow_arena_bytes"] <= before["plan"]["slow_arena_bytes"]
    y, stats = run_plan(pinned, x_path, "pinned")
    assert y.tobytes() == untiled_bytes(stem, variant)
    assert stats["poison"] == ("intact", "intact"), stats["poison"]
    # The pinned arena: the plan's size, touched to its last byte, nothing beyond.
    result = tigris("run", pinned, "--input", x_path, "--output", WORK_DIR / "pinned.out.npy")
    hwm, arena = map(int, re.search(r"pinned +high-water (\d+) of (\d+) bytes",
                                    result.stdout).groups())
    assert arena == after["plan"]["memories"][6]["size"], result.stdout
    assert -(-hwm // ALIGNMENT) * ALIGNMENT == arena, result.stdout
    assert "; pinned intact" in result.stdout, result.stdout
