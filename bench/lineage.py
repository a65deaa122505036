"""Benchmarks of the lineage: history, where, cite and diffs read from it, and the quality
of the alignment it stores, with baselines measured in the same run.

    python bench/lineage.py [--db PATH] [--seed N]

Without --db it ingests every shared edition into a temporary database first. Times are
of fresh `rules-kb` processes (wall and CPU of the child), against a cold
`rules-kb rule 702.19` measured in the same run. Prints markdown tables; nothing here
fails when a target is missed: the table says so.
"""

from __future__ import annotations

import argparse
import difflib
import json
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import common  # noqa: E402
from common import compiled, table, verdict  # noqa: E402

import rules_kb  # noqa: E402
from rules_kb.ingest.align import Item, precision_recall  # noqa: E402
from rules_kb.read.diff import Library  # noqa: E402
from rules_kb.read.query import Reader  # noqa: E402

if TYPE_CHECKING:
    from collections.abc import Iterable

    from tests.ingest.lineage_labels import Score

EDITIONS = REPO.parent / "shared" / "cr" / "editions"
LABELS = REPO / "tests" / "fixtures" / "alignment"
#: The blind samples in the order they were drawn, each with the ordinal its table names.
BLIND_SAMPLES = tuple(
    (ordinal, REPO / "tests" / "fixtures" / "lineage" / folder)
    for ordinal, folder in [("", "blind"), ("second ", "blind2"), ("third ", "blind3"),
                            ("fourth ", "blind4"), ("fifth ", "blind5"), ("sixth ", "blind6"),
                            ("seventh ", "blind7"), ("eighth ", "blind8"),
                            ("ninth ", "blind9"), ("tenth ", "blind10"),
                            ("eleventh ", "blind11"), ("twelfth ", "blind12"),
                            ("thirteenth ", "blind13"), ("fourteenth ", "blind14"),
                            ("fifteenth ", "blind15"), ("sixteenth ", "blind16"),
                            ("seventeenth ", "blind17"), ("eighteenth ", "blind18"),
                            ("nineteenth ", "blind19"), ("twentieth ", "blind20"),
                            ("twenty-first ", "blind21"), ("twenty-second ", "blind22"),
                            ("twenty-third ", "blind23"), ("twenty-fourth ", "blind24"),
                            ("twenty-fifth ", "blind25"), ("twenty-sixth ", "blind26"),
                            ("twenty-seventh ", "blind27"), ("twenty-eighth ", "blind28"),
                            ("twenty-ninth ", "blind29"), ("thirtieth ", "blind30"),
                            ("thirty-first ", "blind31"), ("thirty-second ", "blind32"),
                            ("thirty-third ", "blind33"),
                            ("thirty-fourth ", "blind34"),
                            ("thirty-fifth ", "blind35"),
                            ("thirty-sixth ", "blind36"),
                            ("thirty-seventh ", "blind37"),
                            ("thirty-eighth ", "blind38"),
                            ("thirty-ninth ", "blind39"),
                            ("fortieth ", "blind40"),
                            ("forty-first ", "blind41"),
                            ("forty-second ", "blind42"),
                            ("forty-third ", "blind43"),
                            ("forty-fourth ", "blind44"),
                            ("forty-fifth ", "blind45"),
                            ("forty-sixth ", "blind46"),
                            ("forty-seventh ", "blind47"),
                            ("forty-eighth ", "blind48"),
                            ("forty-ninth ", "blind49"),
                            ("fiftieth ", "blind50"),
                            ("fifty-first ", "blind51"),
                            ("fifty-second ", "blind52"),
                            ("fifty-third ", "blind53"),
                            ("fifty-fourth ", "blind54"),
                            ("fifty-fifth ", "blind55"),
                            ("fifty-sixth ", "blind56"),
                            ("fifty-seventh ", "blind57"),
                            ("fifty-eighth ", "blind58"),
                            ("fifty-ninth ", "blind59"),
                            ("sixtieth ", "blind60"),
                            ("sixty-first ", "blind61"),
                            ("sixty-second ", "blind62"),
                            ("sixty-third ", "blind63"),
                            ("sixty-fourth ", "blind64"),
                            ("sixty-fifth ", "blind65"),
                            ("sixty-sixth ", "blind66"),
                            ("sixty-seventh ", "blind67"),
                            ("sixty-eighth ", "blind68"),
                            ("sixty-ninth ", "blind69"),
                            ("seventieth ", "blind70"),
                            ("seventy-first ", "blind71"),
                            ("seventy-second ", "blind72"),
                            ("seventy-third ", "blind73"),
                            ("seventy-fourth ", "blind74"),
                            ("seventy-fifth ", "blind75"),
                            ("seventy-sixth ", "blind76")]
)  # fmt: skip
THIRD_READER = REPO / "tests" / "fixtures" / "lineage" / "third_reader"
SECOND_READER = REPO / "tests" / "fixtures" / "lineage" / "second_reader"
LOW_CONFIDENCE = REPO / "tests" / "fixtures" / "lineage" / "low_confidence"
ARTICLE = REPO / "tests" / "fixtures" / "cite" / "article-2010.md"
RULES_KB = str(Path(sys.executable).parent / "rules-kb")
MODERN = ("2026-06-19", "2026-08-07")
OVERHAUL = ("2009-05-01", "2009-07-11")
HISTORY_RATIO = 3.0
HISTORY_MAX_S = 1.0


