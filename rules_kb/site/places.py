"""Where everything is on the site: page paths, fragment ids, and relative links.

Every path here is relative to the site's root and uses "/"; links between pages are
relative too, so the same files work from any host, any folder and from file://.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from rules_kb.records import Contents, RuleRecord, Target
from rules_kb.site.markup import slugs

HOME = "index.html"
EDITIONS = "editions.html"
OFFLINE = "offline.html"
SEARCH_INDEX = "static/search-index.js"


def edition_home(day: str) -> str:
    """The contents page of an edition."""
    return f"e/{day}/index.html"


def chapter_page(day: str, chapter: str) -> str:
    """The page of one chapter of an edition, with every rule of it."""
    return f"e/{day}/{chapter}.html"


def glossary_page(day: str) -> str:
    """The glossary of an edition."""
    return f"e/{day}/glossary.html"


def rule_page(number: str) -> str:
    """A rule's own page across editions (or where an old number went)."""
    return f"rule/{number}.html"


def diff_page(old: str, new: str) -> str:
    """What changed from one edition to the next."""
    return f"diff/{old}_{new}.html"


def root_of(page: str) -> str:
    """The way from a page back to the site's root: "", "../", "../../"."""
    return "../" * page.count("/")


def href(page: str, target: str) -> str:
    """A link from one page to a place ("path" or "path#id"), relative: "#id" on the same
    page, the file name in the same folder, else by way of the root."""
    path, _, fragment = target.partition("#")
    if path == page and fragment:
        return f"#{fragment}"
    folder = page.rpartition("/")[0]
    if folder and path.startswith(folder + "/") and "/" not in path[len(folder) + 1 :]:
        return target[len(folder) + 1 :]
    return root_of(page) + target


@dataclass(slots=True)
class EditionPlaces:
    """Where each rule, chapter, section and glossary entry of one edition is."""

    day: str
    """The edition."""
    places: dict[str, str] = field(default_factory=dict)
    """Number -> "e/DAY/702.html#702.19b" (chapters: their page; sections: the contents)."""
    ids: dict[int, str] = field(default_factory=dict)
    """A record's seq -> its fragment id (a number the edition prints twice gets "-2")."""
    terms: dict[str, str] = field(default_factory=dict)
    """Glossary term -> its fragment id on the glossary page."""
    order: dict[str, int] = field(default_factory=dict)
    """Number or term -> position in the document, to list citing rules in order."""

    @classmethod
    def of(cls, contents: Contents) -> EditionPlaces:
        """The places of every record of an edition."""
        day = contents.edition
        found = cls(day)
        for section in contents.sections:
            found._section(section)
        found.terms = slugs(entry.term for entry in contents.glossary)
        start = len(found.order)
        for i, entry in enumerate(contents.glossary):
            found.order.setdefault(entry.term, start + i)
        return found

    def _section(self, section: RuleRecord) -> None:
        self._add(section, edition_home(self.day))
        for chapter in section.children:
            page = chapter_page(self.day, chapter.number)
            self._add(chapter, page, whole_page=True)
            for record in chapter.children:
                for node in record.walk():
                    self._add(node, page)

    def _add(self, record: RuleRecord, page: str, *, whole_page: bool = False) -> None:
        taken = record.number in self.places
        ident = f"{record.number}-{record.occurrence}" if taken else record.number
        self.ids[record.seq] = ident
        self.order.setdefault(record.number, len(self.order))
        if not taken:
            self.places[record.number] = page if whole_page else f"{page}#{ident}"

    def glossary(self, term: str) -> str | None:
        """Where a glossary entry is."""
        ident = self.terms.get(term)
        return None if ident is None else f"{glossary_page(self.day)}#{ident}"

    def target(self, target: Target) -> str | None:
        """Where a reference target is; None when the edition lacks it."""
        if not target.exists:
            return None
        if target.kind == "glossary":
            return self.glossary(target.key)
        return self.places.get(target.key)

    def key(self, key: str) -> str | None:
        """Where a number or a glossary term is."""
        return self.places.get(key) or self.glossary(key)

    def in_order(self, keys: Iterable[str]) -> list[str]:
        """Numbers and terms in document order, each once."""
        return sorted(set(keys), key=lambda key: (self.order.get(key, 1 << 30), key))
