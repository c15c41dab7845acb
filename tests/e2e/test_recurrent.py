"""RNN, GRU and LSTM (runtime/kernels/recurrent.c, issue 43), compiled and run by `tigris` as a
user would, against onnxruntime (1e-4 of the largest value): each cell in each direction
and both layouts with every output, sequence lengths given at run time, GRU's
linear_before_reset, LSTM's peepholes, a clip and non-default gate functions; a keyword-
spotting network (a convolution front end, a GRU, a classifier) at its smallest fast
memory, float and with its convolution and classifier quantized; the forms the runtime
does not run refused by name.
"""
import json
import sys

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper
from onnxruntime.quantization import QuantFormat, QuantType, quantize_static

from conftest import SOURCE_DIR, WORK_DIR, tigris
from qdq_helpers import (RandomInputs, compile_plan, he_normal, onnxruntime_reference,
                         output_scale, run_plan, save_model)

sys.path.insert(0, str(SOURCE_DIR / "tests" / "models"))
from gru_kws import gru_kws  # noqa: E402

S, B, I, H = 5, 2, 3, 4
GATES = {"RNN": 1, "GRU": 3, "LSTM": 4}


def _run(plan, feeds, outputs, name, extra=()):
    return run_plan(plan, feeds, name, outputs, extra)


def _weights(rng, cell, directions, with_bias=True, peepholes=False):
    g = GATES[cell]
    inits = [numpy_helper.from_array(
                 (0.5 * rng.standard_normal([directions, g * H, I])).astype(np.float32), "W"),
             numpy_helper.from_array(
                 (0.5 * rng.standard_normal([directions, g * H, H])).astype(np.float32), "R")]
    names = ["x", "W", "R"]
    if with_bias:
        inits.append(numpy_helper.from_array(
            (0.3 * rng.standard_normal([directions, 2 * g * H])).astype(np.float32), "B"))
        names.append("B")
    if peepholes:
        names += ["", "", "", "P"]
        inits.append(numpy_helper.from_array(
            (0.3 * rng.standard_normal([directions, 3 * H])).astype(np.float32), "P"))
    return names, inits


def _outputs(cell, directions, layout, which):
    y = [B, S, directions, H] if layout else [S, directions, B, H]
    state = [B, directions, H] if layout else [directions, B, H]
    shapes = {"Y": y, "Y_h": state, "Y_c": state}
    return [(o, TensorProto.FLOAT, shapes[o]) for o in which]


def _check(path, feeds, outputs, name, budget="64M"):
    refs = onnxruntime_reference(path, feeds)
    got = _run(compile_plan(path, name, budget), feeds, outputs, name)
    for ref, y in zip(refs, got):
        assert y.shape == ref.shape
        np.testing.assert_allclose(y, ref, rtol=0, atol=1e-4 * max(np.abs(ref).max(), 1e-6))


def _cell_model(name, cell, direction, layout, which):
    directions = 2 if direction == "bidirectional" else 1
    names, inits = _weights(np.random.RandomState(len(cell + direction)), cell, directions)
    node = helper.make_node(cell, names, which, hidden_size=H, direction=direction,
                            layout=layout)
    x_shape = [B, S, I] if layout else [S, B, I]
    return save_model([node], name, [("x", TensorProto.FLOAT, x_shape)],
                      _outputs(cell, directions, layout, which), inits, opset=14)


@pytest.mark.parametrize("layout", [0, 1])
@pytest.mark.parametrize("direction", ["forward", "reverse", "bidirectional"])
@pytest.mark.parametrize("cell", ["RNN", "GRU", "LSTM"])
def test_every_output_matches_onnxruntime(cell, direction, layout):
    """onnxruntime runs layout 0 only: the batchwise layout's reference is the same weights
    in layout 0 with X, Y and the states transposed."""
    name = f"recurrent_{cell}_{direction}_{layout}".lower()
    which = ["Y", "Y_h", "Y_c"] if cell == "LSTM" else ["Y", "Y_h"]
    path = _cell_model(name, cell, direction, layout, which)
    x = np.random.RandomState(len(name)).standard_normal([S, B, I]).astype(np.float32)
    if layout == 0:
        _check(path, {"x": x}, which, name)
        return
    refs = onnxruntime_reference(_cell_model(name + "_ref", cell, direction, 0, which), {"x": x})
    refs = [ref.transpose(2, 0, 1, 3) if ref.ndim == 4 else ref.transpose(1, 0, 2)
            for ref in refs]
    got = _run(compile_plan(path, name), {"x": x.transpose(1, 0, 2).copy()}, which, name)
    for ref, y in zip(refs, got):
        assert y.shape == ref.shape
        np.testing.assert_allclose(y, ref, rtol=0, atol=1e-4 * np.abs(ref).max())


