"""Questions as judges ask them: punctuation that is never syntax, the judge's vocabulary,
answer-first ranking, `show QUESTION`, and the labelled set of tests/fixtures/questions.toml.

The first tests need no corpus; the rest use the session database of every shared edition.
"""

from __future__ import annotations

import json
import random
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_kb.errors import BadSearchQuery
from rules_kb.search import questions
from rules_kb.search.engine import read_query, refuse_early
from tests.conftest import FIXTURES, ROOT, ok_cli

QUESTIONS = FIXTURES / "questions.toml"
VOCABULARY = ROOT / "data" / "vocabulary.toml"
LATEST = "2026-08-07"

# reading a query: plain language is never syntax ------------------------------------------

PLAIN = [
    # a question mark ending a word
    ("does deathtouch work with trample?", ["deathtouch", "trample"]),
    ("is it 5?", ["5"]),
    ("how does ward work?", ["ward"]),
    # apostrophes
    ("it's my opponent's creature's ability", ["opponent", "creature", "ability"]),
    ("can't I respond", ["respond"]),
    # quoted words, and a quoted card text inside a question
    ('what does "dies" mean?', ["dies"]),
    ('does "whenever this creature attacks" trigger with ninjutsu?', ["ninjutsu"]),
    # slashes: power/toughness and counters
    ("my 1/1 gets +1/+1 until end of turn", ["1/1", "+1/+1"]),
    ("an X/X token with -1/-1 counters", ["x/x", "-1/-1"]),
    # braces: mana and tap symbols
    ("can I activate {T}: add {G} in response", ["{t}", "{g}"]),
    # parentheses holding a remark
    ("Backlash (targets an untapped creature) and hexproof", ["hexproof", "backlash"]),
    # dashes, colons and stars as people write them
    ("state-based actions: when are they checked", ["state", "based"]),
    ("first strike * double strike", ["first", "strike"]),
    # a hyphen between words, as people join them ("pro-red", "mid-combat")
    ("does a pro-red creature block it mid-combat?", ["pro", "red", "mid", "combat"]),
]


@pytest.mark.parametrize(("query", "kept"), PLAIN)
def test_plain_language_is_never_syntax(query: str, kept: list[str]) -> None:
    assert not questions.is_syntax(query)
    found = questions.tokens(query)
    for token in kept:
        assert token in found, (query, found)
    plain, _question = read_query(query)
    # nothing the query parser could read as a wildcard, group, phrase or field (a symbol
    # keeps its braces: they are no syntax to the parser)
    assert not re.search(r'[?*~()":]', plain), plain


# Words as people write them, with the punctuation a sentence puts around one word.
_WORD = st.sampled_from(
    ["does", "deathtouch", "work", "with", "trample", "can", "I", "respond", "it's", "opp's",
     "don't", "1/1", "+1/+1", "-1/-1", "X/X", "{T}", "{2}{U}", "702.2c", "ETB", "and", "or",
     "not", "near", "title", "rule", "a", "i", "x", "5"]
)  # fmt: skip
_AROUND = st.sampled_from(
    [("", ""), ("", "?"), ("", "??"), ("", "?!"), ("", "!?"), ("", "."), ("", "..."),
     ("", ","), ("", ":"), ("", ";"), ("(", ""), ("", ")"), ("", "?)"), ('"', '"'),
     ('"', '"?'), ("\u201c", "\u201d"), ("\u2018", "\u2019"), ("", "\u2014"), ("", "\u2026")]
)  # fmt: skip


@settings(max_examples=300, deadline=None)  # (the first example builds the parser)
@given(st.lists(st.tuples(_WORD, _AROUND), min_size=1, max_size=12))
def test_a_sentence_of_words_and_punctuation_is_never_syntax(
    words: list[tuple[str, tuple[str, str]]],
) -> None:
    query = " ".join(before + word + after for word, (before, after) in words)
    assert not questions.is_syntax(query)
    plain, _question = read_query(query)
    # (braces may stay, around a symbol read whole: they are no syntax to the parser)
    assert not re.search(r'[?*~()":]', plain), (query, plain)
    refuse_early(query)  # parsed, and no wildcard or fuzziness bound is broken


@pytest.mark.parametrize(
    "query", ["?", "??", "?!", "...", "(?", ")?", '"?', "*", " - ", "\u201c?\u201d"]
)
def test_punctuation_alone_is_nothing_to_search_for(query: str) -> None:
    with pytest.raises(BadSearchQuery, match="nothing to search for"):
        read_query(query)


@pytest.mark.parametrize(
    "query",
    ['"last known information"', "indestruct*", "trample~", "trample~2", "ward AND cost",
     "flying NOT reach", "wild?card", '"first strike" OR "double strike"'],
)  # fmt: skip
def test_syntax_stays_syntax_where_written_as_one(query: str) -> None:
    assert questions.is_syntax(query)
    assert read_query(query)[0] == query


def test_shouted_questions_are_not_operators() -> None:
    assert not questions.is_syntax("CAN I NOT BLOCK WITH A TAPPED CREATURE?")


@pytest.mark.parametrize(
    ("query", "question"),
    [
        ("trample", False),
        ("first strike", False),
        ("last known information", False),
        ("does deathtouch work with trample?", True),
        ("trample?", True),
        ("can I respond to a mana ability", True),
        ("Any instructions to do so are ignored.", False),
        ("with Spirit of the Labyrinth out, can I? the draw is replaced", True),
        ("cast Lightning Bolt on a creature with hexproof", True),  # a situation described
        ("ten or more poison counters", False),
        ("damage player " * 20, False),  # (a paste of two words is no situation)
    ],
)
def test_questions_are_told_from_keywords(query: str, question: bool) -> None:
    assert questions.is_question(query) is question


def test_a_long_paste_is_read_by_its_first_words() -> None:
    assert len(questions.tokens("trample " * 5000)) == 2 * questions.MAX_QUESTION_WORDS


# the vocabulary ---------------------------------------------------------------------------


