"""The fast path: a plain `rule`, `define`, `show` or `search`, and an `ingest` of files that are
all stored already, answered without importing Typer.

Only command lines made of options these commands document are answered here; anything
else (help, completion, an unknown option, a missing argument, a typo, an ingest with
work to do) is left to Typer, which reports it as usual. The answer is printed by the
same code as the Typer command (`rules_kb.cli.present`, `rules_kb.cli.render.ingest`),
and a failure by the same `report`.
"""

from __future__ import annotations

from pathlib import Path

COMMANDS = frozenset({"rule", "define", "show", "search"})
_SEARCH_VALUED = {"-n": "limit", "--limit": "limit"}
_VALUED = {
    "-e": "edition",
    "--edition": "edition",
    "--db": "db",
    "-f": "format",
    "--format": "format",
}
_FLAGS = {"--json": "json", "--split": "split"}
_FORMATS = frozenset({"text", "json", "markdown"})


def _global_options(argv: list[str]) -> tuple[dict[str, str], int] | None:
    """The options before the command (--no-pager, --db) and where the command is; None
    for any other option there."""
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
    return found, index


def parse(argv: list[str]) -> dict[str, str] | None:
    """The options of a plain lookup, or None when Typer should read the command line."""
    start = _global_options(argv)
    if start is None:
        return None
    found, index = start
    if index >= len(argv) or argv[index] not in COMMANDS:
        return None
    found["command"] = argv[index]
    limited = found["command"] in {"search", "show"}
    valued = {**_VALUED, **_SEARCH_VALUED} if limited else _VALUED
    rest = argv[index + 1 :]
    position = 0
    while position < len(rest):
        word = rest[position]
        name, _, inline = word.partition("=")
        if word in _FLAGS:
            found[_FLAGS[word]] = "1"
        elif name in valued and inline and name.startswith("--"):
            found[valued[name]] = inline
        elif word in valued and position + 1 < len(rest):
            found[valued[word]] = rest[position + 1]
            position += 1
        elif word.startswith("-") or "query" in found:
            return None
        else:
            found["query"] = word
        position += 1
    if "query" not in found or found.get("format", "text") not in _FORMATS:
        return None
    if "limit" in found and not _within(found["limit"], 1, 500):
        return None
    if "json" in found and found.get("format", "json") != "json":
        return None  # Typer says why these two do not go together
    return found


_INGEST_FLAGS = {"--json": "json", "--no-index": "no_index"}
_JOBS = ("-j", "--jobs")


def parse_ingest(argv: list[str]) -> tuple[dict[str, str], list[str]] | None:
    """The options and paths of a plain `ingest`, or None when Typer should read it."""
    start = _global_options(argv)
    if start is None:
        return None
    found, index = start
    if index >= len(argv) or argv[index] != "ingest":
        return None
    paths: list[str] = []
    rest = argv[index + 1 :]
    position = 0
    while position < len(rest):
        word = rest[position]
        if word in _INGEST_FLAGS:
            found[_INGEST_FLAGS[word]] = "1"
        elif word == "--db" and position + 1 < len(rest):
            found["db"] = rest[position + 1]
            position += 1
        elif word.startswith("--db="):
            found["db"] = word[5:]
        elif word in _JOBS and position + 1 < len(rest) and _jobs(rest[position + 1]):
            position += 1
        elif word.startswith("--jobs=") and _jobs(word[7:]):
            pass
        elif word.startswith("-"):
            return None
        else:
            paths.append(word)
        position += 1
    return (found, paths) if paths else None


def _jobs(value: str) -> bool:
    """Whether Typer would take this --jobs value."""
    return _within(value, 1, 64)


def _within(value: str, low: int, high: int) -> bool:
    """Whether the value is an integer Typer would take for an option of this range."""
    return value.isascii() and value.isdigit() and low <= int(value) <= high


def answer(argv: list[str]) -> int | None:
    """Answer a plain lookup, or an ingest with nothing to do, and return its exit code;
    None to leave it to Typer."""
    ingest = parse_ingest(argv)
    if ingest is not None:
        return _unchanged(*ingest)
    options = parse(argv)
    if options is None:
        return None
    from rules_kb.cli.failures import CAUGHT, report
    from rules_kb.cli.present import (
        PAGING,
        Format,
        show_definition,
        show_found,
        show_results,
        show_rule,
    )

    PAGING["on"] = "no_pager" not in options
    form = Format.json if "json" in options else Format(options.get("format", "text"))
    split = "split" in options
    try:
        # As the Typer commands: a search shows progress (of an index build) only beside
        # text output.
        quiet = options["command"] == "search" and form is not Format.text
        kb = _knowledge_base(options.get("db"), quiet=quiet)
        edition = options.get("edition", "latest")
        if options["command"] == "rule":
            show_rule(kb.rule(options["query"], edition), form, split=split)
        elif options["command"] == "search":
            limit = int(options.get("limit", "10"))
            show_results(kb.search(options["query"], edition, limit=limit), form, split=split)
        elif options["command"] == "show":
            limit_given = int(options["limit"]) if "limit" in options else None
            show_found(kb.show(options["query"], edition, limit=limit_given), form, split=split)
        else:
            found = kb.define(options["query"], edition)
            show_definition(found, options["query"], form, split=split)
    except CAUGHT as failure:
        return report(failure)
    return 0


def _unchanged(options: dict[str, str], paths: list[str]) -> int | None:
    """0 once it has printed what `ingest` prints when every file's bytes are stored
    already (and the search index is up to date, unless --no-index); None when there is
    work to do, or anything to report, and Typer's command should do it."""
    from rules_kb.cli.failures import CAUGHT
    from rules_kb.cli.present import PAGING

    PAGING["on"] = "no_pager" not in options
    try:
        kb = _knowledge_base(options.get("db"), existing=True)
        if kb is None:
            return None
        outcomes = kb.stored_outcomes(paths, index="no_index" not in options)
    except CAUGHT:
        return None  # the command says it, as usual
    if outcomes is None:
        return None
    from rules_kb.cli.render.ingest import printed

    printed(outcomes, as_json="json" in options)
    return 0


def _knowledge_base(  # type: ignore[no-untyped-def]
    db: str | None, *, existing: bool = False, quiet: bool = False
):
    """The command's knowledge base, as the Typer commands open it; with `existing`,
    None when there is no database file yet."""
    from rules_kb.cli.opening import database_file, opened

    path = database_file(Path(db) if db else None)
    if existing and not path.is_file():
        return None
    return opened(path, quiet=quiet)
