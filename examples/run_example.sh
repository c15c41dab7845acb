#!/usr/bin/env bash
# The quick start's main job on the bundled example model (see examples/README.md).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${TIGRIS_BUILD_DIR:-$root/build}"
tigris="$build/bin/tigris"
model="$root/examples/vww_mobilenetv1_025_96.onnx"
timeline="$build/vww_mobilenetv1_025_96.timeline.svg"

echo "== tigris analyze $(basename "$model")"
"$tigris" analyze "$model"

echo
echo "== tigris analyze $(basename "$model") -m 64K -v --timeline $(basename "$timeline")"
"$tigris" analyze "$model" -m 64K -v --timeline "$timeline"
echo
echo "memory timeline chart: $timeline (open it in a browser)"

# Run the plan on this machine with the C99 runtime and check it against onnxruntime.
plan="$build/vww_mobilenetv1_025_96.64K.tgrs"
input="$build/vww_mobilenetv1_025_96.input.npy"
output="$build/vww_mobilenetv1_025_96.output.npy"
python="${TIGRIS_PYTHON:-$root/.venv/bin/python}"
echo
echo "== tigris compile $(basename "$model") -m 64K --xip -o $(basename "$plan")"
"$tigris" compile "$model" -m 64K --xip -o "$plan"
echo
echo "== a deterministic input (numpy RandomState(0), the model's 1x3x96x96 float32 input)"
"$python" -c "import numpy as np; np.save('$input', np.random.RandomState(0).standard_normal((1, 3, 96, 96)).astype(np.float32))"
echo
echo "== tigris run $(basename "$plan") --input $(basename "$input") --output $(basename "$output")"
"$tigris" run "$plan" --input "$input" --output "$output"
echo
echo "== the same input through onnxruntime"
"$python" - "$model" "$input" "$output" <<'PY'
import sys

import numpy as np
import onnxruntime as ort

model, x_path, y_path = sys.argv[1:4]
session = ort.InferenceSession(model, providers=["CPUExecutionProvider"])
reference = session.run(None, {session.get_inputs()[0].name: np.load(x_path)})[0]
tigris = np.load(y_path)
diff = float(np.abs(tigris.astype(np.float64) - reference).max())
same = int(tigris.argmax()) == int(reference.argmax())
print(f"max abs diff {diff:.3g}; top-1 class: tigris {int(tigris.argmax())}, "
      f"onnxruntime {int(reference.argmax())} ({'match' if same else 'MISMATCH'})")
sys.exit(0 if same and diff <= 1e-4 * max(1.0, float(np.abs(reference).max())) else 1)
PY

# The same plan on an emulated microcontroller: the C99 runtime cross-built for a
# Cortex-M4F, the plan in its flash, the arenas static buffers of exactly the plan's sizes
# (docs/cortex-m.md). The firmware comes from the main build (tests/cortex-m), built here
# if it is not yet.
firmware="$build/tests/cortex-m/m4/vww_mobilenetv1_025_96_f32.elf"
embedded="$build/tests/cortex-m/plans/vww_mobilenetv1_025_96_f32/plan.tgrs"
echo
echo "== the plan on an emulated Cortex-M4F (QEMU mps2-an386), compared with the run on this machine"
if ! grep -q "tigris_cortex_m_m4" "$build/build.ninja" 2>/dev/null; then
  echo "skipped: the build has no Cortex-M firmware (configured with -DTIGRIS_CORTEX_M=OFF?)"
  exit 0
fi
echo "(building the Cortex-M4 firmware: cmake --build $build --target tigris_cortex_m_m4)"
cmake --build "$build" --target tigris_cortex_m_m4 >/dev/null
if cmp -s "$plan" "$embedded"; then
  echo "(the firmware embeds $(basename "$plan") byte for byte)"
fi
"$python" "$root/tests/cortex-m/run_qemu_case.py" --name vww_mobilenetv1_025_96_f32 \
  --machine mps2-an386 --firmware "$firmware" --plan "$embedded" --tigris "$tigris" \
  --workdir "$build/cortex-m-demo"
