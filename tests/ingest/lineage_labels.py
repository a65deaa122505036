"""The labelled lineage steps (tests/fixtures/lineage/) and how an alignment is scored
against them; shared by tests/ingest/test_lineage_labels.py and bench/lineage.py.

A step names a record of one edition (`ask` = "old") or of the next (`ask` = "new") and
says, from a reading of the raw texts, which record on the other side continues it
(`counterpart`, or null) and what happened (`status`). Counterparts are scored as
precision and recall of the non-null answers (a wrong or missing counterpart counts
against both, a counterpart given where the label has none against precision); statuses
as the share of steps whose status is right.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from rules_kb.ingest.align import Alignment, Item
from rules_kb.ingest.lineage import Kind, status
from rules_kb.ingest.models import is_number
from tests.conftest import FIXTURES

if TYPE_CHECKING:
    from rules_kb.read.history import Lineage

FOLDER = FIXTURES / "lineage"
STATUSES = frozenset(
    {"same", "typography", "changed", "moved", "moved_changed", "added", "removed", "split",
     "merged"}
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Step:
    stratum: str
    old: str
    new: str
    kind: str
    ask: str
    key: str
    counterpart: str | None
    status: str
    #: The reader's "high" or "low" ("low when reasonable readers could differ"), where
    #: the label carries one.
    confidence: str | None = None


def steps(folder: Path = FOLDER) -> list[Step]:
    """Every labelled step (chains are scored apart)."""
    found = []
    for path in sorted(folder.glob("*.json")):
        if path.stem == "chains":
            continue
        for row in json.loads(path.read_text()):
            if row.get("status") not in STATUSES:
                continue
            found.append(
                Step(row["stratum"], row["old"], row["new"], row["kind"], row["ask"], row["key"],
                     row["counterpart"], row["status"], row.get("confidence"))
            )  # fmt: skip
    return found


@dataclass(frozen=True, slots=True)
class Said:
    """What an alignment says about one step."""

    counterpart: str | None
    status: str


def said(
    step: Step,
    old: tuple[Item, ...],
    new: tuple[Item, ...],
    alignment: Alignment,
    load: Callable[[list[int]], Mapping[int, str]],
    renumbered: Mapping[str, str] | None = None,
    went: Mapping[str, frozenset[str]] | None = None,
) -> Said | None:
    """The counterpart and status an alignment gives a step; None if the step's record is
    not in the edition (a number printed wrong, read otherwise by the parser).
    `renumbered` maps the old edition's rule numbers to the new ones and `went` to every
    rule they went on in, as at ingest."""
    mine, _other = (old, new) if step.ask == "old" else (new, old)
    index = next((i for i, item in enumerate(mine) if item.key == step.key), None)
    if index is None:
        return None
    if step.ask == "old":
        pairs = dict(alignment.pairs)
        if index in pairs:
            j = pairs[index]
            found = status(
                old[index].key,
                old[index].text_id,
                new[j].key,
                new[j].text_id,
                load,
                renumbered,
                went,
            )
            return Said(new[j].key, found)
        merged = dict(alignment.merged)
        if index in merged:
            return Said(new[merged[index]].key, "merged")
        return Said(None, "removed")
    back = {j: i for i, j in alignment.pairs}
    if index in back:
        i = back[index]
        found = status(
            old[i].key, old[i].text_id, new[index].key, new[index].text_id, load, renumbered, went
        )
        return Said(old[i].key, found)
    split = {j: i for i, j in alignment.split}
    if index in split:
        return Said(old[split[index]].key, "split")
    return Said(None, "added")


@dataclass(slots=True)
class Score:
    """Counts for one stratum."""

    right: int = 0
    given: int = 0
    labelled: int = 0
    statuses_right: int = 0
    steps: int = 0
    missing: int = 0

    @property
    def precision(self) -> float:
        return self.right / self.given if self.given else 1.0

    @property
    def recall(self) -> float:
        return self.right / self.labelled if self.labelled else 1.0

    @property
    def status_share(self) -> float:
        return self.statuses_right / self.steps if self.steps else 1.0

    def add(self, step: Step, found: Said | None) -> None:
        if found is None:
            self.missing += 1
            return
        self.steps += 1
        if found.counterpart is not None:
            self.given += 1
        if step.counterpart is not None:
            self.labelled += 1
            if found.counterpart == step.counterpart:
                self.right += 1
        self.statuses_right += found.status == step.status


def score(
    labelled: Iterable[Step],
    answer: Callable[[Step], Said | None],
) -> tuple[dict[str, Score], list[tuple[Step, Said | None]]]:
    """Scores by stratum (and "all"), and the steps answered wrong."""
    scores: dict[str, Score] = {"all": Score()}
    wrong: list[tuple[Step, Said | None]] = []
    for step in labelled:
        found = answer(step)
        scores.setdefault(step.stratum, Score()).add(step, found)
        scores["all"].add(step, found)
        if found is None or found.counterpart != step.counterpart or found.status != step.status:
            wrong.append((step, found))
    return scores, wrong


@dataclass(frozen=True, slots=True)
class Chain:
    """A line of descent historians trace, as labelled: (first, last, key) segments,
    oldest first, starting from one record."""

    name: str
    edition: str
    kind: str
    key: str
    segments: tuple[tuple[str, str, str], ...]
    forward: bool


def chains(folder: Path = FOLDER) -> list[Chain]:
    """The labelled chains."""
    found = []
    for row in json.loads((folder / "chains.json").read_text()):
        start = row["start"]
        found.append(
            Chain(row["chain"], start["edition"], start["kind"], start["key"],
                  tuple((s["from"], s["to"], s["key"]) for s in row["segments"]),
                  row.get("direction") == "forward")
        )  # fmt: skip
    return found


def segments(
    keys_by_date: Iterable[tuple[str, str]], first: str, last: str
) -> tuple[tuple[str, str, str], ...]:
    """(date, key) of a line's records, oldest first, as segments within [first, last]."""
    runs: list[list[str]] = []
    for day, key in keys_by_date:
        if not first <= day <= last:
            continue
        if runs and runs[-1][2] == key:
            runs[-1][1] = day
        else:
            runs.append([day, day, key])
    return tuple((a, b, c) for a, b, c in runs)