def test_every_vocabulary_entry_has_words_a_term_and_a_reason() -> None:
    entries = tomllib.loads(VOCABULARY.read_text(encoding="utf-8"))["entry"]
    assert len(entries) >= 60
    written: dict[str, str] = {}
    for entry in entries:
        assert entry["words"] and entry["term"], entry
        assert len(entry.get("reason") or entry.get("source") or "") >= 10, entry
        for word in entry["words"]:
            assert word == word.lower(), word
            # as a question is read: "state-based" is "state based", twice written once
            read = " ".join(questions.tokens(word))
            assert read not in written, (
                f"{word!r} is in {written.get(read)!r} and {entry['term']!r}"
            )
            written[read] = entry["term"]


@pytest.mark.parametrize(
    ("question", "term"),
    [
        ("what happens to the ETB trigger", "enters the battlefield"),
        ("does it fizzle?", "illegal targets on resolution"),
        ("can I chump block with it", "blocking creature"),
        ("flicker it in response", "exile and return"),
        ("it's summoning sick", "summoning sickness"),
        ("the legend rule", "legend rule"),
        ("how much is commander tax", "commander tax"),
        ("what's its CMC", "mana value"),
        ("an SBA check", "state-based actions"),
        ("at EOT", "end step and cleanup"),
        ("APNAP order", "APNAP order"),
        ("tap for mana", "mana ability"),
        ("a +1/+1 counter", "+1/+1 and -1/-1 counters"),
        ("a 2/2 creature", "power and toughness"),
        ("can I unmorph it in response", "turning a face-down permanent face up"),
        ("I tutor for a land", "Search"),
        ("both of us hit 0 at the same time", "simultaneously"),
        ("does it still enter tapped?", "replacement effects on entering"),
        ("a double block on my trampler", "blocked by two or more creatures"),
        ("my pro-red knight", "Protection"),
        ("a summoning-sick creature", "summoning sickness"),
        ("tokens made tapped and attacking", "put onto the battlefield attacking"),
        ("tokens that enter tapped and attacking", "put onto the battlefield attacking"),
        ("does saccing it count as casting", "sacrifice"),
        ("do players die at 0 life right away?", "a player losing the game"),
        ("does my 0/0 die immediately?", "when state-based actions are checked"),
        ("is a shock land nonbasic?", "nonbasic land"),
        ("can my creature have negative power?", "negative numbers"),
        ("can I untap an untapped creature?", "tapping and untapping"),
        ("does it hit artifact creatures?", "objects with more than one card type"),
        ("can I play an instant on his turn?", "casting spells"),
        ("Blood Moon turns my lands into Mountains", "setting a land's basic land type"),
        ("what colour is it?", "color"),
        ("is token one of the super types?", "supertypes"),
        ("can I give it to my teammate?", "teams"),
        ("what if it gets flying twice?", "more than once"),
        ("how does commander tax work with two commanders?", "partner"),
        ("what happens when my mutated commander dies?", "merged permanent"),
        ("can I take an extra combat after my second main phase?", "additional combat phase"),
        ("I control their next turn, can I make them concede?", "controlling another player"),
        ("can I fail to find when I search for a creature card?", "searching a hidden zone"),
        ("my troll has a regen shield up", "Regenerate"),
    ],
)
def test_table_vocabulary_is_recognised(question: str, term: str) -> None:
    found = questions.vocabulary_lexicon().recognise(questions.tokens(question))
    assert term in [item.entry.term for item in found], (question, found)