def run(db: Path, *args: str) -> tuple[float, float]:
    """(wall, CPU) seconds of one fresh `rules-kb` process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([RULES_KB, *args, "--db", str(db)], check=True, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def histories(db: Path, seed: int) -> str:
    """30 random current rules and subrules and 10 random glossary terms, each a cold
    process, interleaved with cold `rule 702.19` lookups."""
    kb = rules_kb.open(db)
    contents = kb.contents()
    rng = random.Random(seed)
    numbers = [r.number for r in contents.rules() if r.kind in {"rule", "subrule"}]
    queries = rng.sample(numbers, 30) + [e.term for e in rng.sample(contents.glossary, 10)]
    rows, baseline, times = [], [], []
    for query in queries:
        baseline.append(run(db, "rule", "702.19", "--json")[1])
        wall, cpu = run(db, "history", query, "--json")
        times.append((query, wall, cpu))
    base = statistics.median(baseline)
    median = statistics.median(cpu for _, _, cpu in times)
    worst = max(times, key=lambda item: item[1])
    rows = [
        ["cold `rule 702.19` (baseline)", f"{base * 1000:.0f} ms", "", "", ""],
        [
            f"`history` of {len(queries)} random records (median CPU)",
            f"{median * 1000:.0f} ms",
            f"{median / base:.2f}x",
            f"≤ {HISTORY_RATIO:g}x",
            verdict(median / base <= HISTORY_RATIO),
        ],
        [
            f"slowest: `history {worst[0]}` (wall)",
            f"{worst[1] * 1000:.0f} ms",
            "",
            f"≤ {HISTORY_MAX_S:g} s",
            verdict(worst[1] <= HISTORY_MAX_S),
        ],
    ]
    return table(["task", "time", "ratio to baseline", "target", "met"], rows)


def commands(db: Path) -> str:
    """Diffs (stored lineage for neighbours, aligned directly otherwise), where, cite."""
    rows = []
    base = min(run(db, "rule", "702.19", "--json")[1] for _ in range(3))
    for label, args, target in (
        ("diff, consecutive modern editions", ["diff", *MODERN, "--json"], 0.3),
        ("diff, 2009-05-01 -> 2009-07-11 (stored)", ["diff", *OVERHAUL, "--json"], 1.5),
        (
            "diff, 2013-07-13 -> 2026-08-07 (aligned now)",
            ["diff", "2013-07-13", "2026-08-07"],
            None,
        ),
        ("where 702.19 --to 2009-05-01", ["where", "702.19", "--to", "2009-05-01", "--json"], None),
        ("cite, a 2010 article", ["cite", str(ARTICLE), "--as-of", "2010-06-18", "--json"], None),
    ):
        wall, cpu = min(run(db, *args) for _ in range(3))
        rows.append(
            [
                label,
                f"{wall:.2f}",
                f"{cpu:.2f}",
                f"{cpu / base:.1f}x",
                f"{target:g}" if target else "",
                verdict(wall <= target) if target else "",
            ]
        )
    headers = ["process", "wall (s)", "CPU (s)", "CPU / cold rule", "target (s)", "met"]
    return table(headers, rows)


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


def quality(db: Path) -> str:
    """Precision and recall of the stored lineage on the labelled pairs, with baselines."""
    reader = Reader(db)
    library = Library(reader)
    rows = []
    sums = {"ours": [0, 0, 0], "greedy": [0, 0, 0], "number": [0, 0, 0]}
    for path in sorted(LABELS.glob("*_*.json")):
        spec = json.loads(path.read_text())
        old, new = spec["old"], spec["new"]
        pairs = [tuple(pair) for pair in spec["pairs"]]
        args = (pairs, spec["unmatched_old"], spec["unmatched_new"])
        stored = library.alignment(old, new).key_map(library.items(old), library.items(new))
        scores = {
            "ours": precision_recall(stored, *args),
            "greedy": precision_recall(greedy_map(reader, old, new), *args),
            "number": precision_recall(same_number_map(reader, old, new), *args),
        }
        cells: list[object] = [
            path.stem.replace("_", " → ", 1),
            len(pairs) + len(args[1]) + len(args[2]),
        ]
        for name, (precision, recall) in scores.items():
            cells.append(f"{precision:.2f} / {recall:.2f}")
            sums[name][0] += precision
            sums[name][1] += recall
            sums[name][2] += 1
        rows.append(cells)
    glossary = _glossary_quality(library)
    rows.append(
        [
            f"glossary renames ({glossary[3]} labelled)",
            glossary[2],
            f"{glossary[0]:.2f} / {glossary[1]:.2f}",
            "",
            "",
        ]
    )
    mean = {name: (p / n, r / n) for name, (p, r, n) in sums.items()}
    rows.append(["**mean**", "", *(f"{mean[name][0]:.2f} / {mean[name][1]:.2f}" for name in sums)])
    headers = [
        "labelled pair",
        "labels",
        "stored lineage P / R",
        "greedy difflib P / R",
        "same number P / R",
    ]
    return table(headers, rows)


def _glossary_quality(library: Library) -> tuple[float, float, int, int]:
    spec = json.loads((LABELS / "glossary.json").read_text())
    correct = false = 0
    for old, old_term, new, new_term in spec["pairs"]:
        found = library.alignment(old, new, glossary=True).key_map(
            library.items(old, glossary=True), library.items(new, glossary=True)
        )
        if found.get(old_term) == new_term:
            correct += 1
        elif found.get(old_term) is not None:
            false += 1
    for old, new, term in spec["unmatched_old"]:
        before = library.items(old, glossary=True)
        after = library.items(new, glossary=True)
        false += term in library.alignment(old, new, glossary=True).key_map(before, after)
    labels = len(spec["pairs"]) + len(spec["unmatched_old"]) + len(spec["unmatched_new"])
    return correct / (correct + false), correct / len(spec["pairs"]), labels, len(spec["pairs"])


def _strata(names: Iterable[str]) -> list[str]:
    """A table's strata in row order: "all" first, then the others by name."""
    return ["all", *sorted(name for name in names if name != "all")]


