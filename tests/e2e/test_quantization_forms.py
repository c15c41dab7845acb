"""Weight quantization forms quantizers write besides quantize_static's default (symmetric
int8 initializers): float weights quantized inside the graph (QuantizeLinear of an
initializer, folded at compile time by quantize-constant-fold) and asymmetric weights
(non-zero zero points, per channel or per tensor, uint8 or int8; the conv, depthwise and
fully connected kernels subtract them). Compiled and run by `tigris` at a budget that runs
untiled and one that tiles, compared with onnxruntime with graph optimizations off (the
QDQ graph evaluated as written) and with each other (tiled == untiled bytes)."""
import json

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from conftest import WORK_DIR, tigris

C_IN, C_MID, H, W, N_OUT = 3, 6, 10, 10, 5
# uint8 activations (scale, zero point); Flatten keeps its input's, as quantize_static writes.
ACT = {"x": (0.02, 128), "c1": (0.05, 120), "c2": (0.04, 100), "f": (0.04, 100), "y": (0.1, 130)}


def weight(name, values, scale, zero_point, dtype, axis, in_graph):
    """Initializers and nodes producing the float tensor `name` through DequantizeLinear,
    from integer initializers (in_graph "" : the usual form), from float ones quantized in
    the graph ("quantized"), or from a flat float initializer reshaped in the graph and then
    quantized ("reshaped", as onnxruntime writes BatchNormalization's per-channel scale)."""
    s = numpy_helper.from_array(np.asarray(scale, np.float32), f"{name}_s")
    z = numpy_helper.from_array(np.asarray(zero_point, dtype), f"{name}_z")
    kw = {"axis": axis} if np.ndim(scale) else {}
    if in_graph:
        real = numpy_helper.from_array(values.astype(np.float32), f"{name}_f")
        inits, nodes, source = [real, s, z], [], real.name
        if in_graph == "reshaped":
            real.CopyFrom(numpy_helper.from_array(values.astype(np.float32).ravel(), real.name))
            shape = numpy_helper.from_array(np.array(values.shape, np.int64), f"{name}_shape")
            inits.append(shape)
            nodes.append(helper.make_node("Reshape", [real.name, shape.name], [f"{name}_r"]))
            source = f"{name}_r"
        nodes.append(helper.make_node("QuantizeLinear", [source, s.name, z.name], [f"{name}_q"],
                                      **kw))
    else:
        scale_b = np.reshape(scale, [-1] + [1] * (values.ndim - 1)) if kw else scale
        zp_b = np.reshape(zero_point, [-1] + [1] * (values.ndim - 1)) if kw else zero_point
        info = np.iinfo(dtype)
        q = np.clip(np.round(values / scale_b) + zp_b, info.min, info.max).astype(dtype)
        inits = [numpy_helper.from_array(q, f"{name}_q"), s, z]
        nodes = []
    nodes.append(helper.make_node("DequantizeLinear", [f"{name}_q", s.name, z.name], [name], **kw))
    return inits, nodes


def qdq(name, out):
    scale, zp = ACT[out]
    inits = [numpy_helper.from_array(np.float32(scale), f"{out}_s"),
             numpy_helper.from_array(np.uint8(zp), f"{out}_z")]
    nodes = [helper.make_node("QuantizeLinear", [name, f"{out}_s", f"{out}_z"], [f"{out}_q"]),
             helper.make_node("DequantizeLinear", [f"{out}_q", f"{out}_s", f"{out}_z"], [out])]
    return inits, nodes


