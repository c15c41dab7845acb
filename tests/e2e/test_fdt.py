"""The two buffers feature-map tiling cannot cut (issue 14; the FDT paper,
fused-depthwise-tiling-paper.txt, section 3), split by the planner's rewrites
(docs/planning.md, "Rewrites"), compiled and run by `tigris` and compared with onnxruntime
(graph optimizations off):

* the paper's text classifier, 256 tokens looked up in a 2000 x 64 table, averaged and
  classified: embedding-as-rows makes the tokens rows of a map and the mean a pool over
  bands of them, so the 64 KiB lookup is never resident (the issue's bar: 1,280 bytes,
  what the published tigris-ml reaches by banding);

    ids[1, 256] -> Gather(table [2000, 64]) -> ReduceMean(tokens) -> Gemm(64 -> 4) -> y

* the MLP 128 -> 2048 -> 2048 -> 10, whose two 8 KiB vectors are co-resident unsplit
  (16 KiB): fdt-fan-out-fan-in splits the second hidden layer's neurons into parts, each
  adding a partial result of the classifier (the issue's bar: 0.6 x 16 KiB); with Relu,
  which fuses into the Gemms, and with a Sigmoid as the second hidden activation, an op of
  its own run on each part. Quantized to int8 QDQ, the parts keep int32 sums and the last
  one requantizes them once (the paper's int8 Merge): the split plan's output bytes are the
  unsplit plan's, at 0.6 x its 4 KiB.

* the CIFAR MobileNet's blocks (the paper's Fig. 4 FDT block: pointwise expansion,
  depthwise convolution, pointwise projection): feature-map tiling alone needs 1.8 KiB and
  recomputes halo rows; with the blocks' expanded channels split into parts it fits
  1 KiB and recomputes none.

All with no extra multiply-accumulate: the plan's MACs equal the unsplit plan's, and its
recompute is zero. The expected budgets come from the issue, not from the planner."""
import json

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper
from onnxruntime.quantization import (CalibrationDataReader, QuantFormat, QuantType,
                                      quantize_static)

from conftest import MODELS_DIR, WORK_DIR, tigris
from qdq_helpers import (RandomInputs, assert_matches_reference, float_model, he_normal,
                         onnxruntime_reference)

TOKENS, VOCAB, DIM, CLASSES = 256, 2000, 64, 4
TEXT_BUDGET = 1280                 # bytes: the bar for the text classifier
MLP_BUDGET = int(0.6 * 16 * 1024)  # 9830 bytes: 0.6 x the unsplit MLP's 16 KiB
MLP_INT8_BUDGET = int(0.6 * 4 * 1024)  # 2457 bytes: 0.6 x the unsplit int8 MLP's 4 KiB


def text_classifier():
    rng = np.random.RandomState(14)
    inits = [
        numpy_helper.from_array(rng.standard_normal([VOCAB, DIM]).astype(np.float32), "table"),
        numpy_helper.from_array((rng.standard_normal([CLASSES, DIM]) * 0.3).astype(np.float32),
                                "w"),
        numpy_helper.from_array(rng.standard_normal([CLASSES]).astype(np.float32), "b"),
    ]
    nodes = [
        helper.make_node("Gather", ["table", "ids"], ["emb"], axis=0, name="embed"),
        helper.make_node("ReduceMean", ["emb"], ["mean"], axes=[1], keepdims=0, name="mean"),
        helper.make_node("Gemm", ["mean", "w", "b"], ["y"], transB=1, name="classify"),
    ]
    graph = helper.make_graph(
        nodes, "text_classifier",
        [helper.make_tensor_value_info("ids", TensorProto.INT64, [1, TOKENS])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, CLASSES])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def mlp(activation="Relu"):
    rng = np.random.RandomState(41)
    widths = [128, 2048, 2048, 10]
    inits, nodes, x = [], [], "x"
    for i, (k, m) in enumerate(zip(widths, widths[1:])):
        inits += [he_normal(rng, f"w{i}", [m, k]),
                  numpy_helper.from_array((rng.standard_normal(m) * 0.1).astype(np.float32),
                                          f"b{i}")]
        last = i == len(widths) - 2
        out = "y" if last else f"h{i}"
        nodes.append(helper.make_node("Gemm", [x, f"w{i}", f"b{i}"], [out if last else f"g{i}"],
                                      transB=1, name=f"fc{i}"))
        if not last:
            nodes.append(helper.make_node("Relu" if i == 0 else activation, [f"g{i}"], [out],
                                          name=f"act{i}"))
        x = out
    return float_model(nodes, "mlp", [1, widths[0]], [1, widths[-1]], inits)


class RandomIds(CalibrationDataReader):
    def __init__(self, count=8):
        rng = np.random.RandomState(5)
        self._samples = iter([{"ids": rng.randint(0, VOCAB, size=[1, TOKENS]).astype(np.int64)}
                              for _ in range(count)])

    def get_next(self):
        return next(self._samples, None)


