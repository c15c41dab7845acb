"""`pip install ./bindings/python` into a fresh venv builds libtigris from source and gives a
package that runs plans (ctest bindings_python_pip_install, label slow; issue: a user's
first command is this one, with no environment variable and no prior build).

usage: pip_install_check.py PYTHON VENV_DIR MODEL CLI
Creates VENV_DIR anew from PYTHON and pip-installs this folder into it with a clean
environment (no TIGRIS_* variables, no PYTHONPATH). Then, from outside the source and build
trees, the installed package must compile MODEL at 16K with weights in place and run it to
the same output bytes as `CLI run` on the same plan and input, and `python -m tigris` must
work. The extension must carry libtigris inside it (no libtigris.so dependency).
"""

import os
import subprocess
import sys
import tempfile

python, venv, model, cli = sys.argv[1:5]
here = os.path.dirname(os.path.abspath(__file__))

subprocess.run([python, "-m", "venv", "--clear", venv], check=True)
vpy = os.path.join(venv, "bin", "python")
clean_env = {k: v for k, v in os.environ.items()
             if not k.startswith(("TIGRIS_", "PYTHON", "LD_LIBRARY_PATH", "CMAKE_"))}
subprocess.run([vpy, "-m", "pip", "install", "-q", "--disable-pip-version-check", here],
               check=True, env=clean_env)

probe = r"""
import glob, os, subprocess, sys
import numpy as np
import tigris
assert 'site-packages' in tigris.__file__, tigris.__file__
package = os.path.dirname(tigris.__file__)
assert os.path.isfile(os.path.join(package, 'py.typed'))
(ext,) = glob.glob(os.path.join(package, '_tigris_c*.so'))
ldd = subprocess.run(['ldd', ext], capture_output=True, text=True, check=True).stdout
assert 'libtigris' not in ldd, ldd
model, plan_path, x_path, y_path = sys.argv[1:5]
plan = tigris.load(model).plan(fast='16K', xip=True)
(spec,) = plan.inputs()
x = np.random.default_rng(5).standard_normal(spec['shape']).astype(np.float32)
np.save(x_path, x)
plan.save(plan_path)
(y,) = plan.run({spec['name']: x}).values()
np.save(y_path, y)
print(tigris.version())
"""
with tempfile.TemporaryDirectory() as tmp:
    paths = [os.path.join(tmp, n) for n in ("p.tgrs", "x.npy", "y_py.npy", "y_cli.npy")]
    version = subprocess.run([vpy, "-c", probe, model, *paths[:3]], check=True, cwd=tmp,
                             capture_output=True, text=True, env=clean_env).stdout.strip()
    subprocess.run([cli, "run", paths[0], "--input", paths[1], "--output", paths[3]],
                   check=True, capture_output=True)
    check = ("import numpy as np, sys; a, b = np.load(sys.argv[1]), np.load(sys.argv[2]); "
             "sys.exit(0 if a.dtype == b.dtype and a.tobytes() == b.tobytes() else 1)")
    same = subprocess.run([vpy, "-c", check, paths[2], paths[3]], cwd=tmp, env=clean_env)
    assert same.returncode == 0, "pip-installed tigris: Plan.run bytes differ from `tigris run`"
    got = subprocess.run([vpy, "-m", "tigris", "--version"], check=True, cwd=tmp,
                         capture_output=True, text=True, env=clean_env).stdout.strip()
    assert got == f"tigris {version}", got
print(f"pip install ./bindings/python: ok, tigris {version}; Plan.run == tigris run")
