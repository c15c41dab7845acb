#!/usr/bin/env python3
"""Runs the three-memory firmware (runtime/targets/mps2/memories.c) under QEMU and checks it
against the host runtime.

The firmware runs two streaming plans (cell_a, cell_b: persistent state h=h_next, staged
constants) interleaved for `steps` steps, sharing one scratch buffer, each context keeping
its own state. The host runs the same plans with `tigris run`, passing each step's state
explicitly: zeros first, then the previous step's h_next. The test passes when:
  - the firmware exits 0 and reports every on-target check passed (the four bind errors
    and the zero-fill of the STATE arena, the latch, an unbound CONSTANTS arena, the staged
    bytes, per model; and a reset state giving the first step's outputs again);
  - every output byte of every step equals the host's.
"""

import argparse
import re
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_qemu_case import CaseFailure, launch, run  # noqa: E402

CELLS = ("cell_a", "cell_b")
# Per model: 4 bind errors, zero-fill, latch, unbound constants, staged bytes; cell_b's
# pinned arena: unbound, too small, misaligned; then the reset; then cell_a's staged
# constants with a flipped bit, refused by the integrity check, and repaired by hydrating.
EXPECTED_CHECKS = 8 * len(CELLS) + 3 + 1 + 2


def io_shapes(tigris, plan):
    """[(name, shape)] of the plan's inputs and outputs, from `tigris inspect`."""
    text = run([tigris, "inspect", str(plan)]).stdout
    shapes = {}
    for kind, name, dims in re.findall(r"^(input|output)\s+(\S+)\s+([0-9x]+)\s+FLOAT32", text,
                                       re.M):
        shapes.setdefault(kind, []).append((name, [int(d) for d in dims.split("x")]))
    return shapes


def host_sequence(tigris, plan, xs, workdir):
    """Each step's y and h_next bytes from `tigris run`, h chained from zeros."""
    shapes = io_shapes(tigris, plan)
    h = np.zeros(shapes["input"][1][1], np.float32)
    out = []
    for k, x in enumerate(xs):
        paths = [workdir / f"{plan.stem}.{k}.{n}.npy" for n in ("x", "h", "y", "hn")]
        np.save(paths[0], x)
        np.save(paths[1], h)
        result = run([tigris, "run", str(plan), "--input", str(paths[0]), "--input",
                      str(paths[1]), "--output", str(paths[2]), "--output", str(paths[3])])
        if result.returncode != 0:
            raise CaseFailure(f"tigris run {plan} failed:\n{result.stdout}{result.stderr}")
        y, h = np.load(paths[2]), np.load(paths[3])
        out.append(y.tobytes() + h.tobytes())
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--qemu", default="qemu-system-arm")
    parser.add_argument("--machine", required=True)
    parser.add_argument("--firmware", type=Path, required=True)
    parser.add_argument("--plans", type=Path, required=True, help="folder of cell_*.tgrs")
    parser.add_argument("--tigris", required=True)
    parser.add_argument("--addr2line")
    parser.add_argument("--workdir", type=Path, required=True)
    parser.add_argument("--steps", type=int, default=4, help="must match memories.c's STEPS")
    parser.add_argument("--timeout", type=float, default=120)
    args = parser.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    try:
        rng = np.random.RandomState(11)
        xs, expected = {}, {}
        for cell in CELLS:
            plan = args.plans / f"{cell}.tgrs"
            shape = io_shapes(args.tigris, plan)["input"][0][1]
            xs[cell] = [rng.standard_normal(shape).astype(np.float32) for _ in range(args.steps)]
            expected[cell] = host_sequence(args.tigris, plan, xs[cell], args.workdir)
        (args.workdir / "tgrs_input.bin").write_bytes(
            b"".join(x.tobytes() for cell in CELLS for x in xs[cell]))
        output = args.workdir / "tgrs_output.bin"
        output.unlink(missing_ok=True)

        started = time.monotonic()
        console, _ = launch(args, args.workdir)
        checks = re.search(r"tgrs\.memories_checks=(\d+)", console)
        if not checks or int(checks.group(1)) != EXPECTED_CHECKS:
            raise CaseFailure(f"on-target checks: {checks.group(1) if checks else 'none'} of "
                              f"{EXPECTED_CHECKS} passed:\n{console}")
        device = output.read_bytes()
        want = b"".join(expected[cell][k] for k in range(args.steps) for cell in CELLS)
        if device != want:
            first = next(i for i in range(min(len(device), len(want)))
                         if device[i] != want[i]) if len(device) == len(want) else None
            raise CaseFailure(f"device outputs differ from the host's ({len(device)} vs "
                              f"{len(want)} bytes, first difference at {first})")
    except CaseFailure as failure:
        print(f"FAIL memories on {args.machine}: {failure}")
        return 1
    print(f"PASS memories on {args.machine}: {args.steps} steps of {len(CELLS)} models, "
          f"{EXPECTED_CHECKS} on-target checks, outputs equal to the host "
          f"({time.monotonic() - started:.2f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
