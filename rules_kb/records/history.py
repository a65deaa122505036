"""The records of `history`: how one rule or glossary entry read across the editions."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from rules_kb.records.core import Branch, Step, branch_notes
from rules_kb.records.shape import Record

WordOp = tuple[str, str]


VersionStatus = Literal["added", "changed", "moved", "moved_changed", "same", "split"]

#: How each status reads in words, before "example changed" (`Version.note`).
_NOTES: Mapping[str, str] = {
    "added": "",
    "split": "split off",
    "changed": "changed",
    "moved": "renumbered",
    "moved_changed": "renumbered, changed",
    "same": "",
}


@dataclass(frozen=True, slots=True)
class Form(Record):
    """One printed form of a version's text (its typography, or the rule numbers it cites
    as they were renumbered), and the editions that printed it."""

    JSON_NAMES: ClassVar[Mapping[str, str]] = {"first": "from", "last": "to"}

    first: str
    """The first edition with this form."""
    last: str
    """The last edition with this form."""
    text: str
    """The text in this form."""


@dataclass(frozen=True, slots=True)
class Version:
    """Consecutive editions in which a rule had the same number and wording, as the stored
    lineage says (typography and renumbered references aside)."""

    first: str
    """The first edition of the span."""
    last: str
    """The last edition of the span."""
    key: str
    """The number (or glossary term) in those editions."""
    text: str
    """The text, as the last edition of the span printed it."""
    examples: tuple[str, ...]
    """Its examples then."""
    status: VersionStatus
    """How its number and text came from the previous version: added or split (the
    first: split off another record, `History.split_from`), changed, moved, or both; or
    the same, when only its examples changed."""
    words: tuple[WordOp, ...] | None
    """The word diff of the text against the previous, older version; None for the first."""
    forms: tuple[Form, ...]
    """Every form the span printed, newest first (one when it never varied)."""
    examples_changed: bool = False
    """Whether its examples say otherwise than the previous version's (typography and
    renumbered citations aside). Examples illustrate a rule and are not its wording, so
    this is apart from `status`."""
    example_words: tuple[tuple[WordOp, ...], ...] | None = None
    """With `examples_changed`: the word diff of each example against the previous
    version's example in its place (against nothing for an example new there; an
    example gone is all deletion)."""
    glossary: bool = False
    """Whether it is a glossary entry's (renamed, where a rule is renumbered)."""
    branches: tuple[Branch, ...] = ()
    """The records split off it or merged into it in the editions of the span, oldest
    first (the line's own start, `History.split_from`, is not among them)."""

    @property
    def branch_notes(self) -> tuple[str, ...]:
        """The branches as `history` and the site say them (`branch_notes`)."""
        return branch_notes(self.branches)

    @property
    def note(self) -> str:
        """What happened since the previous version, as `history` and the site say it:
        "renumbered, changed", "example changed", "" for the first version added."""
        said = _NOTES[self.status]
        if self.glossary:
            said = said.replace("renumbered", "renamed")
        if self.examples_changed:
            return f"{said}, example changed" if said else "example changed"
        return said

    def as_json(self) -> dict[str, Any]:
        """The SPEC shape of one version."""
        glossary = self.glossary
        name = "term" if glossary else "number"
        document: dict[str, Any] = {
            "from": self.first,
            "to": self.last,
            name: self.key,
            "text": self.text,
            "status": self.status,
            "words": None if self.words is None else [list(op) for op in self.words],
        }
        if not glossary:
            document["examples"] = list(self.examples)
            document["examples_changed"] = self.examples_changed
            if self.example_words is not None:
                document["example_words"] = [
                    [list(op) for op in words] for words in self.example_words
                ]
        if len(self.forms) > 1:
            document["forms"] = [form.as_json() for form in self.forms]
        if self.branches:
            document["branches"] = [branch.as_json(glossary=glossary) for branch in self.branches]
        return document


@dataclass(frozen=True, slots=True)
class History:
    """How one rule (or glossary entry) read across the editions, newest version first."""

    query: str
    """What was asked for."""
    kind: Literal["rule", "glossary"]
    """Whether a rule number or a glossary term was followed."""
    edition: str
    """The edition in which the query was found."""
    key: str
    """Its number (or term) there."""
    versions: tuple[Version, ...]
    """Newest first."""
    introduced_in: str
    """The first edition of its line."""
    removed_in: str | None = None
    """The first edition without it, when it is no longer in the latest one."""
    subrules: tuple[History, ...] = ()
    """With subrules asked for: the history of each subrule of the rule, in order."""
    split_from: Step | None = None
    """The record its line was split off, and the last edition that record was in."""
    merged_into: Step | None = None
    """The record it was merged into when its line ended, and the edition."""

    @property
    def spans(self) -> tuple[Version, ...]:
        """The versions (the name of the first release)."""
        return self.versions

    def as_json(self) -> dict[str, Any]:
        """The SPEC shape of `history --json`."""
        document: dict[str, Any] = {
            "query": self.query,
            "kind": self.kind,
            "edition": self.edition,
            "introduced_in": self.introduced_in,
            "removed_in": self.removed_in,
            "versions": [version.as_json() for version in self.versions],
        }
        if self.subrules:
            document["subrules"] = [history.as_json() for history in self.subrules]
        if self.split_from is not None:
            document["split_from"] = self.split_from.as_json()
        if self.merged_into is not None:
            document["merged_into"] = self.merged_into.as_json()
        return document