@pytest.fixture(scope="module")
def models():
    WORK_DIR.mkdir(parents=True, exist_ok=True)
    paths = {"text.float": WORK_DIR / "fdt.text.float.onnx",
             "text.int8": WORK_DIR / "fdt.text.int8.onnx", "mlp.Relu": WORK_DIR / "fdt.mlp.onnx",
             "mlp.Sigmoid": WORK_DIR / "fdt.mlp.sigmoid.onnx"}
    onnx.save(text_classifier(), paths["text.float"])
    quantize_static(str(paths["text.float"]), str(paths["text.int8"]), RandomIds(),
                    quant_format=QuantFormat.QDQ, per_channel=True,
                    activation_type=QuantType.QInt8, weight_type=QuantType.QInt8)
    onnx.save(mlp(), paths["mlp.Relu"])
    onnx.save(mlp("Sigmoid"), paths["mlp.Sigmoid"])
    for activation, per_channel in (("Relu", True), ("Sigmoid", False)):
        key = f"mlp.{activation}.int8"
        paths[key] = WORK_DIR / f"fdt.{key}.onnx"
        quantize_static(str(paths[f"mlp.{activation}"]), str(paths[key]),
                        RandomInputs([1, 128], seed=3), quant_format=QuantFormat.QDQ,
                        per_channel=per_channel, activation_type=QuantType.QInt8,
                        weight_type=QuantType.QInt8)
    return paths


def analyze(path, budget, *options):
    return json.loads(tigris("analyze", path, "-m", str(budget), "--json", *options).stdout)


def compile_and_run(path, budget, feeds, tag):
    """The plan at `budget` run on `feeds` (one input); its output."""
    (name, value), = feeds.items()
    x_path = WORK_DIR / f"fdt.{tag}.{name}.npy"
    np.save(x_path, value)
    plan = WORK_DIR / f"fdt.{tag}.{budget}.tgrs"
    y_path = WORK_DIR / f"fdt.{tag}.{budget}.y.npy"
    tigris("compile", path, "-m", str(budget), "--xip", "-o", plan)
    tigris("run", plan, "--input", x_path, "--output", y_path, "--dequantize")
    return np.load(y_path)


def assert_fits_with_no_extra_macs(path, budget, rewrite):
    """The plan at `budget` fits it, made by `rewrite`, with the unsplit plan's MACs; with
    feature-map tiling alone (--no-fdt) it does not."""
    roomy, tight = analyze(path, "16M"), analyze(path, budget)
    ffmt = analyze(path, budget, "--no-fdt")
    assert ffmt["rewrites"] == [] and ffmt["verdict"] == "needs_work", ffmt["verdict"]
    assert [r["kind"] for r in roomy["rewrites"]] == []
    assert rewrite in [r["kind"] for r in tight["rewrites"]], tight["rewrites"]
    assert tight["verdict"] != "infeasible", tight["verdict"]
    assert tight["scheduled_peak_bytes"] <= budget
    assert max(s["peak_bytes"] for s in tight["stages"]) <= budget
    assert tight["totals"]["macs"] == roomy["totals"]["macs"]
    assert tight["totals"]["recompute_macs"] == 0
    return tight


@pytest.mark.parametrize("variant", ["float", "int8"])
def test_the_text_classifier_fits_1280_bytes(models, variant):
    path = models[f"text.{variant}"]
    tight = assert_fits_with_no_extra_macs(path, TEXT_BUDGET, "embedding-as-rows")
    # The lookup (64 KiB float, 16 KiB int8) is never whole: the budget holds none of it.
    assert tight["memory"]["largest_tensor"]["bytes"] > TEXT_BUDGET
    ids = np.random.RandomState(9).randint(-VOCAB, VOCAB, size=[1, TOKENS]).astype(np.int64)
    ref = onnxruntime_reference(path, {"ids": ids})[0]
    for budget in ("16M", TEXT_BUDGET):
        y = compile_and_run(path, budget, {"ids": ids}, f"text.{variant}")
        assert_matches_reference(y, ref, path, variant, f"budget {budget}", float_tolerance=1e-5,
                                 max_lsb=1)


def test_an_id_outside_the_table_is_refused_in_a_tile_loop(models):
    """The banded lookup checks each id before reading its row, as the whole one does."""
    ids = np.zeros([1, TOKENS], np.int64)
    ids[0, 200] = VOCAB
    x_path = WORK_DIR / "fdt.text.bad_ids.npy"
    np.save(x_path, ids)
    plan = WORK_DIR / "fdt.text.bad.tgrs"
    tigris("compile", models["text.float"], "-m", str(TEXT_BUDGET), "--xip", "-o", plan)
    result = tigris("run", plan, "--input", x_path, "--output", WORK_DIR / "fdt.text.bad.y.npy",
                    check=False)
    assert result.returncode != 0
    assert "TGRS_ERR_INDEX_OUT_OF_RANGE" in result.stderr and "'embed'" in result.stderr, \
        result.stderr
    assert "embedding-as-rows" in [r["kind"] for r in analyze(models["text.float"],
                                                              TEXT_BUDGET)["rewrites"]]


