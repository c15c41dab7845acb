"""The verdict is a promise (issue 37): for every model a user brings, at every budget of a
ladder from roomy down to the smallest one `tigris analyze` accepts,

  analyze says it fits  <=>  `tigris compile` succeeds,

and every plan compile makes passes the runtime's verifier, runs with the output bytes of
the untiled plan (a float plan whose layers an FDT split divided adds partial sums in
another order: within 1e-5 of the largest magnitude), touches exactly its planned fast
arena, and the untiled plan agrees with onnxruntime: float within 1e-4 of the output's
largest magnitude; int8 within 1 LSB on >= 99% of the elements, or, where deep networks
compound onnxruntime's float rounding ties (MobileNetV3's HardSigmoids amplify them), every
op code that first diverges is within 1 LSB when run alone on onnxruntime's own inputs
(op_isolation.py: drift, not a wrong kernel).

A budget analyze accepts and compile refuses, or the reverse, is a failure, never a skip;
2% below the smallest budget the two must agree as well.

The models: every shared ONNX model, float and int8 (tests/models/make_qdq_models.py), the
five int8 models tf2onnx converted from TFLite, the five .tflite files themselves and
seven Keras architectures converted by TensorFlow (tests/models/tflite; through the TFLite
front end, in TFLite's arithmetic: their untiled plan is held to TFLM's bytes by
test_tflite.py, not to onnxruntime's here), and the architecture zoo exported from
torchvision (tests/models/arch_zoo: squeeze-excite, upsampling heads, channel split and
shuffle, dense and inception blocks), float and int8, materialized by the build with
random weights. Two ctest entries run it, one per model family (-k shared, -k zoo), so they
share the CI's two cores with the other suites.

The ladder: 64M (untiled), then 1M, 256K, 64K, 16K, 4K and 1K while above the smallest
budget, then the smallest (bisected over analyze to 2%), then 2% below it. Heavy models
(HEAVY: a run takes seconds in reference C, or the plan is tens of MB) run only the untiled
plan and the smallest; every budget of their ladder is still compiled and checked against
analyze.
"""
import dataclasses
import functools
import json
import pathlib

import numpy as np
import onnxruntime as ort
import pytest

from conftest import BUILD_DIR, MODELS_DIR, SOURCE_DIR, WORK_DIR, record, tigris
from op_isolation import drift_or_bug
from plan_checks import check_memory_promise, inspect, run_plan
from qdq_helpers import reference_run

KIB, MIB = 1024, 1024 * 1024
UNTILED = 64 * MIB
LADDER = [1 * MIB, 256 * KIB, 64 * KIB, 16 * KIB, 4 * KIB, 1 * KIB]
FLOOR = 256  # no model plans below this; the bisection starts here
STEP = 0.02  # bisection resolution, and how far below the smallest budget is probed
FLOAT_TOLERANCE = 1e-4
INT8_SHARE_WITHIN_1_LSB = 0.99
SPLIT_TOLERANCE = 1e-5
ZOO_DIR = BUILD_DIR / "arch-zoo"
ZOO_MANIFEST = SOURCE_DIR / "tests" / "models" / "arch_zoo" / "manifest.json"
# Runs of these take seconds each in reference C: the untiled plan and the smallest only.
HEAVY = {"mobilenet_v2_100_224", "fcn_resnet50", "resnet18", "deeplabv3_mobilenet_v3_large",
         "densenet121"}


@dataclasses.dataclass(frozen=True)
class Model:
    family: str  # "shared" or "zoo": the ctest entry that runs it
    name: str
    # "float", "int8" (quantize_static QDQ), "tflite" (tf2onnx int8) or "tflite-file"
    # (the .tflite itself)
    variant: str
    path: pathlib.Path

    @property
    def key(self):
        return f"{self.name}.{self.variant}"


def shared_models():
    models = []
    for path in sorted((MODELS_DIR / "onnx").glob("*.onnx")):
        models.append(Model("shared", path.stem, "float", path))
        models.append(Model("shared", path.stem, "int8",
                            BUILD_DIR / "test-models" / f"{path.stem}.int8.onnx"))
    for path in sorted((MODELS_DIR / "onnx-from-tflite").glob("*.onnx")):
        models.append(Model("shared", path.stem, "tflite", path))
        models.append(Model("shared", path.stem, "tflite-file",
                            MODELS_DIR / "tflite" / f"{path.stem}.tflite"))
    # Keras architectures converted by TensorFlow (tests/models/tflite, make_tflite_models.py)
    for path in sorted((SOURCE_DIR / "tests" / "models" / "tflite").glob("*.tflite")):
        models.append(Model("shared", path.stem, "tflite-file", path))
    return models


def zoo_models():
    names = [m["name"] for m in json.loads(ZOO_MANIFEST.read_text())["models"]]
    return [Model("zoo", name, variant, ZOO_DIR / f"{name}{suffix}.onnx")
            for name in names for variant, suffix in (("float", ""), ("int8", ".int8"))]


