"""``python -m tigris``: the main commands of the ``tigris`` CLI, through this package.

    python -m tigris analyze model.onnx -m 64K [--json]
    python -m tigris compile model.onnx -m 64K --xip -o model.tgrs
    python -m tigris run model.tgrs -i x.npy -o y.npy [--dequantize]

Sizes take the CLI's units (262144, 256K, 1.5MiB). Exit status as the CLI's: 0 success,
1 the model, plan or a budget was rejected, 2 a usage error.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import List, Optional

import numpy as np

from . import Error, load, load_plan, version


def _budgets(memory: List[str]):
    if len(memory) > 2:
        raise SystemExit("tigris: at most two -m (fast, then slow)")
    return memory[0], (memory[1] if len(memory) > 1 else None)


def _analyze(args: argparse.Namespace) -> None:
    fast, slow = _budgets(args.memory)
    with load(args.model) as model:
        report = model.analyze(fast=fast, slow=slow, flash=args.flash)
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(f"model     {args.model}")
    print(f"verdict   {report.get('verdict')}")
    print(f"SRAM      {report.get('scheduled_peak_bytes')} B scheduled peak "
          f"(naive {report.get('naive_peak_bytes')} B)")


def _compile(args: argparse.Namespace) -> None:
    fast, slow = _budgets(args.memory)
    with load(args.model) as model:
        weights = "in-place" if args.xip else args.weights
        with model.plan(fast=fast, slow=slow, flash=args.flash, weights=weights,
                        compression=args.compression) as plan:
            plan.save(args.output)
            print(f"{args.output}: {plan.file_bytes} bytes, fast arena "
                  f"{plan.fast_arena_bytes} B, slow arena {plan.slow_arena_bytes} B")


def _run(args: argparse.Namespace) -> None:
    with load_plan(args.plan) as plan:
        specs = plan.inputs()
        if len(args.input) != len(specs):
            raise SystemExit(f"tigris: the plan has {len(specs)} inputs, got {len(args.input)}")
        outputs = plan.run({spec["name"]: np.load(path) for spec, path in zip(specs, args.input)},
                           dequantize=args.dequantize)
        for path, array in zip(args.output, outputs.values()):
            np.save(path, array)
        s = outputs.stats
        print(f"ran in {s.run_seconds * 1e3:.3f} ms; fast high-water mark {s.fast_hwm_bytes} of "
              f"{s.fast_arena_bytes} B, slow {s.slow_hwm_bytes} of {s.slow_arena_bytes} B")


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tigris", description=__doc__.split("\n")[0])
    parser.add_argument("--version", action="version", version=f"tigris {version()}")
    commands = parser.add_subparsers(dest="command", required=True)

    p = commands.add_parser("analyze", help="plan a model under budgets and report")
    p.add_argument("model")
    p.add_argument("-m", "--memory", action="append", required=True, help="fast [then slow] budget")
    p.add_argument("-f", "--flash", help="flash budget")
    p.add_argument("--json", action="store_true", help="the whole report as JSON")
    p.set_defaults(func=_analyze)

    p = commands.add_parser("compile", help="compile a .tgrs plan")
    p.add_argument("model")
    p.add_argument("-m", "--memory", action="append", required=True, help="fast [then slow] budget")
    p.add_argument("-f", "--flash", help="flash budget")
    p.add_argument("--weights", choices=["auto", "in-place", "copy", "staged"], default="auto",
                   help="where the runtime reads weights from (as tigris compile)")
    p.add_argument("--xip", action="store_true", help="the same as --weights in-place")
    p.add_argument("-c", "--compression", choices=["none", "lz4"], default="none")
    p.add_argument("-o", "--output", required=True)
    p.set_defaults(func=_compile)

    p = commands.add_parser("run", help="run a .tgrs plan on this machine")
    p.add_argument("plan")
    p.add_argument("-i", "--input", action="append", default=[], help=".npy, one per input")
    p.add_argument("-o", "--output", action="append", default=[], help=".npy, one per output")
    p.add_argument("--dequantize", action="store_true", help="int8 outputs as float32")
    p.set_defaults(func=_run)

    args = parser.parse_args(argv)
    try:
        args.func(args)
    except Error as e:
        print(f"tigris: error: {e.message} [{e.status_name}]", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
