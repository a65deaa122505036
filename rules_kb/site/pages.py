"""Page contexts: plain data built from API records, which the templates only lay out.

Each function takes records (and where things are) and returns the context of one
page; none of them reads the database.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from markupsafe import Markup

from rules_kb.records import (
    Contents,
    EditionRecord,
    GlossaryRecord,
    InForce,
    Link,
    Redirect,
    RuleRecord,
)
from rules_kb.site import places as at
from rules_kb.site.markup import linked, plain, words
from rules_kb.site.metadata import Metadata
from rules_kb.site.places import EditionPlaces
from rules_kb.titles import is_title

if TYPE_CHECKING:
    from rules_kb.records.diff import Change, EditionDiff
    from rules_kb.records.history import History, Version

Finder = Callable[[str], Sequence[Link]]
"""The references inside a text (kb.references_in, bound to an edition)."""
CitedBy = Mapping[str, Sequence[str]]
"""Number -> the numbers and glossary terms that cite it, in document order."""


@dataclass(frozen=True, slots=True)
class Item:
    """A label and where it leads (None: not linked)."""

    label: str
    """What the link says."""
    href: str | None = None
    """Relative to the page; None when the site has no page for it."""


@dataclass(frozen=True, slots=True)
class RuleView:
    """One rule, subrule or example as a chapter or rule page shows it."""

    id: str
    """Its fragment id: the number ("702.19b"; "-2" when the edition repeats it)."""
    number: str
    """As printed."""
    kind: str
    """section, chapter, rule or subrule."""
    heading: bool
    """Whether the text is a title ("Trample") rather than a sentence."""
    text: Markup
    """The text with its references linked."""
    examples: tuple[tuple[str, Markup], ...] = ()
    """Each example's id and linked text."""
    cited_by: tuple[Item, ...] = ()
    """The rules and glossary entries that cite it."""
    history: str | None = None
    """A link to its own page, with its history."""


@dataclass(frozen=True, slots=True)
class VersionView:
    """One version of a rule in its history."""

    first: str
    """The first edition of the span."""
    last: str
    """The last edition of the span."""
    key: Item
    """The number it had then (linked when that number's page is about this rule)."""
    status: str
    """added, split, changed, moved, moved_changed or same (only its examples changed)."""
    note: str
    """What happened since the older version, as `history` says it ("Renumbered,
    changed", "Example changed", "Added")."""
    body: Markup
    """The word diff against the older version (the text, for the first version)."""
    examples: tuple[Markup, ...] = ()
    """Its examples then (their word diffs, where they changed)."""
    examples_changed: bool = False
    """Whether its examples say otherwise than the older version's."""
    example_texts: tuple[str, ...] = ()
    """Its examples as plain text, for comparing any two versions in the page."""
    until: str | None = None
    """The edition that replaced it (None: in force now)."""
    forms: int = 1
    """How many forms the span printed (typography, renumbered references)."""
    branches: tuple[str, ...] = ()
    """The records split off it or merged into it, as `history` says them."""


@dataclass(frozen=True, slots=True)
class ChangeView:
    """One change on a diff page."""

    type: str
    """added, removed, changed, moved or typography."""
    old: Item | None
    """The old number or term, linked when that edition has pages."""
    new: Item | None
    """The new number or term, likewise."""
    body: Markup
    """The word diff."""
    examples: tuple[Markup, ...] = ()
    """The word diff of each changed example."""
    reference_only: bool = False
    """Only the cited numbers changed, as the rules moved."""
    example_only: bool = False
    """Only its examples changed, its own text the same."""


@dataclass(slots=True)
class Site:
    """What every page shares: the latest edition, the built editions, the rule pages."""

    latest: str
    """The latest edition."""
    built: dict[str, EditionPlaces]
    """The editions with pages, and where their records are."""
    rule_pages: set[str] = field(default_factory=set)
    """The numbers with a page under rule/."""
    old_numbers: set[str] = field(default_factory=set)
    """Those of them the latest edition lacks (their page says where the rule went)."""
    headings: dict[str, str] = field(default_factory=dict)
    """Number -> its title ("702.19" -> "Trample"), for the latest edition."""
    sets: dict[str, str] = field(default_factory=dict)
    """Edition -> the name of its set."""
    base_url: str | None = None
    """Where the site will be published, for canonical links."""
    dates: tuple[str, ...] = ()
    """Every stored edition, oldest first (to say until when an edition was in force)."""

    def in_force(self, day: str) -> str:
        """ "In force since 2026-08-07: the latest edition." or "In force from 2019-01-25
        until 2019-05-03, when the next edition replaced it." """
        until = InForce.of(day, self.dates).until
        if until is None:
            return f"In force since {day}: the latest edition."
        return f"In force from {day} until {until}, when the next edition replaced it."

    @property
    def metadata(self) -> Metadata:
        """The builder of every page's JSON-LD."""
        return Metadata(self.dates, set(self.built), self.base_url)

    def page(self, path: str, title: str, **context: Any) -> dict[str, Any]:
        """The context every template gets, plus the page's own; a page of an edition (or
        a rule page, of the latest) says when that edition was in force."""
        canonical = f"{self.base_url.rstrip('/')}/{path}" if self.base_url else None
        if "edition" in context and "in_force" not in context:
            context["in_force"] = self.in_force(context["edition"])
        return {
            "page": path,
            "root": at.root_of(path),
            "title": title,
            "canonical": canonical,
            "latest": self.latest,
            "latest_home": at.href(path, at.edition_home(self.latest)),
            "latest_glossary": at.href(path, at.glossary_page(self.latest)),
            "metadata": None,
            **context,
        }

    def rule_href(self, page: str, number: str) -> str | None:
        """A link to a rule's own page, when the site has one."""
        return at.href(page, at.rule_page(number)) if number in self.rule_pages else None


