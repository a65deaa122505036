"""The generator: read every record through the public API, lay out pages, write a site.

    from rules_kb.site import build
    report = build(rules_kb.open(path), Path("public"))

Nothing here reads the database directly: `KnowledgeBase.contents`, `graph`,
`references_in`, `histories`, `redirects`, `diff` and `editions` are the whole of
what the site is made from.
"""

from __future__ import annotations

import bisect
import hashlib
import itertools
import json
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rules_kb.progress import Progress, silent
from rules_kb.records import Contents, Link, Redirect, RuleRecord
from rules_kb.records.changes import KEYWORD_RULE, EditionChanges, by_rule, chapters, in_rule
from rules_kb.site import folder, pages, searchindex
from rules_kb.site import places as at
from rules_kb.site.places import EditionPlaces
from rules_kb.titles import is_title

if TYPE_CHECKING:
    import jinja2
    import networkx as nx

    from rules_kb.api import KnowledgeBase
    from rules_kb.records.diff import Change
    from rules_kb.records.history import History


@dataclass(slots=True)
class Report:
    """What a build wrote and where the time went."""

    out: Path
    """The site's folder."""
    editions: tuple[str, ...] = ()
    """The editions whose pages were written, newest first."""
    pages: dict[str, int] = field(default_factory=dict)
    """Files written, by kind of page."""
    files: int = 0
    """Every file written."""
    bytes: int = 0
    """Their total size."""
    seconds: dict[str, float] = field(default_factory=dict)
    """Wall time per stage (API calls and rendering)."""


class Writer:
    """Writes files under the build folder and keeps count (and a digest for the
    service worker's cache name)."""

    def __init__(self, root: Path, report: Report) -> None:
        self.root = root
        self.report = report
        self.digest = hashlib.sha256()
        self.html: list[str] = []
        """Every page written, for the sitemap."""
        self._folders: set[Path] = set()

    def write(self, path: str, text: str | bytes, kind: str) -> None:
        """Write one file (`path` relative to the root, with "/")."""
        data = text.encode("utf-8") if isinstance(text, str) else text
        target = self.root / path
        if target.parent not in self._folders:
            target.parent.mkdir(parents=True, exist_ok=True)
            self._folders.add(target.parent)
        target.write_bytes(data)
        if path.endswith(".html"):
            self.html.append(path)
        self.digest.update(path.encode() + b"\0" + hashlib.sha256(data).digest())
        self.report.files += 1
        self.report.bytes += len(data)
        self.report.pages[kind] = self.report.pages.get(kind, 0) + 1


def environment() -> jinja2.Environment:
    """The Jinja2 environment over the shipped templates (autoescaped)."""
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.PackageLoader("rules_kb.site", "templates"),
        autoescape=jinja2.select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
        finalize=_shown,
    )
    return env


def _shown(value: Any) -> Any:
    """Every value a template prints, with control characters spelled as escapes
    (`\\x1b`): a damaged text's ESC or BEL never reaches a page, a title or an
    attribute, whatever the template does with it."""
    from markupsafe import Markup

    from rules_kb.controls import has_controls, visible

    if isinstance(value, str) and has_controls(value):
        shown = visible(value)
        return Markup(shown) if isinstance(value, Markup) else shown
    return value


def build(
    kb: KnowledgeBase,
    out: Path,
    *,
    editions: Sequence[str] = ("latest",),
    base_url: str | None = None,
    progress: Progress = silent,
) -> Report:
    """Write the site into `out`: the chosen editions (the latest is always among them),
    every current rule's page, a page for each old number, every consecutive diff, the
    index of editions and the search index. `out` is replaced only when all is written."""
    folder.check(out)
    report = Report(out)
    with folder.staged(out) as staging:
        writer = Writer(staging, report)
        Generator(kb, writer, report, progress, base_url).run(editions)
    return report


