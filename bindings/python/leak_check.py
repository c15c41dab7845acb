"""Valgrind leak check of the Python binding (a ctest test, bindings/python/CMakeLists.txt).

CPython itself reports "definitely lost" blocks of its own under valgrind, so this runs
valgrind with XML output and fails only on definite leaks with a stack frame inside
libtigris (the library's objects: the handles the binding must free).

usage: leak_check.py VALGRIND PYTHON MODEL [--expect-leak]
  --expect-leak  runs the loop's negative control and fails unless a leak IS reported,
                 proving the checker can see a forgotten handle.
"""

import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

valgrind, python, model = sys.argv[1:4]
expect_leak = "--expect-leak" in sys.argv[4:]
loop = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tests", "leak_loop.py")

with tempfile.TemporaryDirectory() as tmp:
    xml_path = os.path.join(tmp, "valgrind.xml")
    env = dict(os.environ, PYTHONMALLOC="malloc")
    cmd = [valgrind, "--leak-check=full", "--errors-for-leak-kinds=definite",
           "--num-callers=50", "--xml=yes", f"--xml-file={xml_path}",
           python, loop, model] + (["--leak"] if expect_leak else [])
    run = subprocess.run(cmd, env=env)
    if run.returncode != 0:
        sys.exit(f"leak_check: the loop itself failed (exit {run.returncode})")
    root = ET.parse(xml_path).getroot()

leaks = []
for error in root.iter("error"):
    if error.findtext("kind") != "Leak_DefinitelyLost":
        continue
    objs = [frame.findtext("obj") or "" for frame in error.iter("frame")]
    if any("libtigris" in obj for obj in objs):
        leaks.append(error.findtext("xwhat/text") or error.findtext("what") or "leak")

for leak in leaks:
    print("definite leak in libtigris:", leak)
if expect_leak:
    print(f"negative control: {len(leaks)} libtigris leak(s) reported (at least 1 expected)")
    sys.exit(0 if leaks else 1)
print(f"{len(leaks)} definite libtigris leak(s)")
sys.exit(1 if leaks else 0)
