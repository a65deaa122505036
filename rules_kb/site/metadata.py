"""Machine-readable metadata for every page: schema.org `Legislation` in JSON-LD.

An edition is a `Legislation` whose version date is its effective date, in force
(`legislationLegalForce`: InForce) while it is the latest and NotInForce after, over the
span `temporalCoverage` ("2019-01-25/2019-05-03"; "2026-08-07/.." for the latest), and it
`legislationChanges` the edition before it, which it replaced. A chapter or the glossary
is `isPartOf` its edition; a rule page describes the rule's current version, with the
version it replaced. Diff pages are about the two editions they compare; the home page is
the site, about the latest edition; the editions page lists them all.

Links are absolute when the site knows where it will be published (`--base-url`), else
relative to the page, as JSON-LD allows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules_kb.records import InForce
from rules_kb.records.history import Version
from rules_kb.site import places as at

SCHEMA = "https://schema.org"
WORK = "Magic: The Gathering Comprehensive Rules"


class Metadata:
    """Metadata builder for one site: its editions and where it is published."""

    def __init__(self, dates: Sequence[str], built: set[str], base_url: str | None) -> None:
        self.dates = tuple(dates)
        self.built = built
        self.base_url = base_url.rstrip("/") if base_url else None

    def url(self, page: str, target: str) -> str:
        """A link from `page` to `target`, absolute when the site's address is known."""
        return f"{self.base_url}/{target}" if self.base_url else at.href(page, target)

    def edition(self, page: str, day: str, label: str | None = None) -> dict[str, Any]:
        """An edition as `Legislation`, with its span, force and the edition it replaced."""
        span = InForce.of(day, self.dates)
        found: dict[str, Any] = {
            "@type": "Legislation",
            "name": f"{WORK}, {label or day}",
            "legislationIdentifier": f"CR {day}",
            "legislationType": "Comprehensive Rules",
            "legislationDate": day,
            "legislationDateVersion": day,
            "legislationLegalForce": _force(span.until is None),
            "temporalCoverage": f"{day}/{span.until or '..'}",
            "inLanguage": "en",
            "publisher": {"@type": "Organization", "name": "Wizards of the Coast"},
        }
        if day in self.built:
            found["url"] = self.url(page, at.edition_home(day))
        at_ = self.dates.index(day) if day in self.dates else -1
        if at_ > 0:
            previous = self.dates[at_ - 1]
            found["legislationChanges"] = self._reference(page, previous)
        return found

    def _reference(self, page: str, day: str) -> dict[str, Any]:
        """A short reference to another edition."""
        found = {"@type": "Legislation", "legislationIdentifier": f"CR {day}",
                 "legislationDate": day}  # fmt: skip
        if day in self.built:
            found["url"] = self.url(page, at.edition_home(day))
        return found

    def part(self, page: str, day: str, identifier: str, name: str) -> dict[str, Any]:
        """A chapter or the glossary of an edition, as part of it."""
        until = InForce.of(day, self.dates).until
        return {
            "@context": SCHEMA,
            "@type": "Legislation",
            "name": name,
            "url": self.url(page, page),
            "legislationIdentifier": f"{identifier} ({day})",
            "legislationDateVersion": day,
            "legislationLegalForce": _force(until is None),
            "temporalCoverage": f"{day}/{until or '..'}",
            "isPartOf": self.edition(page, day),
        }

    def edition_page(self, page: str, day: str, label: str) -> dict[str, Any]:
        """An edition's contents page."""
        return {"@context": SCHEMA, **self.edition(page, day, label), "url": self.url(page, page)}

    def rule(
        self, page: str, number: str, title: str, latest: str, versions: Sequence[Version]
    ) -> dict[str, Any]:
        """A rule's page: its current version (versions come newest first) and the
        version that one replaced."""
        current = versions[0] if versions else None
        first = current.first if current is not None else latest
        found: dict[str, Any] = {
            "@context": SCHEMA,
            "@type": "Legislation",
            "name": f"{WORK}, rule {number}" + (f": {title}" if title else ""),
            "url": self.url(page, page),
            "legislationIdentifier": f"CR {number}",
            "legislationDateVersion": first,
            "legislationLegalForce": _force(True),
            "temporalCoverage": f"{first}/..",
            "isPartOf": self._reference(page, latest),  # (short: there are thousands)
        }
        if len(versions) > 1:
            before = versions[1]
            found["legislationChanges"] = {
                "@type": "Legislation",
                "legislationIdentifier": f"CR {before.key}",
                "legislationDateVersion": before.first,
                "temporalCoverage": f"{before.first}/{first}",
                "legislationLegalForce": _force(False),
            }
        return found

    def moved(
        self, page: str, number: str, first: str, last: str, now: str | None
    ) -> dict[str, Any]:
        """The page of a number the latest edition no longer has."""
        until = InForce.of(last, self.dates).until  # (when the edition after its last came)
        found: dict[str, Any] = {
            "@context": SCHEMA,
            "@type": "Legislation",
            "name": f"{WORK}, rule {number} (an old number)",
            "url": self.url(page, page),
            "legislationIdentifier": f"CR {number}",
            "legislationDateVersion": first,
            "legislationLegalForce": _force(False),
            "temporalCoverage": f"{first}/{until or '..'}",
        }
        if now is not None:  # the rule it became changes it (schema.org has no inverse)
            found["@reverse"] = {
                "legislationChanges": {"@type": "Legislation", "legislationIdentifier": f"CR {now}"}
            }
        return found

    def diff(self, page: str, old: str, new: str) -> dict[str, Any]:
        """A diff page: about the two editions it compares."""
        return {
            "@context": SCHEMA,
            "@type": "WebPage",
            "name": f"What changed in the {WORK} from {old} to {new}",
            "url": self.url(page, page),
            "about": [self.edition(page, old), self.edition(page, new)],
        }

    def home(self, page: str, latest: str, label: str) -> dict[str, Any]:
        """The site itself, about the latest edition."""
        return {
            "@context": SCHEMA,
            "@type": "WebSite",
            "name": WORK,
            "url": self.url(page, page),
            "about": self.edition(page, latest, label),
        }

    def editions(self, page: str) -> dict[str, Any]:
        """The list of every edition."""
        return {
            "@context": SCHEMA,
            "@type": "CollectionPage",
            "name": f"Every edition of the {WORK}",
            "url": self.url(page, page),
            "hasPart": [self._reference(page, day) for day in reversed(self.dates)],
        }


def _force(in_force: bool) -> str:
    return f"{SCHEMA}/InForce" if in_force else f"{SCHEMA}/NotInForce"