def stored_segments(lineage: Lineage, chain: Chain) -> tuple[tuple[str, str, str], ...]:
    """The segments of a chain's line as the stored lineage follows it, over the span
    the chain was labelled (from the first edition on, unless traced forwards); () when
    its starting record is not there."""
    reader = lineage.reader
    kind: Kind = "rule" if chain.kind == "rule" else "glossary"
    seq = (
        lineage.rule_seq(chain.key, chain.edition)
        if kind == "rule"
        else lineage.term_seq(chain.key, chain.edition)
    )
    if seq is None:
        return ()
    date_of = {reader.edition_id(day): day for day in reader.dates()}
    line = lineage.line(kind, chain.edition, seq)
    first = chain.segments[0][0] if chain.forward else reader.dates()[0]
    return segments([(date_of[n.edition_id], n.key) for n in line], first, chain.segments[-1][1])


def majority(
    readings: Iterable[Mapping[str, str | None]], kind: str
) -> tuple[str | None, str] | None:
    """The (counterpart, status) that most of several readings of one step give, or None
    where they do not agree enough (the first label then stands).

    A counterpart is decided when at least two readings name it; a reading naming a
    record of another kind (a glossary entry for a rule) names none the lineage can hold,
    which links rules to rules and entries to entries, so it does not count. The status is
    the one at least two readings give, else that of the first reading naming the decided
    counterpart.
    """
    rows = list(readings)

    def of_kind(counterpart: str | None) -> bool:
        return counterpart is None or is_number(counterpart) == (kind == "rule")

    named = [row["counterpart"] for row in rows if of_kind(row["counterpart"])]
    decided = [c for c in dict.fromkeys(named) if named.count(c) >= 2]
    if len(decided) != 1:
        return None
    counterpart = decided[0]
    statuses = [str(row["status"]) for row in rows]
    agreed = [s for s in dict.fromkeys(statuses) if statuses.count(s) >= 2]
    if agreed:
        return counterpart, agreed[0]
    first = next(row for row in rows if row["counterpart"] == counterpart)
    return counterpart, str(first["status"])
