"""Each class of lineage the historians rely on, on small editions written for the test
(not the publisher's text): splits, merges, renames that leave an "(Obsolete)" stub,
sections renamed, a kept number that is not enough, a rewritten definition following its
heading, and typography that is never a change."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from rules_kb.ingest.align import Alignment, Item, align
from rules_kb.ingest.align.leftovers import kept_under_followed_headings
from rules_kb.ingest.align.model import Left
from rules_kb.ingest.align.pairs import carried_sentences
from rules_kb.ingest.align.words import Normalised, sentences
from rules_kb.ingest.lineage import same_examples, status
from rules_kb.worddiff import word_diff

Row = tuple[str, str, str | None, str]
"""(number or term, kind, parent, text) of one record."""


def aligned(
    old: Sequence[Row], new: Sequence[Row], went: Mapping[str, frozenset[str]] | None = None
) -> tuple[Alignment, dict[str, str]]:
    """The alignment of two small editions, and its old -> new key map; `went`: where the
    rules of the old edition went (for a glossary: see `align`)."""
    texts: dict[int, str] = {}

    def items(rows: Sequence[Row]) -> list[Item]:
        found = []
        for key, kind, parent, text in rows:
            text_id = next((i for i, t in texts.items() if t == text), len(texts))
            texts[text_id] = text
            found.append(Item(key, kind, parent, text_id))
        return found

    before, after = items(old), items(new)

    def load(ids: Sequence[int]) -> Mapping[int, str]:
        return {i: texts[i] for i in ids}

    alignment = align(before, after, load, went=went)
    return alignment, alignment.key_map(before, after)


def keys(
    alignment: Alignment, old: Sequence[Row], new: Sequence[Row], which: str
) -> set[tuple[str, str]]:
    pairs = alignment.split if which == "split" else alignment.merged
    return {(old[i][0], new[j][0]) for i, j in pairs}


# Two editions of a made-up chapter of state-based checks.
LOSES = "A contestant with no points left or who must take a token from an empty pile loses."
OLD_CHAPTER: list[Row] = [
    ("420", "chapter", "4", "Periodic Checks"),
    ("420.1", "rule", "420", "Whenever a contestant would act, the checks below happen first."),
    ("420.5", "rule", "420", "The periodic checks are these:"),
    ("420.5a", "subrule", "420.5", LOSES),
    ("420.5b", "subrule", "420.5", "A marker with zero height is moved to its owner's bin."),
    ("420.5c", "subrule", "420.5", "Two champions with the same name make their owner choose one."),
]
NEW_CHAPTER: list[Row] = [
    ("420", "chapter", "4", "Periodic Checks"),
    ("420.1", "rule", "420", "Whenever a contestant would act, the checks below happen first."),
    ("420.5", "rule", "420", "The periodic checks are these:"),
    ("420.5a", "subrule", "420.5", "A contestant with no points left loses."),
    ("420.5b", "subrule", "420.5", "A marker with zero height is moved to its owner's bin."),
    ("420.5c", "subrule", "420.5", "Two champions with the same name make their owner choose one."),
    ("420.5g", "subrule", "420.5", "A contestant who must take a token from an empty pile loses."),
]


def test_a_split_continues_in_the_part_keeping_the_number() -> None:
    alignment, mapping = aligned(OLD_CHAPTER, NEW_CHAPTER)
    assert mapping["420.5a"] == "420.5a"  # the first clause keeps the number and the line
    assert keys(alignment, OLD_CHAPTER, NEW_CHAPTER, "split") == {("420.5a", "420.5g")}
    assert not alignment.added and not alignment.removed


def test_a_merge_is_recorded_on_the_record_that_went_into_another() -> None:
    alignment, mapping = aligned(NEW_CHAPTER, OLD_CHAPTER)  # the same edit undone
    assert mapping["420.5a"] == "420.5a"
    assert keys(alignment, NEW_CHAPTER, OLD_CHAPTER, "merged") == {("420.5g", "420.5a")}
    assert not alignment.removed


def test_a_clause_merged_into_a_rule_that_continues_another_is_merged() -> None:
    """Two rules on one case folded into one that keeps the first's number and says both:
    the second brought a clause ("a trap or a ward"), most of whose words the first had;
    it is merged into the first's successor, not removed."""
    first = (
        "If an effect would make a contestant discard one or more named pieces, but none"
        " of those pieces are in the hand they are expected to be in, nothing is discarded."
    )
    second = (
        "If an effect would make a contestant discard one or more named pieces, and a trap"
        " or a ward makes all such pieces go to another pile instead, nothing is discarded."
    )
    both = (
        "If an effect would make a contestant discard one or more named pieces, the discard"
        " still happens even if none of those pieces are in the hand they are expected to"
        " be in or an effect makes all of them go to another pile or stay where they are."
    )
    empty = "If an effect would make a contestant discard a set of pieces, the set may be empty."
    old: list[Row] = [
        ("701.9", "rule", "701", "Discard"),
        ("701.9c", "subrule", "701.9", first),
        ("701.9d", "subrule", "701.9", second),
        ("701.9e", "subrule", "701.9", empty),
    ]
    new: list[Row] = [
        ("701.9", "rule", "701", "Discard"),
        ("701.9c", "subrule", "701.9", both),
        ("701.9d", "subrule", "701.9", empty),
    ]
    alignment, mapping = aligned(old, new)
    assert mapping["701.9c"] == "701.9c" and mapping["701.9e"] == "701.9d"
    assert keys(alignment, old, new, "merged") == {("701.9d", "701.9c")}
    assert not alignment.removed


def test_a_part_keeping_the_number_and_gaining_a_pointer_keeps_the_line() -> None:
    """A rule of three sentences printed as three rules, the one keeping the number with a
    pointer added ("See rule 503, ..."): the pointer is no new content, so the line goes on
    under the same number and the other part was split from it."""
    markers = "Markers normally have no point value."
    tokens = "Tokens have no point value unless the effect that makes them says otherwise."
    copies = "A copy of a piece copies that piece's point value."
    old: list[Row] = [
        ("203.1", "rule", "203", "A piece's point value is printed on it."),
        ("203.1a", "subrule", "203.1", f"{markers} {tokens} {copies}"),
    ]
    new: list[Row] = [
        ("203.1", "rule", "203", "A piece's point value is printed on it."),
        ("203.1a", "subrule", "203.1", f'{copies} See rule 503, "Copying Pieces."'),
        ("203.1d", "subrule", "203.1", tokens),
    ]
    alignment, mapping = aligned(old, new)
    assert mapping["203.1a"] == "203.1a"
    assert keys(alignment, old, new, "split") == {("203.1a", "203.1d")}


def test_a_split_under_a_moved_heading_continues_in_the_part_keeping_its_letters() -> None:
    """A keyword's subrule split in two as the keyword moved to another section (haste
    502.5b of 2009-05-01 became 702.10b, attacking, and 702.10c, tapping): the part that
    keeps its letters under the heading's new number continues it, though the other part
    holds more of its words; the other was split from it."""
    both = (
        "A runner with haste can sprint or use powers whose price includes the bell symbol"
        " even if its keeper has not held it since the start of the keeper's latest round."
    )
    sprint = (
        "If a runner has haste, it can sprint even if its keeper has not held it"
        " continuously since the keeper's latest round began."
    )
    powers = (
        "If a runner has haste, its keeper can use its powers whose price includes the bell"
        " symbol even if that runner has not been held by that keeper since the keeper's"
        " latest round began."
    )
    old: list[Row] = [
        ("502", "chapter", "5", "Keyword Traits"),
        ("502.5", "rule", "502", "Haste"),
        ("502.5a", "subrule", "502.5", "Haste is a static ability."),
        ("502.5b", "subrule", "502.5", both),
        ("502.5c", "subrule", "502.5", "Several instances of haste on one runner do nothing more."),
    ]
    new: list[Row] = [
        ("702", "chapter", "7", "Keyword Traits"),
        ("702.10", "rule", "702", "Haste"),
        ("702.10a", "subrule", "702.10", "Haste is a static ability."),
        ("702.10b", "subrule", "702.10", sprint),
        ("702.10c", "subrule", "702.10", powers),
        (
            "702.10d",
            "subrule",
            "702.10",
            "Several instances of haste on one runner do nothing more.",
        ),
    ]
    alignment, mapping = aligned(old, new)
    assert mapping["502.5"] == "702.10"
    assert mapping["502.5b"] == "702.10b"
    assert keys(alignment, old, new, "split") == {("502.5b", "702.10c")}
    assert not alignment.added and not alignment.removed


def test_a_split_with_no_part_keeping_the_number_continues_in_its_first_sentence() -> None:
    """A team rule of three clauses moved to a new chapter as three rules, the last two
    printed first: the line goes on in the part that says what the old rule said first,
    and the other parts were split from it."""
    act = "A contestant may play a piece or use a power when their team holds the initiative."
    draw = "Each contestant on a team draws a card during that team's gathering stage."
    land = "Each contestant on a team may place a marker during each of that team's rounds."
    old: list[Row] = [
        ("806", "chapter", "8", "Team Duels"),
        ("806.7", "rule", "806", "Teams act as described below."),
        ("806.7c", "subrule", "806.7", f"{act} {draw} {land}"),
    ]
    new: list[Row] = [
        ("805", "chapter", "8", "Shared Team Rounds"),
        ("805.4", "rule", "805", "Teams share their rounds as described below."),
        ("805.4b", "subrule", "805.4", draw),
        ("805.4c", "subrule", "805.4", land),
        ("805.5", "rule", "805", "Teams hold the initiative together."),
        ("805.5a", "subrule", "805.5", act),
    ]
    alignment, mapping = aligned(old, new)
    assert mapping["806.7c"] == "805.5a"
    split = keys(alignment, old, new, "split")
    assert split == {("806.7c", "805.4b"), ("806.7c", "805.4c")}


def test_a_merge_continues_the_rule_its_first_sentence_comes_from() -> None:
    """Two chapters joined: a rule that opens with one old rule (reworded) and ends with
    another (word for word) continues the first, and the second was merged into it; a
    rule that brought only a word or two to its new home is merged, not removed; and the
    chapter whose rules were all merged under the other went into it (as "Meld Cards" 713
    into "Double-Faced Cards" 712 of 2023-04-14, and "Bands with Other" 502.11 of
    2009-05-01 into "Banding" 702.19)."""
    sides = "Each side of a folded piece has its own set of marks."
    paired = (
        "The front of every paired piece and the joined face that two pieces form together"
        " show their own marks."
    )
    flat = "Folded pieces can't be laid flat. If a power tries to lay one flat, nothing happens."
    paired_flat = (
        "Paired pieces in play can't be laid flat. If a power tries to lay such a piece"
        " flat, nothing happens."
    )
    both_flat = (
        "Paired pieces and other folded pieces can't be laid flat. If a power tries to lay"
        " a folded piece flat, nothing happens."
    )
    old: list[Row] = [
        ("712", "chapter", "7", "Folded Pieces"),
        ("712.4", "rule", "712", sides),
        ("712.9", "rule", "712", flat),
        ("713", "chapter", "7", "Paired Pieces"),
        ("713.4", "rule", "713", paired),
        ("713.11", "rule", "713", paired_flat),
    ]
    bent = "Each side of a folded or bent piece has its own set of marks."
    new: list[Row] = [
        ("712", "chapter", "7", "Folded and Paired Pieces"),
        ("712.8", "rule", "712", f"{bent} {paired}"),
        ("712.16", "rule", "712", both_flat),
    ]
    alignment, mapping = aligned(old, new)
    assert mapping["712.4"] == "712.8" and mapping["712.9"] == "712.16"
    merged = keys(alignment, old, new, "merged")
    assert merged == {("713.4", "712.8"), ("713.11", "712.16"), ("713", "712")}
    assert not alignment.removed


def test_a_rule_keeping_its_number_and_first_sentence_is_not_crossed_with_its_neighbour() -> None:
    """A rule's first sentence reworded under its own number with its neighbour appended,
    and its second sentence made a rule of its own under the neighbour's number: the
    number and the first sentence keep the line; the neighbour was merged in, and the
    new neighbour split off."""
    purse = "any unused tokens left in a contestant's purse vanish. This doesn't use the queue."
    expiry = (
        "When a round or stage ends, any effects scheduled to last until the end of that"
        " round or stage expire. When a round or stage begins, if there are effects"
        " scheduled to last until that round or stage, those expire. Effects that last until"
        " the end of the duel expire at the end of the duel."
    )
    old: list[Row] = [
        ("500", "chapter", "5", "Rounds"),
        ("500.4", "rule", "500", f"When a stage or round ends, {purse}"),
        ("500.5", "rule", "500", expiry),
    ]
    begins = (
        "As a round or stage begins, if there are effects that last until that round or"
        " stage, those effects expire."
    )
    ends = (
        "As a round or stage ends, if there are effects that last until the end of that"
        f" round or stage, those effects expire. Then {purse}"
    )
    duel = "Effects that last until the end of the duel expire at the end of the duel."
    new: list[Row] = [
        ("500", "chapter", "5", "Rounds"),
        ("500.4", "rule", "500", begins),
        ("500.5", "rule", "500", ends),
        ("500.5a", "subrule", "500.5", duel),
    ]
    alignment, mapping = aligned(old, new)
    assert mapping["500.5"] == "500.5"
    assert keys(alignment, old, new, "merged") == {("500.4", "500.5")}
    assert ("500.5", "500.4") in keys(alignment, old, new, "split")


REFLEX = (
    "A resolving power may let a contestant act and create a quick trigger that fires"
    " when the contestant does so. Such quick triggers follow the rules for delayed ones."
)
TIMES = (
    " If the power lets the contestant pay a price any number of times and fires once for"
    " each payment, the trigger fires only once, whatever the number paid."
)


def test_a_clause_a_rule_lost_and_a_new_rule_carries_reworded_was_split_from_it() -> None:
    """A rule's closing clause taken out and printed, reworded and with more said, as a
    subrule of its own: too little of the subrule's wording is the old rule's to find it
    by its share of words, but it holds nearly all that the old rule lost."""
    old: list[Row] = [
        ("603", "chapter", "6", "Quick Triggers"),
        ("603.12", "rule", "603", REFLEX + TIMES),
    ]
    subrule = (
        "Normally a quick trigger fires once each time its event happens while the power"
        " resolves. However, if that power lets the contestant pay a price any number of"
        " times, the trigger fires only once, whatever the number paid, and it is put into"
        " the queue as the power finishes resolving, with one target chosen for it then."
    )
    new: list[Row] = [
        ("603", "chapter", "6", "Quick Triggers"),
        ("603.12", "rule", "603", REFLEX),
        ("603.12a", "subrule", "603.12", subrule),
    ]
    alignment, mapping = aligned(old, new)
    assert mapping["603.12"] == "603.12"
    assert keys(alignment, old, new, "split") == {("603.12", "603.12a")}


def test_a_heading_of_one_rule_joins_the_heading_its_rule_went_into() -> None:
    """Like "Illustration Credit" 209 and "Collector Number" 211 of 2007-09-07, whose one
    rule each became 210.1a and 210.1c under "Information Below the Text Box" 210, which
    goes on from "Legal Text" 210: both headings were merged into it, wherever they stand
    before or after it. A heading whose rule went where no heading goes on from another
    is left alone here (the passes for headings renamed or moved judge it)."""
    old: list[Row] = [
        ("2", "section", None, "Parts of a Token"),
        ("209", "chapter", "2", "Maker's Mark"),
        ("209.1", "rule", "209", "The maker's mark of a token is stamped beneath its face. The"
         " mark has no effect on play."),
        ("210", "chapter", "2", "Small Print"),
        ("210.1", "rule", "210", "Small print (the tiny words at the foot of the token)"
         " lists the maker's rights. It has no effect on play."),
        ("211", "chapter", "2", "Series Number"),
        ("211.1", "rule", "211", "Some token series carry a series number, printed as"
         " [token number]/[tokens in the series] after the small print. These numbers have"
         " no effect on play."),
    ]  # fmt: skip
    new: list[Row] = [
        ("2", "section", None, "Parts of a Token"),
        ("209", "chapter", "2", "Strength"),
        ("209.1", "rule", "209", "Each champion token shows its strength in a shield at its"
         " lower left corner."),
        ("210", "chapter", "2", "Words Below the Face"),
        ("210.1", "rule", "210", "Each token carries words beneath its face that have no"
         " effect on play."),
        ("210.1a", "subrule", "210.1", "The maker's mark of a token is stamped on the first"
         " line beneath its face, after the word \"Made\"."),
        ("210.1b", "subrule", "210.1", "Small print (the tiny words at the foot of the"
         " token) lists the maker's marks and rights."),
        ("210.1c", "subrule", "210.1", "Some token series carry a series number, printed as"
         " [token number]/[tokens in the series] after the small print."),
        ("211", "chapter", "2", "[Left blank so that the numbers after it stay as they"
         " were.]"),
    ]  # fmt: skip
    alignment, mapping = aligned(old, new)
    assert (mapping["209.1"], mapping["210"], mapping["211.1"]) == ("210.1a", "210", "210.1c")
    assert keys(alignment, old, new, "merged") >= {("209", "210"), ("211", "210")}
    assert "209" not in mapping and "211" not in mapping


def test_a_rule_written_for_a_case_its_source_never_named_is_new() -> None:
    """Like 201.3 of 2016-04-08, which named split, flip and double-faced cards, and
    2016-07-22 gave each a subrule in one pattern and added 201.3d on meld pairs in the
    same words: the subrules for the cases the old rule named were split from it, the one
    for the case it never named is new. Where the old rule named that case too, it was
    split from it as well."""
    rule = (
        "If an effect tells a player to pick a token, the player picks a token on the"
        " table. If the player wants to pick a stacked token, the player picks its top"
        " piece. If the player wants to pick the far side of a {}, the player may do so."
    )
    old: list[Row] = [
        ("301", "section", "3", "Tokens"),
        ("301.3", "rule", "301", rule.format("folding token")),
    ]
    new: list[Row] = [
        ("301", "section", "3", "Tokens"),
        ("301.3", "rule", "301", "If an effect tells a player to pick a token, the player"
         " picks a token on the table."),
        ("301.3a", "subrule", "301.3", "If a player wants to pick a stacked token, the"
         " player picks its top piece."),
        ("301.3b", "subrule", "301.3", "If a player wants to pick the far side of a"
         " folding token, the player may do so."),
        ("301.3c", "subrule", "301.3", "If a player wants to pick the joined far side of a"
         " linked pair, the player may do so."),
    ]  # fmt: skip
    alignment, mapping = aligned(old, new)
    assert mapping["301.3"] == "301.3"
    assert keys(alignment, old, new, "split") == {("301.3", "301.3a"), ("301.3", "301.3b")}
    # The old rule named linked pairs beside folding tokens: a case it said, split off.
    old[1] = (
        "301.3",
        "rule",
        "301",
        rule.format("folding token or the joined far side of a linked pair"),
    )
    alignment, mapping = aligned(old, new)
    assert keys(alignment, old, new, "split") == {
        ("301.3", "301.3a"),
        ("301.3", "301.3b"),
        ("301.3", "301.3c"),
    }


def test_a_template_reworded_inside_quotes_is_no_clause_a_new_rule_took() -> None:
    """Like 605.1 of 2021-04-22, whose quotation "Activate this ability only any time you
    could cast an instant" became "Activate only as an instant" as the edition rewrote
    that template everywhere: 602.5f, a new note quoting the old wording, holds all the
    words 605.1 lost, but they were said only inside quotation marks, so it is new, not
    split from 605.1. A clause lost outside the quotes still makes a part."""
    quoted = (
        "Some moves are swift moves, which follow special rules. Only moves that meet"
        ' these tests are swift, whatever timing limits (such as "{}") they carry.'
    )
    old: list[Row] = [
        ("605", "chapter", "6", "Swift Moves"),
        (
            "605.1",
            "rule",
            "605",
            quoted.format("Use this move only any time you could play a trick"),
        ),
    ]
    note = (
        'Some older tokens read "Use this move only any time you could play a [trick or'
        ' stunt]." Those tokens now read as the rules above say, whichever fits.'
    )
    new: list[Row] = [
        ("605", "chapter", "6", "Swift Moves"),
        ("605.1", "rule", "605", quoted.format("Use only as a trick")),
        ("605.2", "rule", "605", note),
    ]
    alignment, mapping = aligned(old, new)
    assert mapping["605.1"] == "605.1"
    assert keys(alignment, old, new, "split") == set()
    # The same words lost outside the quotes: a clause the note took with it.
    unquoted = quoted.replace('(such as "{}")', "({})")
    old[1] = (
        "605.1",
        "rule",
        "605",
        unquoted.format("use this move only any time you could play a trick"),
    )
    new[1] = ("605.1", "rule", "605", unquoted.format("use only as a trick"))
    new[2] = ("605.2", "rule", "605", note.replace('"', ""))
    alignment, mapping = aligned(old, new)
    assert keys(alignment, old, new, "split") == {("605.1", "605.2")}


NO_LIMITS = (
    "There are no limits on starting a move or using a power that makes a {} effect."
    " Such effects last until they are used up or until their time runs out."
)
GUARD_CHAPTERS: list[Row] = [
    ("419", "chapter", "4", "Shield and Ward Effects"),
    ("419.1", "rule", "419", "A shield effect watches for an event and changes it."),
    ("419.2", "rule", "419", "A ward effect stops harm before it is done."),
]


