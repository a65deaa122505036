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
#: A rule, chapter or section number inside a reference ("603.7d", "119.7", "306").
_NUMBER = re.compile(r"\d+(?:\.\d+[a-z]*)?")
#: The far end of a range, after its dash: "–f" in "603.7d–f", "–8" in "119.7–8".
_RANGE_END = re.compile(r"\s*(?:–|—|--|-)\s*(\d+(?:\.\d+[a-z]*)?|[a-z]+)\b")

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
        parts.append(_reference(text[link.start : link.end], link.targets, href))
        last = link.end
    parts.append(plain(text[last:]))
    return Markup("").join(parts)


def _reference(span: str, targets: Sequence[Target], href: Href) -> Markup:
    """One reference span with its targets linked where they are printed."""
    places = {t.key: url for t in targets if (url := href(t)) is not None}
    if not places:
        return plain(span)
    if all(t.kind == "glossary" for t in targets):
        return _terms(span, targets, places)
    parts: list[Markup] = []
    done: set[str] = set()
    last = 0
    for match in _NUMBER.finditer(span):
        if match.start() < last:
            continue
        number = match.group()
        if number not in places:
            continue
        parts += [plain(span[last : match.start()]), anchor(places[number], number)]
        done.add(number)
        last = match.end()
        tail = _RANGE_END.match(span, last)
        if tail is None:
            continue
        end = _range_end(number, tail.group(1), targets)
        if end is None:
            continue
        inside = _between(number, end, targets)
        if end.key in places:
            parts += [plain(span[last : tail.start(1)]), anchor(places[end.key], tail.group(1))]
            done.add(end.key)
        else:
            parts.append(plain(span[last : tail.end()]))
        last = tail.end()
        inner = [t.key for t in inside if t.key in places]
        done.update(inner)
        parts.append(_thru(number, inner, places))
    parts.append(plain(span[last:]))
    rest = [t.key for t in targets if t.key in places and t.key not in done]
    if rest:
        parts.append(_thru("", rest, places))
    return Markup("").join(parts)


def _range_end(first: str, printed: str, targets: Sequence[Target]) -> Target | None:
    """The target a range's printed end stands for: "f" after 603.7d is 603.7f, "8"
    after 119.7 is 119.8, "903.11" is itself."""
    if printed.isalpha():
        full = first.rstrip(_LETTERS) + printed
    elif "." in printed or "." not in first:
        full = printed
    else:
        full = first.rsplit(".", 1)[0] + "." + printed
    keys = [t.key for t in targets]
    if first not in keys or full not in keys[keys.index(first) + 1 :]:
        return None
    return targets[keys.index(full, keys.index(first) + 1)]


def _between(first: str, end: Target, targets: Sequence[Target]) -> list[Target]:
    """The targets of a range strictly between its two printed ends."""
    keys = [t.key for t in targets]
    start = keys.index(first)
    return list(targets[start + 1 : keys.index(end.key, start + 1)])


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


def _terms(span: str, targets: Sequence[Target], places: dict[str, str]) -> Markup:
    """A glossary "See X" / "See also X, Y": each term linked where it is printed."""
    lower = span.lower()
    found: list[tuple[int, int, str]] = []
    for target in targets:
        if target.key not in places:
            continue
        at = lower.find(target.key.lower())
        if at >= 0 and not any(s <= at < e for s, e, _ in found):
            found.append((at, at + len(target.key), target.key))
    if not found:
        head = re.match(r"(?i)see(?: also)?\s+", span)
        cut = head.end() if head else 0
        first = next(t.key for t in targets if t.key in places)
        return plain(span[:cut]) + anchor(places[first], span[cut:])
    parts: list[Markup] = []
    last = 0
    for start, end, key in sorted(found):
        parts += [plain(span[last:start]), anchor(places[key], span[start:end])]
        last = end
    parts.append(plain(span[last:]))
    return Markup("").join(parts)
