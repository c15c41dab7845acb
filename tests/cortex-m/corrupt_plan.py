#!/usr/bin/env python3
"""Writes a copy of a plan with one bit flipped, as a worn flash or a torn update leaves it.

The bit is the first one, from a fraction of the file onwards, whose flip the host
runtime refuses as TGRS_ERR_PLAN_CORRUPT in the region asked for (`tigris inspect`, the
same C sources as the firmware): a flip in weight_data's alignment padding is never read,
so it is skipped. The firmware built with the copy must refuse it the same way
(tests/cortex-m/CMakeLists.txt, the corrupt_plan cases; docs/integrity.md).
Usage: corrupt_plan.py --tigris T --plan IN --out OUT --region weights|tables --at 0.75
"""

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

PATTERNS = {"weights": "weights[", "tables": "integrity.tables_crc"}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tigris", required=True)
    parser.add_argument("--plan", required=True, type=Path)
    parser.add_argument("--out", required=True, type=Path)
    parser.add_argument("--config", type=Path, help="tgrs_plan_config.h to copy beside OUT")
    parser.add_argument("--region", required=True, choices=sorted(PATTERNS))
    parser.add_argument("--at", type=float, default=0.5, help="where to start, as a fraction")
    args = parser.parse_args()

    good = args.plan.read_bytes()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        probe = Path(tmp) / "probe.tgrs"
        for pos in range(int(len(good) * args.at), len(good)):
            bad = bytearray(good)
            bad[pos] ^= 1 << (pos % 8)
            probe.write_bytes(bad)
            result = subprocess.run([args.tigris, "inspect", str(probe)], capture_output=True,
                                    text=True)
            said = result.stdout + result.stderr
            if result.returncode != 0 and "TGRS_ERR_PLAN_CORRUPT" in said and \
                    PATTERNS[args.region] in said:
                args.out.write_bytes(bad)
                if args.config:
                    shutil.copyfile(args.config, args.out.parent / args.config.name)
                print(f"flipped bit {pos % 8} of byte {pos}: {said.strip().splitlines()[-1]}")
                return 0
    print(f"no flip from {args.at:.2f} of {args.plan} onwards is refused in {args.region}",
          file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