def test_a_rule_said_of_two_cases_divided_into_one_for_each_split_in_two() -> None:
    """A rule said of two cases ("a shield or ward effect"), as its section became two,
    printed once for each case: the line goes on in one, and the other was split from it,
    though it shares every word but the case with the first (614.3 of 2009-07-11, on
    prevention effects, from 419.3, on replacement and prevention effects)."""
    old: list[Row] = [*GUARD_CHAPTERS, ("419.3", "rule", "419", NO_LIMITS.format("shield or ward"))]
    new: list[Row] = [
        ("613", "chapter", "6", "Shield and Ward Effects"),
        ("613.1", "rule", "613", "A shield effect watches for an event and changes it."),
        ("613.3", "rule", "613", NO_LIMITS.format("shield")),
        ("614", "chapter", "6", "Ward Effects"),
        ("614.1", "rule", "614", "A ward effect stops harm before it is done."),
        ("614.3", "rule", "614", NO_LIMITS.format("ward")),
    ]
    alignment, mapping = aligned(old, new)
    assert mapping["419.3"] == "613.3"
    assert keys(alignment, old, new, "split") == {("419.3", "614.3")}
    assert [new[j][0] for j in alignment.added] == ["614"]  # the new chapter alone


@pytest.mark.parametrize(
    ("kept", "other"),
    [
        # copied whole while the old rule goes on: the copy is new
        (NO_LIMITS.format("shield or ward"), NO_LIMITS.format("shield or ward")),
        # a new case written after the old one's pattern, the old one unchanged
        (NO_LIMITS.format("shield or ward"), NO_LIMITS.format("shield or bounce")),
    ],
)
def test_a_rule_copied_or_written_after_another_is_no_case_of_it(kept: str, other: str) -> None:
    old: list[Row] = [*GUARD_CHAPTERS, ("419.3", "rule", "419", NO_LIMITS.format("shield or ward"))]
    new: list[Row] = [
        *GUARD_CHAPTERS,
        ("419.3", "rule", "419", kept),
        ("419.4", "rule", "419", other),
    ]
    alignment, mapping = aligned(old, new)
    assert mapping["419.3"] == "419.3"
    assert not alignment.split
    assert [new[j][0] for j in alignment.added] == ["419.4"]


def test_a_part_opening_with_a_sentence_its_source_dropped_needs_no_more_words() -> None:
    """Like 213.3 of 2003-07-01, which opens with the sentence on spells that 214.3
    dropped, a word gone: found among 214.3's words, it holds few of the words 214.3 lost
    (its other sentences say again what 214.3 still says), and was split from it all the
    same."""
    old: list[Row] = [
        ("214", "chapter", "2", "Pieces"),
        (
            "214.3",
            "rule",
            "214",
            "A tile becomes a piece when it enters the board and stops being a piece when it"
            ' leaves the board. The term "tile" is often used to refer to a tile that\'s not'
            ' on the board, such as a tile in a player\'s hand. "Move" is often used to'
            " refer to a tile while it's in the queue.",
        ),
    ]
    new: list[Row] = [
        ("213", "chapter", "2", "Moves"),
        ("213.3", "rule", "213",
         "The term \"move\" is used to refer to a tile while it's in the queue. The term"
         " \"tile\" isn't used to refer to a tile that's in the queue as a move."),
        ("214", "chapter", "2", "Pieces"),
        ("214.3", "rule", "214",
         "A tile or token becomes a piece when it enters the board and stops being a piece"
         " when it leaves the board. The term \"tile\" is only used to refer to a tile"
         " that's not on the board and not in the queue, such as a tile in a player's"
         " hand."),
    ]  # fmt: skip
    alignment, mapping = aligned(old, new)
    assert mapping["214.3"] == "214.3"
    assert keys(alignment, old, new, "split") == {("214.3", "213.3")}


def test_a_rule_that_heads_its_old_text_at_its_number_goes_on_there() -> None:
    """Like 113.6 of 2010-02-01: the rule at the old number opens with what the old rule
    said first and goes on ("... of a move, and other powers let a player ..."), and its
    new subrule 113.6a says the rest, most of the old words: the line goes on at the
    number, and the subrule was split from it."""
    old: list[Row] = [
        ("113", "chapter", "1", "Aims"),
        ("113.6", "rule", "113",
         "Some powers let a player change the aim of a move. If so, the aim can be changed"
         " only to another legal aim. If the aim can't be changed to another legal aim, the"
         " original aim is kept, even if it is no longer legal."),
    ]  # fmt: skip
    new: list[Row] = [
        ("113", "chapter", "1", "Aims"),
        ("113.6", "rule", "113",
         "Some powers let a player change the aim(s) of a move, and other powers let a"
         " player pick new aims for a move."),
        ("113.6a", "subrule", "113.6",
         "If a power lets a player \"change the aim(s)\" of a move, each aim can be changed"
         " only to another legal aim. If an aim can't be changed to another legal aim, the"
         " original aim is kept, even if it is no longer legal."),
    ]  # fmt: skip
    alignment, mapping = aligned(old, new)
    assert mapping["113.6"] == "113.6"
    assert keys(alignment, old, new, "split") == {("113.6", "113.6a")}


def test_a_near_tie_goes_to_the_rule_saying_what_the_old_one_said_first() -> None:
    """Like 200.7a of 2009-05-01: a rule on who controls three kinds of powers moves
    elsewhere; one new rule says all three, reworded, and another, a little more like it
    word for word, says only the last two. The old rule goes on in the one saying its
    opening, and the other is new."""
    old: list[Row] = [
        ("200", "chapter", "2", "General"),
        ("200.7", "rule", "200", "Powers have controllers."),
        ("200.7a", "subrule", "200.7",
         "The controller of a cast power is the player who cast the power. The controller"
         " of a woken power is the player who controlled the power's tile when it woke,"
         " unless it's a late woken power. The controller of a late woken power is the"
         " player who controlled the move or power that made it."),
    ]  # fmt: skip
    new: list[Row] = [
        ("112", "chapter", "1", "Powers"),
        ("112.7", "rule", "112",
         "The controller of a cast power in the queue is the player who sent it. The"
         " controller of a woken power in the queue (other than a late woken power) is the"
         " player who controlled the power's tile when it woke, or, if it had no"
         " controller, the player who owned the tile. The controller of a late woken power"
         " in the queue is the player who controlled the move or power that made it."),
        ("603", "chapter", "6", "Woken Powers"),
        ("603.3", "rule", "603", "Woken powers wait in the queue."),
        ("603.3a", "subrule", "603.3",
         "A woken power is controlled by the player who controlled its tile at the time it"
         " woke, unless it's a late woken power. The controller of a late woken power is"
         " the player who controlled the move or power that made it."),
    ]  # fmt: skip
    alignment, mapping = aligned(old, new)
    assert mapping["200.7a"] == "112.7"
    assert "603.3a" in {new[j][0] for j in alignment.added}


AIMED = (
    '{} power is aimed if it names what it will affect by using the phrase "aim at'
    ' [something]," where the something is a phrase that describes a piece, a contestant'
    " or a square. The aim is chosen as the power is {}."
)
PHRASE = (
    'is aimed if it uses the phrase "aim at [something]," where the something is a phrase'
    " that describes a piece, a contestant or a square."
)


@pytest.mark.parametrize(
    ("source", "split"),
    [
        # one sentence named both cases: each new rule says it of one
        (f"An active or waiting power {PHRASE}", True),
        # the sentence named one; a new rule for another case, written after the first
        (f"An active power {PHRASE} A waiting power is one that waits for an event.", False),
    ],
)
def test_a_case_said_apart_with_new_words_was_split_from_the_rule_saying_both(
    source: str, split: bool
) -> None:
    """Like 113.1d of 2009-07-11, "A triggered ability is targeted if it identifies ...",
    from 415.2 "An activated or triggered ability is targeted if ...", which goes on as
    113.1c on activated abilities: each new rule says more than the old one did, too much
    to be found as a part by its share of words, but they part only on the case. A new
    rule for a case the old one did not name beside its own (703.4f, written after
    703.4e) is new."""
    old: list[Row] = [("415", "chapter", "4", "Aims"), ("415.2", "rule", "415", source)]
    new: list[Row] = [
        ("113", "chapter", "1", "Aims"),
        ("113.1c", "rule", "113", AIMED.format("An active", "used")),
        ("113.1d", "rule", "113", AIMED.format("A waiting", "queued")),
    ]
    alignment, mapping = aligned(old, new)
    assert mapping["415.2"] == "113.1c"
    assert keys(alignment, old, new, "split") == ({("415.2", "113.1d")} if split else set())


def test_a_lost_clause_two_new_rules_carry_alike_was_split_into_neither() -> None:
    """Two new rules that each hold what a rule lost (boilerplate on timing) are only
    alike: neither is recorded as split from it."""
    once = "A contestant may normally place only one marker during each of their own rounds."
    timing = "during a main phase of their own turn, when the stack is empty"
    old: list[Row] = [
        ("214", "chapter", "2", "Markers"),
        ("214.9b", "rule", "214", f"{once} This happens only {timing}."),
    ]
    new: list[Row] = [
        ("212", "chapter", "2", "Markers"),
        ("212.6b", "rule", "212", once),
        ("212.2a", "rule", "212", f"A banner card is cast, which happens only {timing}."),
        ("212.4a", "rule", "212", f"A charm card is cast, which happens only {timing}."),
    ]
    alignment, mapping = aligned(old, new)
    assert mapping["214.9b"] == "212.6b"
    assert not alignment.split


def test_a_rule_merged_in_reworded_to_fit_its_new_home_is_merged() -> None:
    """A rule folded into another and reworded on the way, two thirds of its words kept:
    it is merged into its new home, not removed."""
    printed = "A piece's types are printed on its type line."
    folded = (
        "Some powers change a piece's type. The new type replaces all earlier ones unless"
        " the power says the piece keeps a prior type."
    )
    both = (
        f"{printed} Some powers alter a piece's type: the new type overrides every"
        " earlier type, unless such a power states that the piece retains a prior type."
    )
    old: list[Row] = [
        ("212", "chapter", "2", "Types"),
        ("212.1b", "rule", "212", printed),
        ("214.4b", "rule", "212", folded),
    ]
    new: list[Row] = [("212", "chapter", "2", "Types"), ("212.1b", "rule", "212", both)]
    alignment, mapping = aligned(old, new)
    assert mapping["212.1b"] == "212.1b"
    assert keys(alignment, old, new, "merged") == {("214.4b", "212.1b")}
    assert not alignment.removed


def test_a_rule_that_gained_a_long_paragraph_in_place_is_the_same_rule() -> None:
    """A subrule renumbered with its chapter, whose sentences are kept word for word and
    followed by a long new paragraph: likeness of the whole texts falls under the usual
    bar, but its parent corresponds, so it is the same rule, not one removed and one added."""
    basic = (
        'Any marker with the supertype "plain" is a plain marker. Any marker that lacks'
        " this supertype is a fancy marker"
    )
    older = (
        "Markers from boxes sold before the second series did not use the word plain; the"
        " markers of those boxes named Stone, Reed, Shell, Ember and Moss are plain markers"
        " all the same, and so are their reprints in later boxes whatever they say. Each box"
        " lists them on its lid, for a judge to check."
    )
    old: list[Row] = [
        ("205", "chapter", "2", "Supertypes"),
        ("205.4", "rule", "205", "Some markers have supertypes."),
        ("205.4b", "subrule", "205.4", f"{basic}."),
    ]
    new: list[Row] = [
        ("204", "chapter", "2", "Supertypes"),
        ("204.4", "rule", "204", "Some markers have supertypes."),
        ("204.4c", "subrule", "204.4", f"{basic}, even with a kind of its own. {older}"),
    ]
    alignment, mapping = aligned(old, new)
    assert mapping["205.4b"] == "204.4c"
    assert not alignment.removed and not alignment.added


def test_a_second_copy_that_goes_is_merged_into_the_copy_that_stays() -> None:
    """A rule printed twice word for word (in two chapters), one copy dropped: the dropped
    copy merged into the copy that stays, never simply removed; a short one is removed."""
    twice = (
        "Once the pairings are declared, each team in turn announces the order in which"
        " its pieces take the points assigned to them, starting with the active team."
    )
    short = "Each team draws a card."
    old: list[Row] = [
        ("805", "chapter", "8", "Team Play"),
        ("805.10", "rule", "805", "Scoring in team play works as follows."),
        ("805.10f", "subrule", "805.10", twice),
        ("805.10g", "subrule", "805.10", short),
        ("810", "chapter", "8", "Team Play, Old Variant"),
        ("810.7", "rule", "810", "Scoring in the old variant works as follows."),
        ("810.7e", "subrule", "810.7", twice),
        ("810.7f", "subrule", "810.7", short),
    ]
    new = old[:4]
    alignment, moved = aligned(old, new)
    assert keys(alignment, old, new, "merged") == {("810.7e", "805.10f")}
    assert moved["805.10f"] == "805.10f" and "810.7f" not in moved


def test_a_rule_for_another_case_goes_into_the_rewrite_that_treats_both_alike() -> None:
    """Like 723.2a and 723.2d of 2022-09-08, the planar deck and the scheme deck as a
    subgame starts, become one rule on supplementary decks (724.2a): the rule for the
    other case was merged into it, not removed. A rewrite that keeps one case's own words
    and drops the other's is that case alone: the other was removed. A home several such
    rules are like (boilerplate each variant had) is where none of them went."""
    old: list[Row] = [
        ("723", "chapter", "7", "Side Matches"),
        ("723.2", "rule", "723", "Some moves start a side match."),
        ("723.2a", "subrule", "723.2", "As a side match of a Voyage game starts, each "
         "contestant moves their voyage stack from the main table to the side table and "
         "shuffles it."),
        ("723.2d", "subrule", "723.2", "As a side match of a Nemesis game starts, the nemesis "
         "moves their plot stack from the main table to the side table and shuffles it."),
        ("723.3", "rule", "723", "When a side match of a Voyage game ends, each voyage card "
         "in the side table goes to the bottom of its owner's voyage stack."),
        ("723.4", "rule", "723", "When a side match of a Nemesis game ends, each plot card "
         "in the side table goes to the bottom of its owner's plot stack."),
        ("805", "chapter", "8", "Variants"),
        ("805.4", "rule", "805", "Open games use the normal rules for winning and losing "
         "the match (see rule 104), as modified by rules 801.16 and 801.17."),
        ("806.4", "rule", "805", "Duel games use the normal rules for winning and losing "
         "the match (see rule 104), as modified by rules 801.16 and 801.17."),
        ("807.5", "rule", "805", "Crown games use the normal rules for winning and losing "
         "the match (see rule 104), as modified by rules 801.16 and 801.17, with additions."),
    ]  # fmt: skip
    new: list[Row] = [
        ("723", "chapter", "7", "Side Matches"),
        ("723.2", "rule", "723", "Some moves start a side match."),
        ("723.2a", "subrule", "723.2", "As a side match starts, if extra stacks of special "
         "cards are used, each player moves each of their extra stacks from the main "
         "table to the side table and shuffles it."),
        ("723.3", "rule", "723", "When a side match of a Voyage game ends, each voyage card "
         "in the side table goes to the bottom of its owner's voyage stack, face down."),
        ("805", "chapter", "8", "Variants"),
        ("807.5", "rule", "805", "Crown games use these rules for winning and losing the "
         "match; all the others for winning and losing the match apply too (see rule 104)."),
    ]  # fmt: skip
    alignment, mapping = aligned(old, new)
    assert mapping["723.2a"] == "723.2a" and mapping["723.3"] == "723.3"
    assert keys(alignment, old, new, "merged") == {("723.2d", "723.2a")}
    assert {old[i][0] for i in alignment.removed} == {"723.4", "805.4", "806.4"}


def test_a_kept_number_is_not_enough_against_content() -> None:
    """The number 214.4 is reused for something unrelated; the old rule's sentences are at
    212.1c now: the old 214.4 is not the new one."""
    old: list[Row] = [
        ("212", "chapter", "2", "Kinds of Pieces"),
        ("212.1", "rule", "212", "Every piece has one kind or more."),
        ("214", "chapter", "2", "Boards"),
        ("214.4", "rule", "214", "When the kind of a piece on the board changes, the new kind "
         "replaces the old one, but markers and tokens stay on it even if they mean nothing "
         "for the new kind, and its owner keeps it until the round ends."),
    ]  # fmt: skip
    new: list[Row] = [
        ("212", "chapter", "2", "Kinds of Pieces"),
        ("212.1", "rule", "212", "Every piece has one kind or more."),
        ("212.1c", "subrule", "212.1", "When the kind of a piece changes, the new kind replaces "
         "the old one, but markers and tokens stay on it even if they mean nothing for the new "
         "kind, and its owner keeps it until the round ends."),
        ("214", "chapter", "2", "Boards"),
        ("214.4", "rule", "214", "Every board has a keeper, who sits at its north side."),
    ]  # fmt: skip
    alignment, mapping = aligned(old, new)
    assert mapping["214.4"] == "212.1c"
    assert [new[j][0] for j in alignment.added] == ["214.4"]


def test_a_short_rule_rewritten_at_its_number_is_the_same_rule() -> None:
    """Like 212.5c of 2004-10-01: a rule of four words at its number and parent is
    rewritten into a long one that says its words again: likeness of characters finds
    nothing alike, but the rule goes on there, changed; a long rule sharing as few of its
    words stays apart (`test_a_kept_number_is_not_enough_against_content`)."""
    old: list[Row] = [
        ("212.5", "rule", "212", "Riddles"),
        ("212.5a", "subrule", "212.5", "A player may ask a riddle whenever the bell rings."),
        ("212.5c", "subrule", "212.5", "Riddles have no kinds."),
        ("212.5d", "subrule", "212.5", "A riddle can't be asked twice in one round."),
    ]
    new: list[Row] = [
        ("212.5", "rule", "212", "Riddles"),
        ("212.5a", "subrule", "212.5", "A player may ask a riddle whenever the bell rings."),
        ("212.5c", "subrule", "212.5", "Riddle kinds are always single words printed after "
         "a colon: \"Riddle: Old.\" Each word after the colon is a separate kind, and a "
         "riddle may have several."),
        ("212.5d", "subrule", "212.5", "A riddle can't be asked twice in one round."),
    ]  # fmt: skip
    alignment, mapping = aligned(old, new)
    assert mapping["212.5c"] == "212.5c"
    assert not alignment.removed and not alignment.added


def test_a_rule_printed_word_for_word_is_not_displaced_by_a_kept_number() -> None:
    """Like the "world rule" 801.13 of 2013-05-01, printed word for word as 801.12 when the
    "legend rule" 801.12 before it went: the kept number and its many shared words do not
    make the legend rule go on there with the world rule merged into it (nor the "legend
    rule" 704.5k of 2017-08-25, printed as 704.5j when the planeswalker uniqueness rule
    went)."""
    old: list[Row] = [
        ("801", "chapter", "8", "Limited Reach"),
        ("801.11", "rule", "801", "A move can't reach pieces outside its owner's reach."),
        ("801.12", "rule", "801", 'The "crown rule" (see rule 704.5k) applies to a piece '
         "only if other crowned pieces with the same name are within its owner's reach."),
        ("801.13", "rule", "801", 'The "realm rule" (see rule 704.5m) applies to a piece '
         "only if other realm pieces are within its owner's reach."),
        ("801.14", "rule", "801", "If a move says a contestant wins, that contestant's rivals "
         "within reach lose instead."),
    ]  # fmt: skip
    new: list[Row] = [
        ("801", "chapter", "8", "Limited Reach"),
        ("801.11", "rule", "801", "A move can't reach pieces outside its owner's reach."),
        ("801.12", "rule", "801", 'The "realm rule" (see rule 704.5m) applies to a piece '
         "only if other realm pieces are within its owner's reach."),
        ("801.13", "rule", "801", "If a move says a contestant wins, that contestant's rivals "
         "within reach lose instead."),
    ]  # fmt: skip
    alignment, mapping = aligned(old, new)
    assert mapping["801.13"] == "801.12" and mapping["801.14"] == "801.13"
    assert "801.12" not in mapping and not alignment.merged
    assert [old[i][0] for i in alignment.removed] == ["801.12"]


def test_a_rewritten_definition_follows_its_heading() -> None:
    """A keyword whose definition was rewritten ("triggered" -> "static") under a heading
    that moved keeps its line; other keywords' definitions stay with theirs."""
    old: list[Row] = [
        ("502", "chapter", "5", "Keyword Abilities"),
        ("502.63", "rule", "502", "Stoneskin"),
        ("502.63a", "subrule", "502.63", 'Stoneskin is a triggered ability. "Stoneskin" means '
         '"Whenever this piece is struck, remove one marker from it."'),
        ("502.64", "rule", "502", "Swiftness"),
        ("502.64a", "subrule", "502.64", "Swiftness is a static ability that lets a piece move "
         "twice in a round."),
    ]  # fmt: skip
    new: list[Row] = [
        ("702", "chapter", "7", "Keyword Abilities"),
        ("702.2", "rule", "702", "Stoneskin"),
        ("702.2a", "subrule", "702.2", "Stoneskin is a static ability. A piece with stoneskin "
         "loses one marker whenever it is struck."),
        ("702.3", "rule", "702", "Swiftness"),
        ("702.3a", "subrule", "702.3", "Swiftness is a static ability that lets a piece move "
         "twice in a round."),
    ]  # fmt: skip
    _, mapping = aligned(old, new)
    assert mapping["502.63"] == "702.2"
    assert mapping["502.63a"] == "702.2a"
    assert mapping["502.64a"] == "702.3a"


