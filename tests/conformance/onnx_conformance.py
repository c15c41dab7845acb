#!/usr/bin/env python3
"""ONNX's own operator conformance cases, run through `tigris` as a user would.

The onnx package ships a small model with inputs and expected outputs per operator case
(`onnx.backend.test.case.node.collect_testcases`) and two suites of PyTorch exports
(`onnx/backend/test/data/pytorch-{converted,operator}`). Each case is saved, compiled with
`tigris compile -m 64M --xip`, run with `tigris run`, and output 0 is compared with the
case's expected output: integers exactly; float within 1e-4 of the largest expected
magnitude (issue 43) or within the case's own tolerance (onnx's backend test: rtol 1e-3,
atol 1e-7 per element), since some expected outputs are written rounded to 4 decimals.
Where the compiler needs an input to be a constant (weights, shapes, axes), the case is
compiled a second time with inputs 1.. folded into initializers holding the case's data.

Each case ends in one outcome:
  skipped        a tensor type a microcontroller plan does not carry (float16, strings,
                 sequences, ...) or more than one output: not counted
  refused        `tigris compile` refused it with a named status (an op or attribute we
                 do not support): allowed, and counted
  verdict-broken `tigris analyze -m 64M` and `tigris compile` disagree on a model (one
                 fits, the other refuses): a failure (the verdict promise, issue 37)
  run-refused    compile accepted the plan and `tigris run` refused it: a failure (the
                 compiler must refuse what the runtime cannot run)
  crashed        either tool died on a signal: a failure
  wrong          the plan ran and output 0 differs: a failure
  correct

With --int8 each case with a float32 input is first quantized as a user would
quantize a model, by onnxruntime's quantize_static (QDQ, int8 activations and per-channel
int8 weights, per tensor where it fails on per-channel ones; calibrated on the case's own
inputs), and compared with onnxruntime running
that QDQ model with graph optimizations off (issue 43: within 1 LSB of the output's scale on
at least 99% of its elements; an output that is not dequantized, as ArgMax's, exactly or
to the float tolerance). A case quantize_static leaves without a QuantizeLinear (its op is
not one it quantizes), or cannot quantize, is "not quantized" and not counted.

    onnx_conformance.py --build build            # the table
    onnx_conformance.py --build build --check tests/conformance/expected_correct.txt
    onnx_conformance.py --build build --write-expected tests/conformance/expected_correct.txt
    onnx_conformance.py --build build --int8 --check tests/conformance/expected_correct_int8.txt

--check fails on any run-refused, crashed, wrong or verdict-broken case, and on a case
listed in the file that is no longer correct (a regression); it prints the cases that
became correct so that the list can be refreshed with --write-expected.
"""
import argparse
import collections
import concurrent.futures
import functools
import glob
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import warnings

import numpy as np
import onnx
from onnx import numpy_helper

# Tensor element types a plan may carry at its edges (issue 43's "MCU dtypes").
MCU_TYPES = {
    onnx.TensorProto.FLOAT, onnx.TensorProto.INT8, onnx.TensorProto.UINT8,
    onnx.TensorProto.INT32, onnx.TensorProto.INT64, onnx.TensorProto.BOOL
}
FLOAT_TOLERANCE = 1e-4  # of the largest expected magnitude (or the case's own, _compare)
SUITES = ("node", "pytorch-converted", "pytorch-operator")


class Case:
    """One conformance case: a model, its inputs and its expected output 0."""

    def __init__(self, suite, name, model, inputs, expected, rtol=1e-3, atol=1e-7):
        self.suite, self.name = suite, name
        self.model, self.inputs, self.expected = model, inputs, expected
        self.rtol, self.atol = rtol, atol

    @property
    def key(self):
        return f"{self.suite}/{self.name}"


def _value_types(value_infos):
    for vi in value_infos:
        t = vi.type
        if not t.HasField("tensor_type"):
            yield None
        else:
            yield t.tensor_type.elem_type


def mcu_eligible(model):
    """A single-output model whose edge tensors are all of MCU_TYPES."""
    graph = model.graph
    if len(graph.output) != 1:
        return False
    return all(t in MCU_TYPES for t in _value_types(list(graph.input) + list(graph.output)))


