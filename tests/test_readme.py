"""The documentation stays true: the Python API examples of docs/api.md run as doctests
against the shared editions, the README's two set-up commands are the ones CI runs, the
README stays short, and every link between the pages leads somewhere."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
DOCS = REPO / "docs"


def test_the_api_examples_run(all_editions_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RULES_KB_DB", str(all_editions_db))
    api = DOCS / "api.md"
    blocks = re.findall(r"```python\n(.*?)```", api.read_text("utf-8"), re.S)
    assert blocks, "the API section has no python example"
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for number, block in enumerate(blocks):
        test = parser.get_doctest(block, {}, f"docs/api.md example {number}", str(api), 0)
        assert test.examples, block
        runner.run(test)
    results = runner.summarize(verbose=False)
    assert results.failed == 0, f"{results.failed} API examples failed (see the output above)"


def test_two_setup_commands_and_ci_runs_the_test_one() -> None:
    text = README.read_text("utf-8")
    head = text[: text.index("## Usage")]
    commands = re.findall(r"```sh\n(.*?)\n```", head, re.S)
    assert len(commands) == 2
    install, tests = commands
    assert "pip install ." in install and "rules-kb ingest ../shared/cr/editions" in install
    assert 'pytest -q -m "not corpus"' in tests and tests.endswith("pytest -q -m corpus")
    ci = (README.parent / ".ci" / "run").read_text("utf-8")
    assert tests.split(" && pytest", 1)[1] in ci  # CI runs the README's two tiers


def test_the_readme_is_read_in_ten_minutes() -> None:
    assert len(README.read_text("utf-8").splitlines()) < 300


def _anchors(page: Path) -> set[str]:
    """The anchors GitHub gives a page's headings: lower case, punctuation dropped,
    spaces as hyphens."""
    headings = re.findall(r"^#+ (.+)$", page.read_text("utf-8"), flags=re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-") for heading in headings}


@pytest.mark.parametrize("page", [README, *sorted(DOCS.glob("*.md"))], ids=lambda p: p.name)
def test_every_link_between_the_pages_leads_somewhere(page: Path) -> None:
    text = page.read_text("utf-8")
    for target, anchor in re.findall(r"\]\(([^)#:\s]*)(?:#([^)]*))?\)", text):
        linked = page.parent / target if target else page
        assert linked.exists(), f"{page.name} links to {target}"
        if anchor and linked.suffix == ".md":
            assert anchor in _anchors(linked), f"{page.name} links to {target}#{anchor}"