MODELS = shared_models() + zoo_models()


def analyze_fits(model, budget):
    """(fits, what analyze said). A refusal is exit status 1 with a named status; anything
    else (a crash, a usage error) fails the test."""
    result = tigris("analyze", model.path, "-m", str(budget), "--json", check=False)
    if result.returncode == 0:
        verdict = json.loads(result.stdout)["verdict"]
        return verdict != "needs_work", verdict
    assert result.returncode == 1 and "[TIGRIS_ERR_" in result.stderr, (
        f"analyze {model.key} at {budget} exited {result.returncode}:\n{result.stderr}")
    return False, result.stderr.strip()


def plan_path(model, budget):
    return WORK_DIR / f"promise.{model.key}.{budget}.tgrs"


def compile_plan(model, budget):
    """(plan path or None, compile's message). Default options, as analyze assumes."""
    out = plan_path(model, budget)
    result = tigris("compile", model.path, "-m", str(budget), "-o", out, check=False)
    if result.returncode == 0:
        return out, ""
    assert result.returncode == 1 and "[TIGRIS_ERR_" in result.stderr, (
        f"compile {model.key} at {budget} exited {result.returncode}:\n{result.stderr}")
    return None, result.stderr.strip()


def smallest_budget(model):
    """The smallest budget analyze accepts, to STEP, by bisection between FLOOR and 64M."""
    fits = lambda budget: analyze_fits(model, budget)[0]  # noqa: E731
    assert fits(UNTILED), f"{model.key} does not fit even at 64M: {analyze_fits(model, UNTILED)}"
    lo, hi = FLOOR, UNTILED  # lo does not fit (or is the floor); hi fits
    if fits(lo):
        return lo
    while hi - lo > max(16, int(lo * STEP)):
        mid = (lo + hi) // 2
        if fits(mid):
            hi = mid
        else:
            lo = mid
    return hi


def ladder(smallest):
    return [UNTILED] + [b for b in LADDER if b > smallest * (1 + 4 * STEP)] + [smallest]


@functools.lru_cache(maxsize=None)
def reference(model):
    """A deterministic input (.npy) and onnxruntime's output for it (graph optimizations
    off, so QDQ runs as written)."""
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    session = ort.InferenceSession(str(model.path), options, providers=["CPUExecutionProvider"])
    x_path = WORK_DIR / f"promise.{model.key}.input.npy"
    return x_path, reference_run(session, x_path)


def splits_float_layers(model, budget):
    """Whether the plan splits layers by fdt-fan-out-fan-in (analyze lists its rewrites)."""
    analysis = json.loads(tigris("analyze", model.path, "-m", str(budget), "--json").stdout)
    return "fdt-fan-out-fan-in" in [r["kind"] for r in analysis["rewrites"]]


def check_against_onnxruntime(model, plan, y, ref, x_path):
    out = inspect(plan)["tensors"][inspect(plan)["plan"]["outputs"][0]]
    if out["dtype"] == "INT8":
        scale, zp = out["quant"]["scale"][0], out["quant"]["zero_point"][0]
        if ref.dtype == np.int8:
            ref_q = ref.astype(np.int64)
        else:  # the DequantizeLinear of the int8 result, back to int8 exactly
            ref_q = np.clip(np.round(ref.astype(np.float64) / scale) + zp, -128, 127)
        lsb = np.abs(y.astype(np.int64) - ref_q.astype(np.int64))
        share = float(np.mean(lsb <= 1))
        record(f"promise {model.key}", within_1_lsb=share, max_lsb=int(lsb.max()))
        if share >= INT8_SHARE_WITHIN_1_LSB:
            return
        # Off by more than rounding at the output: drift, or a wrong kernel? Every op code
        # that first diverges must be within 1 LSB when fed onnxruntime's own inputs
        # (op_isolation.py).
        report = drift_or_bug(model.path, plan, x_path, f"promise.{model.key}")
        wrong = [r for r in report if r[3] > 1]
        assert not wrong, (f"{model.key}: {100 * share:.2f}% within 1 LSB of onnxruntime, and "
                           f"ops off in isolation (op, code, chained, isolated LSB): {wrong}")
        assert report, f"{model.key}: {100 * share:.2f}% within 1 LSB, yet no op diverges"
        return
    largest = float(np.abs(ref).max()) or 1.0
    error = float(np.abs(y.astype(np.float64) - ref).max()) / largest
    record(f"promise {model.key}", max_rel_err=error)
    assert error <= FLOAT_TOLERANCE, f"{model.key}: {error:.2e} of the largest magnitude"