def node_cases():
    from onnx.backend.test.case.node import collect_testcases
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for tc in collect_testcases(None):
            if tc.model is None or not tc.data_sets:
                continue
            inputs, outputs = tc.data_sets[0]
            yield Case("node", tc.name, tc.model, list(inputs), outputs[0] if outputs else None,
                       tc.rtol, tc.atol)


def _read_tensor(path):
    tensor = onnx.TensorProto()
    tensor.ParseFromString(pathlib.Path(path).read_bytes())
    return numpy_helper.to_array(tensor)


def data_cases(suite):
    import onnx.backend.test
    root = pathlib.Path(onnx.backend.test.__file__).parent / "data" / suite
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        sets = sorted(folder.glob("test_data_set_*"))
        if not (folder / "model.onnx").exists() or not sets:
            continue
        model = onnx.load(folder / "model.onnx")
        inputs = [_read_tensor(p) for p in sorted(sets[0].glob("input_*.pb"),
                                                   key=lambda p: int(p.stem.split("_")[1]))]
        outputs = sorted(sets[0].glob("output_*.pb"))
        expected = _read_tensor(outputs[0]) if outputs else None
        yield Case(suite, folder.name, model, inputs, expected)


def all_cases(suites):
    for suite in suites:
        yield from (node_cases() if suite == "node" else data_cases(suite))


def _fold_inputs(model, inputs):
    """The model with graph inputs 1.. turned into initializers holding the case's data."""
    folded = onnx.ModelProto()
    folded.CopyFrom(model)
    graph = folded.graph
    keep = [graph.input[0]] if graph.input else []
    for vi, value in zip(list(graph.input)[1:], inputs[1:]):
        graph.initializer.append(numpy_helper.from_array(np.asarray(value), vi.name))
    del graph.input[:]
    graph.input.extend(keep)
    return folded, inputs[:1]


_STATUS = re.compile(r"\b(TIGRIS_[A-Z_]+|TGRS_[A-Z_]+)\b")


def _first_line(text):
    for line in text.splitlines():
        line = line.strip()
        if line:
            return line[:200]
    return ""


class VerdictBroken(Exception):
    """analyze and compile disagree on one model."""


def _compile(tigris, model, workdir, tag):
    """compile's CompletedProcess and the plan's path, after checking that analyze at the
    same budget gives the same verdict (it fits <=> compile writes a plan)."""
    model_path = workdir / f"{tag}.onnx"
    plan_path = workdir / f"{tag}.tgrs"
    onnx.save(model, model_path)
    proc = subprocess.run(
        [tigris, "compile", str(model_path), "-m", "64M", "--xip", "-o", str(plan_path)],
        capture_output=True, text=True, timeout=120)
    if proc.returncode >= 0:
        analysis = subprocess.run([tigris, "analyze", str(model_path), "-m", "64M", "--json"],
                                  capture_output=True, text=True, timeout=120)
        fits = analysis.returncode == 0 and '"verdict": "needs_work"' not in analysis.stdout
        if fits != (proc.returncode == 0):
            said = "fits" if fits else _first_line(analysis.stderr) or "does not fit"
            raise VerdictBroken(f"{tag}: analyze: {said}; compile: "
                                f"{_first_line(proc.stderr + proc.stdout) or 'wrote the plan'}")
    return proc, plan_path


def _compare(expected, actual, rtol, atol):
    """None when output 0 matches; otherwise why not."""
    if expected.size != actual.size:
        return f"shape {list(actual.shape)} != {list(expected.shape)}"
    exp = expected.reshape(-1)
    act = actual.reshape(-1)
    if exp.dtype.kind == "f":
        act = act.astype(np.float64)
        exp = exp.astype(np.float64)
        same_nan = np.isnan(exp) == np.isnan(act)
        finite = np.isfinite(exp)
        same_inf = np.where(np.isinf(exp), exp == act, True)
        largest = np.max(np.abs(exp[finite])) if finite.any() else 0.0
        tol = np.maximum(FLOAT_TOLERANCE * largest, atol + rtol * np.abs(exp))
        close = np.where(finite, np.abs(np.nan_to_num(act - exp)) <= tol, True)
        close &= ~(finite & ~np.isfinite(act))
        bad = ~(same_nan & same_inf & close)
        if bad.any():
            i = int(np.argmax(bad))
            return f"{int(bad.sum())} of {exp.size} differ (e.g. [{i}] {act[i]} vs {exp[i]})"
        return None
    if not np.array_equal(exp.astype(np.int64), act.astype(np.int64)):
        bad = exp.astype(np.int64) != act.astype(np.int64)
        i = int(np.argmax(bad))
        return f"{int(bad.sum())} of {exp.size} differ (e.g. [{i}] {act[i]} vs {exp[i]})"
    return None


