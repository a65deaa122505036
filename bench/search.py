"""Benchmark of full-text search: the Whoosh index against SQLite FTS5 over the same texts.

Run from the repository root with the virtualenv active:

    python bench/search.py [--editions PATH] [--runs N] [--no-update]

In one run it ingests every edition into a temporary database, then measures
side by side with SQLite FTS5 (porter stemmer, bm25) over exactly the same
distinct documents as the baseline:

- the index build for all editions: wall time and size on disk;
- warm query latency (median, p95) over the relevance set in tests/fixtures;
- a cold `rules-kb search` process against a cold python process querying FTS5,
  and which heavy modules the cold search imports;
- (unless --no-update) the incremental update after ingesting the newest edition
  into a database of all the others, against a full rebuild.

It prints markdown tables. Nothing here fails when a target is missed; the table says so.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from common import percentile, table, verdict  # noqa: E402

from rules_kb import search as core  # noqa: E402

DEFAULT_EDITIONS = REPO.parent / "shared" / "cr" / "editions"
RELEVANCE = REPO / "tests" / "fixtures" / "relevance.toml"
RULES_KB = str(Path(sys.executable).parent / "rules-kb")
BUILD_TARGET_S = 30.0
WARM_TARGET_MS = 20.0
COLD_TARGET_S = 0.5
HEAVY = ("lark", "networkx", "sqlite_utils", "whoosh")
COLD_QUERY = "last known information"


def folder_mb(path: Path) -> float:
    files = [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file()]
    return sum(p.stat().st_size for p in files) / 1024 / 1024


def child_env() -> dict[str, str]:
    env = dict(os.environ)
    for name in ("RULES_KB_DB", "PYTHONPROFILEIMPORTTIME", "PYTHONDEVMODE"):
        env.pop(name, None)
    return env


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


def fts_query(words: str, edition: str) -> str:
    """Every word (as a string), in label or text, in that edition."""
    terms = " ".join(f'"{word}"' for word in words.replace('"', " ").split())
    return f'{{label text}}: ({terms}) AND editions: "{edition}"'


def fts_search(fts: sqlite3.Connection, words: str, edition: str, limit: int = 10) -> list[str]:
    rows = fts.execute(FTS_SQL, [fts_query(words, edition), limit]).fetchall()
    return [str(row[1]) for row in rows]


# measurements -------------------------------------------------------------------------


def timed(action: Callable[..., object], *args: object) -> float:
    start = time.perf_counter()
    action(*args)
    return time.perf_counter() - start


def bench_build(conn: sqlite3.Connection, db: Path, work: Path) -> list[list[object]]:
    folder = core.index_dir(db)
    shutil.rmtree(folder, ignore_errors=True)
    report = core.UpdateReport()

    def build() -> None:
        nonlocal report
        report = core.build(conn, folder)

    whoosh_s = timed(build)
    fts_path = work / "fts.db"
    documents = 0

    def fts() -> None:
        nonlocal documents
        documents = build_fts(conn, fts_path)

    fts_s = timed(fts)
    rows = conn.execute("SELECT count(*) FROM rules").fetchone()[0]
    print(f"documents: {report.documents} distinct texts (the rules table has {rows} rows)\n")
    return [
        [
            "Whoosh (whoosh3)",
            f"{whoosh_s:.1f} s",
            f"{folder_mb(folder):.1f} MB",
            report.documents,
            f"{whoosh_s / fts_s:.1f}x",
            verdict(whoosh_s <= BUILD_TARGET_S),
        ],
        [
            "SQLite FTS5 (baseline)",
            f"{fts_s:.1f} s",
            f"{folder_mb(fts_path):.1f} MB",
            documents,
            "1.0x",
            "",
        ],
    ]


def bench_warm(
    conn: sqlite3.Connection, db: Path, work: Path, runs: int
) -> tuple[list[list[object]], str]:
    cases = tomllib.loads(RELEVANCE.read_text(encoding="utf-8"))["query"]
    days = [str(d) for (d,) in conn.execute("SELECT date FROM editions ORDER BY date")]

    def in_force(day: str) -> str:
        return [d for d in days if d <= day][-1]

    queries = [
        (case["q"], in_force(case.get("edition", days[-1])), case["expected"]) for case in cases
    ]
    ix = core.open_index(core.index_dir(db))
    fts = sqlite3.connect(work / "fts.db")
    whoosh_ms: list[float] = []
    fts_ms: list[float] = []
    whoosh_top3 = fts_top3 = 0
    for q, day, expected in queries:  # warm-up, and the hit quality of each
        whoosh_top3 += expected in [
            h.label for h in core.search(ix, q, core.Filters(day), limit=3).hits
        ]
        fts_top3 += expected in fts_search(fts, q, day, 3)
    for _ in range(runs):
        for q, day, _expected in queries:
            whoosh_ms.append(1000 * timed(core.search, ix, q, core.Filters(day)))
            fts_ms.append(1000 * timed(fts_search, fts, q, day))
    fts.close()
    wm, fm = statistics.median(whoosh_ms), statistics.median(fts_ms)
    n = len(queries)
    rows: list[list[object]] = [
        [
            "Whoosh: `search()` with highlights",
            f"{wm:.1f} ms",
            f"{percentile(whoosh_ms, 0.95):.1f} ms",
            f"{whoosh_top3}/{n}",
            f"{wm / fm:.1f}x",
            verdict(wm <= WARM_TARGET_MS),
        ],
        [
            "SQLite FTS5 (baseline): MATCH + bm25 + snippet",
            f"{fm:.2f} ms",
            f"{percentile(fts_ms, 0.95):.2f} ms",
            f"{fts_top3}/{n}",
            "1.0x",
            "",
        ],
    ]
    return rows, f"{n} queries x {runs} runs"


def bench_cold(db: Path, work: Path, runs: int) -> tuple[list[list[object]], str]:
    env = child_env()
    latest = sqlite3.connect(db).execute("SELECT max(date) FROM editions").fetchone()[0]
    search = [RULES_KB, "search", COLD_QUERY, "--db", str(db), "--json"]
    statement = f"c.execute({FTS_SQL!r}, [{fts_query(COLD_QUERY, latest)!r}, 10]).fetchall()"
    baseline = [
        sys.executable,
        "-c",
        f"import json, sqlite3; c = sqlite3.connect({str(work / 'fts.db')!r}); "
        f"print(json.dumps({statement}))",
    ]
    subprocess.run(search, env=env, capture_output=True, check=True)  # the index is fresh
    times: dict[str, list[float]] = {"search": [], "fts": []}
    for _ in range(runs):
        times["search"].append(
            timed(lambda: subprocess.run(search, env=env, capture_output=True, check=True))
        )
        times["fts"].append(
            timed(lambda: subprocess.run(baseline, env=env, capture_output=True, check=True))
        )
    s, f = statistics.median(times["search"]), statistics.median(times["fts"])
    imported = subprocess.run(
        [sys.executable, "-X", "importtime", RULES_KB, "search", COLD_QUERY, "--db", str(db)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stderr
    heavy = sorted(
        {
            name.split(".")[0]
            for name in (line.split("|")[-1].strip() for line in imported.splitlines())
            if name.split(".")[0] in HEAVY
        }
    )
    rows: list[list[object]] = [
        [
            f"`rules-kb search '{COLD_QUERY}' --json`",
            f"{s:.2f} s",
            f"{max(times['search']):.2f} s",
            f"{s / f:.1f}x",
            verdict(s <= COLD_TARGET_S),
        ],
        [
            "python + sqlite3 FTS5 query (baseline)",
            f"{f:.2f} s",
            f"{max(times['fts']):.2f} s",
            "1.0x",
            "",
        ],
    ]
    return rows, "heavy modules imported by the cold search: " + (", ".join(heavy) or "none") + (
        " (whoosh is the search itself; lark, networkx and sqlite_utils must not appear)"
    )


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
    with sqlite3.connect(db) as conn:
        core.ensure_index(conn, core.index_dir(db))
    subprocess.run(
        [RULES_KB, "ingest", str(files[-1]), "--db", str(db), "--json"],
        env=env,
        capture_output=True,
        check=True,
    )
    with sqlite3.connect(db) as conn:
        report = core.ensure_index(conn, core.index_dir(db))
        rebuild = timed(lambda: core.build(conn, core.index_dir(db)))
    return [
        [
            f"incremental ({report.action}): +{report.added} new, {report.changed} re-listed, "
            f"-{report.removed}",
            f"{report.seconds:.1f} s",
            f"{report.seconds / rebuild:.2f}x",
        ],
        ["full rebuild (baseline)", f"{rebuild:.1f} s", "1.0x"],
    ]


def header(runs: int) -> str:
    return (
        f"Python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} cores, "
        f"SQLite {sqlite3.sqlite_version}; warm and cold: {runs} runs."
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--editions", type=Path, default=DEFAULT_EDITIONS)
    parser.add_argument("--runs", type=int, default=5, help="Repetitions of warm and cold runs.")
    parser.add_argument("--no-update", action="store_true", help="Skip the incremental update.")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="rules-kb-bench-search-") as name:
        work = Path(name)
        db = work / "all.db"
        subprocess.run(
            [RULES_KB, "ingest", str(args.editions), "--db", str(db), "--json"],
            env=child_env(),
            capture_output=True,
            check=True,
        )
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        print(header(args.runs) + "\n")
        print("### Index build, all editions\n")
        print(
            table(
                [
                    "engine",
                    "wall",
                    "on disk",
                    "documents",
                    "ratio",
                    f"within {BUILD_TARGET_S:.0f} s",
                ],
                bench_build(conn, db, work),
            )
        )
        rows, note = bench_warm(conn, db, work, args.runs)
        print(f"\n### Warm query latency over the relevance set ({note})\n")
        print(
            table(
                [
                    "engine",
                    "median",
                    "p95",
                    "expected in top 3",
                    "ratio",
                    f"median within {WARM_TARGET_MS:.0f} ms",
                ],
                rows,
            )
        )
        # the cold search must find a fresh index: the stamp was written by the build above
        rows, note = bench_cold(db, work, args.runs)
        print("\n### Cold process, one search\n")
        print(table(["process", "median", "max", "ratio", f"within {COLD_TARGET_S} s"], rows))
        print(f"\n{note}")
        conn.close()
        if not args.no_update:
            print("\n### Ingesting the newest edition into the other 133, then searching\n")
            print(table(["index step", "wall", "ratio"], bench_update(args.editions, work)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
