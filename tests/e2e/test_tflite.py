"""The .tflite front end on real files (issue 41), each run as the file has it (NHWC int8
in, int8 out) on an int8 input for which TensorFlow Lite Micro's own output is recorded
(tflite-micro's Python interpreter, TFLM's reference kernels):

- the five shared TFLite models (MODELS_DIR/tflite: MLPerf Tiny references and TFLM's
  person detection; TFLM outputs in MODELS_DIR/tflite/tflm);
- seven common Keras architectures at a tiny size, converted by TensorFlow's converter as
  a TFLM user converts (full integer) with tests/models/make_tflite_models.py, a tool run
  once; the files and TFLM's outputs are committed in tests/models/tflite.

A plan compiled from a .tflite computes in TFLite's integer arithmetic (Op.rounding,
docs/tflite.md), so its output bytes must be TFLM's, at 64 MiB (untiled) and at 4 KiB
(tiled), where `tigris analyze` must also accept exactly when `tigris compile` does. The
shared models' tf2onnx conversions, compiled by the ONNX front end, keep ONNX's arithmetic
(one rounding, half to even: onnxruntime's bytes, tests/e2e/test_equivalence.py); the test
states how far that is from TFLM, so the two arithmetics stay told apart.
"""
import json

import numpy as np
import pytest

from conftest import MODELS_DIR, SOURCE_DIR, WORK_DIR, record, tigris
from plan_checks import run_plan

SHARED = MODELS_DIR / "tflite"
KERAS = SOURCE_DIR / "tests" / "models" / "tflite"
TFLITE_MODELS = [
    "mlperf_ad_autoencoder_int8", "mlperf_ic_resnet8_int8", "mlperf_kws_dscnn_int8",
    "mlperf_vww_mbv1_025_int8", "person_detect_int8", "keras_autoencoder", "keras_ds_cnn",
    "keras_mobilenet_v1", "keras_mobilenet_v2", "keras_resnet", "keras_squeeze_excite",
    "keras_unet",
]
# The tf2onnx conversions in ONNX's arithmetic: largest |ours - TFLM| in LSB
# (docs/tflite.md); at least one differs, or the test could not tell the two apart.
ONNX_ARITHMETIC_MAX_LSB = {
    "mlperf_ad_autoencoder_int8": 1,
    "mlperf_ic_resnet8_int8": 19,
    "mlperf_kws_dscnn_int8": 4,
    "mlperf_vww_mbv1_025_int8": 0,
    "person_detect_int8": 1,
}
BUDGETS = ["64M", "4K"]


def files(stem):
    """(model, input, TFLM output, tf2onnx conversion or None)."""
    if stem.startswith("keras_"):
        return (KERAS / f"{stem}.tflite", KERAS / f"{stem}.input.npy",
                KERAS / f"{stem}.tflm_output.npy", None)
    return (SHARED / f"{stem}.tflite", SHARED / "tflm" / f"{stem}.input.npy",
            SHARED / "tflm" / f"{stem}.tflm_output.npy",
            MODELS_DIR / "onnx-from-tflite" / f"{stem}.onnx")


def compile_plan(model, budget):
    """The plan, or None when compile refuses; analyze's verdict must agree."""
    analysis = tigris("analyze", model, "-m", budget, "--json", check=False)
    fits = analysis.returncode == 0 and json.loads(analysis.stdout)["verdict"] != "needs_work"
    out = WORK_DIR / f"tflite.{model.name}.{budget}.tgrs"
    compiled = tigris("compile", model, "-m", budget, "--xip", "-o", out, check=False)
    assert fits == (compiled.returncode == 0), (
        f"{model.name} at {budget}: analyze {'fits' if fits else 'refuses'}, compile "
        f"{'succeeds' if compiled.returncode == 0 else 'refuses: ' + compiled.stderr}")
    return out if fits else None


