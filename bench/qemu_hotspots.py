#!/usr/bin/env python3
"""Instructions per function (and per translated block) of one Cortex-M firmware run on QEMU.

  bench/qemu_hotspots.py --build build --case mlperf_vww_mbv1_025_int8_arena [--top 20]
                         [--function tgrs_conv_box_s8_] [--core m4]

Where the per-op profile (bench/cortex_m_report.py --profile, docs/cortex-m.md) says which
op is slow, this says which function and which loop inside it: QEMU logs every translated
block it translates (`-d in_asm`: the guest instructions and the function holding them) and
every block it executes (`-d exec,nochain`, chaining off so each execution is logged). A
block's executions times its instruction count, summed per function, is that function's
share of the run. The run is the harness's whole program: plan verification, the counted
inference and the profiled one (runtime/targets/mps2/harness.c), so inference functions
appear twice over; the shares between them are what to read. `--function NAME` also lists
that function's blocks, hottest first, with their instructions: the inner loop to look at
(`arm-none-eabi-objdump -d` the firmware at that address).

Run `ctest --test-dir build -L cortex-m -R CASE` first: the case's input file and firmware
come from that run. The log is large (about 20 bytes per executed block; vww int8 at TFLM's
arena: 0.6 GB) and is written to a temporary directory that is removed afterwards.
"""

import argparse
import collections
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

MACHINES = {"m4": "mps2-an386", "m7": "mps2-an500"}


def run_logged(qemu, machine, firmware, workdir):
    log = workdir / "qemu.log"
    cmd = [qemu, "-M", machine, "-nographic", "-monitor", "none", "-serial", "none",
           "-semihosting-config", "enable=on,target=native", "-icount", "shift=0",
           "-kernel", str(firmware), "-d", "in_asm,exec,nochain", "-D", str(log)]
    result = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True, timeout=1800)
    if result.returncode != 0:
        sys.exit(f"the firmware exited {result.returncode}:\n{result.stdout}{result.stderr}")
    return log


def aggregate(log):
    """({block address: instructions}, {block address: function}, {block address: runs})."""
    size, function, runs = {}, {}, collections.Counter()
    current, start, count = None, None, 0
    block_line = re.compile(r"^0x([0-9a-f]{8}):")
    exec_line = re.compile(r"^Trace \d+: 0x[0-9a-f]+ \[[0-9a-f]+/([0-9a-f]+)/")
    with open(log, errors="replace") as f:
        for line in f:
            if line.startswith("IN: "):
                current, start, count = line[4:].strip(), None, 0
                continue
            if current is not None:
                m = block_line.match(line)
                if m:
                    start = int(m.group(1), 16) if start is None else start
                    count += 1
                    continue
                if not line.strip():
                    if start is not None:
                        size[start], function[start] = count, current
                    current = None
                    continue
            m = exec_line.match(line)
            if m:
                runs[int(m.group(1), 16)] += 1
    return size, function, runs


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", type=Path, default=Path("build"))
    parser.add_argument("--case", required=True, help="a Cortex-M test case (firmware name)")
    parser.add_argument("--core", choices=sorted(MACHINES), default="m4")
    parser.add_argument("--top", type=int, default=20, help="functions to list")
    parser.add_argument("--function", help="also list this function's hottest blocks")
    parser.add_argument("--qemu", default=shutil.which("qemu-system-arm") or "qemu-system-arm")
    args = parser.parse_args()

    base = args.build.resolve() / "tests" / "cortex-m" / args.core
    firmware = base / f"{args.case}.elf"
    inputs = base / "runs" / args.case / "tgrs_input.bin"
    for path in (firmware, inputs):
        if not path.exists():
            sys.exit(f"{path} not found: run `ctest --test-dir {args.build} -L cortex-m "
                     f"-R {args.case}` first")
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        shutil.copy(inputs, workdir / "tgrs_input.bin")
        size, function, runs = aggregate(run_logged(args.qemu, MACHINES[args.core], firmware,
                                                    workdir))
    per_function = collections.Counter()
    for block, n in runs.items():
        per_function[function.get(block, "?")] += n * size.get(block, 0)
    total = sum(per_function.values())
    print(f"{args.case} on {MACHINES[args.core]}: {total:,} instructions in the whole program")
    print("| function | instructions | share |\n|---|---:|---:|")
    for name, n in per_function.most_common(args.top):
        print(f"| {name} | {n:,} | {100 * n / total:.1f}% |")
    if args.function:
        blocks = [(runs[b] * size[b], b) for b in runs
                  if function.get(b) == args.function and b in size]
        print(f"\n{args.function}: blocks, hottest first\n"
              "| address | executions | instructions per run | instructions |\n"
              "|---|---:|---:|---:|")
        for n, b in sorted(blocks, reverse=True)[:args.top]:
            print(f"| 0x{b:08x} | {runs[b]:,} | {size[b]} | {n:,} |")


if __name__ == "__main__":
    main()
