"""The options of the commands the fast path answers, as the Typer commands define
them: flag -> (parameter, kind, allowed). Written by `python -m rules_kb.cli.tables`
from the Typer app; never edit it by hand (tests/cli/test_fast.py fails when it is
stale)."""

from typing import Any

Table = dict[str, tuple[str, str, Any]]

GLOBAL: Table = {
    "--db": ("db", "text", None),
    "--install-completion": ("install_completion", "flag", None),
    "--no-pager": ("no_pager", "flag", None),
    "--show-completion": ("show_completion", "flag", None),
    "--verbose": ("verbose", "flag", None),
    "--version": ("version", "flag", None),
    "-v": ("verbose", "flag", None),
}
_DEFINE_RULE: Table = {
    "--db": ("db", "text", None),
    "--edition": ("edition", "text", None),
    "--format": ("form", "choice", ("text", "json", "markdown")),
    "--json": ("json_out", "flag", None),
    "--split": ("split", "flag", None),
    "-e": ("edition", "text", None),
    "-f": ("form", "choice", ("text", "json", "markdown")),
}
COMMANDS: dict[str, Table] = {
    "define": _DEFINE_RULE,
    "ingest": {
        "--db": ("db", "text", None),
        "--jobs": ("jobs", "int", (1, 64)),
        "--json": ("json_out", "flag", None),
        "--no-index": ("no_index", "flag", None),
        "--replace": ("replace", "flag", None),
        "-j": ("jobs", "int", (1, 64)),
    },
    "rule": _DEFINE_RULE,
    "search": {
        "--all-editions": ("all_editions", "flag", None),
        "--chapter": ("chapter", "text", None),
        "--db": ("db", "text", None),
        "--edition": ("edition", "text", None),
        "--format": ("form", "choice", ("text", "json", "markdown")),
        "--json": ("json_out", "flag", None),
        "--kind": ("kind", "choice", ("rule", "example", "glossary")),
        "--limit": ("limit", "int", (1, 500)),
        "--section": ("section", "text", None),
        "--split": ("split", "flag", None),
        "-e": ("edition", "text", None),
        "-f": ("form", "choice", ("text", "json", "markdown")),
        "-n": ("limit", "int", (1, 500)),
    },
    "show": {
        "--db": ("db", "text", None),
        "--edition": ("edition", "text", None),
        "--format": ("form", "choice", ("text", "json", "markdown")),
        "--json": ("json_out", "flag", None),
        "--limit": ("limit", "int", (1, 500)),
        "--split": ("split", "flag", None),
        "-e": ("edition", "text", None),
        "-f": ("form", "choice", ("text", "json", "markdown")),
        "-n": ("limit", "int", (1, 500)),
    },
}
