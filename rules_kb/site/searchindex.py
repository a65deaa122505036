"""The in-page search: a MiniSearch index of one edition, built here and loaded as is.

The index is MiniSearch's own serialisation (`MiniSearch.loadJS`, format version 2),
so the browser does no indexing. Terms are cut and folded exactly as `static/site.js`
cuts and folds the query: keep the two in step (tests/site/test_site.py compares this
index with one MiniSearch builds itself from the same documents).
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from rules_kb.search.index import stem

#: Tokens: a rule number whole ("702.19b"), else runs of letters and digits.
TOKEN = re.compile(r"[0-9]+(?:\.[0-9]+[a-z]*)?|[^\W_]+")
#: The indexed fields: number (or term), heading, text.
FIELDS = ("n", "h", "x")
#: Stored with each document, for the result list: number or term, kind, url, preview.
STORED = ("n", "k", "u", "t")
PREVIEW = 110


@dataclass(frozen=True, slots=True)
class Document:
    """One searchable thing: a rule, an example or a glossary entry."""

    label: str
    """What the result list shows first: the rule number, or the glossary term."""
    kind: str
    """"s" section, "c" chapter, "r" rule or subrule, "e" example, "g" glossary."""
    url: str
    """Where it is, relative to the site's root."""
    heading: str
    """A short title: the rule's heading, the glossary term; "" for others."""
    text: str
    """The words to search."""

    @property
    def number(self) -> str:
        """The number field: a rule's number; "" for glossary entries (their term is the
        heading, so that a rule's number outranks a word)."""
        return "" if self.kind == "g" else self.label


def tokens(text: str) -> list[str]:
    """The tokens of a text, before folding (site.js tokenize)."""
    return TOKEN.findall(text.lower())


def plain(token: str) -> str:
    """A token with its accents dropped (site.js `plain`)."""
    decomposed = unicodedata.normalize("NFD", token)
    return "".join(c for c in decomposed if not unicodedata.category(c).startswith("M"))


def fold(term: str) -> str | None:
    """A token as the index keeps it: accents dropped, then the term `rules-kb search`
    indexes for it (its Porter stem); None for the stop words and single letters it drops
    (site.js processTerm, which is given these terms for every token of the edition)."""
    return stem(plain(term)) or None


def preview(text: str) -> str:
    """The start of a text, cut at a word, for the result list."""
    flat = " ".join(text.split())
    if len(flat) <= PREVIEW:
        return flat
    return flat[:PREVIEW].rsplit(" ", 1)[0] + "…"


def serialise(documents: Sequence[Document], edition: str) -> dict[str, Any]:
    """The MiniSearch index of the documents of `edition`, as `MiniSearch.toJSON()` would
    write it (the stored links shortened: see `_stored`)."""
    postings: dict[str, dict[int, Counter[int]]] = {}
    lengths: dict[str, list[int]] = {}
    totals = [0] * len(FIELDS)
    for doc_id, document in enumerate(documents):
        values = (document.number, document.heading, document.text)
        row = []
        for field_id, value in enumerate(values):
            cut = tokens(value)
            row.append(len(set(cut)))
            totals[field_id] += row[-1]
            for token in cut:
                term = fold(token)
                if term:
                    postings.setdefault(term, {}).setdefault(field_id, Counter())[doc_id] += 1
        lengths[str(doc_id)] = row
    count = len(documents)
    return {
        "documentCount": count,
        "nextId": count,
        "documentIds": {str(i): i for i in range(count)},
        "fieldIds": {name: i for i, name in enumerate(FIELDS)},
        "fieldLength": lengths,
        "averageFieldLength": [total / count if count else 0 for total in totals],
        "storedFields": {
            str(i): _stored(document, edition) for i, document in enumerate(documents)
        },
        "dirtCount": 0,
        "index": [
            [term, {str(f): {str(d): n for d, n in docs.items()} for f, docs in fields.items()}]
            for term, fields in postings.items()
        ],
        "serializationVersion": 2,
    }


def _stored(document: Document, edition: str) -> dict[str, str]:
    """What a result shows and links to. The link is kept short, as site.js reads it: left
    out for a rule on its chapter's page at its own number ("702.html#702.19b"), else
    relative to the edition's folder, else (another folder) from the site's root, "/" first."""
    stored = {"n": document.label, "k": document.kind, "t": shown(document)}
    folder = f"e/{edition}/"
    if document.kind == "r" and document.url == derived_url(document.label, edition):
        return stored
    if document.url.startswith(folder):
        stored["u"] = document.url[len(folder) :]
    else:
        stored["u"] = "/" + document.url
    return stored


