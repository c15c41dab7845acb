"""int8 fidelity of an EfficientNet-class block (issue 12: EfficientNet-B0 drifted by up to
6 LSB while MobileNetV2 was bit-exact). One MBConv block as EfficientNet-B0 writes it:

  x[1, 16, 14, 14] -> Conv 1x1 (to 64) -> SiLU -> depthwise 3x3 -> SiLU
    -> squeeze-excite: GlobalAveragePool -> Conv 1x1 (to 4) -> SiLU -> Conv 1x1 (to 64)
       -> Sigmoid -> Mul (broadcast over H, W)
    -> Conv 1x1 (to 16) -> Add x -> y

SiLU is Sigmoid x Mul, as exporters write it. torchvision's SqueezeExcitation writes the
excitation the other way round, `scale * input`: Mul(gate, map), the broadcast operand
first (issue 37: those plans were refused, their tile regions indexed the gate). Both
orders are built. Quantized by onnxruntime's quantize_static
(QDQ, per-channel weights) with int8 and with uint8 activations, compiled at a budget that
runs it whole and one that spills and row-tiles, and compared with onnxruntime (graph
optimizations off, QDQ evaluated as written) on several inputs: within 1 LSB everywhere,
and identical bytes at both budgets. float32 within 1e-4 of the largest magnitude."""
import json

import numpy as np
import onnx
import pytest
from onnx import helper, numpy_helper
from onnxruntime.quantization import QuantFormat, QuantType, quantize_static

from conftest import WORK_DIR, record, tigris
from qdq_helpers import RandomInputs, float_model, onnxruntime_reference, output_scale

C, EXPANDED, SQUEEZED, SIDE = 16, 64, 4, 14
SHAPE = [1, C, SIDE, SIDE]
# Roomy; spilling and row-tiling (int8 at 32K: five stages, two of them tiled); and near the
# smallest budget, where the squeeze-excite Mul itself runs in row tiles, the scale read
# whole by every tile.
BUDGETS = {"float": ["1M", "128K", "16K"], "int8": ["1M", "32K", "4K"],
           "uint8": ["1M", "32K", "4K"]}
INPUTS = 4
ORDERS = ("map_first", "gate_first")  # Mul(map, gate) as in issue 12; Mul(gate, map)


def mbconv_se_block(gate_first=False):
    rng = np.random.RandomState(0)

    def weight(name, shape):
        fan_in = int(np.prod(shape[1:]))
        return numpy_helper.from_array(
            (rng.standard_normal(shape) * np.sqrt(2.0 / fan_in)).astype(np.float32), name)

    def bias(name, n):
        return numpy_helper.from_array(rng.uniform(-0.1, 0.1, n).astype(np.float32), name)

    inits = [weight("w_exp", [EXPANDED, C, 1, 1]), bias("b_exp", EXPANDED),
             weight("w_dw", [EXPANDED, 1, 3, 3]), bias("b_dw", EXPANDED),
             weight("w_se1", [SQUEEZED, EXPANDED, 1, 1]), bias("b_se1", SQUEEZED),
             weight("w_se2", [EXPANDED, SQUEEZED, 1, 1]), bias("b_se2", EXPANDED),
             weight("w_proj", [C, EXPANDED, 1, 1]), bias("b_proj", C)]
    node = helper.make_node

    def silu(x, y):
        return [node("Sigmoid", [x], [f"{x}_sigmoid"]), node("Mul", [x, f"{x}_sigmoid"], [y])]

    nodes = [node("Conv", ["x", "w_exp", "b_exp"], ["e"]), *silu("e", "ea"),
             node("Conv", ["ea", "w_dw", "b_dw"], ["d"], group=EXPANDED, pads=[1, 1, 1, 1]),
             *silu("d", "da"),
             node("GlobalAveragePool", ["da"], ["pooled"]),
             node("Conv", ["pooled", "w_se1", "b_se1"], ["s1"]), *silu("s1", "s1a"),
             node("Conv", ["s1a", "w_se2", "b_se2"], ["s2"]),
             node("Sigmoid", ["s2"], ["gate"]),
             node("Mul", ["gate", "da"] if gate_first else ["da", "gate"], ["excited"]),
             node("Conv", ["excited", "w_proj", "b_proj"], ["p"]),
             node("Add", ["p", "x"], ["y"])]
    return float_model(nodes, "mbconv_se", SHAPE, SHAPE, inits)


