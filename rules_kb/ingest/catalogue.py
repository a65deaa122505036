"""The catalogue of editions in data/editions.toml: dates, the sets they accompany, URLs.

The catalogue is facts the code reads, never CR text. It is loaded only when
something needs it (a set code given to --edition, `rules-kb editions`), so a
plain rule lookup never parses the TOML.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from rules_kb.errors import BadCatalogue


@dataclass(frozen=True, slots=True)
class SetRelease:
    """A set release an edition accompanies."""

    name: str
    """The set's name as printed: "The Brothers' War"."""
    code: str
    """The set's code in capitals: "BRO"."""


@dataclass(frozen=True, slots=True)
class CatalogueEntry:
    """What the catalogue knows about one edition."""

    date: str
    """The effective date, YYYY-MM-DD."""
    set: SetRelease | None
    """The set release it accompanies, when one is known."""
    url: str | None
    """The official download, where its address is known."""
    note: str | None
    """Anything uncertain about the entry."""


@dataclass(frozen=True, slots=True)
class Catalogue:
    """Every catalogued edition, in date order, with lookups by date and set code."""

    entries: tuple[CatalogueEntry, ...]
    """The editions, oldest first."""

    def by_date(self, date: str) -> CatalogueEntry | None:
        """The entry for an effective date, if catalogued."""
        return _date_index(self).get(date)

    def by_code(self, code: str) -> CatalogueEntry | None:
        """The entry whose set has this code or name (any case), if any."""
        return _code_index(self).get(code.strip().casefold())

    def codes(self) -> list[str]:
        """Every set code, in date order."""
        return [entry.set.code for entry in self.entries if entry.set]

    def nearest_code(self, value: str) -> str | None:
        """The set code closest to a mistyped one ("BRW" -> "BRO"), if any is close."""
        from difflib import SequenceMatcher

        wanted = value.strip().upper()

        def closeness(code: str) -> tuple[float, int]:
            # Equal ratios go to the code that starts the same way: BRX is BRO, not RIX.
            return SequenceMatcher(None, wanted, code).ratio(), _shared_start(wanted, code)

        codes = self.codes()
        best = max(codes, key=closeness, default=None)
        return best if best is not None and closeness(best)[0] >= 0.6 else None


def _shared_start(one: str, other: str) -> int:
    """How many leading characters two strings share."""
    count = 0
    for mine, theirs in zip(one, other, strict=False):
        if mine != theirs:
            break
        count += 1
    return count


@cache
def _date_index(catalogue: Catalogue) -> dict[str, CatalogueEntry]:
    return {entry.date: entry for entry in catalogue.entries}


@cache
def _code_index(catalogue: Catalogue) -> dict[str, CatalogueEntry]:
    index: dict[str, CatalogueEntry] = {}
    for entry in catalogue.entries:
        if entry.set:
            index[entry.set.name.casefold()] = entry
            index[entry.set.code.casefold()] = entry
    return index


def with_sets(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Edition rows (with an "edition" date) given a "set": {"name", "code"} or None."""
    known = load()
    result = []
    for row in rows:
        entry = known.by_date(row["edition"])
        release = entry.set if entry else None
        named = {"name": release.name, "code": release.code} if release else None
        result.append({**row, "set": named})
    return result


@cache
def load() -> Catalogue:
    """The catalogue shipped with the package (read once per process)."""
    return parse(_catalogue_text())


def parse(text: str) -> Catalogue:
    """Read catalogue TOML; raises BadCatalogue when it breaks the catalogue's rules."""
    import tomllib

    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise BadCatalogue(f"the edition catalogue is not valid TOML: {error}") from error
    rows = document.get("edition", [])
    if not isinstance(rows, list):
        raise BadCatalogue("the edition catalogue needs [[edition]] tables")
    entries = tuple(_entry(row) for row in rows)
    _check(entries)
    return Catalogue(entries)


def _entry(row: Mapping[str, Any]) -> CatalogueEntry:
    day = row.get("date")
    if not isinstance(day, datetime.date) or isinstance(day, datetime.datetime):
        raise BadCatalogue(f"catalogue entry {dict(row)!r}: date must be a TOML date")
    name, code = row.get("set"), row.get("code")
    if (name is None) != (code is None):
        raise BadCatalogue(f"catalogue entry {day}: give both set and code, or neither")
    release = SetRelease(str(name), str(code).upper()) if name and code else None
    url, note = row.get("url"), row.get("note")
    return CatalogueEntry(
        date=day.isoformat(),
        set=release,
        url=str(url) if url else None,
        note=str(note) if note else None,
    )


def _check(entries: tuple[CatalogueEntry, ...]) -> None:
    dates = [entry.date for entry in entries]
    if dates != sorted(set(dates)):
        raise BadCatalogue("catalogue dates must be unique and in order")
    seen: set[str] = set()
    for entry in entries:
        if entry.set is None:
            continue
        for key in {entry.set.code.casefold(), entry.set.name.casefold()}:
            if key in seen:
                raise BadCatalogue(f"catalogue entry {entry.date}: {key!r} is used twice")
            seen.add(key)


def _catalogue_text() -> str:
    from rules_kb.resources import read_text

    return read_text("rules_kb.data", "editions.toml")
