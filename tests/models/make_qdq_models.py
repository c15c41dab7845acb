#!/usr/bin/env python3
"""Generates int8 QDQ variants of the shared float ONNX models for the tests.

For every <stem>.onnx in the model folder this writes, into the output folder:
  <stem>.int8.onnx   activations QInt8, weights QInt8 per channel (every model)
  <stem>.uint8.onnx  activations QUInt8, weights QInt8 per channel (UINT8_MODELS only)
  <stem>.u8w.onnx    activations QUInt8, weights QUInt8 per tensor (UINT8_MODELS only):
                     asymmetric weights, non-zero zero points
exactly as onnxruntime.quantization.quantize_static writes them in QuantFormat.QDQ, which
is the format the QDQ fold (libtigris/passes/qdq_fold.cc) targets.

Steps per model:
  0. models older than opset 13 are converted to opset 13 (per-channel QDQ needs it).
  1. quant_pre_process (ONNX shape inference + onnxruntime graph optimizations that
     fold BatchNormalization into Conv etc.). If it fails, the raw model is quantized and
     the reason is printed.
  2. Gemm biases of shape [1, N] are reshaped to [N] (works around two onnxruntime
     quantizer bugs, see flatten_gemm_biases).
  3. quantize_static with a deterministic calibration reader: CALIBRATION_SAMPLES inputs
     drawn from numpy RandomState(SEED) with the ONNX input shape, symbolic dims pinned
     to 1 (the batch).
It also writes synthetic models the shared ones lack, quantized the same way:
  fdt_mlp.int8.onnx  an MLP 64 -> 512 -> 512 -> 10 with Relu and random weights: its two
                     512-wide vectors are co-resident unless the planner's
                     fdt-fan-out-fan-in splits the second layer (int8 GEMM parts that keep
                     int32 sums: the Cortex-M case fdt_mlp_int8, tests/cortex-m).
  gru_kws.onnx, gru_kws.int8.onnx
                     a keyword spotter with a GRU (gru_kws.py), float and quantized (the
                     GRU a float island): the Cortex-M cases gru_kws_f32 and gru_kws_int8.
  tiny_encoder.onnx, tiny_encoder.int8.onnx
                     a transformer encoder block (tiny_encoder.py), float and quantized
                     (LayerNormalization, Softmax and Gelu float islands): the Cortex-M
                     cases tiny_encoder_f32 and tiny_encoder_int8.

A model onnxruntime cannot quantize is not skipped silently: the reason is printed and
written to <outdir>/skipped.txt ("<file>\t<reason>" per line), which the tests read.

Idempotent and fast: an output newer than both its source model and this script is kept.

Usage: make_qdq_models.py <model_dir> <out_dir> [stamp_file]
"""

import os
import sys
import tempfile
import traceback

import numpy as np
import onnx
import onnx.numpy_helper
import onnx.version_converter
from onnx import TensorProto, helper
from onnxruntime.quantization import (CalibrationDataReader, QuantFormat, QuantType,
                                      quantize_static)
from onnxruntime.quantization.shape_inference import quant_pre_process

# gru_kws.py sits beside this script, which arch_zoo/materialize.py also loads by path.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gru_kws import gru_kws  # noqa: E402
from tiny_encoder import tiny_encoder  # noqa: E402

SEED = 1234
CALIBRATION_SAMPLES = 8
# Small models that also get a uint8-activation variant (the fold's uint8 -> int8 shift).
UINT8_MODELS = {"mnist8", "kws_small_cnn"}
SKIP_FILE = "skipped.txt"
MIN_OPSET = 13  # per-channel QDQ

_ONNX_TO_NUMPY = {
    onnx.TensorProto.FLOAT: np.float32,
    onnx.TensorProto.DOUBLE: np.float64,
    onnx.TensorProto.INT64: np.int64,
    onnx.TensorProto.INT32: np.int32,
}


def graph_inputs(model):
    """(name, shape with symbolic dims pinned to 1, numpy dtype) of each non-initializer input."""
    initializers = {i.name for i in model.graph.initializer}
    out = []
    for value in model.graph.input:
        if value.name in initializers:
            continue
        tensor_type = value.type.tensor_type
        shape = [d.dim_value if d.HasField("dim_value") and d.dim_value > 0 else 1
                 for d in tensor_type.shape.dim]
        out.append((value.name, shape, _ONNX_TO_NUMPY.get(tensor_type.elem_type, np.float32)))
    return out


