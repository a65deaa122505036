"""Benchmarks for `diff` and `history`, with naive baselines measured in the same run.

    python bench/diff.py [--db PATH]

Without --db it ingests every shared edition into a temporary database first.
Prints markdown tables; nothing here fails when a target is missed.
"""

from __future__ import annotations

import argparse
import difflib
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from common import fastest_time, table  # noqa: E402

from rules_kb.align import Item, precision_recall  # noqa: E402
from rules_kb.diff import Library, diff, history  # noqa: E402
from rules_kb.query import Reader  # noqa: E402

EDITIONS = REPO.parent / "shared" / "cr" / "editions"
LABELS = REPO / "tests" / "fixtures" / "alignment"
RULES_KB = str(Path(sys.executable).parent / "rules-kb")
MODERN = ("2026-06-19", "2026-08-07")
OVERHAUL = ("2009-05-01", "2009-07-11")


def naive_diff(reader: Reader, old: str, new: str) -> int:
    """Baseline: pair rules by number only, difflib word diff of each differing pair."""
    before = {n: t for n, _, _, t in reader.edition_rules(old)}
    after = {n: t for n, _, _, t in reader.edition_rules(new)}
    differing = [
        (before[n], after[n]) for n in before.keys() & after.keys() if before[n] != after[n]
    ]
    texts = reader.texts([i for pair in differing for i in pair])
    for a, b in differing:
        list(difflib.ndiff(texts[a].split(), texts[b].split()))
    return len(differing)


def greedy_map(reader: Reader, old: str, new: str) -> dict[str, str]:
    """Baseline: same number and text first, then each old rule takes the first
    unclaimed new rule whose difflib ratio is at least 0.6 (greedy, in order)."""
    before = [Item(*row) for row in reader.edition_rules(old)]
    after = [Item(*row) for row in reader.edition_rules(new)]
    texts = reader.texts([item.text_id for item in (*before, *after)])
    mapping: dict[str, str] = {}
    taken: set[int] = set()
    exact = {(item.key, item.text_id): j for j, item in enumerate(after)}
    for item in before:
        j = exact.get((item.key, item.text_id))
        if j is not None and j not in taken:
            mapping[item.key] = after[j].key
            taken.add(j)
    for item in before:
        if item.key in mapping:
            continue
        for j, other in enumerate(after):
            if j in taken or other.kind != item.kind:
                continue
            ratio = difflib.SequenceMatcher(None, texts[item.text_id], texts[other.text_id])
            if ratio.quick_ratio() >= 0.6 and ratio.ratio() >= 0.6:
                mapping[item.key] = other.key
                taken.add(j)
                break
    return mapping


def same_number_map(reader: Reader, old: str, new: str) -> dict[str, str]:
    """Baseline: a rule is whatever bears its number in the new edition."""
    after = {n for n, _, _, _ in reader.edition_rules(new)}
    return {n: n for n, _, _, _ in reader.edition_rules(old) if n in after}


def cli_time(db: Path, *args: str) -> float:
    """Wall time of one fresh `rules-kb` process."""
    start = time.perf_counter()
    subprocess.run([RULES_KB, *args, "--db", str(db)], check=True, capture_output=True)
    return time.perf_counter() - start


def speed(db: Path) -> str:
    reader = Reader(db)
    rows = []
    for label, (old, new), target in (
        ("diff, consecutive modern editions", MODERN, 1.0),
        ("diff, 2009-05-01 -> 2009-07-11", OVERHAUL, 10.0),
    ):
        ours = fastest_time(3, lambda o=old, n=new: diff(Library(reader), o, n))
        naive = fastest_time(3, lambda o=old, n=new: naive_diff(reader, o, n))
        cli = cli_time(db, "diff", old, new, "--json")
        rows.append(
            [
                label,
                f"{ours:.3f}",
                f"{cli:.2f}",
                f"{naive:.3f}",
                f"{ours / naive:.1f}x",
                f"{target:g}",
                "yes" if cli <= target else "**no**",
            ]
        )
    library = Library(reader)
    cold = fastest_time(1, lambda: history(library, "702.19"))
    warm = fastest_time(5, lambda: history(library, "702.19"))
    cli = cli_time(db, "history", "702.19", "--json")
    naive = fastest_time(1, lambda: _naive_history(reader, "702.19"))
    rows.append(
        [
            "history 702.19, all editions",
            f"{warm:.4f} warm / {cold:.3f} first",
            f"{cli:.2f}",
            f"{naive:.3f}",
            f"{warm / naive:.2f}x",
            "0.5",
            "yes" if cli <= 0.5 else "**no**",
        ]
    )
    headers = [
        "task",
        "ours in-process (s)",
        "ours CLI process (s)",
        "naive baseline (s)",
        "ours / naive",
        "target (s)",
        "CLI within target",
    ]
    return table(headers, rows)


def _naive_history(reader: Reader, number: str) -> int:
    """Baseline: read the number's text in every edition (no renumbering followed)."""
    found = 0
    for day in reader.dates():
        found += sum(1 for n, _, _, _ in reader.edition_rules(day) if n == number)
    return found


def quality(db: Path) -> str:
    reader = Reader(db)
    library = Library(reader)
    rows = []
    totals: dict[str, list[float]] = {"ours": [], "greedy": [], "number": []}
    for path in sorted(LABELS.glob("*.json")):
        spec = json.loads(path.read_text())
        old, new = spec["old"], spec["new"]
        pairs = [tuple(pair) for pair in spec["pairs"]]
        args = (pairs, spec["unmatched_old"], spec["unmatched_new"])
        ours = library.alignment(old, new).key_map(library.items(old), library.items(new))
        scores = {
            "ours": precision_recall(ours, *args),
            "greedy": precision_recall(greedy_map(reader, old, new), *args),
            "number": precision_recall(same_number_map(reader, old, new), *args),
        }
        cells = [f"{old} -> {new}", len(pairs) + len(args[1]) + len(args[2])]
        for name, (precision, recall) in scores.items():
            totals[name] += [precision, recall]
            cells.append(f"{precision:.2f} / {recall:.2f}")
        rows.append(cells)
    headers = ["labelled pair", "labels", "ours P / R", "greedy difflib P / R", "same number P / R"]
    return table(headers, rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", type=Path)
    options = parser.parse_args()
    if options.db is None:
        folder = Path(tempfile.mkdtemp(prefix="rules-kb-bench-"))
        options.db = folder / "all.db"
        subprocess.run(
            [RULES_KB, "ingest", str(EDITIONS), "--db", str(options.db)],
            check=True,
            capture_output=True,
        )
    print("### Diff and history speed\n")
    print(speed(options.db))
    print("\n### Alignment quality on the hand-labelled set (precision / recall)\n")
    print(quality(options.db))


if __name__ == "__main__":
    main()
