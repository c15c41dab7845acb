"""`tigris run --dump-intermediates DIR`: every op output of a run, written as .npy in the
ONNX layout with an index.json. Checked against independent references: onnxruntime's own
intermediate tensors (the model re-run with them as graph outputs, graph optimizations off),
the plan's --output files, and the same model compiled at a budget that tiles, whose every
intermediate must hold the same bytes as the untiled plan's."""
import json

import numpy as np
import onnx
import onnxruntime as ort
import pytest

from conftest import BUILD_DIR, MODELS_DIR, WORK_DIR, tigris

# (model, variant, a budget that row-tiles it, weights in place): small enough to keep the
# suite quick. mnist8 at 8K chains a convolution into a 3x3 stride-3 max pool, which reads
# 12 of its 14 rows: the plan never computes the other two.
CASES = [("vww_small_cnn", "float", "24K"), ("vww_small_cnn", "int8", "8K"),
         ("kws_small_cnn", "int8", "4K"), ("mnist8", "float", "8K")]


def model_path(stem, variant):
    if variant == "float":
        return MODELS_DIR / "onnx" / f"{stem}.onnx"
    return BUILD_DIR / "test-models" / f"{stem}.{variant}.onnx"


def onnxruntime_tensors(path, feeds, names):
    """Values of `names` (tensors of the model) as onnxruntime computes them."""
    model = onnx.shape_inference.infer_shapes(onnx.load(str(path)))
    types = {v.name: v.type.tensor_type.elem_type
             for v in list(model.graph.value_info) + list(model.graph.output)}
    existing = {o.name for o in model.graph.output}
    wanted = [n for n in names if n in types]
    for name in wanted:
        if name not in existing:
            model.graph.output.append(onnx.helper.make_tensor_value_info(name, types[name], None))
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    session = ort.InferenceSession(model.SerializeToString(), options,
                                   providers=["CPUExecutionProvider"])
    return dict(zip(wanted, session.run(wanted, feeds)))


def dump(path, stem, budget, x_path):
    plan = WORK_DIR / f"{stem}.dump.{budget}.tgrs"
    out_dir = WORK_DIR / f"{stem}.dump.{budget}"
    y_path = WORK_DIR / f"{stem}.dump.{budget}.y.npy"
    tigris("compile", path, "-m", budget, "--xip", "-o", plan)
    result = tigris("run", plan, "--input", x_path, "--output", y_path,
                    "--dump-intermediates", out_dir)
    index = json.loads((out_dir / "index.json").read_text())
    assert f"{len(index)} tensors" in result.stdout, result.stdout
    arrays = {e["tensor"]: np.load(out_dir / e["file"]) for e in index}
    return index, arrays, np.load(y_path), json.loads(tigris("inspect", "--json", plan).stdout)


@pytest.mark.parametrize("stem,variant,budget", CASES)
def test_intermediates_match_onnxruntime_and_the_untiled_plan(stem, variant, budget):
    path = model_path(stem, variant)
    if not path.exists():
        pytest.fail(f"{path} is missing (tests/models/make_qdq_models.py builds it)")
    inputs = onnx.load(str(path)).graph.input
    shape = [d.dim_value for d in inputs[0].type.tensor_type.shape.dim]
    x = np.random.RandomState(5).uniform(-1, 1, shape).astype(np.float32)
    x_path = WORK_DIR / f"{stem}.{variant}.dump.x.npy"
    np.save(x_path, x)
    key = f"{stem}.{variant}"

    index, whole, y, _ = dump(path, key, "16M", x_path)
    tiled_index, tiled, tiled_y, tiled_plan = dump(path, key, budget, x_path)
    assert any(s["strategy"] != "normal" for s in tiled_plan["stages"]), "budget did not tile"

    # The untiled plan computes every row of every op's output.
    assert all(e["complete"] for e in index)
    assert [e["tensor"] for e in index] == [e["tensor"] for e in tiled_index]
    # The last op's output is the graph output the run wrote.
    assert np.array_equal(whole[index[-1]["tensor"]], y)
    # Tiled == untiled, layer by layer, on the rows the tiled plan computes (H is axis 2 of
    # NCHW); the others hold 0.
    for e in tiled_index:
        name, a, b = e["tensor"], whole[e["tensor"]], tiled[e["tensor"]]
        assert a.dtype == b.dtype and a.shape == b.shape, name
        skipped = e.get("rows_not_computed", [])
        assert e["complete"] == (not skipped)
        rows = [r for r in range(a.shape[2] if a.ndim == 4 else 1) if r not in skipped]
        if a.ndim == 4:
            assert np.array_equal(a[:, :, rows], b[:, :, rows]), name
            assert not np.any(b[:, :, skipped]), name
        else:
            assert not skipped and np.array_equal(a, b), name
    assert np.array_equal(y, tiled_y)

    reference = onnxruntime_tensors(path, {inputs[0].name: x}, list(whole))
    # Normalization renames a few tensors (fused activations write the op's output); most
    # op outputs keep their ONNX names, and the comparison must cover them.
    assert len(reference) >= len(whole) // 2, (sorted(whole), sorted(reference))
    for e in index:
        name = e["tensor"]
        if name not in reference:
            continue
        ours, ref = whole[name], reference[name]
        assert ours.shape == ref.shape, (name, ours.shape, ref.shape)
        if ours.dtype == np.float32:
            scale = max(1.0, float(np.abs(ref).max()))
            err = float(np.abs(ours - ref).max()) / scale
            assert err <= 1e-4, f"{name}: max error {err:.2e}"
        else:
            if ref.dtype == np.float32:
                # A graph output keeps its public name on the int8 tensor; the model's is
                # the DequantizeLinear after it: quantize it back with the plan's parameters.
                ref_q = np.clip(np.round(ref.astype(np.float64) / e["scale"]) + e["zero_point"],
                                -128, 127).astype(np.int64)
            else:
                # The plan's int8 is the model's uint8 shifted by -128 (same real values).
                ref_q = ref.astype(np.int64) - (128 if ref.dtype == np.uint8 else 0)
            lsb = np.abs(ours.astype(np.int64) - ref_q)
            assert lsb.max() <= 1, f"{name} ({e['code']}): max {lsb.max()} LSB"
