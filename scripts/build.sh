#!/usr/bin/env bash
# Configures (once) and builds TiGrIS into build/ with Ninja. Incremental on re-runs.
# Usage: scripts/build.sh [extra cmake -D options...]
# Environment: TIGRIS_BUILD_DIR (default build), TIGRIS_BUILD_TYPE (default RelWithDebInfo),
#              TIGRIS_BUILD_TARGETS (default: everything; e.g. "tigris_cli" builds the
#              library, the runtime and the command only, which is what the demo needs).
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
targets=()
for target in ${TIGRIS_BUILD_TARGETS:-}; do targets+=(--target "$target"); done
cmake --build "$build" --parallel "$(nproc)" "${targets[@]}"
