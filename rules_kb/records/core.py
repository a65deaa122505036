"""The records of lookups, references, `where`, citations and answers (re-exported by
`rules_kb.records`)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from rules_kb.records.shape import Record

__all__ = [
    "STALE",
    "STALE_QUOTES",
    "Anomaly",
    "Branch",
    "CheckReport",
    "Citation",
    "CitationReport",
    "CitationStatus",
    "Contents",
    "Dangling",
    "Edge",
    "EditionRecord",
    "GlossaryRecord",
    "InForce",
    "Link",
    "QuoteStatus",
    "Redirect",
    "References",
    "RuleKind",
    "RuleRecord",
    "SetRelease",
    "Step",
    "Target",
    "Where",
    "WhereStatus",
    "branch_notes",
]

RuleKind = Literal["section", "chapter", "rule", "subrule"]


@dataclass(frozen=True, slots=True)
class InForce(Record):
    """When an edition was in force: from its date until the next edition's, or still."""

    JSON_NAMES: ClassVar[Mapping[str, str]] = {"since": "from"}

    since: str
    """The edition's date."""
    until: str | None
    """The date of the edition that replaced it; None for the latest."""

    @classmethod
    def of(cls, edition: str, dates: Sequence[str]) -> InForce:
        """When `edition` was in force, among stored `dates` (sorted, oldest first)."""
        from bisect import bisect_right

        later = bisect_right(dates, edition)
        return cls(edition, dates[later] if later < len(dates) else None)

    def __str__(self) -> str:
        """ "the latest, in force now" or "in force until 2019-05-03"."""
        return "the latest, in force now" if self.until is None else f"in force until {self.until}"


@dataclass(frozen=True, slots=True)
class RuleRecord:
    """A rule of one edition with its examples, its subrules (nested) and what it cites."""

    edition: str
    """The edition's effective date."""
    number: str
    """As printed: "702.19", "702.19b", "702", "7"."""
    kind: RuleKind
    """section, chapter, rule or subrule."""
    text: str
    """The text after the number (a heading's title for sections and chapters)."""
    parent: str | None
    """The number of the enclosing node; None for sections."""
    examples: tuple[str, ...] = ()
    """The example texts, without the leading "Example: "."""
    cites: tuple[str, ...] = ()
    """Numbers (and glossary terms) its text and examples cite, in order."""
    children: tuple[RuleRecord, ...] = ()
    """Its subrules (or a chapter's rules), in document order."""
    previous: str | None = None
    """The sibling before it; None for the first."""
    next: str | None = None
    """The sibling after it; None for the last."""
    seq: int = 0
    """Its position in the edition."""
    occurrence: int = 1
    """Which record with this number it is (1 unless the edition prints the number twice)."""
    repeats: tuple[RuleRecord, ...] = ()
    """The other records the edition prints with the same number, in document order."""
    in_force: InForce | None = None
    """When its edition was in force (set on the records a lookup answers with)."""

    def walk(self) -> Iterator[RuleRecord]:
        """This rule and all its descendants, in document order."""
        yield self
        for child in self.children:
            yield from child.walk()

    def as_json(self) -> dict[str, Any]:
        """The SPEC shape of `rule --json`."""
        document = {"edition": self.edition, **self._node()}
        document["previous"] = self.previous
        document["next"] = self.next
        if self.in_force is not None:
            document["in_force"] = self.in_force.as_json()
        if self.repeats:
            document["occurrence"] = self.occurrence
            document["occurrences"] = len(self.repeats) + 1
            document["repeats"] = [
                {
                    **repeat._node(),
                    "occurrence": repeat.occurrence,
                    "previous": repeat.previous,
                    "next": repeat.next,
                }
                for repeat in self.repeats
            ]
        return document

    def _node(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "kind": self.kind,
            "text": self.text,
            "parent": self.parent,
            "examples": list(self.examples),
            "cites": list(self.cites),
            "children": [child._node() for child in self.children],
        }


@dataclass(frozen=True, slots=True)
class GlossaryRecord(Record):
    """A glossary entry of one edition."""

    JSON_HIDDEN: ClassVar[frozenset[str]] = frozenset({"query"})
    JSON_IF_SET: ClassVar[frozenset[str]] = frozenset({"see", "in_force"})

    edition: str
    """The edition's effective date."""
    term: str
    """The heading as printed ("Kicker, Kicked")."""
    text: str
    """The definition; numbered senses and paragraphs separated by newlines."""
    rules: tuple[str, ...] = ()
    """The rule numbers the definition cites."""
    see: tuple[GlossaryRecord, ...] = ()
    """The entries its "See X." sends the reader to, followed (one level)."""
    query: str = ""
    """What was asked for."""
    match: Literal["exact", "name", "fuzzy", "rule"] = "exact"
    """How the query was matched: the heading, one of its names, a near spelling."""
    in_force: InForce | None = None
    """When its edition was in force (set on the entry a lookup answers with)."""


