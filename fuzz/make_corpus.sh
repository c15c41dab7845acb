#!/usr/bin/env bash
# Remakes the seed corpora of fuzz/corpus/ from the shared models, the int8 QDQ models the
# test build generates, and plans compiled from them (small files only: the fuzzers mutate
# them, and large seeds slow every execution). Deterministic; the result is committed.
# Usage: fuzz/make_corpus.sh [BUILD_DIR]   (a configured and built tree; default build)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"
tigris="$build/bin/tigris"
models="${TIGRIS_MODELS_DIR:-$root/../shared/models}/onnx"
int8="$build/test-models"
python="${TIGRIS_PYTHON:-$root/.venv/bin/python}"
out="$root/fuzz/corpus"
rm -rf "$out"
mkdir -p "$out/onnx" "$out/tflite" "$out/plan" "$out/npy"

# ONNX: float and int8 QDQ, with Conv1d, Conv2d + MaxPool, Softmax, Gemm.
for m in "$models/conv1d_small.onnx" "$models/conv2d_small_maxpool.onnx" "$models/mnist8.onnx" \
         "$int8/conv1d_small.int8.onnx" "$int8/mnist8.int8.onnx" "$int8/mnist8.uint8.onnx"; do
  install -m 644 "$m" "$out/onnx/"
done

# ...and tiny graphs of the op families the seeds above do not use (fuzz/make_onnx_seeds.py).
"$python" "$root/fuzz/make_onnx_seeds.py" "$out/onnx"

# TFLite: tiny int8 and float models over every builtin op the front end reads, written
# as FlatBuffers JSON and compiled by flatc (fuzz/make_tflite_seeds.py).
"$python" "$root/fuzz/make_tflite_seeds.py" "$out/tflite"

# Plans: untiled, row-tiled, chained, spilled; weights in place, copied and LZ4-compressed.
compile() {  # NAME MODEL ARGS...
  local name=$1 model=$2
  shift 2
  "$tigris" compile "$model" "$@" -o "$out/plan/$name.tgrs" >/dev/null
}
compile mnist8_64k_xip "$models/mnist8.onnx" -m 64K --xip
compile mnist8_8k_xip "$models/mnist8.onnx" -m 8K --xip
compile mnist8_64k_lz4 "$models/mnist8.onnx" -m 64K -c lz4
compile conv1d_4k_xip "$models/conv1d_small.onnx" -m 4K --xip
compile conv2d_16k_copy "$models/conv2d_small_maxpool.onnx" -m 16K
compile mnist8_int8_4k_xip "$int8/mnist8.int8.onnx" -m 4K --xip
compile conv1d_int8_2k_xip "$int8/conv1d_small.int8.onnx" -m 2K --xip
# 2-D tiles (schema 2, TilePlan.columns): one row of a layer is over these budgets.
compile mnist8_2k_2d_xip "$models/mnist8.onnx" -m 2K --xip
compile mnist8_int8_512_2d_xip "$int8/mnist8.int8.onnx" -m 512 --xip
# A run-time GATHER (int64 ids) and an int8 REDUCE_MEAN over one axis.
compile embedding_int8_1k_xip "$out/onnx/embedding_qdq.onnx" -m 1K --xip

# .npy: the dtypes and header forms the reader accepts.
"$python" - "$out/npy" <<'PY'
import sys

import numpy as np

out = sys.argv[1]
rng = np.random.default_rng(0)
np.save(f"{out}/f32_nchw.npy", rng.standard_normal((1, 3, 4, 4)).astype(np.float32))
np.save(f"{out}/i8.npy", rng.integers(-128, 128, (2, 5), dtype=np.int8))
np.save(f"{out}/u8.npy", rng.integers(0, 256, (7,), dtype=np.uint8))
np.save(f"{out}/i64_scalar.npy", np.int64(-3))
np.save(f"{out}/i32_empty.npy", np.zeros((0, 4), dtype=np.int32))
with open(f"{out}/f32_v2.npy", "wb") as f:
    np.lib.format.write_array(f, np.arange(6, dtype=np.float32).reshape(2, 3), version=(2, 0))
PY
du -sh "$out"/*
