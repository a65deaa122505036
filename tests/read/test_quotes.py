"""Quotation checking in `cite`: on a document written for the test, with correct, stale
and invented quotations of real rules (tests/fixtures/cite/quotes-2010.md)."""

from __future__ import annotations

import json
from pathlib import Path

import rules_kb
from rules_kb.read.cite import find
from tests.conftest import FIXTURES, run_cli

DOCUMENT = FIXTURES / "cite" / "quotes-2010.md"

#: (line, number, quote status) of every citation, read off the document by hand.
EXPECTED = [
    (3, "702.17b", "quote_ok"),  # the opening clause still reads so in 702.19b
    (4, "702.17b", "quote_changed"),  # "remaining" damage is "excess" damage today
    (5, "702.17b", "quote_not_found"),  # invented
    (8, "704.5a", "quote_ok"),  # the quotation stands before "(CR 704.5a)"
    (9, "704.5a", "quote_changed"),  # "he or she" is "that player" today
    (10, "509.1a", "quote_ok"),
    (11, "509.1a", "quote_not_found"),  # invented
    (13, "702.17b", "quote_ok"),  # with an ellipsis for the words left out
]


def test_quotations_are_found_next_to_their_citations() -> None:
    text = "Per 702.19b: “first assigns damage” and “some words here” (CR 704.5a); 702.2 alone."
    quotes = [(item.number, item.quote) for item in find(text)]
    assert quotes == [
        ("702.19b", "first assigns damage"),
        ("704.5a", "some words here"),
        ("702.2", None),
    ]


def test_cite_checks_every_quotation_then_and_now(all_editions_db: Path) -> None:
    kb = rules_kb.open(all_editions_db)
    report = kb.cite(DOCUMENT.read_text("utf-8"), as_of="2010-06-18")
    found = [(c.line, c.number, c.quote_status) for c in report.citations]
    assert found == EXPECTED
    assert all(c.stale for c in report.citations if c.quote_status != "quote_ok")


def test_check_exits_3_on_a_bad_quotation_alone(all_editions_db: Path, tmp_path: Path) -> None:
    """Citations that are current, one quotation invented: --check fails on the quote."""
    page = tmp_path / "current.md"
    page.write_text('Rule 704.5a reads "that player loses the game" and 509.1a says\n'
                    '"blockers are chosen by the attacking player".\n')  # fmt: skip
    result = run_cli("cite", page, "--check", "--json", "--db", all_editions_db)
    assert result.exit_code == 3, result.output
    document = json.loads(result.stdout)
    statuses = [(c["status"], c["quote_status"]) for c in document["citations"]]
    assert statuses == [("current", "quote_ok"), ("current", "quote_not_found")]
    good = tmp_path / "good.md"
    good.write_text('Rule 704.5a reads "that player loses the game".\n')
    assert run_cli("cite", good, "--check", "--db", all_editions_db).exit_code == 0
