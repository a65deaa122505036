"""Typography folded for comparison (rules_kb/typography.py): one case per class folded,
and wording changes that are never typography."""

from __future__ import annotations

import pytest

from rules_kb.typography import key, same_wording


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("the player's turn", "the player’s turn"),  # apostrophe
        ('called "enchanted."', "called “enchanted.”"),  # double quotes
        ("see rules 603.7d-f", "see rules 603.7d–f"),  # en dash
        ("permanent -- see below", "permanent—see below"),  # double hyphen, em dash, spaces
        ("a player?s life", "a player’s life"),  # "?" a damaged copy left for a quote
        ("a \ufffd b", "a - b"),  # a replacement character for a dash
        ("Magic: The Gathering(tm)", "Magic: The Gathering™"),  # trademark spelled out
        ("Magic: The Gathering™ rules", "Magic: The Gathering rules"),  # sign dropped
        ("and so on...", "and so on…"),  # ellipsis
        ("main phases.. Artifact spells", "main phases. Artifact spells"),  # a stop twice
        ("Most _Magic_ tournaments", "Most Magic tournaments"),  # italic markup
        ("two  spaces\nand a break", "two spaces and a break"),  # white space
        ("no\u00a0break", "no break"),  # no-break space
        ("(found at <www.example.com/Rules.aspx>)", "(found at www.example.com/Rules.aspx)"),
        ("see <http://example.org/a?b=c>.", "see http://example.org/a?b=c."),  # web address
        ("{oT}: Add {oG}{o2}.", "{T}: Add {G}{2}."),  # symbols of 2003-2004
        ("the OracleT card reference", "the Oracle\ufffd card reference"),  # a ™ lost, glued
        ("the Kingdoms\ufffd set.", "the Kingdoms™ set."),
        ("the DCIT Floor Rules", "the DCI Floor Rules"),
        ("many _Odyssey_TM block cards", "many _Odyssey_(TM) block cards"),
        ('written "Protection from <quality>."', 'written "Protection from [quality]."'),
        ('(such as "Shuffle your hand.") That', '(such as "Shuffle your hand"). That'),  # stop
    ],
)
def test_typography_classes_fold_to_one_key(old: str, new: str) -> None:
    assert key(old) == key(new)
    assert same_wording(old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("a bands with other ability", 'a "bands with other" ability'),  # 508.1e, 2009
        ('called the "precombat" main phase.', "called the precombat main phase."),
        ("See Intervening 'If' Clause.", "See Intervening If Clause."),  # single quotes
        ('A permanent\'s "status" is', "A permanent's status is"),  # apostrophe kept
    ],
)
def test_quotation_marks_put_on_or_taken_off_are_typography(old: str, new: str) -> None:
    assert key(old) != key(new)  # not folded in the key: a quote is a mark there
    assert same_wording(old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Alternative costs are always optional.", "Alternative costs are generally optional."),
        ("nontoken creature", "non token creature"),
        ("gets +1/+1", "gets -1/-1"),
        ("snake_case stays", "snakecase stays"),
        ("Flying", "flying"),
        ("printed as <card number>", "printed as card number"),  # a placeholder, no address
        ("{T}: Add {G}.", "{Q}: Add {G}."),
        ("{oT}: Add {G}.", "{T}: Add {o}."),
        ("Protection from <quality>", "Protection from (quality)"),
        ("GREAT BRITAIN", "GREA BRITAIN"),
        ("an _ATM_ card", "an _A_ card"),  # a T of a word in capitals is its own
        ("the Players\ufffds cards", "the Players cards"),  # a lost apostrophe, not a ™
        ("the AT card", "the A card"),
        ("the player's card", "the players card"),  # an apostrophe is no quotation mark
        ("don't", "dont"),
        ("and so on...", "and so on."),  # an ellipsis is no full stop
        ('(such as "Shuffle your hand.") That', '(such as "Shuffle your hand") That'),
    ],
)
def test_wording_changes_are_not_typography(old: str, new: str) -> None:
    assert not same_wording(old, new)
