"""Benchmarks for rules-kb: ingest against its peer and its floor, re-ingest, cold lookups,
sizes, and what 10x the editions would cost.

Run from the repository root with the virtualenv active:

    python bench/run.py [--quick] [--editions PATH] [--no-peer] [--rounds N]

Every ratio is against a baseline measured in the same run, in CPU time where the
machine may be busy. The peer is mightstone 0.12.0 (`ComprehensiveRules.parse`, parse
only, in memory), installed into a throwaway virtualenv under bench/out/ and given the
same texts our decoder produced; the run says so when it cannot install it. Our ingest
and the peer's parse run in turn, each in a fresh process, for N rounds (default 5), and
the verdict is the median of the per-round ratios; neither side's timer counts its
imports, which are reported apart. Prints markdown tables; nothing here fails when a
target is missed: the table says so.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import common  # noqa: E402
from common import compiled, percentile, table, verdict  # noqa: E402

from rules_kb.search.stamp import index_dir  # noqa: E402

EDITIONS = REPO.parent / "shared" / "cr" / "editions"
OUT = REPO / "bench" / "out"
PYTHON = sys.executable
RULES_KB = str(Path(sys.executable).parent / "rules-kb")
PEER = "mightstone==0.12.0"
MB = 1024 * 1024

INGEST_RATIO = 1.0
"""Full ingest CPU (decode, parse, store, references, lineage) against the peer's parse."""
INGEST_WALL_S = 40.0
"""The whole `rules-kb ingest`, search index included."""
REINGEST_RATIO = 1.5
"""A re-ingest of unchanged files against reading and hashing them."""
REINGEST_RUNS = 9
LOOKUP_RATIO = 5.0
"""A cold `rule 702.19` against a bare `python -c "import sqlite3"`."""
SIZE_MB = 45.0
"""Database plus search index for the 134 editions."""
HEAVY = ("lark", "networkx", "whoosh", "sqlite_utils", "scipy", "numpy", "httpx", "rich.markup")


def cpu() -> float:
    """CPU seconds of this process and its children so far."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def child_env() -> dict[str, str]:
    """The environment for child processes, without settings that skew timings."""
    env = dict(os.environ)
    for name in ("RULES_KB_DB", "PYTHONDEVMODE", "PYTHONPROFILEIMPORTTIME", "PYTHONTRACEMALLOC"):
        env.pop(name, None)
    return env


def child(argv: Sequence[str], **kwargs: object) -> tuple[float, float, int]:
    """(wall, CPU, exit code) of one fresh process, output discarded."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=child_env(), check=False
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, used, done.returncode


def stage(work: Callable[[], object]) -> tuple[float, object]:
    """CPU seconds of one in-process step, and what it returned."""
    start = time.process_time()
    found = work()
    return time.process_time() - start, found


# 1. ingest by stage, against the peer ---------------------------------------------------


def ingest_stages(files: list[Path], db: Path) -> dict[str, float]:
    """CPU of each stage of a full ingest, measured inside the real path (`ingest_files`,
    one file after another, as the command runs it, in one process): read, decode, parse,
    store (rows and texts), references, lineage; the search index build on its own."""
    start = time.process_time()
    import rules_kb
    from rules_kb.ingest import decode, lineage, parse, store

    _import_dependencies()
    imports = time.process_time() - start
    seconds = dict.fromkeys(("decode", "parse", "references", "lineage"), 0.0)

    def timed(name: str, work: Callable[..., object]) -> Callable[..., object]:
        def run(*args: object, **kwargs: object) -> object:
            start = time.process_time()
            try:
                return work(*args, **kwargs)
            finally:
                seconds[name] += time.process_time() - start

        return run

    originals = (decode.decode, parse.edition, store._insert_references, lineage.link)
    decode.decode = timed("decode", decode.decode)  # type: ignore[assignment]
    parse.edition = timed("parse", parse.edition)  # type: ignore[assignment]
    store._insert_references = timed("references", store._insert_references)  # type: ignore[assignment]
    lineage.link = timed("lineage", lineage.link)  # type: ignore[assignment]
    try:
        kb = rules_kb.open(db)
        start = time.process_time()
        kb.ingest_files(files, index=False, jobs=1)
        total = time.process_time() - start
    finally:
        decode.decode, parse.edition, store._insert_references, lineage.link = originals  # type: ignore[assignment]
    seconds["read, store and the rest"] = total - sum(seconds.values())
    seconds["search index"], _ = stage(kb.build_index)
    seconds["imports"] = imports
    return seconds


