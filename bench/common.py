"""What every benchmark script shares: markdown tables, verdicts, percentiles, timing."""

from __future__ import annotations

import math
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def compiled() -> None:
    """Byte-compile rules_kb first, as an installed wheel is: a process that compiles a
    changed module on every start (PYTHONDONTWRITEBYTECODE) measures the compiler."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO / "rules_kb")], check=False)


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A GitHub markdown table."""
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def verdict(ok: bool) -> str:
    """A target met ("yes") or missed (bold "no")."""
    return "yes" if ok else "**no**"


def percentile(values: Sequence[float], fraction: float) -> float:
    """Nearest-rank percentile (with 15 samples, p95 is the slowest run)."""
    ordered = sorted(values)
    return ordered[max(1, math.ceil(fraction * len(ordered))) - 1]


def timings(runs: int, work: Callable[[], object]) -> list[float]:
    """Wall times, in seconds, of `runs` calls of `work`."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return times


def median_time(runs: int, work: Callable[[], object]) -> float:
    """Median wall time of `runs` calls."""
    return statistics.median(timings(runs, work))


def fastest_time(runs: int, work: Callable[[], object]) -> float:
    """The fastest of `runs` wall times."""
    return min(timings(runs, work))