class RandomCalibrationReader(CalibrationDataReader):
    """CALIBRATION_SAMPLES deterministic standard-normal samples per graph input."""

    def __init__(self, model):
        rng = np.random.RandomState(SEED)
        inputs = graph_inputs(model)
        self._samples = [
            {name: rng.standard_normal(shape).astype(dtype) for name, shape, dtype in inputs}
            for _ in range(CALIBRATION_SAMPLES)
        ]
        self._next = 0

    def get_next(self):
        if self._next >= len(self._samples):
            return None
        self._next += 1
        return self._samples[self._next - 1]

    def rewind(self):
        self._next = 0


def up_to_date(output, sources):
    if not os.path.exists(output):
        return False
    newest_source = max(os.path.getmtime(s) for s in sources)
    return os.path.getmtime(output) >= newest_source


def upgrade_opset(source, workdir, stem):
    """Per-channel DequantizeLinear (its `axis` attribute) needs opset 13, but
    quantize_static keeps the model's opset and writes an invalid model for older ones
    (onnxruntime then refuses to load it: "Unrecognized attribute: axis")."""
    model = onnx.load(source)
    opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 0)
    if opset >= MIN_OPSET:
        return source
    target = os.path.join(workdir, stem + ".opset13.onnx")
    onnx.save(onnx.version_converter.convert_version(model, MIN_OPSET), target)
    return target


def preprocess(source, workdir, stem):
    """Returns the path of the model to quantize: pre-processed, or the raw model on failure."""
    target = os.path.join(workdir, stem + ".pre.onnx")
    try:
        # Symbolic shape inference targets transformers (and needs sympy); ONNX shape
        # inference covers these CNNs, whose only symbolic dim is the batch.
        quant_pre_process(source, target, skip_symbolic_shape=True)
        return target
    except Exception as e:  # onnxruntime raises many types; the reason is what matters
        print(f"  quant_pre_process failed for {stem} ({type(e).__name__}: {e}); "
              "quantizing the raw model", flush=True)
        return source


def flatten_gemm_biases(source, workdir, stem):
    """Gemm biases of shape [1, N] become [N] (the same values under Gemm's broadcast).

    quant_pre_process fuses mnist8's MatMul + Add into a Gemm with a [1, 10] bias, and
    onnxruntime 1.31's quantize_static mishandles it twice: its per-channel int32-bias
    weight-scale adjustment raises "ValueError: The truth value of an array ...", and with
    that adjustment disabled it writes DequantizeLinear(bias[1, 10], scale[10], axis=0),
    which is invalid (dim 0 has 1 entry) and fails in onnxruntime itself once graph
    optimizations are off."""
    model = onnx.load(source)
    initializers = {i.name: i for i in model.graph.initializer}
    changed = False
    for node in model.graph.node:
        if node.op_type != "Gemm" or len(node.input) < 3 or node.input[2] not in initializers:
            continue
        bias = initializers[node.input[2]]
        if len(bias.dims) == 2 and bias.dims[0] == 1:
            values = onnx.numpy_helper.to_array(bias).reshape(-1)
            bias.CopyFrom(onnx.numpy_helper.from_array(values, bias.name))
            changed = True
    if not changed:
        return source
    # Drop the now stale declared shapes of initializers (value_info, and graph inputs,
    # which list initializers too in IR version < 4).
    for values in (model.graph.value_info, model.graph.input):
        for value in list(values):
            if value.name in initializers:
                values.remove(value)
    target = os.path.join(workdir, stem + ".bias1d.onnx")
    onnx.save(model, target)
    return target


def quantize(source, output, activation_type, weight_type=QuantType.QInt8, per_channel=True):
    model = onnx.load(source)
    with tempfile.TemporaryDirectory() as workdir:
        stem = os.path.basename(output).split(".")[0]
        to_quantize = preprocess(upgrade_opset(source, workdir, stem), workdir, stem)
        to_quantize = flatten_gemm_biases(to_quantize, workdir, stem)
        partial = output + ".partial"
        quantize_static(to_quantize, partial, RandomCalibrationReader(model),
                        quant_format=QuantFormat.QDQ, per_channel=per_channel,
                        activation_type=activation_type, weight_type=weight_type)
        os.replace(partial, output)  # never leave a half-written model that looks current