#: A question of our own for each situation of the vocabulary, as it is asked at a table,
#: and the rules that answer it (read in the 2026-08-07 text; any of them, or its parent
#: or a subrule, in the top 3 is an answer).
SITUATIONS = [
    ("my removal spell targets his guy, he sacs it in response. what happens?",
     "a target illegal on resolution", "608.2b"),
    ("I activate the ability and then sacrifice the creature in response, does it still resolve?",
     "an ability whose source is gone", "113.7a"),
    ("both players go to 0 life at the same time, who wins?", "players losing at the same time",
     "104.4a"),
    ("can I copy a legendary creature with a clone?", "a copy of a legendary permanent",
     "704.5j"),
    ("if I tap an attacking creature, does it still deal damage?",
     "an attacker or blocker tapped, untapped or taken over", "506.4b"),
    ("my blocker died before damage, does my trample attacker go through to the player?",
     "a blocked creature whose blocker is gone", "509.1h"),
    ("I gain control of his creature until end of turn, who gets it back when it ends?",
     "a change of control ending", "613.7"),
    ("both my opponent and I have triggers at the same time, what order do they go in?",
     "the order of triggered abilities", "603.3b"),
    ("two effects would double the counters, which one applies first?",
     "the order of replacement effects", "616.1"),
    ("I flicker my creature, does it keep its counters when it comes back?",
     "a permanent that left and came back", "400.7"),
    ("does a creature at 0 toughness die before the spell finishes resolving?",
     "when state-based actions happen", "704.3 704.5f"),
    ("does a copy of a spell count as casting for prowess?", "a copy of a spell", "707.10"),
    ("what happens to a creature with a +1/+1 counter and a -1/-1 counter?",
     "+1/+1 and -1/-1 counters together", "704.5q"),
    ("what happens to my aura when the creature gains protection?",
     "an Aura on an illegal object", "704.5m"),
    ("I cast an aura and they give the creature hexproof in response",
     "an Aura spell whose target goes", "608.3b"),
    ("my equipped creature is no longer a creature, what happens to the equipment?",
     "Equipment on an illegal permanent", "704.5n"),
    ("can I bounce a token back to my hand?", "a token leaving the battlefield", "111.8"),
    ("do I lose if my library is empty?", "drawing from an empty library", "704.5b"),
    ("my creature gains first strike after first strike damage, does it deal damage again?",
     "first strike gained or lost during combat", "702.7c"),
    ("does damage on my creature wear off at end of turn?", "damage wearing off", "514.2"),
    ("does lifelink gain me life before I would be dead from the combat damage?",
     "lifelink and the damage it comes with", "702.15b"),
    ("which layer does a timestamp matter in?", "the layers of continuous effects", "613.7"),
    ("a wrath kills my creatures, do their dies triggers see each other at the same time?",
     "dying creatures that see each other", "603.10a"),
    ("it deals damage equal to its power but it was sacrificed in response, how much?",
     "the last known information of a source", "608.2h"),
    ("my ETB trigger has no legal targets, what happens?",
     "a triggered ability with no legal target", "603.3d"),
    ("my commander dies, can I put it into the command zone?",
     "a commander going to the command zone", "903.9a"),
    ("I steal a creature with threaten, can it attack if it doesn't have haste?",
     "summoning sickness after a change of control", "302.6"),
    ("can I cast an instant during the cleanup step?", "priority in the cleanup step", "514.3"),
    ("does an indestructible creature die at 0 toughness?",
     "an indestructible creature with toughness 0", "704.5f"),
    ("does floating mana empty between steps?", "mana left over between steps", "106.4"),
    ("they tap a mana dork, can I bolt it in response before the mana?",
     "responding to a mana ability", "605.3b"),
    ("what's the mana value of an X spell in my graveyard?", "X in a mana value off the stack",
     "202.3e"),
    ("I cascade into a spell with X in its cost, what is X?",
     "X in a spell cast without paying its mana cost", "107.3b"),
    ("can I pay both the evoke and the flashback alternative cost on one spell?",
     "two alternative costs together", "118.9a"),
    ("one effect says I can't gain life and another says I can, which wins?",
     "an effect that says can't against one that says can", "101.2"),
    ("in a four-player game someone concedes, what happens to the creatures they stole?",
     "a player leaving a multiplayer game", "800.4a"),
    ("can I use my planeswalker's loyalty ability twice in the same turn?",
     "a loyalty ability twice, or out of turn", "606.3"),
    ("I bolt a planeswalker for 3 damage, how many loyalty counters does it lose?",
     "damage dealt to a planeswalker", "120.3c"),
    ("when I swing, do I choose to attack the planeswalker directly or the player?",
     "attacking a planeswalker or a battle", "508.1b"),
    ("my 5/5 gets double blocked by two 2/2s, how do I assign the damage?",
     "one attacker blocked by several creatures", "510.1c"),
    ("I cast a fight spell and they sac their creature in response, does mine take damage?",
     "a fight with one creature gone", "701.14b"),
    ("after I cast a spell, who gets priority first?",
     "who gets priority after casting or activating", "117.3c"),
    ("can I pay 4 life for a spell when I only have 3 life?", "paying more life than one has",
     "119.4"),
    ("can I look at the cards I exiled face down?", "a card exiled face down", "406.3"),
    ("does the player going first draw a card on their first turn?",
     "the first player's first draw", "103.8a"),
    ("in free-for-all can I attack two opponents in the same combat?",
     "attacking several opponents", "802.1"),
    ("my land enters tapped, can my opponent respond to that?",
     "a permanent that enters tapped or with counters", "603.6d"),
    ("can my opponent respond when I play a land?", "responding to a land or a special action",
     "305.1"),
    ("what's the mana value of a split card in my hand?",
     "the mana value of a card with two faces or halves", "202.3d"),
    ("is this trigger optional or do I have to do it?", "an optional trigger", "603.5"),
    ("damage can't be prevented, do my prevention shields still get used up?",
     "prevention against damage that can't be prevented", "615.12"),
    ("my creature was exiled until their enchantment leaves the battlefield; it was destroyed, "
     "do I get it back?", "exiled until a permanent leaves", "610.3"),
    ("can I cast a sorcery at instant speed during my opponent's turn?",
     "a sorcery-speed action at instant speed", "307.1"),
    ("does a deathtouch pinger kill a creature with noncombat damage?",
     "deathtouch outside combat", "702.2b"),
    ("can a tapped creature block?", "a tapped creature blocking", "509.1a"),
    ("can I cast an instant during my untap step?", "the untap step and priority", "502.4"),
    ("we're in an infinite loop of mandatory triggers and neither player can stop it, what now?",
     "a loop of actions", "104.4b"),
    ("I fork their spell, can I choose new targets for the copy?", "new targets for a copy",
     "707.10c"),
    ("my face-down morph dies, do I have to reveal it?",
     "a face-down permanent leaving the battlefield", "708.9"),
    ("I steal their equipped creature, do I gain control of the equipment too?",
     "Equipment and a change of control", "301.5d"),
    ("can I target my own creature with hexproof?", "hexproof against its controller",
     "702.11b"),
    # the third rank (2026-12-04), from the questions of the fresh splits they missed
    ("can a player be at negative life and still be alive?", "a player at 0 or less life",
     "704.5a 107.1b"),
    ("I attack their planeswalker and they sacrifice it before damage, where does the damage go?",
     "an attacked planeswalker or battle that leaves combat", "506.4c"),
    ("can I activate my opponent's creature's ability if it doesn't say only its controller can?",
     "activating an ability of a permanent one doesn't control", "602.2"),
    ("can a counterspell counter a triggered ability?",
     "a spell that counters spells against an ability", "113.9"),
    ("if the damage from my deathtouch creature is prevented, is the blocker still destroyed?",
     "deathtouch damage prevented or not dealt", "702.2b"),
    ("does my lifelink creature gain me life when it's blocking?",
     "lifelink on any damage its source deals", "702.15b"),
    ("my creature already has lifelink and I give it lifelink again, does it stack?",
     "two instances of lifelink", "702.15f"),
    ("does a spell that says destroy target creature work on creature cards in the graveyard?",
     "a card's words for permanents and cards in other zones", "109.2"),
    ("can I use my planeswalker's ability the same turn I cast it?",
     "a planeswalker's ability the turn it enters", "606.3 302.6"),
    ("I steal a creature with a draw trigger and it triggers, who draws, me or them?",
     "who controls the trigger of a stolen permanent", "603.3a"),
    ("after a copy of my instant resolves, can I flashback the copy from the graveyard?",
     "a copy of a spell off the stack", "707.10a"),
    ("my 3/3 is blocked by a 3/3, which one dies?",
     "creatures that deal each other combat damage", "510.2 704.5g"),
    ("does a creature's static ability work while it's in my graveyard?",
     "an object's abilities outside the battlefield", "113.6"),
    ("if I skip my upkeep, do my upkeep triggers still happen?", "a skipped step, phase or turn",
     "614.10a"),
    ("can a legendary artifact be my commander?", "what can be a commander", "903.3"),
    ("my attacker phases out after blockers are declared, does it still deal damage?",
     "a permanent phasing out in combat", "702.26b 506.4"),
    ("when my creature phases in, do its ETB triggers happen again?", "a permanent phasing in",
     "702.26d"),
    ("a token enters tapped and attacking, does my 'whenever a creature attacks' trigger?",
     "a creature put onto the battlefield attacking", "508.4"),
    ("can my creature have two roles from me at once?", "two Roles on one permanent", "704.5z"),
    ("I steal their lord that gives creatures you control +1/+1, whose creatures get the bonus?",
     "a stolen permanent's words 'you' and 'your'", "109.5 611.3a"),
    ("my opponent goes to 0 life, do they lose right away or can they still respond?",
     "a player or creature lost as soon as the game checks", "704.3 704.5a"),
    ("they counter my spell unless I pay 3, can I tap my lands as it resolves?",
     "mana for a payment asked during resolution", "605.3a"),
    ("is life loss the same thing as damage?", "damage and life loss", "120.3a"),
    ("I draw three cards with one spell, does my draw trigger happen once or three times?",
     "how many times an ability triggers", "603.2c"),
    ("can my 0 power wall still block?", "a creature with 0 power in combat", "510.1a 508.1a"),
    ("can my wall block an additional creature if it says so?",
     "one blocker and several attackers", "509.1a"),
    ("can a summoning sick creature block?", "a creature that came in this turn blocking",
     "302.6 509.1a"),
    ("I bounce my creature with three +1/+1 counters, does it keep them when I recast it?",
     "counters on an object that changes zones", "122.2"),
    ("I have nine cards at end of turn, when do I discard?", "discarding at the end of the turn",
     "514.1"),
    ("am I allowed to look through my opponent's graveyard any time?",
     "looking at the cards of a zone", "404.2 400.2"),
    ("can I cast an instant whenever I want, even on their turn?",
     "when an instant may be cast", "117.1a"),
    ("can I run a blue card in my mono-green commander deck?",
     "the colors a Commander deck may hold", "903.5c"),
    ("I sacrifice a 5/5 as a cost and deal damage equal to its power, how much?",
     "the power of a creature sacrificed as a cost", "608.2h"),
    ("does protection from white save my creature from a wrath?",
     "protection against what does not target", "702.16b"),
    ("who controls the cards in my graveyard?",
     "the controller of a card outside the battlefield", "108.4"),
    ("can my fight spell's creature use trample?", "combat keywords in a fight", "701.14d"),
    ("can I bolt a battle to take off defense counters?", "damage dealt to a battle",
     "120.3h 310.6"),
    ("I stole their creature and it died, whose graveyard does it go to?",
     "the graveyard a borrowed card goes to", "400.3"),
    ("does damage remove the +1/+1 counters on my creature?", "damage against +1/+1 counters",
     "120.3e 122.1a"),
    ("can I play a land on my opponent's turn at EOT?", "a land played on another player's turn",
     "305.3"),
    ("they stifle my fetchland's ability, do I get the life I paid back?",
     "the costs of a countered spell or ability", "701.6b"),
    ("does a token count as a card for my graveyard count?", "whether a token is a card",
     "108.2b"),
]  # fmt: skip


