"""One JSON serialisation for every record, built on its dataclass fields.

A record's JSON is its fields in order: tuples as lists, records as their own JSON,
named tuples as their `as_dict()`; a class says only where its shape differs, with three
class attributes (names it gives fields, fields it never shows, fields it shows only
when set), and a record whose shape differs further overrides `as_json` and starts from
`Record.as_json(self)` (a slotted dataclass cannot call `super()` without arguments).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any, ClassVar


def shape(value: Any) -> Any:
    """The JSON of a value found in a record."""
    if hasattr(value, "as_json"):  # a record, or one whose shape is its own
        return value.as_json()
    if hasattr(value, "as_dict"):  # the search's named tuples
        return value.as_dict()
    if isinstance(value, tuple | list):
        return [shape(item) for item in value]
    if isinstance(value, dict):
        return {key: shape(item) for key, item in value.items()}
    return value


class Record:
    """The base of the records the API returns (frozen, slotted dataclasses)."""

    __slots__ = ()

    JSON_NAMES: ClassVar[Mapping[str, str]] = {}
    """Fields shown under another name ({"since": "from"})."""
    JSON_HIDDEN: ClassVar[frozenset[str]] = frozenset()
    """Fields never shown (what was asked, positions, derived data)."""
    JSON_IF_SET: ClassVar[frozenset[str]] = frozenset()
    """Fields shown only when set: not None, not empty."""

    def as_json(self) -> dict[str, Any]:
        """The record as the SPEC's JSON (what `--json` prints)."""
        document: dict[str, Any] = {}
        for field in fields(self):  # type: ignore[arg-type]
            name = field.name
            if name in self.JSON_HIDDEN:
                continue
            value = getattr(self, name)
            if name in self.JSON_IF_SET and (value is None or value == () or value == ""):
                continue
            document[self.JSON_NAMES.get(name, name)] = shape(value)
        return document
