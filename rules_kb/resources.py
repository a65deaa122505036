"""Files that ship inside the wheel: the grammars and the data the code reads."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

#: Package name in an installed wheel -> folder at the top of a checkout.
_CHECKOUT_FOLDERS = {"rules_kb.grammars": "grammars", "rules_kb.data": "data"}


def read_text(package: str, name: str) -> str:
    """A packaged file's text: from the installed package, or from the checkout's folder
    when running from a source tree that was not installed (`python cli.py`)."""
    try:
        return resources.files(package).joinpath(name).read_text("utf-8")
    except ModuleNotFoundError:
        folder = Path(__file__).resolve().parent.parent / _CHECKOUT_FOLDERS[package]
        return (folder / name).read_text("utf-8")
