"""What every benchmark script shares: markdown tables, verdicts, percentiles, timing."""

from __future__ import annotations

import io
import math
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

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


# docs/benchmarks.md ------------------------------------------------------------------

DOCS = REPO / "docs" / "benchmarks.md"


class _Tee:
    """Standard output, kept as it is written."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.kept = io.StringIO()

    def write(self, text: str) -> int:
        self.kept.write(text)
        return self.stream.write(text)

    def flush(self) -> None:
        self.stream.flush()


def run(main: Callable[[], int | None], script: str) -> int:
    """Run a benchmark's `main`; with `--docs` on the command line, what it printed
    replaces its tables in docs/benchmarks.md (between `<!-- bench/SCRIPT start -->` and
    `<!-- bench/SCRIPT end -->`) when it succeeds. Returns the exit code."""
    docs = "--docs" in sys.argv
    if docs:
        sys.argv.remove("--docs")
    tee = _Tee(sys.stdout)
    sys.stdout = tee  # type: ignore[assignment]
    try:
        code = main() or 0
    finally:
        sys.stdout = tee.stream
    if docs and code == 0:
        publish(script, tee.kept.getvalue())
        print(f"wrote its tables to {DOCS.relative_to(REPO)}", file=sys.stderr)
    return code


def publish(script: str, text: str) -> None:
    """Put `text` between a script's markers in docs/benchmarks.md (at the end, under a
    heading, when the page has no such markers yet); the file is replaced whole."""
    start, end = f"<!-- bench/{script} start -->", f"<!-- bench/{script} end -->"
    page = DOCS.read_text("utf-8") if DOCS.exists() else "# Benchmarks\n"
    block = f"{start}\n{text.strip()}\n{end}"
    if start in page and end in page:
        before, rest = page.split(start, 1)
        page = before + block + rest.split(end, 1)[1]
    else:
        page = page.rstrip() + f"\n\n## `python bench/{script}`\n\n{block}\n"
    temporary = DOCS.with_suffix(".md.tmp")
    temporary.write_text(page, "utf-8")
    temporary.replace(DOCS)