class Generator:
    """One build: the API records it reads and the pages it writes."""

    def __init__(
        self,
        kb: KnowledgeBase,
        writer: Writer,
        report: Report,
        progress: Progress,
        base_url: str | None,
    ) -> None:
        self.kb = kb
        self.writer = writer
        self.report = report
        self.progress = progress
        self.env = environment()
        self.base_url = base_url
        self.finders: dict[tuple[str, bool], pages.Finder] = {}
        #: Each keyword rule of the latest edition -> its number in each edition it is in
        #: (from its history), for its feed of changes.
        self.keyword_numbers: dict[str, dict[str, str]] = {}

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        """Time one stage of the build."""
        start = time.perf_counter()
        yield
        self.report.seconds[name] = self.report.seconds.get(name, 0.0) + (
            time.perf_counter() - start
        )

    def render(self, template: str, context: dict[str, Any], kind: str) -> None:
        """Render one page into its path."""
        html = self.env.get_template(template).render(context)
        self.writer.write(context["page"], html, kind)

    def run(self, wanted: Sequence[str]) -> None:
        """Every stage, in order."""
        kb = self.kb
        with self.stage("editions (API)"):
            records = kb.editions()
            dates = kb.dates()
            latest = kb.edition("latest")
            chosen = chosen_editions(kb, wanted, dates, latest)
        sets = {r.edition: r.set.name for r in records if r.set is not None}
        self.site = pages.Site(
            latest, {}, sets=sets, base_url=self.base_url, dates=tuple(sorted(dates))
        )
        self.report.editions = tuple(chosen)
        latest_contents = self.load(latest)
        with self.stage("redirects (API)"):
            redirects = kb.redirects(latest)
        self.known_rules(latest_contents, redirects)
        advance = self.progress("site: editions", len(chosen))
        for day in chosen:  # one edition in memory at a time (and the latest)
            self.edition(latest_contents if day == latest else self.load(day))
            advance(1, day)
        self.rules(latest_contents)
        self.redirects(redirects)
        summaries = self.diffs(dates)
        with self.stage("index pages"):
            self.render(
                "editions.html", pages.editions_page(self.site, records, summaries), "index"
            )
            home = pages.contents_page(self.site, latest_contents, at.HOME, home=True)
            self.render("contents.html", home, "index")
            self.render("offline.html", pages.offline_page(self.site), "index")
        with self.stage("search index"):
            self.search(latest_contents)
        self.static(latest_contents)

    def load(self, day: str) -> Contents:
        """One edition's records, and where each of them goes on the site."""
        with self.stage("contents (API)"):
            contents = self.kb.contents(day)
            self.site.built[day] = EditionPlaces.of(contents)
        return contents

    def known_rules(self, latest: Contents, redirects: Sequence[Redirect]) -> None:
        """Which numbers have a rule page: the latest edition's, and the old ones."""
        self.site.rule_pages = set(self.site.built[latest.edition].places)
        self.site.old_numbers = {r.number for r in redirects}
        self.site.rule_pages |= self.site.old_numbers
        self.site.headings = {r.number: r.text for r in latest.rules() if is_title(r.text)}

    # edition pages -------------------------------------------------------------------

    def finder(self, day: str, *, glossary: bool = False) -> pages.Finder:
        """`references_in` bound to an edition, remembering each text's answer (the rule
        pages link the same texts as the latest edition's chapter pages)."""
        key = (day, glossary)
        found = self.finders.get(key)
        if found is None:
            kb = self.kb
            memo: dict[str, tuple[Link, ...]] = {}

            seconds = self.report.seconds
            label = "references_in (API, within the page stages)"

            def found(text: str) -> tuple[Link, ...]:
                links = memo.get(text)
                if links is None:
                    start = time.perf_counter()
                    links = memo[text] = kb.references_in(text, day, glossary=glossary)
                    seconds[label] = seconds.get(label, 0.0) + time.perf_counter() - start
                return links

            self.finders[key] = found
        return found

    def edition(self, contents: Contents) -> None:
        """The contents, chapter and glossary pages of one edition."""
        day = contents.edition
        with self.stage("graph (API)"):
            cited_by = citing(self.kb.graph(day), self.site.built[day])
        with self.stage("edition pages"):
            page = at.edition_home(day)
            self.render("contents.html", pages.contents_page(self.site, contents, page), "edition")
            find = self.finder(day)
            for section in contents.sections:
                for position in range(len(section.children)):
                    context = pages.chapter_page(
                        self.site, contents, section, position, find, cited_by
                    )
                    self.render("chapter.html", context, "chapter")
            glossary = pages.glossary_page(self.site, contents, self.finder(day, glossary=True))
            self.render("glossary.html", glossary, "glossary")
        if day == self.site.latest:
            self.latest_cited_by = cited_by
        else:
            self.finders = {k: v for k, v in self.finders.items() if k[0] != day}

    # rule pages ----------------------------------------------------------------------

    def rules(self, contents: Contents) -> None:
        """A page for every rule, subrule, chapter and section of the latest edition."""
        day = contents.edition
        first: dict[str, RuleRecord] = {}
        for record in contents.rules():
            first.setdefault(record.number, record)
        find = self.finder(day)
        advance = self.progress("site: rule pages", len(first))
        done: set[str] = set()
        histories = iter(self.kb.histories(day))
        while True:
            with self.stage("histories (API)"):
                history = next(histories, None)
            if history is None:
                break
            with self.stage("rule pages"):
                about = None if history.key in done else first.get(history.key)
                if about is not None:
                    done.add(about.number)
                    if KEYWORD_RULE.fullmatch(about.number):
                        self.keyword_numbers[about.number] = self.numbers(history)
                    context = pages.rule_page(self.site, about, history, find, self.latest_cited_by)
                    self.render("rule.html", context, "rule")
            advance(1, history.key)

    def numbers(self, history: History) -> dict[str, str]:
        """Edition -> the number the rule had in it, for every edition of its history."""
        dates = self.site.dates
        found: dict[str, str] = {}
        for version in history.versions:
            start = bisect.bisect_left(dates, version.first)
            end = bisect.bisect_right(dates, version.last)
            found.update((day, version.key) for day in dates[start:end])
        return found

    def redirects(self, redirects: Sequence[Redirect]) -> None:
        """A page for every old number the latest edition lacks, saying where it went."""
        with self.stage("redirect pages"):
            for redirect in redirects:
                self.render("redirect.html", pages.redirect_page(self.site, redirect), "redirect")

    # what changed --------------------------------------------------------------------

    def diffs(self, dates: Sequence[str]) -> dict[str, dict[str, Any]]:
        """A page per consecutive pair of editions; returns each newer edition's summary."""
        pairs = list(itertools.pairwise(dates))
        advance = self.progress("site: diffs", len(pairs))
        summaries = {}
        changed = []
        for old, new in pairs:
            with self.stage("diff (API)"):
                diff = self.kb.diff(old, new)
            with self.stage("diff pages"):
                self.render("diff.html", pages.diff_page(self.site, diff), "diff")
            summaries[new] = diff.summary()
            real = tuple(c for c in (*diff.rules, *diff.glossary) if c.real)
            changed.append(EditionChanges(new, old, real))
            advance(1, new)
        with self.stage("feeds"):
            self.feeds(changed)
        return summaries

    def feeds(self, changed: Sequence[EditionChanges]) -> None:
        """Atom feeds of the real changes: every edition, each chapter's editions, and each
        keyword rule's."""
        from rules_kb.records.feeds import atom

        def link(page: str) -> Callable[[EditionChanges], str]:
            def to(edition: EditionChanges) -> str:
                target = at.diff_page(edition.previous, edition.edition)
                if self.base_url:
                    return self.base_url.rstrip("/") + "/" + target
                return at.href(page, target)

            return to

        page = "feeds/changes.atom"
        feed = atom(changed, title="Comprehensive Rules: every edition's real changes",
                    name="changes", link=link(page))  # fmt: skip
        self.writer.write(page, feed, "static")
        by_chapter: dict[str, list[EditionChanges]] = {}
        for edition in changed:
            touched: dict[str, list[Change]] = {}
            for change in edition.changes:
                for chapter in chapters(change):
                    if len(chapter) == 3:  # not a section's own heading
                        touched.setdefault(chapter, []).append(change)
            for chapter, kept in touched.items():
                by_chapter.setdefault(chapter, []).append(
                    EditionChanges(edition.edition, edition.previous, tuple(kept))
                )
        for chapter, editions in by_chapter.items():
            page = f"feeds/chapter-{chapter}.atom"
            feed = atom(editions, title=f"Comprehensive Rules: real changes to chapter {chapter}",
                        name=f"chapter-{chapter}", link=link(page))  # fmt: skip
            self.writer.write(page, feed, "static")
        # One feed per keyword rule: the changes to it and its subrules, followed back
        # through its earlier numbers (502.9 before 2009 for 702.19).
        indexed = [(edition, by_rule(edition)) for edition in changed]
        for rule, numbers in self.keyword_numbers.items():
            editions_of = []
            for edition, under in indexed:
                old, new = numbers.get(edition.previous), numbers.get(edition.edition)
                candidates = {id(c): c for key in (old, new) if key for c in under.get(key, ())}
                its = tuple(c for c in candidates.values() if in_rule(c, old, new))
                if its:
                    editions_of.append(EditionChanges(edition.edition, edition.previous, its))
            page = f"feeds/rule-{rule}.atom"
            name = self.site.headings.get(rule, "")
            title = f"Comprehensive Rules: real changes to {rule}" + (f" {name}" if name else "")
            feed = atom(editions_of, title=title, name=f"rule-{rule}", link=link(page))
            self.writer.write(page, feed, "static")

    # search, static files, offline ---------------------------------------------------

    def search(self, contents: Contents) -> None:
        """The prebuilt index of the latest edition, as a script."""
        documents = list(search_documents(contents, self.site.built[contents.edition]))
        index = searchindex.serialise(documents, contents.edition)
        reading = searchindex.reading_of(documents)
        reading |= self.kb.question_reading(contents.edition, reading.pop("tokens"))
        reading["phrases_in"] = searchindex.phrase_postings(documents, reading.pop("forms"))
        self.writer.write(
            at.SEARCH_INDEX, searchindex.script(index, contents.edition, reading), "search index"
        )

    def static(self, contents: Contents) -> None:
        """The shared CSS and JavaScript, the vendored library, icons, the manifest and
        the service worker (written last: its cache name is a digest of the site)."""
        with self.stage("static files"):
            shipped = resources.files("rules_kb.site") / "static"
            for path in _walk(shipped):
                data = (resources.files("rules_kb.site") / path).read_bytes()
                self.writer.write(path, data, "static")
            manifest = self.env.get_template("manifest.webmanifest").render(latest=self.site.latest)
            self.writer.write("manifest.webmanifest", manifest, "static")
            if self.base_url:
                self.writer.write("sitemap.xml", sitemap(self.base_url, self.writer.html), "static")
            precache = offline_pages(contents)
            worker = self.env.get_template("sw.js").render(
                version=self.writer.digest.hexdigest()[:16],
                precache=json.dumps(precache, indent=0),
                offline=at.OFFLINE,
            )
            self.writer.write("sw.js", worker, "static")


