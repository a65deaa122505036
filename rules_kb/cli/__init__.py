"""The rules-kb command line.

Exit codes: 0 success; 1 the request was understood but cannot be answered
(one line on stderr); 2 usage error, as Typer reports it; 3 `cite --check`
found stale citations.

The commands are a Typer app (`rules_kb.cli.registry`); a plain `rule` or `define`
lookup is answered before Typer is imported (`rules_kb.cli.fast`), because a judge
runs it most and Typer's start-up is most of its time.
"""

from __future__ import annotations

import sys
from typing import Any

__all__ = ["HELP_PANELS", "app", "command_name", "globals_first", "main"]


#: The global flags, which work before or after the command (--db is every command's own).
GLOBAL_FLAGS = frozenset({"--no-pager", "--verbose", "-v"})


def globals_first(argv: list[str]) -> list[str]:
    """The command line with the global flags written after the command moved before it
    (`rules-kb rule 702.19 --no-pager` is `rules-kb --no-pager rule 702.19`); nothing after
    a `--` moves."""
    end = argv.index("--") if "--" in argv else len(argv)
    flags = [word for word in argv[:end] if word in GLOBAL_FLAGS]
    if not flags:
        return argv
    rest = [word for word in argv[:end] if word not in GLOBAL_FLAGS]
    return [*flags, *rest, *argv[end:]]


def main() -> None:
    """Console entry point."""
    argv = globals_first(sys.argv[1:])
    try:
        from rules_kb.cli.fast import answer

        code = answer(argv)
        if code is not None:
            sys.exit(code)
        from rules_kb.cli.registry import app, only

        only(argv)
        app(args=argv)
    except KeyboardInterrupt:
        sys.stderr.write("rules-kb: interrupted\n")
        sys.exit(130)
    except BrokenPipeError:
        sys.stderr.close()  # the reader went away (| head): nothing more to say
        sys.exit(0)


def __getattr__(name: str) -> Any:
    """The Typer app and its help arrangement, imported when first asked for."""
    if name in {"app", "HELP_PANELS", "command_name"}:
        from rules_kb.cli import registry

        return getattr(registry, name)
    raise AttributeError(name)