def test_a_renamed_section_is_one_heading() -> None:
    old: list[Row] = [
        ("1", "section", None, "The Match"),
        ("100", "chapter", "1", "Overview"),
        ("101", "chapter", "1", "Golden Principles"),
        ("102", "chapter", "1", "Contestants"),
    ]
    new: list[Row] = [
        ("1", "section", None, "Match Concepts"),
        ("100", "chapter", "1", "Overview"),
        ("101", "chapter", "1", "Golden Principles"),
        ("102", "chapter", "1", "Contestants"),
    ]
    alignment, mapping = aligned(old, new)
    assert mapping["1"] == "1"
    assert not alignment.added and not alignment.removed


def test_a_title_rule_follows_its_rules_to_the_heading_of_its_title() -> None:
    """Like "Removed from the Game" 217.7 of 2009-05-01: a title rule over a zone's rules
    is renamed "Exile" as the zone becomes chapter 406, and a keyword action 701.9 is
    titled "Exile" too. Its rules went under 406: it goes there, whatever the kind of
    heading, and 701.9 is new."""
    rules = [
        "Cards in the pit are kept face up and may be looked at by any player at any time.",
        "Cards that might come back should be kept in separate piles, one for each way back.",
        "A piece put into the pit from the pit doesn't change zones, but becomes a new piece.",
    ]
    old: list[Row] = [
        ("2", "section", None, "Zones"),
        ("217", "chapter", "2", "Zones"),
        ("217.7", "rule", "217", "Exile"),
        *(
            (f"217.7{letter}", "subrule", "217.7", text)
            for letter, text in zip("bcd", rules, strict=True)
        ),
    ]
    new: list[Row] = [
        ("4", "section", None, "Zones"),
        ("406", "chapter", "4", "Exile"),
        *((f"406.{n}", "rule", "406", text) for n, text in zip((3, 4, 5), rules, strict=True)),
        ("7", "section", None, "Actions"),
        ("701", "chapter", "7", "Keyword Actions"),
        ("701.9", "rule", "701", "Exile"),
        ("701.9a", "subrule", "701.9", "To exile a piece, put it into the pit."),
    ]
    alignment, mapping = aligned(old, new)
    assert mapping["217.7"] == "406"
    assert "701.9" in {new[j][0] for j in alignment.added}


def test_a_chapter_renamed_in_place_over_one_rule_is_one_heading() -> None:
    """A chapter that keeps its number under a new title sharing few words with the old,
    whose one rule stays under it reworded, is the same chapter renamed ("Type" 205 is
    "Type Line" 205 of 2003-07-01): one change, not one removed and one added. A chapter
    whose one rule went under another number tells nothing by that rule alone."""
    old: list[Row] = [
        ("2", "section", None, "Parts of a Piece"),
        ("205", "chapter", "2", "Kind"),
        ("205.1", "rule", "205", "The kind of a piece is printed below its picture."),
        ("206", "chapter", "2", "Badge"),
        ("206.1", "rule", "206", "The badge of a piece is printed beside its kind."),
    ]
    new: list[Row] = [
        ("2", "section", None, "Parts of a Piece"),
        ("205", "chapter", "2", "Kind Line"),
        ("205.1", "rule", "205", "The kind and the rank of a piece are printed below its picture."),
        ("206", "chapter", "2", "Emblems"),
        ("207", "chapter", "2", "Markings"),
        ("207.1", "rule", "207", "The badge of a piece is printed beside its kind."),
    ]
    _alignment, mapping = aligned(old, new)
    assert mapping["205"] == "205" and mapping["205.1"] == "205.1"
    assert mapping["206.1"] == "207.1" and "206" not in mapping


def test_a_chapter_whose_one_rule_went_deeper_under_its_number_is_renamed_in_place() -> None:
    """Like "Legal Text" 210 of 2007-09-07, whose one rule became 210.1b under "Information
    Below the Text Box" 210, beside the rules of two chapters merged there: the chapter
    keeping the number is renamed in place, not removed while its number is added."""
    old: list[Row] = [
        ("2", "section", None, "Parts of a Piece"),
        ("209", "chapter", "2", "Painter"),
        ("209.1", "rule", "209", "The painter's name is printed below the frame."),
        ("210", "chapter", "2", "Fine Print"),
        ("210.1", "rule", "210", "The fine print at the foot of a piece names its maker."),
    ]
    new: list[Row] = [
        ("2", "section", None, "Parts of a Piece"),
        ("209", "chapter", "2", "Weight"),
        ("209.1", "rule", "209", "Each heavy piece has a weight printed in its corner."),
        ("210", "chapter", "2", "Below the Frame"),
        ("210.1", "rule", "210", "Each piece has words below its frame that do nothing."),
        ("210.1a", "subrule", "210.1", "The painter's name is printed on the first line "
         "below the frame."),
        ("210.1b", "subrule", "210.1", "The fine print at the foot of a piece names its "
         "maker."),
    ]  # fmt: skip
    _alignment, mapping = aligned(old, new)
    assert mapping["210.1"] == "210.1b"
    assert mapping["210"] == "210"
    assert "209" not in mapping


def test_a_rule_whose_subrules_spread_over_one_new_chapter_became_it() -> None:
    """Like "Timing of Team Turns" 806.7 of 2010-04-23, a rule over its subrules a-h that
    went under several rules of the new chapter "Shared Team Turns Option" 805: the rule
    became that chapter, not removed while the chapter is added."""
    old: list[Row] = [
        ("8", "section", None, "Group Play"),
        ("806", "chapter", "8", "Two-Headed Match"),
        ("806.7", "rule", "806", "Timing of Team Rounds"),
        ("806.7a", "subrule", "806.7", "Teams hold the turn token, not single players."),
        (
            "806.7b",
            "subrule",
            "806.7",
            "The team whose round it is moves its pieces first, then the other team moves.",
        ),
        (
            "806.7c",
            "subrule",
            "806.7",
            "Each player of a team draws a tile as the team's round begins.",
        ),
    ]
    new: list[Row] = [
        ("8", "section", None, "Group Play"),
        ("805", "chapter", "8", "Pair Play Option"),
        ("805.1", "rule", "805", "Some group matches use team rounds."),
        ("805.4", "rule", "805", "Teams hold the turn token, not single players."),
        ("805.5", "rule", "805", "Each team takes rounds in turn."),
        ("805.5a", "subrule", "805.5", "The team whose round it is moves its pieces first, "
         "then the other team moves."),
        ("805.6", "rule", "805", "Drawing works by team."),
        ("805.6a", "subrule", "805.6", "Each player of a team draws a tile as the team's "
         "round begins."),
        ("806", "chapter", "8", "Two-Headed Match"),
    ]  # fmt: skip
    _alignment, mapping = aligned(old, new)
    assert mapping["806.7a"] == "805.4" and mapping["806.7c"] == "805.6a"
    assert mapping["806.7"] == "805"


def test_a_rename_leaving_an_obsolete_stub_continues_in_the_new_name() -> None:
    board = "The area where pieces stand while they are in the match. Pieces on it are in play."
    old: list[Row] = [
        ("In Play", "glossary", None, board),
        ("Keeper", "glossary", None, "The contestant who controls a board."),
    ]
    new: list[Row] = [
        ("Arena", "glossary", None, board.replace("in play", "in the arena")),
        ("In Play (Obsolete)", "glossary", None, "An older term for the arena. See Arena."),
        ("Keeper", "glossary", None, "The contestant who controls a board."),
    ]
    alignment, mapping = aligned(old, new)
    assert mapping["In Play"] == "Arena"
    assert keys(alignment, old, new, "split") == {("In Play", "In Play (Obsolete)")}


def test_a_rename_whose_stub_names_the_new_entry_continues_in_it() -> None:
    """The new definition is written afresh, too unlike the old to tell by its words, but
    the stub says which entry replaces it; another stub naming the same entry ("Tucked
    Away") continues elsewhere, as the entry less like it."""
    old: list[Row] = [
        (
            "Shelved",
            "glossary",
            None,
            "A shelved card is put into the shelved zone. The effect that shelved it may say "
            "how it returns.",
        ),
        ("Tucked Away", "glossary", None, "Older cards tuck cards away for a while."),
        ("Keeper", "glossary", None, "The contestant who controls a board."),
    ]
    new: list[Row] = [
        ("Archive", "glossary", None,
         "1. A zone holding cards out of the match. It used to be known as the shelved "
         "zone. 2. To put an object there from wherever it is."),
        ("Shelve, Shelved (Obsolete)", "glossary", None,
         '"Shelve [something]" is an obsolete term for "archive [something]."'),
        ("Tucked Away (Obsolete)", "glossary", None,
         '"Tuck [something] away" is an obsolete term for "archive [something]."'),
        ("Keeper", "glossary", None, "The contestant who controls a board."),
    ]  # fmt: skip
    alignment, mapping = aligned(old, new)
    assert mapping["Shelved"] == "Archive"
    assert mapping["Tucked Away"] == "Tucked Away (Obsolete)"
    assert keys(alignment, old, new, "split") == {("Shelved", "Shelve, Shelved (Obsolete)")}


def test_names_alike_only_by_letters_are_not_one_entry() -> None:
    """ "Hall Codes" and "Wall Code" share letters and one word, not a meaning: the old
    entry is gone and the new one is new, where names alike by their words still go on
    ("Roll a Die" -> "Rolling a Die", "Bind On" -> "Binding", "Order" -> "Seating Order")
    with definitions rewritten beyond telling."""
    old: list[Row] = [
        ("Hall Codes", "glossary", None, "The organiser's codes are posted at the venue."),
        ("Roll a Die", "glossary", None, "Some pieces tell a contestant to roll dice."),
        ("Bind On", "glossary", None, "One effect binds on another if it alters what it does."),
        ("Order", "glossary", None, "Who sits where when a table is full."),
        ("Keeper", "glossary", None, "The contestant who controls a board."),
    ]
    new: list[Row] = [
        ("Wall Code", "glossary", None, "A periodic check that sends older walls to the bin."),
        ("Rolling a Die", "glossary", None, "Choosing a result at random among six. See 705."),
        ("Binding", "glossary", None, "A method used to sort effects of one tier. See 613."),
        ("Seating Order", "glossary", None, "Seats are taken clockwise from the keeper."),
        ("Keeper", "glossary", None, "The contestant who controls a board."),
    ]
    alignment, mapping = aligned(old, new)
    assert "Hall Codes" not in mapping
    assert {old[i][0] for i in alignment.removed} == {"Hall Codes"}
    assert {new[j][0] for j in alignment.added} == {"Wall Code"}
    assert mapping["Roll a Die"] == "Rolling a Die"
    assert mapping["Bind On"] == "Binding"
    assert mapping["Order"] == "Seating Order"


def test_a_name_held_in_another_is_no_rename_where_they_cite_unrelated_rules() -> None:
    """An entry whose name is a word of a new entry's ("Order", "Damage Assignment
    Order" of 2009-07-11), their definitions unalike, goes on there only if the rules it
    cites went where the new one's are: "Order" (the order of cards in a pile, 217.1b) is
    removed and "Hit Order" (509.2) new, while "Teams" (609, now 809) is "Teams Variant"."""
    old: list[Row] = [
        ("Order", "glossary", None, "A pile's cards keep the order they were put in. See 217.1b."),
        ("Teams", "glossary", None, "Some matches are played by sides of players. See 609."),
    ]
    new: list[Row] = [
        ("Hit Order", "glossary", None, "Attackers pick whom they strike first. See 509.2."),
        ("Teams Variant", "glossary", None, "A match where sides play as one. See 809."),
    ]
    went = {"217.1b": frozenset({"400.5"}), "609": frozenset({"809"})}
    _alignment, found = aligned(old, new, went)
    assert found == {"Teams": "Teams Variant"}
    # without knowing where the rules went, a cited number is read as kept
    assert "Order" not in aligned(old, new)[1]


# A made-up chapter renamed, known only by the rules that went on under it.
TURN_UP = "The owner of a hidden creature may turn it face up whenever they hold the baton."
LOOK = ("You may look at a concealed spell you own at any time; its owner may turn a "
        "concealed creature face up.")  # fmt: skip
HIDDEN_OLD: list[Row] = [
    ("5", "section", None, "Additional Rules"),
    ("504", "chapter", "5", "Hidden Creatures"),
    ("504.1", "rule", "504", "Two old cards let creatures in the arena lie hidden."),
    ("504.2", "rule", "504", "A hidden creature is a 1/1 with no name, kind or powers."),
    ("504.3", "rule", "504", TURN_UP),
]
HIDDEN_NEW: list[Row] = [
    ("5", "section", None, "Additional Rules"),
    ("504", "chapter", "5", "Concealed Spells and Permanents"),
    ("504.1", "rule", "504", "One old card and veils let creatures in the arena lie hidden."),
    ("504.2", "rule", "504", "A hidden creature is a 1/1 with no name, kind, powers or cost."),
    ("504.3", "rule", "504", LOOK),
]


def test_a_rule_rewritten_under_a_heading_known_by_its_subrules_keeps_its_number() -> None:
    """ "Hidden Creatures" 504 is "Concealed Spells and Permanents" 504, known only by its
    rules that went on under it; its 504.3, rewritten from turning a hidden creature face
    up into looking at one's own concealed spells, is still 504.3, changed, not one rule
    removed and one added (713.2 of 2020-09-25, under "Checklist Cards" 713 that became
    "Substitute Cards")."""
    alignment, mapping = aligned(HIDDEN_OLD, HIDDEN_NEW)
    assert mapping["504"] == "504"
    assert mapping["504.3"] == "504.3"
    assert not alignment.removed and not alignment.added


def test_a_kept_number_under_a_followed_heading_yields_to_a_better_counterpart() -> None:
    # The pass alone, its parents paired: the kept number holds the rewritten rule, unless
    # another new rule (not one of its own subrules) is much more like it, as 408.2h of
    # 2002-10-07 is like 504.3 of 2002-02-20.
    action = ("Turning a concealed permanent face up is an action its owner may take "
              "whenever they hold the baton.")  # fmt: skip
    texts = Normalised(dict(enumerate([HIDDEN_OLD[1][3], TURN_UP, HIDDEN_NEW[1][3], LOOK, action])))
    old = [Item("504", "chapter", "5", 0), Item("504.3", "rule", "504", 1)]
    new = [Item("504", "chapter", "5", 2), Item("504.3", "rule", "504", 3)]

    def kept(new: list[Item]) -> dict[int, int]:
        pairs = {0: 0}
        kept_under_followed_headings(old, new, pairs, {}, {}, texts, titles={0, 2})
        return pairs

    assert kept(new) == {0: 0, 1: 1}
    assert kept([*new, Item("504.3a", "subrule", "504.3", 4)]) == {0: 0, 1: 1}  # its own
    assert kept([*new, Item("408.2h", "subrule", "408.2", 4)]) == {0: 0}


def test_an_entry_merged_into_one_that_took_over_its_rule_is_merged() -> None:
    """ "Plain Token" (see 104.3d) is gone, and "Plain", which went on, has come to cite
    107.4c, where 104.3d went: it was merged into "Plain" ("Colorless mana" into
    "Colorless" of 2009-07-11). "Snow Stride" is only removed: "Stride" cited its rule
    before, and still does where the rule went."""
    old: list[Row] = [
        ("Plain", "glossary", None, "An object with no hue at all is plain. See 203.2."),
        ("Plain Token", "glossary", None, "Number symbols can stand for plain tokens. See 104.3d."),
        ("Stride", "glossary", None, "A creature with stride walks past walls. See 502.6."),
        ("Snow Stride", "glossary", None, "Stride that works past snowy walls. See 502.6."),
    ]
    new: list[Row] = [
        ("Plain", "glossary", None, "1. Having no hue. See 105.2. 2. A kind of token. See 107.4c."),
        ("Stride", "glossary", None, "A family of abilities about walking past. See 702.12."),
    ]
    went = {"203.2": frozenset({"105.2"}), "104.3d": frozenset({"107.4c"}),
            "502.6": frozenset({"702.12"})}  # fmt: skip
    alignment, mapping = aligned(old, new, went)
    assert mapping == {"Plain": "Plain", "Stride": "Stride"}
    assert keys(alignment, old, new, "merged") == {("Plain Token", "Plain")}
    assert [old[i][0] for i in alignment.removed] == ["Snow Stride"]
    # without knowing where the rules went, nothing tells that 107.4c is 104.3d
    assert not aligned(old, new)[0].merged


def test_a_term_renamed_and_defined_by_its_old_name_goes_on_in_the_new_entry() -> None:
    """ "Board Action" became "Phase-Bound Action", defined as the board actions that
    happen when a phase begins: the names share one word, the definitions few, and the
    new one opens with the old name."""
    old: list[Row] = [
        (
            "Board Action",
            "glossary",
            None,
            "Some phases hold acts that skip the queue. These acts are board actions: "
            "refreshing the pool, taking a token, and discarding down.",
        ),
        ("Keeper", "glossary", None, "The contestant who controls a board."),
    ]
    new: list[Row] = [
        ("Phase-Bound Action", "glossary", None,
         "Board actions that happen by themselves as a phase begins or ends. See 703."),
        ("Keeper", "glossary", None, "The contestant who controls a board."),
    ]  # fmt: skip
    _, mapping = aligned(old, new)
    assert mapping["Board Action"] == "Phase-Bound Action"


def test_a_heading_kept_whole_is_the_same_entry_though_another_shares_a_name() -> None:
    """ "Move" is reworded, and "Move/Pass" shares its name: the heading kept whole still
    decides, and "Fancy-Move Sets" (a word of which is "Move") is not taken for it."""
    move = "The act of moving a piece involves announcing it and taking the steps needed."
    old: list[Row] = [
        ("Fancy-Move Sets", "glossary", None, "Novelty boxes [symbol]"),
        ("Move", "glossary", None, move),
        ("Move/Pass", "glossary", None, "Who moves first skips the first draw."),
    ]
    new: list[Row] = [
        ("Move", "glossary", None, move + " A piece placed by an effect is not moved."),
        ("Move/Pass (Informal)", "glossary", None, "Who moves first skips the first draw."),
        ("Make a Move", "glossary", None, "A piece placed by an effect isn't moved."),
    ]
    alignment, mapping = aligned(old, new)
    assert mapping["Move"] == "Move"
    assert [old[i][0] for i in alignment.removed] == ["Fancy-Move Sets"]


def test_a_term_an_entry_named_in_quotes_and_went_on_without_was_split_from_it() -> None:
    """Like "World Rule" of 2009-07-11, from "World" ("This "world rule" is a state-based
    effect."): a new entry for a term an old one named in quotes as it said what it is,
    where the old one went on without it. A term merely quoted, as a value, is not enough
    ("a Forest is type "forest"" and the entry "Forest" of 2003-07-01)."""
    old: list[Row] = [
        (
            "Tower",
            "glossary",
            None,
            "Tower is a supertype of pieces. If two towers stand on one square, both are moved"
            " to their owners' bins. This \u201ctower rule\u201d is a periodic check.",
        ),
        (
            "Piece Kind",
            "glossary",
            None,
            'A piece\'s kind is its name; a Knight is of kind "knight".',
        ),
    ]
    new: list[Row] = [
        ("Tower", "glossary", None, "A supertype of pieces. See also Tower Rule."),
        ("Tower Rule", "glossary", None,
         "A periodic check that moves two towers standing on one square to their owners'"
         " bins."),
        ("Piece Kind", "glossary", None, "A piece's kind is printed on its base."),
        ("Knight", "glossary", None,
         "One of the five common kinds of piece, which moves in jumps over others."),
    ]  # fmt: skip
    alignment, mapping = aligned(old, new)
    assert mapping["Tower"] == "Tower" and mapping["Piece Kind"] == "Piece Kind"
    assert keys(alignment, old, new, "split") == {("Tower", "Tower Rule")}
    assert [new[j][0] for j in alignment.added] == ["Knight"]


def test_entries_joined_or_parted_under_their_names_are_merged_or_split() -> None:
    """Two entries joined under both names: the one the new heading names first is the
    core, the other was merged in. An entry parted in two: the part bearing one of its
    names alone was split from it."""
    champion = "A champion is a piece of a kind that may be on the board once per name."
    old: list[Row] = [
        ("Champion/Champion Rule", "glossary", None, champion),
        ("Crowned", "glossary", None, "A crowned piece is a champion. See Champion."),
        (
            "Signal, Signalled Power",
            "glossary",
            None,
            "A signal is an event a signalled power waits for. A signalled power has a "
            "signal and an effect, and it acts when its signal happens.",
        ),
        ("Keeper", "glossary", None, "The contestant who controls a board."),
    ]
    new: list[Row] = [
        ("Champion/Crowned", "glossary", None,
         "Crowned is a supertype. A crowned piece is a champion, and only one champion "
         "of a name may be on the board; see the champion rule."),
        ("Signal", "glossary", None, "Of a power: to act, its signal having happened."),
        ("Signalled Power", "glossary", None,
         "A signalled power has a signal and an effect, and it acts when its signal "
         "happens."),
        ("Keeper", "glossary", None, "The contestant who controls a board."),
    ]  # fmt: skip
    alignment, mapping = aligned(old, new)
    assert mapping["Champion/Champion Rule"] == "Champion/Crowned"
    assert keys(alignment, old, new, "merged") == {("Crowned", "Champion/Crowned")}
    assert mapping["Signal, Signalled Power"] == "Signalled Power"
    assert keys(alignment, old, new, "split") == {("Signal, Signalled Power", "Signal")}


