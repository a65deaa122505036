"""Benchmark of the reference graph: extraction over every edition, export of the largest.

Run from the repository root with the virtualenv active:

    python bench/refs.py [--editions PATH] [--runs N]

Prints markdown tables. Each measurement has a baseline measured in the same run:
extraction against one plain regular-expression `findall` over the same texts
(finds numbers only: no ranges, lists, glossary terms, positions or resolution),
export against `json.dumps` of the bare edge list. Nothing here fails when a
target is missed; the table says so.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import common  # noqa: E402
from common import median_time, table, verdict  # noqa: E402

from rules_kb.ingest import pipeline, refs, store  # noqa: E402
from rules_kb.ingest.models import Edition  # noqa: E402
from rules_kb.read import graph  # noqa: E402
from rules_kb.read.query import Reader  # noqa: E402

DEFAULT_EDITIONS = REPO.parent / "shared" / "cr" / "editions"
EXTRACT_TARGET_S = 10.0
EXPORT_TARGET_S = 2.0
BASELINE = re.compile(r"\b(\d{3}(?:\.\d+[a-z]{0,2})?)\b")


def load(folder: Path) -> list[Edition]:
    files = sorted(folder.glob("*.txt"))
    return [pipeline.read_edition(path.read_bytes())[0] for path in files]


def extract_all(editions: list[Edition]) -> int:
    """Find and resolve every reference of every edition, from a cold cache."""
    refs.find.cache_clear()
    refs._parse_citation.cache_clear()
    refs._parse_crossref.cache_clear()
    return sum(len(refs.edition_references(edition)) for edition in editions)


def baseline_all(editions: list[Edition]) -> int:
    return sum(
        len(BASELINE.findall(source.text))
        for edition in editions
        for source in refs.edition_sources(edition)
    )


def bench_extraction(editions: list[Edition]) -> str:
    texts = sum(len(refs.edition_sources(edition)) for edition in editions)
    start = time.perf_counter()
    found = extract_all(editions)
    ours = time.perf_counter() - start
    start = time.perf_counter()
    numbers = baseline_all(editions)
    base = time.perf_counter() - start
    target = f"within {EXTRACT_TARGET_S:.0f} s"
    rows: list[list[object]] = [
        ["editions / citing texts", f"{len(editions)} / {texts}", "", "", ""],
        ["references found and resolved", found, "", "", ""],
        ["extraction (cold cache), all editions", f"{ours:.2f} s", target,
         verdict(ours <= EXTRACT_TARGET_S), f"{ours / base:.1f}x"],
        ["baseline: regex findall of numbers", f"{base:.2f} s ({numbers} numbers)", "", "", "1.0x"],
    ]  # fmt: skip
    return "### Reference extraction (all editions)\n\n" + table(
        ["measure", "value", "target", "met", "ratio"], rows
    )


def bench_export(editions: list[Edition], runs: int) -> str:
    largest = max(editions, key=lambda edition: len(edition.rules) + len(edition.glossary))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "one.db"
        db = store.open_db(path)
        store.ingest(db, largest, source="bench", sha256="-", encoding="-")
        db.close()
        kb = Reader(path)
        nodes, edges = kb.graph_rows(largest.date)
        built = graph.build(nodes, edges)
        base = median_time(runs, lambda: json.dumps([list(edge) for edge in edges]))
        build = median_time(runs, lambda: graph.build(*kb.graph_rows(largest.date)))
        rows: list[list[object]] = [
            ["read + build graph", f"{build * 1000:.0f} ms", "", "", f"{build / base:.0f}x"]
        ]
        for form in graph.FORMATS:
            seconds = median_time(runs, lambda form=form: graph.export(built, form))  # type: ignore[misc]
            total = build + seconds
            rows.append(
                [f"{form} (with read + build)", f"{total * 1000:.0f} ms",
                 f"within {EXPORT_TARGET_S:.0f} s", verdict(total <= EXPORT_TARGET_S),
                 f"{total / base:.0f}x"]
            )  # fmt: skip
        rows.append(
            ["baseline: json.dumps of the edge rows", f"{base * 1000:.1f} ms", "", "", "1x"]
        )
        kb.close()
    title = (
        f"### Whole-graph export, largest edition ({largest.date}: "
        f"{built.number_of_nodes()} nodes, {built.number_of_edges()} edges; median of {runs})"
    )
    return title + "\n\n" + table(["measure", "value", "target", "met", "ratio"], rows)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--editions", type=Path, default=DEFAULT_EDITIONS)
    parser.add_argument("--runs", type=int, default=5, help="Runs per export measurement.")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    editions = load(args.editions)
    print(f"_parsed {len(editions)} editions in {time.perf_counter() - start:.1f} s (not timed)_\n")
    print(bench_extraction(editions))
    print()
    print(bench_export(editions, args.runs))
    return 0


if __name__ == "__main__":
    sys.exit(common.run(main, "refs.py"))
