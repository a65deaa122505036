"""The fast path: a plain `rule`, `define`, `show` or `search`, and an `ingest` of files that are
all stored already, answered without importing Typer.

Its option tables are the Typer commands' own: `rules_kb/cli/fast_options.py` is written
from the Typer app by `python -m rules_kb.cli.fast` (a test fails when it is out of date),
never by hand. Only command lines made of those options are answered here; anything else
(help, completion, an unknown option, a missing argument, a value Typer would refuse, an
ingest with work to do) is left to Typer, which reports it as usual. The answer is printed
by the same code as the Typer command (`rules_kb.cli.present`,
`rules_kb.cli.render.ingest`), and a failure by the same `report`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rules_kb.cli.fast_options import COMMANDS, GLOBAL, Table
from rules_kb.cli.settings import Settings

#: The lookups answered here (an ingest is answered apart).
LOOKUPS = frozenset({"rule", "define", "show", "search"})
#: The parameters the fast path reads; a command line using any other option of the
#: command (`search --kind`, say) is Typer's.
_GLOBAL_READ = frozenset({"db", "no_pager", "verbose"})
_READ = _GLOBAL_READ | {"edition", "form", "json_out", "split", "limit"}
_READ_BY_INGEST = _GLOBAL_READ | {"json_out", "no_index", "jobs"}  # (--replace has work)
#: Global options left to Typer: it answers these itself and ends.
_LEFT_TO_TYPER = frozenset({"version", "install_completion", "show_completion"})

Options = dict[str, Any]


def _value(spec: tuple[str, Any], given: str) -> Any:
    """The value Typer would give an option, or None where it would refuse it."""
    kind, allowed = spec
    if kind == "choice":
        return given if given in allowed else None
    if kind == "int":
        low, high = allowed
        if not (given.isascii() and given.isdigit()):
            return None
        number = int(given)
        return number if low <= number <= high else None
    return given


def _read(words: list[str], table: Table) -> tuple[Options, list[str]] | None:
    """The options of `table` in `words` and the other words (arguments), or None for a
    word Typer should read: an unknown option, a value it would refuse, a value missing."""
    found: Options = {}
    arguments: list[str] = []
    position = 0
    while position < len(words):
        word = words[position]
        name, equals, inline = word.partition("=")
        if word in table and table[word][1] == "flag":
            found[table[word][0]] = True
        elif name.startswith("--") and equals and name in table and table[name][1] != "flag":
            value = _value(table[name][1:], inline)
            if value is None:
                return None
            found[table[name][0]] = value
        elif word in table and position + 1 < len(words):
            value = _value(table[word][1:], words[position + 1])
            if value is None:
                return None
            found[table[word][0]] = value
            position += 1
        elif word.startswith("-"):
            return None
        else:
            arguments.append(word)
        position += 1
    return found, arguments


def parse(argv: list[str]) -> tuple[str, Options, list[str]] | None:
    """The command, its options (global ones included) and its arguments, for a command
    line the fast path may answer; None when Typer should read it."""
    start = 0
    while start < len(argv) and argv[start].startswith("-"):
        start += 1 if GLOBAL.get(argv[start], ("", "flag"))[1] == "flag" else 2
    if start >= len(argv) or argv[start] not in COMMANDS:
        return None
    leading = _read(argv[:start], GLOBAL)
    if leading is None or leading[1] or _LEFT_TO_TYPER & leading[0].keys():
        return None
    command = argv[start]
    rest = _read(argv[start + 1 :], COMMANDS[command])
    if rest is None:
        return None
    options, arguments = {**leading[0], **rest[0]}, rest[1]
    if command == "ingest":
        return (
            (command, options, arguments)
            if arguments and options.keys() <= _READ_BY_INGEST
            else None
        )
    if options.keys() - _READ or len(arguments) != 1:
        return None
    if options.get("json_out") and options.get("form", "json") != "json":
        return None  # Typer says why these two do not go together
    return command, options, arguments


def settings(options: Options) -> Settings:
    """The output settings the global options ask for, as Typer's callback makes them."""
    db = options.get("db")
    return Settings(
        db=Path(db) if db else None,
        pager=not options.get("no_pager", False),
        verbose=options.get("verbose", False),
    )


def answer(argv: list[str]) -> int | None:
    """Answer a plain lookup, or an ingest with nothing to do, and return its exit code;
    None to leave it to Typer."""
    parsed = parse(argv)
    if parsed is None:
        return None
    command, options, arguments = parsed
    if command == "ingest":
        return _unchanged(options, arguments)
    from rules_kb.cli.failures import CAUGHT, report
    from rules_kb.cli.present import Format, show_definition, show_found, show_results, show_rule

    chosen = settings(options)
    form = Format.json if options.get("json_out") else Format(options.get("form", "text"))
    split = options.get("split", False)
    (query,) = arguments
    try:
        # As the Typer commands: a search shows progress (of an index build) only beside
        # text output.
        quiet = command == "search" and form is not Format.text
        kb = _knowledge_base(chosen, quiet=quiet)
        edition = options.get("edition", "latest")
        if command == "rule":
            show_rule(kb.rule(query, edition), form, chosen, split=split)
        elif command == "search":
            found = kb.search(query, edition, limit=options.get("limit", 10))
            show_results(found, form, chosen, split=split)
        elif command == "show":
            shown = kb.show(query, edition, limit=options.get("limit"))
            show_found(shown, form, chosen, split=split)
        else:
            show_definition(kb.define(query, edition), query, form, chosen, split=split)
    except CAUGHT as failure:
        return report(failure, verbose=chosen.verbose)
    return 0


def _unchanged(options: Options, paths: list[str]) -> int | None:
    """0 once it has printed what `ingest` prints when every file's bytes are stored
    already (and the search index is up to date, unless --no-index); None when there is
    work to do, or anything to report, and Typer's command should do it."""
    from rules_kb.cli.failures import CAUGHT

    chosen = settings(options)
    try:
        kb = _knowledge_base(chosen, existing=True)
        if kb is None:
            return None
        outcomes = kb.stored_outcomes(paths, index=not options.get("no_index", False))
    except CAUGHT:
        return None  # the command says it, as usual
    if outcomes is None:
        return None
    from rules_kb.cli.render.ingest import printed

    printed(outcomes, chosen, as_json=options.get("json_out", False))
    return 0


def _knowledge_base(  # type: ignore[no-untyped-def]
    chosen: Settings, *, existing: bool = False, quiet: bool = False
):
    """The command's knowledge base, as the Typer commands open it; with `existing`,
    None when there is no database file yet."""
    from rules_kb.cli.opening import database_file, opened

    path = database_file(chosen.db)
    if existing and not path.is_file():
        return None
    return opened(path, quiet=quiet)