def _run(tigris, plan, inputs, workdir, folded, compare, extra=()):
    """(outcome, detail, folded) of `tigris run` on the case's inputs: `compare` takes output
    0 and says why it is wrong (None: correct)."""
    args = [tigris, "run", str(plan), *extra]
    for i, value in enumerate(inputs):
        path = workdir / f"input_{i}.npy"
        np.save(path, np.asarray(value))
        args += ["--input", str(path)]
    out_path = workdir / "output_0.npy"
    args += ["--output", str(out_path)]
    run = subprocess.run(args, capture_output=True, text=True, timeout=120)
    if run.returncode < 0:
        return "crashed", f"run: signal {-run.returncode}", folded
    if run.returncode != 0:
        return "run-refused", _first_line(run.stderr + run.stdout), folded
    why = compare(np.load(out_path))
    return ("wrong", why, folded) if why else ("correct", "", folded)


def _guarded(run):
    """Runs a case in a scratch folder of its own (removed after), turning the tools'
    verdict disagreements and timeouts into the case's outcome."""
    @functools.wraps(run)
    def guarded(tigris, case, scratch):
        workdir = pathlib.Path(tempfile.mkdtemp(dir=scratch))
        try:
            return run(tigris, case, workdir)
        except VerdictBroken as e:
            return "verdict-broken", str(e), False
        except subprocess.TimeoutExpired as e:
            return "crashed", f"timeout: {' '.join(e.cmd[:2])}", False
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
    return guarded


@_guarded
def run_case(tigris, case, workdir):
    """(outcome, detail, folded) for one case."""
    if case.expected is None or not mcu_eligible(case.model):
        return "skipped", "", False
    model, inputs, folded = case.model, case.inputs, False
    proc, plan = _compile(tigris, model, workdir, "as_is")
    if proc.returncode < 0:
        return "crashed", f"compile: signal {-proc.returncode}", folded
    if proc.returncode != 0 and len(case.model.graph.input) > 1:
        model, inputs = _fold_inputs(case.model, case.inputs)
        retry, plan2 = _compile(tigris, model, workdir, "folded")
        if retry.returncode < 0:
            return "crashed", f"compile: signal {-retry.returncode}", True
        if retry.returncode == 0:
            proc, plan, folded = retry, plan2, True
        else:  # the folded model's refusal is the telling one: its inputs are constants
            proc, folded = retry, True
    if proc.returncode != 0:
        return "refused", _first_line(proc.stderr + proc.stdout), folded
    return _run(tigris, plan, inputs, workdir, folded,
                lambda y: _compare(np.asarray(case.expected), y, case.rtol, case.atol))


INT8_SHARE = 0.99  # of the elements within 1 LSB of the output's scale (issue 43)


def _has_float32_input(model):
    """quantize_static quantizes float tensors: a case needs one float32 graph input (its
    integer inputs, indices, axes or shapes, pass through unquantized)."""
    return any(t == onnx.TensorProto.FLOAT for t in _value_types(list(model.graph.input)))


def _quantize(model, inputs, workdir, tag):
    """quantize_static's QDQ form of `model`, calibrated on `inputs`; None when it quantizes
    nothing or cannot quantize the model."""
    import logging

    import onnxruntime
    from onnxruntime.quantization import (CalibrationDataReader, QuantFormat, QuantType,
                                          quantize_static)

    # quantize_static's advice (pre-processing, opset upgrades) and onnxruntime's own
    # notices would bury the table: keep errors only.
    logging.getLogger().setLevel(logging.ERROR)
    onnxruntime.set_default_logger_severity(3)

    class CaseInputs(CalibrationDataReader):
        def __init__(self):
            names = [vi.name for vi in model.graph.input]
            self._feeds = iter([dict(zip(names, (np.asarray(v) for v in inputs)))])

        def get_next(self):
            return next(self._feeds, None)

    source, quantized = workdir / f"{tag}_float.onnx", workdir / f"{tag}_int8.onnx"
    onnx.save(model, source)
    # Per-channel weights first; per tensor where quantize_static fails on them (onnxruntime
    # 1.31 cannot adjust a Gemm's bias to per-channel weight scales), as a user would retry.
    for per_channel in (True, False):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                quantize_static(str(source), str(quantized), CaseInputs(),
                                quant_format=QuantFormat.QDQ, activation_type=QuantType.QInt8,
                                weight_type=QuantType.QInt8, per_channel=per_channel)
            break
        except Exception:  # quantize_static's own limits: the case is not counted
            if not per_channel:
                return None
    result = onnx.load(quantized)
    if not any(n.op_type == "QuantizeLinear" for n in result.graph.node):
        return None
    return result