def _stratum_cell(name: str) -> str:
    return f"**{name}**" if name == "all" else name


def _score_cells(name: str, found: Score) -> list[object]:
    """A row's stratum, steps, counterpart precision and recall, and statuses right."""
    return [_stratum_cell(name), found.steps, f"{found.precision:.3f}", f"{found.recall:.3f}",
            f"{found.status_share:.3f}"]  # fmt: skip


def labelled(db: Path, *folders: Path, by_confidence: bool = False) -> str:
    """The stored lineage on the stratified labelled steps (tests/fixtures/lineage/, or
    other `folders` of them, pooled), counterparts and statuses, by stratum (or by the
    confidence its reader gave each label), against the targets."""
    from dataclasses import replace

    from tests.ingest.lineage_labels import FOLDER, score, steps
    from tests.ingest.test_lineage_labels import _answer

    reader = Reader(db)
    library = Library(reader)
    chosen = [step for folder in folders or (FOLDER,) for step in steps(folder)]
    if by_confidence:
        chosen = [replace(step, stratum=f"{step.confidence} confidence") for step in chosen]
    scores, wrong = score(chosen, lambda step: _answer(library, step))
    rows = []
    for name in _strata(scores):
        found = scores[name]
        target = 0.99 if name == "all" or by_confidence else 0.97
        met = min(found.precision, found.recall) >= target
        rows.append([*_score_cells(name, found), f"≥ {target}", verdict(met)])
    headers = ["label" if by_confidence else "stratum", "steps", "counterpart P",
               "counterpart R", "status right", "target P, R", "met"]  # fmt: skip
    lines = [table(headers, rows), "", f"{len(wrong)} steps answered otherwise than labelled."]
    return "\n".join(lines)


