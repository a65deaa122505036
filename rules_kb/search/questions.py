"""Questions as people type them: is a query syntax or plain language, what are its words,
and which of the rules' concepts does it name.

A judge types "does deathtouch work with trample?", "it's a 1/1, right?", "what does
"dies" mean (for Blood Artist)?". None of that punctuation is query syntax: a `?` ending
a word, apostrophes, quotes around one word, slashes and braces in `1/1`, `+1/+1`, `{T}`,
and parentheses holding a remark are read as punctuation or as the token they are. A
query is syntax only where it is clearly written as one: AND/OR/NOT in capitals (in a
query that is not all capitals), a quoted phrase of several words, `word*`, `word~`, or a
`?` inside a word.

The concepts of a question come from three places: the judge's vocabulary in
``data/vocabulary.toml`` (ETB, fizzle, chump block, commander tax...), and, per edition,
the glossary's names and the headings of the keyword rules (deathtouch, first strike).
The same file holds situations, told by words that come together rather than by one of
them ("target", "in response", "sacrificed": a target illegal on resolution). Its rule
numbers are those of its `edition`; `rules_kb.search.answers` follows them to the
edition asked. This module imports nothing heavy; stemming is the caller's (the search
index's).
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache
from itertools import pairwise
from typing import Any

from rules_kb.resources import read_text
from rules_kb.typography import fold

#: Words of a question asked in plain English, and filler words: they never decide a match.
QUESTION_WORDS = frozenset(
    """
    what whats happens happen happened when whenever how does do did doesn't don't didn't
    why which who whom whose where is isn't are aren't was wasn't were can can't cannot
    could couldn't should shouldn't would wouldn't will won't i i'm i've me my mine we our
    you your yours if there it it's its a an the this that these those then than so and or
    but not no yes to of in on at by for with from into onto as be been being am have has
    had get gets got still also just only even really actually any some ever way work works
    working worked mean means meant rule rules ruling happen still right ok okay correct
    true false exactly thing things someone something anyone anything one ones like
    say says said let lets need needs want wants allowed able possible
    they them their theirs he him his she her hers us itself themselves
    here about please anyway basically hi hello thanks thank question wondering wonder
    curious confused sure know think understand assume guess pretty simply help
    """.split()  # noqa: SIM905
)
#: Words that, leading a query, make it a question.
_ASKING = frozenset(
    {
        "what",
        "whats",
        "how",
        "does",
        "do",
        "did",
        "why",
        "which",
        "who",
        "when",
        "where",
        "is",
        "are",
        "was",
        "were",
        "can",
        "could",
        "should",
        "would",
        "will",
        "if",
        "whose",
        "whom",
    }
)
_OPERATORS = frozenset({"AND", "OR", "NOT", "ANDNOT", "ANDMAYBE"})
#: A token of a question: a P/T or counter ("1/1", "+1/+1", "x/x"), a mana or tap symbol
#: ("{T}", "{2}{U}"), a rule number, or a word with its inner apostrophes (a hyphen parts
#: words: "pro-red" is "pro red", "summoning-sick" the vocabulary's "summoning sick").
_TOKEN = re.compile(
    r"[+-]?[0-9xX*]+/[+-]?[0-9xX*]+"
    r"|(?:\{[^{}\s]{1,5}\})+"
    r"|\d{3}\.\d+[a-z]{0,2}"
    r"|[A-Za-z0-9]+(?:'[A-Za-z0-9]+)*"
)
_SYNTAX_WORD = re.compile(r"(?<![\w'])[A-Za-z]{2,}[A-Za-z0-9]*(?:\*|~\d*(?:/\d+)?)(?=\s|$|\))")
_INNER_WILDCARD = re.compile(r"[A-Za-z]\?[A-Za-z]")
_PHRASE = re.compile(r'"([^"]+)"')
#: A plain query of this many words or more that does not end as a sentence does is read
#: as a described situation, a question.
SITUATION_WORDS = 6
#: The most words of a question that count: a pasted paragraph is read by its first ones.
MAX_QUESTION_WORDS = 40


def is_syntax(text: str) -> bool:
    """Whether a query is written as query syntax (see the module docstring)."""
    words = text.split()
    shouting = text.upper() == text
    if not shouting and any(word in _OPERATORS for word in words):
        return True
    if any(len(phrase.split()) > 1 for phrase in _PHRASE.findall(text)):
        # A phrase to find, unless it quotes a card in a question or a sentence.
        rest = _PHRASE.sub(" ", text)
        return not (rest.rstrip().endswith("?") or len(rest.split()) > 3)
    return bool(_SYNTAX_WORD.search(text) or _INNER_WILDCARD.search(text))


def tokens(text: str) -> list[str]:
    """The tokens of a plain-language query, lower case, punctuation read as punctuation:
    "it's a 1/1 with {T}?" -> ["it's", "a", "1/1", "with", "{t}"]."""
    found = [match.group().lower() for match in _matches(fold(text))]
    return [token[:-2] if token.endswith("'s") else token for token in found]


def shown(token: str) -> str:
    """A token as an answer shows it matched: a symbol in capitals, as printed ("{C}")."""
    return token.upper() if token[:1] == "{" else token


@lru_cache(maxsize=20_000)
def _phrase(written: str) -> tuple[str, ...]:
    """The tokens of a lexicon's phrase, read once per process (every edition's glossary
    names them again)."""
    return tuple(tokens(written))


def _matches(folded: str) -> list[re.Match[str]]:
    """The tokens of a folded question as matches (where each stands), the first ones that
    count."""
    return list(_TOKEN.finditer(folded))[: MAX_QUESTION_WORDS * 2]


def capitalised(text: str) -> list[bool]:
    """For each token of :func:`tokens`, whether it is written as a name mid-sentence
    ("Llanowar", "Bolt"; not "ETB", not a sentence's first word): most likely a card's
    name."""
    folded = fold(text)
    found = _matches(folded)
    cited = {at for start, end in cited_cards(text) for at in range(start, end)}
    words = [match.group() for match in found if match.group()[:1].isalpha()]
    if len(words) >= 3 and sum(word[:1].isupper() for word in words) >= TITLE_CASE * len(words):
        # A headline ("Can Planeswalkers Deal Commander Damage?"): capitals name nothing.
        return [at in cited for at in range(len(found))]
    result: list[bool] = []
    for at, match in enumerate(found):
        token, before = match.group(), folded[: match.start()]
        if at in cited:
            result.append(True)  # "[[super state]]", "{Domri Rade}": a card, as cited
            continue
        if before.endswith("-") and result:  # "Two-Headed": one word, one mark
            result.append(result[-1])
            continue
        starts = not before.rstrip() or before.rstrip()[-1] in _SENTENCE_ENDS
        result.append(not starts and token[:1].isupper() and not token.isupper() and token != "I")
    return result


def breaks(text: str) -> frozenset[int]:
    """The tokens of :func:`tokens` that punctuation ends ("artifact, creature": 0): no
    phrase of the vocabulary runs across a comma or a sentence's end."""
    folded = fold(text)
    found = _matches(folded)
    return frozenset(
        at
        for at, (match, after) in enumerate(pairwise(found))
        if _PUNCTUATION.search(folded, match.end(), after.start())
    )


#: Punctuation that ends a phrase.
_PUNCTUATION = re.compile(r"[,;:.!?]")


def cited_cards(text: str) -> list[tuple[int, int]]:
    """The runs of tokens (start, end) of cards cited the way forums and card bots write
    them, in double brackets or braces ("[[Agrus Kos, Eternal Soldier]]", "{Domri Rade}"):
    a card's name, whatever its words."""
    folded = fold(text)
    quoted = [match.span() for match in _CARD_QUOTE.finditer(folded)]
    runs: list[tuple[int, int, int]] = []  # (start, end, which citation)
    for at, match in enumerate(_matches(folded)):
        for span, (start, end) in enumerate(quoted):
            if start <= match.start() < end:
                if runs and runs[-1][2] == span:
                    runs[-1] = (runs[-1][0], at + 1, span)
                else:
                    runs.append((at, at + 1, span))
    return [(start, end) for start, end, _span in runs]


#: A card cited in double brackets, or in braces holding a space ("{Domri Rade}"; "{2}{U}"
#: and "{T}" are symbols).
_CARD_QUOTE = re.compile(r"\[\[[^\[\]]+\]\]|\{[^{}]*[A-Za-z][^{}]*\s[^{}]*\}")


#: At most this many card names are told back (a long post names many).
MAX_CARDS = 4


def card_names(text: str, covered: Iterable[int], used: Callable[[str], bool]) -> list[str]:
    """The cards a question names, as written: runs of words written as one name
    mid-sentence ("Llanowar Elves", "Xenagos, God of Revels"), cards cited in brackets, and
    single names the rules never use (`used` says whether they use a token) ("Humility");
    none of them a term the question was read as (`covered`: its tokens). The rules hold
    no card's text: the caller tells the asker so."""
    folded = fold(text)
    found = _matches(folded)
    marks = capitalised(text)
    taken = set(covered)
    spans = sorted({*name_runs(text, marks), *cited_cards(text)})
    spans = [(a, b) for a, b in spans if not all(at in taken for at in range(a, b))]
    within = {at for a, b in spans for at in range(a, b)}
    spans += [
        (at, at + 1)
        for at, marked in enumerate(marks)
        if marked and at not in within and at not in taken and not used(found[at].group())
    ]
    names: list[str] = []
    for start, end in sorted(spans):
        name = folded[found[start].start() : found[end - 1].end()].strip("[]{} ")
        name = re.sub(r"['’]s$", "", name)
        if not any(name.lower() in known.lower() for known in names):
            names.append(name)
    return names[:MAX_CARDS]


#: The share of a question's words written with a capital from which it is a headline.
TITLE_CASE = 0.75


def name_runs(text: str, marks: Sequence[bool] | None = None) -> list[tuple[int, int]]:
    """The runs of tokens (start, end) written as one name of two words or more mid-sentence
    ("Death's Shadow", "Leyline of the Void"): most likely a card's, whose words name no
    rule even where one of them is a term ("Shadow"). `marks` are the text's
    :func:`capitalised`, when the caller has them already."""
    if marks is None:
        marks = capitalised(text)
    found = tokens(text)
    runs: list[tuple[int, int]] = []
    at = 0
    while at < len(marks):
        if not marks[at]:
            at += 1
            continue
        end = at + 1
        while True:
            step = end
            while step < len(marks) and not marks[step] and found[step] in _NAME_LINKS:
                step += 1
            if step < len(marks) and marks[step]:
                end = step + 1
                continue
            break
        if end - at > 1:
            runs.append((at, end))
        at = end
    return runs


#: What ends a sentence (or opens a remark) before a word: the next one is not a name.
_SENTENCE_ENDS = frozenset(".!?:;(\"'-")
#: Small words inside a card's name ("Leyline of the Void", "Kindle the Carnage").
_NAME_LINKS = frozenset({"of", "the"})


def plain_text(text: str) -> str:
    """The query as plain words for the search parser: no punctuation it could read as
    syntax (question marks, quotes, parentheses, slashes), operators in lower case; a mana
    or tap symbol stays whole ("{T}", "{2}{U}"), as the index reads it; a rule number
    alone without the word that names it ("rule 702.19b", "CR 702.19b")."""
    found = tokens(text)
    if len(found) == 2 and found[0] in _NUMBER_NAMES and _RULE_NUMBER.fullmatch(found[1]):
        return found[1]  # (not "see rule 104.3h" inside a sentence: its words are sought)
    return " ".join(
        token for token in found if token[0] == "{" or (token[0] not in "+-" and "/" not in token)
    )


#: Words that name the rule number after them ("rule 702.19b", "CR 702.19b").
_NUMBER_NAMES = frozenset({"rule", "rules", "cr", "r"})
_RULE_NUMBER = re.compile(r"\d{3}\.\d+[a-z]{0,2}")


def asks(text: str) -> bool:
    """Whether a plain query asks: a "?" ends it or one of its sentences, it opens with a
    question word ("does", "can", "what"…), or it is mana or tap symbols alone ("{C}",
    which asks what the symbol means). A described situation does not ask."""
    found = tokens(text)
    if not found:
        return False
    if "?" in text.rstrip()[-1:] or "? " in text or found[0] in _ASKING:
        return True
    return all(token[0] == "{" for token in found)


def may_be_copied(text: str) -> bool:
    """Whether a query read as a question may be a passage pasted from the rules instead
    ("If a creature with deathtouch deals damage to"): it has no "?" and six different
    words or more. The search looks for it word for word before answering it."""
    return "?" not in text and len(set(tokens(text))) >= SITUATION_WORDS


def is_question(text: str) -> bool:
    """Whether a plain query reads as a question rather than words to look up: it asks
    ("does deathtouch work with trample?", "trample?", a "?" ending a sentence in it), or
    it describes a situation in six words or more without ending as a sentence copied
    from the rules would, or it is mana or tap symbols alone ("{C}"). Any other plain
    query is searched for first, and answered as a question when no text has all of its
    words."""
    if asks(text):
        return True
    # a situation described in words ("cast Lightning Bolt on a creature with hexproof"),
    # not a sentence copied from the rules (which ends with a full stop or a colon)
    sentence_end = text.rstrip().endswith((".", ":", '"', ")"))
    return len(set(tokens(text))) >= SITUATION_WORDS and not sentence_end


# the vocabulary -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry of the judge's vocabulary, or a name the edition itself defines."""

    words: tuple[str, ...]
    """How people write it, lower case ("etb", "enters the battlefield")."""
    term: str
    """The CR's name for it, shown as what was recognised."""
    means: tuple[str, ...] = ()
    """The CR's words for it, searched for in the rules."""
    rules: tuple[str, ...] = ()
    """The rules it is about; they and their subrules rank higher."""
    reason: str = ""
    """Why the mapping holds."""
    broad: bool = False
    """A word of a question's setting more than of its subject ("cast", "in response")."""


@cache
def _vocabulary_text() -> str:
    return read_text("rules_kb.data", "vocabulary.toml")


@cache
def _vocabulary_data() -> dict[str, Any]:
    return tomllib.loads(_vocabulary_text())


@cache
def vocabulary_edition() -> str | None:
    """The edition whose rule numbers the vocabulary gives (its entries' and situations'
    `rules`); None if it does not say."""
    found = _vocabulary_data().get("edition")
    return str(found) if found else None


@cache
def vocabulary_digest() -> str:
    """A digest of the judge's vocabulary as shipped and of the question words (which keep
    glossary names out of it): what was made from them is stale when this changes."""
    words = " ".join(sorted(QUESTION_WORDS))
    text = f"{_vocabulary_text()}\n{words}"
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


@cache
def vocabulary() -> tuple[Entry, ...]:
    """The judge's vocabulary shipped in ``data/vocabulary.toml``."""
    data = _vocabulary_data()
    return tuple(
        Entry(
            words=tuple(str(word).lower() for word in item["words"]),
            term=str(item["term"]),
            means=tuple(str(word) for word in item.get("means", ())),
            rules=tuple(str(number) for number in item.get("rules", ())),
            reason=str(item.get("reason") or item.get("source") or ""),
            broad=bool(item.get("broad", False)),
        )
        for item in data["entry"]
    )


#: A phrase of a situation: its tokens as written, and their stems ("sacrificed": "sacrif").
Phrase = tuple[tuple[str, ...], tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class Situation:
    """A situation judges are asked about, told by words that come together in a question
    ("in response", "sacrificed", "target": a target illegal on resolution, 608.2b)."""

    name: str
    """What it is, shown as what was recognised."""
    when: tuple[tuple[Phrase, ...], ...]
    """Groups of phrases: a question tells the situation when it holds a phrase of every
    group."""
    rules: tuple[str, ...]
    """The rules that answer it."""
    reason: str
    """Why they do."""

    def entry(self) -> Entry:
        """The situation as a vocabulary entry: its name and rules, no words of its own."""
        return Entry(words=(), term=self.name, rules=self.rules, reason=self.reason)


@cache
def situations(normal: Callable[[str], str] | None = None) -> tuple[Situation, ...]:
    """The situations of the judge's vocabulary (``[[situation]]`` in vocabulary.toml), each
    phrase with its tokens' stems by `normal` (a stemmer; the tokens themselves without)."""
    data = _vocabulary_data()

    def phrase(written: object) -> Phrase:
        found = _phrase(str(written).lower())
        return found, tuple((normal(token) or token) if normal else token for token in found)

    return tuple(
        Situation(
            name=str(item["name"]),
            when=tuple(tuple(phrase(written) for written in group) for group in item["when"]),
            rules=tuple(str(number) for number in item["rules"]),
            reason=str(item["reason"]),
        )
        for item in data.get("situation", ())
    )


def renumber(rules: Sequence[str], numbers: Mapping[str, tuple[str, ...]]) -> tuple[str, ...]:
    """Rule numbers as `numbers` gives them in another edition (a number it does not name
    stays; one it maps to nothing is dropped)."""
    return tuple(dict.fromkeys(found for rule in rules for found in numbers.get(rule, (rule,))))


#: What stands between the phrases that told a situation in what was recognised ("target
#: … in response … sacrificed"): they are words apart, not one run of the question.
SITUATION_JOIN = " … "


def situations_in(
    found: Sequence[str],
    told: Sequence[Situation],
    normal: Callable[[str], str] | None = None,
) -> list[Recognised]:
    """The situations of `told` that a question's tokens tell, each as recognised: its words
    the phrases that told it, in the question's order ("target … in response …
    sacrificed"). With `normal` (the stemmer the situations were read with), "sacrificed"
    is "sacrifice" too."""
    normalised = [normal(token) or token for token in found] if normal else list(found)
    where: dict[str, list[int]] = {}  # token or stem -> its positions
    for position, (token, form) in enumerate(zip(found, normalised, strict=True)):
        where.setdefault(token, []).append(position)
        if form != token:
            where.setdefault(form, []).append(position)

    def at(phrase: Phrase) -> int | None:
        written, forms = phrase
        width = len(written)
        candidates: set[int] = {*where.get(written[0], ()), *where.get(forms[0], ())}
        for start in sorted(candidates):
            if start + width <= len(found) and all(
                found[start + k] == written[k] or normalised[start + k] == forms[k]
                for k in range(1, width)
            ):
                return start
        return None

    result: list[Recognised] = []
    for situation in told:
        spans: list[tuple[int, int]] = []
        for group in situation.when:
            named = [(start, len(p[0])) for p in group if (start := at(p)) is not None]
            if not named:
                break
            start, width = min(named)
            spans.append((start, start + width))
        else:
            spans.sort()
            words = SITUATION_JOIN.join(" ".join(map(shown, found[a:b])) for a, b in spans)
            result.append(Recognised(words, situation.entry(), spans[0][0], spans[-1][1]))
    return result


@dataclass(frozen=True, slots=True)
class Recognised:
    """A concept a question names: the words as typed and what they mean."""

    words: str
    """The question's words, as tokens joined by spaces ("etb")."""
    entry: Entry
    """What they were recognised as."""
    start: int
    """The first token's position in the question."""
    end: int
    """One past the last token's position."""


@dataclass(slots=True)
class Lexicon:
    """Phrases to recognise, by their first token: each phrase a tuple of tokens."""

    phrases: dict[str, list[tuple[tuple[str, ...], Entry]]] = field(default_factory=dict)
    singles: dict[str, tuple[int, Entry]] | None = None
    """One-word phrases by their stem, made on the first stemmed match."""

    def add(self, words: Iterable[str], entry: Entry) -> None:
        """Recognise each of `words` (phrases of tokens) as `entry`."""
        for written in words:
            found = _phrase(written)
            if found:
                self.phrases.setdefault(found[0], []).append((found, entry))
        self.singles = None

    def copy(self) -> Lexicon:
        """A lexicon of the same phrases, to add more to."""
        return Lexicon({first: list(options) for first, options in self.phrases.items()})

    def renumbered(self, numbers: Mapping[str, tuple[str, ...]]) -> Lexicon:
        """A lexicon of the same phrases, its entries' rules replaced by what `numbers`
        gives for them (a number it does not name stays)."""
        entries: dict[Entry, Entry] = {}

        def moved(entry: Entry) -> Entry:
            found = entries.get(entry)
            if found is None:
                found = entries[entry] = replace(entry, rules=renumber(entry.rules, numbers))
            return found

        return Lexicon(
            {
                first: [(phrase, moved(entry)) for phrase, entry in options]
                for first, options in self.phrases.items()
            }
        )

    def sort(self) -> None:
        """Longest phrases first, so that the longest match wins."""
        for options in self.phrases.values():
            options.sort(key=lambda option: -len(option[0]))

    def recognise(
        self,
        found: Sequence[str],
        normal: Callable[[str], str] | None = None,
        ends: frozenset[int] = frozenset(),
    ) -> list[Recognised]:
        """The concepts named in a list of tokens, longest match first, never overlapping.

        With `normal` (a stemmer), "tramples" matches a phrase "trample" too; no phrase
        runs past a token in `ends` (see :func:`breaks`)."""
        result: list[Recognised] = []
        at = 0
        normalised = [normal(token) or token for token in found] if normal else None
        while at < len(found):
            match = self._match(found, at, normalised, normal, ends)
            if match is None:
                at += 1
                continue
            length, entry = match
            words = " ".join(map(shown, found[at : at + length]))
            result.append(Recognised(words, entry, at, at + length))
            at += length
        return result

    def spells(self, token: str) -> bool:
        """Whether a token is one of the one-word phrases as written (not only its stem)."""
        return any(phrase == (token,) for phrase, _entry in self.phrases.get(token, ()))

    def _match(
        self,
        found: Sequence[str],
        at: int,
        normalised: list[str] | None,
        normal: Callable[[str], str] | None,
        ends: frozenset[int] = frozenset(),
    ) -> tuple[int, Entry] | None:
        for phrase, entry in self.phrases.get(found[at], ()):
            if tuple(found[at : at + len(phrase)]) == phrase and not any(
                end in ends for end in range(at, at + len(phrase) - 1)
            ):
                return len(phrase), entry
        if normalised is None or normal is None:
            return None
        return self._single(normal).get(normalised[at])

    def _single(self, normal: Callable[[str], str]) -> dict[str, tuple[int, Entry]]:
        """One-word phrases by their normal form (their stem), made once."""
        if self.singles is None:
            self.singles = {}
            for options in self.phrases.values():
                for phrase, entry in options:
                    if len(phrase) == 1:
                        self.singles.setdefault(normal(phrase[0]) or phrase[0], (1, entry))
        return self.singles


@cache
def vocabulary_lexicon() -> Lexicon:
    """The judge's vocabulary, ready to recognise."""
    lexicon = Lexicon()
    for entry in vocabulary():
        lexicon.add(entry.words, entry)
    lexicon.sort()
    return lexicon
