"""Draw the steps of the lineage labelled set (tests/fixtures/lineage/).

    python bench/lineage_sample.py --db PATH [--seed N] [--out DIR]

A step is a record of one edition and the edition after it; a labeller reads both raw
texts and says what the record became (or came from). This script only chooses which
records to ask about, from the stored numbers and terms; the labels are written by
people reading the raw texts, never from the stored lineage. Strata:

- ordinary: a uniformly random record of a uniformly random consecutive pair;
- renumbering: for every consecutive pair where more than 50 numbers appear or disappear,
  two numbers that disappear and two that appear;
- added_removed: records the stored lineage marks added or removed (chosen by status, so
  that those statuses are tested; the labeller never sees the status);
- glossary: glossary terms that disappear, or carry "(Obsolete)", between two editions.

Splits and merges, and the historians' chains, are found by reading, not drawn here.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sqlite3
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, default=Path("/tmp/lineage-sample"))
    options = parser.parse_args()
    rng = random.Random(options.seed)
    conn = sqlite3.connect(options.db)
    editions = [tuple(row) for row in conn.execute("SELECT id, date FROM editions ORDER BY date")]
    pairs = list(itertools.pairwise(editions))
    numbers = {
        eid: sorted(
            n for (n,) in conn.execute("SELECT number FROM rules WHERE edition_id=?", [eid])
        )
        for eid, _ in editions
    }
    terms = {
        eid: sorted(
            t for (t,) in conn.execute("SELECT term FROM glossary WHERE edition_id=?", [eid])
        )
        for eid, _ in editions
    }
    steps: dict[str, list[dict[str, str]]] = {
        k: [] for k in ("ordinary", "renumbering", "added_removed", "glossary")
    }
    for _ in range(110):
        (old_id, old), (new_id, new) = rng.choice(pairs)
        if rng.random() < 0.15 and terms[old_id]:
            steps["ordinary"].append(
                {
                    "old": old,
                    "new": new,
                    "kind": "glossary",
                    "ask": "old",
                    "key": rng.choice(terms[old_id]),
                }
            )
        else:
            steps["ordinary"].append(
                {
                    "old": old,
                    "new": new,
                    "kind": "rule",
                    "ask": "old",
                    "key": rng.choice(numbers[old_id]),
                }
            )
    for (old_id, old), (new_id, new) in pairs:
        gone = sorted(set(numbers[old_id]) - set(numbers[new_id]))
        came = sorted(set(numbers[new_id]) - set(numbers[old_id]))
        if len(gone) > 50 or len(came) > 50:
            for key in rng.sample(gone, min(2, len(gone))):
                steps["renumbering"].append(
                    {"old": old, "new": new, "kind": "rule", "ask": "old", "key": key}
                )
            for key in rng.sample(came, min(2, len(came))):
                steps["renumbering"].append(
                    {"old": old, "new": new, "kind": "rule", "ask": "new", "key": key}
                )
    dates = dict(editions)
    marked = conn.execute(
        "SELECT l.edition_id, a.previous_id, l.kind, l.seq, l.old_seq, l.status FROM lineage l"
        " JOIN alignments a ON a.edition_id = l.edition_id WHERE l.status IN ('added', 'removed')"
        " AND a.previous_id IS NOT NULL"
    ).fetchall()
    for edition_id, previous_id, kind, seq, old_seq, status in rng.sample(marked, 70):
        table, column = ("rules", "number") if kind == "rule" else ("glossary", "term")
        side, eid, position = (
            ("new", edition_id, seq) if status == "added" else ("old", previous_id, old_seq)
        )
        (key,) = conn.execute(
            f"SELECT {column} FROM {table} WHERE edition_id=? AND seq=?", [eid, position]
        ).fetchone()
        steps["added_removed"].append(
            {
                "old": dates[previous_id],
                "new": dates[edition_id],
                "kind": kind,
                "ask": side,
                "key": key,
            }
        )
    candidates = []
    for (old_id, old), (new_id, new) in pairs:
        gone = set(terms[old_id]) - set(terms[new_id])
        came = set(terms[new_id]) - set(terms[old_id])
        candidates += [(old, new, "old", t) for t in gone]
        candidates += [(old, new, "new", t) for t in came if "obsolete" in t.lower()]
    for old, new, side, term in rng.sample(candidates, min(60, len(candidates))):
        steps["glossary"].append(
            {"old": old, "new": new, "kind": "glossary", "ask": side, "key": term}
        )
    options.out.mkdir(parents=True, exist_ok=True)
    for stratum, found in steps.items():
        found.sort(key=lambda s: (s["old"], s["kind"], s["key"]))
        (options.out / f"{stratum}.json").write_text(json.dumps(found, indent=1) + "\n")
        print(stratum, len(found))


if __name__ == "__main__":
    main()
