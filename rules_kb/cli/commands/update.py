"""`rules-kb update`: download the current Comprehensive Rules and ingest them.

Every failure (no network, HTTP errors, timeouts, an HTML page, a download cut
short, text that is truncated or is no edition) is one stderr line and exit 1,
and leaves the database exactly as it was: nothing is opened for writing until
the download has been read and parsed.
"""

from __future__ import annotations

from typing import Annotated

import typer

from rules_kb.cli.base import (
    DbOption,
    JsonOption,
    command,
    fewer_collections,
    knowledge_base,
    screen,
)
from rules_kb.cli.settings import Settings

UrlOption = Annotated[
    str | None,
    typer.Option("--url", help="Download this rules .txt file instead of the one the page links."),
]
PageOption = Annotated[
    str | None,
    typer.Option(
        "--page",
        help="The rules page that links the current .txt"
        " (default: https://magic.wizards.com/en/rules).",
        show_default=False,
    ),
]
ReplaceOption = Annotated[
    bool, typer.Option("--replace", help="Overwrite an edition stored with different text.")
]
TimeoutOption = Annotated[
    float,
    typer.Option(
        "--timeout",
        min=0.001,
        envvar="RULES_KB_HTTP_TIMEOUT",
        help="Seconds allowed to connect and between two reads.",
    ),
]
RetriesOption = Annotated[
    int,
    typer.Option(
        "--retries",
        min=0,
        envvar="RULES_KB_HTTP_RETRIES",
        help="Further attempts after a transient failure (no connection, timeout, HTTP 5xx).",
    ),
]
DeadlineOption = Annotated[
    float,
    typer.Option(
        "--deadline",
        envvar="RULES_KB_HTTP_DEADLINE",
        help="Seconds one attempt may take in all (each retry has its own), however slowly"
        " the server sends.",
    ),
]
BackoffOption = Annotated[
    float,
    typer.Option(
        "--backoff",
        min=0.0,
        envvar="RULES_KB_HTTP_BACKOFF",
        help="Seconds before the first retry; each retry waits twice as long.",
    ),
]


@command
def update(
    url: UrlOption = None,
    page: PageOption = None,
    db: DbOption = None,
    replace: ReplaceOption = False,
    timeout: TimeoutOption = 30.0,
    retries: RetriesOption = 3,
    backoff: BackoffOption = 1.0,
    deadline: DeadlineOption = 120.0,
    json_out: JsonOption = False,
    *,
    settings: Settings,
) -> None:
    """Download the current Comprehensive Rules from the official rules page and ingest them."""
    from rules_kb.cli.render import ingest as render
    from rules_kb.cli.render.update import download_progress
    from rules_kb.ingest import fetch  # (its download policy: the one stage a face builds)

    policy = fetch.Policy(timeout=timeout, retries=retries, backoff=backoff, deadline=deadline)
    with download_progress(quiet=json_out) as progress, fewer_collections():
        result, got = knowledge_base(db, settings, quiet=json_out).update(
            url=url, page=page, policy=policy, replace=replace, download_progress=progress
        )
    if json_out:
        from rules_kb.cli.output import json_out as print_json

        print_json(
            {
                "edition": result.date,
                "status": result.status,
                "source": got.name,
                "url": got.url,
                "rules": result.rules,
                "examples": result.examples,
                "glossary": result.glossary,
                "warnings": list(result.warnings),
            }
        )
        return
    out = screen(settings)
    render.update_result(out, result, got.name)
    out.flush()
