"""One RAM, nothing external (issue 39; docs/memories.md, "One RAM"): `tigris compile -m
SIZE -m 0` puts scratch and spills in one SRAM of SIZE bytes. At the footprints the docs
and bench/one_memory.py state, each model compiles, both arenas fit the SRAM together,
`tigris run --target` (one SRAM) accepts the plan, and its output bytes are the untiled
weights-in-place run's. The shorthand is the one-SRAM target: the same plan, byte for byte.
"""
import pytest

from conftest import WORK_DIR, tigris
from plan_checks import check_memory_promise, inspect, run_plan
from test_equivalence import model_path, reference, untiled_bytes

# The smallest one-SRAM footprints, bytes (bench/one_memory.py --build build, 2026-11-28;
# docs/memories.md). A change that needs more fails here.
FOOTPRINTS = {
    ("mlperf_kws_dscnn_int8", "tflite"): 8_784,
    ("mlperf_vww_mbv1_025_int8", "tflite"): 23_040,
    ("person_detect_int8", "tflite"): 23_040,
    ("mlperf_ic_resnet8_int8", "tflite"): 36_352,
    ("mlperf_ad_autoencoder_int8", "tflite"): 768,
    ("mobilenet_v2_035_144", "int8"): 38_304,
    ("cifar_mobilenet_relu6", "int8"): 6_480,
}
CASES = sorted(FOOTPRINTS)


def one_sram_target(size):
    path = WORK_DIR / f"one_sram_{size}.yaml"
    path.write_text(f"memories:\n  - {{name: SRAM, size: {size}}}\n"
                    "  - {name: FLASH, size: 16M, read_only: true}\n")
    return path


@pytest.mark.parametrize("stem,variant", CASES, ids=[f"{s}-{v}" for s, v in CASES])
def test_one_memory_footprint_runs_to_the_untiled_bytes(stem, variant):
    size = FOOTPRINTS[(stem, variant)]
    model = model_path(stem, variant)
    if not model.exists():
        pytest.fail(f"{model} missing: the build generates it (tests/models)")
    plan = WORK_DIR / f"{stem}.{variant}.one_memory.tgrs"
    compiled = tigris("compile", model, "-m", size, "-m", "0", "-o", plan)
    header = inspect(plan)["plan"]
    # One arena, the spills at its top (plan/joint_arena.h).
    assert header["slow_arena_bytes"] == 0, compiled.stdout
    assert header["fast_arena_bytes"] <= size, compiled.stdout
    assert "SRAM" in compiled.stdout and "scratch" in compiled.stdout, compiled.stdout

    # analyze says what compile did.
    analysis = tigris("analyze", model, "-m", size, "-m", "0")
    assert "verdict   needs_work" not in analysis.stdout, analysis.stdout

    # The shorthand is the one-SRAM target.
    target = one_sram_target(size)
    twin = WORK_DIR / f"{stem}.{variant}.one_memory.target.tgrs"
    tigris("compile", model, "--target", target, "-o", twin)
    assert plan.read_bytes() == twin.read_bytes(), "-m SIZE -m 0 and the target differ"

    x_path, _ = reference(stem, variant)
    tigris("run", plan, "--target", target, "--input", x_path,
           "--output", WORK_DIR / f"{stem}.{variant}.one_memory.target.out.npy")
    y, stats = run_plan(plan, x_path, "one_memory")
    check_memory_promise(plan, stats)
    assert y.tobytes() == untiled_bytes(stem, variant)


def test_too_small_names_the_least_split():
    """Below every split the compiler can make, the refusal says the least it found."""
    model = model_path("mlperf_vww_mbv1_025_int8", "tflite")
    result = tigris("compile", model, "-m", "8K", "-m", "0", "-o",
                    WORK_DIR / "vww.one_memory.8k.tgrs", check=False)
    assert result.returncode == 1
    assert "[TIGRIS_ERR_SLOW_BUDGET_TOO_SMALL]" in result.stderr, result.stderr
    assert "the least any split needs is " in result.stderr, result.stderr