def test_a_stub_named_for_a_name_its_entry_went_on_without_is_split_from_it() -> None:
    crowned = "A piece marked with a crown. Only one crowned piece per name may be on the board."
    close = "The last step of a round. Effects that wait for the close of the round happen now."
    old: list[Row] = [
        ("Champion, Crowned", "glossary", None, "Champion is a piece type. " + crowned),
        ("Close of Round Step", "glossary", None, close),
        ("Keeper", "glossary", None, "The contestant who controls a board."),
    ]
    new: list[Row] = [
        ("At Close of Round (Obsolete)", "glossary", None, "Wording once printed on pieces."),
        ("Champion (Obsolete)", "glossary", None, "Pieces printed as champions are crowned."),
        ("Close Step", "glossary", None, close.replace("close of the round", "close step")),
        ("Crowned", "glossary", None, crowned),
        ("Herald (Obsolete)", "glossary", None, "Pieces printed as heralds are keepers now."),
        ("Keeper", "glossary", None, "The contestant who controls a board."),
    ]
    alignment, mapping = aligned(old, new)
    assert mapping["Champion, Crowned"] == "Crowned"
    assert mapping["Close of Round Step"] == "Close Step"
    assert keys(alignment, old, new, "split") == {
        ("Champion, Crowned", "Champion (Obsolete)"),
        ("Close of Round Step", "At Close of Round (Obsolete)"),
    }  # "Herald" names no old entry: the stub is new


@pytest.mark.parametrize("order", ["short first", "bulk first"])
def test_an_entry_split_in_two_named_alike_continues_in_the_one_with_its_content(
    order: str,
) -> None:
    """ "Source" split into "Source of an Ability" and "Source of Damage": its name is a
    word of both new names, so the content decides, in whichever order they stand."""
    choosing = (
        " If a power makes a contestant choose a source, they may choose a piece in play, a"
        " spell waiting its turn, or any piece a waiting spell refers to."
    )
    old: list[Row] = [
        (
            "Source",
            "glossary",
            None,
            "The source of a power or of harm is what made it." + choosing,
        ),
    ]
    ability = ("Source of an Ability", "glossary", None, "The source of a power is what made it.")
    harm = (
        "Source of Harm",
        "glossary",
        None,
        "The source of harm is the piece that dealt it." + choosing.replace("a source", "one"),
    )
    new: list[Row] = [ability, harm] if order == "short first" else [harm, ability]
    _, mapping = aligned(old, new)
    assert mapping["Source"] == "Source of Harm"


def test_an_obsolete_stub_goes_on_only_under_its_own_name_or_as_a_stub() -> None:
    old: list[Row] = [
        (
            "Quick Move (Obsolete)",
            "glossary",
            None,
            "An older term for a move a keeper may make at any time. See Swift Move.",
        ),
        (
            "Hidden Board (Obsolete)",
            "glossary",
            None,
            "An older term for the board a keeper last saw before it left the match.",
        ),
        ("Landhold (Obsolete)", "glossary", None, "An older term for a keeper's home row."),
        ("Huddle (Obsolete)", "glossary", None, "An older term for a meeting of keepers."),
    ]
    new: list[Row] = [
        ("Swift-Setting Move", "glossary", None, "A move a keeper may make at any time that "
         "sets a piece's value."),
        ("Last Seen Board", "glossary", None, "The board a keeper last saw before it left "
         "the match, used to judge its pieces."),
        ("Homerow (Obsolete)", "glossary", None, "An older term for a keeper's home row."),
        ("Huddle (Informal)", "glossary", None, "An informal term for a meeting of keepers."),
    ]  # fmt: skip
    _, mapping = aligned(old, new)
    # Another term in use is never a stub's continuation, however alike their words.
    assert "Quick Move (Obsolete)" not in mapping
    assert "Hidden Board (Obsolete)" not in mapping
    # Its own name under another note, or another stub, is.
    assert mapping["Huddle (Obsolete)"] == "Huddle (Informal)"
    assert mapping["Landhold (Obsolete)"] == "Homerow (Obsolete)"


def test_a_new_rule_opening_with_a_sentence_an_old_rule_dropped_was_split_from_it() -> None:
    # Like 203.1a of 2007-05-01: the rule keeps its number and its last sentence, and a
    # new rule opens with the sentence it dropped and goes on about something else.
    old: list[Row] = [
        ("301", "chapter", "3", "Costs"),
        ("301.1", "rule", "301", "Every piece has a cost printed in its corner."),
        ("301.1a", "subrule", "301.1", "Boards normally have no cost. Tokens have no cost "
         "unless the effect that makes them says so. A copy of a piece copies its cost."),
        ("301.1b", "subrule", "301.1", "A cost of zero is a cost; no cost is not zero."),
    ]  # fmt: skip
    new: list[Row] = [
        ("301", "chapter", "3", "Costs"),
        ("301.1", "rule", "301", "Every piece has a cost printed in its corner."),
        ("301.1a", "subrule", "301.1", "A copy of a piece copies its cost. "
         'See rule 706, "Copies."'),
        ("301.1b", "subrule", "301.1", "A cost of zero is a cost; no cost is not zero."),
        ("301.1c", "subrule", "301.1", "Boards normally have no cost. Boards are laid out "
         "at the start without paying anything, and a player may lay out one per turn."),
    ]  # fmt: skip
    alignment, mapping = aligned(old, new)
    assert mapping["301.1a"] == "301.1a"
    assert keys(alignment, old, new, "split") == {("301.1a", "301.1c")}
    # A sentence two old rules dropped says nothing of where a new rule came from.
    twice = [*old, ("301.1c", "subrule", "301.1", "Boards normally have no cost. Or so.")]
    kept = [*new[:4], ("301.1d", "subrule", "301.1", "Or else."), new[4]]
    alignment, _ = aligned(twice, kept)
    assert ("301.1a", "301.1c") not in keys(alignment, twice, kept, "split")


ARRIVES = "A power that changes how a marker arrives on the table may make other pieces move."
STOPS = "Such a power can't stop the marker itself from arriving on the table."
CHOICE = (
    "When a power changes how a marker arrives on the table, the contestant using it"
    " can't make a choice that would stop the marker from arriving."
)


@pytest.mark.parametrize("placed", ["under", "beside", "elsewhere"])
def test_a_sentence_a_rule_dropped_said_apart_beside_it_was_split_from_it(placed: str) -> None:
    """Like 614.13a of 2012-07-01: the rule keeps its number and first sentence, and a new
    rule placed under it (or just after it) says again, reworded, the sentence it dropped.
    Too little of the new rule is the old one's to find it by its share of words, and it
    does not open with the dropped sentence, but it holds most of that sentence's words,
    more than the rule that kept the number: it was split from it. Placed under another
    rule, the same words say nothing of where it came from."""
    old: list[Row] = [
        ("614", "chapter", "6", "Arrivals"),
        ("614.13", "rule", "614", f"{ARRIVES} {STOPS}"),
        ("614.14", "rule", "614", "Some powers let a marker arrive turned on its side."),
        ("614.15", "rule", "614", "A marker that arrives with others arrives with them."),
    ]
    parent, number = {
        "under": ("614.13", "614.13a"),
        "beside": ("614", "614.14"),
        "elsewhere": ("614.15", "614.15a"),
    }[placed]
    part = (number, "subrule" if "a" in number else "rule", parent, CHOICE)
    new: list[Row] = [
        ("614", "chapter", "6", "Arrivals"),
        ("614.13", "rule", "614", ARRIVES),
        *([part] if placed != "elsewhere" else []),
        ("614.15" if placed == "beside" else "614.14", "rule", "614",
         "Some powers let a marker arrive turned on its side."),
        ("614.16" if placed == "beside" else "614.15", "rule", "614",
         "A marker that arrives with others arrives with them."),
        *([part] if placed == "elsewhere" else []),
    ]  # fmt: skip
    alignment, mapping = aligned(old, new)
    assert mapping["614.13"] == "614.13"
    expected = set() if placed == "elsewhere" else {("614.13", number)}
    assert keys(alignment, old, new, "split") == expected


def test_a_sentence_said_apart_just_before_the_counterpart_was_split_and_leads() -> None:
    """Like 212.6b of 2007-09-07: its last two sentences went on word for word in a new
    212.6e, and a new rule placed just before it, beside it, says its first sentence
    again, reworded. That rule was split from it, and as it says what the old rule said
    first, the line goes on there; 212.6e was split from it."""
    put = (
        'Powers may also let contestants "drop" stones onto the board. This isn\'t the'
        " same as \"placing a stone\" and doesn't count as the contestant's one stone"
        " placed during the round."
    )
    old: list[Row] = [
        ("212.6", "rule", "212", "Stones"),
        ("212.6a", "subrule", "212.6", "Placing a stone is a quiet action."),
        ("212.6b", "subrule", "212.6",
         "A contestant may place only one stone during each of his or her own rounds."
         " Powers may allow the placing of more stones; placing one more stone this way"
         f" doesn't stop the contestant from placing the usual stone. {put}"),
    ]  # fmt: skip
    new: list[Row] = [
        ("212.6", "rule", "212", "Stones"),
        ("212.6a", "subrule", "212.6", "Placing a stone is a quiet action."),
        ("212.6c", "subrule", "212.6",
         "A contestant may normally place only one stone during his or her round; however,"
         " powers may increase this number."),
        ("212.6e", "subrule", "212.6", put),
    ]  # fmt: skip
    alignment, mapping = aligned(old, new)
    assert mapping["212.6b"] == "212.6c"
    assert keys(alignment, old, new, "split") == {("212.6b", "212.6e")}


def test_a_rule_heading_the_counterpart_and_saying_the_opening_is_where_it_went() -> None:
    """Like 420.1 of 2009-05-01: the definition of "periodic effects" is rewritten as
    "periodic actions" in a new 704.1, and its second sentence, near word for word, is
    704.1a under it. The line goes on in 704.1, which says more of what 420.1 said first,
    and 704.1a was split from it."""
    old: list[Row] = [
        ("420", "chapter", "4", "Periodic Effects"),
        ("420.1", "rule", "420",
         "Periodic effects are a special kind that apply only to the conditions listed"
         " below. Powers that watch for a given board state are woken powers, not"
         " periodic effects."),
    ]  # fmt: skip
    new: list[Row] = [
        ("704", "chapter", "7", "Periodic Actions"),
        ("704.1", "rule", "704",
         "Periodic actions are game actions that happen on their own whenever the"
         " conditions listed below are met."),
        ("704.1a", "subrule", "704.1",
         "Powers that watch for a given board state are woken powers, not periodic"
         " actions."),
    ]  # fmt: skip
    alignment, mapping = aligned(old, new)
    assert mapping["420.1"] == "704.1"
    assert keys(alignment, old, new, "split") == {("420.1", "704.1a")}


@pytest.mark.parametrize("denied", ["non-Siege", "Siege"])
def test_a_rule_for_the_case_its_source_was_narrowed_from_was_split_from_it(
    denied: str,
) -> None:
    """Like 704.5v of 2026-06-19: "If a tower has height 0 ..." is narrowed to Siege
    towers, and a new rule says the same of non-Siege towers: it was split from it. A new
    rule that does not deny the qualifier is a rule of its own."""
    old: list[Row] = [
        ("704.5", "rule", "704", "The periodic checks are these:"),
        ("704.5v", "subrule", "704.5",
         "If a tower has height 0 and it isn't the source of a power that has woken but"
         " not yet left the queue, it's put into its owner's pit."),
    ]  # fmt: skip
    new: list[Row] = [
        ("704.5", "rule", "704", "The periodic checks are these:"),
        ("704.5v", "subrule", "704.5",
         "If a Siege tower has height 0 and it isn't the source of a power that has woken"
         " but not yet left the queue, it's put into its owner's pit."),
        ("704.5w", "subrule", "704.5",
         f"If a {denied} tower has height 0, it's put into its owner's pit."),
    ]  # fmt: skip
    alignment, mapping = aligned(old, new)
    assert mapping["704.5v"] == "704.5v"
    expected = {("704.5v", "704.5w")} if denied.startswith("non") else set()
    assert keys(alignment, old, new, "split") == expected


def test_a_rule_keeping_its_opening_almost_word_for_word_goes_on_there() -> None:
    # Like 807.4c of 2010-07-16: the rule keeps its number and its opening sentence, a word
    # changed ("When" -> "After"), and goes on about something else; its second sentence
    # becomes the next rule, reworded. The line stays with the opening, and the new rule
    # holding the second sentence was split from it, though its words are nearer another
    # old rule's, printed again word for word under another number.
    extra = (
        "If a runner with a baton must run an extra lap after a lap ends, that runner keeps "
        "the baton and starts the next lap, unless another baton is within two lanes. If a "
        "runner leaves the race during a lap or before a lap begins, the runner to their "
        "left takes the baton at once."
    )
    old: list[Row] = [
        ("401", "section", "4", "Relay"),
        ("401.1", "rule", "401", "Each runner carries a baton from the first post to the last."),
        ("401.1a", "subrule", "401.1", "When a runner ends a lap, that runner hands the baton "
         "to the runner on their left. A runner can't take a baton if any runner in the two "
         "lanes to their left holds one. If so, wait until the runner three lanes to their "
         "left takes the other baton."),
        ("401.1b", "subrule", "401.1", extra),
    ]  # fmt: skip
    new: list[Row] = [
        ("401", "section", "4", "Relay"),
        ("401.1", "rule", "401", "Each runner carries a baton from the first post to the last."),
        ("401.1a", "subrule", "401.1", "After a runner ends a lap, that runner hands the "
         "baton to the runner on their left. If a runner with a baton leaves the race during "
         "a lap, the runner to their left takes the baton after that lap ends. If a runner "
         "with a baton leaves before a lap begins, the runner to their left takes it at once."),
        ("401.1b", "subrule", "401.1", "A runner who receives a baton can't begin a lap if any "
         "runner in the two lanes to their left holds one. If so, that runner waits until the "
         "runner three lanes to their left takes the other baton."),
        ("401.1c", "subrule", "401.1", extra),
    ]  # fmt: skip
    alignment, mapping = aligned(old, new)
    assert mapping["401.1b"] == "401.1c"
    assert mapping["401.1a"] == "401.1a"
    assert keys(alignment, old, new, "split") == {("401.1a", "401.1b")}


def test_a_rule_printed_again_word_for_word_keeps_its_line_against_its_number() -> None:
    # Like "Vanguards" 310 of 2012-05-01, which became 311 when "Phenomena" took 310: the
    # new 310.1 is written after the old one, another card type in the same words, and
    # keeps its number; the old 310.1 is printed word for word as 311.1. It goes on there,
    # and nothing was split from it.
    tiles = "Tile is a piece kind seen only on odd boards. Only the Tiles variant uses tiles."
    old: list[Row] = [
        ("3", "chapter", None, "Piece Kinds"),
        ("310", "section", "3", "Tiles"),
        ("310.1", "rule", "310", tiles),
        ("310.2", "rule", "310", "Tiles stay in the side area all match long."),
    ]
    new: list[Row] = [
        ("3", "chapter", None, "Piece Kinds"),
        ("310", "section", "3", "Stones"),
        ("310.1", "rule", "310", "Stone is a piece kind seen only on odd boards. Only the "
         "Stones variant uses stones."),
        ("310.2", "rule", "310", "Stones stay in the side area, face up or down."),
        ("311", "section", "3", "Tiles"),
        ("311.1", "rule", "311", tiles),
        ("311.2", "rule", "311", "Tiles stay in the side area all match long."),
    ]  # fmt: skip
    alignment, mapping = aligned(old, new)
    assert mapping["310.1"] == "311.1"
    assert keys(alignment, old, new, "split") == set()
    # Printed twice, once with a pointer under its heading's new number, once as the new
    # chapter's opening: it goes on in the one keeping its letters (205.2a of 2009-05-01 is
    # 204.2a, and 300.1 was split from it).
    kinds = "The piece kinds are stone, tile and rune."
    old = [
        ("2", "chapter", None, "Pieces"),
        ("205", "section", "2", "Kind Line"),
        ("205.2", "rule", "205", "Piece Kinds"),
        ("205.2a", "subrule", "205.2", kinds),
        ("205.2b", "subrule", "205.2", "Some pieces have more than one kind."),
    ]
    new = [
        ("2", "chapter", None, "Pieces"),
        ("204", "section", "2", "Kind Line"),
        ("204.2", "rule", "204", "Piece Kinds"),
        ("204.2a", "subrule", "204.2", kinds + ' See section 3, "Piece Kinds."'),
        ("204.2b", "subrule", "204.2", "Some pieces have more than one kind."),
        ("3", "chapter", None, "Piece Kinds"),
        ("300", "section", "3", "General"),
        ("300.1", "rule", "300", kinds),
    ]
    alignment, mapping = aligned(old, new)
    assert mapping["205.2a"] == "204.2a"
    assert keys(alignment, old, new, "split") == {("205.2a", "300.1")}


def test_a_rule_goes_on_under_its_moved_heading_not_under_its_number_elsewhere() -> None:
    # Like "Subgames" 713 of 2011-04-01, which became 714 when "Restarting the Game" took
    # 713: the new 713.3 is written after the old 713.3 for the other section, and the old
    # rule's content goes on, reworded, as 714.3, its number under its heading's new one.
    old: list[Row] = [
        ("7", "chapter", None, "Extra Rules"),
        ("713", "section", "7", "Side Matches"),
        ("713.1", "rule", "713", "A side match is a whole match played inside another."),
        (
            "713.3",
            "rule",
            "713",
            "Limits on the size of a stack are ignored for the side "
            "match. However, because each player draws five tiles as a match begins, a player "
            "with fewer than five tiles in their stack loses the side match at once.",
        ),
    ]
    new: list[Row] = [
        ("7", "chapter", None, "Extra Rules"),
        ("713", "section", "7", "Starting Over"),
        ("713.1", "rule", "713", "Some effects start the match over from the beginning."),
        ("713.3", "rule", "713", "Because each player draws five tiles as the new match "
         "begins, a player with fewer than five tiles in their stack loses the match at once."),
        ("714", "section", "7", "Side Matches"),
        ("714.1", "rule", "714", "A side match is a whole match played inside another."),
        ("714.3", "rule", "714", "Because each player draws five tiles as a match begins, a "
         "player with fewer than five tiles in their stack loses the side match at once."),
    ]  # fmt: skip
    _, mapping = aligned(old, new)
    assert mapping["713"] == "714"
    assert mapping["713.3"] == "714.3"


def test_the_same_words_said_of_another_keyword_are_another_rule() -> None:
    # Like banding 502.10 of 2009-05-01, which went on as 702.19 without its last rule,
    # "Multiple instances of banding ... are redundant.", while intimidate, new at 702.11,
    # ends with the same words of itself; and snow-covered 502.14 of 2004-06-01, gone,
    # whose number vigilance took, ending so too. Neither is the other keyword's rule.
    def keyword(number: str, name: str, what: str, last: str) -> list[Row]:
        return [
            (number, "rule", "702", name),
            (f"{number}a", "subrule", number, f"{name} is {what}."),
            (f"{number}b", "subrule", number, f"Multiple instances of {name.lower()} on the "
             f"same {last} are redundant."),
        ]  # fmt: skip

    old: list[Row] = [
        ("702", "section", "7", "Keyword Traits"),
        *keyword("702.5", "Roping", "a static ability that lets a runner lasso", "runner"),
        *keyword("702.6", "Frosted", "a trait that other cards look for", "board"),
    ]
    roping = keyword("702.7", "Roping", "a static ability that lets a runner lasso", "runner")
    new: list[Row] = [
        ("702", "section", "7", "Keyword Traits"),
        *keyword("702.5", "Vaulting", "an evasion trait", "runner"),
        *keyword("702.6", "Shouting", "a static ability that scares a runner", "runner"),
        *roping[:2],
    ]
    alignment, mapping = aligned(old, new)
    assert mapping["702.5"] == "702.7"
    assert "702.5b" not in mapping and "702.6b" not in mapping
    assert keys(alignment, old, new, "merged") == set()
    # A keyword renamed, both lines unknown, says what it said with its new name.
    renamed = [
        ("702", "section", "7", "Keyword Traits"),
        *keyword("702.5", "Lassoing", "a static ability that lets a runner lasso", "runner"),
        *keyword("702.6", "Frosted", "a trait that other cards look for", "board"),
    ]
    _, mapping = aligned(old, renamed)
    assert mapping["702.5a"] == "702.5a" and mapping["702.5b"] == "702.5b"


