"""What an ingest reports, file by file: part of the public records
(`rules_kb.records` re-exports them), kept apart so that an ingest with nothing to do
loads only these. They are named tuples rather than dataclasses, since the dataclasses
module imports `inspect`, about a tenth of such an ingest's time."""

from __future__ import annotations

from typing import Any, Literal, NamedTuple

IngestStatus = Literal["added", "replaced", "unchanged"]


class IngestResult(NamedTuple):
    """What one ingest did."""

    date: str
    """The edition's effective date."""
    status: IngestStatus
    """Added anew, replaced an edition of the same date, or already present."""
    rules: int
    """Rule and subrule rows of the edition."""
    examples: int
    """Examples of the edition."""
    glossary: int
    """Glossary entries of the edition."""
    unparsed: int
    """Body lines no record took."""
    warnings: tuple[str, ...]
    """Warnings stored with the edition."""


class IngestOutcome(NamedTuple):
    """What happened to one file (or download) given to ingest: a result, or an error."""

    source: str
    """The file's name (or path as given)."""
    result: IngestResult | None = None
    """What was stored; None when it failed."""
    error: str | None = None
    """One line saying why it failed."""

    def as_json(self) -> dict[str, Any]:
        """One element of `ingest --json`."""
        result = self.result
        return {
            "source": self.source,
            "edition": result.date if result else None,
            "status": result.status if result else "failed",
            "rules": result.rules if result else 0,
            "examples": result.examples if result else 0,
            "glossary": result.glossary if result else 0,
            "unparsed": result.unparsed if result else 0,
            "warnings": list(result.warnings) if result else [],
            "error": self.error,
        }
