"""Model and Plan: owned libtigris handles with close() / context managers.

Each object frees its C handle exactly once: on close(), on leaving a `with` block, or when
garbage-collected (tigris.h: every handle has a matching *_free that accepts NULL)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Optional, Union

import numpy as np

from . import tigris_c as _c
from ._errors import check, error_for
from ._sizes import Size, optional_size, parse_size
from ._tensors import TensorInfo, describe, tigris_dtype

PathLike = Union[str, "os.PathLike[str]"]

_COMPRESSION = {"none": _c.TIGRIS_COMPRESSION_NONE, "lz4": _c.TIGRIS_COMPRESSION_LZ4}
_LAYOUT = {"greedy": _c.TIGRIS_LAYOUT_GREEDY, "exact": _c.TIGRIS_LAYOUT_EXACT}
_WEIGHTS = {"auto": _c.TIGRIS_WEIGHTS_AUTO, "in-place": _c.TIGRIS_WEIGHTS_IN_PLACE,
            "copy": _c.TIGRIS_WEIGHTS_COPIED, "staged": _c.TIGRIS_WEIGHTS_STAGED}


def _set_layout(options, layout: str, time_limit: float) -> None:
    """The version-2 layout fields of an options struct (docs/memory-model.md)."""
    if layout not in _LAYOUT:
        raise error_for(_c.TIGRIS_ERR_INVALID_ARGUMENT,
                        f"layout must be 'greedy' or 'exact', not {layout!r}")
    options.layout = _LAYOUT[layout]
    options.time_limit_seconds = float(time_limit)


def _set_search(options, objective: Optional[str], max_recompute: Optional[float]) -> None:
    """The search fields of an options struct (docs/planning.md, "Search")."""
    objectives = {None: _c.TIGRIS_OBJECTIVE_NONE, "memory": _c.TIGRIS_OBJECTIVE_MEMORY,
                  "latency": _c.TIGRIS_OBJECTIVE_LATENCY}
    if objective not in objectives:
        raise error_for(_c.TIGRIS_ERR_INVALID_ARGUMENT,
                        f"objective must be None, 'memory' or 'latency', not {objective!r}")
    if max_recompute is not None and objective is None:
        raise error_for(_c.TIGRIS_ERR_INVALID_ARGUMENT,
                        "max_recompute needs a search: objective='memory' or 'latency'")
    options.objective = objectives[objective]
    options.max_recompute_percent = -1.0 if max_recompute is None else float(max_recompute)


def _read_text(path: PathLike) -> str:
    """A target or rules file's text, for the library, which parses it (naming `path`)."""
    try:
        with open(os.fspath(path), encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        raise error_for(_c.TIGRIS_ERR_IO, f"cannot read {os.fspath(path)!r}: {e.strerror}") from e


def _check_budgets(fast, slow, flash, target, rules) -> None:
    """Budgets or a target, as the CLI's -m/-f or --target; rules only with a target."""
    if target is not None and any(v is not None for v in (fast, slow, flash)):
        raise error_for(_c.TIGRIS_ERR_INVALID_ARGUMENT,
                        "target gives the memory sizes: drop fast, slow and flash")
    if target is None and fast is None:
        raise error_for(_c.TIGRIS_ERR_INVALID_ARGUMENT, "give fast=SIZE or target=PATH")
    if rules is not None and target is None:
        raise error_for(_c.TIGRIS_ERR_INVALID_ARGUMENT,
                        "rules name a target's memories: give target too")


class _Handle:
    _free = None  # the tigris_*_free function of the subclass

    def __init__(self, handle: Any) -> None:
        self._handle = handle

    def close(self) -> None:
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


@dataclass(frozen=True)
class RunStats:
    """What one Plan.run measured: the arenas it ran with, the highest byte the runtime
    touched in each (+1; the fast one rounds up to the plan's fast_arena_bytes), and the
    wall time of the runtime alone."""

    fast_arena_bytes: int
    slow_arena_bytes: int
    fast_hwm_bytes: int
    slow_hwm_bytes: int
    run_seconds: float
    pinned_arena_bytes: int = 0  # the arena of tensors placement rules pin (0: none)
    pinned_hwm_bytes: int = 0


class RunOutputs(Dict[str, np.ndarray]):
    """The graph outputs of one Plan.run by name (a dict), with ``.stats`` (RunStats)."""

    stats: RunStats


class Plan(_Handle):
    """A compiled execution plan (tigris_execution_plan): from Model.plan() or load_plan().
    emit() gives the .tgrs bytes, run() executes it with the C99 runtime."""

    _free = staticmethod(_c.tigris_plan_free)

    def emit(self) -> bytes:
        """The .tgrs file as bytes (deterministic for the same model and options)."""
        status, data = _c.tigris_emit(self._h)
        check(status)
        return data

    def save(self, path: PathLike) -> None:
        """Writes the .tgrs file to `path`."""
        check(_c.tigris_emit_to_file(self._h, os.fspath(path)))

    @property
    def file_bytes(self) -> int:
        return int(_c.tigris_plan_file_bytes(self._h))

    @property
    def weight_bytes(self) -> int:
        return int(_c.tigris_plan_weight_bytes(self._h))

    @property
    def stored_weight_bytes(self) -> int:
        return int(_c.tigris_plan_stored_weight_bytes(self._h))

    @property
    def fast_arena_bytes(self) -> int:
        return int(_c.tigris_plan_fast_arena_bytes(self._h))

    @property
    def slow_arena_bytes(self) -> int:
        return int(_c.tigris_plan_slow_arena_bytes(self._h))

    def memories(self) -> List[Dict[str, Any]]:
        """What the plan keeps in each memory, as `tigris compile` prints it:
        [{"name", "size", "used_bytes", "peak_bytes", "traffic_bytes", "role"}], every
        memory of the target (plan(target=...)) or the fast, slow and flash budgets."""
        return json.loads(_c.tigris_plan_memories_json(self._h))

    def exploration(self) -> Optional[Dict[str, Any]]:
        """What the search found (plan(objective=...)): the "exploration" object of
        analyze's dict (the plans that fit, the Pareto front, the chosen one); None when
        the plan was made in one pass."""
        return json.loads(_c.tigris_plan_exploration_json(self._h))

    @property
    def warnings(self) -> List[str]:
        """Warnings from compiling, one per entry: placement rules whose ids match no
        tensor."""
        return [line for line in _c.tigris_plan_warnings(self._h).splitlines() if line]

    def check_target(self, target: PathLike) -> None:
        """Raises tigris.Error unless the plan fits the target described by the YAML file
        `target`: each memory it names is the target's, and holds what the plan puts there
        (as `tigris run --target`)."""
        data = self.emit()
        check(_c.tigris_plan_check_target(data, _read_text(target), os.fspath(target)))

    def inputs(self) -> List[TensorInfo]:
        """The graph inputs as the plan states them: name, ONNX shape (NCHW), the plan's
        dtype ("int8" for a quantized input of an int8 plan) and quantization."""
        h = self._h
        return [describe(lambda info, i=i: _c.tigris_plan_input(h, i, info), self._last_error)
                for i in range(_c.tigris_plan_input_count(h))]

    def outputs(self) -> List[TensorInfo]:
        """The graph outputs, as inputs() describes the inputs."""
        h = self._h
        return [describe(lambda info, i=i: _c.tigris_plan_output(h, i, info), self._last_error)
                for i in range(_c.tigris_plan_output_count(h))]

    def run(self, inputs: Mapping[str, Any], dequantize: bool = False,
            fast: Optional[Size] = None, slow: Optional[Size] = None) -> RunOutputs:
        """Runs the plan once on this machine with the C99 runtime (the code the
        microcontroller runs), in arenas of the plan's sizes, and returns the outputs by
        name with ``.stats``.

        inputs      {name: array} for every graph input, in the input's ONNX shape. The
                    array's dtype is the plan's, or any float for an int8 input of an int8
                    plan: it is then quantized with the plan's scale and zero point.
        dequantize  return int8 outputs as float32 (the plan's output scale)
        fast, slow  arena sizes to run with instead of the plan's (for experiments)
        """
        specs = self.inputs()
        known = {spec["name"] for spec in specs}
        unknown = sorted(set(inputs) - known)
        if unknown:
            raise error_for(_c.TIGRIS_ERR_INVALID_ARGUMENT,
                            f"Plan.run: no graph input named {unknown[0]!r} "
                            f"(the plan's inputs: {sorted(known)})")
        in_ios = []
        for spec in specs:
            if spec["name"] not in inputs:
                raise error_for(_c.TIGRIS_ERR_INVALID_ARGUMENT,
                                f"Plan.run: graph input {spec['name']!r} is missing")
            in_ios.append(_input_buffer(spec, inputs[spec["name"]]))
        outputs = RunOutputs()
        out_ios = []
        for spec in self.outputs():
            dtype = np.dtype(spec["dtype"])
            if dequantize and dtype == np.int8:
                dtype = np.dtype(np.float32)
            array = np.empty(spec["shape"], dtype=dtype)
            outputs[spec["name"]] = array
            out_ios.append((tigris_dtype(dtype), array))

        options = _c.tigris_run_options()
        options.version = _c.TIGRIS_RUN_OPTIONS_VERSION
        options.fast_bytes = optional_size(fast)
        options.slow_bytes = optional_size(slow)
        stats = _c.tigris_run_stats()
        stats.version = _c.TIGRIS_RUN_STATS_VERSION
        check(_c.tigris_plan_run(self._h, options, in_ios, out_ios, stats), self._last_error)
        outputs.stats = RunStats(int(stats.fast_arena_bytes), int(stats.slow_arena_bytes),
                                 int(stats.fast_hwm_bytes), int(stats.slow_hwm_bytes),
                                 float(stats.run_seconds), int(stats.pinned_arena_bytes),
                                 int(stats.pinned_hwm_bytes))
        return outputs

    def _last_error(self) -> str:
        return _c.tigris_plan_last_error(self._h) or _c.tigris_last_error()


def _input_buffer(spec: TensorInfo, value: Any):
    """(tigris_dtype, contiguous array) for one graph input, checked against its spec."""
    array = np.asarray(value)
    want = np.dtype(spec["dtype"])
    if array.dtype != want:
        if want == np.int8 and array.dtype.kind == "f":
            want = np.dtype(np.float32)  # the library quantizes it (tigris_run_io)
        elif not (want == np.float32 and array.dtype.kind == "f"):
            raise error_for(_c.TIGRIS_ERR_INVALID_ARGUMENT,
                            f"Plan.run: input {spec['name']!r} is {spec['dtype']}; got an "
                            f"array of {array.dtype}")
    if list(array.shape) != list(spec["shape"]):
        raise error_for(_c.TIGRIS_ERR_INVALID_ARGUMENT,
                        f"Plan.run: input {spec['name']!r} has shape {tuple(spec['shape'])}; "
                        f"got {array.shape}")
    return (tigris_dtype(want), np.ascontiguousarray(array, dtype=want))


class Model(_Handle):
    """A loaded, normalized ONNX model (tigris_model)."""

    _free = staticmethod(_c.tigris_model_free)

    @property
    def name(self) -> str:
        return _c.tigris_model_name(self._h)

    @property
    def op_count(self) -> int:
        return int(_c.tigris_model_op_count(self._h))

    @property
    def tensor_count(self) -> int:
        return int(_c.tigris_model_tensor_count(self._h))

    def inputs(self) -> List[TensorInfo]:
        """The graph inputs of the normalized model: [{name, shape, dtype, scales,
        zero_points}], shapes as in the ONNX file (NCHW)."""
        h = self._h
        return [self._tensor(_c.tigris_model_input(h, i))
                for i in range(_c.tigris_model_input_count(h))]

    def outputs(self) -> List[TensorInfo]:
        """The graph outputs, as inputs() describes the inputs."""
        h = self._h
        return [self._tensor(_c.tigris_model_output(h, i))
                for i in range(_c.tigris_model_output_count(h))]

    def _tensor(self, index: int) -> TensorInfo:
        h = self._h
        return describe(lambda info: _c.tigris_model_tensor(h, int(index), info), self._last_error)

    def op(self, index: int) -> Dict[str, Any]:
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

    def to_json(self) -> Dict[str, Any]:
        """The normalized model as a dict (tigris_model_json, docs/json.md)."""
        return json.loads(_c.tigris_model_json(self._h))

    def analyze(self, fast: Optional[Size] = None, slow: Optional[Size] = None,
                flash: Optional[Size] = None, layout: str = "greedy", time_limit: float = 10.0,
                target: Optional[PathLike] = None, fdt: bool = True,
                objective: Optional[str] = None,
                max_recompute: Optional[float] = None) -> Dict[str, Any]:
        """Plans the model under the budgets and returns the report as a plain dict: exactly
        the JSON `tigris analyze MODEL -m FAST [-m SLOW] [-f FLASH] --json` prints.
        layout="exact" packs each arena with a MILP solver, all solves within time_limit
        seconds (`--layout exact --time-limit S`). target="part.yaml" describes the part's
        memories instead of the budgets (`--target`, docs/memories.md). fdt=False plans
        with feature-map tiling alone, none of the FDT paper's splits (`--no-fdt`).
        objective="memory" or "latency" searches and picks by it (`--objective`; the
        dict's "exploration" lists every plan found and the Pareto front), max_recompute
        caps the chosen plan's recompute in percent of the MACs (`--max-recompute`)."""
        _check_budgets(fast, slow, flash, target, None)
        options = _c.tigris_analyze_options()
        check(_c.tigris_analyze_options_init(options, _c.TIGRIS_ANALYZE_OPTIONS_VERSION))
        if target is None:
            options.fast_bytes = parse_size(fast)
            options.slow_bytes = optional_size(slow)
            options.flash_bytes = optional_size(flash)
        _set_layout(options, layout, time_limit)
        options.fdt = 1 if fdt else 0
        _set_search(options, objective, max_recompute)
        if target is None:
            status, analysis = _c.tigris_analyze(self._h, options)
        else:
            status, analysis = _c.tigris_analyze_for_target(self._h, options, _read_text(target),
                                                            os.fspath(target))
        try:
            check(status, self._last_error)
            return json.loads(_c.tigris_analysis_json(analysis))
        finally:
            _c.tigris_analysis_free(analysis)

    def plan(self, fast: Optional[Size] = None, slow: Optional[Size] = None,
             flash: Optional[Size] = None, xip: Optional[bool] = None, compression: str = "none",
             layout: str = "greedy", time_limit: float = 10.0, weights: str = "auto",
             state: Optional[Mapping[str, str]] = None, target: Optional[PathLike] = None,
             rules: Optional[PathLike] = None, fdt: bool = True,
             objective: Optional[str] = None, max_recompute: Optional[float] = None,
             strip_names: bool = False) -> Plan:
        """Compiles an execution plan. weights says where the runtime reads weights from,
        as `tigris compile --weights`: "auto" (the default: in place, copied into the fast
        arena by the stages where they fit and are read more than once), "in-place",
        "copy" (every stage copies its weights into the fast arena), or "staged" (copied
        once, before the first invoke, into a constants arena). xip=True is
        weights="in-place", xip=False weights="copy". layout and time_limit as in
        analyze. state={"h": "h_next"} pairs graph inputs with graph outputs as persistent
        state, as `tigris compile --state h=h_next` (a runtime context keeps it between
        invokes; Plan.run stays stateless: pass h yourself). target="part.yaml" gives
        the part's memories instead of fast/slow/flash, and rules="rules.yaml" places
        tensors in them (`--target`, `--rules`; docs/memories.md); Plan.memories() then
        says what each memory holds. fdt, objective and max_recompute as in analyze.
        strip_names=True leaves op names and intermediate tensors' names out of the plan
        (`tigris compile --strip-names`)."""
        _check_budgets(fast, slow, flash, target, rules)
        if xip is not None:
            weights = "in-place" if xip else "copy"
        if weights not in _WEIGHTS:
            raise error_for(_c.TIGRIS_ERR_INVALID_ARGUMENT,
                            "weights must be 'auto', 'in-place', 'copy' or 'staged', "
                            f"not {weights!r}")
        if compression not in _COMPRESSION:
            raise error_for(_c.TIGRIS_ERR_INVALID_ARGUMENT,
                            f"compression must be 'none' or 'lz4', not {compression!r}")
        options = _c.tigris_plan_options()
        check(_c.tigris_plan_options_init(options, _c.TIGRIS_PLAN_OPTIONS_VERSION))
        if target is None:
            options.fast_bytes = parse_size(fast)
            options.slow_bytes = optional_size(slow)
            options.flash_bytes = optional_size(flash)
        options.xip = _WEIGHTS[weights]
        options.compression = _COMPRESSION[compression]
        _set_layout(options, layout, time_limit)
        options.fdt = 1 if fdt else 0
        _set_search(options, objective, max_recompute)
        options.strip_names = 1 if strip_names else 0
        pairs = []
        for name_in, name_out in (state or {}).items():
            if any(c in str(n) for n in (name_in, name_out) for c in ",="):
                raise error_for(_c.TIGRIS_ERR_INVALID_ARGUMENT,
                                f"state names may not hold ',' or '=': {name_in!r}")
            pairs.append(f"{name_in}={name_out}")
        status, plan = _c.tigris_plan_with(
            self._h, options, ",".join(pairs),
            _read_text(target) if target is not None else None,
            os.fspath(target) if target is not None else None,
            _read_text(rules) if rules is not None else None,
            os.fspath(rules) if rules is not None else None)
        if status != _c.TIGRIS_OK:
            _c.tigris_plan_free(plan)
            check(status, self._last_error)
        return Plan(plan)

    def _last_error(self) -> str:
        message = _c.tigris_model_last_error(self._h)
        return message or _c.tigris_last_error()


def load(source: Union[PathLike, bytes, bytearray, memoryview], default_dim: int = 1,
         dims: Optional[Mapping[str, int]] = None,
         external_data_dir: Optional[PathLike] = None) -> Model:
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


def load_plan(source: Union[PathLike, bytes, bytearray, memoryview]) -> Plan:
    """A Plan from a .tgrs file (path) or its bytes, verified by the runtime's reader
    (tigris.InvalidPlanError names the field and rule it breaks)."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        status, plan = _c.tigris_plan_from_memory(source)
    else:
        status, plan = _c.tigris_plan_from_file(os.fspath(source))
    check(status)
    return Plan(plan)
