"""Plan.run, Plan/Model.inputs()/outputs(), load_plan and `python -m tigris`. Expected
output bytes come from the `tigris` CLI (`tigris run`, an independent client of the C ABI)
on the same plan and input; expected names and shapes from the ONNX files themselves,
read with the onnx package."""

import os
import pathlib
import subprocess
import sys

import numpy as np
import onnx
import pytest

import tigris


def _declared(path):
    """[(name, shape)] of the ONNX graph's inputs (initializers excluded) and outputs."""
    graph = onnx.load(str(path)).graph
    inits = {i.name for i in graph.initializer}
    dims = lambda v: [d.dim_value for d in v.type.tensor_type.shape.dim]  # noqa: E731
    return ([(v.name, dims(v)) for v in graph.input if v.name not in inits],
            [(v.name, dims(v)) for v in graph.output])


def _cli_run(cli, plan_path, x, tmp_path, *extra):
    x_path, y_path = tmp_path / "x.npy", tmp_path / "y.npy"
    np.save(x_path, x)
    subprocess.run([str(cli), "run", str(plan_path), "--input", str(x_path), "--output",
                    str(y_path), *extra], check=True, capture_output=True)
    return np.load(y_path)


@pytest.fixture(scope="session")
def models_dir():
    return pathlib.Path(os.environ["TIGRIS_MODELS_DIR"])


@pytest.fixture(scope="session")
def int8_model():
    path = pathlib.Path(os.environ["TIGRIS_BUILD_DIR"]) / "test-models" / "mnist8.int8.onnx"
    assert path.is_file(), path
    return path


def test_inputs_and_outputs_are_the_onnx_declarations(model_path):
    want_in, want_out = _declared(model_path)
    with tigris.load(model_path) as model, model.plan(fast="64K", xip=True) as plan:
        for got in (model.inputs(), plan.inputs()):
            assert [(t["name"], t["shape"]) for t in got] == want_in
            assert [t["dtype"] for t in got] == ["float32"]
        for got in (model.outputs(), plan.outputs()):
            assert [(t["name"], t["shape"]) for t in got] == want_out


def test_run_equals_cli_run_on_a_tiled_plan(model_path, cli, tmp_path):
    with tigris.load(model_path) as model, model.plan(fast="16K", xip=True) as plan:
        assert plan.fast_arena_bytes <= 16 * 1024
        (spec,) = plan.inputs()
        x = np.random.default_rng(7).standard_normal(spec["shape"]).astype(np.float32)
        got = plan.run({spec["name"]: x})
        plan.save(tmp_path / "plan.tgrs")
    want = _cli_run(cli, tmp_path / "plan.tgrs", x, tmp_path)
    (name,) = got
    assert got[name].dtype == want.dtype and got[name].shape == want.shape
    assert got[name].tobytes() == want.tobytes()
    # The runtime's high-water mark is the plan's arena (rounded to 16 bytes).
    assert (got.stats.fast_hwm_bytes + 15) // 16 * 16 == got.stats.fast_arena_bytes


def test_loaded_plan_runs_like_the_compiled_one(model_path, tmp_path):
    with tigris.load(model_path) as model, model.plan(fast="32K", xip=True) as plan:
        x = np.linspace(-1, 1, num=np.prod(plan.inputs()[0]["shape"]), dtype=np.float32)
        x = x.reshape(plan.inputs()[0]["shape"])
        name = plan.inputs()[0]["name"]
        want = plan.run({name: x})
        plan.save(tmp_path / "p.tgrs")
        data = plan.emit()
    for source in (tmp_path / "p.tgrs", str(tmp_path / "p.tgrs"), data, bytearray(data)):
        with tigris.load_plan(source) as loaded:
            assert loaded.emit() == data
            got = loaded.run({name: x})
            assert [a.tobytes() for a in got.values()] == [a.tobytes() for a in want.values()]


def test_stripped_names_keep_the_callers_and_the_output(model_path):
    with tigris.load(model_path) as model, \
            model.plan(fast="16K", xip=True) as named, \
            model.plan(fast="16K", xip=True, strip_names=True) as stripped:
        assert len(stripped.emit()) < len(named.emit())
        assert stripped.inputs() == named.inputs() and stripped.outputs() == named.outputs()
        (spec,) = named.inputs()
        x = np.linspace(-1, 1, int(np.prod(spec["shape"])), dtype=np.float32)
        feed = {spec["name"]: x.reshape(spec["shape"])}
        got, want = stripped.run(feed), named.run(feed)
        assert [a.tobytes() for a in got.values()] == [a.tobytes() for a in want.values()]


