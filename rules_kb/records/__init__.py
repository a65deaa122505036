"""What the public API returns: frozen records with the SPEC's JSON shape.

Every face (the command line, the MCP server, the web edition) reads these and only
these; `as_json()` is the document that `--json` prints. The records of an ingest
(`outcomes`) load alone, so that an ingest with nothing to do stays light; those of
`show` (`answers`) and the others (`core`) load when one of them is first named.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from rules_kb.records.outcomes import IngestOutcome as IngestOutcome
from rules_kb.records.outcomes import IngestResult as IngestResult
from rules_kb.records.outcomes import IngestStatus as IngestStatus

if TYPE_CHECKING:
    from rules_kb.records.answers import *  # noqa: F403
    from rules_kb.records.core import *  # noqa: F403

#: The names of the records that load apart from `core`, and their module.
_APART = {name: "rules_kb.records.answers" for name in ("Answer", "Answered", "Shown")}


def __getattr__(name: str) -> Any:
    """The records of `answers` and `core`, imported when one is first named."""
    # (an import by name: never this hook)
    module = import_module(_APART.get(name, "rules_kb.records.core"))
    if name in module.__all__:
        return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