def model(in_graph, weight_dtype):
    """x -> Conv 3x3 (per-channel weights, non-zero zero points) -> Relu -> depthwise 3x3
    stride 2 (per-channel) -> Flatten -> Gemm (per-tensor weights): every kernel that takes
    weight zero points, with activations uint8 as onnxruntime writes them."""
    rng = np.random.RandomState(7)
    info = np.iinfo(weight_dtype)
    mid = (int(info.min) + int(info.max) + 1) // 2  # 0 for int8, 128 for uint8
    inits, nodes = [], []

    def add(pair):
        inits.extend(pair[0])
        nodes.extend(pair[1])

    add(qdq("x_in", "x"))
    w1 = rng.uniform(-0.4, 0.6, (C_MID, C_IN, 3, 3))
    add(weight("w1", w1, np.linspace(0.003, 0.006, C_MID), mid + np.arange(C_MID) * 3 - 7,
               weight_dtype, 0, in_graph))
    nodes.append(helper.make_node("Conv", ["x", "w1"], ["conv1"], pads=[1, 1, 1, 1]))
    nodes.append(helper.make_node("Relu", ["conv1"], ["relu1"]))
    add(qdq("relu1", "c1"))
    w2 = rng.uniform(-0.2, 0.9, (C_MID, 1, 3, 3))
    add(weight("w2", w2, np.linspace(0.004, 0.008, C_MID), mid + 11 - np.arange(C_MID) * 4,
               weight_dtype, 0, in_graph))
    nodes.append(helper.make_node("Conv", ["c1", "w2"], ["conv2"], group=C_MID, strides=[2, 2],
                                  pads=[1, 1, 1, 1]))
    add(qdq("conv2", "c2"))
    nodes.append(helper.make_node("Flatten", ["c2"], ["flat"]))
    add(qdq("flat", "f"))
    features = C_MID * (H // 2) * (W // 2)
    w3 = rng.uniform(-0.05, 0.08, (features, N_OUT))
    add(weight("w3", w3, 0.0006, mid + 9, weight_dtype, 1, in_graph))
    nodes.append(helper.make_node("MatMul", ["f", "w3"], ["logits"]))
    add(qdq("logits", "y"))
    nodes[-1].output[0] = "y_out"  # the last DequantizeLinear writes the graph output
    graph = helper.make_graph(
        nodes, "quantization_forms",
        [helper.make_tensor_value_info("x_in", TensorProto.FLOAT, [1, C_IN, H, W])],
        [helper.make_tensor_value_info("y_out", TensorProto.FLOAT, [1, N_OUT])], inits)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 7
    onnx.checker.check_model(m)
    return m


@pytest.mark.parametrize("in_graph", ["", "quantized", "reshaped"],
                         ids=["initializers", "quantized_in_graph", "reshaped_in_graph"])
@pytest.mark.parametrize("weight_dtype", [np.uint8, np.int8], ids=["uint8_w", "int8_w"])
def test_asymmetric_weights_match_onnxruntime(in_graph, weight_dtype):
    stem = f"qforms_{in_graph or 'init'}_{np.dtype(weight_dtype).name}"
    path = WORK_DIR / f"{stem}.onnx"
    onnx.save(model(in_graph, weight_dtype), path)

    x = np.random.RandomState(3).uniform(-2.5, 2.5, (1, C_IN, H, W)).astype(np.float32)
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    ref = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"]).run(
        None, {"x_in": x})[0]
    scale, zp = ACT["y"]
    # The graph output is uint8 in the model; the plan's is int8 (zero point - 128).
    ref_q = np.clip(np.round(ref.astype(np.float64) / scale) + zp, 0, 255).astype(np.int64) - 128

    x_path = WORK_DIR / f"{stem}.x.npy"
    np.save(x_path, x)
    outputs = {}
    for budget in ("1M", "2K"):
        plan = WORK_DIR / f"{stem}.{budget}.tgrs"
        y_path = WORK_DIR / f"{stem}.{budget}.y.npy"
        tigris("compile", path, "-m", budget, "-o", plan)
        info = json.loads(tigris("inspect", "--json", plan).stdout)
        ops = [op["code"] for op in info["ops"]]
        # Weights are integer constants of the plan: no run-time Quantize, no float op.
        assert "QUANTIZE" not in ops and "DEQUANTIZE" not in ops, ops
        tigris("run", plan, "--input", x_path, "--output", y_path)
        outputs[budget] = np.load(y_path)

    assert np.array_equal(outputs["1M"], outputs["2K"]), "tiled and untiled runs differ"
    y = outputs["1M"]
    assert y.dtype == np.int8 and y.shape == ref.shape
    # The kernels accumulate (x - x_zp) * (w - w_zp) exactly and round once; onnxruntime
    # without graph optimizations computes the float convolution of the dequantized values,
    # so at most 1 LSB apart.
    diff = np.abs(y.astype(np.int64).ravel() - ref_q.ravel())
    assert diff.max() <= 1, f"max {diff.max()} LSB; {np.count_nonzero(diff)} of {y.size} differ"
