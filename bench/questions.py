"""Benchmark of questions as judges ask them: tests/fixtures/questions.toml through `search`
and `show`, against SQLite FTS5 with bm25 over the same texts, the words OR-ed.

For each question it counts whether an answering rule comes first, in the top 3 and in
the top 10: strictly (the labelled number) and leniently (the labelled number, its parent
or one of its subrules), on each split of the set (development, held out, blind, fresh)
and on all of them. Then the warm time per question (p50, p95) against the same FTS5
queries, and a cold `show QUESTION` process against a cold `search trample` (CPU time,
paired runs).

    python bench/questions.py [--db rules.db] [--quick]
        [--split dev|holdout|blind|fresh|fresh2|fresh3|fresh4|fresh5|all]
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import common
from bench.common import REPO, compiled, percentile, table
from tests.search.question_labels import answers, close

QUESTIONS = REPO / "tests" / "fixtures" / "questions.toml"
CUTS = (1, 3, 10)
#: The splits of the labelled set: one that tuned the ranking, three that never did.
SPLITS = ("dev", "holdout", "blind", "fresh", "fresh2", "fresh3", "fresh4", "fresh5")
#: Targets of the questions issue: share of questions answered in the top 3 and top 10.
TARGET_TOP3, TARGET_TOP10 = 0.60, 0.80


def load(split: str) -> list[dict[str, object]]:
    """The labelled questions of one split ("all" for every split)."""
    cases = tomllib.loads(QUESTIONS.read_text(encoding="utf-8"))["question"]
    return [case for case in cases if split == "all" or case["split"] == split]


def scores(ranked: list[list[str]], cases: list[dict[str, object]]) -> list[str]:
    """first / top 3 / top 10, lenient then strict, as "n/N" cells."""
    cells = []
    for lenient in (True, False):
        ranks = [
            answers(found, list(case["answers"]), lenient=lenient)  # type: ignore[call-overload]
            for found, case in zip(ranked, cases, strict=True)
        ]
        for cut in CUTS:
            cells.append(f"{sum(1 for r in ranks if r is not None and r <= cut)}/{len(cases)}")
    return cells


def share(ranked: list[list[str]], cases: list[dict[str, object]], cut: int) -> float:
    """The share of questions with a lenient answer in the top `cut`."""
    hits = 0
    for found, case in zip(ranked, cases, strict=True):
        rank = answers(found, list(case["answers"]), lenient=True)  # type: ignore[call-overload]
        hits += rank is not None and rank <= cut
    return hits / max(1, len(cases))


# the systems ---------------------------------------------------------------------------


def ours(db: Path) -> tuple[Callable[[str], list[str]], Callable[[str], list[str]], str]:
    """search and show of rules-kb, as the numbers they rank (glossary hits are no number)."""
    import rules_kb

    kb = rules_kb.open(db)
    latest = kb.edition("latest")
    kb.search("trample", latest)  # open the index before timing

    def search(question: str) -> list[str]:
        found = kb.search(question, latest, limit=10)
        return [hit.label for hit in found.hits if hit.kind != "glossary"]

    def show(question: str) -> list[str]:
        shown = kb.show(question, latest, limit=10)
        value = shown.value
        if shown.type == "rule":
            return [value.number]
        if shown.type == "glossary":
            return list(value.rules)
        if shown.type == "search":
            return [hit.label for hit in value.hits if hit.kind != "glossary"]
        return [item.number for item in value.answers if item.kind != "glossary"]

    return search, show, latest


def fts(db: Path, work: Path, latest: str) -> Callable[[str], list[str]]:
    """SQLite FTS5 with bm25 over the latest edition's rule, example and glossary texts,
    the question's words OR-ed (the baseline of the issue)."""
    conn = sqlite3.connect(db)
    path = work / "questions-fts.db"
    fts_db = sqlite3.connect(path)
    fts_db.execute("CREATE VIRTUAL TABLE docs USING fts5(label, text, tokenize='porter unicode61')")
    rows = conn.execute(
        "SELECT r.number, t.text FROM rules r JOIN texts t ON t.id = r.text_id"
        " JOIN editions e ON e.id = r.edition_id WHERE e.date = :d"
        " UNION ALL SELECT r.number, t.text FROM examples x JOIN rules r"
        " ON r.edition_id = x.edition_id AND r.seq = x.rule_seq JOIN texts t ON t.id = x.text_id"
        " JOIN editions e ON e.id = x.edition_id WHERE e.date = :d",
        {"d": latest},
    ).fetchall()
    with fts_db:
        fts_db.executemany("INSERT INTO docs VALUES (?, ?)", rows)
    conn.close()

    def search(question: str) -> list[str]:
        words = re.findall(r"[A-Za-z0-9]+", question)
        if not words:
            return []
        match = " OR ".join(f'"{word}"' for word in words)
        found = fts_db.execute(
            "SELECT label FROM docs WHERE docs MATCH ? ORDER BY bm25(docs) LIMIT 30", [match]
        ).fetchall()
        return list(dict.fromkeys(label for (label,) in found))[:10]

    return search


