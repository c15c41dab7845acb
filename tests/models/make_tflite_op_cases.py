"""Makes the single-op int8 .tflite cases of tests/models/tflite/ops/ and records TensorFlow
Lite Micro's output for each: a tool run once by hand, whose results are committed, so that
neither the build nor CI needs TFLM.

Each case is one op TFLite computes with an integer algorithm of its own (LOGISTIC, TANH,
HARD_SWISH, LEAKY_RELU, ELU, RELU, RELU6, ABS, SOFTMAX, MEAN, SUM; docs/tflite.md), or
ARG_MAX / ARG_MIN with the int32 indices TFLM writes, or PADV2's constant value, or the
block order of DEPTH_TO_SPACE / SPACE_TO_DEPTH, at chosen
quantizations, written as FlatBuffers JSON and compiled by flatc (tflite_json.py), and run
by tflite-micro's Python interpreter (TFLM's reference kernels). The elementwise cases feed
every int8 code once, so their outputs are the whole table TFLM computes:

  tests/models/tflite/ops/NAME.tflite, NAME.input.npy (int8), NAME.tflm_output.npy

  python3 -m venv /tmp/tflm && /tmp/tflm/bin/pip install tflite-micro numpy
  /tmp/tflm/bin/python tests/models/make_tflite_op_cases.py   # tflite-micro 0.dev20261023,
                                                              # flatc from Debian
"""
import pathlib
import struct
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from tflite_json import Model, compile_tflite  # noqa: E402
from tflm_record import record_tflm_case  # noqa: E402

OUT = pathlib.Path(__file__).resolve().parent / "tflite" / "ops"
EVERY_CODE = [1, 2, 8, 16]  # 256 values: each int8 code once


def unary(code, shape, q_in, q_out, options_type=None, **options):
    m = Model()
    x = m.tensor("x", shape, "INT8", quant=([q_in[0]], [q_in[1]], 0))
    y = m.tensor("y", shape, "INT8", quant=([q_out[0]], [q_out[1]], 0))
    m.op(code, [x], [y], options_type, **options)
    return m.json([x], [y])


def reduce(code, shape, axes, keep_dims, q_in, q_out):
    m = Model()
    out_shape = [1 if i in axes else d for i, d in enumerate(shape)] if keep_dims else \
        [d for i, d in enumerate(shape) if i not in axes]
    x = m.tensor("x", shape, "INT8", quant=([q_in[0]], [q_in[1]], 0))
    y = m.tensor("y", out_shape, "INT8", quant=([q_out[0]], [q_out[1]], 0))
    axis = m.tensor("axes", [len(axes)], "INT32", struct.pack(f"<{len(axes)}i", *axes))
    m.op(code, [x, axis], [y], "ReducerOptions", keep_dims=keep_dims)
    return m.json([x], [y])


def arg_extreme(code, shape, axis, q_in):
    m = Model()
    out_shape = [d for i, d in enumerate(shape) if i != axis]
    x = m.tensor("x", shape, "INT8", quant=([q_in[0]], [q_in[1]], 0))
    y = m.tensor("y", out_shape, "INT32")  # TFLM writes int32 indices only
    axis_t = m.tensor("axis", [1], "INT32", struct.pack("<i", axis))
    options = "ArgMaxOptions" if code == "ARG_MAX" else "ArgMinOptions"
    m.op(code, [x, axis_t], [y], options, output_type="INT32")
    return m.json([x], [y])


def padv2(shape, pads, code, q):
    m = Model()
    out_shape = [d + a + b for d, (a, b) in zip(shape, pads)]
    x = m.tensor("x", shape, "INT8", quant=([q[0]], [q[1]], 0))
    y = m.tensor("y", out_shape, "INT8", quant=([q[0]], [q[1]], 0))
    flat = [v for pair in pads for v in pair]
    paddings = m.tensor("paddings", [len(shape), 2], "INT32", struct.pack(f"<{len(flat)}i", *flat))
    value = m.tensor("value", [], "INT8", bytes([code & 0xFF]), ([q[0]], [q[1]], 0))
    m.op("PADV2", [x, paddings, value], [y])
    return m.json([x], [y])