def test_every_situation_has_groups_rules_and_a_reason() -> None:
    data = tomllib.loads(VOCABULARY.read_text(encoding="utf-8"))["situation"]
    assert len(data) == len(questions.situations()) >= 20
    for item in data:
        assert item["name"] and item["rules"] and item["when"], item
        assert len(item["reason"]) >= 10, item
        for group in item["when"]:
            assert group and all(word == word.lower() and questions.tokens(word) for word in group)
    assert {name for _question, name, _rule in SITUATIONS} == {item["name"] for item in data}


@pytest.mark.parametrize(("question", "name", "rule"), SITUATIONS)
def test_a_situation_is_told_by_its_words_together(question: str, name: str, rule: str) -> None:
    from rules_kb.search.answers import _single_stem
    from rules_kb.search.index import stems

    normal = _single_stem(stems)
    told = questions.situations_in(questions.tokens(question), questions.situations(normal), normal)
    assert name in [item.entry.term for item in told], (question, told)


def test_a_situation_needs_a_word_of_every_group() -> None:
    told = questions.situations()
    found = questions.situations_in
    # "target" and "in response" without anything that made the target go
    assert not found(questions.tokens("can I target it in response?"), told)
    assert found(questions.tokens("can I target it in response after it gained hexproof?"), told)
    # keywords looked up tell no situation
    for query in ("trample", "deathtouch trample", "legend rule", "702.19b"):
        assert not found(questions.tokens(query), told), query
    # inflections are the word's only through the stemmer the situations were read with
    blinked = questions.tokens("he blinked it, responding to my spell targeting it")
    assert not found(blinked, told)
    from rules_kb.search.answers import _single_stem
    from rules_kb.search.index import stems

    normal = _single_stem(stems)
    item = found(blinked, questions.situations(normal), normal)
    assert [i.words for i in item if i.entry.term == "a target illegal on resolution"] == [
        "blinked … responding … targeting"
    ]


def test_renumbering_moves_the_vocabularys_rules_and_nothing_else() -> None:
    numbers = {"702.19": ("502.9",), "730": ()}
    assert questions.renumber(("702.19", "730", "104.3a"), numbers) == ("502.9", "104.3a")
    lexicon = questions.vocabulary_lexicon()
    moved = lexicon.renumbered({"603.6a": ("410.10",), "603.6": ()})
    found = moved.recognise(questions.tokens("what happens to the ETB trigger"))
    assert [item.entry.rules for item in found] == [("410.10",)]
    # the shared lexicon is left as it was
    found = lexicon.recognise(questions.tokens("what happens to the ETB trigger"))
    assert [item.entry.rules for item in found] == [("603.6a", "603.6")]


def test_word_pairs_keep_function_words_but_not_articles() -> None:
    from rules_kb.search.answers import word_pairs

    found = word_pairs("Can a player draw a card from a library with no cards in it?")
    assert ("draw", "card") in found and ("no", "card") in found  # plural folded
    assert ("library", "with") in found  # a function word beside a word that counts
    assert not any(first in {"a", "the"} or second in {"a", "the"} for first, second in found)
    assert ("in", "it") not in found  # two question words say nothing