#: What an ingest imports on its way, beyond `rules_kb` itself.
DEPENDENCIES = (
    "rules_kb.ingest.pipeline", "rules_kb.ingest.refs", "rules_kb.ingest.align",
    "rules_kb.ingest.lineage", "lark", "numpy", "rapidfuzz.fuzz", "rapidfuzz.process",
    "scipy.sparse", "sqlite_utils",
)  # fmt: skip


def _import_dependencies() -> None:
    """Import what an ingest imports (and load scipy's assignment solver), so that the
    stages count the work and not the imports: the peer's parse-only figure leaves its own
    imports out too. Their CPU is reported on a line of its own."""
    import importlib

    for name in DEPENDENCIES:
        importlib.import_module(name)
    from rules_kb.ingest.assignment import linear_sum_assignment

    linear_sum_assignment()


def peer_python() -> tuple[Path | None, str]:
    """The peer's interpreter in its throwaway virtualenv (installed on first use), or None
    and why not."""
    venv = OUT / "peer-venv"
    python = venv / "bin" / "python"
    if not python.exists():
        try:
            subprocess.run([PYTHON, "-m", "venv", str(venv)], check=True, capture_output=True)
            subprocess.run(
                [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", PEER],
                check=True,
                capture_output=True,
                timeout=600,
            )
        except (subprocess.SubprocessError, OSError) as error:
            shutil.rmtree(venv, ignore_errors=True)
            return None, f"could not install {PEER} into a throwaway virtualenv ({error})"
    return python, f"{PEER}, parse only, in memory"


_PEER_SCRIPT = (
    "import io, sys, time, pathlib\n"
    "start = time.process_time()\n"
    "from mightstone.services.wotc.models import ComprehensiveRules\n"
    "imports = time.process_time() - start\n"
    "texts = [p.read_text('utf-8') for p in sorted(pathlib.Path(sys.argv[1]).glob('*.txt'))]\n"
    "start = time.process_time()\n"
    "for text in texts:\n"
    "    ComprehensiveRules.parse(io.StringIO(text))\n"
    "print(time.process_time() - start, imports)\n"
)


def peer_seconds(python: Path, folder: Path) -> tuple[float, float] | str:
    """The peer's parse-only CPU seconds over the decoded texts in `folder` and those of
    its imports, or why not."""
    done = subprocess.run(
        [str(python), "-c", _PEER_SCRIPT, str(folder)], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        return f"{PEER} failed: {done.stderr.strip().splitlines()[-1:]}"
    parse, imports = done.stdout.strip().splitlines()[-1].split()
    return float(parse), float(imports)


def our_stages(files: list[Path], db: Path) -> dict[str, float]:
    """`ingest_stages` in a fresh process (its caches empty, as a first ingest has them)."""
    for leftover in db.parent.glob(db.name + "*"):
        shutil.rmtree(leftover) if leftover.is_dir() else leftover.unlink()
    done = subprocess.run(
        [PYTHON, __file__, "--stages", str(db), *map(str, files)],
        capture_output=True, text=True, check=True, env=child_env(),
    )  # fmt: skip
    found: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def floor_seconds(files: list[Path]) -> float:
    """Read, decode as UTF-8 (with replacement) and one regex scan for rule numbers."""
    import re

    pattern = re.compile(r"^\d{3}\.\d+[a-z]*", re.M)
    start = time.process_time()
    for path in files:
        pattern.findall(path.read_bytes().decode("utf-8", "replace"))
    return time.process_time() - start


def report_ingest(files: list[Path], db: Path, use_peer: bool, rounds: int) -> str:
    """Our full ingest and the peer's parse, each in a fresh process, in turn for `rounds`
    rounds (the machine's speed drifts over minutes: the ratio is taken round by round, and
    the median of the ratios is the verdict); stages are the medians over the rounds."""
    from rules_kb.ingest import decode

    texts = [decode.decode(path.read_bytes()).text for path in files]  # type: ignore[attr-defined]
    python, how = peer_python() if use_peer else (None, "not measured (--no-peer)")
    folder = Path(tempfile.mkdtemp(prefix="peer-texts-", dir=OUT))
    for index, text in enumerate(texts):
        (folder / f"{index:03d}.txt").write_text(text, encoding="utf-8")
    stages: list[dict[str, float]] = []
    peers: list[float] = []
    peer_imports: list[float] = []
    try:
        for _ in range(rounds):
            stages.append(our_stages(files, db))
            if python is not None:
                peer = peer_seconds(python, folder)
                if isinstance(peer, str):
                    python, how = None, peer
                else:
                    peers.append(peer[0])
                    peer_imports.append(peer[1])
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    apart = {"search index", "imports"}
    totals = [sum(v for k, v in run.items() if k not in apart) for run in stages]
    seconds = {name: statistics.median(run[name] for run in stages) for name in stages[0]}
    ingest = statistics.median(totals)
    floor = floor_seconds(files)
    rows: list[list[object]] = [
        [name, f"{value:.2f} s", "", ""] for name, value in seconds.items() if name not in apart
    ]
    if python is not None and peers:
        ratios = [ours / theirs for ours, theirs in zip(totals, peers, strict=True)]
        ratio = statistics.median(ratios)
        spread = ", ".join(f"{value:.2f}x" for value in ratios)
        rows.append(
            [
                "**full ingest** (all of the above)",
                f"**{ingest:.2f} s**",
                f"{ratio:.2f}x the peer (rounds: {spread})",
                f"≤ {INGEST_RATIO:g}x: {verdict(ratio <= INGEST_RATIO)}",
            ]
        )
        rows.append([f"peer: {how}", f"{statistics.median(peers):.2f} s", "1.00x", ""])
    else:
        rows.append(["**full ingest** (all of the above)", f"**{ingest:.2f} s**", how, ""])
    rows.append(
        [
            "floor: read + UTF-8 decode + one regex scan",
            f"{floor:.2f} s",
            f"{ingest / floor:.0f}x",
            "",
        ]
    )
    rows.append(
        ["search index build (not part of the ratio)", f"{seconds['search index']:.2f} s", "", ""]
    )
    theirs = f"; the peer's: {statistics.median(peer_imports):.2f} s" if peer_imports else ""
    rows.append(
        [
            "imports, before either side's timer starts (not part of the ratio)",
            f"{seconds['imports']:.2f} s{theirs}",
            "",
            "",
        ]
    )
    return table(["stage (CPU)", "seconds", "ratio", "target"], rows)


def report_whole_ingest(editions: Path, db: Path) -> tuple[str, Path]:
    """The `rules-kb ingest` command as a user runs it, index included; then a second
    run over the same unchanged files against reading and hashing them."""
    wall, used, code = child([RULES_KB, "ingest", str(editions), "--db", str(db), "--json"])
    files = sorted(editions.glob("*.txt"))
    start = time.process_time()
    for path in files:
        hashlib.sha256(path.read_bytes()).hexdigest()
    hashing = time.process_time() - start
    again_argv = [RULES_KB, "ingest", str(editions), "--db", str(db), "--json"]
    floor_argv = [
        PYTHON, "-c", "import hashlib, pathlib, sys\n"
        "for p in sorted(pathlib.Path(sys.argv[1]).glob('*.txt')):\n"
        "    hashlib.sha256(p.read_bytes()).hexdigest()", str(editions),
    ]  # fmt: skip
    # Paired, interleaved runs; the medians (one run is a few tenths of a second).
    agains, floors = [], []
    for _ in range(REINGEST_RUNS):
        agains.append(child(again_argv))
        floors.append(child(floor_argv))
    again_wall = statistics.median(run[0] for run in agains)
    again_cpu = statistics.median(run[1] for run in agains)
    again_code = max(run[2] for run in agains)
    floor_wall = statistics.median(run[0] for run in floors)
    floor_cpu = statistics.median(run[1] for run in floors)
    one_wall, one_cpu, _ = child([RULES_KB, "ingest", str(files[-1]), "--db", str(db), "--json"])
    _, floor_one_cpu, _ = child(
        [PYTHON, "-c", "import hashlib, pathlib, sys\n"
         "hashlib.sha256(pathlib.Path(sys.argv[1]).read_bytes()).hexdigest()", str(files[-1])]
    )  # fmt: skip
    per_file = (again_cpu - one_cpu) / max(1, len(files) - 1) * 1000
    floor_per_file = (floor_cpu - floor_one_cpu) / max(1, len(files) - 1) * 1000
    ingested = wall <= INGEST_WALL_S and code == 0
    unchanged = again_cpu <= REINGEST_RATIO * floor_cpu and again_code == 0
    rows = [
        ["`rules-kb ingest` of every edition, index included",
         f"{wall:.1f} s wall, {used:.1f} s CPU", f"≤ {INGEST_WALL_S:g} s", verdict(ingested)],
        [f"the same again (every file unchanged; median of {REINGEST_RUNS})",
         f"{again_wall:.2f} s wall, {again_cpu:.2f} s CPU",
         f"≤ {REINGEST_RATIO:g}x the floor", verdict(unchanged)],
        ["floor: a process reading and hashing the files (median, paired)",
         f"{floor_wall:.2f} s wall, {floor_cpu:.2f} s CPU",
         f"ratio {again_cpu / floor_cpu:.2f}x", ""],
        ["(reading and hashing in this process)", f"{hashing:.2f} s CPU", "", ""],
        ["start-up: the same for one unchanged file",
         f"{one_wall:.2f} s wall, {one_cpu:.2f} s CPU",
         f"floor {floor_one_cpu:.2f} s CPU", ""],
        ["each further file, start-up aside", f"{per_file:.2f} ms CPU",
         f"floor {floor_per_file:.2f} ms", f"{per_file / max(floor_per_file, 1e-9):.2f}x"],
    ]  # fmt: skip
    return table(["run", "time", "target", "met"], rows), db


# 2. cold lookups ------------------------------------------------------------------------


WHOOSH_FLOOR = "floor: Whoosh alone opens the index and runs `trample`"
WHOOSH_ONLY = """import sys
from whoosh import index, qparser
from rules_kb.search.index import field_types
field_types()  # the schema's field types, which its pickle names
ix = index.open_dir(sys.argv[1])
with ix.searcher() as searcher:
    query = qparser.MultifieldParser(["number", "term", "text"], ix.schema).parse("trample")
    searcher.search(query, limit=10)
"""
"""What a cold search on Whoosh costs at the least: its imports, opening the index (the
schema's field types are rules-kb's: `rules_kb.search.index` makes them),
parsing and running the query, printing nothing."""


def report_lookups(db: Path, repeats: int) -> str:
    """Cold processes, interleaved: bare Python with sqlite3, `rule`, `define`, `search`."""
    commands = {
        'python -c "import sqlite3"': [PYTHON, "-c", "import sqlite3"],
        "rules-kb rule 702.19": [RULES_KB, "rule", "702.19", "--db", str(db)],
        "rules-kb rule 702.19 --json": [RULES_KB, "rule", "702.19", "--db", str(db), "--json"],
        "rules-kb define trample": [RULES_KB, "define", "trample", "--db", str(db)],
        "rules-kb search trample": [RULES_KB, "search", "trample", "--db", str(db)],
        WHOOSH_FLOOR: [PYTHON, "-c", WHOOSH_ONLY, str(index_dir(db))],
    }
    child(commands["rules-kb search trample"])  # the index is built before timing
    if child(commands[WHOOSH_FLOOR])[2] != 0:
        raise SystemExit("the Whoosh floor process failed: " + " ".join(commands[WHOOSH_FLOOR]))
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(repeats):
        for name, argv in commands.items():
            times[name].append(child(argv)[1])
    base = statistics.median(times['python -c "import sqlite3"'])
    rule = statistics.median(times["rules-kb rule 702.19"])
    rows = []
    for name, found in times.items():
        median = statistics.median(found)
        target = ""
        if name == "rules-kb rule 702.19":
            target = f"≤ {LOOKUP_RATIO:g}x: {verdict(median <= LOOKUP_RATIO * base)}"
        if name == "rules-kb search trample":
            target = f"≤ 1.3x rule: {verdict(median <= 1.3 * rule)} ({median / rule:.2f}x)"
        if name == WHOOSH_FLOOR:
            target = f"{median / rule:.2f}x rule, rules-kb aside"
        p95 = percentile(found, 0.95)
        rows.append(
            [name if name == WHOOSH_FLOOR else f"`{name}`", len(found),
             f"{median * 1000:.0f} ms", f"{p95 * 1000:.0f} ms",
             f"{median / base:.1f}x", target]
        )  # fmt: skip
    return table(["process (CPU)", "runs", "median", "p95", "ratio to bare Python", "target"], rows)


def report_imports(db: Path) -> str:
    """The modules a cold lookup loads, and the heavy ones it must not."""
    done = subprocess.run(
        [PYTHON, "-X", "importtime", "-m", "rules_kb", "rule", "702.19", "--db", str(db)],
        capture_output=True, text=True, env=child_env(), check=True,
    )  # fmt: skip
    modules = [
        line.split("|")[-1].strip()
        for line in done.stderr.splitlines()
        if line.startswith("import time:") and "|" in line and "cumulative" not in line
    ]
    loaded = set(modules)
    rows = [
        [f"`{name}`", "yes" if name in loaded else "no", verdict(name not in loaded)]
        for name in HEAVY
    ]
    packages: dict[str, int] = {}
    for name in modules:
        top = name.split(".")[0]
        packages[top] = packages.get(top, 0) + 1
    counted = ", ".join(
        f"{name} {count}" for name, count in sorted(packages.items(), key=lambda x: -x[1])[:8]
    )
    return f"{len(modules)} modules; most by package: {counted}\n\n" + table(
        ["heavy module", "loaded", "ok (must not be)"], rows
    )


# 3. sizes and scale ---------------------------------------------------------------------


def report_sizes(db: Path) -> str:
    index = index_dir(db)
    db_mb = sum(p.stat().st_size for p in db.parent.glob(db.name + "*") if p.is_file()) / MB
    index_mb = sum(p.stat().st_size for p in index.rglob("*") if p.is_file()) / MB
    conn = sqlite3.connect(db)
    try:
        parts = conn.execute(
            "SELECT name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC LIMIT 6"
        ).fetchall()
    except sqlite3.OperationalError:
        parts = []
    finally:
        conn.close()
    biggest = ", ".join(f"{name} {size / MB:.1f}" for name, size in parts)
    rows = [
        ["database", f"{db_mb:.1f} MB", biggest],
        ["search index", f"{index_mb:.1f} MB", ""],
        [
            "**together**",
            f"**{db_mb + index_mb:.1f} MB**",
            f"≤ {SIZE_MB:g} MB: {verdict(db_mb + index_mb <= SIZE_MB)}",
        ],
    ]
    return table(["what", "size", "largest parts (MB)"], rows)


def report_scale(files: list[Path]) -> str:
    """The cost model from subsets of 1/4, 1/2 and all editions: ingest CPU, database size
    and search latency per edition, extrapolated to 10x (1,340 files, e.g. translations)."""
    import rules_kb

    rows = []
    points = []
    for share in (4, 2, 1):
        subset = files[::share]
        folder = Path(tempfile.mkdtemp(prefix="scale-", dir=OUT))
        db = folder / "rules.db"
        start = cpu()
        kb = rules_kb.open(db)
        kb.ingest_files(subset, index=False)
        ingest = cpu() - start
        start = cpu()
        kb.build_index()
        index = cpu() - start
        size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / MB
        megabytes = sum(p.stat().st_size for p in subset) / MB
        queries = ("trample", '"last known information"', "deathtuch", "damage prevention")
        latency = statistics.median(_timed(kb.search, query) for query in queries)
        points.append((len(subset), megabytes, ingest, index, size, latency))
        rows.append(
            [
                len(subset),
                f"{megabytes:.0f} MB",
                f"{ingest:.1f} s",
                f"{index:.1f} s",
                f"{size:.1f} MB",
                f"{latency * 1000:.1f} ms",
            ]
        )
        shutil.rmtree(folder, ignore_errors=True)
    (n1, mb1, i1, x1, s1, _l1), (n3, mb3, i3, x3, s3, l3) = points[0], points[-1]
    per_edition = (i3 - i1) / (n3 - n1)
    per_mb = (i3 - i1) / (mb3 - mb1)
    size_per = (s3 - s1) / (n3 - n1)
    index_per = (x3 - x1) / (n3 - n1)
    ten = 10 * n3
    more = ten - n3
    rows.append(
        [f"**{ten} (10x, extrapolated)**", f"{10 * mb3:.0f} MB",
         f"{i3 + per_edition * more:.0f} s", f"{x3 + index_per * more:.0f} s",
         f"{s3 + size_per * more:.0f} MB", f"~{l3 * 1000 * 1.5:.0f} ms"]
    )  # fmt: skip
    note = (
        f"Marginal costs: {per_edition * 1000:.0f} ms of ingest CPU per edition"
        f" ({per_mb:.2f} s per MB of input), {index_per * 1000:.0f} ms of index build and"
        f" {size_per:.2f} MB of disk per edition."
    )
    return (
        table(["editions", "input", "ingest CPU", "index CPU", "db + index", "search median"], rows)
        + "\n\n"
        + note
    )


def _timed(work: Callable[[str], object], query: str) -> float:
    work(query)  # the first search of a process opens the index
    start = time.perf_counter()
    work(query)
    return time.perf_counter() - start


def header() -> str:
    return (
        f"Python {platform.python_version()} ({platform.python_implementation()}),"
        f" {os.cpu_count()} CPUs, {platform.system()} {platform.machine()},"
        f" SQLite {sqlite3.sqlite_version}, load average {os.getloadavg()[0]:.1f} at the start"
    )


def _positive(value: str) -> int:
    """A count of one or more, for argparse (which says what is wrong in one line)."""
    try:
        number = int(value)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"{value!r} is not a count of one or more")
    return number


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--editions", type=Path, default=EDITIONS)
    parser.add_argument("--quick", action="store_true", help="fewer repeats, no scale table")
    parser.add_argument("--no-peer", action="store_true", help="do not install mightstone")
    parser.add_argument(
        "--rounds", type=_positive, default=5, help="paired rounds against the peer"
    )
    parser.add_argument("--stages", nargs="+", help=argparse.SUPPRESS)  # the child's work
    options = parser.parse_args(argv)
    if options.stages:
        db, *paths = options.stages
        print(json.dumps(ingest_stages([Path(path) for path in paths], Path(db))))
        return 0
    OUT.mkdir(parents=True, exist_ok=True)
    files = sorted(options.editions.glob("*.txt"))
    work = Path(tempfile.mkdtemp(prefix="bench-", dir=OUT))
    compiled()
    print(header() + "\n")
    rounds = 1 if options.quick else options.rounds
    print(
        f"#### Full ingest of {len(files)} editions, CPU by stage, against the peer"
        f" ({rounds} paired rounds, each in fresh processes)\n"
    )
    print(report_ingest(files, work / "stages.db", not options.no_peer, rounds))
    print("\n#### The ingest command, and a re-ingest of unchanged files\n")
    whole, db = report_whole_ingest(options.editions, work / "rules.db")
    print(whole)
    print("\n#### Cold processes (CPU, interleaved)\n")
    print(report_lookups(db, 5 if options.quick else 15))
    print("\n#### What a cold lookup imports\n")
    print(report_imports(db))
    print("\n#### Database and index on disk\n")
    print(report_sizes(db))
    if not options.quick:
        print("\n#### Scale on paper: subsets, and 10x the editions\n")
        print(report_scale(files))
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(common.run(main, "run.py"))
