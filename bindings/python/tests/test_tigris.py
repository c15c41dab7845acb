"""The Python binding against the CLI: same model, same budgets, same answers."""

import os
import pathlib
import subprocess

import pytest

import tigris


def test_analyze_matches_cli_json(model_path, cli_analysis):
    with tigris.load(model_path) as model:
        report = model.analyze(fast="64K")
    # The headline numbers the issue names, then the whole document (both print
    # tigris_analysis_json, so they must be equal as JSON values).
    for key in ("scheduled_peak_bytes", "verdict"):
        assert report[key] == cli_analysis[key]
    assert len(report["stages"]) == len(cli_analysis["stages"])
    assert report["memory"] == cli_analysis["memory"]  # holds the naive peak
    assert report == cli_analysis


def test_exact_layout_matches_cli_json(cli, model_path):
    import json
    import subprocess
    out = subprocess.run([str(cli), "analyze", str(model_path), "-m", "64K", "--json",
                          "--layout", "exact", "--time-limit", "5"],
                         check=True, capture_output=True, text=True).stdout
    with tigris.load(model_path) as model:
        report = model.analyze(fast="64K", layout="exact", time_limit=5)
    assert report == json.loads(out)
    assert report["budget"]["layout"] == "exact"


def test_bad_layout_options_raise_invalid_argument(model_path):
    with tigris.load(model_path) as model:
        with pytest.raises(tigris.Error) as info:
            model.analyze(fast="64K", layout="best")
        assert info.value.status_name == "TIGRIS_ERR_INVALID_ARGUMENT"
        with pytest.raises(tigris.Error) as info:
            model.plan(fast="64K", layout="exact", time_limit=0)
        assert info.value.status_name == "TIGRIS_ERR_INVALID_ARGUMENT"
        assert "time_limit_seconds" in info.value.message


def test_a_plan_compile_refuses_is_needs_work_with_its_status(model_path):
    """The verdict is a promise: weights over the flash budget make a plan whose stages fit
    one that compile refuses; the report says needs_work and names compile's status."""
    with tigris.load(model_path) as model:
        report = model.analyze(fast="64K", flash="100K")
        assert report["verdict"] == "needs_work"
        assert report["refusal"]["status"] == "TIGRIS_ERR_FLASH_BUDGET_TOO_SMALL"
        assert model.analyze(fast="64K")["refusal"] is None


def test_int_and_string_sizes_agree(model_path):
    with tigris.load(model_path) as model:
        assert model.analyze(fast=64 * 1024) == model.analyze(fast="64K")


def test_load_from_bytes_equals_load_from_path(model_path, cli_analysis):
    with tigris.load(model_path.read_bytes()) as model:
        assert model.analyze(fast="64KiB")["scheduled_peak_bytes"] == \
            cli_analysis["scheduled_peak_bytes"]


def test_plan_bytes_equal_cli_compile(model_path, cli_plan_bytes):
    with tigris.load(model_path) as model:
        with model.plan(fast="64K", xip=True) as plan:
            data = plan.emit()
            assert plan.file_bytes == len(data)
    assert isinstance(data, bytes)
    assert data == cli_plan_bytes


def test_default_weights_are_the_cli_default(model_path, cli, tmp_path):
    """plan() and `tigris compile` share the default weight policy (auto), and each
    explicit policy gives the CLI's bytes for the same --weights."""
    for weights, flags in ((None, []), ("auto", []), ("in-place", ["--xip"]),
                           ("copy", ["--weights", "copy"])):
        out = tmp_path / f"{weights}.tgrs"
        subprocess.run([str(cli), "compile", str(model_path), "-m", "1M", *flags, "-o",
                        str(out)], check=True, capture_output=True)
        kwargs = {} if weights is None else {"weights": weights}
        with tigris.load(model_path) as model, model.plan(fast="1M", **kwargs) as plan:
            assert plan.emit() == out.read_bytes(), weights
    with tigris.load(model_path) as model:
        with pytest.raises(tigris.Error) as info:
            model.plan(fast="256K", weights="ram")
        assert info.value.status_name == "TIGRIS_ERR_INVALID_ARGUMENT"
        assert "'ram'" in info.value.message