@dataclass(frozen=True, slots=True)
class SetRelease(Record):
    """The set release an edition accompanies."""

    code: str
    """The set code, "BRO"."""
    name: str
    """The set's name, "The Brothers' War"."""


@dataclass(frozen=True, slots=True)
class EditionRecord(Record):
    """One stored edition with its counts and warnings."""

    edition: str
    """The effective date."""
    title: str
    """The document's first line."""
    rules: int
    """Rule and subrule rows."""
    examples: int
    """Examples."""
    glossary: int
    """Glossary entries."""
    sha256: str
    """Digest of the file as read."""
    source: str
    """The file name it was read from."""
    encoding: str
    """The encoding its bytes were read with."""
    body_lines: int
    """Non-blank lines after the table of contents."""
    unparsed: int
    """Body lines no record took (0 for every shared edition)."""
    warnings: tuple[str, ...]
    """Damage and oddities found while reading, one sentence each."""
    set: SetRelease | None = None
    """The set release it accompanies, from the catalogue."""


@dataclass(frozen=True, slots=True)
class Edge(Record):
    """One node on the far side of a rule's references, with the first reference to it."""

    JSON_HIDDEN: ClassVar[frozenset[str]] = frozenset({"citing"})

    kind: Literal["rule", "glossary"]
    """A numbered node, or a glossary entry."""
    key: str
    """Its number, or its term."""
    exists: bool
    """Whether it is in the edition."""
    source: Literal["rule", "example", "glossary"]
    """Where the citing text is: a rule's text, one of its examples, a definition."""
    raw: str
    """The reference as printed, "rules 603.7d–f"."""
    snippet: str
    """The reference with some of the citing text around it, on one line."""
    citing: str = ""
    """For `cited_by`: the number (or term) of the citing rule or entry."""

    def as_json(self) -> dict[str, Any]:
        """The SPEC shape of one entry of `cites` / `cited_by`: the key as "number" (null for
        a glossary entry, which has "term" too)."""
        shown = Record.as_json(self)  # (super() fails in a slotted dataclass)
        key = shown.pop("key")
        named = {"number": key if self.kind == "rule" else None}
        return {**named, **({"term": key} if self.kind == "glossary" else {}), **shown}


@dataclass(frozen=True, slots=True)
class References(Record):
    """What a rule cites and what cites it, in one edition."""

    JSON_HIDDEN: ClassVar[frozenset[str]] = frozenset({"subtree"})

    edition: str
    """The edition's effective date."""
    number: str
    """The rule asked about."""
    exists: bool
    """Whether the edition has it (a missing rule may still be cited)."""
    cites: tuple[Edge, ...]
    """What its text and examples cite."""
    cited_by: tuple[Edge, ...]
    """The rules and glossary entries that cite it."""
    subtree: tuple[str, ...] = ()
    """The numbers whose references are included: the rule and, with subrules, its subtree."""


@dataclass(frozen=True, slots=True)
class Dangling(Record):
    """A reference whose target the edition does not have."""

    JSON_NAMES: ClassVar[Mapping[str, str]] = {"source": "from", "kind": "in"}

    source: str
    """The citing rule's number or entry's term."""
    kind: Literal["rule", "example", "glossary"]
    """Where the citing text is."""
    raw: str
    """The reference as printed."""
    target: str
    """What it names."""
    target_kind: Literal["rule", "glossary"]
    """A number or a glossary term."""


@dataclass(frozen=True, slots=True)
class Anomaly(Record):
    """A numbering oddity: a gap, a duplicate, a number out of order, a skipped letter."""

    number: str
    """The number where it shows."""
    problem: str
    """What is odd, in words."""


@dataclass(frozen=True, slots=True)
class CheckReport(Record):
    """Dangling references and numbering anomalies of one edition."""

    edition: str
    """The edition's effective date."""
    references: int
    """References found."""
    resolved: int
    """References whose target exists."""
    dangling: tuple[Dangling, ...]
    """The others."""
    anomalies: tuple[Anomaly, ...]
    """Numbering oddities, in document order."""


WhereStatus = Literal["same", "changed", "moved", "removed", "not_yet", "split", "merged"]


@dataclass(frozen=True, slots=True)
class Step(Record):
    """One stretch of a rule's line of descent under one number."""

    edition: str
    """The first edition (between the two asked about) in which it had this number."""
    number: str
    """Its number (or term) from then on."""


