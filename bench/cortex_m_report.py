#!/usr/bin/env python3
"""Code size of the C99 runtime on Cortex-M4/M7, and its QEMU runs, as Markdown tables.

  bench/cortex_m_report.py [--build build] [--firmware kws_small_cnn_int8] [--detail]
  bench/cortex_m_report.py [--build build] --json      the same figures for scripts
  bench/cortex_m_report.py [--build build] --profile CASE   instructions per op kind

Sizes come from the linker map of a real firmware (tests/cortex-m builds one per case
with -Os, -ffunction-sections -fdata-sections and --gc-sections), so they count only
what the linker kept, not the archives' contents. The default firmware links the whole
executor and therefore every kernel: its runtime size does not depend on the model. The
single-dtype builds and the ones with just a plan's ops (`tigris inspect --ops-header`,
firmware <case>_ops) are shown in their own table. The plan blob, the arenas and the
stack are the model's, not the runtime's, and are shown apart.
Columns follow GNU size's "berkeley" convention: .text is code plus read-only data
(flash), .data is initialised RAM (also stored in flash), .bss zeroed RAM.

The second table reads the result.json each QEMU test run leaves behind
(tests/cortex-m/run_qemu_case.py): run `ctest -L cortex-m` first.
"""

import argparse
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

CORES = (("m4", "Cortex-M4F (mps2-an386)"), ("m7", "Cortex-M7 (mps2-an500)"))

# Output section -> size column.
COLUMNS = {".text": "text", ".ARM.exidx": "text", ".data": "data", ".bss": "bss"}


LIBC = "libc/libm/libgcc pulled in by the runtime"
HARNESS = "(test harness: startup, semihosting, arenas)"
# The runtime functions only the harness's per-op profile reaches (op_profile.c calls
# tgrs_run_observed, which passes executor.c's observe): a firmware without the profile
# does not link them, so they count as the harness's.
PROFILE_ONLY_SECTIONS = {".text.tgrs_run_observed", ".text.observe"}
LIBC_HARNESS = "(libc used only by the harness)"


def component(path, runtime_libc=frozenset()):
    """Which part of the firmware an input file belongs to."""
    if "libtigris_runtime_core" in path:  # also the single-dtype builds (_int8, _float32)
        return "runtime core: reader, verifier, executor, LZ4"
    if "libtigris_runtime_kernels.a" in path:
        return "runtime kernels: int8 + float32"
    if "plan_blob" in path:
        return "(the plan, in flash)"
    if "libtigris_mps2_board.a" in path or re.search(r"(harness|op_profile)\.c", path):
        return HARNESS
    if re.search(r"lib(c|g|m|gcc|c_nano|g_nano)\.a", path):
        return LIBC if path in runtime_libc else LIBC_HARNESS
    return "(other)"


def is_runtime(part):
    """The rows that make up the runtime: core, kernels, and the libc they pull in."""
    return part.startswith("runtime") or part == LIBC


def map_file(build, core, firmware):
    path = build / "tests" / "cortex-m" / core / f"{firmware}.map"
    if not path.exists():
        sys.exit(f"{path} not found: build first (scripts/build.sh or ninja)")
    return path


def runtime_libc_members(text):
    """Library members the runtime needs, directly or through other such members.

    The map's Cross Reference Table lists, per symbol, the defining file and then every
    file referencing it. A libc member belongs to the runtime when a runtime object, or a
    member already known to be the runtime's, references a symbol it defines; members
    reached only from the harness (startup, semihosting) are shown apart."""
    table = text[text.find("Cross Reference Table"):].splitlines()[3:]
    referencers = defaultdict(set)  # defining file -> files referencing its symbols
    definer = None
    for line in table:
        head = re.match(r"^\S+\s+(\S.*)$", line)
        if head:
            definer = head.group(1).strip()
        elif line.strip() and definer:
            referencers[definer].add(line.strip())
    runtime = set()
    changed = True
    while changed:
        changed = False
        for member, users in referencers.items():
            if member in runtime or not re.search(r"lib(c|g|m|gcc|c_nano|g_nano)\.a", member):
                continue
            if any("libtigris_runtime_" in user or user in runtime for user in users):
                runtime.add(member)
                changed = True
    return frozenset(runtime)