def test_a_rule_goes_on_where_its_opening_is_said_again_not_at_a_number_taken() -> None:
    # Like the hybrid cost-reduction rule 116.7a of 2010-02-01: printed again almost word
    # for word as 116.7c, while a new 116.7a, on another case, took its number, made of
    # the words of its last clause. The line goes where its opening sentence is said again.
    old: list[Row] = [
        ("116", "section", "1", "Prices"),
        ("116.7", "rule", "116", "What a player pays may be changed by effects."),
        (
            "116.7a",
            "subrule",
            "116.7",
            "If a price would be cut by a split symbol, the payer "
            "picks one half of that symbol when the cut is applied. If a painted half is picked, "
            "the price is cut by one coin of that paint. If a plain half is picked, the price is "
            "cut by that many plain coins (or by that many plain coins if it has no coins of "
            "that paint).",
        ),
    ]
    new: list[Row] = [
        ("116", "section", "1", "Prices"),
        ("116.7", "rule", "116", "What a player pays may be changed by effects."),
        ("116.7a", "subrule", "116.7", "If a price is cut by coins of a paint but has no coins "
         "of that paint, the price is cut by that many plain coins."),
        ("116.7b", "subrule", "116.7", "If a price is cut by more coins of a paint than it has "
         "of that paint, the rest is cut from its plain coins."),
        ("116.7c", "subrule", "116.7", "If a price is cut by a split symbol, the payer picks "
         "one half of that symbol when the cut is applied. If a painted half is picked, the "
         "price is cut by one coin of that paint. If a plain half is picked, the price is cut "
         "by that many plain coins."),
    ]  # fmt: skip
    alignment, mapping = aligned(old, new)
    assert mapping["116.7a"] == "116.7c"
    assert ("116.7a", "116.7c") not in keys(alignment, old, new, "split")


def test_a_sentence_numbered_apart_in_the_words_of_2010_was_split_off() -> None:
    """A step's rule ended "Then the active player gets priority and players may play
    spells and abilities."; its sentences became numbered rules in the words of Magic
    2010 ("Second, ... Players may cast spells and activate abilities."). The priority rule
    is split from the step's rule, not new, and of the steps printing that sentence, from
    the one whose heading it stands under."""
    priority = "Then the active player gets priority and players may play spells and abilities."
    old: list[Row] = [
        ("303", "section", "3", "Refill Step"),
        (
            "303.1",
            "rule",
            "303",
            "As the refill step begins, any abilities that trigger at "
            "the beginning of the refill step go on the queue. " + priority,
        ),
        ("305", "section", "3", "Trade Step"),
        (
            "305.1",
            "rule",
            "305",
            "As the trade step begins, the active player swaps one token "
            "with each opponent. This doesn't use the queue. " + priority,
        ),
    ]
    new: list[Row] = [
        ("503", "section", "5", "Refill Step"),
        ("503.1", "rule", "503", "First, any abilities that trigger at the beginning of the "
         "refill step go on the queue."),
        ("503.2", "rule", "503", "Second, the active player gets priority. Players may cast "
         "spells and activate abilities."),
        ("505", "section", "5", "Trade Step"),
        ("505.1", "rule", "505", "First, the active player swaps one token with each opponent. "
         "This doesn't use the queue."),
        ("505.2", "rule", "505", "Second, the active player gets priority. Players may cast "
         "spells and activate abilities."),
    ]  # fmt: skip
    alignment, mapping = aligned(old, new)
    assert (mapping["303.1"], mapping["305.1"]) == ("503.1", "505.1")
    assert keys(alignment, old, new, "split") == {("303.1", "503.2"), ("305.1", "505.2")}


def test_a_rule_whose_example_went_on_in_a_new_rule_went_on_there() -> None:
    """Rules rewritten beyond telling by their words keep their examples: 410.2 says it
    anew around the same example (the same rule, changed), and 410.3's example now
    illustrates 510.4, which continues 410.4 (410.3 was merged into it)."""
    example_a = (
        "Example: One effect reads, 'If you would gain a token, draw a card "
        "instead,' and another reads, 'If you would draw a card, gain two tokens.'"
    )
    example_b = (
        "Example: A keeper controls two pieces, one that must move if able and one "
        "with no abilities; an effect says pieces can't move alone."
    )
    texts = {
        1: "Two replacement effects can work together without contradicting each other.",
        2: "A replacement effect may apply to an event because another one changed it.",
        3: "A restriction is broken by a set of moves that ignores it.",
        4: "The mover checks each piece for requirements and restrictions.",
        5: "The mover checks each piece for requirements and restrictions, and obeys as many "
           "requirements as it can without breaking a restriction.",
        6: example_a,
        7: example_a.replace("'", "’"),
        8: example_b,
        9: example_b,
    }  # fmt: skip
    old = [
        Item("410.2", "rule", "410", 1),
        Item("410.3", "rule", "410", 3),
        Item("410.4", "rule", "410", 4),
    ]
    new = [Item("410.2", "rule", "410", 2), Item("510.4", "rule", "510", 5)]
    alignment = align(
        old, new, lambda ids: {i: texts[i] for i in ids}, ({0: (6,), 1: (8,)}, {0: (7,), 1: (9,)})
    )
    assert set(alignment.pairs) == {(0, 0), (2, 1)}
    assert alignment.merged == ((1, 1),)
    assert not alignment.removed and not alignment.added
    # Without the examples, nothing tells where 410.2 and 410.3 went.
    alone = align(old, new, lambda ids: {i: texts[i] for i in ids})
    assert set(alone.removed) == {0, 1}


def test_typography_is_never_a_change() -> None:
    texts = {1: "A piece's owner can't move it.", 2: "A piece’s owner can’t move it."}
    assert status("101.1", 1, "101.1", 2, lambda ids: texts) == "typography"
    assert status("101.1", 1, "101.2", 2, lambda ids: texts) == "moved"
    # A heading whose only difference is its quotes is not renamed.
    headings = {1: "Same text.", 2: "Same text."}
    assert status('"As If"', 1, "“As If”", 2, lambda ids: headings) == "typography"
    # nor is one whose quotes were dropped ('"As Though"' of 2009-05-01 is "As Though")
    assert status('"As If"', 1, "As If", 2, lambda ids: headings) == "typography"
    reworded = {1: "Same text.", 2: "Other text."}
    assert status("“As If”", 1, "As If", 2, lambda ids: reworded) == "changed"
    # quotes inside a heading are not dropped: an apostrophe gone is a rename
    assert status("Player's Turn", 1, "Players Turn", 2, lambda ids: headings) == "moved"
    # Inside a real change, a curly apostrophe against a straight one is kept, not edited.
    assert word_diff("the keeper’s piece stays", "the keeper's piece moves") == (
        ("=", "the keeper's piece "),
        ("-", "stays"),
        ("+", "moves"),
    )
    # And the spaces around a dash (the "--" of old editions against "—").
    assert word_diff("(see rule 614) happen -- they act", "(see rule 615) happen—they act") == (
        ("=", "(see rule "),
        ("-", "614"),
        ("+", "615"),
        ("=", ") happen—they act"),
    )
    # So is the "o" the editions of 2003-2004 print in symbols, and a symbol changed is
    # one word changed.
    assert word_diff("Pay {o1} and {oT} now.", "Pay {1} and {Q} now.") == (
        ("=", "Pay {1} and "),
        ("-", "{oT}"),
        ("+", "{Q}"),
        ("=", " now."),
    )
    # Angle brackets put around a web address, or taken off it, are typography too.
    linked = {
        1: "Rules are at <www.example.com/Rules.aspx>.",
        2: "Rules are at www.example.com/Rules.aspx.",
    }
    assert status("100.6", 1, "100.6", 2, lambda ids: linked) == "typography"
    assert word_diff(
        "Most rules are at <www.example.com/a>.", "Some rules are at www.example.com/a."
    ) == (
        ("-", "Most"),
        ("+", "Some"),
        ("=", " rules are at www.example.com/a."),
    )
    # So are a placeholder's angle brackets against square ones (1999-04-23, 1999-11-01).
    placeholder = {
        1: 'It is written "Guard from <quality>."',
        2: 'It is written "Guard from [quality]."',
    }
    assert status("502.7a", 1, "502.7a", 2, lambda ids: placeholder) == "typography"
    assert word_diff("Whenever <name> blocks, tap it.", "Whenever [name] blocks, untap it.") == (
        ("=", "Whenever [name] blocks, "),
        ("-", "tap"),
        ("+", "untap"),
        ("=", " it."),
    )


def test_white_space_is_no_change_at_all() -> None:
    """A line break where a space was, or two spaces for one, is the same text: "same",
    not even typography (the glossary's "Untap" of 2002-10-07, its two senses on two
    lines)."""
    spaced = {1: "1. To lift a piece. See also Drop. 2. The lifting step.",
              2: "1. To lift a piece. See also Drop.\n2. The lifting  step."}  # fmt: skip
    assert status("Lift", 1, "Lift", 2, lambda ids: spaced) == "same"
    assert status("Lift", 1, "Raise", 2, lambda ids: spaced) == "moved"
    cited = {1: "See rule 724.2 for boards.", 2: "See rule  725.2\nfor boards."}
    assert status("724.6", 1, "724.6", 2, lambda ids: cited, {"724.2": "725.2"}) == "same"


def test_cross_references_renumbered_with_the_rule_are_a_move() -> None:
    texts = {1: "See rule 724.2 for boards.", 2: "See rule 725.2 for boards."}
    assert status("724.6", 1, "725.6", 2, lambda ids: texts) == "moved"
    assert status("724.6", 1, "724.6", 2, lambda ids: texts) == "changed"


def test_cross_references_that_follow_the_renumbering_are_no_change() -> None:
    texts = {
        1: "A keeper's move; see rule 724.2 and rule 101.",
        2: "A keeper's move; see rule 725.2 and rule 101.",  # 724.2 is 725.2 now
        3: "A keeper's move; see rule 726.2 and rule 101.",  # pointed elsewhere
        4: "A keeper’s move; see rule 725.2 and rule 101.",  # and a curly apostrophe
        5: "A keeper's turn; see rule 725.2 and rule 101.",  # and other words
    }
    renumbered = {"724.2": "725.2", "101": "101"}

    def said(old_key: str, new_key: str, new: int) -> str:
        return status(old_key, 1, new_key, new, lambda ids: texts, renumbered)

    assert said("Keeper", "Keeper", 2) == "same"
    assert said("724.6", "725.6", 2) == "moved"
    assert said("Keeper", "Keeper", 4) == "typography"
    assert said("Keeper", "Keeper", 3) == "changed"
    assert said("724.6", "725.6", 3) == "moved_changed"
    assert said("Keeper", "Keeper", 5) == "changed"
    # A range cited follows the renumbering at both ends ("601.2e-g" is "601.2f-h" when a
    # subrule was put in before 601.2e), written short or long as the edition does.
    ranges = {
        1: "Pay as in rules 601.2e–g and 702.19b-c.",
        2: "Pay as in rules 601.2f–h and 702.20b-c.",
        3: "Pay as in rules 601.2f–g and 702.20b-c.",  # the range's end not moved with it
    }
    shifted = {"601.2e": "601.2f", "601.2g": "601.2h", "702.19b": "702.20b", "702.19c": "702.20c"}
    assert status("117.2", 1, "117.2", 2, lambda ids: ranges, shifted) == "same"
    assert status("117.2", 1, "117.2", 3, lambda ids: ranges, shifted) == "changed"
    # A range whose members were reordered under one rule is the run they make there
    # (301.8 of 2009-10-01: "Rules 301.7a-d" is "301.5a-d" of 2010-02-01, where 301.7a-d
    # went to 301.5b, c, a and d); one whose members went apart is not.
    reordered = {
        1: "Rules 301.7a-d apply to keepers too.",
        2: "Rules 301.5a-d apply to keepers too.",
        3: "Rules 301.5b-d apply to keepers too.",
        4: "Rules 301.5a-e apply to keepers too.",
    }
    went = {"301.7a": "301.5b", "301.7b": "301.5c", "301.7c": "301.5a", "301.7d": "301.5d"}
    apart = went | {"301.7c": "302.1"}

    def range_said(new: int, renumbered: dict[str, str]) -> str:
        return status("301.8", 1, "301.6", new, lambda ids: reordered, renumbered)

    assert range_said(2, went) == "moved"
    assert range_said(3, went) == "moved_changed"
    assert range_said(4, went) == "moved_changed"  # a member more
    assert range_said(2, apart) == "moved_changed"  # 301.7c went elsewhere: the ends count
    # An example whose citations follow the renumbering is no change either.
    assert same_examples(["Example: see 724.2."], ["Example: see 725.2."])
    assert same_examples(["A keeper's move."], ["A keeper’s move."])
    assert not same_examples(["A keeper's move."], ["A keeper's turn."])
    assert not same_examples(["A keeper's move."], ["A keeper's move.", "Another."])


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        # A glossary entry renamed points at its rule under the new name.
        ('A game. See rule 901, "Keepers."', 'A game. See rule 901, "Arenas."', "moved"),
        ("A game. See rule 901, “Keepers.”", "A game. See rule 901, “Arenas.”", "moved"),
        # From an appendix to a rule, and to two rules.
        ('Old term. See Appendix B, "Older Rules."', 'Old term. See rule 502.15, "Keeper."',
         "moved"),
        ("Skip it. See rule 419.6e and rule 419.6f.", "Skip it. See rule 613.10.", "moved"),
        # What follows the pointer is wording: it still counts.
        ('See rule 504, "Keepers," to play them.', 'See rule 707, "Keepers," to cast them.',
         "moved_changed"),
        ('A board game. See rule 901, "Keepers."', 'A card game. See rule 901, "Arenas."',
         "moved_changed"),
    ],
)  # fmt: skip
def test_a_closing_pointer_that_follows_a_rename_is_a_move(
    old: str, new: str, expected: str
) -> None:
    texts = {1: old, 2: new}
    assert status("Keeper", 1, "Arena", 2, lambda ids: texts) == expected
    assert status("Keeper", 1, "Keeper", 2, lambda ids: texts) == "changed"


def test_a_closing_pointer_is_no_change_only_where_it_follows_every_rule_it_cited() -> None:
    """Like 400.9a of 2009-07-11, whose "See rules 100.2 and 100.3." became "See rule
    100.4." as 100.3 became 100.4: 100.2, which kept its number, is no longer cited, so
    the rule moved and changed. A rule cited that went into another (merged, or under a
    new rule that holds it) is followed where the new text cites that one."""
    texts = {
        1: "Cards set aside are out of the match. See rules 100.2 and 100.3.",
        2: "Cards set aside are out of the match. See rule 100.4.",
        3: "Cards set aside are out of the match. See rules 100.2 and 100.4.",
        4: "A trigger fires once per event. See also rule 410.9.",
        5: "A trigger fires once per event. See also rule 509.4.",
        6: "Skip it as though it were not there. See rule 419.6e and rule 419.6f.",
        7: "Skip it as though it were not there. See rule 613.10.",
    }
    renumbered = {"100.2": "100.2", "100.3": "100.4", "419.6e": "613.10", "419.6f": "613.10a"}
    went = {
        "100.3": frozenset({"100.4"}),
        "410.9": frozenset({"509.4"}),  # merged into 509.4
        "419.6e": frozenset({"613.10"}),
        "419.6f": frozenset({"613.10a"}),
    }

    def said(old: int, new: int) -> str:
        return status("400.9a", old, "400.10a", new, lambda ids: texts, renumbered, went)

    assert said(1, 2) == "moved_changed"
    assert said(1, 3) == "moved"
    assert said(4, 5) == "moved"
    assert said(6, 7) == "moved"


def test_a_rule_cited_that_no_longer_stands_is_followed_where_its_rules_went() -> None:
    """Like 503.3 of 2009-05-01, "... as modified by the copy's status (see rule 510)",
    which is 706.3 of 2009-07-11 citing 110.6: section 510 went into 110 and its rule
    510.1 became 110.6, so the citation follows the renumbering and the rule moved. Only
    for a rule cited that no longer stands as a rule of its own: citing a subrule of
    where a cited rule went, or a rule that did not come from under it, is a change."""
    texts = {
        1: "A copy's values are as its status has them (see rule 510). Copies use them.",
        2: "A copy's values are as its status has them (see rule 110.6). Copies use them.",
        3: "A copy's values are as its status has them (see rule 110.7). Copies use them.",
        4: "A copy's values are as its status has them (see rule 613.3). Copies use them.",
        5: "A copy's values are as its status has them (see rule 613.4c). Copies use them.",
    }
    renumbered = {"510.1": "110.6", "510.2": "110.6", "613.3": "613.4", "613.3c": "613.4c"}
    went = {
        "510": frozenset({"110"}),  # merged into 110
        "510.1": frozenset({"110.6"}),
        "510.2": frozenset({"110.6"}),
        "613.3": frozenset({"613.4"}),
        "613.3c": frozenset({"613.4c"}),
    }

    def said(old: int, new: int) -> str:
        return status("503.3", old, "706.3", new, lambda ids: texts, renumbered, went)

    assert said(1, 2) == "moved"
    assert said(1, 3) == "moved_changed"  # 110.7 holds none of 510's rules
    assert said(4, 5) == "moved_changed"  # 613.3 stands, as 613.4: citing 613.4c narrows it


def test_a_rule_cited_is_followed_to_the_rules_it_went_on_in() -> None:
    """Like 418.5c of 2009-05-01, "... in the same layer ... as the other effect (see rule
    418.5a)", which is 612.7a of 2009-07-11, "(see rules 612.1 and 612.3)": 418.5a went on
    as 612.1 and 612.3 was split off it, so the citation follows it and the rule moved.
    Not where the list names a rule the cited one did not go on in, or only a subrule of
    one (as for a single citation), nor where more than the citation was reworded."""
    texts = {
        1: "A power leans on another if it acts in the same tier (see rule 418.5a).",
        2: "A power leans on another if it acts in the same tier (see rules 612.1 and 612.3).",
        3: "A power leans on another if it acts in the same tier (see rules 612.1 and 612.4).",
        4: "A power leans on another when it acts in the same tier (see rules 612.1 and 612.3).",
        5: "A power leans on another if it acts in the same tier (see rules 612.1 and 612.3a).",
    }
    renumbered = {"418.5a": "612.1"}
    went = {"418.5a": frozenset({"612.1", "612.3"})}

    def said(old: int, new: int) -> str:
        return status("418.5c", old, "612.7a", new, lambda ids: texts, renumbered, went)

    assert said(1, 2) == "moved"
    assert said(1, 3) == "moved_changed"  # 612.4 holds nothing of 418.5a
    assert said(1, 4) == "moved_changed"  # "if" became "when"
    assert said(1, 5) == "moved_changed"  # a subrule of where it went narrows it


def test_a_stop_moved_outside_a_closing_quote_is_no_change() -> None:
    """Like 400.10 of 2009-07-11, '(such as "Shuffle your hand into your library.")',
    which is 400.11 of 2009-09-04, '(such as "Shuffle your hand into your library").':
    where a full stop stands against a closing quotation mark or parenthesis is
    typography, so the rule moved; a stop dropped is a change of wording."""
    texts = {
        1: 'Some effects act on a zone (such as "Shuffle your hand into your deck.") The'
        " zone itself is not affected.",
        2: 'Some effects act on a zone (such as "Shuffle your hand into your deck"). The'
        " zone itself is not affected.",
        3: 'Some effects act on a zone (such as "Shuffle your hand into your deck") The'
        " zone itself is not affected.",
    }
    assert status("400.10", 1, "400.11", 2, lambda ids: texts) == "moved"
    assert status("400.10", 1, "400.10", 2, lambda ids: texts) == "typography"
    assert status("400.10", 1, "400.11", 3, lambda ids: texts) == "moved_changed"
    assert word_diff(texts[1], texts[2]) == (("=", texts[2]),)


def test_a_label_of_the_rules_own_letter_relettered_with_it_is_no_change() -> None:
    """Like 613.3e of 2020-01-24, "Layer 7e: Effects that switch ...", which is 613.4d of
    2020-04-17, "Layer 7d: ...": the sublayer's label is the rule's own letter printed
    again, and relettered with the rule it is no change of wording, as a citation
    renumbered is not. Only where the label is the rule's own letter on both sides:
    another letter, another number, or a label changed in a rule that kept its number is
    a change."""
    texts = {
        1: "Sublayer 4e: Effects that swap a widget's height and width apply.",
        2: "Sublayer 4d: Effects that swap a widget's height and width apply.",
        3: "Sublayer 4c: Effects that swap a widget's height and width apply.",
        4: "Sublayer 5d: Effects that swap a widget's height and width apply.",
        5: "Sublayer 4d: Effects that swap a widget's height and depth apply.",
    }

    def said(old_key: str, old: int, new_key: str, new: int) -> str:
        return status(old_key, old, new_key, new, lambda ids: texts, {"613.3e": "613.4d"})

    assert said("613.3e", 1, "613.4d", 2) == "moved"
    assert said("613.3e", 1, "613.4d", 3) == "moved_changed"  # another letter than its own
    assert said("613.3e", 1, "613.4d", 4) == "moved_changed"  # another sublayer's number
    assert said("613.3e", 1, "613.4d", 5) == "moved_changed"  # and a word changed
    assert said("613.3e", 1, "613.3e", 2) == "changed"  # its number kept, its label not


NOT_CITATIONS = (
    "a price of 702.17 dollars",
    "it costs about 702.17",
    "$702.17",
    "version 702.17 of the app",
    "v702.17",
    "we scored 702.17 points",
    "702.17 % of the vote",
)
CITATIONS = ("see 702.17", "702.17 says so", "CR 702.17", "rule 702.17 dollars")