@dataclass(frozen=True, slots=True)
class Branch:
    """A record that left a line or joined it: split off the line's record, starting a
    line of its own, or merged into it, ending its own."""

    relation: Literal["split", "merged"]
    """split: the record was split off this one; merged: it was merged into this one."""
    edition: str
    """The edition in which it happened: the first with the record split off, the first
    without the record merged."""
    key: str
    """Its number (or term): in `edition` when split off, in the edition before when
    merged."""

    def as_json(self, *, glossary: bool = False) -> dict[str, Any]:
        """The SPEC shape of one branch."""
        name = "term" if glossary else "number"
        return {"relation": self.relation, "edition": self.edition, name: self.key}


def branch_notes(branches: Sequence[Branch]) -> tuple[str, ...]:
    """Branches as `history`, `where` and the site say them, one line for each edition and
    relation: "420.5g split off it in 2001-07-23", "502.9e, 502.9f merged into it in
    2009-07-11"."""
    grouped: dict[tuple[str, str], list[str]] = {}
    for branch in branches:
        grouped.setdefault((branch.relation, branch.edition), []).append(branch.key)
    return tuple(
        f"{', '.join(keys)} {'split off it' if relation == 'split' else 'merged into it'}"
        f" in {edition}"
        for (relation, edition), keys in grouped.items()
    )


@dataclass(frozen=True, slots=True)
class Where:
    """The counterpart of one edition's rule in another edition, through the lineage."""

    from_edition: str
    """The edition the number was given for."""
    number: str
    """The number asked about."""
    to_edition: str
    """The edition looked in."""
    now: str | None
    """Its number there; None when it was removed or did not exist yet."""
    status: WhereStatus
    """same (same number and wording, typography aside), changed (same number, other
    wording), moved (another number), removed (with `removed_in`), not_yet (with
    `introduced_in`), merged
    (forwards, it was merged into another record: `via`; `now` is where that one is),
    split (backwards, it was split off another record: `via`; `now` is where that one
    was)."""
    text_changed: bool
    """Whether its wording changed on the way (typography aside)."""
    steps: tuple[Step, ...]
    """Each number it had on the way, in the direction of travel."""
    removed_in: str | None = None
    """The first edition without it, going forwards."""
    introduced_in: str | None = None
    """The first edition with it."""
    text: str = ""
    """Its text in the edition it was given for."""
    now_text: str | None = None
    """Its text in the edition looked in."""
    kind: Literal["rule", "glossary"] = "rule"
    """A rule number, or a glossary term."""
    homonym: str | None = None
    """The text of another rule that has the asked-about number in the edition looked in."""
    via: Step | None = None
    """With status merged: the record it was merged into, and the edition; with split:
    the record it was split off, and the edition that record was last in."""
    branches: tuple[Branch, ...] = ()
    """The records split off its line or merged into it between the two editions, oldest
    first ("420.5g split off it in 2001-07-23" on the way from 420.5a to 704.5a)."""

    def as_json(self) -> dict[str, Any]:
        """The SPEC shape of `where --json`."""
        name = "term" if self.kind == "glossary" else "number"
        document: dict[str, Any] = {
            "from": {"edition": self.from_edition, name: self.number},
            "to": {"edition": self.to_edition, name: self.now},
            "status": self.status,
            "text_changed": self.text_changed,
            "steps": [step.as_json() for step in self.steps],
        }
        if self.removed_in:
            document["removed_in"] = self.removed_in
        if self.introduced_in:
            document["introduced_in"] = self.introduced_in
        if self.homonym is not None:
            document["homonym"] = {"number": self.number, "text": self.homonym}
        if self.via is not None:
            document["merged_into" if self.status == "merged" else "split_from"] = (
                self.via.as_json()
            )
        if self.branches:
            glossary = self.kind == "glossary"
            document["branches"] = [branch.as_json(glossary=glossary) for branch in self.branches]
        return document

    @property
    def branch_notes(self) -> tuple[str, ...]:
        """The branches in words (`branch_notes`)."""
        return branch_notes(self.branches)


CitationStatus = Literal["current", "changed", "moved", "removed", "unknown"]
QuoteStatus = Literal["quote_ok", "quote_changed", "quote_not_found"]
#: What `cite --check` counts as a stale quotation.
STALE_QUOTES: frozenset[str] = frozenset({"quote_changed", "quote_not_found"})
#: What `cite --check` counts as stale: the number no longer leads to the rule meant.
STALE: frozenset[str] = frozenset({"moved", "removed", "unknown"})