def parse_map(path):
    """{(component, object): {text, data, bss}} from the memory-map part of a GNU ld map."""
    sizes = defaultdict(lambda: defaultdict(int))
    section_totals = defaultdict(int)
    text = path.read_text(errors="replace")
    runtime_libc = runtime_libc_members(text)
    body = text[text.index("Linker script and memory map"):]
    output_section = None
    pending = None  # an input section name whose address/size are on the next line
    for line in body.splitlines():
        head = re.match(r"^(\.[\w.]+)(?:\s+0x[0-9a-f]+\s+0x([0-9a-f]+))?", line)
        if head:
            output_section = head.group(1)
            pending = None
            if output_section in COLUMNS and head.group(2):
                section_totals[COLUMNS[output_section]] += int(head.group(2), 16)
            continue
        if output_section not in COLUMNS:
            continue
        one_line = re.match(r"^ (\S+)\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S.*)$", line)
        if one_line and not one_line.group(1).startswith("*"):
            section, size, where = one_line.group(1), int(one_line.group(3), 16), one_line.group(4)
        elif re.match(r"^ \.\S+$", line):
            pending = line.strip()
            continue
        else:
            continued = re.match(r"^\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S.*)$", line)
            if not (continued and pending):
                continue
            section, size, where = pending, int(continued.group(2), 16), continued.group(3)
            pending = None
        if where.startswith("load address"):
            continue
        obj = re.sub(r"^.*/", "", where)
        part = HARNESS if section in PROFILE_ONLY_SECTIONS else component(where, runtime_libc)
        sizes[(part, obj)][COLUMNS[output_section]] += size
    # What no input section claims is alignment fill between sections: show it, so the
    # rows add up to the ELF's section sizes (arm-none-eabi-size).
    for col, total in section_totals.items():
        claimed = sum(cols[col] for cols in sizes.values())
        sizes[("(alignment padding)", "*fill*")][col] += total - claimed
    return sizes


def size_table(build, firmware, detail):
    rows = []
    for core, title in CORES:
        totals = defaultdict(lambda: defaultdict(int))
        for (part, obj), cols in parse_map(map_file(build, core, firmware)).items():
            for col, value in cols.items():
                totals[part][col] += value
                if detail and is_runtime(part):
                    totals[f"  {obj}"][col] += value
        rows.append((title, totals))

    print(f"Runtime code size in bytes (linked firmware `{firmware}`, -Os, --gc-sections)\n")
    print("| part | " + " | ".join(f"{t} .text | .data | .bss" for t, _ in rows) + " |")
    print("|---|" + "---:|---:|---:|" * len(rows))
    # The runtime's own rows first (core, kernels, its libc), then the rest, then detail.
    parts = sorted({p for _, totals in rows for p in totals},
                   key=lambda p: (p.startswith("  "), p.startswith("("), p == LIBC, p))
    grand = [defaultdict(int) for _ in rows]
    for i, (_, totals) in enumerate(rows):
        for part, cols in totals.items():
            if is_runtime(part):
                for c in ("text", "data", "bss"):
                    grand[i][c] += cols.get(c, 0)
    total_printed = False
    for part in parts:
        if not total_printed and part.startswith(("(", "  ")):
            cells = [f"**{g[c]:,}**" for g in grand for c in ("text", "data", "bss")]
            print("| **runtime total, with its libc** | " + " | ".join(cells) + " |")
            total_printed = True
        cells = []
        for _, totals in rows:
            cols = totals.get(part, {})
            cells += [f"{cols.get(c, 0):,}" for c in ("text", "data", "bss")]
        print(f"| {part} | " + " | ".join(cells) + " |")


