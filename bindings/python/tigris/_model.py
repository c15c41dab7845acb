"""Model and Plan: owned libtigris handles with close() / context managers.

Each object frees its C handle exactly once: on close(), on leaving a `with` block, or when
garbage-collected (tigris.h: every handle has a matching *_free that accepts NULL)."""

import json
import os

from . import tigris_c as _c
from ._errors import check, error_for
from ._sizes import optional_size, parse_size

_COMPRESSION = {"none": _c.TIGRIS_COMPRESSION_NONE, "lz4": _c.TIGRIS_COMPRESSION_LZ4}


class _Handle:
    _free = None  # the tigris_*_free function of the subclass

    def __init__(self, handle):
        self._handle = handle

    def close(self):
        handle, self._handle = self._handle, None
        if handle is not None:
            type(self)._free(handle)

    def __del__(self):
        self.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @property
    def _h(self):
        if self._handle is None:
            raise error_for(_c.TIGRIS_ERR_INVALID_ARGUMENT, f"{type(self).__name__} is closed")
        return self._handle


class Plan(_Handle):
    """A compiled execution plan (tigris_plan). emit() gives the .tgrs bytes."""

    _free = staticmethod(_c.tigris_plan_free)

    def emit(self):
        """The .tgrs file as bytes (deterministic for the same model and options)."""
        status, data = _c.tigris_emit(self._h)
        check(status)
        return data

    def save(self, path):
        """Writes the .tgrs file to `path`."""
        check(_c.tigris_emit_to_file(self._h, os.fspath(path)))

    @property
    def file_bytes(self):
        return int(_c.tigris_plan_file_bytes(self._h))

    @property
    def weight_bytes(self):
        return int(_c.tigris_plan_weight_bytes(self._h))

    @property
    def stored_weight_bytes(self):
        return int(_c.tigris_plan_stored_weight_bytes(self._h))

    @property
    def fast_arena_bytes(self):
        return int(_c.tigris_plan_fast_arena_bytes(self._h))

    @property
    def slow_arena_bytes(self):
        return int(_c.tigris_plan_slow_arena_bytes(self._h))


class Model(_Handle):
    """A loaded, normalized ONNX model (tigris_model)."""

    _free = staticmethod(_c.tigris_model_free)

    @property
    def name(self):
        return _c.tigris_model_name(self._h)

    @property
    def op_count(self):
        return int(_c.tigris_model_op_count(self._h))

    @property
    def tensor_count(self):
        return int(_c.tigris_model_tensor_count(self._h))

    @property
    def inputs(self):
        """Tensor indices of the graph inputs."""
        h = self._h
        return [int(_c.tigris_model_input(h, i)) for i in range(_c.tigris_model_input_count(h))]

    @property
    def outputs(self):
        """Tensor indices of the graph outputs."""
        h = self._h
        return [int(_c.tigris_model_output(h, i)) for i in range(_c.tigris_model_output_count(h))]

    def op(self, index):
        """Op `index` as a dict: type, name, inputs, outputs, fused_activation."""
        info = _c.tigris_op_info()
        info.version = _c.TIGRIS_OP_INFO_VERSION
        check(_c.tigris_model_op(self._h, index, info), self._last_error)
        return {
            "type": info.type,
            "name": info.name,
            "num_inputs": int(info.num_inputs),
            "num_outputs": int(info.num_outputs),
            "fused_activation": info.fused_activation,
        }

    def to_json(self):
        """The normalized model as a dict (tigris_model_json, docs/json.md)."""
        return json.loads(_c.tigris_model_json(self._h))

    def analyze(self, fast, slow=None, flash=None):
        """Plans the model under the budgets and returns the report as a plain dict: exactly
        the JSON `tigris analyze MODEL -m FAST [-m SLOW] [-f FLASH] --json` prints."""
        options = _c.tigris_analyze_options()
        check(_c.tigris_analyze_options_init(options, _c.TIGRIS_ANALYZE_OPTIONS_VERSION))
        options.fast_bytes = parse_size(fast)
        options.slow_bytes = optional_size(slow)
        options.flash_bytes = optional_size(flash)
        status, analysis = _c.tigris_analyze(self._h, options)
        try:
            check(status, self._last_error)
            return json.loads(_c.tigris_analysis_json(analysis))
        finally:
            _c.tigris_analysis_free(analysis)

    def plan(self, fast, slow=None, flash=None, xip=False, compression="none"):
        """Compiles an execution plan. xip=False copies each stage's weights into the fast
        arena (the default of `tigris compile`); xip=True reads them in place from flash."""
        if compression not in _COMPRESSION:
            raise error_for(_c.TIGRIS_ERR_INVALID_ARGUMENT,
                            f"compression must be 'none' or 'lz4', not {compression!r}")
        options = _c.tigris_plan_options()
        check(_c.tigris_plan_options_init(options, _c.TIGRIS_PLAN_OPTIONS_VERSION))
        options.fast_bytes = parse_size(fast)
        options.slow_bytes = optional_size(slow)
        options.flash_bytes = optional_size(flash)
        options.xip = 1 if xip else 0
        options.compression = _COMPRESSION[compression]
        status, plan = _c.tigris_plan(self._h, options)
        if status != _c.TIGRIS_OK:
            _c.tigris_plan_free(plan)
            check(status, self._last_error)
        return Plan(plan)

    def _last_error(self):
        message = _c.tigris_model_last_error(self._h)
        return message or _c.tigris_last_error()


def load(source, default_dim=1, dims=None, external_data_dir=None):
    """Loads an ONNX model from a path (str or os.PathLike) or from bytes.

    default_dim  value of symbolic dimensions no binding names (0: they are an error)
    dims         {"batch": 1, ...}: pins symbolic dimensions by name
    external_data_dir  folder of external tensor data (default: the model's folder)
    """
    spec = ",".join(f"{name}={int(value)}" for name, value in (dims or {}).items())
    if any("," in n or "=" in n for n in (dims or {})):
        raise error_for(_c.TIGRIS_ERR_INVALID_ARGUMENT, "dimension names may not hold ',' or '='")
    ext = os.fspath(external_data_dir) if external_data_dir is not None else None
    if isinstance(source, (bytes, bytearray, memoryview)):
        status, model = _c.tigris_load_with(None, source, int(default_dim), ext, spec)
    else:
        status, model = _c.tigris_load_with(os.fspath(source), b"", int(default_dim), ext, spec)
    check(status)
    return Model(model)