def test_state_and_staged_weights_equal_cli_compile(cli, tmp_path):
    """plan(state=..., weights="staged") gives `tigris compile --state ... --weights
    staged`'s bytes; a pair that is not one tensor is refused, naming it."""
    import sys
    import onnx
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[3] / "tests" / "models"))
    from recurrent_cell import recurrent_cell
    path = tmp_path / "cell.onnx"
    onnx.save(recurrent_cell("cell", 4, 8, 3, seed=1), path)
    out = tmp_path / "cell.tgrs"
    subprocess.run([str(cli), "compile", str(path), "-m", "4K", "--state", "h=h_next",
                    "--weights", "staged", "-o", str(out)], check=True, capture_output=True)
    with tigris.load(path) as model:
        with model.plan(fast="4K", weights="staged", state={"h": "h_next"}) as plan:
            assert plan.emit() == out.read_bytes()
        with pytest.raises(tigris.Error) as info:
            model.plan(fast="4K", state={"h": "y"})
        assert info.value.status_name == "TIGRIS_ERR_INVALID_ARGUMENT"
        assert "a state pair carries one tensor" in info.value.message
        with model.plan(fast="4K") as stateless:
            assert stateless.emit() != out.read_bytes()


REPO = pathlib.Path(__file__).resolve().parents[3]
TARGET = REPO / "examples" / "targets" / "tcm_sram_psram_mram.yaml"


def test_target_and_rules_equal_cli_compile(cli, model_path, tmp_path):
    """plan(target=..., rules=...) gives `tigris compile --target --rules`'s bytes and
    memory table; analyze(target=...) gives `tigris analyze --target --json`'s report."""
    import json
    rules = REPO / "examples" / "rules" / "constants_to_mram.yaml"
    out = tmp_path / "ruled.tgrs"
    printed = subprocess.run([str(cli), "compile", str(model_path), "--target", str(TARGET),
                              "--rules", str(rules), "-o", str(out)],
                             check=True, capture_output=True, text=True).stdout
    with tigris.load(model_path) as model:
        with model.plan(target=TARGET, rules=rules) as plan:
            assert plan.emit() == out.read_bytes()
            memories = plan.memories()
            assert [m["name"] for m in memories] == ["DTCM", "SRAM", "PSRAM", "MRAM"]
            for m in memories:  # the CLI prints the same table
                assert f"{m['used_bytes']}" in printed.split(m["name"], 1)[1].splitlines()[0]
            assert plan.warnings == []
            plan.check_target(TARGET)
            small = tmp_path / "small.yaml"
            small.write_text(TARGET.read_text().replace("{name: DTCM, size: 64K}",
                                                        "{name: DTCM, size: 16}"))
            with pytest.raises(tigris.Error) as info:
                plan.check_target(small)
            assert info.value.status_name == "TIGRIS_ERR_DOES_NOT_FIT"
            assert "memory DTCM holds scratch" in info.value.message
        report = model.analyze(target=TARGET)
    cli_report = subprocess.run([str(cli), "analyze", str(model_path), "--target", str(TARGET),
                                 "--json"], check=True, capture_output=True, text=True).stdout
    assert report == json.loads(cli_report)


def test_target_and_budget_options_are_exclusive(model_path):
    rules = REPO / "examples" / "rules" / "constants_to_mram.yaml"
    with tigris.load(model_path) as model:
        for kwargs, text in (({"fast": "64K", "target": TARGET}, "drop fast"),
                             ({"fast": "64K", "rules": rules}, "give target too"),
                             ({}, "give fast=SIZE or target=PATH")):
            with pytest.raises(tigris.Error) as info:
                model.plan(**kwargs)
            assert info.value.status_name == "TIGRIS_ERR_INVALID_ARGUMENT"
            assert text in info.value.message
        with pytest.raises(tigris.Error) as info:
            model.plan(target=REPO / "no-such-target.yaml")
        assert info.value.status_name == "TIGRIS_ERR_IO"