def third_reader(db: Path) -> str:
    """A third reader's labels (tests/fixtures/lineage/third_reader/) against the first
    readers' and rules-kb's: how far two readers of the raw texts agree on the hard steps,
    the ceiling under any score of the program there."""
    from tests.ingest.lineage_labels import Step
    from tests.ingest.test_lineage_labels import _answer

    rows = json.loads((THIRD_READER / "steps.json").read_text(encoding="utf-8"))
    library = Library(Reader(db))

    def pair(answer: dict[str, str | None]) -> tuple[str | None, str | None]:
        return answer["counterpart"], answer["status"]

    groups: dict[str, list[int]] = {"agreed": [0, 0, 0, 0], "disagreed": [0, 0, 0, 0]}
    for row in rows:
        label, third, then = pair(row["label"]), pair(row["third"]), pair(row["rules_kb"])
        step = Step(row["stratum"], row["old"], row["new"], row["kind"], row["ask"],
                    row["key"], *label)  # fmt: skip
        said = _answer(library, step)
        now = (said.counterpart, said.status) if said else (None, None)
        counts = groups["agreed" if then == label else "disagreed"]
        counts[0] += 1
        counts[1] += third == label
        counts[2] += third == then
        counts[3] += now == label
    headers = ["steps (rules-kb when drawn against the first label)", "steps",
               "third reader = first label", "third reader = rules-kb then",
               "rules-kb now = first label"]  # fmt: skip
    body = [
        [name, steps, f"{first} ({first / steps:.0%})", f"{then} ({then / steps:.0%})", now]
        for name, (steps, first, then, now) in groups.items()
    ]
    return table(headers, body)


def second_reader(db: Path, sample: Path) -> str:
    """A second reading of a whole blind sample (tests/fixtures/lineage/second_reader/
    <sample>.json) against the first: how often two readers of the raw texts agree on
    steps drawn at random, by stratum, and rules-kb against each reading and against the
    steps both readings agree on."""
    from tests.ingest.lineage_labels import Step
    from tests.ingest.test_lineage_labels import _answer

    def which(row: dict[str, str]) -> tuple[str, ...]:
        return row["old"], row["new"], row["kind"], row["ask"], row["key"]

    first = {which(row): row for path in sorted(sample.glob("*.json"))
             for row in json.loads(path.read_text(encoding="utf-8"))}  # fmt: skip
    reading = SECOND_READER / f"{sample.name}.json"
    second = json.loads(reading.read_text(encoding="utf-8"))
    library = Library(Reader(db))
    counts: dict[str, list[int]] = {}
    for row in second:
        label = first[which(row)]
        one = (label["counterpart"], label["status"])
        two = (row["counterpart"], row["status"])
        step = Step(label["stratum"], *which(row), *one)
        said = _answer(library, step)
        ours = (said.counterpart, said.status) if said else (None, None)
        for name in ("all", label["stratum"]):
            found = counts.setdefault(name, [0] * 7)
            found[0] += 1
            found[1] += one[0] == two[0]
            found[2] += one == two
            found[3] += ours == one
            found[4] += ours == two
            found[5] += one == two
            found[6] += one == two and ours == one
    headers = ["stratum", "steps", "readers agree: counterpart", "readers agree: both",
               "rules-kb = first", "rules-kb = second",
               "rules-kb on the steps both agree on"]  # fmt: skip
    body = [
        [_stratum_cell(name), n, f"{cp / n:.3f}", f"{both / n:.3f}", f"{one / n:.3f}",
         f"{two / n:.3f}", f"{right / agreed:.3f} of {agreed}"]
        for name in _strata(counts)
        for n, cp, both, one, two, agreed, right in [counts[name]]
    ]  # fmt: skip
    return table(headers, body)


