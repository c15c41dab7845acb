"""Graph inputs and outputs the model declares uint8 stay uint8 for the caller (issue 12,
quantization forms): the runtime computes in int8 and flips the top bit of each byte as it
copies (uint8 q is int8 q - 128). A conv whose uint8 input is read by DequantizeLinear and
whose QuantizeLinear to uint8 is the graph output, compiled and run by `tigris`:

  x[1, 3, 8, 8] uint8 -> DequantizeLinear -> Conv 3x3 -> QuantizeLinear -> y uint8

The plan says so (inspect), uint8 arrays go in and come out equal to onnxruntime's at a
roomy budget and a tiled one, float32 given for x is quantized as the model would, and an
int8 array for x is refused naming the dtype the plan wants."""
import json

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from conftest import WORK_DIR, tigris
from qdq_helpers import onnxruntime_reference

SHAPE = [1, 3, 8, 8]
S_X, Z_X, S_Y, Z_Y = 0.02, 128, 0.05, 120


def uint8_conv():
    rng = np.random.RandomState(0)
    inits = [
        numpy_helper.from_array(rng.randint(-100, 100, (4, 3, 3, 3)).astype(np.int8), "wq"),
        numpy_helper.from_array(np.array(0.01, np.float32), "sw"),
        numpy_helper.from_array(np.array(0, np.int8), "zw"),
        numpy_helper.from_array(np.array(S_X, np.float32), "sx"),
        numpy_helper.from_array(np.array(Z_X, np.uint8), "zx"),
        numpy_helper.from_array(np.array(S_Y, np.float32), "sy"),
        numpy_helper.from_array(np.array(Z_Y, np.uint8), "zy"),
    ]
    nodes = [helper.make_node("DequantizeLinear", ["x", "sx", "zx"], ["xd"]),
             helper.make_node("DequantizeLinear", ["wq", "sw", "zw"], ["wd"]),
             helper.make_node("Conv", ["xd", "wd"], ["c"], pads=[1, 1, 1, 1]),
             helper.make_node("QuantizeLinear", ["c", "sy", "zy"], ["y"])]
    graph = helper.make_graph(
        nodes, "uint8_io", [helper.make_tensor_value_info("x", TensorProto.UINT8, SHAPE)],
        [helper.make_tensor_value_info("y", TensorProto.UINT8, [1, 4, 8, 8])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


@pytest.fixture(scope="module")
def model_path():
    WORK_DIR.mkdir(parents=True, exist_ok=True)
    path = WORK_DIR / "uint8_io.onnx"
    onnx.save(uint8_conv(), path)
    return path


def test_the_plan_declares_uint8_at_the_caller(model_path):
    plan = WORK_DIR / "uint8_io.1M.tgrs"
    tigris("compile", model_path, "-m", "1M", "-o", plan)
    info = json.loads(tigris("inspect", "--json", plan).stdout)
    io = [info["tensors"][i] for i in info["plan"]["inputs"] + info["plan"]["outputs"]]
    assert [t["dtype"] for t in io] == ["INT8", "INT8"], io
    assert [t.get("host_dtype") for t in io] == ["UINT8", "UINT8"], io
    # The plan's zero points are the int8 ones: the model's minus 128.
    assert [t["quant"]["zero_point"] for t in io] == [[Z_X - 128], [Z_Y - 128]], io


def test_uint8_arrays_in_and_out_match_onnxruntime(model_path):
    x = np.random.RandomState(4).randint(0, 256, SHAPE).astype(np.uint8)
    x_path = WORK_DIR / "uint8_io.x.npy"
    np.save(x_path, x)
    ref = onnxruntime_reference(model_path, {"x": x})[0]
    assert ref.dtype == np.uint8
    outputs = []
    for budget in ("1M", "384"):  # input 192 B + output 256 B: 384 B tiles the conv
        plan = WORK_DIR / f"uint8_io.{budget}.tgrs"
        y_path = WORK_DIR / f"uint8_io.{budget}.y.npy"
        tigris("compile", model_path, "-m", budget, "--xip", "-o", plan)
        tigris("run", plan, "--input", x_path, "--output", y_path)
        y = np.load(y_path)
        assert y.dtype == np.uint8, budget
        assert np.abs(y.astype(int) - ref.astype(int)).max() <= 1, budget
        outputs.append(y.tobytes())
    assert outputs[0] == outputs[1], "the tiled plan's output differs from the untiled one's"
    report = tigris("inspect", WORK_DIR / "uint8_io.384.tgrs").stdout
    assert " tiled " in report or " chain " in report, report


def test_float_given_for_a_uint8_input_is_quantized_as_the_model_would(model_path):
    x = np.random.RandomState(5).randint(0, 256, SHAPE).astype(np.uint8)
    real = ((x.astype(np.float32) - Z_X) * S_X).astype(np.float32)
    real_path = WORK_DIR / "uint8_io.real.npy"
    np.save(real_path, real)
    ref = onnxruntime_reference(model_path, {"x": x})[0]
    plan = WORK_DIR / "uint8_io.1M.tgrs"
    tigris("compile", model_path, "-m", "1M", "-o", plan)
    y_path = WORK_DIR / "uint8_io.real.y.npy"
    tigris("run", plan, "--input", real_path, "--output", y_path, "--dequantize")
    y = np.load(y_path)
    expected = (ref.astype(np.float32) - Z_Y) * S_Y
    assert np.abs(y - expected).max() <= S_Y * 1.01


def test_an_int8_array_for_a_uint8_input_is_refused(model_path):
    plan = WORK_DIR / "uint8_io.1M.tgrs"
    tigris("compile", model_path, "-m", "1M", "-o", plan)
    x_path = WORK_DIR / "uint8_io.int8.npy"
    np.save(x_path, np.zeros(SHAPE, np.int8))
    result = tigris("run", plan, "--input", x_path, "--output", WORK_DIR / "uint8_io.n.npy",
                    check=False)
    assert result.returncode == 1
    assert "cannot be given as INT8 (use UINT8" in result.stderr, result.stderr


def test_the_ops_header_selects_the_uint8_copies(model_path):
    plan = WORK_DIR / "uint8_io.1M.tgrs"
    header = WORK_DIR / "uint8_io.ops.h"
    tigris("compile", model_path, "-m", "1M", "-o", plan)
    tigris("inspect", plan, "--ops-header", header)
    assert "#define TGRS_WITH_UINT8_IO 1" in header.read_text()
