"""Shared setup of the end-to-end suite: paths (from the environment ctest sets, see
CMakeLists.txt here), the `tigris` command, and the per-model worst-case table printed at
the end of the session and written to <build>/e2e-equivalence-summary.txt."""
import os
import pathlib
import subprocess

import pytest

BUILD_DIR = pathlib.Path(os.environ.get("TIGRIS_BUILD_DIR", "build")).resolve()
MODELS_DIR = pathlib.Path(os.environ.get("TIGRIS_MODELS_DIR", "../shared/models")).resolve()
SOURCE_DIR = pathlib.Path(__file__).resolve().parents[2]  # the repository (tests/e2e/..)
TIGRIS = os.environ.get("TIGRIS_CLI", str(BUILD_DIR / "bin" / "tigris"))
WORK_DIR = BUILD_DIR / "e2e-work"
# One table per ctest entry (tests/e2e/CMakeLists.txt names each its own).
SUMMARY_PATH = BUILD_DIR / os.environ.get("TIGRIS_E2E_SUMMARY", "e2e-equivalence-summary.txt")

# model/variant -> worst-case numbers, filled by the tests.
RESULTS = {}


def tigris(*args, check=True):
    """Runs `tigris ARGS...` and returns the CompletedProcess (text mode)."""
    result = subprocess.run([TIGRIS, *map(str, args)], capture_output=True, text=True)
    if check and result.returncode != 0:
        raise AssertionError(
            f"tigris {' '.join(map(str, args))} exited {result.returncode}:\n"
            f"{result.stdout}{result.stderr}")
    return result


def record(key, **numbers):
    """Keeps the worst value of each number for `key` ("model float" / "model int8")."""
    entry = RESULTS.setdefault(key, {"budgets": []})
    for name, value in numbers.items():
        if name == "budget":
            entry["budgets"].append(value)
        elif name in ("max_rel_err", "max_lsb"):
            entry[name] = max(entry.get(name, 0), value)
        elif name in ("within_1_lsb", "top1_agree"):
            entry[name] = min(entry.get(name, value), value)
        else:
            entry[name] = value


def summary_lines():
    lines = [
        f"{'model':<34} {'budgets run':<34} {'max rel err':>11} {'<=1 LSB':>8} "
        f"{'max LSB':>7} {'top-1':>6}",
    ]
    for key in sorted(RESULTS):
        e = RESULTS[key]
        rel = f"{e['max_rel_err']:.2e}" if "max_rel_err" in e else "-"
        lsb = f"{100 * e['within_1_lsb']:.2f}%" if "within_1_lsb" in e else "-"
        max_lsb = str(e["max_lsb"]) if "max_lsb" in e else "-"
        top1 = {True: "same", False: "DIFF"}.get(e.get("top1_agree"), "-")
        budgets = ",".join(e["budgets"])
        lines.append(f"{key:<34} {budgets:<34} {rel:>11} {lsb:>8} {max_lsb:>7} {top1:>6}")
    return lines


def pytest_terminal_summary(terminalreporter):
    if not RESULTS:
        return
    lines = summary_lines()
    terminalreporter.write_sep("=", "worst case per model (vs onnxruntime)")
    for line in lines:
        terminalreporter.write_line(line)
    SUMMARY_PATH.write_text("\n".join(lines) + "\n")
    terminalreporter.write_line(f"(written to {SUMMARY_PATH})")


@pytest.fixture(scope="session", autouse=True)
def work_dir():
    if not pathlib.Path(TIGRIS).exists():
        pytest.exit(f"the tigris command is not built: {TIGRIS}", returncode=1)
    WORK_DIR.mkdir(parents=True, exist_ok=True)
    return WORK_DIR
