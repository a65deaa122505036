"""Search highlights are quotations: every fragment is an exact piece of the hit's text,
cut where words start and end, with an ellipsis only where text was left out, and
HTML-escaped before the matches are wrapped in <b></b>.

The property test draws its queries from the rule texts themselves: random spans of one
to six words of random rules of random editions.
"""

from __future__ import annotations

import html
import random
import re
import sqlite3
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from rules_kb.errors import BadSearchQuery
from rules_kb.search import engine as core
from tests.search.test_search import conn, full_db, index, search_json

__all__ = ["conn", "full_db", "index"]  # fixtures, shared with tests/search/test_search.py

SEPARATOR = f" {core.ELLIPSIS} "
_WORD_CHAR = re.compile(r"\w")


def fragments(highlight: str) -> tuple[list[str], bool, bool]:
    """The quoted pieces of a highlight, and whether it opens and closes with an ellipsis."""
    plain = html.unescape(highlight.replace(core.MARK_OPEN, "").replace(core.MARK_CLOSE, ""))
    lead = plain.startswith(f"{core.ELLIPSIS} ")
    tail = plain.endswith(f" {core.ELLIPSIS}")
    if lead:
        plain = plain[2:]
    if tail:
        plain = plain[:-2]
    return plain.split(SEPARATOR), lead, tail


def on_boundary(text: str, at: int) -> bool:
    """Whether no word goes on across position `at`."""
    if at in (0, len(text)):
        return True
    return not (_WORD_CHAR.match(text[at - 1]) and _WORD_CHAR.match(text[at]))


def quoted_at(text: str, piece: str, start: int) -> int | None:
    """Where `piece` occurs in `text` at or after `start`, starting and ending on word
    boundaries (the first such place), or None."""
    at = text.find(piece, start)
    while at >= 0:
        if on_boundary(text, at) and on_boundary(text, at + len(piece)):
            return at
        at = text.find(piece, at + 1)
    return None


def check_quotation(text: str, highlight: str) -> None:
    """The whole contract of a highlight against the text it quotes."""
    assert highlight, text
    pieces, lead, tail = fragments(highlight)
    at = 0
    places = []
    for piece in pieces:
        assert piece and piece == piece.strip(), (piece, highlight)
        found = quoted_at(text, piece, at)
        assert found is not None, (piece, text)
        places.append((found, found + len(piece)))
        at = found + len(piece)
    first, last = places[0][0], places[-1][1]
    assert lead == bool(text[:first].strip()), (highlight, text)  # "…" only if text before
    assert tail == bool(text[last:].strip()), (highlight, text)
    for (_start, end), (start, _end) in pairwise(places):
        assert text[end:start].strip(), (highlight, text)  # " … " only if text between


def marked(highlight: str) -> list[str]:
    return [html.unescape(part) for part in re.findall(r"<b>(.*?)</b>", highlight)]


def test_random_queries_quote_their_hits(index: Any, conn: sqlite3.Connection) -> None:
    rng = random.Random(20261201)
    days = [str(day) for (day,) in conn.execute("SELECT date FROM editions ORDER BY date")]
    checked = searched = 0
    for _ in range(200):
        day = rng.choice(days)
        (text,) = conn.execute(
            "SELECT t.text FROM rules r JOIN texts t ON t.id = r.text_id"
            " JOIN editions e ON e.id = r.edition_id WHERE e.date = ?"
            " ORDER BY random() LIMIT 1",
            [day],
        ).fetchone()
        words = text.split()
        size = rng.randint(1, 6)
        start = rng.randrange(max(1, len(words) - size + 1))
        query = " ".join(words[start : start + size])
        try:
            found = index.search(conn, query, core.Filters(edition=day), limit=5)
        except BadSearchQuery:
            continue  # a span like "*" or "NOT" alone is no query
        searched += 1
        for hit in found.hits:
            check_quotation(hit.text, hit.highlight)
            checked += 1
    assert searched >= 190 and checked > 400


def test_a_fragment_never_cuts_a_word_or_a_bracket(full_db: Path) -> None:
    found = search_json(full_db, "cast without paying its mana cost", "--limit", "20")
    hit = next(hit for hit in found["hits"] if hit["number"] == "118.9")
    check_quotation(hit["text"], hit["highlight"])
    pieces, _lead, _tail = fragments(hit["highlight"])
    assert any("[this object’s] mana cost" in piece for piece in pieces), hit["highlight"]


def test_an_ellipsis_only_where_text_was_left_out(full_db: Path) -> None:
    found = search_json(full_db, "damage prevention", "--limit", "50")
    assert found["hits"]
    for hit in found["hits"]:
        check_quotation(hit["text"], hit["highlight"])
        assert f"prevention{SEPARATOR}shields" not in hit["highlight"].replace("<b>", "")


def test_short_texts_are_quoted_whole_with_their_punctuation(full_db: Path) -> None:
    found = search_json(full_db, "mana burn", "--kind", "glossary")
    hit = found["hits"][0]
    assert len(hit["text"]) <= core.WHOLE_TEXT
    plain = html.unescape(re.sub("</?b>", "", hit["highlight"]))
    assert plain == hit["text"] and plain.endswith(".")


def test_the_highlight_is_html_escaped(full_db: Path) -> None:
    found = search_json(full_db, "Wizards of the Coast website", "--all-editions", "--limit", "50")
    with_link = [hit for hit in found["hits"] if "<www." in hit["text"]]
    assert with_link
    for hit in found["hits"]:
        outside = re.sub("</?b>", "", hit["highlight"])
        assert "<" not in outside and ">" not in outside, hit["highlight"]
        check_quotation(hit["text"], hit["highlight"])
    assert all("&lt;www." in hit["highlight"] for hit in with_link)


def test_matches_are_the_query_words_and_their_forms(full_db: Path) -> None:
    found = search_json(full_db, "tramples", "--kind", "rule", "--limit", "20")
    words = {word.lower() for hit in found["hits"] for word in marked(hit["highlight"])}
    assert words and words <= {"trample", "tramples", "trampling", "trampled"}
    negated = search_json(full_db, "hexproof NOT shroud", "--limit", "20")
    assert all(
        "shroud" not in word.lower() for hit in negated["hits"] for word in marked(hit["highlight"])
    )


@pytest.mark.parametrize(
    ("text", "terms", "expected"),
    [
        ("Trample", {"trampl"}, "<b>Trample</b>"),
        ("a < bb & c", {"bb"}, "a &lt; <b>bb</b> &amp; c"),
        ("It's “quoted.”", {"quot"}, "It&#x27;s “<b>quoted</b>.”"),
    ],
)
def test_highlight_of_a_short_text(text: str, terms: set[str], expected: str) -> None:
    assert core.highlight(text, frozenset(terms)) == expected


def test_highlight_of_a_long_text_keeps_the_best_places() -> None:
    text = " ".join(f"word{i}" for i in range(200)) + " trample here. " + "filler " * 60 + "end."
    shown = core.highlight(text, frozenset({"trampl"}))
    check_quotation(text, shown)
    assert "<b>trample</b>" in shown and shown.startswith(core.ELLIPSIS)
    nothing = core.highlight(text, frozenset({"absent"}))
    check_quotation(text, nothing)
    assert nothing.startswith("word0") and nothing.endswith(core.ELLIPSIS)


def test_a_text_of_one_long_word_is_still_a_quotation() -> None:
    text = "x" * 500
    check_quotation(text, core.highlight(text, frozenset()))
    text += " trample"
    check_quotation(text, core.highlight(text, frozenset({"trampl"})))
