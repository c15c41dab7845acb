"""Runs a .tflite through TensorFlow Lite Micro's Python interpreter (TFLM's reference
kernels) and records it as a test case: OUT/NAME.tflite, NAME.input.npy, NAME.tflm_output.npy.
Shared by the tools run once by hand that make the committed cases (make_tflite_models.py,
make_tflite_op_cases.py); needs tflite-micro, which CI does not install."""
import numpy as np
from tflite_micro.python.tflite_micro import runtime


def record_tflm_case(out_dir, name, model_bytes, x):
    """Writes the case and returns TFLM's output for input `x`."""
    interpreter = runtime.Interpreter.from_bytes(model_bytes)
    interpreter.set_input(x, 0)
    interpreter.invoke()
    y = interpreter.get_output(0)
    (out_dir / f"{name}.tflite").write_bytes(model_bytes)
    np.save(out_dir / f"{name}.input.npy", x)
    np.save(out_dir / f"{name}.tflm_output.npy", y)
    return y
