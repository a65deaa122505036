"""Benchmark of full-text search: the Whoosh index against SQLite FTS5 over the same texts.

Run from the repository root with the virtualenv active:

    python bench/search.py [--editions PATH] [--runs N] [--cold-runs N] [--no-update]

In one run it ingests every edition into a temporary database, then measures side by
side with SQLite FTS5 (porter stemmer, bm25, snippet) over exactly the same distinct
documents as the baseline:

- the index build for all editions, each engine in its own process, in turn: CPU time
  (the ratio), wall time, peak memory (ru_maxrss), and the size on disk of the database
  and of each index;
- warm query latency (p50, p95, max) over 200 queries drawn from the rule texts with a
  fixed seed: 50 single words, 50 "quoted phrases" of 2-4 words, 50 single words with a
  typo, 50 twelve-word sentences copied from rules, each in a random edition; the first
  run of every query and the repeated runs are reported apart (the engine keeps what it
  decoded for the life of the process, as an MCP server does);
- relevance on the labelled set in tests/fixtures/relevance.toml (expected rule in the
  top 3, and first);
- a cold `rules-kb search trample` process against a cold `rules-kb rule 702.19`;
- hostile queries (fuzzy~9, 100,000 characters, wildcards, nesting): the slowest;
- (unless --no-update) the incremental update after ingesting the newest edition into a
  database of all the others, against a full rebuild.

It prints markdown tables. Nothing here fails when a target is missed; the table says so.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import random
import re
import resource
import shutil
import sqlite3
import statistics
import string
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import common  # noqa: E402
from common import compiled, percentile, table, verdict  # noqa: E402

from rules_kb.errors import BadSearchQuery  # noqa: E402
from rules_kb.search import engine as core  # noqa: E402

DEFAULT_EDITIONS = REPO.parent / "shared" / "cr" / "editions"
RELEVANCE = REPO / "tests" / "fixtures" / "relevance.toml"
RULES_KB = str(Path(sys.executable).parent / "rules-kb")
SEED = 20261201
#: Targets of the performance issue, as ratios to the FTS5 baseline measured in the run.
WARM_P50_RATIO, WARM_P95_RATIO = 3.0, 4.0
BUILD_RATIO = 3.0
COLD_RATIO = 1.3
SIZE_TARGET_MB = 45.0
HOSTILE_TARGET_S = 1.0
COLD_QUERY = "trample"


def folder_mb(path: Path) -> float:
    files = [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file()]
    return sum(p.stat().st_size for p in files) / 1024 / 1024


def child_env() -> dict[str, str]:
    """The environment of child processes: never the user's database; bytecode may be
    cached (as an installed package has it), or every cold process compiles rules_kb."""
    env = dict(os.environ)
    unwanted = (
        "RULES_KB_DB",
        "PYTHONPROFILEIMPORTTIME",
        "PYTHONDEVMODE",
        "PYTHONDONTWRITEBYTECODE",
    )
    for name in unwanted:
        env.pop(name, None)
    return env


def timed(action: Callable[..., object], *args: object) -> float:
    start = time.perf_counter()
    action(*args)
    return time.perf_counter() - start


# the FTS5 baseline --------------------------------------------------------------------


def build_fts(conn: sqlite3.Connection, path: Path) -> int:
    """An FTS5 table over the same distinct documents the Whoosh index holds."""
    path.unlink(missing_ok=True)
    fts = sqlite3.connect(path)
    fts.execute(
        "CREATE VIRTUAL TABLE docs USING fts5(kind UNINDEXED, label, text, editions,"
        " tokenize = 'porter unicode61')"
    )
    sources = core.document_sources(conn)
    rows = (
        (doc.kind, doc.label, doc.text, " ".join(doc.editions))
        for doc in core.documents(conn, sources)
    )
    with fts:
        fts.executemany("INSERT INTO docs VALUES (?, ?, ?, ?)", rows)
    fts.close()
    return len(sources)


FTS_SQL = (
    "SELECT kind, label, text, snippet(docs, 2, '<b>', '</b>', ' … ', 24), bm25(docs, 0, 6, 1, 0)"
    " FROM docs WHERE docs MATCH ? ORDER BY bm25(docs, 0, 6, 1, 0) LIMIT ?"
)


def fts_query(query: str, edition: str) -> str:
    """The same query for FTS5: a "phrase" stays one; otherwise every word (as a string),
    in label or text, in that edition."""
    quoted = re.fullmatch(r'"([^"]*)"', query.strip())
    if quoted:
        words = f'"{quoted.group(1)}"'
    else:
        words = " ".join(f'"{word}"' for word in query.replace('"', " ").split())
    return f'{{label text}}: ({words}) AND editions: "{edition}"'


def fts_search(fts: sqlite3.Connection, query: str, edition: str, limit: int = 10) -> list[str]:
    rows = fts.execute(FTS_SQL, [fts_query(query, edition), limit]).fetchall()
    return [str(row[1]) for row in rows]


# child processes: one build each, so that each has its own peak memory ----------------


def child(argv: Sequence[str]) -> int:
    """`--child whoosh DB FOLDER` or `--child fts DB PATH`: build, print wall and CPU seconds
    and the peak MB."""
    engine, db, target = argv
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    start, cpu = time.perf_counter(), time.process_time()
    if engine == "whoosh":
        documents = core.build(conn, Path(target)).documents
    else:
        documents = build_fts(conn, Path(target))
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"seconds": seconds, "cpu": cpu, "peak_mb": peak, "documents": documents}))
    return 0


def run_child(engine: str, db: Path, target: Path) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, __file__, "--child", engine, str(db), str(target)],
        env=child_env(),
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def bench_build(db: Path, work: Path, runs: int) -> tuple[list[list[object]], float]:
    """Each engine builds in its own process, in turn; the ratio is of the median CPU
    times (on a shared machine wall time also counts the neighbours' work)."""
    folder = core.index_dir(db)
    fts_path = work / "fts.db"
    whoosh: list[dict[str, float]] = []
    fts: list[dict[str, float]] = []
    for _ in range(runs):  # interleaved, so that a busy moment hits both
        whoosh.append(run_child("whoosh", db, folder))
        fts.append(run_child("fts", db, fts_path))
    ws, fs = (statistics.median(r["cpu"] for r in runs_) for runs_ in (whoosh, fts))
    ww, fw = (statistics.median(r["seconds"] for r in runs_) for runs_ in (whoosh, fts))
    wm = max(r["peak_mb"] for r in whoosh)
    fm = max(r["peak_mb"] for r in fts)
    index_mb, db_mb = folder_mb(folder), folder_mb(db)
    rows: list[list[object]] = [
        [
            "Whoosh (whoosh3)",
            f"{ws:.1f} s",
            f"{ww:.1f} s",
            f"{wm:.0f} MB",
            f"{index_mb:.1f} MB",
            f"{ws / fs:.1f}x",
            verdict(ws <= BUILD_RATIO * fs),
        ],
        [
            "SQLite FTS5 (baseline)",
            f"{fs:.1f} s",
            f"{fw:.1f} s",
            f"{fm:.0f} MB",
            f"{folder_mb(fts_path):.1f} MB",
            "1.0x",
            "",
        ],
    ]
    size = db_mb + index_mb
    print(
        f"documents: {int(whoosh[0]['documents'])} distinct texts; database {db_mb:.1f} MB"
        f" + index {index_mb:.1f} MB = {size:.1f} MB"
        f" (within {SIZE_TARGET_MB:.0f} MB: {verdict(size <= SIZE_TARGET_MB)})\n"
    )
    return rows, size


# the queries ----------------------------------------------------------------------------


def queries(conn: sqlite3.Connection, count: int = 200) -> list[tuple[str, str, str]]:
    """(category, query, edition): drawn from the rule texts of random editions."""
    rng = random.Random(SEED)
    days = [str(d) for (d,) in conn.execute("SELECT date FROM editions ORDER BY date")]
    made: list[tuple[str, str, str]] = []
    kinds = ["word", "phrase", "typo", "sentence"]
    while len(made) < count:
        kind = kinds[len(made) % 4]
        day = rng.choice(days)
        # (drawn by the seeded generator, not SQLite's random(): the same queries each run)
        texts = conn.execute(
            "SELECT t.text FROM rules r JOIN texts t ON t.id = r.text_id"
            " JOIN editions e ON e.id = r.edition_id WHERE e.date = ? AND length(t.text) > 80"
            " ORDER BY r.seq",
            [day],
        ).fetchall()
        (text,) = rng.choice(texts)
        query = _query_of(rng, kind, text)
        if query:
            made.append((kind, query, day))
    return made


def _query_of(rng: random.Random, kind: str, text: str) -> str | None:
    words = text.split()
    plain = [w for w in (re.sub(r"\W", "", word) for word in words) if w.isalpha()]
    if kind == "word":
        long = [w for w in plain if len(w) >= 4]
        return rng.choice(long).lower() if long else None
    if kind == "typo":
        long = [w for w in plain if len(w) >= 6]
        return _typo(rng, rng.choice(long).lower()) if long else None
    size = rng.randint(2, 4) if kind == "phrase" else 12
    if len(plain) < size:
        return None
    start = rng.randrange(len(plain) - size + 1)
    if kind == "phrase":
        return '"' + " ".join(plain[start : start + size]) + '"'
    start = rng.randrange(max(1, len(words) - size + 1))
    return " ".join(words[start : start + size])


def _typo(rng: random.Random, word: str) -> str:
    at = rng.randrange(1, len(word) - 1)
    how = rng.choice(["drop", "swap", "change"])
    if how == "drop":
        return word[:at] + word[at + 1 :]
    if how == "swap":
        return word[:at] + word[at + 1] + word[at] + word[at + 2 :]
    return word[:at] + rng.choice(string.ascii_lowercase) + word[at + 1 :]


def bench_warm(
    conn: sqlite3.Connection, db: Path, work: Path, runs: int
) -> tuple[list[list[object]], list[list[object]], bool]:
    asked = queries(conn)
    engine = core.open_index(core.index_dir(db))
    fts = sqlite3.connect(work / "fts.db")

    def whoosh(query: str, day: str) -> None:
        with contextlib.suppress(BadSearchQuery):
            engine.search(conn, query, core.Filters(edition=day))

    engine.search(conn, "the", core.Filters())  # the index is open; nothing else is warm
    first: dict[str, list[float]] = {"whoosh": [], "fts": []}
    again: dict[str, list[float]] = {"whoosh": [], "fts": []}
    by_kind: dict[str, list[float]] = {}
    for kind, query, day in asked:
        first["whoosh"].append(1000 * timed(whoosh, query, day))
        first["fts"].append(1000 * timed(fts_search, fts, query, day))
        by_kind.setdefault(kind, []).append(first["whoosh"][-1])
    for _ in range(runs):
        for _kind, query, day in asked:
            again["whoosh"].append(1000 * timed(whoosh, query, day))
            again["fts"].append(1000 * timed(fts_search, fts, query, day))
    fts.close()
    rows: list[list[object]] = []
    met = True
    for label, times in (("first run of each query", first), (f"{runs} more runs", again)):
        w, f = times["whoosh"], times["fts"]
        p50 = statistics.median(w) / statistics.median(f)
        p95 = percentile(w, 0.95) / percentile(f, 0.95)
        ok = p50 <= WARM_P50_RATIO and p95 <= WARM_P95_RATIO
        met = met and ok
        rows.append([f"Whoosh, {label}", *_spread(w), f"{p50:.1f}x / {p95:.1f}x", verdict(ok)])
        rows.append([f"SQLite FTS5, {label}", *_spread(f), "1.0x", ""])
    kinds = [[kind, len(times), *_spread(times)] for kind, times in sorted(by_kind.items())]
    return rows, kinds, met


def _spread(times: Sequence[float]) -> list[str]:
    return [
        f"{statistics.median(times):.2f} ms",
        f"{percentile(times, 0.95):.2f} ms",
        f"{max(times):.1f} ms",
    ]


#: The labelled queries that existed before the search rewrite (the file's first ones).
ORIGINAL_CASES = 36


def bench_relevance(conn: sqlite3.Connection, db: Path, work: Path) -> list[list[object]]:
    cases = tomllib.loads(RELEVANCE.read_text(encoding="utf-8"))["query"]
    days = [str(d) for (d,) in conn.execute("SELECT date FROM editions ORDER BY date")]
    engine = core.open_index(core.index_dir(db))
    fts = sqlite3.connect(work / "fts.db")
    counts = {name: [0, 0, 0, 0] for name in ("whoosh", "fts")}
    for at, case in enumerate(cases):
        day = [d for d in days if d <= case.get("edition", days[-1])][-1]
        found = {
            "whoosh": [h.label for h in engine.search(conn, case["q"], core.Filters(day)).hits],
            "fts": fts_search(fts, case["q"], day, 3),
        }
        for name, labels in found.items():
            top, first = case["expected"] in labels[:3], labels[:1] == [case["expected"]]
            counts[name][0] += top
            counts[name][1] += first
            if at < ORIGINAL_CASES:
                counts[name][2] += top
                counts[name][3] += first
    fts.close()
    n, m = len(cases), min(len(cases), ORIGINAL_CASES)
    return [
        [label, f"{c[2]}/{m}", f"{c[3]}/{m}", f"{c[0]}/{n}", f"{c[1]}/{n}"]
        for label, c in (("Whoosh", counts["whoosh"]), ("SQLite FTS5", counts["fts"]))
    ]


def bench_cold(db: Path, runs: int) -> tuple[list[list[object]], bool]:
    env = child_env()
    commands = {
        "search": [RULES_KB, "search", COLD_QUERY, "--db", str(db), "--json"],
        "rule": [RULES_KB, "rule", "702.19", "--db", str(db), "--json"],
    }
    for command in commands.values():  # the index is fresh; bytecode is cached
        subprocess.run(command, env=env, capture_output=True, check=True)
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):  # interleaved, so that a busy moment hits both
        for name, command in commands.items():
            times[name].append(
                timed(lambda c=command: subprocess.run(c, env=env, capture_output=True, check=True))
            )
    s, r = statistics.median(times["search"]), statistics.median(times["rule"])
    ok = s <= COLD_RATIO * r
    search = f"`rules-kb search {COLD_QUERY} --json`"
    rows: list[list[object]] = [
        [search, f"{s:.3f} s", f"{max(times['search']):.3f} s", f"{s / r:.2f}x", verdict(ok)],
        ["`rules-kb rule 702.19 --json`", f"{r:.3f} s", f"{max(times['rule']):.3f} s", "1.00x", ""],
    ]
    return rows, ok


