#!/usr/bin/env python3
"""Runs one .tgrs plan on an emulated Cortex-M and checks it against the host runtime.

The firmware (runtime/targets/mps2: the C99 runtime cross-built with arm-none-eabi-gcc,
the plan embedded in flash, arenas as static buffers of exactly the plan's sizes) runs
under qemu-system-arm. The same plan and the same random input run on this machine with
`tigris run` (the same C sources built for x86-64). The test passes when:
  - the firmware exits 0 (no fault, no runtime error, no byte written past an arena);
  - its output bytes equal the host runtime's output bytes (the runtime promises
    bit-identical results on every target, docs/cortex-m.md);
  - the fast arena's high-water mark, rounded up to the arena alignment, equals the
    plan's fast_arena_bytes, and neither arena was used beyond its size.
  - the firmware's per-op profile (a second, observed run: runtime/targets/mps2/op_profile.c)
    adds up: its ops take no more than the profiled run, which takes no fewer instructions
    than the counted one.
It prints one result line and writes result.json, the profile included (bench/cortex_m_report.py
reads it).
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ARENA_ALIGNMENT = 16
# QEMU runs with -icount shift=0: one guest instruction per nanosecond of virtual time.
# SysTick counts the MPS2 core clock of 25 MHz, so one tick is 40 instructions.
INSTRUCTIONS_PER_TICK = 1_000_000_000 // 25_000_000

EXIT_MEANINGS = {
    1: "the runtime returned an error (tgrs_run)",
    2: "setup failed: plan rejected, firmware built for another plan, or file I/O",
    3: "the core took a fault (HardFault/MemManage/BusFault/UsageFault)",
    4: "memory past an arena or the stack limit was overwritten",
}

# Armv7-M exception numbers and Configurable Fault Status Register bits (Armv7-M ARM
# B1.5.2, B3.2.15): MMFSR in bits 0-7, BFSR in 8-15, UFSR in 16-31.
EXCEPTIONS = {2: "NMI", 3: "HardFault", 4: "MemManage", 5: "BusFault", 6: "UsageFault"}
CFSR_BITS = {
    0: "IACCVIOL", 1: "DACCVIOL", 3: "MUNSTKERR", 4: "MSTKERR", 5: "MLSPERR", 7: "MMARVALID",
    8: "IBUSERR", 9: "PRECISERR", 10: "IMPRECISERR", 11: "UNSTKERR", 12: "STKERR",
    13: "LSPERR", 15: "BFARVALID", 16: "UNDEFINSTR", 17: "INVSTATE", 18: "INVPC",
    19: "NOCP", 24: "UNALIGNED", 25: "DIVBYZERO",
}

DTYPES = {"FLOAT32": np.float32, "INT8": np.int8, "UINT8": np.uint8, "INT32": np.int32}


class CaseFailure(Exception):
    pass


def run(cmd, **kwargs):
    return subprocess.run(cmd, capture_output=True, text=True, **kwargs)


def inspect_plan(tigris, plan):
    result = run([tigris, "inspect", "--json", str(plan)])
    if result.returncode != 0:
        raise CaseFailure(f"tigris inspect {plan} failed:\n{result.stderr}")
    return json.loads(result.stdout)


def make_inputs(info, seed):
    """One random array per graph input, in the ONNX shape and the plan's dtype."""
    rng = np.random.default_rng(seed)
    arrays = []
    for index in info["plan"]["inputs"]:
        tensor = info["tensors"][index]
        shape = tensor.get("onnx_shape", tensor["shape"])
        dtype = DTYPES.get(tensor["dtype"])
        if dtype is None:
            raise CaseFailure(f"input '{tensor['name']}': dtype {tensor['dtype']} not handled")
        if dtype == np.float32:
            arrays.append(rng.standard_normal(shape).astype(np.float32))
        else:
            limits = np.iinfo(dtype)
            arrays.append(rng.integers(limits.min, limits.max + 1, shape, dtype=dtype))
    return arrays