def warm(
    system: Callable[[str], list[str]], questions: list[str]
) -> tuple[list[list[str]], list[float]]:
    """Each question's ranked numbers and its wall time."""
    ranked, times = [], []
    for question in questions:
        start = time.perf_counter()
        ranked.append(system(question))
        times.append(time.perf_counter() - start)
    return ranked, times


def cold(db: Path, argv: Sequence[str], runs: int) -> float:
    """The median CPU time of a fresh `rules-kb` process (user + system of the child)."""
    env = {**os.environ, "RULES_KB_DB": str(db), "PAGER": "cat"}
    times = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(
            [sys.executable, "-m", "rules_kb", *argv], env=env, capture_output=True, check=False
        )
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        times.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(times)


#: The bands of `ceiling`: the last rank of each.
BANDS = (10, 30, 100)


def ceiling(db: Path, splits: Sequence[str]) -> str:
    """Where the first (lenient) answer of each question stands in the top 100 of
    `search`: what better ranking alone could reach, and what it never could (no answer
    in the top 100 is a question the search does not find)."""
    import rules_kb

    kb = rules_kb.open(db)
    latest = kb.edition("latest")
    rows: list[list[object]] = []
    for split in splits:
        cases = load(split)
        counts = dict.fromkeys((*BANDS, None), 0)
        for case in cases:
            found = kb.search(str(case["q"]), latest, limit=BANDS[-1]).hits
            ranked = [hit.label for hit in found if hit.kind != "glossary"]
            rank = answers(ranked, list(case["answers"]), lenient=True)  # type: ignore[call-overload]
            counts[next((band for band in BANDS if rank is not None and rank <= band), None)] += 1
        rows.append([f"{split} ({len(cases)})", *counts.values()])
    return table(["questions", "top 10", "11-30", "31-100", "not in the top 100"], rows)