def edition_label(day: str, sets: Mapping[str, str]) -> str:
    """ "2022-11-18 (The Brothers' War)"."""
    name = sets.get(day)
    return f"{day} ({name})" if name else day


# edition pages -----------------------------------------------------------------------


def contents_page(
    site: Site, contents: Contents, page: str, *, home: bool = False
) -> dict[str, Any]:
    """The contents of an edition: its sections and chapters (the site's home for the
    latest)."""
    places = site.built[contents.edition]
    sections = [
        {
            "id": places.ids[section.seq],
            "number": section.number,
            "text": plain(section.text),
            "chapters": [_heading_item(places, page, chapter) for chapter in section.children],
        }
        for section in contents.sections
    ]
    label = edition_label(contents.edition, site.sets)
    title = "Comprehensive Rules" if home else f"Contents — CR {contents.edition}"
    metadata = (
        site.metadata.home(page, contents.edition, label)
        if home
        else site.metadata.edition_page(page, contents.edition, label)
    )
    return site.page(
        page, title, edition=contents.edition, edition_label=label, sections=sections,
        home=home, glossary=at.href(page, at.glossary_page(contents.edition)),
        editions=at.href(page, at.EDITIONS), metadata=metadata,
    )  # fmt: skip


def chapter_page(
    site: Site,
    contents: Contents,
    section: RuleRecord,
    position: int,
    find: Finder,
    cited_by: CitedBy,
) -> dict[str, Any]:
    """One chapter of an edition with every rule, subrule and example in it."""
    day = contents.edition
    places = site.built[day]
    chapter = section.children[position]
    page = at.chapter_page(day, chapter.number)
    chapters = [c for s in contents.sections for c in s.children]
    index = next(i for i, c in enumerate(chapters) if c.seq == chapter.seq)
    near = {
        "previous": chapters[index - 1] if index > 0 else None,
        "next": chapters[index + 1] if index + 1 < len(chapters) else None,
    }
    history = day == site.latest
    rules = [
        rule_view(site, places, node, page, find, cited_by, history=history)
        for record in chapter.children
        for node in record.walk()
    ]
    title = f"{chapter.number}. {chapter.text} — CR {day}"
    return site.page(
        page,
        title,
        metadata=site.metadata.part(page, day, f"CR {chapter.number}", title),
        edition=day,
        edition_label=edition_label(day, site.sets),
        contents=at.href(page, at.edition_home(day)),
        glossary=at.href(page, at.glossary_page(day)),
        section=_heading_item(places, page, section),
        chapter={"id": places.ids[chapter.seq], "number": chapter.number,
                 "text": plain(chapter.text)},
        chapter_history=site.rule_href(page, chapter.number) if history else None,
        near={name: c and _heading_item(places, page, c) for name, c in near.items()},
        rules=rules,
    )  # fmt: skip


def _heading_item(places: EditionPlaces, page: str, record: RuleRecord) -> Item:
    """ "702. Keyword Abilities", linked to its page."""
    return Item(f"{record.number}. {record.text}", at.href(page, places.places[record.number]))


def rule_view(
    site: Site,
    places: EditionPlaces,
    record: RuleRecord,
    page: str,
    find: Finder,
    cited_by: CitedBy,
    *,
    history: bool,
) -> RuleView:
    """A rule with its references linked, its examples, and what cites it."""
    ident = places.ids.get(record.seq, record.number)

    def link(target: Any) -> str | None:
        place = places.target(target)
        return None if place is None else at.href(page, place)

    examples = tuple(
        (f"{ident}-e{i}", linked(example, find(example), link))
        for i, example in enumerate(record.examples, 1)
    )
    return RuleView(
        id=ident,
        number=record.number,
        kind=record.kind,
        heading=record.kind in ("rule", "chapter", "section") and is_title(record.text),
        text=linked(record.text, find(record.text), link),
        examples=examples,
        cited_by=citing(places, page, cited_by.get(record.number, ())),
        history=site.rule_href(page, record.number) if history else None,
    )