def test_a_saved_book_is_stale_when_the_question_words_change(monkeypatch: Any) -> None:
    # they keep glossary names out of the lexicon a book holds
    before = questions.vocabulary_digest()
    monkeypatch.setattr(questions, "QUESTION_WORDS", questions.QUESTION_WORDS | {"hereabouts"})
    questions.vocabulary_digest.cache_clear()
    try:
        assert questions.vocabulary_digest() != before
    finally:
        monkeypatch.undo()
        questions.vocabulary_digest.cache_clear()
    assert questions.vocabulary_digest() == before


def test_a_saved_book_is_stale_when_the_code_that_made_it_changes(monkeypatch: Any) -> None:
    from rules_kb.search import answers

    before = answers.book_key("stamp")
    assert answers.code_digest() in before
    monkeypatch.setattr(answers, "code_digest", lambda: "another rules-kb")
    assert answers.book_key("stamp") != before


def test_the_longest_phrase_wins() -> None:
    found = questions.vocabulary_lexicon().recognise(questions.tokens("a +1/+1 counter on it"))
    assert [item.words for item in found] == ["+1/+1 counter"]


# on the corpus -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def kb(all_editions_db: Path) -> Any:
    import rules_kb

    opened = rules_kb.open(all_editions_db)
    yield opened
    opened.close()


def test_every_vocabulary_rule_exists_in_the_vocabularys_edition(kb: Any) -> None:
    assert questions.vocabulary_edition() == LATEST
    numbers = set(kb.reader.numbers(LATEST))
    for entry in questions.vocabulary():
        for number in entry.rules:
            assert number in numbers, (entry.term, number)
    for situation in questions.situations():
        for number in situation.rules:
            assert number in numbers, (situation.name, number)


@pytest.mark.parametrize(("question", "name", "rule"), SITUATIONS)
def test_a_situation_lifts_the_rule_that_answers_it(
    kb: Any, question: str, name: str, rule: str
) -> None:
    found = ranked(kb, question)[:3]
    close = {n for answer in rule.split() for n in (answer, _parent(answer))}
    assert any(n in close or _parent(n) in close for n in found), (question, found)


def ranked(kb: Any, question: str, edition: str = "latest", limit: int = 10) -> list[str]:
    return [hit.label for hit in kb.search(question, edition, limit=limit).hits]


def test_no_question_of_the_set_fails_or_comes_back_empty(kb: Any) -> None:
    """Neither `search` nor `show`: a situation told in 280 characters, with no question
    mark, is no glossary term too long to look up."""
    for case in tomllib.loads(QUESTIONS.read_text(encoding="utf-8"))["question"]:
        found = kb.search(case["q"])
        assert found.hits, case["q"]
        if found.match == "question":
            assert all(hit.matched for hit in found.hits[:3]), case["q"]
        shown = kb.show(case["q"])
        assert shown.type in {"answer", "search"}, case["q"]
        assert shown.value.answers if shown.type == "answer" else shown.value.hits, case["q"]


def test_a_symbol_alone_finds_the_rule_that_defines_it(kb: Any) -> None:
    """Every "The … symbol is {X}" of rule 107, searched for as the symbol alone or asked
    about: the analyser once cut "{C}" to "c" and dropped it, so most found nothing."""
    defined = [
        (rule.number, found.group(1))
        for rule in kb.rule("107", LATEST).walk()
        if (found := re.match(r"The [\w -]*symbol (?:is )?(\{[^{}\s]+\})", rule.text))
    ]
    assert len(defined) >= 8, defined  # {C}, {0}, {T}, {Q}, {PW}, {CHAOS}, {E}, {TK}, {P}
    for number, symbol in defined:
        for query in (symbol, f"what does {symbol} mean?"):
            assert number in ranked(kb, query, LATEST, limit=5), (query, number)
    assert "{C}" in kb.search("{C}", LATEST).hits[0].matched  # shown as printed
    # in a longer query a symbol is a word of the text ("{2}{U}" in a mana cost)
    hits = kb.search("mana cost {2}{U}", LATEST).hits
    assert hits and "{2}{U}" in hits[0].text


def test_a_rule_number_in_a_question_names_that_rule(kb: Any) -> None:
    """A number asked about comes first, however the question wraps it or a search names it
    ("rule 702.19b"); it used to be one more word, which the rules citing it matched and
    it did not."""
    numbers = sorted(n for n in kb.reader.numbers(LATEST) if "." in n)
    for number in random.Random(21).sample(numbers, 40):
        asked = (f"{number}?", f"what does {number} say?", f"is ({number}) right?")
        for question in (*asked, f"rule {number}", f"CR {number}"):
            first = ranked(kb, question, LATEST)[0]
            # (a heading stands for its first subrule: "702.110" Exploit, 702.110a)
            child = first.startswith(number) and first[len(number) :].isalpha()
            assert first == number or child, (question, first)
    assert ranked(kb, "according to 704.5a do I lose at 0 life?", LATEST)[0] == "704.5a"
    # a range names every subrule it spans
    spans = [
        ("is 510.1c-d right?", {"510.1c", "510.1d"}),
        ("what do 702.19b\u2013d say?", {"702.19b", "702.19c", "702.19d"}),
        ("is 510.1c to e right?", {"510.1c", "510.1d", "510.1e"}),
    ]
    for question, spanned in spans:
        assert set(ranked(kb, question, LATEST)[: len(spanned)]) == spanned, question


def test_a_passage_copied_from_the_rules_finds_where_it_was_copied_from(kb: Any) -> None:
    """Twelve words cut from a rule read like a situation told (six words or more, no full
    stop) or a question ("If a…"); the text holding them word for word is what was looked
    for."""
    rng = random.Random(12)
    numbers = sorted(kb.reader.numbers(LATEST))
    tried = 0
    while tried < 30:
        rule = kb.rule(rng.choice(numbers), LATEST)
        words = rule.text.split()
        if len(words) < 16:
            continue
        start = rng.randrange(1, len(words) - 13)
        passage = " ".join(words[start : start + 12]).rstrip(".:")
        tried += 1  # (some open as a question does: "is referring only to…", "If a…")
        found = kb.search(passage, LATEST)
        assert found.match == "all", passage
        assert rule.number in [hit.label for hit in found.hits], passage


def test_a_rule_joining_two_concepts_beats_a_rule_about_one(kb: Any) -> None:
    assert ranked(kb, "does deathtouch work with trample?")[0] == "702.2c"


