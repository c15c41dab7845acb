#!/usr/bin/env bash
# Quick start, command 1: installs what is missing, builds what the demo needs (the library,
# the runtime and the `tigris` command: not the tests), and runs the main job on the
# bundled example model (examples/). The Cortex-M firmware it ends with is built when that
# step comes, so the analysis shows first. See README.md.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh"
TIGRIS_BUILD_TARGETS=tigris_cli "$root/scripts/build.sh"
exec "$root/examples/run_example.sh"
