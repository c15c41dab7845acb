#!/usr/bin/env bash
# Quick start, command 1: installs what is missing, builds, and runs the main job on the
# bundled example model (examples/). See README.md.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
exec "$root/examples/run_example.sh"
