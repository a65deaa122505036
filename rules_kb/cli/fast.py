"""The fast path: a plain `rule` or `define` lookup answered without importing Typer.

Only command lines made of options these two commands document are answered here;
anything else (help, completion, an unknown option, a missing argument, a typo) is left
to Typer, which reports it as usual. The answer is printed by the same code as the
Typer command (`rules_kb.cli.present`), and a failure by the same `report`.
"""

from __future__ import annotations

from pathlib import Path

COMMANDS = frozenset({"rule", "define"})
_VALUED = {
    "-e": "edition",
    "--edition": "edition",
    "--db": "db",
    "-f": "format",
    "--format": "format",
}
_FLAGS = {"--json": "json", "--split": "split"}
_FORMATS = frozenset({"text", "json", "markdown"})


def parse(argv: list[str]) -> dict[str, str] | None:
    """The options of a plain lookup, or None when Typer should read the command line."""
    found: dict[str, str] = {}
    index = 0
    while index < len(argv) and argv[index].startswith("-"):
        word = argv[index]
        if word == "--no-pager":
            found["no_pager"] = "1"
            index += 1
        elif word == "--db" and index + 1 < len(argv):
            found["db"] = argv[index + 1]
            index += 2
        elif word.startswith("--db="):
            found["db"] = word[5:]
            index += 1
        else:
            return None
    if index >= len(argv) or argv[index] not in COMMANDS:
        return None
    found["command"] = argv[index]
    rest = argv[index + 1 :]
    position = 0
    while position < len(rest):
        word = rest[position]
        name, _, inline = word.partition("=")
        if word in _FLAGS:
            found[_FLAGS[word]] = "1"
        elif name in _VALUED and inline and name.startswith("--"):
            found[_VALUED[name]] = inline
        elif word in _VALUED and position + 1 < len(rest):
            found[_VALUED[word]] = rest[position + 1]
            position += 1
        elif word.startswith("-") or "query" in found:
            return None
        else:
            found["query"] = word
        position += 1
    if "query" not in found or found.get("format", "text") not in _FORMATS:
        return None
    if "json" in found and found.get("format", "json") != "json":
        return None  # Typer says why these two do not go together
    return found


def answer(argv: list[str]) -> int | None:
    """Answer a plain lookup and return its exit code; None to leave it to Typer."""
    options = parse(argv)
    if options is None:
        return None
    from rules_kb.cli.failures import CAUGHT, report
    from rules_kb.cli.present import PAGING, Format, show_definition, show_rule

    PAGING["on"] = "no_pager" not in options
    form = Format.json if "json" in options else Format(options.get("format", "text"))
    split = "split" in options
    try:
        kb = _knowledge_base(options.get("db"))
        edition = options.get("edition", "latest")
        if options["command"] == "rule":
            show_rule(kb.rule(options["query"], edition), form, split=split)
        else:
            found = kb.define(options["query"], edition)
            show_definition(found, options["query"], form, split=split)
    except CAUGHT as failure:
        return report(failure)
    return 0


def _knowledge_base(db: str | None):  # type: ignore[no-untyped-def]
    import rules_kb
    from rules_kb.api import default_path
    from rules_kb.cli.failures import Exit
    from rules_kb.cli.progress import bars

    path = Path(db) if db else default_path()
    if path.is_dir():
        raise Exit(f"{path} is a folder: give the database file, e.g. {path / 'rules.db'}")
    return rules_kb.open(path, progress=bars())