@pytest.mark.parametrize("model", MODELS, ids=[f"{m.family}-{m.key}" for m in MODELS])
def test_verdict_is_a_promise(model):
    if not model.path.exists():
        pytest.fail(f"{model.path} missing: the build generates it (tests/models)")
    smallest = smallest_budget(model)
    budgets = ladder(smallest)
    below = smallest - max(16, int(smallest * STEP))
    broken, plans = [], {}
    for budget in budgets + ([below] if below >= FLOOR else []):
        fits, said = analyze_fits(model, budget)
        plan, refusal = compile_plan(model, budget)
        if fits != (plan is not None):
            broken.append(f"{budget} B: analyze {'fits' if fits else 'refuses'} ({said[:200]}), "
                          f"compile {'succeeds' if plan else 'refuses: ' + refusal[:300]}")
        elif plan is not None:
            plans[budget] = plan
    assert not broken, f"{model.key}: analyze and compile disagree:\n" + "\n".join(broken)
    assert set(budgets) <= set(plans), f"{model.key}: {sorted(set(budgets) - set(plans))}"
    record(f"promise {model.key}", budget=f"{smallest}B")

    if model.variant == "tflite-file":  # no onnxruntime for a .tflite: TFLM's input
        x_path = (model.path.parent / f"{model.name}.input.npy"
                  if model.name.startswith("keras_") else
                  MODELS_DIR / "tflite" / "tflm" / f"{model.name}.input.npy")
    else:
        x_path, ref = reference(model)
    untiled, stats = run_plan(plans[UNTILED], x_path, "untiled")
    check_memory_promise(plans[UNTILED], stats)
    if model.variant != "tflite-file":
        check_against_onnxruntime(model, plans[UNTILED], untiled, ref, x_path)
    run_budgets = [smallest] if model.name in HEAVY else budgets[1:]
    for budget in run_budgets:
        y, stats = run_plan(plans[budget], x_path, str(budget))
        check_memory_promise(plans[budget], stats)
        if model.variant == "float" and splits_float_layers(model, budget):
            np.testing.assert_allclose(
                y, untiled, rtol=0, atol=SPLIT_TOLERANCE * float(np.abs(untiled).max()),
                err_msg=f"{model.key} at {budget} B: split layers too far from the untiled run")
        else:
            assert y.tobytes() == untiled.tobytes(), (
                f"{model.key} at {budget} B: output bytes differ from the untiled plan's")


# Targets (docs/memories.md): the bundled examples, the Cortex-M three-memory part, and one
# SRAM beside a flash at a roomy and a tight size (issue 39's parts: one RAM, nothing
# external). Their verdicts must agree whatever they are.
TARGETS = {
    "stm32h7": SOURCE_DIR / "examples" / "targets" / "stm32h7.yaml",
    "tcm_sram_psram_mram": SOURCE_DIR / "examples" / "targets" / "tcm_sram_psram_mram.yaml",
    "three_memories": SOURCE_DIR / "tests" / "cortex-m" / "three_memories.yaml",
    "one_sram_256k": "memories:\n  - {name: SRAM, size: 256K}\n"
                     "  - {name: FLASH, size: 16M, read_only: true}\n",
    "one_sram_48k": "memories:\n  - {name: SRAM, size: 48K}\n"
                    "  - {name: FLASH, size: 16M, read_only: true}\n",
    # Tight enough that most models need the one-memory partition, and some no split fits.
    "one_sram_24k": "memories:\n  - {name: SRAM, size: 24K}\n"
                    "  - {name: FLASH, size: 16M, read_only: true}\n",
}
TARGET_MODELS = [m for m in MODELS if m.family == "shared"]


def target_file(name):
    spec = TARGETS[name]
    if isinstance(spec, pathlib.Path):
        return spec
    path = WORK_DIR / f"promise.target.{name}.yaml"
    path.write_text(spec)
    return path


@pytest.mark.parametrize("model", TARGET_MODELS, ids=[f"shared-target-{m.key}" for m in TARGET_MODELS])
def test_target_verdict_is_a_promise(model):
    """`analyze --target` says it fits <=> `compile --target` succeeds, on every target."""
    if not model.path.exists():
        pytest.fail(f"{model.path} missing: the build generates it (tests/models)")
    broken = []
    for name in TARGETS:
        target = target_file(name)
        analysis = tigris("analyze", model.path, "--target", target, "--json", check=False)
        compiled = tigris("compile", model.path, "--target", target, "-o",
                          WORK_DIR / f"promise.{model.key}.{name}.tgrs", check=False)
        for result in (analysis, compiled):
            assert result.returncode in (0, 1) and (
                result.returncode == 0 or "[TIGRIS_ERR_" in result.stderr), result.stderr
        fits = analysis.returncode == 0 and json.loads(analysis.stdout)["verdict"] != "needs_work"
        if fits != (compiled.returncode == 0):
            said = analysis.stdout[-200:] if analysis.returncode == 0 else analysis.stderr.strip()
            broken.append(f"{name}: analyze {'fits' if fits else 'refuses'} ({said}), compile "
                          f"{'succeeds' if compiled.returncode == 0 else compiled.stderr.strip()}")
    assert not broken, f"{model.key}: analyze and compile disagree:\n" + "\n".join(broken)
