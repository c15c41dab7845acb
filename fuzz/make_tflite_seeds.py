"""Writes small .tflite seeds for fuzz_tflite: each model is stated as FlatBuffers JSON
against our schema subset (format/tflite.fbs) and compiled to binary by flatc, so the
seeds need no TensorFlow. Together they use every builtin op the front end reads, int8
(per-channel weights, int32 biases, fused activations) and float32.

Usage: python fuzz/make_tflite_seeds.py OUT_DIR [FLATC]
"""
import pathlib
import struct
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "models"))
from tflite_json import Model, compile_tflite  # noqa: E402  (tests/models/tflite_json.py)


def ramp(n, lo=-20, hi=20):
    return bytes(((lo + (i * 7) % (hi - lo)) & 0xFF) for i in range(n))


def int8_cnn():
    """CONV_2D (RELU6) -> DEPTHWISE_CONV_2D -> AVERAGE_POOL_2D -> RESHAPE ->
    FULLY_CONNECTED -> SOFTMAX, int8 with per-channel weights."""
    m = Model()
    x = m.tensor("x", [1, 4, 4, 2], "INT8", quant=([0.05], [-3], 0))
    w1 = m.tensor("w1", [3, 3, 3, 2], "INT8", ramp(54), ([0.01, 0.02, 0.03], [0, 0, 0], 0))
    b1 = m.tensor("b1", [3], "INT32", struct.pack("<3i", 10, -20, 30),
                  ([0.0005, 0.001, 0.0015], [0, 0, 0], 0))
    h1 = m.tensor("h1", [1, 4, 4, 3], "INT8", quant=([0.04], [-128], 0))
    w2 = m.tensor("w2", [1, 3, 3, 3], "INT8", ramp(27), ([0.01, 0.01, 0.01], [0, 0, 0], 3))
    b2 = m.tensor("b2", [3], "INT32", struct.pack("<3i", 1, 2, 3),
                  ([0.0004, 0.0004, 0.0004], [0, 0, 0], 0))
    h2 = m.tensor("h2", [1, 2, 2, 3], "INT8", quant=([0.05], [0], 0))
    h3 = m.tensor("h3", [1, 1, 1, 3], "INT8", quant=([0.05], [0], 0))
    h4 = m.tensor("h4", [1, 3], "INT8", quant=([0.05], [0], 0))
    w3 = m.tensor("w3", [2, 3], "INT8", ramp(6), ([0.02, 0.02], [0, 0], 0))
    b3 = m.tensor("b3", [2], "INT32", struct.pack("<2i", 5, -5), ([0.001, 0.001], [0, 0], 0))
    h5 = m.tensor("h5", [1, 2], "INT8", quant=([0.1], [0], 0))
    y = m.tensor("y", [1, 2], "INT8", quant=([1 / 256], [-128], 0))
    m.op("CONV_2D", [x, w1, b1], [h1], "Conv2DOptions", padding="SAME", stride_w=1,
         stride_h=1, fused_activation_function="RELU6")
    m.op("DEPTHWISE_CONV_2D", [h1, w2, b2], [h2], "DepthwiseConv2DOptions", padding="SAME",
         stride_w=2, stride_h=2, depth_multiplier=1)
    m.op("AVERAGE_POOL_2D", [h2], [h3], "Pool2DOptions", padding="VALID", stride_w=2,
         stride_h=2, filter_width=2, filter_height=2)
    m.op("RESHAPE", [h3, m.int32("shape", [1, 3])], [h4])
    m.op("FULLY_CONNECTED", [h4, w3, b3], [h5], "FullyConnectedOptions")
    m.op("SOFTMAX", [h5], [y], "SoftmaxOptions", beta=1.0)
    return m.json([x], [y], "fuzz seed")


