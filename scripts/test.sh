#!/usr/bin/env bash
# Quick start, command 2: installs what is missing, builds, and runs every test
# (GoogleTest unit tests, end-to-end tests against onnxruntime, the Cortex-M runs under
# QEMU, the bindings, the installed package, header checks) via ctest, after a short,
# repeatable fuzzing pass over every untrusted-input target (scripts/fuzz.sh --smoke;
# TIGRIS_SKIP_FUZZ=1 skips it).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${TIGRIS_BUILD_DIR:-$root/build}"
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
if [[ "${TIGRIS_SKIP_FUZZ:-0}" != "1" ]]; then
  "$root/scripts/fuzz.sh" --smoke
fi
cd "$build"
ctest --output-on-failure --parallel "$(nproc)" --timeout 900