def single_dtype_table(build):
    """Runtime .text (with its libc) when the build keeps one dtype (docs/runtime.md)."""
    variants = (("both dtypes (default)", "kws_small_cnn_int8"),
                ("int8 only (-DTGRS_WITH_FLOAT32=0)", "kws_small_cnn_int8_int8_only"),
                ("float32 only (-DTGRS_WITH_INT8=0)", "kws_small_cnn_f32_float32_only"),
                ("kws_small_cnn int8's ops only (tigris inspect --ops-header)",
                 "kws_small_cnn_int8_ops"),
                ("vww_mobilenetv1_025_96 int8's ops only (tigris inspect --ops-header)",
                 "vww_mobilenetv1_025_96_int8_ops"),
                ("the same without verifier messages (-DTGRS_WITH_MESSAGES=0)",
                 "vww_mobilenetv1_025_96_int8_ops_lean"),
                ("mnist8 float32's ops only (tigris inspect --ops-header)", "mnist8_f32_ops"))
    print("\nRuntime .text by dtypes and ops built in (core + kernels + the libc they pull in)\n")
    print("| build | " + " | ".join(title for _, title in CORES) + " |")
    print("|---|" + "---:|" * len(CORES))
    for label, firmware in variants:
        cells = []
        for core, _ in CORES:
            text = sum(cols["text"] for (part, _), cols
                       in parse_map(map_file(build, core, firmware)).items() if is_runtime(part))
            cells.append(f"{text:,}")
        print(f"| {label} | " + " | ".join(cells) + " |")


def run_table(build, show_all):
    results = defaultdict(dict)  # firmware -> core -> result
    for core, _ in CORES:
        for path in sorted((build / "tests" / "cortex-m" / core / "runs").glob("*/result.json")):
            r = json.loads(path.read_text())
            if show_all or not r["case"].endswith(("_only", "_ops", "_ops_lean")):
                results[r["case"]][core] = r
    if not results:
        print("\n(no QEMU results yet: run `ctest -L cortex-m`)")
        return
    print("\nQEMU runs (instructions: SysTick under -icount shift=0, see docs/cortex-m.md; "
          "wall: the QEMU process)\n")
    print("| case | stages | tiles | fast arena | slow arena | stack | "
          + " | ".join(f"{core.upper()} instructions" for core, _ in CORES) + " | "
          + " | ".join(f"{core.upper()} wall" for core, _ in CORES) + " |")
    print("|---|---:|---:|---:|---:|---:|" + "---:|" * (2 * len(CORES)))
    for case in sorted(results):
        by_core = results[case]
        first = next(iter(by_core.values()))
        stack = max(r["stack_used_bytes"] for r in by_core.values())
        instructions = [f"{by_core[c]['instructions'] / 1e6:.2f} M" if c in by_core else "-"
                        for c, _ in CORES]
        walls = [f"{by_core[c]['qemu_wall_seconds']:.2f} s" if c in by_core else "-"
                 for c, _ in CORES]
        print(f"| {case} | {first['stages']} | {first['tiles']} | "
              f"{first['fast_arena_bytes']:,} | {first['slow_arena_bytes']:,} | {stack:,} | "
              + " | ".join(instructions) + " | " + " | ".join(walls) + " |")


