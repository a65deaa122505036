"""One hostile edition, built here, through every face and format: no raw control
character (ESC, BEL, NUL's kin, C1 controls) reaches any output, wherever the text it
came from sits (a title, a rule, an example, a glossary term or definition)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from rules_kb.controls import CONTROLS
from tests.conftest import run_cli

MODERN = Path(__file__).parent / "fixtures" / "modern.txt"
#: ESC with a colour change, BEL, and the C1 control CSI.
BAD = "\x1b[31m\x07\x9b"


def hostile_text() -> str:
    """The fixture edition with controls in a section title, a rule, an example, a glossary
    term and a glossary definition."""
    text = MODERN.read_text("utf-8")
    text = text.replace("7. Additional Rules\n\n702", f"7. Additional{BAD} Rules\n\n702")
    text = text.replace("100.1. These invented", f"100.1. These{BAD} invented")
    text = text.replace("Example: A player brings", f"Example: A{BAD} player brings")
    text = text.replace("\nTrample\nA keyword ability.", f"\nTram{BAD}ple\nA keyword{BAD} ability.")
    text = text.replace("702.19b A creature", f"702.19b A{BAD} creature")
    return text


@pytest.fixture(scope="module")
def hostile_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("hostile")
    source = folder / "hostile.txt"
    source.write_text(hostile_text(), encoding="utf-8")
    db = folder / "kb.db"
    result = run_cli("ingest", source, "--db", db)
    assert result.exit_code == 0, result.output
    return db


def raw_controls(text: str) -> list[str]:
    return [repr(char) for char in CONTROLS.findall(text)]


FACES = [
    ["rule", "100.1"],
    ["rule", "7"],
    ["rule", "702.19b"],
    ["define", "Tram\x1b[31m\x07\x9bple"],
    ["define", "trample"],
    ["search", "invented"],
    ["search", "player brings"],
    ["show", "does trample work with a creature?"],
    ["history", "702.19b"],
    ["refs", "702.19"],
    ["check"],
    ["editions"],
    ["where", "100.1"],
]


#: The commands that also write Markdown.
MARKDOWN = {"rule", "define", "show", "history", "search"}
CASES = [
    (args, form)
    for args in FACES
    for form in ("text", "json", "markdown")
    if form != "markdown" or args[0] in MARKDOWN
]


@pytest.mark.parametrize(("args", "form"), CASES, ids=[f"{' '.join(a)[:24]}-{f}" for a, f in CASES])
def test_no_face_prints_a_raw_control(hostile_db: Path, args: list[str], form: str) -> None:
    extra = {"text": [], "json": ["--json"], "markdown": ["--format", "markdown"]}[form]
    result = run_cli(*args, *extra, "--db", hostile_db)
    assert result.exit_code in (0, 1), result.output
    assert raw_controls(result.stdout) == [], result.stdout
    assert raw_controls(result.stderr) == [], result.stderr
    if form == "json" and result.exit_code == 0:
        json.loads(result.stdout)


@pytest.mark.parametrize("form", ["dot", "graphml", "gexf", "json", "csv"])
def test_no_graph_format_carries_a_raw_control(hostile_db: Path, form: str) -> None:
    result = run_cli("graph", "-f", form, "--db", hostile_db)
    assert result.exit_code == 0, result.output
    assert raw_controls(result.stdout) == [], result.stdout[:500]


def test_diff_and_cite_show_no_raw_control(hostile_db: Path, tmp_path: Path) -> None:
    notes = tmp_path / "notes.md"
    notes.write_text(f"See rule 100.1 and{BAD} rule 702.19b.\n", encoding="utf-8")
    for args in (["cite", notes], ["cite", notes, "--json"]):
        result = run_cli(*args, "--db", hostile_db)
        assert result.exit_code in (0, 3), result.output
        assert raw_controls(result.stdout) == [], result.stdout
    # --fix gives the document back byte for byte (its own controls too), in a pipe
    fixed = run_cli("cite", notes, "--fix", "--db", hostile_db)
    assert fixed.stdout == notes.read_text("utf-8")


def test_the_web_edition_has_no_raw_control(hostile_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    result = run_cli("site", out, "--db", hostile_db)
    assert result.exit_code == 0, result.output
    pages = [p for p in out.rglob("*") if p.suffix in {".html", ".js", ".json", ".xml", ".txt"}]
    assert pages
    for page in pages:
        text = page.read_text("utf-8", errors="replace")
        assert raw_controls(text) == [], (page, raw_controls(text)[:5])
    titles = [
        re.search(r"<title>(.*?)</title>", p.read_text("utf-8"), re.S) for p in out.rglob("*.html")
    ]
    assert any(t and "\\x1b" in t.group(1) for t in titles), "no title shows the escape"


def test_mcp_answers_have_no_raw_control(hostile_db: Path) -> None:
    pytest.importorskip("mcp")
    import rules_kb
    from rules_kb.mcp import server as mcp_server

    kb: Any = rules_kb.open(hostile_db)
    texts = [
        mcp_server.rule_text(kb.rule("100.1")),
        mcp_server.definition_text(kb.define("trample")),
        mcp_server.found_text(kb, "invented", "latest", 10),
        mcp_server.found_text(kb, "does trample work?", "latest", 10),
    ]
    # the server passes every answer through `visible` before it leaves
    from rules_kb.controls import visible

    for text in texts:
        assert raw_controls(visible(text)) == []