def test_the_subrule_that_answers_beats_its_heading(kb: Any) -> None:
    found = ranked(kb, "can my creature with hexproof be targeted by my opponent's spells?")
    assert found[0] == "702.11b" and "702.11" not in found[:3]
    found = ranked(kb, "does an indestructible creature die at 0 toughness?")
    assert "704.5f" in found[:3]


def test_a_situation_described_without_a_question_mark_is_answered(kb: Any) -> None:
    for question in (
        "can I cast Lightning Bolt on a creature with hexproof?",
        "cast Lightning Bolt on a creature with hexproof",
    ):
        assert "702.11b" in ranked(kb, question)[:3], question


def test_a_question_is_answered_by_rules_before_definitions(kb: Any) -> None:
    hits = kb.search("what does it mean for a creature to die?", limit=30).hits
    labels = [hit.label for hit in hits]
    assert [hit.kind for hit in hits[:3]] == ["rule"] * 3
    assert "Dies" in labels  # the definition is found, after the rules that apply it


def test_a_described_situation_is_answered_when_no_text_has_every_word(kb: Any) -> None:
    found = kb.search("removal spell, target sacrificed in response, does it fizzle")
    assert found.match == "question"
    assert "608.2b" in [hit.label for hit in found.hits]


def test_a_rule_in_the_questions_own_words_comes_up(kb: Any) -> None:
    # 121.4 says "draw a card from a library with no cards in it"; 121.1-121.3 share
    # the single words, not the wording
    question = "what if a player has to draw a card from a library with no cards in it?"
    assert "121.4" in ranked(kb, question)[:5]


def test_card_names_lower_no_score(kb: Any) -> None:
    plain = ranked(kb, "can I respond to a mana ability?")
    named = ranked(kb, "can I respond to Llanowar Elves' mana ability?")
    assert plain[:3] == named[:3]


def test_a_term_inside_a_cards_name_names_no_rule(kb: Any) -> None:
    def recognised(question: str) -> list[dict[str, Any]]:
        return [item.as_dict() for item in kb.search(question, "latest").recognised]

    # "Party", "Shadow" and "Blood" are terms; "Launch Party", "Death's Shadow" and "Blood
    # Artist" are cards, as is "Exploration" (a term only by its stem: explore)
    for question, term in [
        ("does Guttersnipe trigger when I sacrifice it to Launch Party?", "party"),
        ("my opponent blocks with Death's Shadow. does it survive?", "shadow"),
        ("does Blood Artist trigger when my creature dies?", "blood"),
        ("can I play two lands in one turn without Exploration?", "explore"),
    ]:
        terms = [found["term"].lower() for found in recognised(question)]
        assert not any(term in found for found in terms), (question, terms)
    # the same words as written by someone naming the term keep it
    for question, term in [
        ("can a creature with Shadow block?", "shadow"),
        ("how does First Strike work in a Two-Headed Giant game?", "first strike"),
        ("who is in my party?", "party"),
    ]:
        terms = [found["term"].lower() for found in recognised(question)]
        assert any(term in found for found in terms), (question, terms)


def test_a_headline_names_no_card() -> None:
    # a question written in title case, as FAQ pages write them: its capitals name nothing
    for text in ["Can Planeswalkers Deal Commander Damage?", "Is Colorless A Color?"]:
        assert not any(questions.capitalised(text)) and not questions.name_runs(text), text
    assert questions.name_runs("my opponent blocks with Death's Shadow, does it die?")


def test_cards_cited_in_brackets_are_names() -> None:
    text = "When [[Flamerush Rider]] attacks, can I copy [[super state]]? {Domri Rade} pays {2}{U}"
    found = questions.tokens(text)
    cited = [" ".join(found[start:end]) for start, end in questions.cited_cards(text)]
    assert cited == ["flamerush rider", "super state", "domri rade"]  # not the mana symbols
    marks = questions.capitalised(text)
    assert marks[found.index("super")] and marks[found.index("state")]


def test_the_cards_a_question_names_are_told_back_as_written() -> None:
    rules_words = {"blocks", "with", "wall", "creature", "trample", "shadow"}

    def named(text: str, covered: tuple[int, ...] = ()) -> list[str]:
        return questions.card_names(text, covered, lambda token: token.lower() in rules_words)

    # runs written as one name, cited cards, single names the rules never use
    assert named("My opponent controls Humility and I cast Opalescence. What happens?") == [
        "Humility",
        "Opalescence",
    ]
    assert named("I control Xenagos, God of Revels and Yasova Dragonclaw. Can Yasova fight?") == [
        "Xenagos, God of Revels",
        "Yasova Dragonclaw",
    ]
    assert named("can I copy [[super state]] with Gideon Jura's ability?") == [
        "super state",
        "Gideon Jura",
    ]
    # a word the rules use, a term the question was read as, a sentence's first word, a
    # headline: no card
    assert named("my creature has Trample and he blocks with a Wall") == []
    assert named("my opponent blocks with Death's Shadow", covered=(4, 5)) == []
    assert named("Humility is out. does it stop my ETB?") == []
    assert named("Can Planeswalkers Deal Commander Damage?") == []
    many = "I hold Zarvok and Quillit and Mornax and Tevren and Ulbar. which can I cast?"
    assert named(many) == ["Zarvok", "Quillit", "Mornax", "Tevren"][: questions.MAX_CARDS]


def test_show_tells_the_asker_that_the_rules_hold_no_card_text(kb: Any) -> None:
    found = kb.show("My opponent controls Humility and I cast Opalescence. What happens?")
    cards = [item for item in found.value.recognised if item.words == "Humility; Opalescence"]
    assert cards and not cards[0].rules and "no card" in cards[0].term
    for question in ["does deathtouch work with trample?", "can a creature with Shadow block?"]:
        terms = [item.term for item in kb.show(question).value.recognised]
        assert not any("no card" in term for term in terms), (question, terms)


def test_no_phrase_runs_across_a_comma_or_a_sentence() -> None:
    lexicon = questions.vocabulary_lexicon()
    terms = [item.entry.term for item in lexicon.recognise(questions.tokens("artifact creatures"))]
    assert "objects with more than one card type" in terms
    for text in ["destroy each artifact, creature, and enchantment", "an artifact. Creature"]:
        found = lexicon.recognise(questions.tokens(text), ends=questions.breaks(text))
        assert "objects with more than one card type" not in [i.entry.term for i in found], text


