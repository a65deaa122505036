"""The README's Python API examples run as doctests against the shared editions, and its
two set-up commands are the ones CI runs."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"


def _section(title: str) -> str:
    text = README.read_text("utf-8")
    start = text.index(f"## {title}")
    end = text.find("\n## ", start + 1)
    return text[start : end if end > 0 else None]


def test_the_api_examples_run(all_editions_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RULES_KB_DB", str(all_editions_db))
    blocks = re.findall(r"```python\n(.*?)```", _section("The Python API"), re.S)
    assert blocks, "the API section has no python example"
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for number, block in enumerate(blocks):
        test = parser.get_doctest(block, {}, f"README.md example {number}", str(README), 0)
        assert test.examples, block
        runner.run(test)
    results = runner.summarize(verbose=False)
    assert results.failed == 0, f"{results.failed} README examples failed (see the output above)"


def test_two_setup_commands_and_ci_runs_the_test_one() -> None:
    text = README.read_text("utf-8")
    head = text[: text.index("## Usage")]
    commands = re.findall(r"```sh\n(.*?)\n```", head, re.S)
    assert len(commands) == 2
    install, tests = commands
    assert "pip install ." in install and "rules-kb ingest ../shared/cr/editions" in install
    assert "pytest" in tests
    ci = (README.parent / ".ci" / "run").read_text("utf-8")
    assert "pytest -q" in ci and tests.endswith("pytest -q")