def test_plan_save_writes_same_bytes(model_path, cli_plan_bytes, tmp_path):
    out = tmp_path / "p.tgrs"
    with tigris.load(model_path) as model:
        model.plan(fast="64K", xip=True).save(out)
    assert out.read_bytes() == cli_plan_bytes


def test_bad_path_raises_io_error(tmp_path):
    missing = tmp_path / "no_such_model.onnx"
    with pytest.raises(tigris.Error) as info:
        tigris.load(missing)
    assert info.value.status == 2  # TIGRIS_ERR_IO, pinned in tigris.h
    assert isinstance(info.value, tigris.IOError)
    assert info.value.status_name == "TIGRIS_ERR_IO"
    assert info.value.message  # the library names the path


def test_garbage_bytes_raise_not_onnx_or_truncated():
    with pytest.raises(tigris.Error) as info:
        tigris.load(b"\xff\xff\xff\xff not a protobuf")
    assert info.value.status in (4, 5)  # TIGRIS_ERR_NOT_ONNX / TRUNCATED_MODEL


def test_empty_bytes_raise_empty_model():
    with pytest.raises(tigris.EmptyModelError) as info:
        tigris.load(b"")
    assert info.value.status == 3


def test_bad_size_text_raises_invalid_argument(model_path):
    with tigris.load(model_path) as model:
        with pytest.raises(tigris.InvalidArgumentError) as info:
            model.analyze(fast="64 bananas")
    assert info.value.status == 1


def test_parse_size_units():
    # Binary units, tigris.h: K = 1024, MiB = 1024^2.
    assert tigris.parse_size("256K") == 262144
    assert tigris.parse_size("1.5MiB") == 1572864
    assert tigris.parse_size(7) == 7


def test_closed_model_raises(model_path):
    model = tigris.load(model_path)
    model.close()
    model.close()  # a second close is harmless
    with pytest.raises(tigris.InvalidArgumentError):
        model.analyze(fast="64K")


def test_model_accessors_match_model_json(model_path):
    with tigris.load(model_path) as model:
        doc = model.to_json()["model"]
        assert model.name == doc["name"]
        assert model.op_count == doc["ops"]  # the JSON counts ops and tensors
        assert model.tensor_count == doc["tensors"]
        assert len(model.inputs()) == 1 and len(model.outputs()) == 1
        assert model.op(0)["type"]
        with pytest.raises(tigris.InvalidArgumentError):
            model.op(model.op_count)


def test_version():
    assert tigris.version().count(".") == 2


def _small_mlp(path):
    """x [1, 16] -> Gemm 64 -> Relu -> Gemm 64 -> Relu -> Gemm 2: at 400 bytes only the
    FDT split of its last pair fits (docs/planning.md, "Rewrites")."""
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    widths, nodes, inits, x = [16, 64, 64, 2], [], [], "x"
    for i in range(3):
        inits.append(numpy_helper.from_array(
            np.full([widths[i + 1], widths[i]], 0.01, np.float32), f"w{i}"))
        out = "y" if i == 2 else f"h{i}"
        nodes.append(helper.make_node("Gemm", [x, f"w{i}"], [out if i == 2 else f"g{i}"],
                                      transB=1))
        if i < 2:
            nodes.append(helper.make_node("Relu", [f"g{i}"], [out]))
        x = out
    graph = helper.make_graph(
        nodes, "small_mlp", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 16])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 2])], inits)
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), path)


