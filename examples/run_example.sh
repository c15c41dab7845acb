#!/usr/bin/env bash
# The quick start's main job on the bundled example model (see examples/README.md).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${TIGRIS_BUILD_DIR:-$root/build}"
tigris="$build/bin/tigris"
model="$root/examples/vww_mobilenetv1_025_96.onnx"

echo "== tigris analyze $(basename "$model")"
"$tigris" analyze "$model"
