"""What the end-to-end tests that build their own models share: the model's wrapping, the
calibration samples onnxruntime's quantize_static reads, QDQ model surgery, and the
onnxruntime reference."""
import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
from onnxruntime.quantization import CalibrationDataReader


def save_model(nodes, name, inputs, outputs, inits, opset=17):
    """Checks a model of `nodes` and saves it as WORK_DIR/<name>.onnx. `inputs` and
    `outputs`: (name, TensorProto type, shape) triples."""
    from conftest import WORK_DIR

    graph = helper.make_graph(nodes, name,
                              [helper.make_tensor_value_info(*t) for t in inputs],
                              [helper.make_tensor_value_info(*t) for t in outputs], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    path = WORK_DIR / f"{name}.onnx"
    onnx.save(model, str(path))
    return path


def compile_plan(path, name, budget="64M", extra=()):
    """`tigris compile PATH -m BUDGET --xip` into WORK_DIR/<name>.tgrs; returns that path."""
    from conftest import WORK_DIR, tigris

    plan = WORK_DIR / f"{name}.tgrs"
    tigris("compile", path, "-m", budget, "--xip", "-o", plan, *extra)
    return plan


def run_plan(plan, feeds, name, outputs=("y",), extra=(), check=True):
    """`tigris run` on `feeds` (input name -> array, saved beside the plan as .npy, in the
    plan's input order); returns the arrays of `outputs`, in order. With check=False a run
    that fails returns its CompletedProcess instead."""
    from conftest import WORK_DIR, tigris

    args = list(extra)
    for key, value in feeds.items():
        p = WORK_DIR / f"{name}.{key}.npy"
        np.save(p, value)
        args += ["--input", p]
    paths = [WORK_DIR / f"{name}.{o}.npy" for o in outputs]
    for p in paths:
        args += ["--output", p]
    result = tigris("run", plan, *args, check=check)
    if result.returncode != 0:
        return result
    return [np.load(p) for p in paths]


def float_model(nodes, name, x_shape, y_shape, inits):
    """A checked opset-13 model of `nodes` with one float input x and one output y."""
    graph = helper.make_graph(nodes, name,
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, x_shape)],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, y_shape)],
                              inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


class RandomInputs(CalibrationDataReader):
    """`count` standard-normal samples of input x, reproducible from `seed`."""

    def __init__(self, shape, seed, count=8):
        rng = np.random.RandomState(seed)
        self._samples = iter([{"x": rng.standard_normal(shape).astype(np.float32)}
                              for _ in range(count)])

    def get_next(self):
        return next(self._samples, None)


def quantize_every_activation(path, out_path, calibration):
    """quantize_static leaves ops without a QDQ rule in float (LRN, Reshape, Transpose,
    Slice); other exporters quantize every activation. Adds a QuantizeLinear ->
    DequantizeLinear pair (symmetric, scale = max |value| / 127 over the samples of
    `calibration`, a CalibrationDataReader) after every float activation without one, so
    those ops run int8."""
    model = onnx.load(str(path))
    produced = {o for n in model.graph.node if n.op_type != "QuantizeLinear" for o in n.output}
    quantized = {n.input[0] for n in model.graph.node if n.op_type == "QuantizeLinear"}
    outputs = {o.name for o in model.graph.output}
    dq_outputs = {n.output[0] for n in model.graph.node if n.op_type == "DequantizeLinear"}
    todo = sorted(t for t in produced - quantized - outputs - dq_outputs)
    probe = onnx.load(str(path))
    probe.graph.output.extend(helper.make_tensor_value_info(t, TensorProto.FLOAT, None)
                              for t in todo)
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    session = ort.InferenceSession(probe.SerializeToString(), options,
                                   providers=["CPUExecutionProvider"])
    peak = dict.fromkeys(todo, 0.0)
    while (sample := calibration.get_next()) is not None:
        for name, value in zip(todo, session.run(todo, sample)):
            peak[name] = max(peak[name], float(np.abs(value).max()))
    for name in todo:
        scale, zero = f"{name}_qscale", f"{name}_qzero"
        model.graph.initializer.extend([
            numpy_helper.from_array(np.array(max(peak[name], 1e-6) / 127, np.float32), scale),
            numpy_helper.from_array(np.array(0, np.int8), zero)])
        for node in model.graph.node:
            for i, tensor in enumerate(node.input):
                if tensor == name:
                    node.input[i] = f"{name}_dq"
        model.graph.node.extend([
            helper.make_node("QuantizeLinear", [name, scale, zero], [f"{name}_q"]),
            helper.make_node("DequantizeLinear", [f"{name}_q", scale, zero], [f"{name}_dq"])])
    sorted_model = onnx.helper.make_model(
        helper.make_graph(_topological(model.graph.node), model.graph.name,
                          model.graph.input, model.graph.output, model.graph.initializer),
        opset_imports=model.opset_import)
    sorted_model.ir_version = model.ir_version
    onnx.save(sorted_model, str(out_path))


