"""Atom feeds of the real changes (RFC 4287): one entry per edition, linking to its diff.

`rules-kb changes --atom` prints one; `rules-kb site` writes `feeds/changes.atom` (every
edition) and `feeds/chapter-NNN.atom` (the editions that changed a chapter). Entries
name their edition, say how many real changes it made (typography apart) and list them;
their link is the edition's diff page.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from xml.etree import ElementTree as ET

from rules_kb.controls import visible
from rules_kb.records.changes import EditionChanges
from rules_kb.records.diff import Change

ATOM = "http://www.w3.org/2005/Atom"
#: The tag URI authority of every id (RFC 4151): stable, and no host is needed.
TAG = "tag:rules-kb.invalid,2026:"


def atom(
    editions: Sequence[EditionChanges],
    *,
    title: str,
    name: str,
    link: Callable[[EditionChanges], str],
    self_href: str | None = None,
) -> str:
    """An Atom feed with an entry per edition (newest first). `name` makes the feed's id
    ("changes", "chapter-702"); `link` gives an entry's diff page."""
    name = re.sub(r"[^A-Za-z0-9.-]+", "-", name)  # a tag URI's specific part
    ET.register_namespace("", ATOM)
    feed = ET.Element(f"{{{ATOM}}}feed")
    _text(feed, "title", title)
    _text(feed, "id", f"{TAG}{name}")
    newest = max((edition.edition for edition in editions), default="1999-04-23")
    _text(feed, "updated", _stamp(newest))
    author = ET.SubElement(feed, f"{{{ATOM}}}author")
    _text(author, "name", "rules-kb")
    if self_href is not None:
        ET.SubElement(feed, f"{{{ATOM}}}link", rel="self", href=self_href)
    for edition in sorted(editions, key=lambda e: e.edition, reverse=True):
        entry = ET.SubElement(feed, f"{{{ATOM}}}entry")
        count = len(edition.changes)
        noun = "real change" if count == 1 else "real changes"
        _text(entry, "title", f"{edition.edition}: {count} {noun} since {edition.previous}")
        _text(entry, "id", f"{TAG}{name}:{edition.edition}")
        _text(entry, "updated", _stamp(edition.edition))
        ET.SubElement(entry, f"{{{ATOM}}}link", rel="alternate", href=link(edition))
        _text(entry, "summary", _summary(edition.changes) or "No real change.")
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(feed, encoding="unicode")


def _text(parent: ET.Element, tag: str, text: str) -> None:
    ET.SubElement(parent, f"{{{ATOM}}}{tag}").text = visible(text)


def _stamp(day: str) -> str:
    return f"{day}T00:00:00Z"


def _summary(changes: Sequence[Change], most: int = 60) -> str:
    """One line per change: its type and its numbers (or terms)."""
    lines = []
    for change in changes[:most]:
        old, new = change.old_key, change.new_key
        label = new if old in (None, new) else (old if new is None else f"{old} → {new}")
        only = " (example only)" if change.example_only else ""
        lines.append(f"{change.type} {label}{only}")
    if len(changes) > most:
        lines.append(f"… and {len(changes) - most} more")
    return "\n".join(lines)
