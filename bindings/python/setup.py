"""pip install ./bindings/python: builds the SWIG extension tigris._tigris_c against an
already-built libtigris.

Environment:
  TIGRIS_BUILD_DIR   the CMake build folder holding libtigris/libtigris.so (required)
  TIGRIS_SOURCE_DIR  the repository root (default: two folders up from this file)
The extension gets an RPATH to the library folder, so no LD_LIBRARY_PATH is needed.
"""

import os
import pathlib
import shutil
import subprocess

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

HERE = pathlib.Path(__file__).resolve().parent
SOURCE = pathlib.Path(os.environ.get("TIGRIS_SOURCE_DIR", HERE.parent.parent)).resolve()


def _build_dir():
    value = os.environ.get("TIGRIS_BUILD_DIR")
    if not value:
        raise SystemExit("setup.py: set TIGRIS_BUILD_DIR to the CMake build folder of TiGrIS")
    lib_dir = pathlib.Path(value).resolve() / "libtigris"
    if not (lib_dir / "libtigris.so").exists():
        raise SystemExit(f"setup.py: {lib_dir}/libtigris.so not found: build TiGrIS first")
    return lib_dir


class SwigFirst(build_py):
    """SWIG writes tigris_c.py while building the extension: build it first so the
    generated module is in build_lib whichever command asked for build_py."""

    def run(self):
        self.run_command("build_ext")
        super().run()


class SwigBuildExt(build_ext):
    def run(self):
        gen = pathlib.Path(self.build_temp).resolve() / "swig"
        gen.mkdir(parents=True, exist_ok=True)
        wrapper = gen / "tigris_wrap.c"
        subprocess.run(["swig", "-python", "-module", "tigris_c", "-I" + str(SOURCE / "include"),
                        "-outdir", str(gen), "-o", str(wrapper),
                        str(SOURCE / "bindings" / "tigris.i")], check=True)
        self.extensions[0].sources = [str(wrapper)]
        super().run()
        # The generated Python half of the SWIG module goes beside the extension.
        package = pathlib.Path(self.build_lib) / "tigris"
        package.mkdir(parents=True, exist_ok=True)
        shutil.copy(gen / "tigris_c.py", package / "tigris_c.py")


lib_dir = _build_dir()

setup(
    name="tigris",
    version="0.1.0",
    description="Python bindings of TiGrIS, the ONNX-to-microcontroller plan compiler",
    packages=["tigris"],
    ext_modules=[
        Extension(
            "tigris._tigris_c",
            sources=[],  # filled in by SwigBuildExt
            include_dirs=[str(SOURCE / "include")],
            library_dirs=[str(lib_dir)],
            runtime_library_dirs=[str(lib_dir)],
            libraries=["tigris"],
        )
    ],
    cmdclass={"build_ext": SwigBuildExt, "build_py": SwigFirst},
    python_requires=">=3.8",
)