def run_host(tigris, plan, info, inputs, workdir):
    args = [tigris, "run", str(plan)]
    for i, array in enumerate(inputs):
        path = workdir / f"input{i}.npy"
        np.save(path, array)
        args += ["-i", str(path)]
    outputs = []
    for i, _ in enumerate(info["plan"]["outputs"]):
        path = workdir / f"host_output{i}.npy"
        args += ["-o", str(path)]
        outputs.append(path)
    result = run(args)
    if result.returncode != 0:
        raise CaseFailure(f"host run failed ({' '.join(args)}):\n{result.stderr}")
    return [np.load(path) for path in outputs]


def explain_fault(addr2line, firmware, text):
    """The fault's name and cause, and 'function at file:line' for its pc and lr."""
    lines = []
    exception = re.search(r"FAULT in exception (\d+)", text)
    cfsr = re.search(r"fault\.cfsr=0x([0-9a-f]+)", text)
    if exception:
        name = EXCEPTIONS.get(int(exception.group(1)), f"exception {exception.group(1)}")
        causes = [flag for bit, flag in CFSR_BITS.items()
                  if cfsr and int(cfsr.group(1), 16) >> bit & 1]
        lines.append(f"  {name}" + (f" ({', '.join(causes)})" if causes else ""))
    for key in ("pc", "lr"):
        match = re.search(rf"fault\.{key}=0x([0-9a-f]+)", text)
        if not match or not addr2line:
            continue
        address = int(match.group(1), 16) & ~1  # the Thumb bit is not part of the address
        where = run([addr2line, "-f", "-C", "-e", str(firmware), hex(address)]).stdout.split()
        if len(where) >= 2:
            lines.append(f"  fault {key} 0x{address:08x}: {where[0]} at {where[1]}")
    return "\n".join(lines)


def launch(args, workdir):
    """Runs args.firmware on args.machine in `workdir` (semihosting files live there);
    returns what it printed and the wall time, or raises CaseFailure naming a hang, a
    non-zero exit (with the fault's function and line) or QEMU's own failure."""
    cmd = [args.qemu, "-M", args.machine, "-nographic", "-monitor", "none", "-serial", "none",
           "-semihosting-config", "enable=on,target=native", "-icount", "shift=0",
           "-kernel", str(args.firmware)]
    started = time.monotonic()
    try:
        result = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True,
                                timeout=args.timeout)
    except subprocess.TimeoutExpired as timeout:
        # What the firmware printed so far (semihosting writes to QEMU's stdout or stderr).
        out = "".join(part.decode(errors="replace") if isinstance(part, bytes) else part
                      for part in (timeout.stdout or "", timeout.stderr or ""))
        raise CaseFailure(f"QEMU did not finish within {args.timeout} s (a hang or a lockup)."
                          f"\ncommand: {' '.join(cmd)}\nfirmware said:\n{out}")
    wall = time.monotonic() - started
    console = result.stdout + result.stderr
    if result.returncode != 0:
        meaning = EXIT_MEANINGS.get(result.returncode, "QEMU itself failed")
        detail = explain_fault(args.addr2line, args.firmware, console)
        raise CaseFailure(f"firmware exit status {result.returncode}: {meaning}\n"
                          f"command: {' '.join(cmd)} (in {workdir})\n"
                          f"firmware said:\n{console.rstrip()}\n{detail}".rstrip())
    return console, wall


def run_qemu(args, workdir):
    """The firmware's "tgrs.<key>=<value>" lines as a dict, the wall time, and what it
    printed (the per-op profile is read from that)."""
    console, wall = launch(args, workdir)
    stats = {key: int(value) for key, value in re.findall(r"tgrs\.(\w+)=(\d+)", console)}
    for key in ("fast_hwm_bytes", "slow_hwm_bytes", "systick_lo", "stages_run"):
        if key not in stats:
            raise CaseFailure(f"firmware did not report tgrs.{key}:\n{console}")
    # The harness checks tigris_context.h's error contract on the target before it runs
    # (harness.c, check_context_contract): five bind errors (one an arena over the stack)
    # and the hydration latch.
    if stats.get("context_contract_checks") != 6:
        raise CaseFailure(f"firmware did not pass the 6 context contract checks:\n{console}")
    return stats, wall, console


