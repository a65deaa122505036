"""The records of `show`: an answer to a question, and what `show` found for a query
(re-exported by `rules_kb.records`). They load apart from the others, so that a cold
`show QUESTION` defines only the records it makes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from rules_kb.records.shape import Record

__all__ = ["Answer", "Answered", "Shown"]


@dataclass(frozen=True, slots=True)
class Answered(Record):
    """One rule (or glossary entry) that answers a question, and why."""

    kind: Literal["rule", "glossary"]
    """A numbered rule, or a glossary entry."""
    number: str
    """The rule number, or the glossary term."""
    text: str
    """Its whole text, as published."""
    score: float
    """How well it answers: higher is better."""
    matched: tuple[str, ...]
    """The question's words and concepts it answered, as typed."""

    def as_json(self) -> dict[str, Any]:
        """One answering rule: its "number" ("term" for a glossary entry), text, score
        (rounded) and what it matched."""
        shown = Record.as_json(self)  # (super() fails in a slotted dataclass)
        if self.kind == "glossary":
            shown = {("term" if name == "number" else name): value for name, value in shown.items()}
        return {**shown, "score": round(self.score, 4)}


@dataclass(frozen=True, slots=True)
class Answer(Record):
    """What `show` says to a plain-language question: the few rules that answer it."""

    query: str
    """The question as typed."""
    edition: str
    """The edition that answers."""
    recognised: tuple[Any, ...]
    """The terms it named (search.Recognition: words, term, rules)."""
    answers: tuple[Answered, ...]
    """The rules that answer it, best first."""
    see_also: tuple[str, ...]
    """Where to read on: the best answer's parent and the rules the answers cite."""


@dataclass(frozen=True, slots=True)
class Shown:
    """What `show` found for a query: a rule, a glossary entry, an answer to a question,
    or search results."""

    type: Literal["rule", "glossary", "answer", "search"]
    """Which of the four it is."""
    value: Any = field(default=None)
    """The RuleRecord, GlossaryRecord, Answer or search Results."""

    def as_json(self) -> dict[str, Any]:
        """The record's JSON with a `type` field first."""
        return {"type": self.type, **self.value.as_json()}
