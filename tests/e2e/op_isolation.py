"""Telling a wrong int8 kernel from accumulated rounding drift.

onnxruntime evaluates a QDQ graph (graph optimizations off) as DequantizeLinear, the float
op, QuantizeLinear: its convolutions add float products, ours exact int32 ones, so at a
rounding tie the two can land one LSB apart. Through a deep network those single LSBs
compound, and an op with a steep quantized gain (a HardSigmoid whose [0, 1] output spans
a dozen input LSBs) multiplies them: MobileNetV3's int8 outputs end a few LSB from
onnxruntime's although every op is exact. A whole-graph tolerance cannot tell that from a
wrong kernel; an op fed onnxruntime's own input can:

  1. `tigris run --dump-intermediates` writes every op's int8 output; onnxruntime computes
     the same QuantizeLinear outputs; per op, the largest difference in LSB;
  2. for the first op of each op code whose difference exceeds 1 LSB, the subgraph from its
     int8 inputs to its int8 output (onnx.utils.extract_model) is compiled and run on
     onnxruntime's values of those inputs, and compared with onnxruntime's output.

An op within 1 LSB in isolation is right; a drifting model whose every diverging op code
passes (2) is drift, and the test that calls this says so with the numbers.
"""
import json

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, utils

from conftest import WORK_DIR, tigris


def _session(model):
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    return ort.InferenceSession(model.SerializeToString(), options,
                                providers=["CPUExecutionProvider"])


def _onnxruntime_values(model_path, x, names):
    """onnxruntime's values of the int8 tensors `names` on input x."""
    model = onnx.load(str(model_path))
    model.graph.output.extend(helper.make_tensor_value_info(n, TensorProto.INT8, None)
                              for n in names)
    session = _session(model)
    return dict(zip(names, session.run(names, {session.get_inputs()[0].name: x})))


def per_op_lsb(model_path, plan, x_path, tag):
    """[(op name, op code, largest LSB difference)] for every int8 op output both sides name,
    in plan order."""
    dump = WORK_DIR / f"{tag}.intermediates"
    tigris("run", plan, "--input", x_path, "--output", WORK_DIR / f"{tag}.dump.npy",
           "--dump-intermediates", dump)
    index = json.loads((dump / "index.json").read_text())
    model = onnx.load(str(model_path))
    quantized = {n.output[0] for n in model.graph.node if n.op_type == "QuantizeLinear"}
    entries = [e for e in index if e["dtype"] == "|i1" and e["tensor"] in quantized]
    ref = _onnxruntime_values(model_path, np.load(x_path), [e["tensor"] for e in entries])
    rows = []
    for e in entries:
        ours = np.load(dump / e["file"]).astype(np.int64)
        theirs = ref[e["tensor"]].astype(np.int64).reshape(ours.shape)
        rows.append((e["op"], e["code"], int(np.abs(ours - theirs).max())))
    return rows


def isolated_lsb(model_path, x_path, op_name, tag):
    """The largest LSB difference of op `op_name` run alone by tigris on onnxruntime's
    values of its int8 inputs, against onnxruntime's int8 output."""
    model = onnx.load(str(model_path))
    producer = {o: n for n in model.graph.node for o in n.output}
    constants = {i.name for i in model.graph.initializer}
    node = next(n for n in model.graph.node if n.name == op_name)
    inputs = []
    for t in node.input:  # the int8 tensor behind each activation's DequantizeLinear
        dq = producer.get(t)
        if dq is not None and dq.op_type == "DequantizeLinear" and dq.input[0] not in constants \
                and dq.input[0] in producer:
            inputs.append(dq.input[0])
    output = next(n.output[0] for n in model.graph.node
                  if n.op_type == "QuantizeLinear" and n.input[0] == node.output[0])
    values = _onnxruntime_values(model_path, np.load(x_path), inputs + [output])
    sub = WORK_DIR / f"{tag}.isolated.onnx"
    utils.extract_model(str(model_path), str(sub), inputs, [output])
    plan = WORK_DIR / f"{tag}.isolated.tgrs"
    tigris("compile", sub, "-m", "64M", "--xip", "-o", plan)
    args = []
    for i, name in enumerate(inputs):
        np.save(WORK_DIR / f"{tag}.isolated.in{i}.npy", values[name])
        args += ["--input", WORK_DIR / f"{tag}.isolated.in{i}.npy"]
    y_path = WORK_DIR / f"{tag}.isolated.out.npy"
    tigris("run", plan, *args, "--output", y_path)
    ours = np.load(y_path).astype(np.int64)
    return int(np.abs(ours - values[output].astype(np.int64).reshape(ours.shape)).max())


def drift_or_bug(model_path, plan, x_path, tag):
    """For each op code, the first op more than 1 LSB from onnxruntime in the whole graph,
    with its difference there and in isolation: [(op, code, chained, isolated)]."""
    seen, report = set(), []
    for op, code, lsb in per_op_lsb(model_path, plan, x_path, tag):
        if lsb <= 1 or code in seen:
            continue
        seen.add(code)
        report.append((op, code, lsb, isolated_lsb(model_path, x_path, op, f"{tag}.{len(seen)}")))
    return report