def test_a_setting_the_question_does_not_name_counts_less() -> None:
    from rules_kb.search import answers

    nothing = answers.Settings(frozenset({"8", "9"}), frozenset())
    for key in ("800.4a", "810.8a", "903.9a", "901.5", "111.10a", "111.10q"):
        assert answers.elsewhere(key, nothing), key
    for key in ("702.19b", "111.10", "111.3", "510.1c", "g:Commander"):
        assert not answers.elsewhere(key, nothing), key

    def named(*keys: str) -> answers.Settings:
        return answers.Settings(frozenset({"8", "9"}), frozenset(keys))

    assert not answers.elsewhere("800.4a", named("8"))
    assert not answers.elsewhere("903.9a", named("903"))
    assert answers.elsewhere("810.8a", named("903"))
    assert not answers.elsewhere("111.10a", named("111.10a"))
    # before 2009-07-11 the multiplayer rules were section 6
    assert answers.elsewhere("606.2", answers.Settings(frozenset({"6"}), frozenset()))
    book = answers.Book(
        "2026-08-07", {}, {}, questions.Lexicon(),
        settings={"8": frozenset({"multiplay"}), "800": frozenset(), "903": frozenset({"command"}),
                  "9": frozenset()},
    )  # fmt: skip

    def asked(*forms: str, rules: tuple[str, ...] = ()) -> frozenset[str]:
        concepts = [answers.Concept(form, None, ((form,),), rules) for form in forms]
        return answers.settings_named(concepts, book).named

    assert asked("command") == {"903"}
    assert asked("multiplay") == {"8"}  # the section: every multiplayer option
    assert asked("trampl", rules=("111.10a",)) == {"111.10a"}
    assert asked("ffa", rules=("806.1",)) == {"806"}
    assert asked("ffa", rules=("800.2",)) == {"800", "8"}
    assert asked("trampl") == frozenset()


def test_a_name_is_read_mid_sentence_only() -> None:
    text = "Opponent casts Smallpox. Can I sacrifice a Loxodon Smiter - or Leyline of the Void?"
    found = questions.tokens(text)
    runs = [" ".join(found[start:end]) for start, end in questions.name_runs(text)]
    assert runs == ["loxodon smiter", "leyline of the void"]
    marks = questions.capitalised(text)
    assert not marks[found.index("can")] and marks[found.index("smallpox")]
    assert questions.capitalised("a Two-Headed Giant game") == [False, True, True, True, False]


def test_settings_not_named_stay_out_of_the_way(kb: Any) -> None:
    # multiplayer rules and predefined tokens hold many common words: they answer only
    # where the question names their setting, or shares their words outright
    plain = ranked(kb, "if he disenchants my Control Magic, does the creature go back to him?")
    assert not [number for number in plain if number[0] in "89"], plain
    assert ranked(kb, "in multiplayer, what happens to what I own when I leave the game?")[0] == (
        "800.4a"
    )
    artifact = ranked(kb, "can I sacrifice an artifact for mana in response?")
    assert not [number for number in artifact if number.startswith("111.10")], artifact
    assert "111.10a" in ranked(kb, "can I sacrifice a Treasure token for mana in response?")[:3]


def test_a_term_defined_by_a_small_chapter_names_its_rules(kb: Any) -> None:
    # the glossary's "Cleanup Step" sends the reader to chapter 514, four rules: the one
    # that answers (no priority in cleanup) comes first
    assert ranked(kb, "can I cast an instant during the cleanup step?")[0] == "514.3"
    # "Creature" sends the reader to chapter 302 too, a broad subject: its rules are not lifted
    assert not [n for n in ranked(kb, "can a creature block two attackers?")[:3] if n[:3] == "302"]


def test_questions_answer_as_of_the_edition(kb: Any) -> None:
    # deathtouch was 502.63 in 2009-05-01, before the keywords moved to 702
    found = ranked(kb, "does deathtouch work with trample?", "2009-05-01")
    assert found and all(number.startswith("502.") for number in found[:3]), found


def test_the_vocabulary_lifts_an_older_editions_own_rules(kb: Any) -> None:
    """The vocabulary's numbers are those of its edition; asked of another, a question
    lifts the rules they were there (608.2b was 413.2a in 2009-05-01), never the rule that
    happened to have the number then, and nothing where the rule did not exist yet."""
    question = "my removal spell targets his guy, he sacs it in response. what happens?"
    shown = kb.show(question, "2009-05-01", limit=3).value
    told = {item.term: item.rules for item in shown.recognised}
    assert told["a target illegal on resolution"] == ("413.2a",)
    assert told["sacrifice"] == ("501.6",)  # 701.21 in 2026-08-07
    assert shown.answers[0].number == "413.2a"
    sqlite = kb.reader.conn
    edition_id = sqlite.execute("SELECT id FROM editions WHERE date = '2009-05-01'").fetchone()
    from rules_kb.search import answers

    numbers = answers.vocabulary_numbers(sqlite, edition_id[0], questions.situations())
    assert numbers["702.19"] == ("502.9",) and numbers["608.2b"] == ("413.2a",)
    assert numbers["730"] == ()  # merged permanents, from 2020
    latest = sqlite.execute("SELECT id FROM editions WHERE date = ?", [LATEST]).fetchone()
    assert answers.vocabulary_numbers(sqlite, latest[0], questions.situations()) == {}


@pytest.mark.parametrize(("anchor", "edition"), [(LATEST, "2009-05-01"), (LATEST, "2016-01-16"),
                                                ("2016-01-16", LATEST)])  # fmt: skip
def test_the_vocabularys_numbers_go_where_where_says(
    kb: Any, monkeypatch: Any, anchor: str, edition: str
) -> None:
    """Each of the vocabulary's numbers, followed from its edition to another (back, or
    forward when the vocabulary's edition is the older), is what `where` says it became
    there; nothing where `where` finds it split off, merged, added or removed."""
    from rules_kb.errors import RulesKbError
    from rules_kb.search import answers

    monkeypatch.setattr(answers, "vocabulary_edition", lambda: anchor)
    conn = kb.reader.conn
    (edition_id,) = conn.execute("SELECT id FROM editions WHERE date = ?", [edition]).fetchone()
    numbers = answers.vocabulary_numbers(conn, edition_id, questions.situations())
    assert len(numbers) > 150
    differ = []
    for number, found in numbers.items():
        try:
            where = kb.where(number, anchor, edition)
        except RulesKbError:
            expected: tuple[str, ...] = ()  # (not a rule of the vocabulary's edition)
        else:
            lost = where.now is None or where.status in ("split", "merged", "added", "removed")
            expected = () if lost else (where.now,)
        if found != expected:
            differ.append((number, found, expected))
    assert not differ