@pytest.mark.parametrize("stem", TFLITE_MODELS)
def test_tflite_file_gives_tflm_bytes_at_every_budget(stem):
    model, x_path, tflm_path, _ = files(stem)
    tflm = np.load(tflm_path)
    for budget in BUDGETS:
        plan = compile_plan(model, budget)
        assert plan is not None or budget != "64M", f"{stem} does not compile at 64M"
        if plan is None:
            continue
        ours, _ = run_plan(plan, x_path, "tflm")
        assert ours.dtype == np.int8 and ours.shape == tflm.shape, (ours.dtype, ours.shape)
        lsb = int(np.abs(ours.astype(np.int64) - tflm.astype(np.int64)).max())
        record(f"tflite {stem}", budget=budget, max_lsb=lsb)
        assert ours.tobytes() == tflm.tobytes(), f"{stem} at {budget}: {lsb} LSB from TFLM"


OP_CASES = KERAS / "ops"


@pytest.mark.parametrize("stem", sorted(p.stem for p in OP_CASES.glob("*.tflite")))
def test_single_op_gives_tflm_bytes(stem):
    """The ops TFLite computes with integer algorithms of their own (tables filled by TFLite's
    algorithm, the fixed-point softmax, MEAN's folded requantization) and ARG_MAX / ARG_MIN's
    int32 indices, one op per case at chosen quantizations, every int8 code for the
    elementwise ones (tests/models/make_tflite_op_cases.py)."""
    tflm = np.load(OP_CASES / f"{stem}.tflm_output.npy")
    ours, _ = run_plan(compile_plan(OP_CASES / f"{stem}.tflite", "64M"),
                       OP_CASES / f"{stem}.input.npy", "tflm")
    assert ours.dtype == tflm.dtype and ours.shape == tflm.shape, (ours.dtype, ours.shape)
    wrong = np.flatnonzero(ours.reshape(-1) != tflm.reshape(-1))
    x = np.load(OP_CASES / f"{stem}.input.npy").reshape(-1)
    assert wrong.size == 0, (
        f"{stem}: {wrong.size} of {tflm.size} values differ from TFLM, e.g. at {wrong[0]}: "
        f"ours {ours.reshape(-1)[wrong[0]]}, TFLM {tflm.reshape(-1)[wrong[0]]}"
        + (f" (input {x[wrong[0]]})" if x.size == tflm.size else ""))


@pytest.mark.parametrize("stem", sorted(ONNX_ARITHMETIC_MAX_LSB))
def test_tf2onnx_conversion_keeps_onnx_arithmetic(stem):
    _, x_path, tflm_path, converted = files(stem)
    tflm = np.load(tflm_path)
    ours, _ = run_plan(compile_plan(converted, "64M"), x_path, "tflm")
    lsb = int(np.abs(ours.astype(np.int64) - tflm.astype(np.int64)).max())
    record(f"tf2onnx {stem}", budget="64M", max_lsb=lsb)
    assert lsb <= ONNX_ARITHMETIC_MAX_LSB[stem], f"{stem}: {lsb} LSB from TFLM"
    assert ours.argmax() == tflm.argmax() or "autoencoder" in stem
    if stem == "mlperf_ic_resnet8_int8":
        assert lsb > 0, "ONNX's arithmetic gave TFLM's bytes: the test no longer tells them apart"


def test_tflite_input_and_output_are_the_files():
    """The plan takes the file's input tensor as the file has it (name, NHWC shape, int8
    with the file's scale and zero point) and returns the file's output tensor; nothing
    float is left at either edge."""
    plan = compile_plan(SHARED / "mlperf_vww_mbv1_025_int8.tflite", "64M")
    info = json.loads(tigris("inspect", plan, "--json").stdout)
    x = info["tensors"][info["plan"]["inputs"][0]]
    y = info["tensors"][info["plan"]["outputs"][0]]
    assert (x["name"], x["onnx_shape"], x["dtype"]) == ("input_1_int8", [1, 96, 96, 3], "INT8")
    assert x["quant"]["zero_point"] == [-128]
    assert abs(x["quant"]["scale"][0] - 1 / 255) < 1e-9
    assert (y["name"], y["onnx_shape"], y["dtype"]) == ("Identity_int8", [1, 2], "INT8")
