"""The reading of questions as data, for an engine that answers them elsewhere.

`rules_kb.search.answers` reads a question with what it knows of one edition (the judge's
vocabulary renumbered for it, the glossary's names, the keyword headings, the situations,
how often each rule is cited, the words of the multiplayer and casual settings) and scores
its candidates with a handful of weights. :func:`reading` writes all of that as plain JSON
data, with the index terms (Whoosh's Porter stems) of every token it may meet, so that the
web edition's search (`rules_kb/site/static/reading.js`) reads a question in the browser
the way `search` and `show` do. The two are kept in step by a test that asks both the same
questions (tests/site/test_site.py).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from typing import Any

from rules_kb.search import answers
from rules_kb.search.index import stem, stems, stop_words
from rules_kb.search.questions import _ASKING, QUESTION_WORDS, SITUATION_JOIN, SITUATION_WORDS

#: The weights and limits of `rules_kb.search.answers` the browser reads, by name.
WEIGHTS = (
    "COVERAGE", "RELEVANCE", "LIFT", "JOINS", "HEADING", "PARENT", "GLOSSARY", "EXAMPLE",
    "LONG_TEXT", "NAMED", "SITUATION", "FOREIGN_KEYWORD", "CARD_NAME", "ELSEWHERE",
    "BROAD_LIFT", "EXPANSION", "CITED", "PER_RULE", "COMMON", "CANDIDATES", "SUBTREE",
    "RETRIEVE", "POSTINGS", "BM25_K1", "BM25_B", "AVERAGE_STEMS",
)  # fmt: skip


def reading(
    conn: sqlite3.Connection, edition_id: int, edition: str, tokens: Iterable[str]
) -> dict[str, Any]:
    """What the ranking of questions reads of edition `edition` (its id `edition_id`), as
    JSON data. `tokens`: the lowercased tokens of the texts the other engine searches; the
    index term of each is given (with those of the vocabulary's words), so that the other
    engine needs a stemmer only for words the edition never uses."""
    book = answers.read_book(conn, edition_id, edition, stems)
    entries: dict[int, int] = {}
    listed: list[dict[str, Any]] = []
    phrases: list[list[Any]] = []
    words: set[str] = set(QUESTION_WORDS)
    for options in book.lexicon.phrases.values():
        for phrase, entry in options:
            at = entries.get(id(entry))
            if at is None:
                at = entries[id(entry)] = len(listed)
                listed.append(
                    {"t": entry.term, "w": list(entry.words), "m": list(entry.means),
                     "r": list(entry.rules), "b": entry.broad}
                )  # fmt: skip
            phrases.append([list(phrase), at])
            words.update(phrase)
            for said in (*entry.words, *entry.means, entry.term):
                words.update(said.lower().split())
    told = [
        {"n": item.name, "r": list(item.rules),
         "g": [[[list(written), list(forms)] for written, forms in group] for group in item.when]}
        for item in book.situations
    ]  # fmt: skip
    for item in book.situations:
        for group in item.when:
            for asked in group:
                words.update(asked[0])
    words.update(tokens)
    forms = {
        tuple(stems(written))
        for entry in listed
        for written in (*entry["w"], *entry["m"], entry["t"])
    }
    forms.update(tuple(stems(" ".join(phrase))) for phrase, _at in phrases)
    return {
        "edition": edition,
        "weights": {name: getattr(answers, name) for name in WEIGHTS},
        "asking": sorted(QUESTION_WORDS),
        "leading": sorted(_ASKING),
        "situationWords": SITUATION_WORDS,
        "situationJoin": SITUATION_JOIN,
        "stop": sorted(stop_words()),
        "stems": {word: stem(word) for word in sorted(words)},
        "entries": listed,
        "phrases": phrases,
        "situations": told,
        "cited": {number: round(value, 3) for number, value in sorted(book.cited.items())},
        "settings": {key: sorted(value) for key, value in sorted(book.settings.items())},
        "forms": sorted(form for form in forms if len(form) > 1),
    }
