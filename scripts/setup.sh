#!/usr/bin/env bash
# Installs everything TiGrIS needs that the machine does not have yet, idempotently:
#   - Debian packages (compilers, CMake, protobuf, libonnx-dev, FlatBuffers, liblz4,
#     GoogleTest, Google Benchmark, SWIG, nlohmann-json, clang-format, COIN-OR CBC, and the Arm
#     cross toolchain + QEMU for the Cortex-M runtime tests)
#   - a project-local Python virtual environment (.venv) with the test tooling from PyPI
#     (onnx, onnxruntime, numpy, pytest)
# A second run finds everything present and does nothing but check.
#
# Usage: scripts/setup.sh            # everything
#        TIGRIS_SKIP_PYTHON=1 scripts/setup.sh   # C/C++ toolchain only
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# Debian packages the build and the tests use. Keep this list sorted and explain additions.
apt_packages=(
  build-essential
  clang                  # fuzz/ (scripts/fuzz.sh): libFuzzer targets and coverage builds
  clang-format           # formatting check (.clang-format, Google base)
  cmake
  coinor-libcbc-dev      # exact arena layout: the MILP of docs/memory-model.md (--layout exact)
  flatbuffers-compiler   # flatc: generates the plan reader/writer code from format/tgrs.fbs
  gcc-arm-none-eabi      # Cortex-M cross compiler for the runtime (runtime/targets/mps2)
  git
  libbenchmark-dev       # Google Benchmark for bench/
  libclang-rt-14-dev     # fuzz/: clang's sanitizer and libFuzzer runtimes (-fsanitize=fuzzer)
  libflatbuffers-dev
  libgtest-dev           # GoogleTest
  libnewlib-arm-none-eabi  # C library (libc/libm, newlib-nano) for the Cortex-M build
  libfuzzer-14-dev       # fuzz/: libFuzzer
  liblz4-dev             # LZ4 compression of weights in the compiler
  libonnx-dev            # ONNX protobuf schema, shape inference
  libprotobuf-dev
  libyaml-cpp-dev        # target descriptions (tigris --target TARGET.yaml, docs/memories.md)
  llvm                   # fuzz/: llvm-profdata and llvm-cov for scripts/fuzz.sh --coverage
  mono-mcs               # C# binding: compiler (bindings/csharp)
  mono-runtime           # C# binding: runs its tests
  ninja-build
  nlohmann-json3-dev     # JSON output of analyze/inspect
  pkg-config
  protobuf-compiler
  python3
  python3-dev            # Python binding: Python.h when the interpreter is Debian's
  python3-venv
  qemu-system-arm        # runs the Cortex-M firmware (mps2-an386 / mps2-an500) in tests
  swig                   # bindings
  valgrind               # binding leak tests (bindings/python, bindings/rust)
)

missing=()
for pkg in "${apt_packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if ((${#missing[@]})); then
  echo "setup: installing Debian packages: ${missing[*]}"
  sudo_cmd=()
  if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
else
  echo "setup: Debian packages present"
fi

# Go and Rust toolchains come from their own installers, not Debian (whose versions are too
# old for the bindings): say what is missing instead of failing silently. Without them the
# Go / Rust binding tests are simply not registered (bindings/*/CMakeLists.txt warns).
if ! command -v go >/dev/null 2>&1 && [[ ! -x /usr/local/go/bin/go ]]; then
  echo "setup: NOTE: go not found: install Go >= 1.21 for bindings/go"
fi
if ! command -v cargo >/dev/null 2>&1 && [[ ! -x "$HOME/.cargo/bin/cargo" ]]; then
  echo "setup: NOTE: cargo not found: install Rust >= 1.77 with rustup for bindings/rust"
fi

if [[ "${TIGRIS_SKIP_PYTHON:-0}" == "1" ]]; then
  exit 0
fi

# Python test tooling lives in .venv so it never touches the system interpreter.
# requirements-dev.txt pins the versions; a stamp file makes the second run instant.
venv="$root/.venv"
req="$root/scripts/requirements-dev.txt"
stamp="$venv/.requirements.sha256"
want="$(sha256sum "$req" | cut -d' ' -f1)"
if [[ ! -x "$venv/bin/python" ]]; then
  echo "setup: creating Python virtual environment in .venv"
  python3 -m venv "$venv"
fi
if [[ ! -f "$stamp" || "$(cat "$stamp")" != "$want" ]]; then
  echo "setup: installing Python test tooling (onnx, onnxruntime, numpy, pytest)"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check --upgrade pip
  "$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$req"
  echo "$want" >"$stamp"
else
  echo "setup: Python test tooling present"
fi
