"""Typography folded for comparison and search; storage keeps the text as published."""

from __future__ import annotations

#: Curly quotes, en and em dashes and the non-breaking hyphen, as their ASCII forms.
_FOLD = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"', "–": "-", "—": "-", "‑": "-"})


def fold(text: str) -> str:
    """The text with curly quotes and dashes made straight."""
    return text.translate(_FOLD)


def plain(text: str) -> str:
    """The text with typography folded and white space collapsed."""
    return " ".join(fold(text).split())