def test_fdt_switch_matches_cli(cli, tmp_path):
    """fdt=False is `--no-fdt`: the same report, and at 400 bytes no plan from either."""
    import json
    path = tmp_path / "small_mlp.onnx"
    _small_mlp(path)
    for fdt, flags in ((True, []), (False, ["--no-fdt"])):
        out = subprocess.run([str(cli), "analyze", str(path), "-m", "400", "--json", *flags],
                             check=True, capture_output=True, text=True).stdout
        with tigris.load(path) as model:
            report = model.analyze(fast=400, fdt=fdt)
        assert report == json.loads(out)
        kinds = [r["kind"] for r in report["rewrites"]]
        assert kinds == (["fdt-fan-out-fan-in"] if fdt else [])
    plan_path = tmp_path / "mlp.tgrs"
    subprocess.run([str(cli), "compile", str(path), "-m", "400", "--xip", "-o", str(plan_path)],
                   check=True, capture_output=True)
    refused = subprocess.run([str(cli), "compile", str(path), "-m", "400", "--xip", "--no-fdt",
                              "-o", str(tmp_path / "no.tgrs")], capture_output=True, text=True)
    assert refused.returncode != 0 and "TIGRIS_ERR_DOES_NOT_FIT" in refused.stderr
    with tigris.load(path) as model:
        with model.plan(fast=400, xip=True) as plan:
            assert plan.emit() == plan_path.read_bytes()
        with pytest.raises(tigris.Error) as info:
            model.plan(fast=400, xip=True, fdt=False)
        assert info.value.status_name == "TIGRIS_ERR_DOES_NOT_FIT"


def test_objective_matches_cli(cli, tmp_path):
    """objective="memory" is `--objective memory`: the same plans found and chosen (the
    search's time aside), and the plan from Model.plan is the CLI's byte for byte."""
    import json
    path = tmp_path / "small_mlp.onnx"
    _small_mlp(path)
    out = subprocess.run([str(cli), "analyze", str(path), "-m", "2K", "--json", "--objective",
                          "memory"], check=True, capture_output=True, text=True).stdout
    expected = json.loads(out)
    with tigris.load(path) as model:
        report = model.analyze(fast="2K", objective="memory")
        single = model.analyze(fast="2K")
    for r in (report, expected):
        r["exploration"].pop("seconds")
    assert report == expected
    assert "exploration" not in single
    assert report["scheduled_peak_bytes"] <= single["scheduled_peak_bytes"]
    plan_path = tmp_path / "mlp.tgrs"
    subprocess.run([str(cli), "compile", str(path), "-m", "2K", "--xip", "--objective", "memory",
                    "-o", str(plan_path)], check=True, capture_output=True)
    with tigris.load(path) as model:
        with model.plan(fast="2K", xip=True, objective="memory") as plan:
            assert plan.emit() == plan_path.read_bytes()
            found = plan.exploration()
            found.pop("seconds")
            assert found == expected["exploration"]
        with model.plan(fast="2K", xip=True) as plan:
            assert plan.exploration() is None
        for bad in ({"objective": "speed"}, {"max_recompute": 5}):
            with pytest.raises(tigris.Error) as info:
                model.analyze(fast="2K", **bad)
            assert info.value.status_name == "TIGRIS_ERR_INVALID_ARGUMENT"


def test_tflite_file_and_bytes_plan_as_the_cli_does(cli, tmp_path):
    """A .tflite loads through the same call, by path or bytes (the library reads the
    format from the content), and plans to the CLI's bytes."""
    path = pathlib.Path(os.environ["TIGRIS_MODELS_DIR"]) / "tflite" / "mlperf_kws_dscnn_int8.tflite"
    out = tmp_path / "kws.tgrs"
    subprocess.run([str(cli), "compile", str(path), "-m", "4K", "--xip", "-o", str(out)],
                   check=True, capture_output=True)
    with tigris.load(path) as model:
        with model.plan(fast="4K", xip=True) as plan:
            assert plan.emit() == out.read_bytes()
        by_path = model.analyze(fast="4K")
    # From bytes the model has no file name to be called by; the plan is otherwise the same.
    with tigris.load(path.read_bytes()) as model:
        assert model.analyze(fast="4K")["scheduled_peak_bytes"] == by_path["scheduled_peak_bytes"]
