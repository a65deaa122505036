"""The faces over the public API: the MCP server, Datasette (`serve`), chat-ready Markdown,
and the command line's --version and completion."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import mcp_server_params, ok_cli, run_cli

ROOT = Path(__file__).resolve().parents[1]


# MCP ------------------------------------------------------------------------------------


async def _talk(db: Path) -> dict[str, Any]:
    from mcp import ClientSession
    from mcp.client.stdio import stdio_client

    params = mcp_server_params(db)
    found: dict[str, Any] = {}
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        found["tools"] = (await session.list_tools()).tools
        found["rule"] = await session.call_tool(
            "rule", {"number": "702.19b", "edition": "2022-11-18"}
        )
        found["search"] = await session.call_tool("search", {"query": "trample", "limit": 3})
        found["cite"] = await session.call_tool(
            "cite", {"text": "Trample is rule 702.17b.", "as_of": "2010-06-18"}
        )
        found["unknown"] = await session.call_tool("rule", {"number": "799.99"})
        found["bad edition"] = await session.call_tool(
            "define", {"term": "trample", "edition": "1990-01-01"}
        )
    return found


def test_the_mcp_server_answers_with_the_sdk_client(all_editions_db: Path) -> None:
    pytest.importorskip("mcp")
    found = asyncio.run(asyncio.wait_for(_talk(all_editions_db), timeout=120))
    names = {tool.name for tool in found["tools"]}
    assert names == {"rule", "define", "search", "history", "diff", "where", "cite", "editions"}
    for tool in found["tools"]:
        description = (tool.description or "").strip()
        assert description and description.count(".") <= 2 and "\n" not in description, tool.name
        assert "edition" in json.dumps(tool.input_schema) or tool.name in {"diff", "cite"}
    rule = found["rule"]
    text = rule.content[0].text
    assert not rule.is_error
    assert "edition 2022-11-18" in text
    assert re.search(r"^702\.19b The controller of an attacking creature with trample", text, re.M)
    assert found["search"].content[0].text.split("\n")[1] == "702.19: Trample"
    assert "moved to 702.19b" in found["cite"].content[0].text
    for name in ("unknown", "bad edition"):
        error = found[name]
        assert error.is_error
        message = error.content[0].text
        assert "\n" not in message and "Traceback" not in message
    assert found["unknown"].content[0].text == "no rule 799.99 in 2026-08-07"
    cli = run_cli("rule", "799.99", "--db", all_editions_db)
    assert cli.stderr.strip() == "rules-kb: " + found["unknown"].content[0].text


# serve ----------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_serve_runs_datasette_read_only_with_descriptions(all_editions_db: Path) -> None:
    pytest.importorskip("datasette")
    import httpx

    port = _free_port()
    argv = ["-m", "rules_kb", "--db", str(all_editions_db), "serve", "--port", str(port)]
    process = subprocess.Popen(
        [sys.executable, *argv],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    name = all_editions_db.stem
    try:
        for _ in range(120):
            try:
                home = httpx.get(base + "/", timeout=2)
                break
            except httpx.HTTPError:
                time.sleep(0.5)
        else:
            pytest.fail("Datasette did not start: " + process.stderr.read(2000).decode())
        assert home.status_code == 200 and "rules-kb" in home.text
        view = httpx.get(
            f"{base}/{name}/rule_texts.json",
            params={"edition": "2022-11-18", "number": "702.19b", "_shape": "array"},
        )
        assert view.status_code == 200
        assert view.json()[0]["text"].startswith("The controller of an attacking creature")
        table = httpx.get(f"{base}/{name}/lineage")
        assert table.status_code == 200 and "not plainly the same" in table.text
        write = httpx.post(f"{base}/{name}/-/query", data={"sql": "DELETE FROM texts"})
        assert write.status_code >= 400
        # the guards: costly functions refused at once, clean refusals, never a 500
        costly = "select length(randomblob(1000000000)), length(randomblob(1000000000))"
        started = time.perf_counter()
        refused = httpx.get(f"{base}/{name}.json", params={"sql": costly}, timeout=30)
        assert refused.status_code == 400 and time.perf_counter() - started < 5
        assert "not authorized" in refused.json()["error"]
        doubling = (
            "with recursive r(s) as (select 'x' union all select s || s from r"
            " where length(s) < 100000000) select max(length(s)) from r"
        )
        huge = httpx.get(f"{base}/{name}.json", params={"sql": doubling}, timeout=30)
        assert huge.status_code == 400
        for method, path in [
            ("POST", f"/{name}/rules/-/insert"),
            ("POST", f"/{name}/rules/-/drop"),
            ("GET", f"/{name}/rules/999999999"),
            ("GET", f"/{name}/no_such_table"),
        ]:
            answer = httpx.request(method, base + path, json={"row": {}})
            assert 400 <= answer.status_code < 500, (method, path, answer.status_code)
            assert "Traceback" not in answer.text and "\n" not in answer.text.strip()
        # editions are labelled by their date, not the title they print
        rows = httpx.get(f"{base}/{name}/rules", params={"_size": 3})
        assert "1999-04-23" in rows.text and "COMPREHENSIVE RULES 04/23/99" not in rows.text
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)


def test_serve_allows_sql_on_this_machine_only_unless_asked(
    all_editions_db: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    pytest.importorskip("datasette")
    from rules_kb.serve import command

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))

    def setting(argv: list[str], name: str) -> str:
        at = next(i for i, word in enumerate(argv) if word == name and argv[i - 1] == "--setting")
        return argv[at + 1]

    assert setting(command(all_editions_db), "default_allow_sql") == "on"
    assert setting(command(all_editions_db, host="0.0.0.0"), "default_allow_sql") == "off"
    wide = command(all_editions_db, host="0.0.0.0", allow_sql=True)
    assert setting(wide, "default_allow_sql") == "on"
    assert setting(wide, "max_returned_rows") == "1000"
    plugins = Path(wide[wide.index("--plugins-dir") + 1])
    assert (plugins / "guard.py").is_file()


def test_serve_without_datasette_says_how_to_install(
    all_editions_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "datasette" else real(name, *a),
    )
    result = run_cli("serve", "--db", all_editions_db)
    assert result.exit_code == 1
    assert "pip install 'rules-kb[serve]'" in result.stderr


def test_the_metadata_describes_every_table_view_and_column(all_editions_db: Path) -> None:
    import sqlite3

    from rules_kb.serve import metadata

    described = metadata(all_editions_db)["databases"][all_editions_db.stem]["tables"]  # type: ignore[index]
    conn = sqlite3.connect(all_editions_db)
    try:
        objects = conn.execute(
            "SELECT name FROM sqlite_master WHERE type IN ('table', 'view')"
            " AND name NOT LIKE 'sqlite_%'"
        ).fetchall()
        for (name,) in objects:
            assert described[name]["description"], name
            columns = [row[1] for row in conn.execute(f"PRAGMA table_info({name})")]
            assert set(described[name]["columns"]) == set(columns), name
    finally:
        conn.close()


def test_views_work_in_plain_sqlite(all_editions_db: Path) -> None:
    import sqlite3

    conn = sqlite3.connect(all_editions_db)
    try:
        (text,) = conn.execute(
            "select text from rule_texts where edition = '2022-11-18' and number = '702.19b'"
        ).fetchone()
    finally:
        conn.close()
    assert text.startswith("The controller of an attacking creature with trample")


# markdown -------------------------------------------------------------------------------

_ESCAPE = re.compile(r"\x1b\[|[\x00-\x08\x0b-\x1f\x7f]")


@pytest.mark.parametrize(
    "args",
    [
        ["rule", "702.19"],
        ["rule", "704.5"],
        ["define", "APNAP order"],
        ["show", "trample"],
        ["history", "702.19b"],
        ["search", "last known information"],
        ["rule", "702.175", "-e", "2024-09-20"],
    ],
)
def test_markdown_is_valid_and_names_the_edition(all_editions_db: Path, args: list[str]) -> None:
    from markdown_it import MarkdownIt

    text = ok_cli(*args, "--format", "markdown", "--db", all_editions_db).stdout
    assert not _ESCAPE.search(text)
    tokens = MarkdownIt("commonmark").parse(text)
    assert tokens, text
    if args[0] in {"rule", "define", "show", "search"}:
        assert re.search(r"edition \d{4}-\d{2}-\d{2}\*\s*$", text), text[-200:]
    if args[0] == "rule":
        html = MarkdownIt("commonmark").render(text)
        assert "<strong>" + args[1] in html
        if args[1] == "702.19":
            assert "<li>" in html and "<em>Example:" in html


def test_markdown_split_never_exceeds_discord_limit(all_editions_db: Path) -> None:
    for args in (["rule", "702"], ["rule", "704.5"], ["history", "702.19", "--subrules"]):
        text = ok_cli(*args, "--format", "markdown", "--split", "--db", all_editions_db).stdout
        messages = text.strip().split("\n\n---\n\n")
        assert len(messages) > 1 or args[1] == "704.5"
        for message in messages:
            assert len(message) <= 2000
        if args[0] == "rule":
            assert all("Comprehensive Rules, edition" in message for message in messages)
            bolded = re.findall(r"\*\*(\d{3}\.\d+[a-z]*)\*\*", text)
            assert len(bolded) == len(set(bolded))  # no rule cut in two


# the command line -----------------------------------------------------------------------


def test_version_and_completion() -> None:
    from rules_kb import __version__

    result = ok_cli("--version")
    assert result.stdout.strip() == f"rules-kb {__version__}"
    shown = subprocess.run(
        [sys.executable, "-m", "rules_kb", "--show-completion", "bash"],
        capture_output=True, text=True, env={**os.environ, "SHELL": "/bin/bash"}, check=False,
    )  # fmt: skip
    assert shown.returncode == 0, shown.stderr
    assert "_RULES_KB_COMPLETE" in shown.stdout or "complete" in shown.stdout
    helped = ok_cli("rule", "--help")
    assert "set code" in helped.stdout
