#!/usr/bin/env bash
# Configures (once) and builds TiGrIS into build/ with Ninja. Incremental on re-runs.
# Usage: scripts/build.sh [extra cmake -D options...]
# Environment: TIGRIS_BUILD_DIR (default build), TIGRIS_BUILD_TYPE (default RelWithDebInfo).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${TIGRIS_BUILD_DIR:-$root/build}"
type="${TIGRIS_BUILD_TYPE:-RelWithDebInfo}"
if [[ ! -f "$build/build.ninja" ]]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE="$type" \
    -DTIGRIS_PYTHON="$root/.venv/bin/python" "$@"
elif (($#)); then
  cmake "$build" "$@"
fi
cmake --build "$build" --parallel "$(nproc)"