@pytest.mark.parametrize("text", NOT_CITATIONS + CITATIONS)
def test_a_bare_number_is_a_citation_only_where_it_reads_as_one(text: str) -> None:
    from rules_kb.read.cite import find

    cited = [item.number for item in find(text)]
    assert cited == ([] if text in NOT_CITATIONS else ["702.17"])


def test_a_kept_number_does_not_outweigh_the_rule_whose_sentences_moved_on() -> None:
    twin = (
        "If a keeper wants to name a twin piece, the keeper must name one of its halves,"
        " but not both."
    )
    flip = "If a keeper wants to name a flipped piece's other name, the keeper may do so."
    told = "If a keeper is told to name a piece with certain traits,"
    old: list[Row] = [
        ("301.3", "rule", "301", "Naming pieces."),
        ("301.3a", "subrule", "301.3", twin),
        ("301.3b", "subrule", "301.3", flip),
    ]
    new: list[Row] = [
        ("301.3", "rule", "301", "Naming pieces."),
        # A new rule takes the number 301.3a, with many of the old one's words.
        ("301.3a", "subrule", "301.3", f"{told} the keeper must name a piece whose text has "
         "those traits, one of its halves."),
        ("301.3b", "subrule", "301.3", f"{twin} {told} use only the traits of that half to "
         "decide whether its name can be named."),
        ("301.3c", "subrule", "301.3", f"{flip} {told} use the other traits to decide whether "
         "it can be named."),
    ]  # fmt: skip
    alignment, mapping = aligned(old, new)
    assert mapping["301.3a"] == "301.3b"
    assert mapping["301.3b"] == "301.3c"
    assert [new[j][0] for j in alignment.added] == ["301.3a"]


def test_a_heading_goes_where_its_subrules_go() -> None:
    """A renamed heading whose words share nothing with its new name continues where its
    subrules went; a heading paired by its title alone gives way to the one whose
    subrules went there, and goes where its own went; a heading whose subrules went into
    a rule that continues another was merged into it."""
    old: list[Row] = [
        ("2", "section", None, "Pieces"),
        ("208", "chapter", "2", "Ancestral Pieces"),
        ("208.1", "rule", "208", "Each contestant brings exactly sixty pieces to the match."),
        ("208.2", "rule", "208", "A set of pieces may hold one copy of each piece at most."),
        ("213", "chapter", "2", "Move Kind"),
        ("213.1", "rule", "213", "Every piece that is not a base is a move while played."),
        ("213.2", "rule", "213", "A move's kind is the same as the kind of its piece."),
        ("214", "chapter", "2", "Markers"),
        ("214.1", "rule", "214", "A marker is a token that stands in for a piece."),
        ("214.2", "rule", "214", "A marker that leaves the table ceases to exist."),
        ("215", "chapter", "2", "Marker Kinds"),
        ("215.1", "rule", "215", "Some effects make markers of a named kind with set traits."),
        ("215.2", "rule", "215", "A marker of a named kind keeps its traits while it stays."),
        ("4", "section", None, "Turns"),
        ("401", "chapter", "4", "Moves"),
        ("401.1", "rule", "401", "A piece on the pile is a move until it is carried out."),
        ("401.2", "rule", "401", "A carried-out move goes to its owner's discard tray."),
    ]
    new: list[Row] = [
        ("2", "section", None, "Pieces"),
        ("208", "chapter", "2", "Heritage Sets"),
        ("208.1", "rule", "208", "Each contestant brings exactly sixty pieces to the match."),
        ("208.2", "rule", "208", "A set of pieces may hold one copy of each piece at most."),
        ("213", "chapter", "2", "Moves"),
        ("213.1", "rule", "213", "Every piece that is not a base is a move while played."),
        ("213.2", "rule", "213", "A move's kind is the same as the kind of its piece."),
        ("214", "chapter", "2", "Marker Kinds"),
        ("214.1", "rule", "214", "A marker is a token that stands in for a piece."),
        ("214.2", "rule", "214", "A marker that leaves the table ceases to exist."),
        ("214.3", "rule", "214", "Some effects make markers of a named kind with set traits."),
        ("214.4", "rule", "214", "A marker of a named kind keeps its traits while it stays."),
        ("4", "section", None, "Turns"),
        ("401", "chapter", "4", "Moves on the Pile"),
        ("401.1", "rule", "401", "A piece on the pile is a move until it is carried out."),
        ("401.2", "rule", "401", "A carried-out move goes to its owner's discard tray."),
    ]
    alignment, mapping = aligned(old, new)
    assert mapping["208"] == "208"  # renamed: its subrules say so
    # "Moves" 401 is not "Moves" 213: the subrules of "Move Kind" went there, its own to 401
    assert mapping["213"] == "213" and mapping["401"] == "401"
    # both kinds of marker went into 214, which continues the heading of the same title
    assert mapping["215"] == "214" and keys(alignment, old, new, "merged") == {("214", "214")}
    assert not alignment.added and not alignment.removed


def test_a_heading_paired_by_its_title_alone_follows_its_rules_where_they_left_it() -> None:
    """Like "Copying Spells and Abilities" 503 of 2003-03-15, which is "Copying Objects"
    503 (its eleven rules went there), not "Targeted Spells and Abilities" 415; and
    "General" 300 of 2009-05-01, over the turn's rules, which is "General" 500 when the
    chapter moved, not the "General" 300 that heads another chapter since."""
    old: list[Row] = [
        ("3", "section", None, "Rounds"),
        ("300", "chapter", "3", "General"),
        ("300.1", "rule", "300", "A round has four parts, always in the same order."),
        ("300.2", "rule", "300", "A part ends once every contestant passes in a row."),
        ("300.3", "rule", "300", "Unspent points are lost as a part ends."),
        ("5", "section", None, "More Rules"),
        ("503", "chapter", "5", "Copying Moves and Their Powers"),
        ("503.1", "rule", "503", "Some moves make a copy of a move or of a piece."),
        ("503.2", "rule", "503", "A copy takes the printed traits of what it copies."),
        ("503.3", "rule", "503", "A copy of a copy takes the traits the first copy took."),
        ("503.4", "rule", "503", "A copy of a move is put on the pile and is not played."),
    ]
    new: list[Row] = [
        ("3", "section", None, "Piece Kinds"),
        ("300", "chapter", "3", "General"),
        ("300.1", "rule", "300", "The piece kinds are base, marker and move."),
        ("4", "section", None, "More Rules"),
        ("415", "chapter", "4", "Targeted Moves and Their Powers"),
        ("415.1", "rule", "415", "A move is targeted when it names a target to choose."),
        ("5", "section", None, "Rounds"),
        ("500", "chapter", "5", "General"),
        ("500.1", "rule", "500", "A round has four parts, always in the same order."),
        ("500.2", "rule", "500", "A part ends once every contestant passes in a row."),
        ("500.3", "rule", "500", "Unspent points are lost as a part ends."),
        ("503", "chapter", "5", "Copying Things"),
        ("503.1", "rule", "503", "Some things make a copy of a move or of a piece."),
        ("503.2", "rule", "503", "A copy takes the copiable traits of what it copies."),
        ("503.3", "rule", "503", "A copy of a copy takes the traits the first copy took."),
        ("503.4", "rule", "503", "A copy of a move is put on the pile; it is not played."),
    ]
    alignment, mapping = aligned(old, new)
    assert mapping["503"] == "503" and mapping["300"] == "500"
    added = {new[j][0] for j in alignment.added}
    assert {"300", "415"} <= added and "500" not in added
    # A heading whose rules stayed under it keeps its counterpart: "Rounds" 3 is 5.
    assert mapping["300.1"] == "500.1" and mapping["503.2"] == "503.2"


def test_a_heading_follows_its_rules_that_went_deeper_under_one_new_heading() -> None:
    """Like "Ending the Turn" 716 of 2019-07-12, renamed "Ending Turns and Phases", whose
    716.2 and 716.3 became 716.1f and 716.1e under the 716.1 that stayed: the chapter's
    rules stand under different rules now, but all in one new chapter, so it is that
    chapter renamed; and like "Targeted Spells and Abilities" 415 of 2009-05-01, whose
    rules went into "Targets" 113 as rules and subrules: one chapter moved, not one
    removed and one added."""
    old: list[Row] = [
        ("4", "section", None, "Moves"),
        ("415", "chapter", "4", "Aimed Moves and Powers"),
        ("415.1", "rule", "415", "A move is aimed when its text names a mark to choose."),
        ("415.2", "rule", "415", "A power is aimed when its text names a mark to choose."),
        ("415.3", "rule", "415", "Only pieces on the table can be marks unless a move says so."),
        ("7", "section", None, "Extra Rules"),
        ("716", "chapter", "7", "Ending the Round"),
        ("716.1", "rule", "716", "Some moves end the round. When one does, do as below."),
        ("716.1a", "subrule", "716.1", "Put every move on the pile into the discard tray."),
        ("716.1b", "subrule", "716.1", "The current part ends and the last part begins."),
        ("716.2", "rule", "716", "No contestant may act while the round is being ended."),
        ("716.3", "rule", "716", "Powers waiting for the last part do not wake this round."),
    ]
    new: list[Row] = [
        ("1", "section", None, "Match Concepts"),
        ("113", "chapter", "1", "Marks"),
        ("113.1", "rule", "113", "Some moves and powers need marks chosen for them."),
        ("113.1a", "subrule", "113.1", "A move is aimed when its text names a mark to choose."),
        ("113.1b", "subrule", "113.1", "A power is aimed when its text names a mark to choose."),
        ("113.2", "rule", "113", "Only pieces on the table can be marks unless a move says so."),
        ("4", "section", None, "Moves"),
        ("7", "section", None, "Extra Rules"),
        ("716", "chapter", "7", "Ending Rounds and Parts"),
        ("716.1", "rule", "716", "Some moves end the round. When one does, do as below."),
        ("716.1a", "subrule", "716.1", "Put every move on the pile into the discard tray."),
        ("716.1b", "subrule", "716.1", "The current part ends and the last part begins."),
        ("716.1c", "subrule", "716.1", "Powers waiting for the last part do not wake this round."),
        ("716.1d", "subrule", "716.1", "No contestant may act while the round is being ended."),
        ("716.2", "rule", "716", "One move ends a part. When it does, do as below."),
    ]
    alignment, mapping = aligned(old, new)
    assert mapping["716.2"] == "716.1d" and mapping["716.3"] == "716.1c"
    assert mapping["716"] == "716"
    assert mapping["415.1"] == "113.1a" and mapping["415"] == "113"
    added = {new[j][0] for j in alignment.added}
    assert "716" not in added and "113" not in added


def test_rules_left_over_that_are_each_others_nearest_of_all_are_one_rule() -> None:
    """Like the local-enchantment rule 214.8h of 2003-03-15, rewritten as 415.3 among the
    targeting rules: too unlike for the fuzzy pass, but each is the other's most like
    rule of both editions by a margin, so one rule moved and changed. A removal and an
    addition as alike, where the addition is much more like a rule printed again as it
    was, stay a removal and an addition."""
    spoken = (
        "If a fused piece would leave the table, it and the card that isn't a leader go "
        "to the right zone, and the other card goes to the throne."
    )
    old: list[Row] = [
        ("2", "section", None, "Pieces"),
        ("214", "chapter", "2", "Charms"),
        ("214.8", "rule", "214", "Charms are pieces that stay on the table."),
        ("214.8h", "subrule", "214.8", "A charm's powers don't aim at the piece it charms "
         "unless they say they can. Only the charm move aims at the piece it will charm; the "
         "charm on the table doesn't go on aiming at that piece once the move resolves."),
        ("4", "section", None, "Moves"),
        ("415", "chapter", "4", "Aiming"),
        ("415.1", "rule", "415", "A move aims when its text names a mark to choose."),
        ("9", "section", None, "Variants"),
        ("903", "chapter", "9", "Leaders"),
        ("903.9", "rule", "903", spoken),
        ("903.10", "rule", "903", "If a piece is put into the vault face down, and a "
         "contestant may look at it there, that contestant looks at it at once. If it's a "
         "leader of another contestant, it goes to the throne."),
    ]  # fmt: skip
    new: list[Row] = [
        ("2", "section", None, "Pieces"),
        ("214", "chapter", "2", "Charms"),
        ("214.8", "rule", "214", "Charms are pieces that stay on the table."),
        ("4", "section", None, "Moves"),
        ("415", "chapter", "4", "Aiming"),
        ("415.1", "rule", "415", "A move aims when its text names a mark to choose."),
        ("415.3", "rule", "415", "Charm moves always aim, even though they don't use the "
         "words 'aim at'. They aim at the piece or contestant they will charm. A charm on the "
         "table aims at nothing; only the move aims. A power of a charm on the table can aim."),
        ("9", "section", None, "Variants"),
        ("903", "chapter", "9", "Leaders"),
        ("903.9", "rule", "903", spoken),
        ("903.9a", "subrule", "903.9", "If a leader is a fused piece and its owner puts it "
         "into the throne this way, the fused piece and the card that isn't a leader go to "
         "the right zone, and the leader card goes to the throne."),
    ]  # fmt: skip
    alignment, mapping = aligned(old, new)
    assert mapping["214.8h"] == "415.3"
    assert "903.10" not in mapping and not alignment.merged and not alignment.split
    assert [new[j][0] for j in alignment.added] == ["903.9a"]


QUICK_OLD: list[Row] = [
    ("4", "section", None, "Moves"),
    ("406", "chapter", "4", "Quick Abilities"),
    ("406.1", "rule", "406", "A quick ability is either (a) an activated ability without a "
     "target that could put points into a contestant's pool when it resolves or (b) a "
     "triggered ability without a target that triggers from a quick ability and could put "
     "more points into a contestant's pool. A quick ability can do other things at the "
     "same time it puts points into a pool."),
    ("406.2", "rule", "406", "A quick ability doesn't use the pile; it resolves at once, "
     "and no contestant can answer it."),
    ("6", "section", None, "Abilities"),
    ("601", "chapter", "6", "Spoken Abilities"),
    ("601.1", "rule", "601", "A spoken ability is said aloud by the contestant who owns it."),
]  # fmt: skip
QUICK_NEW: list[Row] = [
    ("4", "section", None, "Moves"),
    ("6", "section", None, "Abilities"),
    ("601", "chapter", "6", "Spoken Abilities"),
    ("601.1", "rule", "601", "A spoken ability is said aloud by the contestant who owns it."),
    ("605", "chapter", "6", "Quick Abilities"),
    ("605.1", "rule", "605", "Some activated abilities and some triggered abilities are "
     "quick abilities, which follow special rules. Only abilities meeting one of the two "
     "sets of criteria below are quick abilities, whatever other things they do."),
    ("605.1a", "subrule", "605.1", "An activated ability without a target that could put "
     "points into a contestant's pool when it resolves is a quick ability."),
    ("605.1b", "subrule", "605.1", "A triggered ability without a target that triggers "
     "from a quick ability and could put more points into a contestant's pool is a quick "
     "ability."),
    ("605.2", "rule", "605", "A quick ability doesn't use the pile; it resolves at once, "
     "and no contestant can answer it."),
]  # fmt: skip


def test_a_new_rule_over_the_parts_of_one_old_rule_was_split_from_it() -> None:
    """Like 605.1 of 2009-07-11 over 605.1a-b, the two halves of 406.1: a new rule whose
    subrules came of one old rule introduces it. The line stays where it went."""
    alignment, mapping = aligned(QUICK_OLD, QUICK_NEW)
    halves = {"605.1a", "605.1b"}
    assert mapping["406.1"] in halves
    (other,) = halves - {mapping["406.1"]}
    assert keys(alignment, QUICK_OLD, QUICK_NEW, "split") == {
        ("406.1", other),
        ("406.1", "605.1"),
    }
    assert "605.1" not in {QUICK_NEW[j][0] for j in alignment.added}


def test_a_new_rule_over_parts_of_two_old_rules_or_a_title_was_split_from_neither() -> None:
    # Its subrules came of two old rules: it introduces neither.
    two = [*QUICK_NEW[:8], ("605.1c", "subrule", "605.1", QUICK_OLD[3][3]), QUICK_NEW[8]]
    two[-1] = ("605.2", "rule", "605", "A quick ability resolves at once.")
    alignment, _ = aligned(QUICK_OLD, two)
    assert ("406.1", "605.1") not in keys(alignment, QUICK_OLD, two, "split")
    # A title over them names what follows; it was not split from anything.
    titled = [*QUICK_NEW[:5], ("605.1", "rule", "605", "Quick Ability Criteria"), *QUICK_NEW[6:]]
    alignment, _ = aligned(QUICK_OLD, titled)
    assert ("406.1", "605.1") not in keys(alignment, QUICK_OLD, titled, "split")


PUSH_OLD: list[Row] = [
    ("3", "section", None, "Pushing"),
    ("310", "chapter", "3", "Push Step"),
    ("310.1", "rule", "310", "Each piece in the fight pushes as its owner says."),
    ("310.2", "rule", "310", "A blocked piece pushes, spread as its owner chooses, only the "
     "pieces blocking it. If no pieces are currently blocking it (if, for example, they "
     "were lifted off the board or sent home), it will push nothing at all."),
]  # fmt: skip
PUSH_NEW: list[Row] = [
    ("5", "section", None, "Turn Order"),
    ("510", "chapter", "5", "Push Step"),
    ("510.1", "rule", "510", "Each piece in the fight pushes as its owner says."),
    ("510.1c", "subrule", "510.1", "A blocked piece pushes the pieces blocking it. If no "
     "pieces are currently blocking it (if, for example, they were lifted off the board or "
     "sent home), it pushes nothing at all. If just one piece blocks it, it pushes that "
     "piece with all its weight. If two or more pieces block it, it pushes them in the "
     "order its owner named when they blocked, each as far as the board allows."),
]  # fmt: skip


def test_a_rule_rewritten_around_a_sentence_it_carries_went_on_in_it() -> None:
    """Like 310.2c of 2009-05-01, which went on as 510.1c: the whole texts are too unlike
    to pair, but one new rule carries a long sentence of the old one almost word for word,
    and no other rule does."""
    _, mapping = aligned(PUSH_OLD, PUSH_NEW)
    assert mapping["310.2"] == "510.1c"


def test_a_sentence_two_rules_carry_says_nothing_of_where_a_rule_went() -> None:
    # The pass alone, on what other passes left over: a sentence carried by two new rules
    # (or held by two old ones) pairs nothing.
    guard = ("510.1d", "subrule", "510.1", "A guard piece pushes no one. If no pieces are "
             "currently blocking it (if, for example, they were lifted off the board or "
             "sent home), it pushes nothing at all.")  # fmt: skip
    rows = [PUSH_OLD[3], PUSH_NEW[3], guard]
    texts = {number: text for number, (_, _, _, text) in enumerate(rows)}
    old = [Item("310.2", "rule", "310", 0)]

    def carried(new: list[Item]) -> dict[int, int]:
        pairs: dict[int, int] = {}
        left = Left([0], list(range(len(new))))
        carried_sentences(
            old, new, pairs, left, Normalised(texts), titles=set(), split={}, merged={}
        )
        return pairs

    once = [Item("510.1c", "subrule", "510.1", 1)]
    assert carried(once) == {0: 0}
    assert carried([*once, Item("510.1d", "subrule", "510.1", 2)]) == {}


# A made-up raid: naming raiders and defenders, each with a step putting what fired on
# the pile, rewritten so that each step is now a subrule of the turn-passing step.
RAID_OLD: list[Row] = [
    ("5", "section", None, "Raids"),
    ("508", "chapter", "5", "Name Raiders Step"),
    ("508.1", "rule", "508", "First, the leading contestant names which pieces raid."),
    ("508.2", "rule", "508", "Second, any effects that fired on raiders being named go on "
     "the pile. (See rule 603, \"Handling Fired Effects.\")"),
    ("508.3", "rule", "508", "Third, the leading contestant gets the turn token. "
     "Contestants may play cards."),
    ("509", "chapter", "5", "Name Defenders Step"),
    ("509.1", "rule", "509", "First, the other contestant names which pieces defend."),
    ("509.2", "rule", "509", "Second, any effects that fired on defenders being named go on "
     "the pile. (See rule 603, \"Handling Fired Effects.\")"),
    ("509.3", "rule", "509", "Third, the leading contestant gets the turn token. "
     "Contestants may play cards."),
]  # fmt: skip


def _raid_new(raiders: str, defenders: str) -> list[Row]:
    def fired(who: str, number: str) -> str:
        return (
            f"Any effects that fired on {who} being named or that fired during the naming "
            f"described in rule {number} are put on the pile before the leading contestant "
            "gets the turn token; the order in which they fired is of no account. (See rule "
            '603, "Handling Fired Effects.")'
        )

    return [
        ("5", "section", None, "Raids"),
        ("508", "chapter", "5", "Name Raiders Step"),
        ("508.1", "rule", "508", "First, the leading contestant names which pieces raid."),
        ("508.2", "rule", "508", "Second, the leading contestant gets the turn token."),
        ("508.2a", "subrule", "508.2", fired(raiders, "508.1")),
        ("509", "chapter", "5", "Name Defenders Step"),
        ("509.1", "rule", "509", "First, the other contestant names which pieces defend."),
        ("509.2", "rule", "509", "Second, the leading contestant gets the turn token."),
        ("509.2a", "subrule", "509.2", fired(defenders, "509.1")),
    ]


