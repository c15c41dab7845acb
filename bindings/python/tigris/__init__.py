"""TiGrIS: compile ONNX models under an SRAM budget into tiled execution plans.

    import tigris
    with tigris.load("model.onnx") as model:
        report = model.analyze(fast="64K")          # dict, as `tigris analyze --json`
        plan = model.plan(fast="64K", xip=True)
        outputs = plan.run({"input": x})           # {name: np.ndarray}, .stats
        plan_bytes = plan.emit()
    plan = tigris.load_plan("model.tgrs")           # a .tgrs file (or its bytes)

Failures raise tigris.Error subclasses (tigris.IOError, tigris.NotOnnxError, ...) carrying
the C status code (`.status`) and the library's message (`.message`).
"""

from . import tigris_c as _c
from ._errors import *  # noqa: F401,F403  (Error and one subclass per status)
from ._errors import Error, error_for
from ._model import Model, Plan, RunOutputs, RunStats, load, load_plan
from ._sizes import parse_size
from ._tensors import TensorInfo

__version__ = _c.tigris_version()

__all__ = ["Error", "Model", "Plan", "RunOutputs", "RunStats", "TensorInfo", "error_for", "load",
           "load_plan", "parse_size", "version"]


def version() -> str:
    """Version of the libtigris actually loaded, e.g. "0.4.0"."""
    return _c.tigris_version()
