"""Rules text as HTML: escaped, control characters shown, italics, references as links.

Everything that reaches a page goes through `escape` here or through Jinja2's
autoescaping; nothing from a document is ever read as markup.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence

from markupsafe import Markup, escape

from rules_kb.controls import visible
from rules_kb.records import Link, Target

_ITALIC = re.compile(r"(?<![^\W_])_([^_\n]+?)_(?![^\W_])")

_LETTERS = "abcdefghijklmnopqrstuvwxyz"

Href = Callable[[Target], str | None]
"""Where a reference target is on the site, relative to the page; None: not linked."""


def plain(text: str) -> Markup:
    """Escaped text with control characters shown and "_Magic_" set in italics."""
    shown = visible(text)
    parts: list[str] = []
    last = 0
    for match in _ITALIC.finditer(shown):
        parts.append(escape(shown[last : match.start()]))
        parts.append(Markup("<i>%s</i>") % match.group(1))
        last = match.end()
    parts.append(escape(shown[last:]))
    return Markup("").join(parts)


def anchor(href: str, text: str, cls: str = "") -> Markup:
    """A link with escaped text."""
    if cls:
        return Markup('<a class="%s" href="%s">%s</a>') % (cls, href, visible(text))
    return Markup('<a href="%s">%s</a>') % (href, visible(text))


def slug(term: str) -> str:
    """A fragment id for a glossary term: "Kicker, Kicked" -> "kicker-kicked"."""
    folded = unicodedata.normalize("NFKD", term)
    ascii_only = "".join(c for c in folded if not unicodedata.combining(c)).lower()
    words = re.findall(r"[a-z0-9]+", ascii_only)
    return "-".join(words) or "term"


def slugs(terms: Iterable[str]) -> dict[str, str]:
    """Unique, stable ids for terms in document order (a repeated slug gets -2, -3...)."""
    result: dict[str, str] = {}
    taken: set[str] = set()
    for term in terms:
        if term in result:
            continue
        base = candidate = slug(term)
        count = 1
        while candidate in taken:
            count += 1
            candidate = f"{base}-{count}"
        taken.add(candidate)
        result[term] = candidate
    return result


def words(ops: Sequence[tuple[str, str]]) -> Markup:
    """A word diff: deletions in <del>, insertions in <ins>."""
    tags = {"-": "del", "+": "ins"}
    parts = []
    for op, chunk in ops:
        tag = tags.get(op)
        parts.append(Markup(f"<{tag}>%s</{tag}>") % plain(chunk) if tag else plain(chunk))
    return Markup("").join(parts)


def linked(text: str, links: Sequence[Link], href: Href) -> Markup:
    """The text with every reference target that `href` places turned into a link.

    A list links each number; a range links both ends ("603.7d" and "f") and lists the
    numbers in between after it, as small links, so that every target is one tap away.
    """
    parts: list[Markup] = []
    last = 0
    for link in sorted(links, key=lambda item: item.start):
        if link.start < last:
            continue
        parts.append(plain(text[last : link.start]))
        parts.append(_reference(text, link, href))
        last = link.end
    parts.append(plain(text[last:]))
    return Markup("").join(parts)


def _reference(text: str, link: Link, href: Href) -> Markup:
    """One reference with its targets linked where the text prints them, and the
    numbers a range spans without printing them after its far end."""
    places = {t.key: url for t in link.targets if (url := href(t)) is not None}
    span = text[link.start : link.end]
    if not places:
        return plain(span)
    if not any(t.start >= 0 for t in link.targets):
        return _whole(span, link.targets, places)
    parts: list[Markup] = []
    last = link.start
    near = ""  # the last printed number: what the numbers after it are shortened against
    waiting: list[str] = []
    for target in link.targets:
        if target.start < 0 or target.start < last:
            if target.key in places:
                waiting.append(target.key)
            continue
        printed = text[target.start : target.end]
        parts.append(plain(text[last : target.start]))
        url = places.get(target.key)
        parts.append(anchor(url, printed) if url else plain(printed))
        last = target.end
        parts.append(_thru(near, waiting, places))
        near, waiting = target.key, []
    parts += [plain(text[last : link.end]), _thru(near, waiting, places)]
    return Markup("").join(parts)


def _whole(span: str, targets: Sequence[Target], places: dict[str, str]) -> Markup:
    """A reference that prints none of its targets as such: its words link the first."""
    head = re.match(r"(?i)see(?: also)?\s+", span)
    cut = head.end() if head else 0
    first = next(t.key for t in targets if t.key in places)
    return plain(span[:cut]) + anchor(places[first], span[cut:])


def _thru(first: str, keys: Sequence[str], places: dict[str, str]) -> Markup:
    """The numbers a range spans without printing them, as small links."""
    if not keys:
        return Markup("")
    shown = Markup(" ").join(anchor(places[key], short(first, key)) for key in keys)
    return Markup('<span class="thru">(%s)</span>') % shown


def short(first: str, key: str) -> str:
    """How much of `key` to print after `first` in a range: "e" of 603.7e after 603.7d."""
    if not first:
        return key
    head = first.rstrip(_LETTERS)
    if head != first and key.startswith(head) and key[len(head) :].isalpha():
        return key[len(head) :]
    if "." in first:
        base = first.rsplit(".", 1)[0] + "."
        if key.startswith(base):
            return key[len(base) :]
    return key