def fdt_mlp():
    """The float MLP behind fdt_mlp.int8.onnx (see the module docstring)."""
    rng = np.random.RandomState(SEED)
    widths = [64, 512, 512, 10]
    inits, nodes, x = [], [], "x"
    for i, (k, m) in enumerate(zip(widths, widths[1:])):
        w = (rng.standard_normal([m, k]) * np.sqrt(2.0 / k)).astype(np.float32)
        b = (rng.standard_normal(m) * 0.1).astype(np.float32)
        inits += [onnx.numpy_helper.from_array(w, f"w{i}"),
                  onnx.numpy_helper.from_array(b, f"b{i}")]
        last = i == len(widths) - 2
        g = "y" if last else f"g{i}"
        nodes.append(
            helper.make_node("Gemm", [x, f"w{i}", f"b{i}"], [g], transB=1, name=f"fc{i}"))
        if not last:
            nodes.append(helper.make_node("Relu", [g], [f"h{i}"], name=f"relu{i}"))
            x = f"h{i}"
    graph = helper.make_graph(
        nodes, "fdt_mlp", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, widths[0]])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, widths[-1]])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def write_fdt_mlp(out_dir, script):
    output = os.path.join(out_dir, "fdt_mlp.int8.onnx")
    if up_to_date(output, [script]):
        return
    print("writing fdt_mlp.int8.onnx", flush=True)
    with tempfile.TemporaryDirectory() as workdir:
        source = os.path.join(workdir, "fdt_mlp.onnx")
        onnx.save(fdt_mlp(), source)
        quantize(source, output, QuantType.QInt8)


def write_float_and_int8(out_dir, script, build):
    """STEM.onnx from `build` (a function of tests/models, named STEM) and its QDQ form
    STEM.int8.onnx, rewritten when the script or build's file changed:
      gru_kws       quantize_static quantizes the convolution and the classifier and
                    leaves the GRU float between them;
      tiny_encoder  it quantizes every MatMul (attention's two products of run-time
                    operands among them) and leaves LayerNormalization, Softmax and Gelu
                    float between them."""
    stem = build.__name__
    source = os.path.join(out_dir, f"{stem}.onnx")
    output = os.path.join(out_dir, f"{stem}.int8.onnx")
    recipe = [script, build.__code__.co_filename]
    if up_to_date(source, recipe) and up_to_date(output, recipe):
        return
    print(f"writing {stem}.onnx, {stem}.int8.onnx", flush=True)
    onnx.save(build(), source)
    quantize(source, output, QuantType.QInt8)


def main(argv):
    if len(argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    model_dir, out_dir = argv[1], argv[2]
    os.makedirs(out_dir, exist_ok=True)
    script = os.path.abspath(__file__)
    models = sorted(f for f in os.listdir(model_dir) if f.endswith(".onnx"))
    if not models:
        print(f"no .onnx models in {model_dir}", file=sys.stderr)
        return 1

    skipped = []
    for file in models:
        stem = file[: -len(".onnx")]
        source = os.path.join(model_dir, file)
        variants = [("int8", (QuantType.QInt8,))]
        if stem in UINT8_MODELS:
            variants.append(("uint8", (QuantType.QUInt8,)))
            variants.append(("u8w", (QuantType.QUInt8, QuantType.QUInt8, False)))
        for suffix, quant_types in variants:
            output = os.path.join(out_dir, f"{stem}.{suffix}.onnx")
            if up_to_date(output, [source, script]):
                continue
            print(f"quantizing {file} -> {os.path.basename(output)}", flush=True)
            try:
                quantize(source, output, *quant_types)
            except Exception as e:
                reason = f"{type(e).__name__}: {e}".replace("\n", " ").replace("\t", " ")
                print(f"  SKIPPED {os.path.basename(output)}: onnxruntime could not quantize "
                      f"{file}: {reason}", flush=True)
                traceback.print_exc()
                skipped.append(f"{os.path.basename(output)}\t{reason}")
                if os.path.exists(output):  # a stale model must not pass for this one
                    os.remove(output)

    write_fdt_mlp(out_dir, script)
    write_float_and_int8(out_dir, script, gru_kws)
    write_float_and_int8(out_dir, script, tiny_encoder)

    # Rewritten on every run, so a model that starts to quantize leaves the list. Outputs
    # kept as up to date above never failed, so they never belong in it.
    with open(os.path.join(out_dir, SKIP_FILE), "w") as f:
        for line in skipped:
            f.write(line + "\n")
    if len(argv) == 4:
        with open(argv[3], "w") as f:
            f.write("ok\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