@pytest.mark.parametrize("activation", ["Relu", "Sigmoid"])
def test_the_mlp_fits_six_tenths_of_16_kib(models, activation):
    """Relu fuses into the Gemms; a Sigmoid after the second hidden layer stays an op
    between the split pair, run on each part. (After the first, it would hold its 8 KiB
    input and output at once, 16 KiB: an elementwise op on a vector is not tiled.)"""
    path = models[f"mlp.{activation}"]
    tight = assert_fits_with_no_extra_macs(path, MLP_BUDGET, "fdt-fan-out-fan-in")
    assert analyze(path, 16 * 1024)["rewrites"] == []  # unsplit, it fits 16 KiB exactly
    x = np.random.RandomState(2).standard_normal([1, 128]).astype(np.float32)
    ref = onnxruntime_reference(path, {"x": x})[0]
    for budget in ("16M", MLP_BUDGET):
        y = compile_and_run(path, budget, {"x": x}, f"mlp.{activation}")
        # Partial sums change only the summation order (the issue: within 1e-5 relative).
        np.testing.assert_allclose(y, ref, rtol=1e-5, atol=1e-5 * np.abs(ref).max(),
                                   err_msg=f"budget {budget}")
    assert len(tight["rewrites"]) == 1, tight["rewrites"]


@pytest.mark.parametrize("activation", ["Relu", "Sigmoid"])
def test_the_int8_mlp_split_is_bit_identical_to_the_unsplit_one(models, activation):
    """int8 QDQ (Relu: weights per channel; Sigmoid: per tensor, a LUT op on each part): the
    split plan at 0.6 x 4 KiB writes the unsplit plan's bytes, so its partial sums were never
    requantized, and both are within 1 LSB of onnxruntime. Its runtime needs the int8 GEMM
    parts, which `--ops-header` names only for the split plan."""
    path = models[f"mlp.{activation}.int8"]
    tight = assert_fits_with_no_extra_macs(path, MLP_INT8_BUDGET, "fdt-fan-out-fan-in")
    assert analyze(path, 4 * 1024)["rewrites"] == []  # unsplit, it fits 4 KiB exactly
    x = np.random.RandomState(2).standard_normal([1, 128]).astype(np.float32)
    ref = onnxruntime_reference(path, {"x": x})[0]
    outputs = {}
    for budget in ("16M", MLP_INT8_BUDGET):
        outputs[budget] = compile_and_run(path, budget, {"x": x}, f"mlp.{activation}.int8")
        assert_matches_reference(outputs[budget], ref, path, "int8", f"budget {budget}",
                                 max_lsb=1)
    np.testing.assert_array_equal(outputs[MLP_INT8_BUDGET], outputs["16M"])
    assert len(tight["rewrites"]) == 1, tight["rewrites"]
    for budget, split in (("16M", False), (MLP_INT8_BUDGET, True)):
        header = WORK_DIR / f"fdt.mlp.{activation}.int8.{budget}.ops.h"
        tigris("inspect", WORK_DIR / f"fdt.mlp.{activation}.int8.{budget}.tgrs",
               "--ops-header", header)
        assert ("#define TGRS_WITH_GEMM_PARTS 1" in header.read_text()) == split, budget


def test_depthwise_blocks_split_into_half_the_memory_without_recompute():
    """The float CIFAR MobileNet at 1 KiB: feature-map tiling alone (--no-fdt) cannot fit
    it (its smallest is 1,808 B, with recompute); with its blocks split
    (fdt-fan-out-fan-in on the convolutions around their depthwise ones) it fits with no
    extra MACs, and runs within 1e-5 of the untiled plan (partial sums add in another
    order) and within 1e-4 of onnxruntime, with the same class."""
    path = MODELS_DIR / "onnx" / "cifar_mobilenet_relu6.onnx"
    budget = 1024
    ffmt, split = analyze(path, budget, "--no-fdt"), analyze(path, budget)
    assert ffmt["verdict"] == "needs_work", ffmt["verdict"]
    assert "fdt-fan-out-fan-in" in [r["kind"] for r in split["rewrites"]]
    assert split["verdict"] != "needs_work" and split["scheduled_peak_bytes"] <= budget
    assert split["totals"]["recompute_macs"] == 0
    assert split["totals"]["macs"] == ffmt["totals"]["macs"]
    x = np.random.RandomState(3).standard_normal([1, 3, 32, 32]).astype(np.float32)
    feeds = {onnx.load(str(path)).graph.input[0].name: x}
    ref = onnxruntime_reference(path, feeds)[0]
    untiled = compile_and_run(path, "64M", feeds, "cifar").reshape(ref.shape)
    y = compile_and_run(path, budget, feeds, "cifar").reshape(ref.shape)
    np.testing.assert_allclose(y, untiled, rtol=0, atol=1e-5 * np.abs(untiled).max())
    np.testing.assert_allclose(y, ref, rtol=0, atol=1e-4 * np.abs(ref).max())
    assert y.argmax() == ref.argmax()
