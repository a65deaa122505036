"""How many cores work may use: those this process may run on, and of them the ones
that are idle now (for `ingest --jobs` and for a large batch of word diffs)."""

from __future__ import annotations

import os
from pathlib import Path


def usable() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def free_cores(sample: float = 0.1) -> int:
    """The cores this process may run on that are idle now: measured over `sample`
    seconds from /proc/stat where there is one, else from the load average (which trails
    by a minute, so work just finished, or this process's own, still counts as busy)."""
    cores = usable()
    idle = _idle_share(sample)
    if idle is not None:
        return max(1, min(cores, round(idle * (os.cpu_count() or cores))))
    try:
        busy = round(os.getloadavg()[0])
    except OSError:  # pragma: no cover
        busy = 0
    return max(1, cores - busy)


def _idle_share(sample: float) -> float | None:
    """The share of the machine's CPU time that was idle over the next `sample` seconds,
    or None where /proc/stat cannot tell."""
    import time

    def times() -> tuple[int, int]:
        first = Path("/proc/stat").read_text(encoding="ascii").split("\n", 1)[0]
        fields = [int(value) for value in first.split()[1:]]
        return fields[3] + fields[4], sum(fields)  # idle + iowait, all

    try:
        idle, total = times()
        time.sleep(sample)
        idle_after, total_after = times()
    except (OSError, ValueError, IndexError):
        return None
    spent = total_after - total
    return (idle_after - idle) / spent if spent > 0 else None