def op_macs(op, tensors):
    """Multiply-accumulates of one op from its plan shapes (runtime layout), for the ops
    whose cost is MACs; None for the rest. Weights: CONV [Cout, kh, kw, Cin/group],
    DEPTHWISE_CONV [kh, kw, C], GEMM [N, K]."""
    weights = tensors[op["inputs"][1]]["shape"] if len(op["inputs"]) > 1 else None
    outputs = int(np.prod(tensors[op["outputs"][0]]["shape"]))
    if op["code"] == "CONV" and weights and len(weights) == 4:
        return outputs * int(np.prod(weights[1:]))
    if op["code"] == "DEPTHWISE_CONV" and weights and len(weights) == 3:
        return outputs * weights[0] * weights[1]
    if op["code"] == "GEMM" and weights and len(weights) == 2:
        return outputs * weights[1]
    return None


def read_profile(console, info, stats):
    """The harness's per-op profile (op_profile.c): one "tgrs-profile <op> <ticks> <calls>"
    line per op that ran. Each op's instructions include the executor's work for its
    calls; their sum cannot exceed the profiled run's total, and the profiled run, which
    also calls the observer, cannot take fewer instructions than the counted one."""
    ops = []
    for op, ticks, calls in re.findall(r"^tgrs-profile (\d+) (\d+) (\d+)$", console, re.M):
        plan_op = info["ops"][int(op)]
        ops.append({"op": int(op), "code": plan_op["code"], "calls": int(calls),
                    "instructions": int(ticks) * INSTRUCTIONS_PER_TICK,
                    "macs": op_macs(plan_op, info["tensors"])})
    total = stats.get("profile_ticks")
    if not ops or total is None:
        raise CaseFailure(f"firmware printed no per-op profile:\n{console}")
    summed = sum(op["instructions"] for op in ops) // INSTRUCTIONS_PER_TICK
    counted = stats["systick_lo"] + (stats.get("systick_hi", 0) << 32)
    if summed > total or total < counted:
        raise CaseFailure(f"per-op profile inconsistent: ops sum to {summed} ticks, the "
                          f"profiled run took {total}, the counted run {counted}")
    return ops