@pytest.fixture(scope="module")
def models():
    WORK_DIR.mkdir(parents=True, exist_ok=True)
    paths = {}
    for order in ORDERS:
        float_path = paths[("float", order)] = WORK_DIR / f"mbconv_se.{order}.float.onnx"
        onnx.save(mbconv_se_block(gate_first=order == "gate_first"), float_path)
        for variant, activations in (("int8", QuantType.QInt8), ("uint8", QuantType.QUInt8)):
            paths[(variant, order)] = WORK_DIR / f"mbconv_se.{order}.{variant}.onnx"
            quantize_static(str(float_path), str(paths[(variant, order)]),
                            RandomInputs(SHAPE, 1, count=16),
                            quant_format=QuantFormat.QDQ, per_channel=True,
                            activation_type=activations, weight_type=QuantType.QInt8)
    return paths


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("variant", ["float", "int8", "uint8"])
def test_squeeze_excite_block_matches_onnxruntime(models, variant, order):
    path = models[(variant, order)]
    plans = {}
    for budget in BUDGETS[variant]:
        plans[budget] = WORK_DIR / f"mbconv_se.{order}.{variant}.{budget}.tgrs"
        tigris("compile", path, "-m", budget, "--xip", "-o", plans[budget])
    # At the smallest budget the scale's Mul (the op reading the Sigmoid's output) is tiled.
    info = json.loads(tigris("inspect", "--json", plans[BUDGETS[variant][-1]]).stdout)
    gate = next(i for i, t in enumerate(info["tensors"]) if t["name"].startswith("gate"))
    mul = next(i for i, op in enumerate(info["ops"]) if op["code"] == "MUL" and gate in op["inputs"])
    loops = [c["tile"]["ops"] for c in info["chains"]] + [
        s["tile"]["ops"] for s in info["stages"] if s.get("tile")]
    assert any(mul in ops for ops in loops), "the squeeze-excite Mul was meant to be tiled"
    worst_lsb, share = 0, 1.0
    for seed in range(INPUTS):
        x = np.random.RandomState(100 + seed).standard_normal(SHAPE).astype(np.float32)
        x_path = WORK_DIR / f"mbconv_se.{order}.{variant}.x{seed}.npy"
        np.save(x_path, x)
        ref = onnxruntime_reference(path, {"x": x})[0]
        outputs = []
        for budget, plan in plans.items():
            y_path = WORK_DIR / f"mbconv_se.{order}.{variant}.{budget}.y{seed}.npy"
            tigris("run", plan, "--input", x_path, "--output", y_path, "--dequantize")
            outputs.append(np.load(y_path))
        for other in outputs[1:]:
            assert other.tobytes() == outputs[0].tobytes(), f"input {seed}: budgets differ"
        y = outputs[0]
        if variant == "float":
            np.testing.assert_allclose(y, ref, rtol=0, atol=1e-4 * np.abs(ref).max())
            continue
        lsb = np.rint(np.abs(y.astype(np.float64) - ref) / output_scale(path))
        worst_lsb = max(worst_lsb, int(lsb.max()))
        share = min(share, float(np.mean(lsb <= 1)))
    if variant != "float":
        record(f"mbconv_se {order} {variant}", max_lsb=worst_lsb, within_1_lsb=share)
        assert worst_lsb <= 1, f"{worst_lsb} LSB off onnxruntime"
