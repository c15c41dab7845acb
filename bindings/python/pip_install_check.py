"""`pip install ./bindings/python` into a throwaway venv works (a ctest test, label slow).

usage: pip_install_check.py PYTHON VENV_DIR MODEL CLI
Creates VENV_DIR anew from PYTHON, pip-installs (a copy of) this folder (TIGRIS_BUILD_DIR must name the
CMake build), then, with the venv's interpreter and outside the source and build trees,
imports tigris from site-packages and checks one headline number against the CLI."""

import json
import os
import shutil
import subprocess
import sys

python, venv, model, cli = sys.argv[1:5]
here = os.path.dirname(os.path.abspath(__file__))

shutil.rmtree(venv, ignore_errors=True)
subprocess.run([python, "-m", "venv", venv], check=True)
# pip builds in the folder it is given: build a copy inside the venv so setuptools' build/
# and egg-info never land in the source tree (setup.py finds tigris.i via TIGRIS_SOURCE_DIR).
src = os.path.join(venv, "src")
shutil.copytree(here, src, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
os.environ.setdefault("TIGRIS_SOURCE_DIR", os.path.dirname(os.path.dirname(here)))
vpy = os.path.join(venv, "bin", "python")
pip = [vpy, "-m", "pip", "install", "-q", "--disable-pip-version-check"]
# Offline when the venv already has what setuptools needs to build a wheel; otherwise pip
# fetches setuptools/wheel from PyPI into an isolated build environment.
has_wheel = subprocess.run([vpy, "-c", "import setuptools, wheel"],
                           capture_output=True).returncode == 0
subprocess.run(pip + (["--no-build-isolation"] if has_wheel else []) + [src], check=True)

probe = (
    "import json, sys, tigris\n"
    "assert 'site-packages' in tigris.__file__, tigris.__file__\n"
    "with tigris.load(sys.argv[1]) as m:\n"
    "    print(json.dumps(m.analyze(fast='64K')))\n"
)
got = json.loads(subprocess.run([vpy, "-c", probe, model], check=True, capture_output=True,
                                text=True, cwd=venv).stdout)
want = json.loads(subprocess.run([cli, "analyze", model, "-m", "64K", "--json"], check=True,
                                 capture_output=True, text=True).stdout)
assert got == want, "pip-installed tigris disagrees with the CLI"
print("pip install ./bindings/python: ok, scheduled_peak_bytes =", got["scheduled_peak_bytes"])
shutil.rmtree(venv, ignore_errors=True)