def second_reading(ranked_by: dict[tuple[str, str], list[list[str]]]) -> str:
    """The questions read twice (`second` in questions.toml: a second reader's answers,
    given without the first labels or rules-kb's answers): how often the two readings
    meet, and the top 3 / top 10 of each system by the first label, by the second and by
    either."""
    rows = []
    for split in SPLITS:
        cases = [case for case in load(split) if "second" in case]
        if not cases:
            continue
        first = [list(case["answers"]) for case in cases]  # type: ignore[call-overload]
        second = [list(case["second"]) for case in cases]  # type: ignore[call-overload]
        meet = sum(
            any(close(a, b) for a in one for b in two)
            for one, two in zip(first, second, strict=True)
        )
        for name in ("rules-kb search", "SQLite FTS5 bm25, words OR-ed"):
            ranked = ranked_by.get((name, split))
            if ranked is None:
                continue
            cells = []
            for labels in (first, second, [a + b for a, b in zip(first, second, strict=True)]):
                ranks = [
                    answers(found, wanted, lenient=True)
                    for found, wanted in zip(ranked, labels, strict=True)
                ]
                top3 = sum(1 for r in ranks if r is not None and r <= 3)
                top10 = sum(1 for r in ranks if r is not None)
                cells.append(f"{top3} / {top10}")
            rows.append([name, f"{split} ({len(cases)})", f"{meet}", *cells])
    headers = ["system", "questions", "the readings meet", "first reader: top 3 / top 10",
               "second reader", "either reader"]  # fmt: skip
    return table(headers, rows)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=Path(os.environ.get("RULES_KB_DB", "rules.db")))
    parser.add_argument("--split", choices=(*SPLITS, "all"), default="all")
    parser.add_argument("--quick", action="store_true", help="relevance of search only")
    parser.add_argument("--misses", action="store_true", help="list the questions missed")
    parser.add_argument("--runs", type=int, default=7, help="cold runs per command")
    parser.add_argument(
        "--ceiling", action="store_true", help="where the answers stand in the top 100 only"
    )
    args = parser.parse_args(argv)
    compiled()
    if args.ceiling:
        print(ceiling(args.db, [*SPLITS] if args.split == "all" else [args.split]))
        return 0
    search, show, latest = ours(args.db)
    splits = [*SPLITS, "all"] if args.split == "all" else [args.split]
    headers = ["system", "questions", "first", "top 3", "top 10", "strict first",
               "strict top 3", "strict top 10"]  # fmt: skip
    rows: list[list[object]] = []
    ranked_by: dict[tuple[str, str], list[list[str]]] = {}
    with tempfile.TemporaryDirectory() as work:
        baseline = None if args.quick else fts(args.db, Path(work), latest)
        timing: dict[str, list[float]] = {}
        for split in splits:
            cases = load(split)
            questions = [str(case["q"]) for case in cases]
            systems = [("rules-kb search", search)]
            if not args.quick:
                systems += [("rules-kb show", show)]
                if baseline is not None:
                    systems += [("SQLite FTS5 bm25, words OR-ed", baseline)]
            for name, system in systems:
                ranked, times = warm(system, questions)
                if split != "all":  # (each question timed once: "all" asks them again)
                    timing.setdefault(name, []).extend(times)
                rows.append([name, f"{split} ({len(cases)})", *scores(ranked, cases)])
                ranked_by[(name, split)] = ranked
                if args.misses and name == "rules-kb search":
                    for found, case in zip(ranked, cases, strict=True):
                        rank = answers(found, list(case["answers"]), lenient=True)  # type: ignore[call-overload]
                        if rank is None or rank > 3:
                            print(f"{rank}\t{case['q']}\t{case['answers']}\t{found[:5]}")
        print(table(headers, rows))
        if args.quick:
            return 0
        print()
        print(second_reading(ranked_by))
        print()
        names = ["rules-kb search", "SQLite FTS5 bm25, words OR-ed"]
        base95 = percentile(timing[names[1]], 0.95)
        time_rows = []
        for name in names:
            values = timing[name]
            p50, p95 = statistics.median(values), percentile(values, 0.95)
            time_rows.append([name, f"{p50 * 1000:.1f} ms", f"{p95 * 1000:.1f} ms",
                              f"{p95 / base95:.1f}x"])  # fmt: skip
        print(table(["warm, per question", "p50", "p95", "p95 ratio"], time_rows))
        print()
        question = "does deathtouch work with trample?"
        pairs = []
        for _ in range(args.runs):
            pairs.append(
                (cold(args.db, ["show", question], 1), cold(args.db, ["search", "trample"], 1))
            )
        show_cpu = statistics.median(a for a, _ in pairs)
        search_cpu = statistics.median(b for _, b in pairs)
        ratio = statistics.median(a / b for a, b in pairs)
        print(table(["cold process, CPU", "median", "ratio"], [
            [f"`show {question!r}`", f"{show_cpu:.3f} s", f"{ratio:.2f}x"],
            ["`search trample`", f"{search_cpu:.3f} s", "1.00x"],
        ]))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(common.run(main, "questions.py"))