@pytest.mark.parametrize("cell", ["RNN", "GRU", "LSTM"])
def test_sequence_lengths_and_initial_state_given_at_run_time(cell):
    """sequence_lens (int32) and initial_h (and initial_c) are graph inputs: Y is zero past
    each entry's length, Y_h its state after its last step, the reverse direction starting
    at its own end."""
    name = f"recurrent_{cell}_lengths".lower()
    rng = np.random.RandomState(7)
    names, inits = _weights(rng, cell, 2)
    names = names + ["lens", "h0"] + (["c0"] if cell == "LSTM" else [])
    which = ["Y", "Y_h", "Y_c"] if cell == "LSTM" else ["Y", "Y_h"]
    node = helper.make_node(cell, names, which, hidden_size=H, direction="bidirectional")
    inputs = [("x", TensorProto.FLOAT, [S, B, I]), ("lens", TensorProto.INT32, [B]),
              ("h0", TensorProto.FLOAT, [2, B, H])]
    if cell == "LSTM":
        inputs.append(("c0", TensorProto.FLOAT, [2, B, H]))
    path = save_model([node], name, inputs, _outputs(cell, 2, 0, which), inits, opset=14)
    feeds = {"x": rng.standard_normal([S, B, I]).astype(np.float32),
             "lens": np.array([S, 2], np.int32),
             "h0": rng.standard_normal([2, B, H]).astype(np.float32)}
    if cell == "LSTM":
        feeds["c0"] = rng.standard_normal([2, B, H]).astype(np.float32)
    _check(path, feeds, which, name)


def test_sequence_length_outside_the_sequence_is_refused_at_run_time():
    name = "recurrent_bad_length"
    rng = np.random.RandomState(8)
    names, inits = _weights(rng, "GRU", 1)
    node = helper.make_node("GRU", names + ["lens"], ["", "Y_h"], hidden_size=H)
    path = save_model([node], name, [("x", TensorProto.FLOAT, [S, B, I]),
                                     ("lens", TensorProto.INT32, [B])],
                      _outputs("GRU", 1, 0, ["Y_h"]), inits, opset=14)
    plan = compile_plan(path, name)
    np.save(WORK_DIR / f"{name}.x.npy", np.zeros([S, B, I], np.float32))
    np.save(WORK_DIR / f"{name}.lens.npy", np.array([S + 1, 1], np.int32))
    result = tigris("run", plan, "--input", WORK_DIR / f"{name}.x.npy", "--input",
                    WORK_DIR / f"{name}.lens.npy", "--output", WORK_DIR / f"{name}.y.npy",
                    check=False)
    assert result.returncode != 0
    assert "TGRS_ERR_INDEX_OUT_OF_RANGE" in result.stderr and "GRU" in result.stderr


@pytest.mark.parametrize("case,cell,attrs", [
    ("gru_linear_before_reset", "GRU", {"linear_before_reset": 1}),
    ("gru_clip", "GRU", {"clip": 0.7}),
    ("lstm_clip", "LSTM", {"clip": 0.5}),
    ("rnn_relu", "RNN", {"activations": ["Relu"]}),
    ("gru_hard_sigmoid_leaky", "GRU",
     {"activations": ["HardSigmoid", "LeakyRelu"], "activation_alpha": [0.3, 0.2],
      "activation_beta": [0.4]}),
    ("lstm_functions", "LSTM",
     {"activations": ["Sigmoid", "Softsign", "Elu"], "activation_alpha": [0.8]}),
])
def test_gate_options_match_onnxruntime(case, cell, attrs):
    name = f"recurrent_{case}"
    rng = np.random.RandomState(11)
    names, inits = _weights(rng, cell, 1)
    which = ["Y", "Y_h"]
    node = helper.make_node(cell, names, which, hidden_size=H, **attrs)
    path = save_model([node], name, [("x", TensorProto.FLOAT, [S, B, I])],
                      _outputs(cell, 1, 0, which), inits, opset=14)
    _check(path, {"x": rng.standard_normal([S, B, I]).astype(np.float32)}, which, name)