def hostile(conn: sqlite3.Connection) -> list[tuple[str, str]]:
    """(name, query): inputs that once took seconds, and their cousins."""
    rng = random.Random(SEED)
    paragraph = " ".join(
        str(text)
        for (text,) in conn.execute(
            "SELECT t.text FROM rules r JOIN texts t ON t.id = r.text_id"
            " JOIN editions e ON e.id = r.edition_id WHERE e.date = (SELECT max(date)"
            " FROM editions) AND r.number LIKE '702.%' ORDER BY r.seq LIMIT 30"
        )
    )
    words = re.sub(r"[^A-Za-z ]", " ", paragraph).split()
    common = ["player", "spell", "damage", "creature", "card", "ability", "mana", "target"]
    letters = string.ascii_lowercase
    usual = " ".join(rng.choice(common) for _ in range(200))[:1000]
    unknown = " ".join("".join(rng.choice(letters) for _ in range(7)) for _ in range(140))
    return [
        ("trample~9", "trample~9"),
        ("trample~2", "trample~2"),
        ("trample~2/0 (no prefix)", "trample~2/0"),
        ("100,000 characters", "trample " * 12_500),
        ("1,000 characters, one word", "a" * 1000),
        ("1,000 characters of rule text", " ".join(words)[:1000]),
        ("1,000 characters of common words", usual),
        ("1,000 characters of unknown words", unknown[:1000]),
        ("*", "*"),
        ("re*", "re*"),
        ("*ing", "*ing"),
        ("?????", "?????"),
        ("(((…))) 30 deep", "(" * 30 + "trample" + ")" * 30),
        ('""""…', '"' * 999),
        ("NOT × 250", "NOT " * 250),
        ("spell OR … × 150", " OR ".join(["spell"] * 150)[:1000]),
        ("spell or ability", "spell or ability"),
        ('"spell or ability"', '"spell or ability"'),
        ("control characters", "\x00\x01 trample \x7f"),
    ]


