#!/usr/bin/env python3
"""Proves from a GNU ld map file that a firmware links no heap.

The runtime promises no heap (DESIGN.md: "no malloc"). The linker's map file, written with
--cref, lists in its "Cross Reference Table" every global symbol of every object that made
it into the link, with the file that defines it; "Archive member included ..." lists why
each library member was pulled in. A heap function in either means some code path can
allocate. Checks both, plus `nm` on the linked ELF when one is given.

  check_map.py --map fw.map [--elf fw.elf --nm arm-none-eabi-nm]   # exit 0: no heap
  check_map.py --map probe.map --expect-heap                        # exit 0: heap found
The second form is the negative control: it runs on a probe firmware that does call
malloc (runtime/targets/mps2/heap_probe.c), so a checker that could not see malloc fails.
"""

import argparse
import re
import subprocess
import sys

# newlib's allocator entry points and the system call under them.
HEAP_SYMBOLS = {
    "malloc", "free", "calloc", "realloc", "memalign", "aligned_alloc", "posix_memalign",
    "_malloc_r", "_free_r", "_calloc_r", "_realloc_r", "_memalign_r", "_sbrk", "_sbrk_r",
    "__malloc_av_", "__malloc_lock",
}


def cross_reference_definitions(text):
    """{symbol: defining file} from the map's Cross Reference Table (first file defines)."""
    start = text.find("Cross Reference Table")
    if start < 0:
        raise SystemExit("check_map: no Cross Reference Table: link with -Wl,--cref")
    defined = {}
    for line in text[start:].splitlines()[3:]:
        match = re.match(r"^(\S+)\s+(\S.*)$", line)
        if match:
            defined[match.group(1)] = match.group(2).strip()
    return defined


def pulled_members(text):
    """Library members the linker pulled in, with the symbol that pulled each."""
    end = text.find("\n\n", text.find("Archive member included"))
    block = text[:end if end > 0 else len(text)]
    return re.findall(r"^(\S+\.a\([^)]+\))\s*\n\s+\S.*\((\S+)\)", block, re.MULTILINE)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--map", required=True)
    parser.add_argument("--elf")
    parser.add_argument("--nm", default="arm-none-eabi-nm")
    parser.add_argument("--expect-heap", action="store_true",
                        help="negative control: succeed only when a heap symbol IS found")
    args = parser.parse_args()

    text = open(args.map, encoding="utf-8", errors="replace").read()
    found = []
    for symbol, where in sorted(cross_reference_definitions(text).items()):
        if symbol in HEAP_SYMBOLS:
            found.append(f"{symbol} defined by {where}")
    for member, symbol in pulled_members(text):
        if symbol in HEAP_SYMBOLS:
            found.append(f"{member} pulled in for {symbol}")
    if args.elf:
        listing = subprocess.run([args.nm, args.elf], capture_output=True, text=True, check=True)
        for line in listing.stdout.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[2] in HEAP_SYMBOLS:
                found.append(f"{parts[2]} in the symbol table of {args.elf}")

    if args.expect_heap:
        if not found:
            print(f"check_map FAIL: {args.map}: the probe calls malloc, yet no heap symbol was "
                  f"found: the checker is blind", file=sys.stderr)
            return 1
        print(f"check_map OK: negative control {args.map} shows the heap: {found[0]}")
        return 0
    if found:
        print(f"check_map FAIL: {args.map} links heap code:\n  " + "\n  ".join(found),
              file=sys.stderr)
        return 1
    print(f"check_map OK: {args.map}: no malloc/free/calloc/realloc/_sbrk linked")
    return 0


if __name__ == "__main__":
    sys.exit(main())
