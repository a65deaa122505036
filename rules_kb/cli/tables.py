"""The fast path's option tables (`fast_options.py`), read from the Typer app's commands.

    python -m rules_kb.cli.tables

rewrites the file; `tests/cli/test_fast.py` fails when it differs from what this writes, so
an option added to a Typer command reaches the fast path by running it, never by a
second hand-written definition.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from rules_kb.cli.fast import LOOKUPS

TARGET = Path(__file__).with_name("fast_options.py")


def tables() -> str:
    """The source of `fast_options.py`, read from the Typer app's commands (through the
    parameters Typer's `get_command` gives them: each option's flags, whether it is a
    flag, its choices or its range)."""
    import typer.main

    from rules_kb.cli.registry import app

    group: Any = typer.main.get_command(app)

    def table(command: Any) -> dict[str, tuple[str, str, Any]]:
        found: dict[str, tuple[str, str, Any]] = {}
        for param in command.params:
            if param.param_type_name != "option":
                continue
            choices = getattr(param.type, "choices", None)
            spec: tuple[str, str, Any]
            if param.is_flag:
                spec = (param.name, "flag", None)
            elif choices is not None:
                spec = (param.name, "choice", tuple(str(choice) for choice in choices))
            elif hasattr(param.type, "min") and hasattr(param.type, "max"):
                spec = (param.name, "int", (param.type.min, param.type.max))
            else:
                spec = (param.name, "text", None)
            for flag in [*param.opts, *param.secondary_opts]:
                found[flag] = spec
        return dict(sorted(found.items()))

    commands = {name: table(group.commands[name]) for name in sorted({*LOOKUPS, "ingest"})}
    lines = [
        '"""The options of the commands the fast path answers, as the Typer commands define',
        "them: flag -> (parameter, kind, allowed). Written by `python -m rules_kb.cli.tables`",
        "from the Typer app; never edit it by hand (tests/cli/test_fast.py fails when it is",
        'stale)."""',
        "",
        "from typing import Any",
        "",
        "Table = dict[str, tuple[str, str, Any]]",
        "",
        "GLOBAL: Table = {",
        *_entries(table(group), "    "),
        "}",
    ]
    # Commands with the same options share one table (rule and define).
    sharing: dict[str, list[str]] = {}
    for name, found in commands.items():
        sharing.setdefault(repr(found), []).append(name)
    shared = {names[0]: names for names in sharing.values() if len(names) > 1}
    for first, names in shared.items():
        constant = "_" + "_".join(names).upper()
        lines += [f"{constant}: Table = {{", *_entries(commands[first], "    "), "}"]
    lines.append("COMMANDS: dict[str, Table] = {")
    for name, found in commands.items():
        owner = next((names for names in shared.values() if name in names), None)
        if owner:
            lines.append(f'    "{name}": _{"_".join(owner).upper()},')
        else:
            lines += [f'    "{name}": {{', *_entries(found, "        "), "    },"]
    return "\n".join([*lines, "}", ""])


def _entries(found: dict[str, tuple[str, str, Any]], indent: str) -> list[str]:
    """A table's lines, as the formatter writes them."""

    def literal(value: Any) -> str:
        if isinstance(value, tuple):
            return "(" + ", ".join(map(literal, value)) + ")"
        return f'"{value}"' if isinstance(value, str) else repr(value)

    return [f'{indent}"{flag}": {literal(spec)},' for flag, spec in found.items()]


if __name__ == "__main__":
    TARGET.write_text(tables(), encoding="utf-8")
    sys.stdout.write(f"wrote {TARGET}\n")