def _onnxruntime(model, inputs):
    """onnxruntime's output 0 with graph optimizations off (QDQ evaluated as written), or
    None when onnxruntime cannot run the model."""
    import onnxruntime as ort
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    options.log_severity_level = 3
    try:
        session = ort.InferenceSession(model.SerializeToString(), options,
                                       providers=["CPUExecutionProvider"])
        names = [i.name for i in session.get_inputs()]
        return session.run(None, dict(zip(names, (np.asarray(v) for v in inputs))))[0]
    except Exception:
        return None


def _output_scale(model):
    """The scale of the DequantizeLinear writing graph output 0, or None."""
    name = model.graph.output[0].name
    inits = {i.name: i for i in model.graph.initializer}
    for node in model.graph.node:
        if node.op_type == "DequantizeLinear" and node.output[0] == name:
            scale = inits.get(node.input[1])
            return float(numpy_helper.to_array(scale).reshape(-1)[0]) if scale else None
    return None


def _compare_int8(reference, actual, scale):
    """None when the plan's output is within 1 LSB of onnxruntime's on INT8_SHARE of its
    elements (a dequantized output), or matches as _compare does (any other output)."""
    if scale is None:
        return _compare(reference, actual, 0.0, 0.0)
    if reference.size != actual.size:
        return f"shape {list(actual.shape)} != {list(reference.shape)}"
    lsb = np.rint(np.abs(actual.reshape(-1).astype(np.float64) - reference.reshape(-1)) / scale)
    within = float(np.mean(lsb <= 1)) if lsb.size else 1.0
    if within < INT8_SHARE:
        return f"{100 * within:.1f}% within 1 LSB (largest {lsb.max():.0f} LSB)"
    return None


@_guarded
def run_case_int8(tigris, case, workdir):
    """(outcome, detail, folded) for the QDQ form of one case (--int8)."""
    if case.expected is None or not mcu_eligible(case.model) or not _has_float32_input(case.model):
        return "skipped", "", False
    forms = [(case.model, case.inputs, False)]
    if len(case.model.graph.input) > 1:  # weights given as inputs: fold them, as above
        forms.append(_fold_inputs(case.model, case.inputs) + (True,))
    proc = None
    for model, inputs, folded in forms:
        quantized = _quantize(model, inputs, workdir, "folded" if folded else "as_is")
        if quantized is None:
            continue
        reference = _onnxruntime(quantized, inputs)
        if reference is None:
            continue
        proc, plan = _compile(tigris, quantized, workdir, "q_folded" if folded else "q")
        if proc.returncode < 0:
            return "crashed", f"compile: signal {-proc.returncode}", folded
        if proc.returncode == 0:
            break
    if proc is None:
        return "skipped", "not quantized", False
    if proc.returncode != 0:
        return "refused", _first_line(proc.stderr + proc.stdout), folded
    scale = _output_scale(quantized)
    return _run(tigris, plan, inputs, workdir, folded,
                lambda y: _compare_int8(np.asarray(reference), y, scale), ["--dequantize"])


def _worker(args):
    tigris, case, scratch, int8 = args
    return case.key, (run_case_int8 if int8 else run_case)(tigris, case, scratch)


OUTCOMES = ("refused", "verdict-broken", "run-refused", "crashed", "wrong", "correct")
FAILURES = ("verdict-broken", "run-refused", "crashed", "wrong")


