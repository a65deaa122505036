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

__all__ = ["HELP_PANELS", "app", "command_name", "main"]


def main() -> None:
    """Console entry point."""
    try:
        from rules_kb.cli.fast import answer

        code = answer(sys.argv[1:])
        if code is not None:
            sys.exit(code)
        from rules_kb.cli.registry import app, only

        only(sys.argv[1:])
        app()
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
