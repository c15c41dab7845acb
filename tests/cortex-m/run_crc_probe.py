#!/usr/bin/env python3
"""Runs the CRC-32C probes (runtime/targets/mps2/crc_probe.c) on an emulated Cortex-M.

Each probe checksums 16 KiB the host fills with the same pattern; the test passes when
every probe's checksum equals this script's bit-at-a-time CRC-32C of those bytes (the
table-driven loop is right on the target, at every table size). It prints the cost in
instructions per KiB (QEMU -icount, SysTick x 40, as run_qemu_case.py counts) and writes
crc_cost.json, which bench/cortex_m_report.py and docs/integrity.md read.
"""

import argparse
import hashlib
import json
import re
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_qemu_case import INSTRUCTIONS_PER_TICK, CaseFailure, launch  # noqa: E402


def pattern(n):
    """crc_probe.c's bytes: the top byte of Numerical Recipes' LCG from state 1."""
    state, out = 1, bytearray(n)
    for i in range(n):
        state = (state * 1664525 + 1013904223) & 0xFFFFFFFF
        out[i] = state >> 24
    return bytes(out)


def crc32c(data):
    """CRC-32C from its definition: reflected polynomial 0x82F63B78, init and xorout ~0."""
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--qemu", default="qemu-system-arm")
    parser.add_argument("--machine", required=True)
    parser.add_argument("--addr2line", default=shutil.which("arm-none-eabi-addr2line"))
    parser.add_argument("--firmware-dir", required=True, type=Path)
    parser.add_argument("--workdir", required=True, type=Path)
    parser.add_argument("--timeout", type=float, default=120)
    args = parser.parse_args()

    results = []
    try:
        if args.workdir.exists():
            shutil.rmtree(args.workdir)
        args.workdir.mkdir(parents=True)
        expected = None
        for slices in (1, 4, 8):
            args.firmware = args.firmware_dir / f"crc_probe_{slices}.elf"
            if not args.firmware.exists():
                raise CaseFailure(f"{args.firmware} does not exist: build first (ninja)")
            console, _ = launch(args, args.workdir)
            values = dict(re.findall(r"tgrs\.(\w+)=(0x[0-9a-fA-F]+|\d+)", console))
            if "crc" not in values or "crc_ticks" not in values:
                raise CaseFailure(f"probe {slices} reported no checksum:\n{console}")
            size = int(values["crc_bytes"])
            if expected is None:
                expected = crc32c(pattern(size))
            crc = int(values["crc"], 16)
            if crc != expected:
                raise CaseFailure(f"slice-by-{slices} CRC-32C on the target is 0x{crc:08x}, "
                                  f"the definition gives 0x{expected:08x}")
            words = re.findall(r"tgrs\.sha256_word=0x([0-9a-fA-F]+)", console)
            digest = "".join(w.lower().rjust(8, "0") for w in words)
            if digest != hashlib.sha256(pattern(size)).hexdigest():
                raise CaseFailure(f"SHA-256 on the target is {digest}, hashlib gives "
                                  f"{hashlib.sha256(pattern(size)).hexdigest()}")
            instructions = int(values["crc_ticks"]) * INSTRUCTIONS_PER_TICK
            sha = int(values["sha256_ticks"]) * INSTRUCTIONS_PER_TICK
            results.append({"slices": slices, "table_bytes": 1024 * slices, "bytes": size,
                            "instructions": instructions,
                            "instructions_per_kib": round(instructions * 1024 / size),
                            "sha256_instructions_per_kib": round(sha * 1024 / size)})
    except CaseFailure as failure:
        print(f"cortex-m FAIL crc probes on {args.machine}: {failure}", file=sys.stderr)
        return 1
    (args.workdir / "crc_cost.json").write_text(json.dumps(results, indent=1) + "\n")
    for r in results:
        print(f"cortex-m OK crc probe slice-by-{r['slices']} on {args.machine}: "
              f"{r['instructions_per_kib']} instructions per KiB "
              f"({r['table_bytes']} B of tables), checksum equals the definition's; "
              f"SHA-256 {r['sha256_instructions_per_kib']} per KiB, digest equals hashlib's")
    return 0


if __name__ == "__main__":
    sys.exit(main())