def float_layout_ops():
    """TRANSPOSE -> PAD -> STRIDED_SLICE -> MUL -> CONCATENATION -> SPLIT -> ADD ->
    RESIZE_NEAREST_NEIGHBOR -> MEAN -> LOGISTIC, and MAX_POOL_2D -> HARD_SWISH ->
    LEAKY_RELU -> TANH, float32."""
    m = Model()
    x = m.tensor("x", [1, 2, 3, 4])
    t1 = m.tensor("t1", [1, 3, 2, 4])
    t2 = m.tensor("t2", [1, 4, 2, 6])
    t3 = m.tensor("t3", [1, 2, 2, 4])
    t4 = m.tensor("t4", [1, 2, 2, 4])
    t5 = m.tensor("t5", [1, 2, 2, 8])
    s0, s1 = m.tensor("s0", [1, 2, 2, 4]), m.tensor("s1", [1, 2, 2, 4])
    t6 = m.tensor("t6", [1, 2, 2, 4])
    t7 = m.tensor("t7", [1, 4, 4, 4])
    t8 = m.tensor("t8", [1, 4])
    y = m.tensor("y", [1, 4])
    p1 = m.tensor("p1", [1, 1, 2, 4])
    p2, p3, z = m.tensor("p2", [1, 1, 2, 4]), m.tensor("p3", [1, 1, 2, 4]), m.tensor("z", [1, 1, 2, 4])
    scale = m.tensor("scale", [4], data=struct.pack("<4f", 0.5, -1.0, 2.0, 0.25))
    m.op("TRANSPOSE", [x, m.int32("perm", [0, 2, 1, 3])], [t1])
    m.op("PAD", [t1, m.int32("pads", [0, 0, 1, 0, 0, 0, 1, 1], [4, 2])], [t2])
    m.op("STRIDED_SLICE", [t2, m.int32("begin", [0, 0, 0, 1]), m.int32("end", [1, 4, 2, 5]),
                           m.int32("strides", [1, 2, 1, 1])], [t3],
         "StridedSliceOptions")
    m.op("MUL", [t3, scale], [t4], "MulOptions")
    m.op("CONCATENATION", [t3, t4], [t5], "ConcatenationOptions", axis=3)
    m.op("SPLIT", [m.int32("axis", [3], []), t5], [s0, s1], "SplitOptions", num_splits=2)
    m.op("ADD", [s0, s1], [t6], "AddOptions", fused_activation_function="RELU")
    m.op("RESIZE_NEAREST_NEIGHBOR", [t6, m.int32("size", [4, 4])], [t7])
    m.op("MEAN", [t7, m.int32("hw", [1, 2])], [t8], "ReducerOptions", keep_dims=False)
    m.op("LOGISTIC", [t8], [y])
    m.op("MAX_POOL_2D", [t6], [p1], "Pool2DOptions", padding="VALID", stride_w=1,
         stride_h=2, filter_width=1, filter_height=2)
    m.op("HARD_SWISH", [p1], [p2])
    m.op("LEAKY_RELU", [p2], [p3], "LeakyReluOptions", alpha=0.1)
    m.op("TANH", [p3], [z])
    return m.json([x], [y, z], "fuzz seed")


def int8_head():
    """PADV2 -> MEAN over H, W -> FULLY_CONNECTED -> LOGISTIC and ARG_MAX (int32 indices),
    int8: the ops whose TFLite arithmetic has its own tables and constants (docs/tflite.md)."""
    m = Model()
    x0 = m.tensor("x", [1, 2, 3, 4], "INT8", quant=([0.05], [2], 0))
    x = m.tensor("padded", [1, 3, 3, 4], "INT8", quant=([0.05], [2], 0))
    m.op("PADV2", [x0, m.int32("pads", [0, 0, 1, 0, 0, 0, 0, 0], [4, 2]),
                   m.tensor("pad_value", [], "INT8", bytes([9]), ([0.05], [2], 0))], [x])
    h1 = m.tensor("h1", [1, 4], "INT8", quant=([0.04], [-1], 0))
    w = m.tensor("w", [3, 4], "INT8", ramp(12), ([0.02, 0.03, 0.01], [0, 0, 0], 0))
    b = m.tensor("b", [3], "INT32", struct.pack("<3i", 7, -7, 0),
                 ([0.0008, 0.0012, 0.0004], [0, 0, 0], 0))
    h2 = m.tensor("h2", [1, 3], "INT8", quant=([0.1], [0], 0))
    y = m.tensor("y", [1, 3], "INT8", quant=([1 / 256], [-128], 0))
    z = m.tensor("z", [1], "INT32")
    m.op("MEAN", [x, m.int32("hw", [1, 2])], [h1], "ReducerOptions", keep_dims=False)
    m.op("FULLY_CONNECTED", [h1, w, b], [h2], "FullyConnectedOptions")
    m.op("LOGISTIC", [h2], [y])
    m.op("ARG_MAX", [h2, m.int32("axis", [1])], [z], "ArgMaxOptions", output_type="INT32")
    return m.json([x0], [y, z], "fuzz seed")


def main():
    out = pathlib.Path(sys.argv[1])
    flatc = sys.argv[2] if len(sys.argv) > 2 else "flatc"
    out.mkdir(parents=True, exist_ok=True)
    for name, model in (("int8_cnn", int8_cnn()), ("float_layout_ops", float_layout_ops()),
                        ("int8_head", int8_head())):
        (out / f"{name}.tflite").write_bytes(compile_tflite(model, flatc))


if __name__ == "__main__":
    main()