def low_confidence(db: Path) -> str:
    """The blind steps their first readers marked low confidence, read twice more
    (tests/fixtures/lineage/low_confidence/readings.json): how often three readings
    decide a step (`majority`), how often they keep the first label, and rules-kb against
    the first label and against the majority; then all the blind samples pooled with
    those labels decided by the majority where it decides."""
    from dataclasses import replace

    from tests.ingest.lineage_labels import majority, score, steps
    from tests.ingest.test_lineage_labels import _answer

    # Each sample's steps by (sample, old, new, kind, ask, key); a sample may hold one
    # step twice, drawn in two strata.
    pooled = [
        ((folder.name, step.old, step.new, step.kind, step.ask, step.key), step)
        for _, folder in BLIND_SAMPLES
        for step in steps(folder)
    ]
    blind = dict(pooled)
    rows = json.loads((LOW_CONFIDENCE / "readings.json").read_text(encoding="utf-8"))
    library = Library(Reader(db))
    decided: dict[tuple[str, ...], tuple[str | None, str]] = {}
    counts: dict[str, list[int]] = {}
    for row in rows:
        which = (row["sample"], row["old"], row["new"], row["kind"], row["ask"], row["key"])
        first = (row["label"]["counterpart"], row["label"]["status"])
        decision = majority([row["label"], row["second"], row["third"]], row["kind"])
        said = _answer(library, blind[which])
        ours = (said.counterpart, said.status) if said else (None, None)
        if decision is not None:
            decided[which] = decision
        for name in ("all", row["stratum"]):
            found = counts.setdefault(name, [0] * 5)
            found[0] += 1
            found[1] += decision is not None
            found[2] += decision == first
            found[3] += ours == first
            found[4] += decision is not None and ours == decision
    headers = ["stratum", "steps", "three readings decide", "they keep the first label",
               "rules-kb = first label", "rules-kb = the majority where it decides"]  # fmt: skip
    body = [
        [_stratum_cell(name), n, f"{agreed} ({agreed / n:.0%})", f"{kept} ({kept / n:.0%})",
         f"{first} ({first / n:.0%})",
         f"{right} of {agreed} ({right / agreed:.0%})" if agreed else ""]
        for name in _strata(counts)
        for n, agreed, kept, first, right in [counts[name]]
    ]  # fmt: skip
    chosen = [
        replace(step, counterpart=decided[which][0], status=decided[which][1])
        if which in decided
        else step
        for which, step in pooled
    ]
    scores, wrong = score(chosen, lambda step: _answer(library, step))
    pooled_rows = [_score_cells(name, scores[name]) for name in _strata(scores)]
    pooled_headers = ["stratum", "steps", "counterpart P", "counterpart R", "status right"]
    return "\n".join(
        [
            table(headers, body),
            "",
            f"All {len(BLIND_SAMPLES)} blind samples pooled, each label read again decided by"
            " the majority of its three readings where it decides:",
            "",
            table(pooled_headers, pooled_rows),
            "",
            f"{len(wrong)} steps answered otherwise than labelled.",
        ]
    )


