#!/usr/bin/env python3
"""Turns the committed weightless graphs of the architecture zoo into runnable models.

export.py strips every large float initializer from the torchvision exports (a TensorProto
with name, dims and data_type, no data, doc_string STRIPPED) so the repository holds a few
KB per model and CI needs no PyTorch. This module refills them with deterministic random
values from numpy.random.RandomState(seed), drawn in initializer order, scaled so
activations stay in a sane range through deep networks without BatchNormalization (eval
export folds it into the Conv):
  - the weight operand of Conv, Gemm and MatMul: He-normal, std = sqrt(2 / fan_in), with
    fan_in = prod(dims[1:]) for Conv, dims[1] for Gemm with transB else dims[0], dims[0]
    for MatMul;
  - the scale and variance of a BatchNormalization that could not fold (DenseNet's
    pre-activation ones, after a Concat): uniform(0.5, 1.5), a variance must be positive;
  - anything else stripped (biases, mostly): uniform(-0.1, 0.1).
The consumer that picks the rule is found through Identity nodes, which the TorchScript
exporter inserts where several Conv share one deduplicated initializer.

quantize() makes the int8 variant exactly as tests/models/make_qdq_models.py makes the
shared models' (quant_pre_process with fallback to the raw model, then quantize_static,
QDQ, per-channel QInt8 weights, QInt8 activations, 8 calibration samples of
RandomState(1234) standard normal in the input shape).

Usage: materialize.py --out DIR [--models a,b] [--int8]
writes <name>.onnx (and <name>.int8.onnx) into DIR. Idempotent: an output newer than its
inputs and the scripts that make it is kept.
"""
import argparse
import importlib.util
import os
import pathlib
import sys

import numpy as np
import onnx
from onnx import numpy_helper

HERE = pathlib.Path(__file__).resolve().parent
STRIPPED = "stripped by tests/models/arch_zoo/export.py; materialize.py refills it"
QDQ_SCRIPT = HERE.parent / "make_qdq_models.py"
WEIGHT_OPS = ("Conv", "Gemm", "MatMul")


def is_stripped(tensor):
    return tensor.doc_string == STRIPPED


def consumers(graph):
    """Maps each value name to its first consumer (node, input index), looking through
    Identity nodes."""
    first = {}
    for node in graph.node:
        for index, name in enumerate(node.input):
            first.setdefault(name, (node, index))

    def resolve(name):
        node, index = first.get(name, (None, -1))
        while node is not None and node.op_type == "Identity" and node.output[0] in first:
            node, index = first[node.output[0]]
        return node, index

    return {name: resolve(name) for name in first}


def fan_in(node, dims):
    if node.op_type == "Conv":
        return int(np.prod(dims[1:]))
    if node.op_type == "Gemm":
        trans_b = next((a.i for a in node.attribute if a.name == "transB"), 0)
        return dims[1] if trans_b else dims[0]
    return dims[0]  # MatMul: x [.., K] times W [K, N]


def draw(rng, tensor, node, index):
    dims = list(tensor.dims)
    if node is not None and node.op_type in WEIGHT_OPS and index == 1 and len(dims) >= 2:
        return rng.standard_normal(dims) * np.sqrt(2.0 / max(fan_in(node, dims), 1))
    if node is not None and node.op_type == "BatchNormalization" and index in (1, 4):
        return rng.uniform(0.5, 1.5, dims)
    return rng.uniform(-0.1, 0.1, dims)


def materialize(graph_path, seed=0):
    """The model at graph_path (a .graph.onnx) with every stripped initializer refilled."""
    model = onnx.load(str(graph_path))
    rng = np.random.RandomState(seed)
    users = consumers(model.graph)
    for tensor in model.graph.initializer:
        if not is_stripped(tensor):
            continue
        node, index = users.get(tensor.name, (None, -1))
        dtype = onnx.helper.tensor_dtype_to_np_dtype(tensor.data_type)
        values = draw(rng, tensor, node, index).astype(dtype)
        tensor.CopyFrom(numpy_helper.from_array(values, tensor.name))
    onnx.checker.check_model(model)
    return model


def quantize(float_model_path, out_path):
    """The int8 QDQ variant of a materialized model (see the module docstring)."""
    spec = importlib.util.spec_from_file_location("make_qdq_models", QDQ_SCRIPT)
    qdq = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(qdq)
    qdq.quantize(str(float_model_path), str(out_path), qdq.QuantType.QInt8,
                 weight_type=qdq.QuantType.QInt8, per_channel=True)


def up_to_date(output, sources):
    return output.exists() and all(output.stat().st_mtime >= s.stat().st_mtime for s in sources)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, help="folder for the runnable models")
    parser.add_argument("--models", help="comma-separated subset, e.g. resnet18,googlenet")
    parser.add_argument("--int8", action="store_true", help="also write <name>.int8.onnx")
    args = parser.parse_args()
    names = sorted(p.name[: -len(".graph.onnx")] for p in HERE.glob("*.graph.onnx"))
    if args.models:
        wanted = args.models.split(",")
        unknown = sorted(set(wanted) - set(names))
        if unknown:
            parser.error(f"unknown models {unknown}; known: {', '.join(names)}")
        names = [n for n in names if n in wanted]
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    script = pathlib.Path(__file__).resolve()
    for name in names:
        graph = HERE / f"{name}.graph.onnx"
        float_path = out / f"{name}.onnx"
        if not up_to_date(float_path, [graph, script]):
            print(f"{name}: materializing", file=sys.stderr, flush=True)
            partial = out / f"{name}.onnx.partial"
            onnx.save(materialize(graph), str(partial))
            os.replace(partial, float_path)  # never leave a half-written model that looks current
        int8_path = out / f"{name}.int8.onnx"
        if args.int8 and not up_to_date(int8_path, [float_path, script, QDQ_SCRIPT]):
            print(f"{name}: quantizing", file=sys.stderr, flush=True)
            quantize(float_path, int8_path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