@dataclass(frozen=True, slots=True)
class Citation(Record):
    """One CR citation found in a document, checked against the lineage."""

    JSON_HIDDEN: ClassVar[frozenset[str]] = frozenset({"start", "end", "then", "text"})
    JSON_IF_SET: ClassVar[frozenset[str]] = frozenset({"removed_in"})

    raw: str
    """The citation as written, "rule 702.17b" (a list or range is one citation per number)."""
    line: int
    """1-based line of the number in the document."""
    column: int
    """1-based column of the number."""
    number: str
    """The number cited."""
    status: CitationStatus
    """current, changed (same number, other wording), moved, removed, unknown (no such rule
    in the edition in force when the document was written)."""
    now: str | None
    """The number in the edition checked against; None when removed or unknown."""
    text_changed: bool
    """Whether the wording changed since (typography aside)."""
    start: int = 0
    """Offset of the number in the document."""
    end: int = 0
    """Offset just after the number."""
    removed_in: str | None = None
    """For removed citations: the first edition without the rule."""
    then: str = ""
    """The rule's text when the document was written."""
    text: str | None = None
    """Its text in the edition checked against."""
    quote: str | None = None
    """The quotation written next to the citation ("702.19b says “…”"), if any."""
    quote_status: QuoteStatus | None = None
    """quote_ok (the rule says it then and now), quote_changed (it said it then, not now),
    quote_not_found (it did not say it then); None without a quotation."""

    @property
    def stale(self) -> bool:
        """Whether the number no longer leads to the rule the document meant, or its
        quotation is no longer (or never was) what the rule says."""
        return self.status in STALE or self.quote_status in STALE_QUOTES

    def words(self) -> tuple[tuple[str, str], ...]:
        """How the wording changed since, word by word: ("=", kept), ("-", deleted) and
        ("+", inserted) runs; empty when it did not change."""
        if not self.text_changed or self.text is None:
            return ()
        from rules_kb.worddiff import word_diff

        return word_diff(self.then, self.text)

    def as_json(self) -> dict[str, Any]:
        """The SPEC shape of one citation; with a changed quotation, its word diff."""
        document = Record.as_json(self)  # (super() fails in a slotted dataclass)
        if self.quote_status == "quote_changed":
            document["quote_words"] = [list(op) for op in self.words()]
        return document


@dataclass(frozen=True, slots=True)
class CitationReport(Record):
    """Every citation of a document, checked."""

    JSON_HIDDEN: ClassVar[frozenset[str]] = frozenset({"fixed"})

    as_of: str
    """The edition in force when the document was written."""
    to: str
    """The edition checked against."""
    citations: tuple[Citation, ...]
    """In document order."""
    fixed: str = ""
    """The document with every moved citation renumbered and nothing else changed."""

    @property
    def stale(self) -> tuple[Citation, ...]:
        """The citations that need attention."""
        return tuple(citation for citation in self.citations if citation.stale)


@dataclass(frozen=True, slots=True)
class Target:
    """One thing a reference names, resolved in an edition."""

    kind: Literal["rule", "glossary"]
    """A numbered node, or a glossary entry."""
    key: str
    """Its number, or its term as the edition prints it."""
    exists: bool
    """Whether the edition has it."""
    start: int = -1
    """Where it is printed in the text: the number ("603.7d"), a range's printed end ("f"
    of "603.7d–f"), or the term; -1 for a number a range spans without printing it."""
    end: int = -1
    """Just after where it is printed; -1 when it is not."""


@dataclass(frozen=True, slots=True)
class Link:
    """A reference inside a text: where it is and what it names."""

    start: int
    """Offset of the reference in the text."""
    end: int
    """Offset just after it."""
    raw: str
    """The reference as printed: "rules 603.7d–f", "See Typecycling"."""
    targets: tuple[Target, ...]
    """What it names, in order (a range names every number it spans)."""


@dataclass(frozen=True, slots=True)
class Contents:
    """The whole of one edition: its rules nested under its sections, and its glossary."""

    edition: str
    """The edition's effective date."""
    title: str
    """The document's first line."""
    sections: tuple[RuleRecord, ...]
    """Sections 1-9, each with its chapters, rules and subrules nested."""
    glossary: tuple[GlossaryRecord, ...]
    """Every glossary entry in document order."""

    def rules(self) -> Iterator[RuleRecord]:
        """Every record in document order."""
        for section in self.sections:
            yield from section.walk()


@dataclass(frozen=True, slots=True)
class Redirect:
    """A number an edition does not have but another stored edition had, and its fate."""

    number: str
    """The old number."""
    text: str
    """What the rule said when it last had that number."""
    first: str
    """The first edition that printed it under that number (on the line that had it last)."""
    last: str
    """The last edition that did."""
    now: str | None
    """Its number in the edition asked about; None when removed or not yet there."""
    removed_in: str | None = None
    """The first edition without the rule, when it was removed."""
    introduced_in: str | None = None
    """When the rule came later than the edition asked about."""