def citing(places: EditionPlaces, page: str, keys: Iterable[str]) -> tuple[Item, ...]:
    """The rules and glossary entries that cite something, as links."""
    result = []
    for key in keys:
        place = places.key(key)
        result.append(Item(key, None if place is None else at.href(page, place)))
    return tuple(result)


def glossary_page(site: Site, contents: Contents, find: Finder) -> dict[str, Any]:
    """The glossary of an edition: an id per term, its references linked."""
    day = contents.edition
    places = site.built[day]
    page = at.glossary_page(day)

    def link(target: Any) -> str | None:
        place = places.target(target)
        return None if place is None else at.href(page, place)

    entries = []
    letters: list[str] = []
    for entry in contents.glossary:
        initial = entry.term[:1].upper()
        first = initial.isalpha() and initial not in letters
        if first:
            letters.append(initial)
        entries.append(
            {
                "id": places.terms[entry.term],
                "term": entry.term,
                "letter": initial if first else None,
                "paragraphs": [linked(line, find(line), link) for line in _lines(entry)],
            }
        )
    title = f"Glossary — CR {day}"
    return site.page(
        page, title, edition=day, edition_label=edition_label(day, site.sets),
        contents=at.href(page, at.edition_home(day)), entries=entries, letters=letters,
        metadata=site.metadata.part(page, day, "CR Glossary", title),
    )  # fmt: skip


def _lines(entry: GlossaryRecord) -> list[str]:
    return [line for line in entry.text.split("\n") if line.strip()] or [""]


# rule pages --------------------------------------------------------------------------


def rule_page(
    site: Site,
    record: RuleRecord,
    history: History,
    find: Finder,
    cited_by: CitedBy,
) -> dict[str, Any]:
    """A rule's own page: the current text, its history, what it cites and what cites
    it."""
    places = site.built[site.latest]
    page = at.rule_page(record.number)
    view = rule_view(site, places, record, page, find, cited_by, history=False)
    view = replace(view, cited_by=())
    cites = [Item(key, _rule_or_term(site, places, page, key)) for key in record.cites]
    cited = [Item(i.label, _rule_or_term(site, places, page, i.label)) for i in view.cited_by]
    place = places.places.get(record.number)
    return site.page(
        page,
        f"{record.number} {_title_of(record)} — CR history",
        rule=view,
        heading=_heading(site, record),
        in_rules=None if place is None else at.href(page, place),
        parent=_rule_item(site, page, record.parent),
        children=[_rule_item(site, page, child.number) for child in record.children],
        cites=_unique(cites),
        cited_by=cited,
        versions=[version_view(site, page, v, record.number) for v in history.versions],
        introduced=history.introduced_in,
        split_from=history.split_from,
        in_force=site.in_force(site.latest),
        metadata=site.metadata.rule(page, record.number, _heading(site, record), site.latest,
                                    history.versions),
    )  # fmt: skip


def _heading(site: Site, record: RuleRecord) -> str:
    """What a rule page is about: its own heading, or the heading of the rule it is in."""
    if is_title(record.text):
        return record.text
    return site.headings.get(record.parent or "", "")


def _title_of(record: RuleRecord) -> str:
    text = record.text
    return text if len(text) <= 50 else text[:48].rsplit(" ", 1)[0] + "…"


def _rule_item(site: Site, page: str, number: str | None) -> Item | None:
    if number is None:
        return None
    return Item(number, site.rule_href(page, number))


def _rule_or_term(site: Site, places: EditionPlaces, page: str, key: str) -> str | None:
    if key in site.rule_pages:
        return at.href(page, at.rule_page(key))
    place = places.key(key)
    return None if place is None else at.href(page, place)


def _unique(items: Iterable[Item]) -> list[Item]:
    seen: set[str] = set()
    result = []
    for item in items:
        if item.label not in seen:
            seen.add(item.label)
            result.append(item)
    return result


def version_view(site: Site, page: str, version: Version, number: str) -> VersionView:
    """One version: its span, the number it had, a word diff against the one before.

    An old number links to its page (which says where the rule went); a number that
    another rule has today does not link, since its page is about that other rule."""
    body = words(version.words) if version.words is not None else plain(version.text)
    old = version.key != number and version.key in site.old_numbers
    return VersionView(
        first=version.first,
        last=version.last,
        key=Item(version.key, site.rule_href(page, version.key) if old else None),
        status=version.status,
        note=(version.note or version.status).capitalize(),
        body=body,
        examples=tuple(plain(example) for example in version.examples)
        if version.example_words is None
        else tuple(words(ops) for ops in version.example_words),
        examples_changed=version.examples_changed,
        example_texts=version.examples,
        forms=len(version.forms),
        until=InForce.of(version.last, site.dates).until,
        branches=version.branch_notes,
    )