def bench_hostile(conn: sqlite3.Connection, db: Path) -> tuple[list[list[object]], float]:
    engine = core.open_index(core.index_dir(db))
    day = str(conn.execute("SELECT max(date) FROM editions").fetchone()[0])
    rows: list[list[object]] = []
    slowest = 0.0
    for name, query in hostile(conn):
        start = time.perf_counter()
        try:
            found = engine.search(conn, query, core.Filters(edition=day))
            outcome = f"{found.total} hits ({found.match})"
        except BadSearchQuery as error:
            outcome = f"refused: {error}"
        seconds = time.perf_counter() - start
        slowest = max(slowest, seconds)
        rows.append([name, f"{1000 * seconds:.1f} ms", outcome.replace("|", "/")])
    return rows, slowest


def bench_update(editions: Path, work: Path) -> list[list[object]]:
    """Index all editions but the newest, ingest the newest, and time the incremental update."""
    files = sorted(editions.glob("*.txt"))
    db = work / "update.db"
    env = child_env()
    subprocess.run(
        [RULES_KB, "ingest", *map(str, files[:-1]), "--db", str(db), "--json"],
        env=env,
        capture_output=True,
        check=True,
    )
    user = work / "user.db"  # the same 133, for an ingest as a user runs it
    shutil.copyfile(db, user)
    shutil.copytree(core.index_dir(db), core.index_dir(user))
    subprocess.run(
        [RULES_KB, "ingest", str(files[-1]), "--db", str(db), "--json", "--no-index"],
        env=env,
        capture_output=True,
        check=True,
    )
    with sqlite3.connect(db) as conn:
        report = core.ensure_index(conn, core.index_dir(db))
        rebuild = timed(lambda: core.build(conn, core.index_dir(db)))
    subprocess.run(  # the index is brought up to date at the end of the ingest
        [RULES_KB, "ingest", str(files[-1]), "--db", str(user), "--json"],
        env=env, capture_output=True, check=True,
    )  # fmt: skip
    search = [RULES_KB, "search", COLD_QUERY, "--db", str(user), "--json"]
    first = timed(lambda: subprocess.run(search, env=env, capture_output=True, check=True))
    later = statistics.median(
        timed(lambda: subprocess.run(search, env=env, capture_output=True, check=True))
        for _ in range(5)
    )
    return [
        [
            f"incremental ({report.action}): +{report.added} new, {report.changed} re-listed, "
            f"-{report.removed}",
            f"{report.seconds:.1f} s",
            f"{report.seconds / rebuild:.2f}x",
        ],
        ["full rebuild (baseline)", f"{rebuild:.1f} s", "1.0x"],
        ["first `search` process after `rules-kb ingest` of the newest edition",
         f"{first:.2f} s", f"{first / later:.2f}x"],
        ["later `search` processes (median of 5, baseline)", f"{later:.2f} s", "1.0x"],
    ]  # fmt: skip


