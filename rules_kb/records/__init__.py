"""What the public API returns: frozen records with the SPEC's JSON shape.

Every face (the command line, the MCP server, the web edition) reads these and only
these; `as_json()` is the document that `--json` prints. The records of an ingest
(`outcomes`) load alone, so that an ingest with nothing to do stays light; the others
load when first named.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from rules_kb.records.outcomes import IngestOutcome as IngestOutcome
from rules_kb.records.outcomes import IngestResult as IngestResult
from rules_kb.records.outcomes import IngestStatus as IngestStatus

if TYPE_CHECKING:
    from rules_kb.records.core import *  # noqa: F403


def __getattr__(name: str) -> Any:
    """The records of `core`, imported when one is first named."""
    core = import_module("rules_kb.records.core")  # (an import by name: never this hook)
    if name in core.__all__:
        return getattr(core, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
