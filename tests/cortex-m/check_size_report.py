#!/usr/bin/env python3
"""bench/cortex_m_report.py --json on this build: every size is there, and they order as the
builds promise (docs/runtime.md): the runtime with just vww int8's ops is smaller than the
int8-only runtime, which is smaller than the one with every op and both dtypes; without
the verifier's messages it is smaller still.

usage: check_size_report.py PYTHON REPORT BUILD"""
import json
import subprocess
import sys

python, report, build = sys.argv[1:4]
out = subprocess.run([python, report, "--build", build, "--json"], check=True,
                     capture_output=True, text=True).stdout
doc = json.loads(out)
for core in ("m4", "m7"):
    s = doc["sizes"][core]
    for key in ("total", "int8_only_total", "float32_only_total", "selected_total",
                "selected_lean_total"):
        assert isinstance(s[key], int) and s[key] > 0, (core, key, s)
    assert s["selected_lean_total"] < s["selected_total"] < s["int8_only_total"] < s["total"], (
        core, s)
    assert s["float32_only_total"] < s["total"], (core, s)
assert isinstance(doc["cases"], list)
for case in doc["cases"]:
    assert case["core"] in ("m4", "m7") and case["name"], case
print("sizes", {core: doc["sizes"][core]["selected_total"] for core in ("m4", "m7")},
      "cases", len(doc["cases"]))