def redirect_page(site: Site, redirect: Redirect) -> dict[str, Any]:
    """Where an old number went: its current number, or when it was removed."""
    page = at.rule_page(redirect.number)
    now = None if redirect.now is None else Item(redirect.now, site.rule_href(page, redirect.now))
    return site.page(
        page, f"{redirect.number} — where the rule went", redirect=redirect, now=now,
        text=plain(redirect.text),
        removed=_edition_item(site, page, redirect.removed_in),
        introduced=_edition_item(site, page, redirect.introduced_in),
        metadata=site.metadata.moved(page, redirect.number, redirect.first, redirect.last,
                                     redirect.now),
    )  # fmt: skip


def _edition_item(site: Site, page: str, day: str | None) -> Item | None:
    if day is None:
        return None
    return Item(edition_label(day, site.sets), _home(site, page, day))


# what changed ------------------------------------------------------------------------


def diff_page(site: Site, diff: EditionDiff) -> dict[str, Any]:
    """One pair of consecutive editions: every change with its word diff, moves, and the
    typography-only changes apart."""
    page = at.diff_page(diff.old, diff.new)
    rules = [change_view(site, page, diff, change) for change in diff.rules]
    glossary = [change_view(site, page, diff, change) for change in diff.glossary]

    def of(views: list[ChangeView], *kinds: str) -> list[ChangeView]:
        return [v for v in views if v.type in kinds]

    return site.page(
        page,
        f"What changed: {diff.old} → {diff.new}",
        metadata=site.metadata.diff(page, diff.old, diff.new),
        old=Item(edition_label(diff.old, site.sets), _home(site, page, diff.old)),
        new=Item(edition_label(diff.new, site.sets), _home(site, page, diff.new)),
        summary=diff.summary(),
        changed=[v for v in of(rules, "changed") if not v.reference_only],
        renumbered=[v for v in of(rules, "changed") + of(glossary, "changed") if v.reference_only],
        added=of(rules, "added"),
        removed=of(rules, "removed"),
        moved=of(rules, "moved"),
        parts=of(rules, "split", "merged"),
        glossary=[
            v
            for v in of(glossary, "changed", "added", "removed", "moved", "split", "merged")
            if not v.reference_only
        ],
        typography=of(rules, "typography") + of(glossary, "typography"),
        editions=at.href(page, at.EDITIONS),
    )  # fmt: skip


def _home(site: Site, page: str, day: str) -> str | None:
    return at.href(page, at.edition_home(day)) if day in site.built else None


def change_view(site: Site, page: str, diff: EditionDiff, change: Change) -> ChangeView:
    """A change with links to where the rule is in the editions the site has."""

    def side(day: str, key: str | None) -> Item | None:
        if key is None:
            return None
        places = site.built.get(day)
        place = None if places is None else places.key(key)
        return Item(key, None if place is None else at.href(page, place))

    body = words(change.words) if change.words else plain(change.new_text or change.old_text or "")
    return ChangeView(
        type=change.type,
        old=side(diff.old, change.old_key),
        new=side(diff.new, change.new_key),
        body=body,
        examples=tuple(words(example.words) for example in change.examples),
        reference_only=change.reference_only,
        example_only=change.example_only,
    )


def editions_page(
    site: Site, editions: Sequence[EditionRecord], summaries: Mapping[str, dict[str, Any]]
) -> dict[str, Any]:
    """Every stored edition with its set, date and counts, and what changed in it."""
    page = at.EDITIONS
    ordered = sorted(editions, key=lambda record: record.edition)
    previous = {b.edition: a.edition for a, b in itertools.pairwise(ordered)}
    rows = []
    for record in editions:
        before = previous.get(record.edition)
        rows.append(
            {
                "record": record,
                "home": _home(site, page, record.edition),
                "set": record.set,
                "diff": at.href(page, at.diff_page(before, record.edition)) if before else None,
                "summary": summaries.get(record.edition),
                "previous": before,
            }
        )
    return site.page(
        page, "Editions and what changed", rows=rows, metadata=site.metadata.editions(page)
    )


def offline_page(site: Site) -> dict[str, Any]:
    """What a visitor offline sees for a page this device never stored."""
    page = at.OFFLINE
    return site.page(
        page,
        "Offline — Comprehensive Rules",
        stored=[
            Item("The rules of " + site.latest, at.href(page, at.edition_home(site.latest))),
            Item("The glossary", at.href(page, at.glossary_page(site.latest))),
            Item("Every edition and what changed", at.href(page, at.EDITIONS)),
        ],
        metadata={"@context": "https://schema.org", "@type": "WebPage",
                  "name": "Offline: this page is not stored on this device"},
    )  # fmt: skip
