"""Tiny ONNX graphs for fuzz/corpus/onnx: one or two of each op family the loader's shape
rules and opset canonicalization handle (Reshape from computed shapes, Resize, reductions,
Slice/Split, Pad, Transpose, Squeeze/Unsqueeze, opset 7/11 forms, symbolic dimensions), so
the fuzzer starts next to every rule instead of having to discover each op's encoding.
Each model is a few hundred bytes; random weights, fixed seed.

usage: make_onnx_seeds.py OUT_DIR
"""
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper, save

rng = np.random.default_rng(0)
F = TensorProto.FLOAT


def const(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


def model(name, nodes, inputs, outputs, inits=(), opset=13):
    graph = helper.make_graph(nodes, name, inputs, outputs, list(inits))
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 7
    return name, m


def vi(name, shape, dtype=F):
    return helper.make_tensor_value_info(name, dtype, shape)


def w(*shape):
    return rng.standard_normal(shape).astype(np.float32)


x4 = vi("x", [1, 2, 4, 4])
models = [
    model("reshape_from_shape", [
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("Gather", ["s", "i0"], ["n"], axis=0),
        helper.make_node("Unsqueeze", ["n", "ax0"], ["n1"]),
        helper.make_node("Concat", ["n1", "minus1"], ["shape"], axis=0),
        helper.make_node("Reshape", ["x", "shape"], ["y"]),
    ], [x4], [vi("y", [1, 32])],
        [const("i0", np.array(0, np.int64)), const("ax0", np.array([0], np.int64)),
         const("minus1", np.array([-1], np.int64))]),
    model("resize_nearest_linear", [
        helper.make_node("Resize", ["x", "", "sc"], ["a"], mode="nearest"),
        helper.make_node("Resize", ["a", "", "sc"], ["y"], mode="linear",
                         coordinate_transformation_mode="half_pixel"),
    ], [x4], [vi("y", [1, 2, 16, 16])], [const("sc", np.array([1, 1, 2, 2], np.float32))]),
    # ReduceMean in both forms: axes as an attribute (opset 13) and as input 1 (opset 18).
    model("reduce_mean", [
        helper.make_node("ReduceMean", ["x"], ["m"], axes=[2, 3], keepdims=1),
        helper.make_node("ReduceMean", ["m"], ["y"], axes=[1], keepdims=0),
    ], [x4], [vi("y", [1, 1, 1])]),
    model("reduce_mean_opset18", [
        helper.make_node("ReduceMean", ["x", "axes"], ["m"], keepdims=0),
        helper.make_node("ReduceMean", ["m"], ["y"], noop_with_empty_axes=1),
    ], [x4], [vi("y", [1, 2])], [const("axes", np.array([-1, 2], np.int64))], opset=18),
    # Shape arithmetic folded at load time: integer Mul/Div/Sub/Sum with broadcasting,
    # integer Casts, and a float constant cast to a shape (truncation).
    model("shape_arithmetic", [
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("Mul", ["s", "two"], ["s2"]),
        helper.make_node("Div", ["s2", "two"], ["s1"]),
        helper.make_node("Sub", ["s1", "zero"], ["s0"]),
        helper.make_node("Cast", ["s0"], ["i32"], to=TensorProto.INT32),
        helper.make_node("Cast", ["i32"], ["i"], to=TensorProto.INT64),
        helper.make_node("Sum", ["i", "zero"], ["shape"]),
        helper.make_node("Reshape", ["x", "shape"], ["r"]),
        helper.make_node("Cast", ["fshape"], ["shape2"], to=TensorProto.INT64),
        helper.make_node("Reshape", ["r", "shape2"], ["y"]),
    ], [x4], [vi("y", [1, 32])],
        [const("two", np.array([2], np.int64)), const("zero", np.array(0, np.int64)),
         const("fshape", np.array([1.0, 32.9], np.float32))]),
    # QuantizeLinear / DequantizeLinear that stay run-time ops (an int8 graph output).
    model("quantize_dequantize_io", [
        helper.make_node("QuantizeLinear", ["x", "qs", "qz"], ["q"]),
        helper.make_node("DequantizeLinear", ["q", "qs", "qz"], ["d"]),
        helper.make_node("Relu", ["d"], ["y"]),
    ], [x4], [vi("y", [1, 2, 4, 4]), vi("q", [1, 2, 4, 4], TensorProto.INT8)],
        [const("qs", np.array(0.05, np.float32)), const("qz", np.array(3, np.int8))]),
    model("slice_split_concat", [
        helper.make_node("Slice", ["x", "st", "en", "ax", "sp"], ["s"]),
        helper.make_node("Split", ["x", "parts"], ["a", "b"], axis=1),
        helper.make_node("Concat", ["b", "a"], ["c"], axis=1),
        helper.make_node("Add", ["c", "x"], ["y"]),
    ], [x4], [vi("y", [1, 2, 4, 4]), vi("s", [1, 2, 2, 2])],
        [const("st", np.array([0, 0], np.int64)), const("en", np.array([4, 4], np.int64)),
         const("ax", np.array([2, 3], np.int64)), const("sp", np.array([2, 2], np.int64)),
         const("parts", np.array([1, 1], np.int64))]),
    model("pad_transpose_flatten", [
        helper.make_node("Pad", ["x", "pads"], ["p"], mode="constant"),
        helper.make_node("Transpose", ["p"], ["t"], perm=[0, 2, 3, 1]),
        helper.make_node("Flatten", ["t"], ["y"], axis=1),
    ], [x4], [vi("y", [1, 72])], [const("pads", np.array([0, 0, 1, 1, 0, 0, 1, 1], np.int64))]),
    model("squeeze_unsqueeze", [
        helper.make_node("GlobalAveragePool", ["x"], ["g"]),
        helper.make_node("Squeeze", ["g", "axes"], ["s"]),
        helper.make_node("Unsqueeze", ["s", "axes"], ["y"]),
    ], [x4], [vi("y", [1, 2, 1, 1])], [const("axes", np.array([2, 3], np.int64))]),
    model("softmax_opset11", [
        helper.make_node("Softmax", ["x"], ["y"], axis=1),
    ], [vi("x", [1, 2, 5])], [vi("y", [1, 2, 5])], opset=11),
    model("conv_bn_clip_gap", [
        helper.make_node("Conv", ["x", "cw", "cb"], ["c"], kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        helper.make_node("BatchNormalization", ["c", "g", "b", "mu", "var"], ["n"]),
        helper.make_node("Clip", ["n", "lo", "hi"], ["r"]),
        helper.make_node("GlobalAveragePool", ["r"], ["y"]),
    ], [x4], [vi("y", [1, 3, 1, 1])],
        [const("cw", w(3, 2, 3, 3)), const("cb", w(3)), const("g", w(3)), const("b", w(3)),
         const("mu", w(3)), const("var", np.abs(w(3)) + 0.5),
         const("lo", np.array(0, np.float32)), const("hi", np.array(6, np.float32))]),
    model("upsample_opset7", [
        helper.make_node("Upsample", ["x"], ["y"], scales=[1.0, 1.0, 2.0, 2.0], mode="nearest"),
    ], [x4], [vi("y", [1, 2, 8, 8])], opset=7),
    model("matmul_add_gemm", [
        helper.make_node("MatMul", ["x", "mw"], ["m"]),
        helper.make_node("Add", ["m", "mb"], ["a"]),
        helper.make_node("Gemm", ["a", "gw", "gb"], ["y"], transB=1, alpha=0.5),
    ], [vi("x", [1, 8])], [vi("y", [1, 3])],
        [const("mw", w(8, 4)), const("mb", w(4)), const("gw", w(3, 4)), const("gb", w(3))]),
    model("silu_mul_sigmoid", [
        helper.make_node("Sigmoid", ["x"], ["s"]),
        helper.make_node("Mul", ["x", "s"], ["m"]),
        helper.make_node("HardSigmoid", ["m"], ["h"], alpha=0.2, beta=0.5),
        helper.make_node("Sub", ["h", "x"], ["y"]),
    ], [x4], [vi("y", [1, 2, 4, 4])]),
    model("pools_dilated_ceil", [
        helper.make_node("MaxPool", ["x"], ["m"], kernel_shape=[2, 2], strides=[2, 2],
                         ceil_mode=1, pads=[0, 0, 1, 1]),
        helper.make_node("AveragePool", ["x"], ["a"], kernel_shape=[3, 3], pads=[1, 1, 1, 1],
                         count_include_pad=1),
        helper.make_node("MaxPool", ["a"], ["y"], kernel_shape=[2, 2], dilations=[2, 2]),
    ], [x4], [vi("y", [1, 2, 2, 2]), vi("m", [1, 2, 2, 2])]),
    model("conv_transpose_depthwise", [
        helper.make_node("Conv", ["x", "dw"], ["d"], kernel_shape=[3, 3], group=2,
                         pads=[1, 1, 1, 1], strides=[2, 2]),
        helper.make_node("ConvTranspose", ["d", "tw"], ["y"], kernel_shape=[2, 2], strides=[2, 2]),
    ], [x4], [vi("y", [1, 3, 4, 4])], [const("dw", w(2, 1, 3, 3)), const("tw", w(2, 3, 2, 2))]),
    model("symbolic_batch_conv1d", [
        helper.make_node("Conv", ["x", "kw"], ["c"], kernel_shape=[3], pads=[1, 1]),
        helper.make_node("Relu", ["c"], ["y"]),
    ], [vi("x", ["batch", 2, 16])], [vi("y", ["batch", 4, 16])], [const("kw", w(4, 2, 3))]),
    model("constant_of_shape_expand", [
        helper.make_node("Constant", [], ["k"], value=numpy_helper.from_array(w(1, 2, 1, 1))),
        helper.make_node("ConstantOfShape", ["shp"], ["z"],
                         value=numpy_helper.from_array(np.array([1.0], np.float32))),
        helper.make_node("Mul", ["x", "k"], ["m"]),
        helper.make_node("Add", ["m", "z"], ["y"]),
    ], [x4], [vi("y", [1, 2, 4, 4])], [const("shp", np.array([1, 2, 4, 4], np.int64))]),
]

# An int8 embedding lookup (a run-time GATHER): int64 ids select rows of a quantized table,
# the mean over the tokens stays int8.
models.append(model("embedding_qdq", [
    helper.make_node("DequantizeLinear", ["table", "s_t", "z_t"], ["td"]),
    helper.make_node("Gather", ["td", "ids"], ["e"], axis=0),
    helper.make_node("QuantizeLinear", ["e", "s_t", "z_t"], ["eq"]),
    helper.make_node("DequantizeLinear", ["eq", "s_t", "z_t"], ["ed"]),
    helper.make_node("ReduceMean", ["ed"], ["m"], axes=[1], keepdims=0),
    helper.make_node("QuantizeLinear", ["m", "s_m", "z_t"], ["y"]),
], [vi("ids", [1, 6], TensorProto.INT64)], [vi("y", [1, 8], TensorProto.INT8)],
    [const("table", np.random.default_rng(1).integers(-128, 128, (10, 8)).astype(np.int8)),
     const("s_t", np.array(0.02, np.float32)), const("z_t", np.array(3, np.int8)),
     const("s_m", np.array(0.01, np.float32))]))

# The QDQ forms tf2onnx writes for int8 TFLite models (passes/qdq_canonicalize.cc): an
# int8 NHWC input through Transpose, Conv -> Relu -> QuantizeLinear, a Reshape of a
# quantized activation, MatMul + int32 bias Add.
I8, I32 = TensorProto.INT8, TensorProto.INT32
s_x, z8, z32 = const("s_x", np.array(0.05, np.float32)), const("z8", np.array(0, np.int8)), \
    const("z32", np.array(0, np.int32))
models.append(model("tf2onnx_forms", [
    helper.make_node("Transpose", ["x"], ["xt"], perm=[0, 3, 1, 2]),
    helper.make_node("DequantizeLinear", ["xt", "s_x", "z8"], ["xd"]),
    helper.make_node("DequantizeLinear", ["cw", "s_w", "z8"], ["cwd"]),
    helper.make_node("Conv", ["xd", "cwd"], ["c"], kernel_shape=[1, 1]),
    helper.make_node("Relu", ["c"], ["r"]),
    helper.make_node("QuantizeLinear", ["r", "s_x", "z8"], ["rq"]),
    helper.make_node("Reshape", ["rq", "flat"], ["fq"]),
    helper.make_node("DequantizeLinear", ["fq", "s_x", "z8"], ["fd"]),
    helper.make_node("DequantizeLinear", ["mw", "s_w", "z8"], ["mwd"]),
    helper.make_node("MatMul", ["fd", "mwd"], ["m"]),
    helper.make_node("DequantizeLinear", ["mb", "s_b", "z32"], ["mbd"]),
    helper.make_node("Add", ["m", "mbd"], ["a"]),
    helper.make_node("QuantizeLinear", ["a", "s_x", "z8"], ["y"]),
], [vi("x", [1, 2, 2, 3], I8)], [vi("y", [1, 4], I8)],
    [s_x, z8, z32, const("s_w", np.array(0.02, np.float32)),
     const("s_b", np.array(0.05 * 0.02, np.float32)),
     const("cw", rng.integers(-127, 128, (2, 3, 1, 1)).astype(np.int8)),
     const("flat", np.array([1, 8], np.int64)),
     const("mw", rng.integers(-127, 128, (8, 4)).astype(np.int8)),
     const("mb", rng.integers(-500, 500, (4,)).astype(np.int32))]))

# An initializer whose bytes live in an external file: from memory (the fuzz target) the
# loader must refuse it by name; the entries' keys and numbers are what the fuzzer mutates.
ext_name, ext_model = model("external_data", [
    helper.make_node("Mul", ["x", "k"], ["y"]),
], [x4], [vi("y", [1, 2, 4, 4])], [const("k", w(1, 2, 1, 1))])
k = ext_model.graph.initializer[0]
k.ClearField("raw_data")
k.data_location = TensorProto.EXTERNAL
for key, value in (("location", "weights.bin"), ("offset", "0"), ("length", "8")):
    entry = k.external_data.add()
    entry.key, entry.value = key, value
models.append((ext_name, ext_model))

out = sys.argv[1]
for name, m in models:
    save(m, f"{out}/{name}.onnx")
