"""Run under valgrind by bindings/python/leak_check.py: load / analyze / plan / emit / free
a few times. Every handle must be freed by the binding (close() and garbage collection)."""

import gc
import os
import sys

import tigris

model_path = sys.argv[1]
leak_on_purpose = len(sys.argv) > 2 and sys.argv[2] == "--leak"

for _ in range(2):
    with tigris.load(model_path) as model:
        model.analyze(fast="64K")
        model.plan(fast="64K", xip=True).emit()  # Plan freed by garbage collection
    try:
        tigris.load(os.path.join(os.path.dirname(model_path), "missing.onnx"))
    except tigris.IOError:
        pass
gc.collect()

if leak_on_purpose:
    # Negative control: a model handle nobody frees must be reported by the checker.
    status, handle = tigris.tigris_c.tigris_load_with(model_path, b"", 1, None, "")
    assert status == 0
    del handle