def derived_url(number: str, edition: str) -> str:
    """Where a rule is when nothing else is said: its chapter's page, at its number
    (site.js `link`)."""
    return f"e/{edition}/{number.split('.')[0]}.html#{number}"


def link(stored: dict[str, str], edition: str) -> str:
    """A result's link from the site's root, from what `_stored` kept (site.js `link`)."""
    if "u" not in stored:
        return derived_url(stored["n"], edition)
    if stored["u"].startswith("/"):
        return stored["u"][1:]
    return f"e/{edition}/{stored['u']}"


def shown(document: Document) -> str:
    """The line under the label: a rule's heading, else the start of its text."""
    if document.heading and document.heading != document.label:
        return document.heading
    return preview(document.text)


def script(index: dict[str, Any], edition: str, reading: dict[str, Any] | None = None) -> str:
    """The index as a script that assigns a global (a <script> tag loads it from file://,
    where fetching a JSON file is refused), with what reading.js reads a question with."""
    body = json.dumps(index, ensure_ascii=False, separators=(",", ":"))
    body = body.replace("</", "<\\/")
    asking = json.dumps(asking_words(), separators=(",", ":"))
    read = json.dumps(reading or {}, ensure_ascii=False, separators=(",", ":"))
    read = read.replace("</", "<\\/")
    return (
        f"window.RULES_KB_INDEX={body};window.RULES_KB_EDITION={json.dumps(edition)};"
        f"window.RULES_KB_ASKING={asking};window.RULES_KB_READING={read};\n"
    )


def asking_words() -> list[str]:
    """The words of a question that a query leaves out unless nothing else is left
    (rules_kb.search.questions.QUESTION_WORDS as the site's tokens: "doesn't" is "doesn")."""
    from rules_kb.search.questions import QUESTION_WORDS  # (the site's search mirrors them)

    found = {
        token for word in QUESTION_WORDS for token in tokens(word) if len(token) > 1 and fold(token)
    }
    return sorted(found)


def reading_of(documents: Sequence[Document]) -> dict[str, Any]:
    """What reading.js needs of the documents themselves, by their ids: which are a
    heading's title (`titles`, by number), how much longer than a typical rule each long
    one is (`long`), how many index terms each text has as `search` scores it (`lengths`:
    a glossary entry's with its term), and every token they hold (`tokens`, for the index
    terms of the vocabulary's reading). How many documents hold each term is search's,
    over every edition (`KnowledgeBase.question_reading`)."""
    from rules_kb.search.answers import long_text
    from rules_kb.search.index import stems

    found: set[str] = set()
    for document in documents:
        found.update(plain(token) for token in tokens(document.text))
        found.update(plain(token) for token in tokens(document.heading))
    titles = sorted({d.label for d in documents if d.kind in "scr" and d.heading})
    long = {
        str(at): round(value, 3)
        for at, document in enumerate(documents)
        if (value := long_text(document.text))
    }
    lengths = [len(stems(f"{d.heading}\n{d.text}" if d.kind == "g" else d.text)) for d in documents]
    return {"titles": titles, "long": long, "lengths": lengths, "tokens": sorted(found)}


def phrase_postings(
    documents: Sequence[Document], forms: Iterable[Sequence[str]]
) -> dict[str, list[int]]:
    """For each form of two terms or more (a phrase of the vocabulary, as index terms),
    the documents whose text holds it word for word, by id (none for many): the browser
    has each document's terms, not their order."""
    wanted = {tuple(form) for form in forms if len(form) > 1}
    widths = sorted({len(form) for form in wanted})
    found: dict[str, list[int]] = {" ".join(form): [] for form in wanted}
    for at, document in enumerate(documents):
        terms = [term for token in tokens(document.text) if (term := fold(token))]
        seen: set[tuple[str, ...]] = set()
        for start in range(len(terms)):
            for width in widths:
                window = tuple(terms[start : start + width])
                if len(window) == width and window in wanted and window not in seen:
                    seen.add(window)
                    found[" ".join(window)].append(at)
    return dict(sorted(found.items()))


def documents_as_json(documents: Iterable[Document]) -> list[dict[str, str | int]]:
    """The documents as MiniSearch's `addAll` takes them (for the test that compares)."""
    return [
        {"id": i, "n": d.number, "h": d.heading, "x": d.text, "k": d.kind, "u": d.url,
         "t": shown(d)}
        for i, d in enumerate(documents)
    ]  # fmt: skip
