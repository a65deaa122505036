"""The largest argument each way in accepts, checked before any work is done.

Every face (the command line, the Python API, the MCP server) goes through the API, so
a hostile argument gets the same one-line refusal everywhere, in constant time, before
anything reads the database: a million-character edition is not compared with every
set name, and a pasted book is not scanned for citations.
"""

from __future__ import annotations

from rules_kb.errors import TooLong

#: Editions ("2026-08-07", "latest", a set code or name) and rule numbers.
EDITION = 64
NUMBER = 64
#: Glossary terms, keywords, and "a number or a term".
TERM = 200
#: Search queries and questions.
QUERY = 1000
#: Texts whose citations `cite` checks, in characters.
TEXT = 1_000_000


def edition(value: str, what: str = "edition") -> str:
    """The value, or TooLong for an edition longer than EDITION characters."""
    return _within(value, EDITION, what)


def number(value: str) -> str:
    """The value, or TooLong for a rule number longer than NUMBER characters."""
    return _within(value, NUMBER, "rule number")


def term(value: str, what: str = "term") -> str:
    """The value, or TooLong for a term (or number or term) longer than TERM characters."""
    return _within(value, TERM, what)


def query(value: str) -> str:
    """The value, or TooLong for a query longer than QUERY characters."""
    return _within(value, QUERY, "search query")


def text(value: str) -> str:
    """The value, or TooLong for a text longer than TEXT characters."""
    return _within(value, TEXT, "text")


def _within(value: str, limit: int, what: str) -> str:
    if len(value) > limit:
        raise TooLong(f"the {what} is {len(value):,} characters long; the limit is {limit:,}")
    return value