def test_lstm_peepholes_match_onnxruntime():
    name = "recurrent_lstm_peepholes"
    rng = np.random.RandomState(12)
    names, inits = _weights(rng, "LSTM", 1, peepholes=True)
    node = helper.make_node("LSTM", names, ["Y", "", "Y_c"], hidden_size=H)
    path = save_model([node], name, [("x", TensorProto.FLOAT, [S, B, I])],
                      _outputs("LSTM", 1, 0, ["Y", "Y_c"]), inits, opset=14)
    _check(path, {"x": rng.standard_normal([S, B, I]).astype(np.float32)}, ["Y", "Y_c"], name)


def test_only_the_outputs_read_are_kept():
    """torch writes Y beside Y_h when a model reads only Y_h: the plan's GRU keeps Y_h, and
    the arena has no room for a sequence nobody reads."""
    name = "recurrent_unread_y"
    rng = np.random.RandomState(13)
    names, inits = _weights(rng, "GRU", 1)
    nodes = [helper.make_node("GRU", names, ["Y", "Y_h"], hidden_size=H),
             helper.make_node("Relu", ["Y_h"], ["out"])]
    path = save_model(nodes, name, [("x", TensorProto.FLOAT, [S, B, I])],
                      [("out", TensorProto.FLOAT, [1, B, H])], inits, opset=14)
    x = rng.standard_normal([S, B, I]).astype(np.float32)
    _check(path, {"x": x}, ["out"], name)
    info = json.loads(tigris("inspect", WORK_DIR / f"{name}.tgrs", "--json").stdout)
    gru = [op for op in info["ops"] if op["code"] == "GRU"]
    assert len(gru) == 1 and len(gru[0]["outputs"]) == 1


def _kws_model(name):
    """tests/models/gru_kws.py's network, saved as WORK_DIR/<name>.onnx."""
    path = WORK_DIR / f"{name}.onnx"
    onnx.save(gru_kws(), str(path))
    return path


@pytest.mark.parametrize("budget", ["64M", "32K"])
def test_gru_keyword_spotting_network_matches_onnxruntime(budget):
    """32 KiB is the smallest fast memory it fits (the Transpose's input and output, whole)."""
    name = f"recurrent_kws_{budget}"
    path = _kws_model("recurrent_kws")
    x = np.random.RandomState(22).standard_normal([1, 1, 49, 10]).astype(np.float32)
    _check(path, {"x": x}, ["y"], name, budget=budget)


def test_quantized_gru_keyword_spotting_network_runs_its_gru_in_float():
    """quantize_static quantizes the convolution and the classifier and leaves the GRU in
    float32 between a DequantizeLinear and a QuantizeLinear: the plan runs that float
    island as onnxruntime does (graph optimizations off), to within 1 LSB of the output."""
    path = _kws_model("recurrent_kws_f32")
    qpath = WORK_DIR / "recurrent_kws_int8.onnx"
    quantize_static(str(path), str(qpath), RandomInputs([1, 1, 49, 10], seed=23),
                    quant_format=QuantFormat.QDQ, activation_type=QuantType.QInt8,
                    weight_type=QuantType.QInt8, per_channel=True)
    x = np.random.RandomState(24).standard_normal([1, 1, 49, 10]).astype(np.float32)
    (ref,) = onnxruntime_reference(qpath, {"x": x})
    (y,) = _run(compile_plan(qpath, "recurrent_kws_int8", "20K"), {"x": x}, ["y"],
                "recurrent_kws_int8", extra=["--dequantize"])
    assert y.shape == ref.shape
    lsb = output_scale(qpath)
    assert np.abs(y - ref).max() <= lsb * 1.001


@pytest.mark.parametrize("case,attrs,why", [
    ("input_forget", {"input_forget": 1}, "input_forget"),
    ("affine_without_values", {"activations": ["Affine", "Tanh", "Tanh"]}, "activation_alpha"),
    ("unknown_function", {"activations": ["Swish", "Tanh", "Tanh"]}, "Swish"),
])
def test_unsupported_forms_are_refused_by_name(case, attrs, why):
    name = f"recurrent_refused_{case}"
    rng = np.random.RandomState(14)
    names, inits = _weights(rng, "LSTM", 1)
    node = helper.make_node("LSTM", names, ["", "Y_h"], hidden_size=H, **attrs)
    path = save_model([node], name, [("x", TensorProto.FLOAT, [S, B, I])],
                      _outputs("LSTM", 1, 0, ["Y_h"]), inits, opset=14)
    result = tigris("compile", path, "-m", "64M", "-o", WORK_DIR / f"{name}.tgrs", check=False)
    assert result.returncode != 0
    assert why in result.stderr
