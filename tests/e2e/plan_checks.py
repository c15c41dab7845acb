"""What the end-to-end tests check of a compiled plan as the runtime runs it: `tigris run`
with arenas of the plan's sizes, its statistics, and the memory promise."""
import functools
import json
import re

import numpy as np

from conftest import WORK_DIR, tigris

ALIGNMENT = 16  # docs/memory-model.md, "Alignment"

RUN_PATTERNS = {
    "fast_hwm": r"fast +high-water (\d+) of",
    "fast_arena": r"fast +high-water \d+ of (\d+) bytes",
    "slow_hwm": r"slow +high-water (\d+) of",
    "slow_arena": r"slow +high-water \d+ of (\d+) bytes",
}


@functools.lru_cache(maxsize=None)
def inspect(plan):
    """`tigris inspect --json`: the plan as the runtime's verifier reads it."""
    return json.loads(tigris("inspect", "--json", plan).stdout)


def run_plan(plan, x_path, tag):
    """Runs `plan` on the .npy input; returns the output and the run's statistics."""
    out = WORK_DIR / f"{plan.stem}.{tag}.out.npy"
    result = tigris("run", plan, "--input", x_path, "--output", out)
    stats = {k: int(re.search(p, result.stdout).group(1)) for k, p in RUN_PATTERNS.items()}
    stats["poison"] = re.search(r"poison +fast (\w+), slow (\w+)", result.stdout).groups()
    return np.load(out), stats


def check_memory_promise(plan, stats):
    """The run used arenas of exactly the plan's sizes, the fast high-water mark rounded up
    to the arena alignment is the plan's fast arena, and nothing beyond either high-water
    mark was touched."""
    header = inspect(plan)["plan"]
    fast = header["fast_arena_bytes"]
    assert stats["fast_arena"] == fast, "tigris run must default to the plan's arena"
    assert stats["slow_arena"] == header["slow_arena_bytes"]
    rounded = -(-stats["fast_hwm"] // ALIGNMENT) * ALIGNMENT
    assert rounded == fast, f"measured fast high-water {stats['fast_hwm']} vs plan {fast}"
    assert stats["slow_hwm"] <= header["slow_arena_bytes"]
    assert stats["poison"] == ("intact", "intact"), stats["poison"]
