"""The start of `rules-kb mcp`: the `initialize` handshake answered before the SDK loads.

Importing the official MCP SDK takes most of a second (`import mcp` loads its client and
every protocol era's types), and a client waits for the answer to `initialize` before
anything else. So `serve` reads the first message itself; when it is a well-formed
`initialize` of a protocol version the SDK speaks, it answers at once with the result
the SDK would give, then loads the SDK and hands it the same message, so that the SDK's
session is set up exactly as if it had read it, and holds back the SDK's own (identical)
answer. Anything else, and any first message it is not sure of, goes to the SDK untouched.

Everything here uses the SDK's public path only: it runs `MCPServer.run("stdio")`, whose
transport reads `sys.stdin` and writes `sys.stdout`, and this module puts streams there
that replay the first message and hold back one answer. `tests/mcp/test_mcp_start.py` checks,
for every protocol version below, that the answer given here is the SDK's own answer.
"""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path
from typing import Any

from rules_kb.mcp import INSTRUCTIONS, NAME

#: The protocol versions of the `initialize` handshake that the SDK answers by echoing
#: them (`mcp_types.version.HANDSHAKE_PROTOCOL_VERSIONS`); others go to the SDK.
HANDSHAKE_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
#: The longest first message read before the SDK loads, in bytes.
FIRST_MESSAGE_LIMIT = 1 << 20


def early_answer(message: bytes) -> dict[str, Any] | None:
    """The answer to `message` (one JSON-RPC line) when it is an `initialize` request that
    the SDK would accept and answer by echoing its protocol version, else None."""
    from rules_kb import __version__

    try:
        request = json.loads(message)
    except ValueError:
        return None
    if not isinstance(request, dict) or request.get("method") != "initialize":
        return None
    params = request.get("params")
    ident = request.get("id")
    if (
        request.get("jsonrpc") != "2.0"
        or isinstance(ident, bool)
        or not isinstance(ident, (int, str))
        or not isinstance(params, dict)
        or params.get("protocolVersion") not in HANDSHAKE_VERSIONS
        or not isinstance(params.get("capabilities"), dict)
        or not _client_info(params.get("clientInfo"))
        or set(params) - {"protocolVersion", "capabilities", "clientInfo", "_meta"}
    ):
        return None
    return {
        "jsonrpc": "2.0",
        "id": ident,
        "result": {
            "capabilities": {
                "prompts": {"listChanged": False},
                "resources": {"listChanged": False, "subscribe": False},
                "tools": {"listChanged": False},
            },
            "instructions": INSTRUCTIONS,
            "protocolVersion": params["protocolVersion"],
            "serverInfo": {"name": NAME, "version": __version__},
        },
    }


def _client_info(info: object) -> bool:
    """Whether `info` is a client description the SDK accepts without doubt."""
    return (
        isinstance(info, dict)
        and isinstance(info.get("name"), str)
        and isinstance(info.get("version"), str)
        and all(isinstance(value, str) for value in info.values())
    )


def serve(path: Path) -> None:
    """Serve the knowledge base at `path` over stdio (see the module's description)."""
    import rules_kb

    kb = rules_kb.open(path)
    kb.dates()  # fail now, with one line, if there is no database
    wire_in, wire_out = os.dup(0), os.dup(1)
    # While serving, stray reads see an empty input and stray prints go to stderr, never
    # onto the wire (as the SDK's own transport arranges for the descriptors it serves).
    quiet = os.open(os.devnull, os.O_RDONLY)
    os.dup2(quiet, 0)
    os.close(quiet)
    os.dup2(2, 1)
    first, rest = _first_line(wire_in)
    answer = early_answer(first)
    if answer is not None:
        _write_all(wire_out, (json.dumps(answer, separators=(",", ":")) + "\n").encode())
    sys.stdin = io.TextIOWrapper(io.BufferedReader(_Replay(first + rest, wire_in)), "utf-8")
    held = None if answer is None else answer["id"]
    sys.stdout = io.TextIOWrapper(io.BufferedWriter(_HoldBack(wire_out, held)), "utf-8")
    from rules_kb.mcp.server import server

    server(kb).run("stdio")


def _first_line(fd: int) -> tuple[bytes, bytes]:
    """The first line read from `fd` (with its newline), and what was read after it."""
    read = b""
    while b"\n" not in read and len(read) < FIRST_MESSAGE_LIMIT:
        chunk = os.read(fd, 65536)
        if not chunk:
            return read, b""
        read += chunk
    line, newline, rest = read.partition(b"\n")
    return line + newline, rest


def _write_all(fd: int, data: bytes) -> None:
    """Write all of `data` to `fd`."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


class _Replay(io.RawIOBase):
    """What was read already, then the rest of the input."""

    def __init__(self, pending: bytes, fd: int) -> None:
        super().__init__()
        self._pending = pending
        self._fd = fd

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self._pending:
            size = min(len(buffer), len(self._pending))
            buffer[:size] = self._pending[:size]
            self._pending = self._pending[size:]
            return size
        data = os.read(self._fd, len(buffer))
        buffer[: len(data)] = data
        return len(data)


class _HoldBack(io.RawIOBase):
    """The output, line by line, less the first answer to the request `held` (already
    answered); an answer that is not the one given is reported on stderr."""

    def __init__(self, fd: int, held: int | str | None) -> None:
        super().__init__()
        self._fd = fd
        self._held = held
        self._partial = b""

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        size = len(data)
        self._partial += bytes(data)
        if self._held is None:
            _write_all(self._fd, self._partial)
            self._partial = b""
            return size
        while b"\n" in self._partial:
            line, _, self._partial = self._partial.partition(b"\n")
            if not self._holds(line):
                _write_all(self._fd, line + b"\n")
        return size

    def _holds(self, line: bytes) -> bool:
        """Whether `line` is the SDK's answer to the request answered early."""
        try:
            message = json.loads(line)
        except ValueError:
            return False
        if not isinstance(message, dict) or message.get("id") != self._held:
            return False
        if "result" not in message and "error" not in message:
            return False
        self._held = None
        if "error" in message:
            sys.stderr.write(f"rules-kb mcp: the SDK refused the handshake: {message['error']}\n")
        return True
