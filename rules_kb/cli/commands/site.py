"""The web edition: `site`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from rules_kb.cli.base import DbOption, Exit, JsonOption, command, knowledge_base
from rules_kb.cli.settings import Settings


@command
def site(
    out: Annotated[
        Path,
        typer.Argument(
            help="The folder to write (new, empty, or one an earlier `site` wrote).",
            metavar="OUT",
            file_okay=False,
        ),
    ],
    editions: Annotated[
        list[str] | None,
        typer.Option(
            "--editions",
            help="latest (the default), all, or editions (dates, set codes; repeat or"
            " separate with commas). The latest is always included.",
            show_default=False,
        ),
    ] = None,
    base_url: Annotated[
        str | None,
        typer.Option(
            "--base-url", help="Where the site will be published (canonical links, sitemap)."
        ),
    ] = None,
    db: DbOption = None,
    json_out: JsonOption = False,
    *,
    settings: Settings,
) -> None:
    """Write the static web edition: hyperlinked rules, histories, diffs, offline search."""
    from rules_kb.site import build

    if base_url is not None and not base_url.startswith(("http://", "https://")):
        raise Exit(f"--base-url must start with http:// or https://, not {base_url!r}", code=2)
    kb = knowledge_base(db, settings, quiet=json_out)
    chosen = editions or ["latest"]
    report = build(kb, out, editions=chosen, base_url=base_url, progress=kb.progress)
    if json_out:
        from rules_kb.cli.output import json_out as print_json

        print_json(
            {
                "out": str(out),
                "editions": list(report.editions),
                "files": report.files,
                "bytes": report.bytes,
                "pages": report.pages,
                "seconds": {name: round(value, 2) for name, value in report.seconds.items()},
            }
        )
        return
    size = report.bytes / 1_000_000
    typer.echo(
        f"wrote {report.files} files ({size:.1f} MB) to {out}: {len(report.editions)} edition(s),"
        f" {report.pages.get('rule', 0)} rule pages, {report.pages.get('redirect', 0)} old"
        f" numbers, {report.pages.get('diff', 0)} diffs"
    )
