"""Shared fixtures: where the model and the CLI are. The expected values of every test come
from running the `tigris` CLI on the same input (an independent client of the C ABI), never
from the binding under test."""

import json
import os
import pathlib
import subprocess

import pytest

MODEL_NAME = "vww_mobilenetv1_025_96.onnx"


def _env_path(name):
    value = os.environ.get(name)
    if not value:
        pytest.skip(f"{name} is not set")  # ctest always sets it; see bindings/CMakeLists.txt
    return pathlib.Path(value)


@pytest.fixture(scope="session")
def model_path():
    path = _env_path("TIGRIS_MODELS_DIR") / "onnx" / MODEL_NAME
    assert path.is_file(), path
    return path


@pytest.fixture(scope="session")
def cli():
    path = _env_path("TIGRIS_BUILD_DIR") / "bin" / "tigris"
    assert path.is_file(), path
    return path


@pytest.fixture(scope="session")
def cli_analysis(cli, model_path):
    out = subprocess.run([str(cli), "analyze", str(model_path), "-m", "64K", "--json"],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


@pytest.fixture(scope="session")
def cli_plan_bytes(cli, model_path, tmp_path_factory):
    out = tmp_path_factory.mktemp("cli") / "plan.tgrs"
    subprocess.run([str(cli), "compile", str(model_path), "-m", "64K", "--xip", "-o", str(out)],
                   check=True, capture_output=True)
    return out.read_bytes()