def block_rearrange(code, shape, block, q):
    m = Model()
    n, h, w, c = shape
    out_shape = ([n, h * block, w * block, c // (block * block)] if code == "DEPTH_TO_SPACE"
                 else [n, h // block, w // block, c * block * block])
    x = m.tensor("x", shape, "INT8", quant=([q[0]], [q[1]], 0))
    y = m.tensor("y", out_shape, "INT8", quant=([q[0]], [q[1]], 0))
    options = "DepthToSpaceOptions" if code == "DEPTH_TO_SPACE" else "SpaceToDepthOptions"
    m.op(code, [x], [y], options, block_size=block)
    return m.json([x], [y])


def compare(code, shape, q, operand):
    """x against a constant per-channel operand on x's own grid (int8 codes) -> bool."""
    m = Model()
    x = m.tensor("x", shape, "INT8", quant=([q[0]], [q[1]], 0))
    c = m.tensor("c", [shape[-1]], "INT8", struct.pack(f"<{shape[-1]}b", *operand),
                 ([q[0]], [q[1]], 0))
    y = m.tensor("y", shape, "BOOL")
    m.op(code, [x, c], [y])
    return m.json([x], [y])


def select(shape, q_x):
    """SELECT_V2(x > zero, x, other): a bool condition from GREATER, then the choice between
    x and a per-channel constant, all on one grid (TFLM copies the chosen codes)."""
    m = Model()
    x = m.tensor("x", shape, "INT8", quant=([q_x[0]], [q_x[1]], 0))
    zero = m.tensor("zero", [shape[-1]], "INT8", struct.pack(f"<{shape[-1]}b", *([q_x[1]] * shape[-1])),
                    ([q_x[0]], [q_x[1]], 0))
    cond = m.tensor("cond", shape, "BOOL")
    other = m.tensor("other", [shape[-1]], "INT8",
                     struct.pack(f"<{shape[-1]}b", *range(-3, shape[-1] - 3)), ([q_x[0]], [q_x[1]], 0))
    y = m.tensor("y", shape, "INT8", quant=([q_x[0]], [q_x[1]], 0))
    m.op("GREATER", [x, zero], [cond])
    m.op("SELECT_V2", [cond, x, other], [y])
    return m.json([x], [y])


def broadcast_to(shape, out_shape, q):
    m = Model()
    x = m.tensor("x", shape, "INT8", quant=([q[0]], [q[1]], 0))
    target = m.tensor("shape", [len(out_shape)], "INT32",
                      struct.pack(f"<{len(out_shape)}i", *out_shape))
    y = m.tensor("y", out_shape, "INT8", quant=([q[0]], [q[1]], 0))
    m.op("BROADCAST_TO", [x, target], [y])
    return m.json([x], [y])


def cumsum(shape, axis, exclusive, reverse):
    m = Model()
    x = m.tensor("x", shape, "FLOAT32")
    axis_t = m.tensor("axis", [], "INT32", struct.pack("<i", axis))
    y = m.tensor("y", shape, "FLOAT32")
    m.op("CUMSUM", [x, axis_t], [y], "CumsumOptions", exclusive=exclusive, reverse=reverse)
    return m.json([x], [y])


def cast(shape, to):
    m = Model()
    x = m.tensor("x", shape, "FLOAT32")
    y = m.tensor("y", shape, to)
    m.op("CAST", [x], [y])
    return m.json([x], [y])


SOFTMAX_OUT = (1 / 256, -128)
LOGISTIC_OUT = (1 / 256, -128)
TANH_OUT = (1 / 128, 0)

CASES = {
    "logistic_small_scale": unary("LOGISTIC", EVERY_CODE, (0.02, 0), LOGISTIC_OUT),
    "logistic_offset": unary("LOGISTIC", EVERY_CODE, (0.1, -20), LOGISTIC_OUT),
    "logistic_pow2_scale": unary("LOGISTIC", EVERY_CODE, (0.0625, 50), LOGISTIC_OUT),
    "logistic_saturating": unary("LOGISTIC", EVERY_CODE, (0.5, 5), LOGISTIC_OUT),
    "tanh_small_scale": unary("TANH", EVERY_CODE, (0.03, 0), TANH_OUT),
    "tanh_offset": unary("TANH", EVERY_CODE, (0.12, -30), TANH_OUT),
    "tanh_saturating": unary("TANH", EVERY_CODE, (0.6, 10), TANH_OUT),
    # the reluish multiplier's three paths: a left shift, about one, a right shift
    "hard_swish_left_shift": unary("HARD_SWISH", EVERY_CODE, (0.05, 10), (0.03, -80)),
    "hard_swish_unit": unary("HARD_SWISH", EVERY_CODE, (0.0117, -128), (0.01, -100)),
    "hard_swish_right_shift": unary("HARD_SWISH", EVERY_CODE, (0.005, 0), (0.004, -20)),
    "leaky_relu_rescaled": unary("LEAKY_RELU", EVERY_CODE, (0.05, 0), (0.04, -10),
                                 "LeakyReluOptions", alpha=0.2),
    "leaky_relu_same_scale": unary("LEAKY_RELU", EVERY_CODE, (0.1, 20), (0.1, 20),
                                   "LeakyReluOptions", alpha=0.01),
    "elu": unary("ELU", EVERY_CODE, (0.05, 30), (0.04, -30)),
    "relu_rescaled": unary("RELU", EVERY_CODE, (0.05, -10), (0.03, -128)),
    "relu6_same_scale": unary("RELU6", EVERY_CODE, (0.05, -10), (0.05, -10)),
    "relu6_rescaled": unary("RELU6", EVERY_CODE, (0.05, -10), (0.03, -128)),
    "abs_rescaled": unary("ABS", EVERY_CODE, (0.05, -7), (0.03, -128)),
    "abs_same_scale": unary("ABS", EVERY_CODE, (0.05, -7), (0.05, -100)),
    "softmax_classes": unary("SOFTMAX", [1, 4, 8, 10], (0.05, 0), SOFTMAX_OUT,
                             "SoftmaxOptions", beta=1.0),
    "softmax_long_rows": unary("SOFTMAX", [3, 100], (0.25, -10), SOFTMAX_OUT,
                               "SoftmaxOptions", beta=1.0),
    "softmax_unit_scale": unary("SOFTMAX", [2, 10], (1.0, 0), SOFTMAX_OUT,
                                "SoftmaxOptions", beta=1.0),
    "softmax_tiny_scale": unary("SOFTMAX", [4, 16], (0.003, 5), SOFTMAX_OUT,
                                "SoftmaxOptions", beta=1.0),
    # rows whose real softmax lies nearest a rounding boundary (case_input): where TFLite's
    # fixed point and a float softmax part ways
    "softmax_near_ties": unary("SOFTMAX", [64, 10], (0.05, 0), SOFTMAX_OUT, "SoftmaxOptions",
                               beta=1.0),
    # int32 indices; ties among 8 codes are frequent, so the first-index rule shows
    "arg_max_classes": arg_extreme("ARG_MAX", [6, 40], 1, (0.1, 0)),
    "arg_max_channels": arg_extreme("ARG_MAX", [1, 3, 4, 10], 3, (0.05, -3)),
    "arg_min_rows": arg_extreme("ARG_MIN", [1, 5, 4, 3], 1, (0.05, 2)),
    "mean_hw_rescaled": reduce("MEAN", [1, 5, 7, 8], [1, 2], True, (0.05, 3), (0.02, -7)),
    "mean_hw_same_scale": reduce("MEAN", [1, 5, 7, 8], [1, 2], False, (0.05, 3), (0.05, 3)),
    "mean_hw_pow2_count": reduce("MEAN", [1, 8, 8, 4], [1, 2], True, (0.04, -2), (0.04, -2)),
    "mean_channels": reduce("MEAN", [1, 4, 4, 12], [3], True, (0.05, 0), (0.03, 4)),
    "sum_hw": reduce("SUM", [1, 4, 4, 6], [1, 2], True, (0.05, 3), (0.5, -2)),
    "padv2_valued": padv2([1, 3, 4, 2], [(0, 0), (1, 2), (0, 1), (0, 0)], 17, (0.05, -3)),
    # TensorFlow's depth-column-row order within a block (ONNX's DCR); every value distinct
    # in position, so a wrong order shows
    "depth_to_space_2": block_rearrange("DEPTH_TO_SPACE", [1, 3, 4, 12], 2, (0.05, -3)),
    "space_to_depth_2": block_rearrange("SPACE_TO_DEPTH", [2, 4, 6, 3], 2, (0.05, -3)),
    # comparisons of int8 codes on one grid (TFLM rescales both; the order is the codes')
    "greater_channels": compare("GREATER", [1, 4, 4, 3], (0.05, -3), [-100, 0, 90]),
    "less_equal_channels": compare("LESS_EQUAL", [1, 4, 4, 3], (0.05, -3), [-3, 50, -128]),
    "not_equal_channels": compare("NOT_EQUAL", [2, 16, 4], (0.1, 7), [7, -128, 127, 0]),
    "select_v2_channels": select([1, 4, 4, 3], (0.05, -3)),
    "broadcast_to_rows": broadcast_to([1, 1, 4, 3], [2, 3, 4, 3], (0.05, -3)),
    # float ones (TFLM's int8 CUMSUM rescales as ADD does; the runtime's CumSum is float)
    "cumsum_reverse_exclusive": cumsum([1, 3, 4, 5], 2, True, True),
    "cumsum_channels": cumsum([2, 6, 4], 2, False, False),
    "cast_to_int32": cast([3, 7], "INT32"),  # truncation toward zero
}


def near_tie_rows(shape, scale, rng):
    """The rows of a seeded random pool whose exact softmax has a value closest to a half of
    the output's 1/256 grid."""
    pool = rng.integers(-128, 128, size=(200000, shape[-1])).astype(np.int8)
    real = pool.astype(np.float64) * np.float32(scale)
    e = np.exp(real - real.max(axis=1, keepdims=True))
    grid = e / e.sum(axis=1, keepdims=True) * 256
    distance = np.abs(grid - np.floor(grid) - 0.5).min(axis=1)
    return pool[np.argsort(distance)[:shape[0]]]


def case_input(name, shape, rng, dtype):
    if dtype == "FLOAT32":
        return (rng.standard_normal(shape) * 3).astype(np.float32)
    if name == "softmax_near_ties":
        return near_tie_rows(shape, 0.05, rng)
    if shape == EVERY_CODE:
        return rng.permutation(np.arange(-128, 128)).astype(np.int8).reshape(shape)
    x = rng.integers(-128, 128, size=shape).astype(np.int8)
    if name.startswith("arg_"):
        x = (x // 32 * 32).astype(np.int8)  # eight codes only: ties
    if name.startswith("softmax"):
        x.reshape(-1, shape[-1])[0, :] = 127  # a row of ties
    return x


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(41)
    for name, model in CASES.items():
        first = model["subgraphs"][0]["tensors"][0]
        x = case_input(name, first["shape"], rng, first.get("type"))
        y = record_tflm_case(OUT, name, compile_tflite(model), x)
        print(f"{name}: {list(x.shape)} -> {list(y.shape)}")


if __name__ == "__main__":
    main()
