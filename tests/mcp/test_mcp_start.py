"""`rules-kb mcp` answers `initialize` before the SDK loads, exactly as the SDK would.

The SDK's own answers are read through its public path: a plain `MCPServer.run("stdio")`
of our server in a child process, fed the same raw JSON-RPC lines.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
from pathlib import Path
from typing import IO, Any

import pytest

from rules_kb.mcp.start import HANDSHAKE_VERSIONS, early_answer
from tests.conftest import FIXTURES, ok_cli

FIXTURE = FIXTURES / "modern.txt"
SDK_ONLY = "import sys, rules_kb; from rules_kb.mcp.server import server; server(rules_kb.open(sys.argv[1])).run('stdio')"  # noqa: E501


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("mcp") / "rules.db"
    ok_cli("ingest", FIXTURE, "--db", path)
    return path


def _initialize(version: str, ident: object = 1, **extra: Any) -> dict[str, Any]:
    params = {
        "protocolVersion": version,
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"},
    }
    return {"jsonrpc": "2.0", "id": ident, "method": "initialize", "params": {**params, **extra}}


def _talk(command: list[str], messages: list[dict[str, Any]], answers: int) -> list[dict[str, Any]]:
    """Send `messages` at once, read `answers` lines back, then close the input."""
    with subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        env={**os.environ}, bufsize=0,  # unbuffered: a line read never reads past itself
    ) as process:  # fmt: skip
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(b"".join(json.dumps(m).encode() + b"\n" for m in messages))
        process.stdin.flush()
        read = [json.loads(_line(process.stdout)) for _ in range(answers)]
        process.stdin.close()
        rest = process.stdout.read()
        process.wait(timeout=30)
    assert not rest.strip(), f"more was written than expected: {rest[:200]!r}"
    return read


def _line(stream: IO[bytes], seconds: float = 30.0) -> bytes:
    """The next line of `stream`, failing the test if none comes within `seconds`."""
    ready, _, _ = select.select([stream], [], [], seconds)
    assert ready, f"no answer within {seconds} s"
    return stream.readline()


def _ours(db: Path) -> list[str]:
    return [sys.executable, "-m", "rules_kb", "--db", str(db), "mcp"]


def _sdk(db: Path) -> list[str]:
    return [sys.executable, "-c", SDK_ONLY, str(db)]


def test_the_versions_answered_early_are_the_sdks_handshake_versions() -> None:
    from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

    assert tuple(HANDSHAKE_PROTOCOL_VERSIONS) == HANDSHAKE_VERSIONS


@pytest.mark.parametrize("version", HANDSHAKE_VERSIONS)
def test_the_early_answer_is_the_sdks_answer(db: Path, version: str) -> None:
    request = _initialize(version, ident="a-7", _meta={"progressToken": 3})
    (sdk,) = _talk(_sdk(db), [request], 1)
    assert early_answer(json.dumps(request).encode()) == sdk
    (ours,) = _talk(_ours(db), [request], 1)
    assert ours == sdk


def test_a_pipelined_session_gets_one_answer_per_request(db: Path) -> None:
    """initialize, initialized and tools/list written at once: the handshake is answered
    once (early), and the SDK, replayed the same handshake, serves the rest."""
    messages = [
        _initialize("2025-06-18"),
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
         "params": {"name": "rule", "arguments": {"number": "702.19b"}}},
    ]  # fmt: skip
    first, tools, called = _talk(_ours(db), messages, 3)
    assert first["id"] == 1 and first["result"]["protocolVersion"] == "2025-06-18"
    assert tools["id"] == 2
    assert {tool["name"] for tool in tools["result"]["tools"]} >= {"rule", "search", "diff"}
    assert called["id"] == 3 and "702.19b" in called["result"]["content"][0]["text"]


@pytest.mark.parametrize(
    ("message", "answers"),
    [
        (_initialize("1999-04-23"), 1),  # a version the SDK answers with its own
        (_initialize("2025-06-18", ident=True), 0),  # not an id: the SDK says nothing
        ({**_initialize("2025-06-18"), "params": {"protocolVersion": "2025-06-18"}}, 1),
        (_initialize("2025-06-18", clientInfo={"name": "t", "version": 1}), 1),
        (_initialize("2025-06-18", unexpected={"x": 1}), 1),
        ({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, 1),
        ({"jsonrpc": "1.0", "id": 1, "method": "initialize"}, 0),  # the SDK says nothing
    ],
)
def test_anything_it_is_not_sure_of_goes_to_the_sdk_untouched(
    db: Path, message: dict[str, Any], answers: int
) -> None:
    assert early_answer(json.dumps(message).encode()) is None
    assert _talk(_ours(db), [message], answers) == _talk(_sdk(db), [message], answers)


@pytest.mark.parametrize("line", [b"", b"\n", b"not json\n", b"[1, 2]\n", b"\xff\xfe\n"])
def test_no_json_request_is_answered_early(line: bytes) -> None:
    assert early_answer(line) is None


def test_the_handshake_is_answered_before_the_sdk_is_imported(db: Path) -> None:
    """The answer comes first; the SDK is imported after it (the child says when)."""
    probe = (
        "import sys, time, runpy; sys.argv = ['rules-kb', '--db', sys.argv[1], 'mcp'];"
        "import rules_kb.mcp.start as start; write = start._write_all;"
        "start._write_all = lambda fd, data: (write(fd, data), sys.stderr.write("
        "'sdk loaded: %s\\n' % ('mcp' in sys.modules)), sys.stderr.flush());"
        "runpy.run_module('rules_kb', run_name='__main__')"
    )
    with subprocess.Popen(
        [sys.executable, "-c", probe, str(db)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, bufsize=0,
    ) as process:  # fmt: skip
        assert process.stdin is not None and process.stdout is not None
        assert process.stderr is not None
        process.stdin.write(json.dumps(_initialize("2025-11-25")).encode() + b"\n")
        process.stdin.flush()
        answer = json.loads(_line(process.stdout))
        assert answer["result"]["serverInfo"]["name"] == "rules-kb"
        process.stdin.close()
        said = process.stderr.read().decode()
        process.wait(timeout=30)
    loaded = [line for line in said.splitlines() if line.startswith("sdk loaded")]
    assert loaded[0] == "sdk loaded: False"