def test_a_rule_rewritten_beside_its_parallel_goes_on_in_the_one_holding_all_it_held() -> None:
    """Like 508.2 of 2016-08-26 ("Second, any abilities that triggered on attackers being
    declared go on the stack."), which is 508.2b of 2016-09-30: the rewrite holds all its
    words but two, its parallel for blockers (509.4a) all but those and the one naming
    its case, so neither leads by a margin; the one holding every word the other holds,
    and more, is where it went. Where neither holds all the other does, neither is."""
    new = _raid_new("raiders", "defenders")
    _, mapping = aligned(RAID_OLD, new)
    assert mapping.get("508.2") == "508.2a"
    assert mapping.get("509.2") == "509.2a"
    # Each rewrite speaks of both cases, one in its own words: neither holds all.
    crossed = _raid_new("raiders or defenders", "defenders or raiders")
    _, mapping = aligned(RAID_OLD, crossed)
    assert "508.2" not in mapping or mapping["508.2"] not in {"508.2a", "509.2a"}


# A made-up chapter on lasting effects: two titled groups whose subrules went, in a
# rewrite, under two new rules saying apart the two halves of the chapter's first rule.
LASTING_OLD: list[Row] = [
    ("418", "chapter", "4", "Lasting Effects"),
    ("418.1", "rule", "418", "A lasting effect changes pieces or the match for a stated or "
     "open time. A lasting effect may come from a resolved card or from the standing trait "
     "of a piece."),
    ("418.3", "rule", "418", "Effects of Cards"),
    ("418.3a", "subrule", "418.3", "A lasting effect from a resolved card lasts as long as the "
     "card says; if it says nothing, until the match ends."),
    ("418.3b", "subrule", "418.3", "The pieces such an effect changes are fixed when it "
     "starts, and no piece joins them later."),
    ("418.4", "rule", "418", "Effects of Traits"),
    ("418.4a", "subrule", "418.4", "A lasting effect from a standing trait is never fixed; it "
     "changes at each moment whatever its words name."),
    ("418.4b", "subrule", "418.4", "It lasts while the piece with the trait stays on the "
     "board."),
]  # fmt: skip
LASTING_NEW: list[Row] = [
    ("610", "chapter", "6", "Lasting Effects"),
    ("610.1", "rule", "610", "A lasting effect changes pieces or the match for a stated or "
     "open time."),
    ("610.2", "rule", "610", "A lasting effect may come from a resolved card."),
    ("610.2a", "subrule", "610.2", LASTING_OLD[3][3]),
    ("610.2b", "subrule", "610.2", LASTING_OLD[4][3]),
    ("610.3", "rule", "610", "A lasting effect may come from the standing trait of a piece."),
    ("610.3a", "subrule", "610.3", LASTING_OLD[6][3]),
    ("610.3b", "subrule", "610.3", LASTING_OLD[7][3]),
]  # fmt: skip


def test_a_title_whose_rules_went_under_a_rule_split_off_another_went_into_it() -> None:
    """Like 418.3 and 418.4 of 2009-05-01, the titles "Continuous Effects from Spells or
    Abilities" and "... from Static Abilities": their subrules went under 610.2 and 610.3
    of 2009-07-11, which say apart the two halves of 418.1's last sentence and were split
    off it. Each title went into the rule now heading its rules, not nowhere; the rules
    stay split off 418.1, whose line goes on in 610.1."""
    alignment, mapping = aligned(LASTING_OLD, LASTING_NEW)
    assert mapping["418.1"] == "610.1"
    assert keys(alignment, LASTING_OLD, LASTING_NEW, "split") == {
        ("418.1", "610.2"),
        ("418.1", "610.3"),
    }
    assert keys(alignment, LASTING_OLD, LASTING_NEW, "merged") == {
        ("418.3", "610.2"),
        ("418.4", "610.3"),
    }
    assert not alignment.removed
    # A rule that says something, not a title, is not taken for their heading.
    said = [*LASTING_OLD]
    said[2] = ("418.3", "rule", "418", "Some lasting effects come from cards that resolved.")
    alignment, _ = aligned(said, LASTING_NEW)
    assert ("418.3", "610.2") not in keys(alignment, said, LASTING_NEW, "merged")


def test_an_entry_renamed_goes_on_where_its_rule_went_and_its_words_are_said() -> None:
    """Like "Infinity Rule (Informal)" of 2009-05-01 ("... a set of actions could be
    repeated forever ... See rule 421"), which is "Loop" of 2009-07-11 ("A set of actions
    that could be repeated indefinitely. See rule 713."), where rule 421 went: no name
    nor likeness of the whole definitions pairs them, but the new entry cites where the
    old one's rule went and says what it said. "Shortcut" cites 713 as well and says
    another thing; an entry citing an unrelated rule is no heir."""
    old: list[Row] = [
        ("Endless Rule (Informal)", "glossary", None, "No move in this game is endless. "
         "Now and then a set of moves could be played again and again forever. The "
         "endless rule says how such loops are broken off. See rule 421, \"Endless Loops.\""),
        ("Pawn", "glossary", None, "A piece of the lowest rank. See rule 300."),
    ]  # fmt: skip
    new: list[Row] = [
        ("Loop", "glossary", None, "A set of moves that could be played again and again "
         "without end. See rule 713, \"Shortcuts.\""),
        ("Pawn", "glossary", None, "A piece of the lowest rank. See rule 300."),
        ("Shortcut", "glossary", None, "An agreed way for the match to skip ahead over many "
         "choices at once. See rule 713, \"Shortcuts.\""),
    ]  # fmt: skip
    went = {"421": frozenset({"713"})}
    _, mapping = aligned(old, new, went)
    assert mapping["Endless Rule (Informal)"] == "Loop"
    # Where 421 went elsewhere, the words alone do not make Loop its heir.
    _, mapping = aligned(old, new, {"421": frozenset({"714"})})
    assert "Endless Rule (Informal)" not in mapping


def test_a_rule_paired_with_a_short_echo_goes_on_in_the_rewrite_holding_all_it_held() -> None:
    """Like 509.4 of 2016-08-26 ("Fourth, any abilities that triggered on blockers being
    declared go on the stack."), paired on likeness with the short new 509.1i ("Any
    abilities that trigger on blockers being declared trigger. See rule 509.4 ..."): the
    rewrite 509.4a holds every word of it 509.1i holds and many more, so that is where it
    went, as its parallel for attackers did (508.2 is 508.2b)."""
    new = _raid_new("raiders", "defenders")
    echo = ("509.1a", "subrule", "509.1", "Any effects that fire on defenders being named "
            "fire. See rule 509.2 for more.")  # fmt: skip
    new.insert(new.index(("509.2", "rule", "509", new[7][3])), echo)
    _, mapping = aligned(RAID_OLD, new)
    assert mapping.get("509.2") == "509.2a"
    assert mapping.get("508.2") == "508.2a"


def test_a_sentence_said_apart_beside_its_rule_beats_a_longer_rule_elsewhere() -> None:
    """Like 400.7b of 2022-10-07: 400.7a keeps its first sentence and its number, and the
    next rule says its second sentence again in other words (64% of them). A new rule
    elsewhere, 611.3d, holds a word more of that sentence but says much else besides: the
    rule beside, nearly all of it that sentence, was split from 400.7a."""
    keeps = "Powers that change the colour or the owner of a piece in the queue keep applying."
    dropped = (
        "Powers from lasting charms that give a piece in the queue a skill that lets it enter"
        " for another price keep applying to the piece it becomes."
    )
    old: list[Row] = [
        ("400", "chapter", "4", "Areas"),
        ("400.7", "rule", "400", "A piece that moves between areas becomes a new piece."),
        ("400.7a", "subrule", "400.7", f"{keeps} {dropped}"),
        ("400.7b", "subrule", "400.7", "Shields against harm from a piece keep working on it."),
        ("611", "chapter", "6", "Lasting Charms"),
        ("611.3", "rule", "611", "A lasting charm applies to every piece it names at once."),
    ]
    new: list[Row] = [
        ("400", "chapter", "4", "Areas"),
        ("400.7", "rule", "400", "A piece that moves between areas becomes a new piece."),
        ("400.7a", "subrule", "400.7", keeps),
        ("400.7b", "subrule", "400.7", "Powers from lasting charms that grant a skill working"
         " on the table to a piece keep applying to the piece it becomes (see rule 611.3d)."),
        ("400.7c", "subrule", "400.7", "Shields against harm from a piece keep working on it."),
        ("611", "chapter", "6", "Lasting Charms"),
        ("611.3", "rule", "611", "A lasting charm applies to every piece it names at once."),
        ("611.3d", "subrule", "611.3", "Lasting charms may let a player put a piece on the"
         " table or in the queue, or may give a piece in the queue a skill that lets it enter"
         " for another price. If the charm also gives it a skill that works only on the table,"
         " that skill lasts as long as the charm says, else until the end of the game."),
    ]  # fmt: skip
    alignment, mapping = aligned(old, new)
    assert mapping["400.7a"] == "400.7a"
    assert keys(alignment, old, new, "split") == {("400.7a", "400.7b")}


def test_of_two_rules_beside_that_echo_a_dropped_sentence_the_nearer_to_it_was_split() -> None:
    """Like 603.7d of 2010-04-23, said of spells, and 603.7e, of abilities, which says
    again the sentence 603.7d dropped; 603.7f, of a case the old rule never named, holds
    as many of that sentence's words among many more: 603.7e alone was split from 603.7d."""
    owner = "Each delayed charm has one owner, who may choose its targets."
    old: list[Row] = [
        ("603", "chapter", "6", "Delayed Charms"),
        ("603.7", "rule", "603", "Some powers make delayed charms."),
        (
            "603.7d",
            "subrule",
            "603.7",
            "The source of a delayed charm made by a spell is that"
            f" spell. The source of a delayed charm made by another power is the source of that"
            f" power. {owner}",
        ),
    ]
    new: list[Row] = [
        ("603", "chapter", "6", "Delayed Charms"),
        ("603.7", "rule", "603", "Some powers make delayed charms."),
        ("603.7d", "subrule", "603.7", "If a spell makes a delayed charm, the source of that"
         f" delayed charm is that spell. {owner}"),
        ("603.7e", "subrule", "603.7", "If a power makes a delayed charm, the source of that"
         " delayed charm is the source of that other power."),
        ("603.7f", "subrule", "603.7", "If a lasting power causes a swap by which a delayed"
         " charm is made, the source of that delayed charm is the piece with that lasting"
         " power, whichever player holds it, and it stays the source until the swap ends."),
    ]  # fmt: skip
    alignment, mapping = aligned(old, new)
    assert mapping["603.7d"] == "603.7d"
    assert keys(alignment, old, new, "split") == {("603.7d", "603.7e")}


def test_a_rule_follows_its_heading_to_its_number_under_the_heading_s_new_home() -> None:
    """Like "Teams Variant" 809 of 2010-04-23: a new variant, "Team vs. Team" 808, is
    written where the variants were reordered, from the same mould, and the old heading
    becomes "Alternating Teams Variant" 811. Its title is nearer the new variant's, but its
    rules went under 811, so it went there; its 809.2, paired under 808 for standing under
    the heading, follows it to 811.2, which says it as nearly."""
    options = "Any options used are chosen before play begins. The {} variant uses these options."
    emperor = [
        ("807.1", "rule", "807", "An emperor game is played by two teams of three."),
        ("807.2", "rule", "807", "Each emperor sits between two generals of the same team."),
    ]
    melee = [
        ("808.1", "rule", "808", "A grand melee is played by ten or more players at once."),
        ("808.2", "rule", "808", "Several players take turns at the same time in a grand melee."),
    ]
    old: list[Row] = [
        ("807", "chapter", "8", "Emperor Variant"),
        *emperor,
        ("808", "chapter", "8", "Grand Melee Variant"),
        *melee,
        ("809", "chapter", "8", "Teams Variant"),
        (
            "809.1",
            "rule",
            "809",
            "The Teams variant is played by two or more teams of the same size.",
        ),
        ("809.2", "rule", "809", options.format("Teams")),
        ("809.2a", "subrule", "809.2", "The range of reach option applies with a range of one."),
        ("809.2b", "subrule", "809.2", "The attack anyone option is used."),
        ("809.3", "rule", "809", "Players sit so that no one is beside a teammate."),
        ("809.4", "rule", "809", "Each team takes its turn after the team to its left."),
    ]
    new: list[Row] = [
        ("807", "chapter", "8", "Grand Melee Variant"),
        *[(key.replace("808", "807"), kind, "807", text) for key, kind, _, text in melee],
        ("808", "chapter", "8", "Team vs. Team Variant"),
        ("808.1", "rule", "808", "Team vs. Team games are played by teams of any size."),
        ("808.2", "rule", "808", "Each team sits together on one side of the table."),
        ("808.3", "rule", "808", options.format("Team vs. Team")),
        ("808.3a", "subrule", "808.3", "Each team takes its turns in the order it chooses."),
        ("809", "chapter", "8", "Emperor Variant"),
        *[(key.replace("807", "809"), kind, "809", text) for key, kind, _, text in emperor],
        ("811", "chapter", "8", "Alternating Teams Variant"),
        ("811.1", "rule", "811", "Alternating Teams games are played by two or more teams of"
         " the same size."),
        ("811.2", "rule", "811", options.format("Alternating Teams")),
        ("811.2a", "subrule", "811.2", "The range of reach option applies with a range of one."),
        ("811.2b", "subrule", "811.2", "The attack anyone option is used."),
        ("811.3", "rule", "811", "Players sit so that no one is beside a teammate."),
        ("811.4", "rule", "811", "Each team takes its turn after the team to its left."),
    ]  # fmt: skip
    _, mapping = aligned(old, new)
    assert mapping["809"] == "811"
    assert mapping["809.2"] == "811.2"


def test_a_rule_printed_twice_goes_on_in_the_copy_keeping_its_letters() -> None:
    """Like 205.2a and 205.2b of 2009-05-01, both printed twice in 2009-07-11: under
    their heading's new number (204.2a, gaining a pointer, and 204.2b, word for word) and
    again opening the new chapter on card types (300.1 and 300.2, word for word). Each goes
    on in the copy keeping its letters, and the other copy was split from it, whether or
    not the kept copy is word for word."""
    kinds = "The piece kinds are runner, blocker and keeper."
    several = "Some pieces have more than one kind. Such pieces count as each of their kinds."
    old: list[Row] = [
        ("205", "chapter", "2", "Kind Line"),
        ("205.1", "rule", "205", "The kind line is printed below the picture."),
        ("205.2", "rule", "205", "Piece Kinds"),
        ("205.2a", "subrule", "205.2", kinds),
        ("205.2b", "subrule", "205.2", several),
        ("301", "chapter", "3", "Runners"),
        ("301.1", "rule", "301", "A runner moves two squares at a time."),
    ]
    new: list[Row] = [
        ("204", "chapter", "2", "Kind Line"),
        ("204.1", "rule", "204", "The kind line is printed below the picture."),
        ("204.2", "rule", "204", "Piece Kinds"),
        ("204.2a", "subrule", "204.2", f'{kinds} See section 3, "Piece Kinds."'),
        ("204.2b", "subrule", "204.2", several),
        ("300", "chapter", "3", "General"),
        ("300.1", "rule", "300", kinds),
        ("300.2", "rule", "300", several),
        ("301", "chapter", "3", "Runners"),
        ("301.1", "rule", "301", "A runner moves two squares at a time."),
    ]
    alignment, mapping = aligned(old, new)
    assert (mapping["205.2a"], mapping["205.2b"]) == ("204.2a", "204.2b")
    assert keys(alignment, old, new, "split") == {("205.2a", "300.1"), ("205.2b", "300.2")}


def test_a_rule_that_took_in_another_goes_on_from_the_one_it_opens_with() -> None:
    """Like 702.19m of 2009-07-11, "Multiple instances of banding on the same creature
    are redundant." (502.10i word for word) followed by the same said of bands with other
    (502.11d), when "Bands with Other" 502.11 was folded into "Banding": 702.19m goes on
    from 502.10i, whose sentence it opens with, though 502.11d, paired with it on
    likeness, holds all but one of those words; 502.11d was merged into it, and the
    heading 502.11, whose rules went on or were merged under 702.19, into 702.19."""
    flanks = "Multiple instances of flanking on the same piece are redundant."
    others = "Multiple instances of flanks with other of one kind on the same piece are redundant."
    old: list[Row] = [
        ("502", "chapter", "5", "Keyword Abilities"),
        ("502.10", "rule", "502", "Flanking"),
        (
            "502.10a",
            "subrule",
            "502.10",
            "Flanking is a static ability that lets a piece attack beside others.",
        ),
        ("502.10b", "subrule", "502.10", "A flanking piece may attack with any number of others."),
        ("502.10i", "subrule", "502.10", flanks),
        ("502.11", "rule", "502", "Flanks with Other"),
        (
            "502.11a",
            "subrule",
            "502.11",
            "Flanks with other is a special form of flanking that"
            " works only with pieces of one kind.",
        ),
        ("502.11d", "subrule", "502.11", others),
    ]
    new: list[Row] = [
        ("702", "chapter", "7", "Keyword Abilities"),
        ("702.19", "rule", "702", "Flanking"),
        ("702.19a", "subrule", "702.19", "Flanking is a static ability that lets a piece attack"
         " beside others."),
        ("702.19b", "subrule", "702.19", "Flanks with other is a special form of flanking that"
         " works only with pieces of one kind."),
        ("702.19c", "subrule", "702.19", "A flanking piece may attack with any number of others."),
        ("702.19m", "subrule", "702.19", f"{flanks} {others}"),
    ]  # fmt: skip
    alignment, mapping = aligned(old, new)
    assert mapping["502.10i"] == "702.19m"
    assert keys(alignment, old, new, "merged") >= {("502.11d", "702.19m"), ("502.11", "702.19")}


def test_an_entry_saying_apart_what_an_entry_lost_was_split_from_it() -> None:
    """Like "Tap" of 2009-05-01, whose second paragraph on the tap symbol became the new
    entry "Tap Symbol" as "Tap" went on to say only what tapping is, and "Untap", which
    said the same of the untap symbol: "Tap Symbol" was split from "Tap", the entry
    holding all of its words; and like "Move" of 2005-08-01, most of whose words went to
    the new "Attach". A new entry made of what an old one kept is only like it."""
    old: list[Row] = [
        ("Flip", "glossary", None, "To flip a tile is to turn it face down. The flip mark in "
         "a cost means \"Flip this tile.\" A tile already face down can't be flipped again. "
         "See rule 104.4."),
        ("Unflip", "glossary", None, "To unflip a tile is to turn it face up. The unflip mark "
         "in a cost means \"Unflip this tile.\" A tile already face up can't be unflipped "
         "again. See rule 104.5."),
        ("Shift", "glossary", None, "To shift a marker, a banner or a token means to take it "
         "from where it is and put it onto another tile or player. If the banner or token "
         "is gone or the tile is no longer in play, nothing happens. A shifted banner gets "
         "a new timestamp; nothing else about it changes."),
    ]  # fmt: skip
    new: list[Row] = [
        ("Flip", "glossary", None, "To turn a tile face down. See rule 701.15, \"Flip.\""),
        ("Flip Mark", "glossary", None, "The flip mark in a cost means \"Flip this tile.\" "
         "See rule 107.5."),
        ("Unflip", "glossary", None, "To turn a tile face up. See rule 701.15, \"Flip.\""),
        ("Shift", "glossary", None, "To shift a marker means to take it from where it is and "
         "put it onto another tile or player."),
        ("Fasten", "glossary", None, "To fasten a banner or a token to a tile means to take "
         "it from where it is and put it onto that tile. If the banner or token is gone or "
         "the tile is no longer in play, nothing happens. A fastened banner gets a new "
         "timestamp; nothing else about it changes."),
        ("Tile", "glossary", None, "A tile is a square piece that may be turned face up or "
         "face down."),
    ]  # fmt: skip
    alignment, mapping = aligned(old, new)
    assert (mapping["Flip"], mapping["Shift"]) == ("Flip", "Shift")
    assert keys(alignment, old, new, "split") == {("Flip", "Flip Mark"), ("Shift", "Fasten")}


@pytest.mark.parametrize("close", ['"', "\u201d", "\u2019", ")"])
def test_a_sentence_ends_inside_its_closing_quote_or_parenthesis(close: str) -> None:
    """The glossary's 'See rule 702.59, "Suspend." A card is ...' is two sentences, as
    the first sentence of a record (`first_words`) was already read."""
    opening = {'"': '"', "\u201d": "\u201c", "\u2019": "\u2018", ")": "("}[close]
    text = f"Tiles wait here. See the rule on {opening}Waiting.{close} A tile waits if it is here."
    assert sentences(text)[-1] == "a tile waits if it is here"