def integrity_table(build):
    """The plan checksum's cost (docs/integrity.md): the CRC-32C probe per table size, and
    per case on the M4 tgrs_plan_init with and without the check, the check alone, and that
    against one inference."""
    probe = build / "tests" / "cortex-m" / "m4" / "runs" / "crc_probe" / "crc_cost.json"
    if probe.exists():
        print("\nCRC-32C on the M4 (ctest -R crc_probe: 16 KiB, checksum equal to the "
              "definition's)\n")
        print("| TGRS_CRC32C_SLICES | tables | instructions per KiB |")
        print("|---:|---:|---:|")
        results = json.loads(probe.read_text())
        for r in results:
            print(f"| {r['slices']} | {r['table_bytes']:,} B | {r['instructions_per_kib']:,} |")
        if results and "sha256_instructions_per_kib" in results[0]:
            print(f"\nSHA-256 (tgrs_plan_check_digest's function): "
                  f"{results[0]['sha256_instructions_per_kib']:,} instructions per KiB")
    rows = []
    for path in sorted((build / "tests" / "cortex-m" / "m4" / "runs").glob("*/result.json")):
        r = json.loads(path.read_text())
        if r.get("integrity_instructions") and not r["case"].endswith(("_only", "_ops_lean")):
            rows.append(r)
    if not rows:
        return
    print("\nPlan integrity on the M4 (tgrs_plan_init with its check, without it, the check "
          "alone; instructions)\n")
    print("| case | plan bytes | init | init unchecked | check | per KiB | of one inference |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        check = r["integrity_instructions"]
        print(f"| {r['case']} | {r['plan_bytes']:,} | {r['init_instructions']:,} | "
              f"{r['init_unchecked_instructions']:,} | {check:,} | "
              f"{round(check * 1024 / r['plan_bytes']):,} | "
              f"{100 * check / r['instructions']:.2f}% |")


def runtime_text(build, core, firmware):
    """The runtime's .text (core, kernels and their libc) in one firmware's map."""
    return sum(cols["text"] for (part, _), cols
               in parse_map(map_file(build, core, firmware)).items() if is_runtime(part))


def report_json(build):
    """sizes per core (every op, int8 only, float32 only, vww and kws int8's ops only)
    and every QEMU run, as one JSON document."""
    sizes = {}
    for core, title in CORES:
        sizes[core] = {
            "board": title,
            "total": runtime_text(build, core, "kws_small_cnn_int8"),
            "int8_only_total": runtime_text(build, core, "kws_small_cnn_int8_int8_only"),
            "float32_only_total": runtime_text(build, core, "kws_small_cnn_f32_float32_only"),
            # Issue 17's measure: an int8-only runtime with the vww plan's op set.
            "selected_total": runtime_text(build, core, "vww_mobilenetv1_025_96_int8_ops"),
            "selected_firmware": "vww_mobilenetv1_025_96_int8_ops",
            "kws_selected_total": runtime_text(build, core, "kws_small_cnn_int8_ops"),
            # The same without the verifier's messages (TGRS_WITH_MESSAGES 0).
            "selected_lean_total": runtime_text(build, core,
                                                "vww_mobilenetv1_025_96_int8_ops_lean"),
        }
    cases = []
    for core, _ in CORES:
        for path in sorted((build / "tests" / "cortex-m" / core / "runs").glob("*/result.json")):
            r = json.loads(path.read_text())
            cases.append({"name": r["case"], "core": core, **{
                k: r[k] for k in ("instructions", "stages", "tiles", "fast_arena_bytes",
                                  "slow_arena_bytes", "stack_used_bytes", "qemu_wall_seconds",
                                  "plan_bytes", "init_instructions",
                                  "init_unchecked_instructions", "integrity_instructions",
                                  "ops")
                if k in r}})
    return {"sizes": sizes, "cases": cases, "tflm_cmsis_nn": tflm_rows(build)}


# TensorFlow Lite Micro with ARM's CMSIS-NN kernels on the same QEMU board and method
# (mps2-an386, -icount shift=0, SysTick x 40, one inference; TFLM's default CMSIS-NN build,
# only each model's ops registered), and its release .text (-Os): issue 40's anchor.
TFLM_CMSIS_NN = {
    "mlperf_kws_dscnn_int8": {"instructions": 7_699_480, "text": 47_764, "macs": 2.66e6},
    "mlperf_vww_mbv1_025_int8": {"instructions": 24_102_320, "text": 47_764, "macs": 7.49e6},
    "mlperf_ic_resnet8_int8": {"instructions": 29_864_200, "text": 44_800, "macs": 12.50e6},
    "mlperf_ad_autoencoder_int8": {"instructions": 583_080, "text": 25_356, "macs": 0.26e6},
    "person_detect_int8": {"instructions": 22_928_800, "text": 43_012, "macs": None},
}
BUDGETS = (("arena", "TFLM's arena"), ("quarter", "1/4 of it"), ("onemem", "one SRAM"))


def load_runs(build, core="m4"):
    runs = {}
    for path in (build / "tests" / "cortex-m" / core / "runs").glob("*/result.json"):
        r = json.loads(path.read_text())
        runs[r["case"]] = r
    return runs


def tflm_rows(build):
    """Ours against TFLM + CMSIS-NN per model and budget, M4 (issue 40's "Done when")."""
    runs = load_runs(build)
    rows = []
    for model, peer in TFLM_CMSIS_NN.items():
        text = None
        if (build / "tests" / "cortex-m" / "m4" / f"{model}_arena_ops.map").exists():
            text = runtime_text(build, "m4", f"{model}_arena_ops")
        for suffix, _ in BUDGETS:
            r = runs.get(f"{model}_{suffix}")
            if r is None:
                continue
            rows.append({"model": model, "budget": suffix, "fast_arena_bytes":
                         r["fast_arena_bytes"], "slow_arena_bytes": r["slow_arena_bytes"],
                         "instructions": r["instructions"],
                         "tflm_cmsis_nn_instructions": peer["instructions"],
                         "ratio": round(r["instructions"] / peer["instructions"], 3),
                         "runtime_text": text, "tflm_text": peer["text"]})
    return rows


def tflm_table(build):
    rows = tflm_rows(build)
    if not rows:
        return
    print("\n## Against TFLite Micro + CMSIS-NN (Cortex-M4, instructions per inference)\n")
    print("| model | budget | fast arena | slow arena | ours | TFLM + CMSIS-NN | ratio | "
          "our .text (its ops) | TFLM .text |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        text = f"{r['runtime_text']:,}" if r["runtime_text"] and r["budget"] == "arena" else ""
        tflm_text = f"{r['tflm_text']:,}" if r["budget"] == "arena" else ""
        print(f"| {r['model']} | {r['budget']} | {r['fast_arena_bytes']:,} | "
              f"{r['slow_arena_bytes']:,} | {r['instructions'] / 1e6:.2f} M | "
              f"{r['tflm_cmsis_nn_instructions'] / 1e6:.2f} M | {r['ratio']:.2f}x | {text} | "
              f"{tflm_text} |")


def profile_table(build, case):
    """Instructions per op kind in one M4 run (harness op_profile.c), per MAC where the
    op's cost is MACs."""
    r = load_runs(build).get(case)
    if r is None or "ops" not in r:
        sys.exit(f"no per-op profile for {case}: run `ctest -L cortex-m -R {case}` first")
    kinds = defaultdict(lambda: {"ops": 0, "calls": 0, "instructions": 0, "macs": 0})
    for op in r["ops"]:
        k = kinds[op["code"]]
        k["ops"] += 1
        k["calls"] += op["calls"]
        k["instructions"] += op["instructions"]
        k["macs"] += op["macs"] or 0
    total = sum(k["instructions"] for k in kinds.values())
    print(f"\n## Per-op profile: {case} on the Cortex-M4 ({total / 1e6:.2f} M instructions "
          f"in the ops; the counted run {r['instructions'] / 1e6:.2f} M)\n")
    print("| op kind | ops | kernel calls | instructions | share | MACs | instructions/MAC |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for code, k in sorted(kinds.items(), key=lambda item: -item[1]["instructions"]):
        per_mac = f"{k['instructions'] / k['macs']:.2f}" if k["macs"] else ""
        macs = f"{k['macs']:,}" if k["macs"] else ""
        print(f"| {code} | {k['ops']} | {k['calls']:,} | {k['instructions']:,} | "
              f"{100 * k['instructions'] / total:.1f}% | {macs} | {per_mac} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", type=Path, default=Path("build"))
    parser.add_argument("--firmware", default="kws_small_cnn_int8")
    parser.add_argument("--detail", action="store_true", help="one row per runtime object file")
    parser.add_argument("--all-runs", action="store_true",
                        help="also list the single-dtype firmware's runs")
    parser.add_argument("--json", action="store_true",
                        help="print {sizes: {m4: {...}, m7: {...}}, cases: [...], "
                             "tflm_cmsis_nn: [...]} instead")
    parser.add_argument("--profile", metavar="CASE", action="append",
                        help="instructions per op kind of this M4 case (repeatable; default: "
                             "mlperf_vww_mbv1_025_int8_arena and vww_mobilenetv1_025_96_int8)")
    args = parser.parse_args()
    if args.json:
        print(json.dumps(report_json(args.build), indent=2))
        return
    size_table(args.build, args.firmware, args.detail)
    single_dtype_table(args.build)
    run_table(args.build, args.all_runs)
    integrity_table(args.build)
    tflm_table(args.build)
    for case in args.profile or ("mlperf_vww_mbv1_025_int8_arena",
                                 "vww_mobilenetv1_025_96_int8"):
        profile_table(args.build, case)


if __name__ == "__main__":
    main()