def chain_table(db: Path) -> str:
    """The historians' chains, followed through the stored lineage."""
    from rules_kb.read.history import Lineage
    from tests.ingest.lineage_labels import chains, stored_segments

    lineage = Lineage(Reader(db))
    rows = []
    for chain in chains():
        agrees = stored_segments(lineage, chain) == chain.segments
        shown = " ← ".join(key for _, _, key in reversed(chain.segments))
        rows.append([chain.name, shown, verdict(agrees)])
    return table(["chain", "labelled (newest first)", "stored lineage agrees"], rows)


def storage(db: Path) -> str:
    import sqlite3

    conn = sqlite3.connect(db)
    try:
        rows = conn.execute("SELECT count(*) FROM lineage").fetchone()[0]
        records = conn.execute(
            "SELECT (SELECT count(*) FROM rules) + (SELECT count(*) FROM glossary)"
        ).fetchone()[0]
        size = conn.execute(
            "SELECT sum(pgsize) FROM dbstat WHERE name IN"
            " ('lineage', 'lineage_by_new', 'lineage_by_old', 'alignments')"
        ).fetchone()[0]
    except sqlite3.OperationalError:
        size = None
    finally:
        conn.close()
    shown = f"{size / 1024 / 1024:.1f} MB" if size else "(dbstat not compiled in)"
    return table(
        ["records (rules + glossary, all editions)", "lineage rows stored", "share", "on disk"],
        [[f"{records:,}", f"{rows:,}", f"{rows / records:.1%}", shown]],
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", type=Path)
    parser.add_argument("--seed", type=int, default=9)
    options = parser.parse_args()
    compiled()
    if options.db is None:
        folder = Path(tempfile.mkdtemp(prefix="rules-kb-bench-"))
        options.db = folder / "all.db"
        subprocess.run(
            [RULES_KB, "ingest", str(EDITIONS), "--db", str(options.db), "--no-index"],
            check=True,
            capture_output=True,
        )
    print(f"Python {sys.version.split()[0]}, seed {options.seed}\n")
    print("#### History of random records (fresh processes, CPU)\n")
    print(histories(options.db, options.seed))
    print("\n#### Diffs, where and cite (fresh processes, best of 3)\n")
    print(commands(options.db))
    print("\n#### Lineage on the stratified labelled steps (tests/fixtures/lineage/)\n")
    print(labelled(options.db))
    for ordinal, folder in BLIND_SAMPLES:
        where = f"tests/fixtures/lineage/{folder.name}/"
        print(f"\n#### Lineage on the {ordinal}blind sample ({where})\n")
        print(labelled(options.db, folder))
    print(f"\n#### Lineage on the {len(BLIND_SAMPLES)} blind samples pooled, as they score now\n")
    print(labelled(options.db, *(folder for _, folder in BLIND_SAMPLES)))
    print(f"\n#### The {len(BLIND_SAMPLES)} blind samples pooled, by their readers' confidence\n")
    print(labelled(options.db, *(folder for _, folder in BLIND_SAMPLES), by_confidence=True))
    for ordinal, folder in BLIND_SAMPLES:
        if (SECOND_READER / f"{folder.name}.json").is_file():
            where = f"tests/fixtures/lineage/second_reader/{folder.name}.json"
            print(f"\n#### Two readings of the {ordinal}blind sample ({where})\n")
            print(second_reader(options.db, folder))
    where = "tests/fixtures/lineage/low_confidence/"
    print(f"\n#### The blind labels marked low confidence, read twice more ({where})\n")
    print(low_confidence(options.db))
    print("\n#### A third reader on 80 hard steps (tests/fixtures/lineage/third_reader/)\n")
    print(third_reader(options.db))
    print("\n#### The historians' chains\n")
    print(chain_table(options.db))
    print("\n#### Alignment quality on the earlier hand-labelled pairs (precision / recall)\n")
    print(quality(options.db))
    print("\n#### Storage\n")
    print(storage(options.db))


if __name__ == "__main__":
    sys.exit(common.run(main, "lineage.py"))
