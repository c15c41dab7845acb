#!/usr/bin/env bash
# Quick start, command 2: installs what is missing, builds, and runs every test
# (GoogleTest unit tests, end-to-end tests against onnxruntime, header checks) via ctest.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${TIGRIS_BUILD_DIR:-$root/build}"
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
cd "$build"
ctest --output-on-failure --parallel "$(nproc)" --timeout 900