def table(results):
    counts = collections.defaultdict(collections.Counter)
    for key, (outcome, _, _) in results.items():
        counts[key.split("/")[0]][outcome] += 1
    lines = [f"{'suite':<20} {'cases':>6} {'compiled':>9} {'ran':>6} {'correct':>8} "
             f"{'refused at run':>15} {'wrong':>6} {'crashed':>8} {'analyze != compile':>19}"]
    for suite in SUITES:
        c = counts.get(suite)
        if not c:
            continue
        cases = sum(c[o] for o in OUTCOMES)
        compiled = cases - c["refused"] - c["crashed"] - c["verdict-broken"]
        ran = c["wrong"] + c["correct"]
        lines.append(f"{suite:<20} {cases:>6} {compiled:>9} {ran:>6} {c['correct']:>8} "
                     f"{c['run-refused']:>15} {c['wrong']:>6} {c['crashed']:>8} "
                     f"{c['verdict-broken']:>19}")
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("--build", default="build", help="the build folder (bin/tigris)")
    parser.add_argument("--tigris", help="the tigris command (default: BUILD/bin/tigris)")
    parser.add_argument("--suite", action="append", choices=SUITES,
                        help="run only this suite (repeatable; default: all)")
    parser.add_argument("-k", dest="pattern", help="only cases whose name matches this regex")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--check", metavar="FILE",
                        help="fail on any run-refused, crashed, wrong or verdict-broken case, "
                        "or on a case in FILE that is no longer correct")
    parser.add_argument("--write-expected", metavar="FILE",
                        help="write the correct cases' names to FILE")
    parser.add_argument("--int8", action="store_true",
                        help="run each float32 case as quantize_static quantizes it, against "
                        "onnxruntime on that QDQ model (1 LSB on 99%% of the elements)")
    parser.add_argument("--verbose", "-v", action="store_true",
                        help="list every counted case with its outcome and detail")
    args = parser.parse_args()

    tigris = args.tigris or str(pathlib.Path(args.build) / "bin" / "tigris")
    if not os.access(tigris, os.X_OK):
        sys.exit(f"onnx_conformance: no tigris command at {tigris} (build first, or --tigris)")
    pattern = re.compile(args.pattern) if args.pattern else None
    cases = [c for c in all_cases(args.suite or SUITES) if not pattern or pattern.search(c.name)]
    form = ", each as quantize_static quantizes it" if args.int8 else ""
    print(f"onnx {onnx.__version__}: {len(cases)} cases{form}, {args.jobs} jobs", flush=True)

    results = {}
    with tempfile.TemporaryDirectory(prefix="tigris-conformance-") as scratch:
        with concurrent.futures.ProcessPoolExecutor(max_workers=args.jobs) as pool:
            work = ((tigris, c, scratch, args.int8) for c in cases)
            for done, (key, result) in enumerate(pool.map(_worker, work, chunksize=8), 1):
                if result[0] != "skipped":
                    results[key] = result
                if done % 200 == 0:
                    print(f"  {done}/{len(cases)}", flush=True)

    for key in sorted(results):
        outcome, detail, folded = results[key]
        if args.verbose or outcome in FAILURES:
            fold = " (inputs 1.. folded)" if folded else ""
            print(f"{outcome:<12} {key}{fold}: {detail}")
    print()
    print("\n".join(table(results)))

    correct = sorted(k for k, r in results.items() if r[0] == "correct")
    if args.write_expected:
        pathlib.Path(args.write_expected).write_text(
            "# ONNX conformance cases that pass (tests/conformance/onnx_conformance.py\n"
            f"# {'--int8 ' if args.int8 else ''}--write-expected), onnx {onnx.__version__}.\n" + "".join(f"{k}\n" for k in correct))
        print(f"wrote {len(correct)} cases to {args.write_expected}")
    if args.check:
        listed = [l.strip() for l in pathlib.Path(args.check).read_text().splitlines()
                  if l.strip() and not l.startswith("#")]
        failures = [k for k, r in results.items() if r[0] in FAILURES]
        selected = {c.key for c in cases}
        lost = [k for k in listed if k in selected and results.get(k, ("skipped",))[0] != "correct"]
        gained = sorted(set(correct) - set(listed))
        for k in lost:
            print(f"REGRESSION {k}: {results.get(k, ('not run',))[0]}")
        if gained:
            print(f"{len(gained)} cases now correct that {args.check} does not list "
                  "(refresh it with --write-expected):")
            for k in gained:
                print(f"  {k}")
        if failures or lost:
            print(f"FAILED: {len(failures)} run-refused/crashed/wrong/verdict-broken, "
                  f"{len(lost)} regressions")
            return 1
        print("OK: no plan refused at run time, none wrong, analyze == compile, no regression")
    return 0


if __name__ == "__main__":
    sys.exit(main())
