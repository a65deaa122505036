"""What reads as a title: a heading or a name rather than a sentence.

Ingest, search and the web edition ask it of texts; it lives apart from the records so
that asking it imports no record classes (a cold search pays for none it does not show).
"""

from __future__ import annotations

#: A text this long or shorter that does not end like a sentence is a title or a name.
TITLE_LENGTH = 60


def is_title(text: str) -> bool:
    """A heading's title or a name ("Trample", "Game Concepts"), not a sentence (one that
    ends in a full stop, or in a colon before a list: "There are five special actions:")."""
    return len(text) <= TITLE_LENGTH and not text.rstrip().endswith((".", ":"))
