"""The records of `search`: hits, the filters they were found with, and the terms a
question was read to name (named tuples: defining slotted dataclasses cost a cold search
a sixth of its margin over a cold lookup)."""

from __future__ import annotations

from typing import Any, Literal, NamedTuple

Kind = Literal["rule", "example", "glossary"]

Match = Literal["all", "most", "any", "question"]


class Hit(NamedTuple):
    """One search result.

    Hit, Filters and Results are named tuples, frozen like the API's dataclass records:
    defining three slotted dataclasses cost a cold search 4-9 ms, a sixth of its margin
    over a cold rule lookup."""

    kind: Kind
    """rule, example or glossary."""
    label: str
    """The rule number, or the glossary term."""
    text: str
    """The full text."""
    score: float
    """BM25F score."""
    highlight: str
    """Quoted fragments, HTML-escaped, with matches between <b> and </b> and " … " where
    text was left out."""
    editions: tuple[str, ...]
    """The editions that carried this text (all of them, whatever the filter)."""
    matched: tuple[str, ...] = ()
    """The query's words and concepts this hit answered, as typed."""

    def as_dict(self, edition: str | None) -> dict[str, Any]:
        """The SPEC's JSON shape; with no edition filter, the span of editions too."""
        where = "term" if self.kind == "glossary" else "number"
        item: dict[str, Any] = {"edition": edition or self.editions[-1], "kind": self.kind}
        item[where] = self.label
        item.update(text=self.text, score=round(self.score, 4), highlight=self.highlight)
        item["matched"] = list(self.matched)
        if edition is None:
            item.update(first=self.editions[0], last=self.editions[-1])
            item["editions"] = len(self.editions)
        return item


class Filters(NamedTuple):
    """What a search is restricted to."""

    edition: str | None = None
    """One edition date; None for all editions."""
    kind: Kind | None = None
    section: str | None = None
    """A section digit, 1-9 (rules and examples only)."""
    chapter: str | None = None
    """A chapter, three digits (rules and examples only)."""


class Results(NamedTuple):
    """The answer to one query."""

    query: str
    """The query as typed."""
    filters: Filters
    total: int
    """How many documents matched (before --limit)."""
    hits: tuple[Hit, ...]
    suggestion: str | None = None
    """The corrected query whose results these are, when words were misspelled."""
    match: Match = "all"
    """all: hits have every word; any: none had, so these have some of them; question:
    read as a plain-language question and ranked answer first."""
    recognised: tuple[Recognition, ...] = ()
    """The terms a question named, with what they mean (questions only)."""

    def as_json(self) -> dict[str, Any]:
        """The SPEC's JSON document."""
        return self.as_dict()

    def as_dict(self) -> dict[str, Any]:
        """The SPEC's JSON document."""
        edition = self.filters.edition
        return {
            "query": self.query,
            "edition": edition,
            "total": self.total,
            "hits": [hit.as_dict(edition) for hit in self.hits],
            "suggestion": self.suggestion,
            "match": self.match,
            "recognised": [item.as_dict() for item in self.recognised],
        }


class Recognition(NamedTuple):
    """A term a question named: "ETB" is "enters the battlefield", about 603.6a."""

    words: str
    """The question's words, as typed."""
    term: str
    """The CR's name for them."""
    rules: tuple[str, ...]
    """The rules it is about."""

    def as_dict(self) -> dict[str, Any]:
        """The SPEC's JSON shape."""
        return {"words": self.words, "term": self.term, "rules": list(self.rules)}