def chosen_editions(
    kb: KnowledgeBase, wanted: Sequence[str], dates: Sequence[str], latest: str
) -> list[str]:
    """The editions to write pages for, newest first: "all", "latest", or any edition
    values (dates, set codes); the latest is always among them."""
    chosen = {latest}
    for value in wanted:
        for part in value.split(","):
            part = part.strip()
            if part == "all":
                chosen.update(dates)
            elif part:
                chosen.add(kb.edition(part))
    return sorted(chosen, reverse=True)


def citing(graph: nx.DiGraph, places: EditionPlaces) -> dict[str, list[str]]:
    """Number -> the rules and glossary entries that cite it, in document order."""
    found: dict[str, list[str]] = {}
    for source, target in graph.edges():
        if source != target:
            found.setdefault(target, []).append(source)
    return {target: places.in_order(sources) for target, sources in found.items()}


def search_documents(contents: Contents, places: EditionPlaces) -> Iterable[searchindex.Document]:
    """Every rule, example and glossary entry of an edition, as search documents."""
    for record in contents.rules():
        url = places.places.get(record.number)
        if url is None:
            continue
        kind = {"section": "s", "chapter": "c"}.get(record.kind, "r")
        title = record.text if is_title(record.text) else ""
        yield searchindex.Document(record.number, kind, url, title, record.text)
        for i, example in enumerate(record.examples, 1):
            page = url.partition("#")[0]
            ident = places.ids.get(record.seq, record.number)
            yield searchindex.Document(record.number, "e", f"{page}#{ident}-e{i}", "", example)
    for entry in contents.glossary:
        url = places.glossary(entry.term)
        if url is not None:
            yield searchindex.Document(entry.term, "g", url, entry.term, entry.text)


