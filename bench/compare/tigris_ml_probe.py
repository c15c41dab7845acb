"""Runs inside the tigris-ml venv: plans each (model, budget) with the published Python
TiGrIS and prints one JSON object per line. Driven by compare_tigris_ml.py.

Usage: python tigris_ml_probe.py BUDGET_BYTES REPEAT MODEL.onnx [MODEL.onnx ...]
       python tigris_ml_probe.py --smallest MODEL.onnx [MODEL.onnx ...]
         (per model, the smallest fast budget whose plan validate_memory_plan finds
          feasible, bisected to 3%, slow memory unlimited)

The timed part is what `tigris analyze` needs for its verdict: load, lifetimes, memory
timeline, temporal and spatial partitioning, chains (tigris.cli._run_pipeline) and the
memory validation that yields the scheduled peak. Not timed: the findings (plan-size
estimates, budget sweep) and the slow-memory traffic, which tigris-ml measures by
running the compiled plan on its bundled host runtime.
"""

import json
import sys
import time


def probe(model: str, budget: int, repeat: int) -> dict:
    from tigris.analysis.findings import compute_findings
    from tigris.analysis.validation import validate_memory_plan
    from tigris.cli import _run_pipeline
    from tigris.cli.analyze import runs_tiled
    from tigris.cli.trace import traffic

    seconds = float("inf")
    for _ in range(repeat):  # best of `repeat`
        start = time.perf_counter()
        ag, _ = _run_pipeline(model, (str(budget),), report_bindings=False)
        validation = validate_memory_plan(ag)
        seconds = min(seconds, time.perf_counter() - start)

    findings = compute_findings(ag)
    moved = traffic(ag)
    chains = sum(1 for s in ag.stages if s.chain_id != 0xFFFF and s.chain_id == s.stage_id)
    return {
        "model": model,
        "budget": budget,
        "fits": validation.feasible,
        "verdict": findings.verdict,
        "scheduled_peak_bytes": validation.scheduled_peak_bytes,
        "naive_peak_bytes": ag.peak_memory_bytes,
        "stages": len(ag.stages),
        "tiled_stages": sum(1 for s in ag.stages if runs_tiled(s)),
        "chains": chains,
        "slow_peak_bytes": findings.slow_peak_bytes,
        # Measured by running the plan: bytes written to plus read from slow memory.
        "slow_traffic_bytes": moved["written"] + moved["read"] if isinstance(moved, dict)
        else None,
        "slow_traffic_note": None if isinstance(moved, dict) else moved,
        "seconds": seconds,
    }


def feasible(model: str, budget: int) -> bool:
    from tigris.analysis.validation import validate_memory_plan
    from tigris.cli import _run_pipeline

    ag, _ = _run_pipeline(model, (str(budget),), report_bindings=False)
    return bool(validate_memory_plan(ag).feasible)


def smallest(model: str, lo: int = 256, hi: int = 64 << 20) -> int | None:
    """Bisects the smallest feasible fast budget to 3% (or 64 bytes)."""
    if not feasible(model, hi):
        return None
    while hi - lo > max(64, lo * 3 // 100):
        mid = (lo + hi) // 2
        if feasible(model, mid):
            hi = mid
        else:
            lo = mid
    return hi


def main() -> None:
    if sys.argv[1] == "--smallest":
        for model in sys.argv[2:]:
            try:
                row = {"model": model, "smallest": smallest(model)}
            except Exception as exc:  # report and go on
                row = {"model": model, "error": f"{type(exc).__name__}: {exc}"}
            print(json.dumps(row), flush=True)
        return
    budget, repeat = int(sys.argv[1]), int(sys.argv[2])
    for model in sys.argv[3:]:
        try:
            row = probe(model, budget, repeat)
        except Exception as exc:  # report and go on: one model must not stop the table
            row = {"model": model, "budget": budget, "error": f"{type(exc).__name__}: {exc}"}
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