def header(runs: int) -> str:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (
        f"Python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} cores"
        f" (load {load:.1f} at the start), SQLite {sqlite3.sqlite_version}; warm: {runs} runs."
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--editions", type=Path, default=DEFAULT_EDITIONS)
    parser.add_argument("--runs", type=int, default=3, help="Repeated warm runs.")
    parser.add_argument("--cold-runs", type=int, default=15, help="Cold processes of each.")
    parser.add_argument("--build-runs", type=int, default=3, help="Builds of each engine.")
    parser.add_argument("--no-update", action="store_true", help="Skip the incremental update.")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    compiled()
    if args.child:
        return child(args.child)
    with tempfile.TemporaryDirectory(prefix="rules-kb-bench-search-") as name:
        work = Path(name)
        db = work / "all.db"
        subprocess.run(
            [RULES_KB, "ingest", str(args.editions), "--db", str(db), "--json", "--no-index"],
            env=child_env(),
            capture_output=True,
            check=True,
        )
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        print(header(args.runs) + "\n")
        runs = args.build_runs
        print(f"#### Index build, all editions (each in its own process, median of {runs})\n")
        rows, _size = bench_build(db, work, args.build_runs)
        columns = ["engine", "CPU", "wall", "peak RSS", "on disk", "ratio (CPU)", "within 3x"]
        print(table(columns, rows))

        rows, kinds, _met = bench_warm(conn, db, work, args.runs)
        print("\n#### Warm search, 200 queries drawn from the rules (top 10, highlighted)\n")
        print(table(["engine", "p50", "p95", "max", "ratio p50 / p95", "within 3x / 4x"], rows))
        print("\nWhoosh by kind of query (first run):\n")
        print(table(["kind", "queries", "p50", "p95", "max"], kinds))

        print("\n#### Relevance on the labelled set (tests/fixtures/relevance.toml)\n")
        relevance = bench_relevance(conn, db, work)
        columns = ["engine", "top 3 (the 36 of before)", "first", "top 3 (all)", "first"]
        print(table(columns, relevance))

        rows, slowest = bench_hostile(conn, db)
        print("\n#### Hostile queries (each once, in the warm process)\n")
        print(table(["query", "time", "outcome"], rows))
        within = verdict(slowest < HOSTILE_TARGET_S)
        print(f"\nslowest: {1000 * slowest:.0f} ms (within {HOSTILE_TARGET_S:.0f} s: {within})")

        rows, _ok = bench_cold(db, args.cold_runs)
        print(f"\n#### Cold process ({args.cold_runs} runs each, interleaved, medians)\n")
        print(table(["process", "median", "max", "ratio", "within 1.3x"], rows))
        conn.close()
        if not args.no_update:
            print("\n#### Ingesting the newest edition into the other 133, then searching\n")
            print(table(["index step", "wall", "ratio"], bench_update(args.editions, work)))
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(common.run(main, "search.py"))