def test_int8_plan_quantizes_floats_and_dequantizes_on_request(int8_model, cli, tmp_path):
    with tigris.load(int8_model) as model, model.plan(fast="64K", xip=True) as plan:
        (spec,) = plan.inputs()
        assert spec["dtype"] == "int8" and len(spec["scales"]) == 1
        x = np.random.default_rng(3).uniform(-1, 1, spec["shape"]).astype(np.float32)
        q = plan.run({spec["name"]: x})
        f = plan.run({spec["name"]: x}, dequantize=True)
        plan.save(tmp_path / "q.tgrs")
        (out_spec,) = plan.outputs()
    (yq,), (yf,) = q.values(), f.values()
    assert yq.dtype == np.int8 and yf.dtype == np.float32
    # ONNX DequantizeLinear with the output's own scale and zero point.
    scale, zero = out_spec["scales"][0], out_spec["zero_points"][0]
    np.testing.assert_allclose(yf, (yq.astype(np.float32) - zero) * np.float32(scale), rtol=1e-6)
    assert yq.tobytes() == _cli_run(cli, tmp_path / "q.tgrs", x, tmp_path).tobytes()
    assert yf.tobytes() == _cli_run(cli, tmp_path / "q.tgrs", x, tmp_path,
                                    "--dequantize").tobytes()


def test_bad_inputs_raise_named_errors(model_path):
    with tigris.load(model_path) as model, model.plan(fast="64K", xip=True) as plan:
        (spec,) = plan.inputs()
        x = np.zeros(spec["shape"], np.float32)
        with pytest.raises(tigris.InvalidArgumentError, match="is missing"):
            plan.run({})
        with pytest.raises(tigris.InvalidArgumentError, match="no graph input named 'nope'"):
            plan.run({spec["name"]: x, "nope": x})
        with pytest.raises(tigris.InvalidArgumentError, match="has shape"):
            plan.run({spec["name"]: x[..., :-1]})
        with pytest.raises(tigris.InvalidArgumentError, match="got an array of int32"):
            plan.run({spec["name"]: x.astype(np.int32)})
        with pytest.raises(tigris.InvalidArgumentError, match="TGRS_ERR_ARENA_TOO_SMALL"):
            plan.run({spec["name"]: x}, fast=plan.fast_arena_bytes - 16)
        data = bytearray(plan.emit())
    data[5] ^= 0x20  # the file identifier
    with pytest.raises(tigris.InvalidPlanError, match="TGRS_ERR_BAD_IDENTIFIER"):
        tigris.load_plan(bytes(data))
    with pytest.raises(tigris.IOError):
        tigris.load_plan("/nonexistent/plan.tgrs")


def test_python_m_tigris_compiles_and_runs_like_the_cli(model_path, cli, tmp_path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    py = [sys.executable, "-m", "tigris"]
    subprocess.run(py + ["compile", str(model_path), "-m", "16K", "--xip", "-o",
                         str(tmp_path / "py.tgrs")], check=True, env=env, capture_output=True)
    subprocess.run([str(cli), "compile", str(model_path), "-m", "16K", "--xip", "-o",
                    str(tmp_path / "cli.tgrs")], check=True, capture_output=True)
    assert (tmp_path / "py.tgrs").read_bytes() == (tmp_path / "cli.tgrs").read_bytes()
    with tigris.load_plan(tmp_path / "py.tgrs") as plan:
        x = np.random.default_rng(1).standard_normal(plan.inputs()[0]["shape"]).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    subprocess.run(py + ["run", str(tmp_path / "py.tgrs"), "-i", str(tmp_path / "x.npy"), "-o",
                         str(tmp_path / "y.npy")], check=True, env=env, capture_output=True)
    (tmp_path / "cli").mkdir()
    want = _cli_run(cli, tmp_path / "cli.tgrs", x, tmp_path / "cli")
    assert np.load(tmp_path / "y.npy").tobytes() == want.tobytes()
    bad = subprocess.run(py + ["run", "/nonexistent.tgrs"], env=env, capture_output=True, text=True)
    assert bad.returncode == 1 and "TIGRIS_ERR_IO" in bad.stderr