def test_an_entry_whose_sentences_another_came_to_say_was_merged_into_it() -> None:
    """Like "Suspended" of 2009-05-01, whose one sentence "Suspend" came to say after its
    pointer to the rule ("See rule 702.59, "Suspend." A card is ..."): it was merged into
    "Suspend", not removed. An entry whose sentence the other already said stays apart."""
    old: list[Row] = [
        ("Linger", "glossary", None, "Linger is a keyword of tiles that wait in the side "
         "pile before they are played."),
        ("Lingering", "glossary", None, "A tile is \"lingering\" if it's in the side pile, "
         "has linger, and has a clock marker on it."),
    ]  # fmt: skip
    new: list[Row] = [
        ("Linger", "glossary", None, "A keyword that lets a tile wait before it is played. "
         "See rule 702.59, \"Linger.\" A tile is \"lingering\" if it's in the side pile, "
         "has linger, and has a clock marker on it."),
    ]  # fmt: skip
    alignment, mapping = aligned(old, new)
    assert mapping["Linger"] == "Linger"
    assert keys(alignment, old, new, "merged") == {("Lingering", "Linger")}


def test_a_part_saying_the_case_its_source_named_beside_the_kept_one_was_split() -> None:
    """Like 408.1d of 2009-05-01 ("A player may play an instant spell or an activated
    ability any time he or she has priority. ..."), which goes on as 115.1a on spells
    alone, while 115.1b says the other case it named, "A player may activate an activated
    ability any time he or she has priority.": too few of the words 115.1a lost to be a
    part by their count, but the phrase it lost whole, and nearly all of 115.1b's words
    were 408.1d's. Its counterpart kept the rest; 115.1b was split from it."""
    old: list[Row] = [
        ("408", "chapter", "4", "Timing"),
        ("408.1", "rule", "408", "Timing"),
        (
            "408.1d",
            "subrule",
            "408.1",
            "A player may play a quick move or a charged power any "
            "time he or she holds the baton. Moves other than quick ones may be played in the "
            "player's main round, when that player holds the baton and the queue is empty.",
        ),
    ]
    new: list[Row] = [
        ("115", "chapter", "1", "Timing and the Baton"),
        ("115.1", "rule", "115", "Timing"),
        ("115.1a", "subrule", "115.1", "A player may play a quick move any time he or she "
         "holds the baton. A player may play a slow move in his or her main round any time "
         "he or she holds the baton and the queue is empty."),
        ("115.1b", "subrule", "115.1", "A player may use a charged power any time he or she "
         "holds the baton."),
    ]  # fmt: skip
    alignment, mapping = aligned(old, new)
    assert mapping["408.1d"] == "115.1a"
    assert keys(alignment, old, new, "split") == {("408.1d", "115.1b")}


def test_a_rule_that_brought_its_new_home_a_sentence_of_its_own_was_merged() -> None:
    """Like the intervening "if" rule, said twice in 2009-05-01 (404.3 and 410.8) and once
    in 603.4 of 2009-07-11, which goes on from 404.3 and rewords both: 410.8 brought it
    "Note that this mirrors the check for legal targets.", which 404.3 never said, and was
    merged into it, though few of the words 603.4 gained are its own. Without that
    sentence it brought too little, and was removed. The heading 404, its one rule gone
    into 603, which goes on from 410, was merged into 603 either way (as "Triggered
    Abilities" 404 of 2009-05-01 was)."""
    core = (
        'A timed power may read "When [event], if [condition], [effect]." The power checks'
        " the condition when the event happens and triggers only if it is true. On"
        " resolution it checks the condition once more; if it is false at either time, the"
        ' power does nothing. This rule is called the "sudden if" rule. Note that the word'
        ' "if" means only what it always means anywhere else in the text of a piece.'
        " Delayed timed powers made by some effect follow this rule too, whenever they go"
        " off later."
    )
    second = (
        "Timed powers whose condition directly follows their event check for the condition"
        " within the event; where it is false, the power never triggers. The power checks"
        " the condition once more on resolution. If it fails, the power does nothing. Note"
        " that this mirrors the check for legal targets. Note that this rule never applies"
        ' to a timed power with an "if" condition anywhere else in its text. The word "if"'
        " means only what it always means in the text of a piece. This rule is called the"
        ' "sudden if" rule.'
    )
    brought = " Note that this mirrors the check for legal targets."
    both = (
        'A timed power may read "When [event], if [condition], [effect]." When the event'
        " happens, the power checks whether the condition is true. It triggers only if it"
        " is; otherwise it does nothing. If it triggers, it checks the condition again as it"
        " resolves, and if it is false then, it is taken from the pile and does nothing."
        f'{brought} This rule is called the "sudden if" rule. (The word "if" means only what'
        " it always means anywhere else in the text of a piece.) Delayed timed powers made"
        " by some effect follow this rule too, whenever they go off later."
    )
    old: list[Row] = [
        ("404", "chapter", "4", "Timed Powers"),
        ("404.3", "rule", "404", core),
        ("410", "chapter", "4", "Handling Timed Powers"),
        ("410.8", "rule", "410", second),
    ]
    for said, merged in ((both, {("410.8", "603.4")}), (both.replace(brought, ""), set())):
        new: list[Row] = [
            ("603", "chapter", "6", "Handling Timed Powers"),
            ("603.4", "rule", "603", said),
        ]
        alignment, mapping = aligned(old, new)
        assert mapping["404.3"] == "603.4"
        assert keys(alignment, old, new, "merged") == merged | {("404", "603")}
        assert "410.8" not in mapping


def test_a_rule_opening_with_a_rule_it_took_in_goes_on_from_that_one() -> None:
    """Like 406.4 of 2003-07-01, which opens with the first sentence of 406.1d ("A mana
    ability can be activated or triggered."), word for word, and goes on with 406.1e's:
    it continues 406.1d, though 406.1e holds more of its words and 406.1d only two thirds
    of its own there (its second sentence was dropped); 406.1e was merged into it."""
    first = (
        "A token power can be started or sparked. However, the rules for starting and"
        " resolving token powers differ slightly from those for starting other powers. See"
        ' rule 411, "Starting Token Powers," for details.'
    )
    second = (
        "Token powers are started and resolved like other powers, but they don't go on the"
        " pile, so they can't be stopped or answered. (See rule 408.2, \"Actions That Don't"
        ' Use the Pile.") Powers (other than token powers) that spark on starting token'
        " powers do go on the pile, however."
    )
    both = (
        "A token power can be started or sparked. Token powers are started and resolved"
        " like other powers, but they don't go on the pile, so they can't be stopped or"
        ' answered. See rule 411, "Starting Token Powers," and rule 408.2, "Actions That'
        " Don't Use the Pile.\""
    )
    rest = "Powers (other than token powers) that spark on starting token powers do use the pile."
    old: list[Row] = [
        ("406", "chapter", "4", "Powers"),
        ("406.1", "rule", "406", "Token Powers"),
        ("406.1d", "subrule", "406.1", first),
        ("406.1e", "subrule", "406.1", second),
    ]
    new: list[Row] = [
        ("406", "chapter", "4", "Powers"),
        ("406.4", "rule", "406", both),
        ("406.5", "rule", "406", rest),
    ]
    alignment, mapping = aligned(old, new)
    assert mapping["406.1d"] == "406.4"
    assert ("406.1e", "406.4") in keys(alignment, old, new, "merged")


def test_a_part_is_judged_by_what_the_part_keeping_the_number_lost() -> None:
    """Like 212.4e of 2006-05-01, on Auras, whose middle went on reworded as 212.4j (the
    fuzzy pass paired the two first) and whose first sentence kept the number: the line
    goes on in 212.4e, and both other parts were split from it, 212.4k too, on moving an
    Aura, though 212.4j says some of its words: what 212.4k holds is what the new 212.4e
    lost, not what 212.4j did."""
    first = "A Charm spell requires a target, which is restricted by its bind ability."
    kept: Row = ("212.4f", "subrule", "212.4", "If a Charm is binding an illegal piece, or the"
                 " piece it was attached to no longer exists, the Charm is put into its"
                 " owner's discard pile.")  # fmt: skip
    old: list[Row] = [
        ("212", "chapter", "2", "Card Kinds"),
        ("212.4", "rule", "212", "Charms"),
        ("212.4e", "subrule", "212.4",
         f"{first} Other restrictions can limit what a piece can be bound by. If a Charm is"
         " entering the arena by any other means than being played and the effect putting"
         " it into the arena doesn't specify what it will bind, the player putting it into"
         " the arena chooses a piece for it to bind as it enters the arena. The player must"
         " choose a legal piece according to the Charm's bind ability. If a Charm is"
         " entering the arena from the queue and there is no legal piece for it to bind,"
         " the Charm is put into its owner's discard pile instead of entering the arena. If"
         " a Charm is entering the arena from any zone other than the queue and there is no"
         " legal piece for it to bind, the Charm remains in the zone from which it attempted"
         " to move instead of entering the arena. The same rule applies to moving a Charm"
         " from one piece to another: The piece to which the Charm is to be moved must be"
         " able to be bound by it. If it can't, the Charm doesn't move."),
        kept,
    ]  # fmt: skip
    new: list[Row] = [
        ("212", "chapter", "2", "Card Kinds"),
        ("212.4", "rule", "212", "Charms"),
        ("212.4e", "subrule", "212.4", first),
        kept,
        ("212.4j", "subrule", "212.4", "If a Charm is entering the arena by any means other"
         " than by being played and the effect putting it into the arena doesn't specify the"
         " piece or player the Charm will bind, the player putting it into the arena chooses"
         " what it will bind as the Charm enters the arena. The player must choose a legal"
         " piece or player according to the Charm's bind ability and any other applicable"
         " effects. If the player can't make a legal choice, the Charm remains in its"
         " current zone, unless that zone is the queue. In that case, the Charm is put into"
         " its owner's discard pile instead of entering the arena."),
        ("212.4k", "subrule", "212.4", "If an effect attempts to attach a Charm in the arena"
         " to a piece or player, that piece or player must be able to be bound by it. If"
         " the piece or player can't be, the Charm doesn't move."),
    ]  # fmt: skip
    alignment, mapping = aligned(old, new)
    assert mapping["212.4e"] == "212.4e"
    assert keys(alignment, old, new, "split") == {("212.4e", "212.4j"), ("212.4e", "212.4k")}


def test_a_rule_saying_a_dropped_sentence_again_was_split_not_paired_by_likeness() -> None:
    """Like 712.11a of 2023-04-14, which says again, every word of it, the sentence on
    double-faced cards cast transformed that 712.7 dropped as it went on as 712.11, and
    was paired by likeness with 713.8 on meld cards cast as spells, a rule of the same
    mould: it was split from 712.7, and 713.8 went."""
    pointer = 'See rule 601, "Playing Charms."'
    old: list[Row] = [
        ("712", "chapter", "7", "Twin Tiles"),
        ("712.1", "rule", "712", "A twin tile has a charm side on each face."),
        ("712.7", "rule", "712", "If a twin tile is played as a charm, it's put on the pile"
         " with its bright side up by default. If a twin tile is played flipped, it's put on"
         f" the pile with its dark side up. {pointer}"),
        ("713", "chapter", "7", "Joined Tiles"),
        ("713.1", "rule", "713", "A joined tile has a bright side and half of a large dark side."),
        ("713.8", "rule", "713", "If a joined tile is played as a charm, it's put on the pile"
         f" with its bright side up. {pointer}"),
        ("713.9", "rule", "713", "A joined tile enters the field with its bright side up"
         " unless it is being joined with its mate."),
    ]  # fmt: skip
    new: list[Row] = [
        ("712", "chapter", "7", "Twin Tiles"),
        ("712.1", "rule", "712", "A twin tile has a charm side on each face."),
        ("712.11", "rule", "712", "A twin charm is played with its bright side up by"
         f" default. {pointer}"),
        ("712.11a", "subrule", "712.11", "If a twin tile or a copy of a twin tile is played as"
         " a charm flipped, it's put on the pile with its dark side up."),
        ("713", "chapter", "7", "Joined Tiles"),
        ("713.1", "rule", "713", "A joined tile has a bright side and half of a large dark side."),
    ]  # fmt: skip
    alignment, mapping = aligned(old, new)
    assert mapping["712.7"] == "712.11"
    assert keys(alignment, old, new, "split") == {("712.7", "712.11a")}
    assert "713.8" not in mapping


def test_a_rule_for_the_case_its_source_named_in_its_counterpart_s_words_was_split() -> None:
    """Like 103.4a of 2013-07-13, on the starting hand of a Vanguard game, written in the
    words of 103.3b on the starting life total, where 103.3b of 2013-05-01 said both "as
    modified by the life modifier" and "as modified by the hand modifier": it was split
    from 103.3b, which goes on as the rule on the life total. A rule in those words for a
    case the old rule never named is new (`_new_case`)."""
    old: list[Row] = [
        ("103", "chapter", "1", "Starting the Match"),
        ("103.3", "rule", "103", "Each contestant sets their point total to 20 and draws a"
         " hand of seven tiles."),
        ("103.3b", "subrule", "103.3", "In a Herald match, each contestant sets their point"
         " total to 20, as changed by the point modifier of their herald card, and draws a"
         " hand of seven tiles, as changed by the hand modifier of their herald card."),
        ("103.4", "rule", "103", "A contestant unhappy with their hand may redraw once."),
    ]  # fmt: skip
    new: list[Row] = [
        ("103", "chapter", "1", "Starting the Match"),
        ("103.3", "rule", "103", "Each contestant begins the match with a point total of 20."),
        ("103.3b", "subrule", "103.3", "In a Herald match, each contestant's starting point"
         " total is 20 plus or minus the point modifier of their herald card."),
        ("103.4", "rule", "103", "Each contestant draws a hand of seven tiles. A contestant"
         " unhappy with their hand may redraw once."),
        ("103.4a", "subrule", "103.4", "In a Herald match, each contestant's starting hand"
         " size is seven plus or minus the hand modifier of their herald card."),
    ]  # fmt: skip
    alignment, mapping = aligned(old, new)
    assert mapping["103.3b"] == "103.3b"
    assert keys(alignment, old, new, "split") == {("103.3b", "103.4a")}


def test_a_rule_whose_opening_another_rule_came_to_say_was_merged_into_it() -> None:
    """Like 418.5b of 2003-10-01, "Sometimes the results of one effect determine whether
    another effect applies or what another effect does.", with an example: 418.5h of
    2003-12-01 says that sentence after its own, "One continuous effect can override
    another.", and a new rule on another matter took 418.5b. Here the example is gone:
    the old rule was merged into 418.5h, though only its opening went there. Where 418.5h
    does not say it, the old rule was removed."""
    opening = (
        "Sometimes what one lasting effect does decides whether another lasting effect"
        " applies or what that other effect does."
    )
    old: list[Row] = [
        ("418", "chapter", "4", "Lasting Effects"),
        ("418.5", "rule", "418", "Lasting effects are applied in steps, in a fixed order."),
        ("418.5b", "subrule", "418.5", f"{opening} For instance, one effect may read, \"All"
         " blue pieces get +1,\" and another, \"The piece this is attached to is blue.\""),
        ("418.5c", "subrule", "418.5", "Within a step, effects apply in the order they"
         " began, the oldest first."),
        ("418.5h", "subrule", "418.5", "One lasting effect can override another."),
    ]  # fmt: skip
    for said, merged in ((f"One lasting effect can override another. {opening}", True),
                         ("One lasting effect can override another one.", False)):  # fmt: skip
        new: list[Row] = [
            ("418", "chapter", "4", "Lasting Effects"),
            ("418.5", "rule", "418", "Lasting effects are applied in steps, in a fixed order."),
            ("418.5b", "subrule", "418.5", "If an effect should be applied in several steps,"
             " each part of it is applied in its own step, whatever the other parts do."),
            ("418.5c", "subrule", "418.5", "Within a step, effects apply in the order they"
             " began, the oldest first."),
            ("418.5h", "subrule", "418.5", said),
        ]  # fmt: skip
        alignment, mapping = aligned(old, new)
        assert mapping["418.5h"] == "418.5h"
        assert "418.5b" not in mapping
        assert keys(alignment, old, new, "merged") == ({("418.5b", "418.5h")} if merged else set())


def test_a_sentence_said_apart_beside_its_rule_is_not_outweighed_by_a_rule_saying_it_still() -> (
    None
):
    """Like 714.3b of 2026-04-17: 714.3a said how a Saga enters without read ahead and
    how one enters with it; it went on as the first case, rewritten, and the new rule beside
    it says the second in other words. 702.155b, the read ahead rule, always said the
    second case and was rewritten the same way, so it holds as much of that sentence: what
    a rule's own old rule said is no sentence taken from another, and the rule beside was
    split from 714.3a. A rule elsewhere holding more of the sentence, here all of it, still
    outweighs it."""
    picks = (
        "As a tale with the hurry skill enters, its keeper picks a number from one to that"
        " tale's last verse number. That tale enters with the picked number of marks on it."
    )
    inner = (
        'Each tale with hurry has the inner skills "As this tale enters, pick a number'
        ' between one and this tale\'s last verse number" and "This tale enters with the'
        ' picked number of marks on it."'
    )
    old: list[Row] = [
        ("702", "chapter", "7", "Skills"),
        ("702.155", "rule", "702", "Hurry"),
        ("702.155a", "subrule", "702.155", "Hurry is a skill found on some tales."),
        ("702.155b", "subrule", "702.155", f"{picks} See rule 714."),
        ("714", "chapter", "7", "Tales"),
        ("714.3", "rule", "714", "A tale keeps count of its verses with marks."),
        ("714.3a", "subrule", "714.3", "As a tale without the hurry skill enters, its keeper"
         f" puts a mark on it. {picks} (See rule 702.155.)"),
        ("714.3b", "subrule", "714.3", "Each time a keeper's first phase begins, that keeper"
         " puts a mark on each tale they keep."),
    ]  # fmt: skip
    for elsewhere, split in ((f"{inner} See rule 714.3b.", True),
                             (f"{picks} See rule 714.3b.", False)):  # fmt: skip
        new: list[Row] = [
            ("702", "chapter", "7", "Skills"),
            ("702.155", "rule", "702", "Hurry"),
            ("702.155a", "subrule", "702.155", "Hurry is a skill found on some tales."),
            ("702.155b", "subrule", "702.155", elsewhere),
            ("714", "chapter", "7", "Tales"),
            ("714.3", "rule", "714", "A tale keeps count of its verses with marks."),
            ("714.3a", "subrule", "714.3", "Each tale without hurry has the inner skill \"This"
             " tale enters with a mark on it.\" That skill makes a swap (see rule 614.1c)."),
            ("714.3b", "subrule", "714.3", f"{inner} (See rule 702.155.) These skills make"
             " swaps (see rule 614.1c)."),
            ("714.3c", "subrule", "714.3", "Each time a keeper's first phase begins, that"
             " keeper puts a mark on each tale they keep."),
        ]  # fmt: skip
        alignment, mapping = aligned(old, new)
        assert mapping["714.3a"] == "714.3a"
        assert mapping["702.155b"] == "702.155b"
        assert keys(alignment, old, new, "split") == ({("714.3a", "714.3b")} if split else set())


def test_a_rule_written_after_another_old_rule_does_not_outweigh_the_rule_beside() -> None:
    """Like 212.6b of 2007-10-01, on when a player may play a land, which says again in
    other words the sentence 212.6a dropped: the new planeswalker rule 212.9a holds as
    many of its words, and is as much made of them, but only as it was written after
    212.3a, on playing a creature, which held them too. 212.6b was split from 212.6a."""
    when = "from their hand during a main phase of their turn when the queue is empty."
    waits = "Casting a {} uses the queue, and it waits there only until both players pass."
    old: list[Row] = [
        ("212", "chapter", "2", "Card Kinds"),
        ("212.3", "rule", "212", "Beasts"),
        ("212.3a", "subrule", "212.3", "A player may cast a beast card from their hand"
         " during a main phase of their turn, when they have the turn and the queue is"
         f" empty. {waits.format('beast')}"),
        ("212.6", "rule", "212", "Fields"),
        ("212.6a", "subrule", "212.6", "A player may lay a field card from their hand only"
         " during a main phase of their turn, and only when they have the turn and the queue"
         " is empty. A field card is never a spell. When a player lays a field card, it is"
         " simply put onto the table. The field card doesn't go on the queue, so players"
         " can't answer it with quick spells."),
        ("212.6b", "subrule", "212.6", "A player may lay only one field card during each of"
         " their turns."),
    ]  # fmt: skip
    new: list[Row] = [
        ("212", "chapter", "2", "Card Kinds"),
        ("212.3", "rule", "212", "Beasts"),
        ("212.3a", "subrule", "212.3", f"A player who has the turn may cast a beast card {when}"
         f" {waits.format('beast')}"),
        ("212.6", "rule", "212", "Fields"),
        ("212.6a", "subrule", "212.6", "Laying a field card is a free action. To lay a field"
         " card, the player simply puts it onto the table. The field card doesn't go on the"
         " queue and is never a spell, so players can't answer it with quick spells."),
        ("212.6b", "subrule", "212.6", f"A player who has the turn may choose to lay a field"
         f" card {when} Lasting powers may let the player lay field cards from other places"
         " this way, or at other times."),
        ("212.6c", "subrule", "212.6", "A player may lay only one field card during each of"
         " their turns."),
        ("212.9", "rule", "212", "Walkers"),
        ("212.9a", "subrule", "212.9", f"A player who has the turn may cast a walker card"
         f" {when} {waits.format('walker')}"),
    ]  # fmt: skip
    alignment, mapping = aligned(old, new)
    assert mapping["212.6a"] == "212.6a"
    assert "212.9a" not in mapping.values()
    assert keys(alignment, old, new, "split") == {("212.6a", "212.6b")}