def sitemap(base_url: str, paths: Iterable[str]) -> str:
    """The sitemap of every page, for a site published at `base_url`."""
    from xml.sax.saxutils import escape

    base = base_url.rstrip("/")
    urls = "".join(f"<url><loc>{escape(f'{base}/{path}')}</loc></url>\n" for path in paths)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        f"{urls}</urlset>\n"
    )


def offline_pages(contents: Contents) -> list[str]:
    """What the service worker stores at its first visit: the shell, the latest
    edition's pages and the search (everything else is stored as it is visited)."""
    day = contents.edition
    chapters = [c.number for s in contents.sections for c in s.children]
    shell = [
        at.HOME,
        at.EDITIONS,
        "static/site.css",
        "static/site.js",
        "static/icon.svg",
        "static/vendor/minisearch-7.2.0/minisearch.umd.js",
        "static/vendor/stemmer-2.0.1/stemmer.js",
        "static/reading.js",
        at.SEARCH_INDEX,
        "manifest.webmanifest",
    ]
    edition = [at.OFFLINE, at.edition_home(day), at.glossary_page(day)]
    return shell + edition + [at.chapter_page(day, chapter) for chapter in chapters]


def _walk(folder_: Any, prefix: str = "static") -> Iterator[str]:
    """Every file under a shipped folder, as "static/…" paths."""
    for child in sorted(folder_.iterdir(), key=lambda c: c.name):
        path = f"{prefix}/{child.name}"
        if child.is_dir():
            yield from _walk(child, path)
        elif not child.name.startswith("."):
            yield path