def _topological(nodes):
    ready = set()
    pending, ordered = list(nodes), []
    produced = {o for n in nodes for o in n.output}
    while pending:
        for node in pending:
            if all(i not in produced or i in ready for i in node.input):
                ordered.append(node)
                ready.update(node.output)
                pending.remove(node)
                break
    return ordered


def onnxruntime_reference(path, feeds):
    """The model's outputs as onnxruntime computes them with graph optimizations off (QDQ
    evaluated as written)."""
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    return session.run(None, feeds)


def reference_run(session, x_path, seed=0):
    """Runs onnxruntime `session` (one graph input) on a deterministic input, saved as .npy
    at `x_path`: int8 data for an int8 graph input (the TFLite conversions; the host feeds
    it as it is), else standard normal float32. Returns the first output."""
    assert len(session.get_inputs()) == 1, "one-input models only"
    spec = session.get_inputs()[0]
    shape = [d if isinstance(d, int) else 1 for d in spec.shape]
    rng = np.random.RandomState(seed)
    if spec.type == "tensor(int8)":
        x = rng.randint(-128, 128, size=shape).astype(np.int8)
    else:
        x = rng.standard_normal(shape).astype(np.float32)
    np.save(x_path, x)
    return session.run(None, {spec.name: x})[0]


def output_scale(path, output="y"):
    """Scale of the DequantizeLinear that writes graph output `output`."""
    model = onnx.load(str(path))
    inits = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    for node in model.graph.node:
        if node.op_type == "DequantizeLinear" and node.output[0] == output:
            return float(inits[node.input[1]])
    raise AssertionError(f"no DequantizeLinear writes output '{output}'")


def he_normal(rng, name, shape):
    """A float32 initializer drawn He-normal (standard deviation sqrt(2 / fan_in)), the way
    convolution and dense layers are initialized, from `rng` (numpy RandomState)."""
    fan_in = int(np.prod(shape[1:]))
    return numpy_helper.from_array(
        (rng.standard_normal(shape) * np.sqrt(2.0 / fan_in)).astype(np.float32), name)


def assert_matches_reference(y, ref, path, variant, what, float_tolerance=1e-4, max_lsb=2):
    """`y` (a plan's output, dequantized for int8) against onnxruntime's `ref`: float32 within
    `float_tolerance` of the largest magnitude; int8 within 1 LSB of the output's scale on
    >= 99% of the elements and never past `max_lsb`. `what` names the run in messages."""
    assert y.shape == ref.shape, what
    if variant == "float":
        np.testing.assert_allclose(y, ref, rtol=0, atol=float_tolerance * np.abs(ref).max(),
                                   err_msg=what)
        return
    lsb = np.rint(np.abs(y.astype(np.float64) - ref) / output_scale(path))
    assert np.mean(lsb <= 1) >= 0.99, f"{what}: max {lsb.max():.0f} LSB"
    assert lsb.max() <= max_lsb, f"{what}: {lsb.max():.0f} LSB"


def tile_loops(inspect_json):
    """The tile loops of a plan (`tigris inspect --json`): its stages' and its chains'."""
    loops = [s["tile"] for s in inspect_json["stages"] if s.get("tile")]
    return loops + [c["tile"] for c in inspect_json.get("chains", []) if c.get("tile")]