def test_every_labelled_answer_is_a_rule_of_the_edition(kb: Any) -> None:
    """The labels, and the second reading of the fresh questions, name rules that the
    2026-08-07 edition has (a typo in a label would score as a miss for ever)."""
    numbers = set(kb.reader.numbers(LATEST))
    cases = tomllib.loads(QUESTIONS.read_text(encoding="utf-8"))["question"]
    read_twice = [case for case in cases if case["split"].startswith("fresh")]
    assert read_twice and all(case.get("second") for case in read_twice)
    for case in cases:
        for number in (*case["answers"], *case.get("second", ())):
            assert number in numbers, (number, case["q"])


def test_the_labelled_set_stays_above_its_floors(kb: Any) -> None:
    """The floors are what the ranking reached when it was tuned (see docs/benchmarks.md),
    and on the fresh questions what it reached when they were first scored (a sibling of
    the answer counts here too): a change that loses questions fails here before it
    reaches the benchmark."""
    cases = tomllib.loads(QUESTIONS.read_text(encoding="utf-8"))["question"]
    assert len(cases) >= 150
    assert all(case["source"] and case["answers"] for case in cases)
    fresh = [case for case in cases if case["split"] == "fresh"]
    fresh2 = [case for case in cases if case["split"] == "fresh2"]
    fresh3 = [case for case in cases if case["split"] == "fresh3"]
    fresh4 = [case for case in cases if case["split"] == "fresh4"]
    fresh5 = [case for case in cases if case["split"] == "fresh5"]
    assert len(fresh) >= 100 and len(fresh2) >= 70 and len(fresh3) >= 100 and len(fresh4) >= 100
    assert len(fresh5) >= 100
    for group, floor3, floor10 in (
        # 263 and 321 of 373 with 103 situations (257 and 320 with 85; 0.60 and 0.77 before)
        ([case for case in cases if not case["split"].startswith("fresh")], 0.70, 0.85),
        # 66 and 92 of 119 when first scored; 75 and 99 once the third rank of situations
        # was made from their misses (2026-12-04)
        (fresh, 0.62, 0.82),
        # 43 and 56 of 70 when first scored; 54 and 64 with the third rank of situations
        (fresh2, 0.75, 0.9),
        # 84 and 98 of 119 when first scored; 90 and 100 once the fourth rank of situations
        # was made from their misses (2026-12-05)
        (fresh3, 0.75, 0.84),
        (fresh4, 0.68, 0.86),  # 76 and 100 of 117 when first scored; 81 and 102 with the fourth
        (fresh5, 0.59, 0.77),  # 69 and 90 of 116 when first scored (2026-12-05)
    ):
        top3 = top10 = 0
        for case in group:
            found = ranked(kb, case["q"])
            close = {n for a in case["answers"] for n in (a, _parent(a))} | set(case["answers"])
            hits = [i for i, n in enumerate(found) if n in close or _parent(n) in close]
            top3 += bool(hits) and hits[0] < 3
            top10 += bool(hits)
        assert top3 >= floor3 * len(group), (len(group), top3)
        assert top10 >= floor10 * len(group), (len(group), top10)


def _parent(number: str) -> str:
    stripped = number.rstrip("abcdefghijklmnopqrstuvwxyz")
    return stripped if stripped != number else number.split(".")[0]


# the faces -----------------------------------------------------------------------------------


def test_show_answers_a_question_in_the_specs_shape(all_editions_db: Path) -> None:
    question = "what happens to the ETB trigger if the creature dies in response?"
    found = json.loads(ok_cli("show", question, "--db", all_editions_db, "--json").stdout)
    assert found["type"] == "answer" and found["query"] == question
    assert found["edition"] == LATEST
    assert {"words": "etb trigger", "term": "enters the battlefield"}.items() <= found[
        "recognised"
    ][0].items()
    assert 1 <= len(found["answers"]) <= 5
    for answer in found["answers"]:
        assert {"number", "text", "score", "matched"} <= set(answer)
    assert isinstance(found["see_also"], list)


def test_show_text_quotes_the_answer_and_what_it_recognised(all_editions_db: Path) -> None:
    out = ok_cli("show", "does deathtouch work with trample?", "--db", all_editions_db).stdout
    assert "edition 2026-08-07" in out
    assert "recognised deathtouch" in out
    assert "702.2c Any nonzero amount of combat damage" in out
    assert "matched: deathtouch, trample" in out


def test_show_markdown_answers_too(all_editions_db: Path) -> None:
    out = ok_cli(
        "show", "can I respond to a mana ability?", "--format", "markdown", "--db", all_editions_db
    ).stdout
    assert "**605." in out and "2026-08-07" in out


def test_search_hits_say_what_they_matched(all_editions_db: Path) -> None:
    found = json.loads(
        ok_cli("search", "is it 5?", "--db", all_editions_db, "--json").stdout
    )  # once "'5?' is too broad"
    assert found["match"] in {"question", "all", "any"}
    found = json.loads(
        ok_cli(
            "search", "does deathtouch work with trample?", "--db", all_editions_db, "--json"
        ).stdout
    )
    assert found["match"] == "question"
    assert found["hits"][0]["number"] == "702.2c"
    assert found["hits"][0]["matched"] == ["deathtouch", "trample"]
    assert found["recognised"][0]["term"] == "Deathtouch"


def test_mcp_search_answers_a_question_compactly(kb: Any) -> None:
    from rules_kb.mcp.server import found_text

    text = found_text(kb, "does deathtouch work with trample?", "latest", 10)
    assert text.startswith("Comprehensive Rules, edition 2026-08-07")
    assert "702.2c: Any nonzero amount of combat damage" in text
    assert len(text) < 6000
    plain = found_text(kb, "trample", "latest", 10)
    assert "matches for 'trample'" in plain
