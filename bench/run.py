"""Benchmarks for rules-kb: ingest, cold lookup, parse throughput.

Run from the repository root with the virtualenv active:

    python bench/run.py [--quick] [--editions PATH]

It prints markdown tables meant to be pasted into the README. It is a measurement,
not a test: nothing here fails when a target is missed; the table says so.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from common import percentile, table, verdict

REPO = Path(__file__).resolve().parent.parent
DEFAULT_EDITIONS = REPO.parent / "shared" / "cr" / "editions"
PYTHON = sys.executable
RULES_KB = str(Path(sys.executable).parent / "rules-kb")

LOOKUP_RULE = "702.19"
INGEST_TARGET_S = 60.0
INGEST_TARGET_MB = 40.0
LOOKUP_TARGET_RATIO = 8.0
HEAVY_MODULES = ("lark", "networkx", "whoosh", "sqlite_utils")

MB = 1024 * 1024


# helpers -------------------------------------------------------------------


def children_maxrss_mb() -> float:
    """Peak RSS of the largest child waited for so far (ru_maxrss: KiB on Linux)."""
    raw = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return raw / MB if sys.platform == "darwin" else raw / 1024


def child_env() -> dict[str, str]:
    """The environment for child processes, without settings that skew timings."""
    env = dict(os.environ)
    for name in ("RULES_KB_DB", "PYTHONDEVMODE", "PYTHONPROFILEIMPORTTIME", "PYTHONTRACEMALLOC"):
        env.pop(name, None)
    return env


def timed_run(argv: Sequence[str]) -> tuple[float, int]:
    """Wall time and exit code of one fresh process (output discarded)."""
    start = time.perf_counter()
    completed = subprocess.run(
        argv,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=child_env(),
        check=False,
    )
    return time.perf_counter() - start, completed.returncode


# 1. ingest -----------------------------------------------------------------


@dataclass
class IngestResult:
    seconds: float
    peak_mb: float
    db_mb: float
    wal_mb: float
    returncode: int
    files: int
    input_mb: float


def bench_ingest(editions: Path, db: Path) -> IngestResult:
    """Ingest every edition into a fresh database in one child process.

    Must run before any other child: RUSAGE_CHILDREN reports the largest child so far.
    """
    files = sorted(path for path in editions.iterdir() if path.suffix.lower() == ".txt")
    input_mb = sum(path.stat().st_size for path in files) / MB
    seconds, code = timed_run([RULES_KB, "ingest", str(editions), "--db", str(db), "--json"])
    peak = children_maxrss_mb()
    wal = db.with_name(db.name + "-wal")
    db_size = db.stat().st_size if db.exists() else 0
    wal_size = wal.stat().st_size if wal.exists() else 0
    return IngestResult(
        seconds, peak, (db_size + wal_size) / MB, wal_size / MB, code, len(files), input_mb
    )


def report_ingest(result: IngestResult) -> str:
    rows: list[list[object]] = [
        ["files", f"{result.files} ({result.input_mb:.1f} MB of text)", "", ""],
        [
            "wall time",
            f"{result.seconds:.1f} s",
            f"within {INGEST_TARGET_S:.0f} s",
            verdict(result.seconds <= INGEST_TARGET_S),
        ],
        ["peak memory (ru_maxrss)", f"{result.peak_mb:.1f} MB", "", ""],
        [
            "database on disk",
            f"{result.db_mb:.1f} MB (of which -wal {result.wal_mb:.1f} MB)",
            f"under {INGEST_TARGET_MB:.0f} MB",
            verdict(result.db_mb < INGEST_TARGET_MB),
        ],
        ["exit code", result.returncode, "0", verdict(result.returncode == 0)],
    ]
    return "### Ingest (all editions, fresh database)\n\n" + table(
        ["measure", "value", "target", "met"], rows
    )


# 2. cold lookup --------------------------------------------------------------


@dataclass
class LookupResult:
    baseline: list[float]
    lookup: list[float]
    failures: int

    @property
    def ratio(self) -> float:
        return statistics.median(self.lookup) / statistics.median(self.baseline)


def bench_lookup(db: Path, repeats: int) -> LookupResult:
    """`rules-kb rule` against a bare interpreter that imports sqlite3, interleaved."""
    baseline_argv = [PYTHON, "-c", "import sqlite3"]
    lookup_argv = [RULES_KB, "rule", LOOKUP_RULE, "--db", str(db)]
    timed_run(baseline_argv)  # warm the page cache; not counted
    timed_run(lookup_argv)
    baseline: list[float] = []
    lookup: list[float] = []
    failures = 0
    for _ in range(repeats):
        seconds, _code = timed_run(baseline_argv)
        baseline.append(seconds)
        seconds, code = timed_run(lookup_argv)
        lookup.append(seconds)
        failures += code != 0
    return LookupResult(baseline, lookup, failures)


def report_lookup(result: LookupResult) -> str:
    def ms(value: float) -> str:
        return f"{value * 1000:.0f} ms"

    rows: list[list[object]] = [
        [
            '`python -c "import sqlite3"`',
            len(result.baseline),
            ms(statistics.median(result.baseline)),
            ms(percentile(result.baseline, 0.95)),
        ],
        [
            f"`rules-kb rule {LOOKUP_RULE} --db …`",
            len(result.lookup),
            ms(statistics.median(result.lookup)),
            ms(percentile(result.lookup, 0.95)),
        ],
    ]
    text = "### Cold lookup (fresh process each run, interleaved)\n\n"
    text += table(["command", "runs", "median", "p95"], rows)
    text += "\n\n" + table(
        ["measure", "value", "target", "met"],
        [
            [
                "ratio of medians",
                f"{result.ratio:.1f}x",
                f"within {LOOKUP_TARGET_RATIO:.0f}x",
                verdict(result.ratio <= LOOKUP_TARGET_RATIO),
            ],
            ["failed lookups", result.failures, "0", verdict(result.failures == 0)],
        ],
    )
    return text


@dataclass
class ImportLine:
    self_us: int
    cumulative_us: int
    depth: int
    name: str


def import_times(db: Path) -> list[ImportLine]:
    """`-X importtime` for the lookup, run in-process through the console entry point."""
    code = (
        "import sys\n"
        "from rules_kb.cli import main\n"
        f"sys.argv = ['rules-kb', 'rule', {LOOKUP_RULE!r}, '--db', {str(db)!r}]\n"
        "main()\n"
    )
    completed = subprocess.run(
        [PYTHON, "-X", "importtime", "-c", code],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=child_env(),
        check=False,
    )
    lines: list[ImportLine] = []
    for raw in completed.stderr.splitlines():
        if not raw.startswith("import time:") or "self [us]" in raw:
            continue
        self_part, cumulative_part, name_part = raw[len("import time:") :].split("|", 2)
        stripped = name_part.lstrip(" ")
        depth = (len(name_part) - len(stripped) - 1) // 2
        lines.append(ImportLine(int(self_part), int(cumulative_part), depth, stripped.rstrip()))
    return lines


def report_imports(lines: list[ImportLine]) -> str:
    top = sorted(lines, key=lambda line: line.cumulative_us, reverse=True)[:10]
    rows: list[list[object]] = [
        [
            f"`{line.name}`",
            line.depth,
            f"{line.cumulative_us / 1000:.1f}",
            f"{line.self_us / 1000:.1f}",
        ]
        for line in top
    ]
    total_ms = sum(line.cumulative_us for line in lines if line.depth == 0) / 1000
    text = "### Imports of the cold lookup (`python -X importtime`)\n\n"
    text += (
        f"{len(lines)} modules imported, {total_ms:.0f} ms cumulative over top-level imports.\n\n"
    )
    text += table(["module", "depth", "cumulative ms", "self ms"], rows)

    names = {line.name for line in lines}
    heavy_rows: list[list[object]] = []
    for heavy in HEAVY_MODULES:
        imported = any(name == heavy or name.startswith(heavy + ".") for name in names)
        heavy_rows.append([f"`{heavy}`", "**yes**" if imported else "no", verdict(not imported)])
    text += "\n\n" + table(["heavy module", "imported", "ok (must not be)"], heavy_rows)

    families = (
        "typer",
        "rich",
        "pydantic",
        "pydantic_core",
        "annotated_types",
        "rules_kb",
        "sqlite3",
    )
    family_rows: list[list[object]] = []
    for family in families:
        roots = [
            line
            for line in lines
            if line.name == family
            or line.name.startswith(family + ".")
            or line.name == "_" + family
        ]
        if roots:
            family_rows.append(
                [
                    f"`{family}`",
                    len(roots),
                    f"{sum(line.self_us for line in roots) / 1000:.1f}",
                ]
            )
    text += "\n\n" + table(["package", "modules", "self ms (sum)"], family_rows)
    return text


# 3. parse throughput ---------------------------------------------------------


@dataclass
class ParseResult:
    files: int
    input_mb: float
    grammar_s: float
    decode_s: float
    parse_s: float
    failures: list[str]

    @property
    def total_s(self) -> float:
        return self.decode_s + self.parse_s


def bench_parse(editions: Path) -> ParseResult:
    """Decode and parse every edition in this process (grammar built once, timed apart)."""
    from rules_kb import parse
    from rules_kb.decode import decode

    start = time.perf_counter()
    parse.grammar()
    grammar_s = time.perf_counter() - start

    files = sorted(path for path in editions.iterdir() if path.suffix.lower() == ".txt")
    decode_s = parse_s = 0.0
    total_bytes = 0
    failures: list[str] = []
    for path in files:
        data = path.read_bytes()
        total_bytes += len(data)
        try:
            start = time.perf_counter()
            text = decode(data).text
            decode_s += time.perf_counter() - start
            start = time.perf_counter()
            parse.edition(text)
            parse_s += time.perf_counter() - start
        except Exception as error:  # a benchmark reports, it does not stop
            failures.append(f"{path.name}: {error}")
    return ParseResult(len(files), total_bytes / MB, grammar_s, decode_s, parse_s, failures)


def report_parse(result: ParseResult) -> str:
    def rate(seconds: float) -> str:
        return f"{result.input_mb / seconds:.1f} MB/s" if seconds else "-"

    rows: list[list[object]] = [
        ["grammar build (once)", f"{result.grammar_s:.2f} s", ""],
        ["decode", f"{result.decode_s:.1f} s", rate(result.decode_s)],
        ["parse", f"{result.parse_s:.1f} s", rate(result.parse_s)],
        ["decode + parse", f"{result.total_s:.1f} s", rate(result.total_s)],
    ]
    text = (
        f"### Parse throughput ({result.files} editions, {result.input_mb:.1f} MB, in-process)\n\n"
    )
    text += table(["stage", "seconds", "throughput"], rows)
    if result.failures:
        text += "\n\nFailures:\n" + "\n".join(f"- {failure}" for failure in result.failures)
    return text


# main ------------------------------------------------------------------------


def header() -> str:
    today = datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    return (
        f"## rules-kb benchmarks ({today})\n\n"
        f"Python {platform.python_version()} ({platform.python_implementation()}), "
        f"{os.cpu_count()} CPUs, {platform.system()} {platform.machine()}, "
        f"SQLite {__import__('sqlite3').sqlite_version}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="5 lookup runs instead of 15.")
    parser.add_argument(
        "--editions",
        type=Path,
        default=DEFAULT_EDITIONS,
        help=f"Folder of CR .txt editions (default: {DEFAULT_EDITIONS}).",
    )
    args = parser.parse_args(argv)
    editions: Path = args.editions
    if not editions.is_dir():
        print(f"bench: no such folder: {editions}", file=sys.stderr)
        return 2
    if not Path(RULES_KB).exists():
        print(f"bench: no rules-kb script at {RULES_KB}", file=sys.stderr)
        return 2
    repeats = 5 if args.quick else 15

    print(header(), flush=True)
    with tempfile.TemporaryDirectory(prefix="rules-kb-bench-") as tmp:
        db = Path(tmp) / "rules.db"
        ingest = bench_ingest(editions, db)  # first: see RUSAGE_CHILDREN
        print("\n" + report_ingest(ingest), flush=True)
        if not db.exists():
            print("\nbench: ingest produced no database; skipping lookups", file=sys.stderr)
        else:
            print("\n" + report_lookup(bench_lookup(db, repeats)), flush=True)
            print("\n" + report_imports(import_times(db)), flush=True)
    print("\n" + report_parse(bench_parse(editions)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