def compare(host_outputs, info, device_bytes):
    expected = b"".join(np.ascontiguousarray(a).tobytes() for a in host_outputs)
    if device_bytes == expected:
        return
    problems = [f"output bytes differ: QEMU wrote {len(device_bytes)} bytes, "
                f"host runtime {len(expected)} bytes"]
    offset = 0
    for index, host in zip(info["plan"]["outputs"], host_outputs):
        name = info["tensors"][index]["name"]
        size = host.nbytes
        device = np.frombuffer(device_bytes[offset:offset + size], dtype=host.dtype)
        offset += size
        if device.size != host.size:
            problems.append(f"  {name}: {device.size} elements from QEMU, {host.size} expected")
            continue
        flat = np.ascontiguousarray(host).ravel()
        # Compare element bytes, not values: NaN payloads and -0.0 count as differences.
        width = flat.dtype.itemsize
        rows_device = np.frombuffer(device.tobytes(), np.uint8).reshape(-1, width)
        rows_host = np.frombuffer(flat.tobytes(), np.uint8).reshape(-1, width)
        differ = np.flatnonzero((rows_device != rows_host).any(axis=1))
        if differ.size:
            first = int(differ[0])
            problems.append(f"  {name}: {differ.size} of {flat.size} elements differ; first at "
                            f"flat index {first}: QEMU {device[first].item()!r}, "
                            f"host {flat[first].item()!r}")
    raise CaseFailure("\n".join(problems))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--name", required=True, help="case name for messages")
    parser.add_argument("--qemu", default="qemu-system-arm")
    parser.add_argument("--machine", required=True, help="mps2-an386 (M4) or mps2-an500 (M7)")
    parser.add_argument("--firmware", required=True, type=Path)
    parser.add_argument("--plan", required=True, type=Path)
    parser.add_argument("--tigris", required=True, help="the host `tigris` CLI")
    parser.add_argument("--addr2line", default=shutil.which("arm-none-eabi-addr2line"))
    parser.add_argument("--workdir", required=True, type=Path)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("--flip-output-byte", type=int, metavar="INDEX",
                        help="negative control: flip this byte of QEMU's output before the "
                             "comparison, which must then fail")
    args = parser.parse_args()

    label = f"{args.name} on {args.machine}"
    try:
        for path in (args.firmware, args.plan):
            if not path.exists():
                raise CaseFailure(f"{path} does not exist: build first (ninja)")
        workdir = args.workdir
        if workdir.exists():
            shutil.rmtree(workdir)
        workdir.mkdir(parents=True)

        info = inspect_plan(args.tigris, args.plan)
        inputs = make_inputs(info, args.seed)
        (workdir / "tgrs_input.bin").write_bytes(
            b"".join(np.ascontiguousarray(a).tobytes() for a in inputs))
        host_outputs = run_host(args.tigris, args.plan, info, inputs, workdir)

        stats, wall, console = run_qemu(args, workdir)
        profile = read_profile(console, info, stats)
        output_file = workdir / "tgrs_output.bin"
        if not output_file.exists():
            raise CaseFailure("firmware exited 0 but wrote no tgrs_output.bin")
        device_bytes = bytearray(output_file.read_bytes())
        if args.flip_output_byte is not None:
            device_bytes[args.flip_output_byte] ^= 0xFF
        compare(host_outputs, info, bytes(device_bytes))

        fast = info["plan"]["fast_arena_bytes"]
        slow = info["plan"]["slow_arena_bytes"]
        hwm = stats["fast_hwm_bytes"]
        rounded = -(-hwm // ARENA_ALIGNMENT) * ARENA_ALIGNMENT
        if rounded != fast:
            raise CaseFailure(f"fast arena high-water mark {hwm} B (rounded {rounded}) is not "
                              f"the plan's fast_arena_bytes {fast}")
        if stats["slow_hwm_bytes"] > slow:
            raise CaseFailure(f"slow high-water mark {stats['slow_hwm_bytes']} B exceeds the "
                              f"plan's slow_arena_bytes {slow}")
    except CaseFailure as failure:
        print(f"cortex-m FAIL {label}: {failure}", file=sys.stderr)
        return 1

    ticks = (stats.get("systick_hi", 0) << 32) | stats["systick_lo"]
    result = {
        "case": args.name, "machine": args.machine, "plan_bytes": args.plan.stat().st_size,
        "fast_arena_bytes": fast, "slow_arena_bytes": slow,
        "fast_hwm_bytes": hwm, "slow_hwm_bytes": stats["slow_hwm_bytes"],
        "stages": stats["stages_run"], "tiles": stats.get("tiles_run", 0),
        "ops_run": stats.get("ops_run", 0), "stack_used_bytes": stats.get("stack_used_bytes"),
        "instructions": ticks * INSTRUCTIONS_PER_TICK, "qemu_wall_seconds": round(wall, 3),
        # tgrs_plan_init with its integrity check, without it, and the check alone
        # (harness.c, report_integrity_cost; docs/integrity.md).
        "init_instructions": stats.get("init_ticks", 0) * INSTRUCTIONS_PER_TICK,
        "init_unchecked_instructions":
            stats.get("init_unchecked_ticks", 0) * INSTRUCTIONS_PER_TICK,
        "integrity_instructions": stats.get("integrity_ticks", 0) * INSTRUCTIONS_PER_TICK,
        # A second run with every kernel call timed (harness op_profile.c).
        "profile_instructions": stats["profile_ticks"] * INSTRUCTIONS_PER_TICK,
        "ops": profile,
    }
    (workdir / "result.json").write_text(json.dumps(result, indent=1) + "\n")
    print(f"cortex-m OK {label}: output bytes equal the host runtime's; "
          f"{result['stages']} stages, {result['tiles']} tiles, fast arena {fast} B "
          f"(high-water {hwm} B), stack {result['stack_used_bytes']} B, "
          f"~{result['instructions'] / 1e6:.2f} M instructions (QEMU icount), "
          f"{wall:.2f} s wall")
    return 0


if __name__ == "__main__":
    sys.exit(main())
