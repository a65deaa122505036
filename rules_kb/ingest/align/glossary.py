"""Pass 6 for glossary entries: renames that leave an "(Obsolete)" stub (the stub is
split from the entry that goes on under the new name), entries merged into one or split
in two by their names, entries for a term an old entry named in quotes, entries split
off by what they say or merged into one that came to say them, and entries that went
where the rules they cite tell."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from rules_kb.ingest.align.model import GLOSSARY, Item, Left, went_to
from rules_kb.ingest.align.words import (
    Normalised,
    carries_sentence,
    cited_numbers,
    heading_names,
    is_stub,
    likeness,
    share_within,
    singular,
    word_ids,
)
from rules_kb.ingest.models import glossary_names


def obsolete_stubs(
    old: Sequence[Item],
    new: Sequence[Item],
    pairs: dict[int, int],
    reworded: Left,
    texts: Mapping[int, str],
) -> dict[int, int]:
    """Glossary renames that leave an "(Obsolete)" stub ("Totem Armor" -> "Umbra Armor"
    and "Totem Armor (Obsolete)"): the name pass paired the old entry with its stub; the
    entry carrying the old definition continues it, and the stub was split off it.
    Returns the stubs (new index -> old index)."""
    group = reworded.of(old, new, GLOSSARY)
    new_stubs = {j for j in group.new if is_stub(new[j].key)}
    if not new_stubs:
        return {}
    stubs = {i: j for i, j in pairs.items() if j in new_stubs and not is_stub(old[i].key)}
    if not stubs:
        return {}
    candidates = [j for j in group.new if not is_stub(new[j].key)]
    if not candidates:
        return {}
    olds = list(stubs)
    similarity = likeness(
        [texts[old[i].text_id] for i in olds], [texts[new[j].text_id] for j in candidates]
    )
    owner = {j: i for i, j in pairs.items()}
    split: dict[int, int] = {}
    for row, i in enumerate(olds):
        col = int(similarity[row].argmax())
        best, k = float(similarity[row, col]), candidates[col]
        if best < STUB_ACCEPT or k in split:
            continue
        holder = owner.get(k)
        if holder is not None:
            if holder in stubs:
                continue
            held = likeness([texts[old[holder].text_id]], [texts[new[k].text_id]])[0, 0]
            if best < held + STUB_MARGIN:
                continue
            del pairs[holder]
        pairs[i] = k
        owner[k] = i
        split[stubs[i]] = i
    _stubs_naming(old, new, pairs, stubs, candidates, owner, split, texts)
    return split


def _stubs_naming(
    old: Sequence[Item],
    new: Sequence[Item],
    pairs: dict[int, int],
    stubs: Mapping[int, int],
    candidates: list[int],
    owner: dict[int, int],
    split: dict[int, int],
    texts: Mapping[int, str],
) -> None:
    """A stub that names the entry new in this edition that replaces its old one ("an
    obsolete term for "exile [something]"", "An older name for the Commander casual
    variant"), where the definitions are too unlike to tell: that entry continues the old
    one, and the stub was split off it. Of stubs naming the same entry, the old entry
    most like it continues in it."""
    fresh = [j for j in candidates if j not in owner]
    naming: dict[int, list[int]] = {}
    for i, stub in stubs.items():
        if stub in split:
            continue
        said = f" {' '.join(singular(texts[new[stub].text_id].split()))} "
        named = [j for j in fresh if any(f" {n} " in said for n in heading_names(new[j].key))]
        if len(named) == 1:
            naming.setdefault(named[0], []).append(i)
    for k, olds in naming.items():
        scores = likeness([texts[old[i].text_id] for i in olds], [texts[new[k].text_id]])
        i = olds[int(scores[:, 0].argmax())]
        pairs[i] = k
        owner[k] = i
        split[stubs[i]] = i


def named_stubs(
    old: Sequence[Item],
    new: Sequence[Item],
    pairs: dict[int, int],
    split: dict[int, int],
    reworded: Left,
) -> dict[int, int]:
    """A new "(Obsolete)" stub left alone by the other passes, named after a name that an
    old entry went on without ("Legend (Obsolete)" of 2004-10-01, where "Legend, Legendary"
    went on as "Legendary"; "At End of Turn (Obsolete)" of 2009-07-11, where "End of Turn
    Step" went on as "End Step"): it was split off that entry, when only one fits.
    Returns the stubs (new index -> old index)."""
    group = reworded.of(old, new, GLOSSARY)
    taken = set(pairs.values()) | set(split)
    lone = [j for j in group.new if j not in taken and is_stub(new[j].key)]
    if not lone:
        return {}
    went_on = {
        i: j for i, j in pairs.items() if old[i].kind == "glossary" and old[i].key != new[j].key
    }
    found: dict[int, int] = {}
    for j in lone:
        names = [
            set(name.split()) - _NAME_LINKS for name in heading_names(new[j].key, renamed=False)
        ]
        names = [name for name in names if name]
        fits = [
            i
            for i, k in went_on.items()
            if not is_stub(old[i].key)
            and _names_hold(heading_names(old[i].key, renamed=False), names)
            and not _names_hold(heading_names(new[k].key, renamed=False), names)
        ]
        if len(fits) == 1:
            found[j] = fits[0]
    return found


#: Words that link a name's words and tell no name from another ("At End of Turn").
_NAME_LINKS = frozenset({"a", "an", "at", "from", "in", "of", "on", "the", "to"})


def _names_hold(names: Iterable[str], wanted: list[set[str]]) -> bool:
    """Whether one of `names` holds every word of one of the `wanted` word sets."""
    return any(words <= set(name.split()) for name in names for words in wanted)


STUB_ACCEPT = 0.5
"""Likeness of definitions at which an entry continues one whose name went to a stub."""
STUB_MARGIN = 0.1
"""How much more like the old definition it must be than what it continued before."""


def named_parts(
    old: Sequence[Item],
    new: Sequence[Item],
    pairs: dict[int, int],
    split: dict[int, int],
    merged: dict[int, int],
    reworded: Left,
) -> None:
    """Entries joined or parted under their names. An old entry left over that shares a
    name with just one new entry, which continues another, was merged into it; of the
    two, the one the new heading names first is the core ("Legend/Legend Rule" and
    "Legendary" became "Legend/Legendary" in 1999-11-01). A new entry left over whose
    names are all names of just one old entry, which continues elsewhere, was split from
    it ("Trigger" from "Trigger, Triggered Ability" of 2009-05-01)."""
    group = reworded.of(old, new, GLOSSARY)
    owner = {j: i for i, j in pairs.items()}
    old_names = {i: heading_names(old[i].key) for i in group.old if not is_stub(old[i].key)}
    new_names = {j: heading_names(new[j].key) for j in group.new if not is_stub(new[j].key)}
    for i, names in old_names.items():
        if i in pairs or i in merged:
            continue
        homes = [j for j, others in new_names.items() if names & others]
        if len(homes) != 1 or homes[0] not in owner:
            continue
        j = homes[0]
        core = owner[j]
        first = heading_names(_first_name(new[j].key))
        if first & names and not first & old_names.get(core, frozenset()):
            del pairs[core]
            merged[core] = j
            pairs[i] = j
            owner[j] = i
        else:
            merged[i] = j
    for j, names in new_names.items():
        if j in owner or j in split:
            continue
        sources = [i for i, others in old_names.items() if names <= others]
        if len(sources) == 1 and sources[0] in pairs:
            split[j] = sources[0]


QUOTED_HELD = 0.5
"""The share of a new entry's words that the old entry which named its term in quotes
must hold, for the new entry to be what that old one said of it."""

#: A phrase in double quotes, straight or curly.
_QUOTED = re.compile(r'["\u201c]([^"\u201c\u201d]+)["\u201d]')


def quoted_terms(
    old: Sequence[Item],
    new: Sequence[Item],
    pairs: Mapping[int, int],
    split: dict[int, int],
    reworded: Left,
    texts: Normalised,
) -> None:
    """A new entry left over for a term that one old entry named in quotes as it said what
    the term is ("This "world rule" is a state-based effect." in "World" of 2009-05-01),
    and that the entry went on without, was split from it ("World Rule" of 2009-07-11;
    "In Response To" from "Respond, Response (Informal)"): where that old entry holds
    QUOTED_HELD of the new entry's words. A term merely quoted ("a Forest is type
    "forest"" in "Land Type" of 2003-03-15) says little of the new entry ("Forest")."""
    group = reworded.of(old, new, GLOSSARY)
    lone = _entries_left(new, group.new, pairs, split)
    if not lone:
        return
    named: dict[str, list[int]] = {}
    for i in group.old:
        j = pairs.get(i)
        if j is None:
            continue
        dropped = _quoted(texts.raw[old[i].text_id]) - _quoted(texts.raw[new[j].text_id])
        for term in dropped:
            named.setdefault(term, []).append(i)
    for j in lone:
        sources = {i for name in heading_names(new[j].key) for i in named.get(name, ())}
        if len(sources) != 1:
            continue
        (i,) = sources
        said = set(word_ids(texts[old[i].text_id]))
        if share_within(word_ids(texts[new[j].text_id]), said) >= QUOTED_HELD:
            split[j] = i


CARRIED_ENTRY_HELD = 0.7
"""The share of a new entry's words that an old entry which went on must hold, for the
new entry to be what that entry lost, said apart (`carried_entries`), ..."""
CARRIED_ENTRY_LOST = 0.5
"""... where it carries this share of the words the old entry lost, ..."""
CARRIED_ENTRY_WORDS = 10
"""... and at least this many of them."""
CARRIED_ENTRY_ALL = 0.9
"""Or the share of its words the old entry must hold where it carries a paragraph of it
alone, at least CARRIED_ENTRY_FEW of the words that entry lost ("Tap Symbol" of
2009-07-11 from "Tap", which kept turning a permanent sideways)."""
CARRIED_ENTRY_FEW = 5


def carried_entries(
    old: Sequence[Item],
    new: Sequence[Item],
    pairs: Mapping[int, int],
    split: dict[int, int],
    reworded: Left,
    texts: Normalised,
) -> None:
    """A new entry left over that says apart what one old entry lost, as that entry went on,
    was split from it: the old entry holds CARRIED_ENTRY_HELD of its words, and it carries
    CARRIED_ENTRY_LOST (and CARRIED_ENTRY_WORDS) of the words the old entry lost ("Attach"
    of 2005-08-01 from "Move", which went on to speak of counters alone; "Active Player,
    Nonactive Player Rule" of 2003-07-01 from "Active Player"), or the old entry holds
    CARRIED_ENTRY_ALL of its words and it carries CARRIED_ENTRY_FEW of those lost ("Untap
    Step" of 2003-07-01 from "Untap"; "Tap Symbol" of 2009-07-11 from "Tap"). A new entry
    built of what the old one kept is only like it."""
    group = reworded.of(old, new, GLOSSARY)
    lone = _entries_left(new, group.new, pairs, split)
    if not lone:
        return
    said: dict[int, set[int]] = {}
    lost: dict[int, set[int]] = {}
    for i in group.old:
        j = pairs.get(i)
        if j is not None:
            said[i] = set(word_ids(texts[old[i].text_id]))
            gone = said[i] - set(word_ids(texts[new[j].text_id]))
            if len(gone) >= CARRIED_ENTRY_FEW:
                lost[i] = gone

    def carried(mine: tuple[int, ...], i: int) -> tuple[float, int] | None:
        """How much of the new entry old `i` holds, and how many words it lost the new
        one carries, where that is enough to be their source."""
        count = len(lost[i].intersection(mine))
        held = share_within(mine, said[i])
        if (held >= CARRIED_ENTRY_ALL and count >= CARRIED_ENTRY_FEW) or (
            held >= CARRIED_ENTRY_HELD
            and count >= max(CARRIED_ENTRY_WORDS, CARRIED_ENTRY_LOST * len(lost[i]))
        ):
            return held, count
        return None

    for j in lone:
        mine = word_ids(texts[new[j].text_id])
        # The source holding most of it, by a word: "Tap Symbol" of 2009-07-11 is all in
        # "Tap", not quite all in "Untap", which said the same of the untap symbol.
        found = sorted(
            ((both, i) for i in lost if (both := carried(mine, i)) is not None), reverse=True
        )
        if found and (len(found) == 1 or found[0][0] > found[1][0]):
            split[j] = found[0][1]


def said_entries(
    old: Sequence[Item],
    new: Sequence[Item],
    pairs: Mapping[int, int],
    merged: dict[int, int],
    reworded: Left,
    texts: Normalised,
) -> None:
    """An old entry left over whose every sentence one continued entry came to say,
    word for word or almost, was merged into it: "Suspended" of 2009-05-01 ("A card is
    'suspended' if it's in the removed-from-the-game zone, has suspend, and has a time
    counter on it.") into "Suspend", which says so since 2009-07-11 (renames applied)."""
    group = reworded.of(old, new, GLOSSARY)
    left = [i for i in group.old if i not in pairs and i not in merged]
    reworded_new = set(group.new)
    continued = [(k, j) for k, j in pairs.items() if j in reworded_new] if left else []
    for i in left:
        mine = texts.sentences(old[i].text_id)
        if not mine:
            continue
        homes = [
            j
            for k, j in continued
            if all(carries_sentence(texts, sentence, new[j].text_id) for sentence in mine)
            and not any(carries_sentence(texts, sentence, old[k].text_id) for sentence in mine)
        ]
        if len(homes) == 1:
            merged[i] = homes[0]


def _entries_left(
    new: Sequence[Item], group: Sequence[int], pairs: Mapping[int, int], split: Mapping[int, int]
) -> list[int]:
    """The new entries of `group` neither paired nor split off yet, stubs aside."""
    taken = set(pairs.values()) | set(split)
    return [j for j in group if j not in taken and not is_stub(new[j].key)]


def _quoted(text: str) -> frozenset[str]:
    """The phrases a text puts in double quotes, compared as glossary names are."""
    return frozenset(name for phrase in _QUOTED.findall(text) for name in heading_names(phrase))


def _first_name(term: str) -> str:
    """The first of the names a heading stands for ("Legend" of "Legend/Legendary")."""
    names = glossary_names(term.replace("/", ", "))
    return names[1] if len(names) > 1 else names[0]


def cited_heirs(
    old: Sequence[Item],
    new: Sequence[Item],
    pairs: Mapping[int, int],
    merged: dict[int, int],
    reworded: Left,
    texts: Mapping[int, str],
    went: Mapping[str, frozenset[str]],
) -> None:
    """An old entry left over whose name holds the whole name of a new entry that
    continues another, which has come to cite a rule that the old entry cited, as it went,
    and that its own old entry did not cite, was merged into it: "Colorless mana" of
    2009-05-01, citing 104.3d, into "Colorless", which cites 107.4c, where 104.3d went
    (`went`: where the rules' alignment of the same editions took each old rule; one not
    in it kept its number). Where neither names nor definitions tell, the rules cited do."""
    group = reworded.of(old, new, GLOSSARY)
    olds = [i for i in group.old if i not in pairs and i not in merged and not is_stub(old[i].key)]
    if not olds:
        return
    reworded_new = set(group.new)
    # What each new entry that continues an old one has come to cite, as the rules went.
    gained = {
        j: cited_numbers(texts[new[j].text_id])
        - went_to(cited_numbers(texts[old[i].text_id]), went)
        for i, j in pairs.items()
        if j in reworded_new
    }
    for i in olds:
        mine = went_to(cited_numbers(texts[old[i].text_id]), went)
        if not mine:
            continue
        words = {word for name in heading_names(old[i].key) for word in name.split()}
        homes = [
            j
            for j, cites in gained.items()
            if mine & cites and any(set(name.split()) < words for name in heading_names(new[j].key))
        ]
        if len(homes) == 1:
            merged[i] = homes[0]


CITED_RENAME_HELD = 0.6
"""Share of a new entry's words its old definition must hold for the entry to be that one
renamed, where it cites where the old one's rules went (`cited_renames`)."""


def cited_renames(
    old: Sequence[Item],
    new: Sequence[Item],
    pairs: dict[int, int],
    split: Mapping[int, int],
    merged: Mapping[int, int],
    texts: Normalised,
    went: Mapping[str, frozenset[str]],
) -> None:
    """An old entry left over, and a new entry left over that cites a rule where the rules
    the old one cited went, most of whose words (CITED_RENAME_HELD) the old definition
    held: the one entry renamed, where no other new entry left over is both ("Infinity
    Rule (Informal)" of 2009-05-01, "... a set of actions could be repeated forever ...
    See rule 421", is "Loop" of 2009-07-11, "A set of actions that could be repeated
    indefinitely. See rule 713", where 421 went; "Shortcut" cites 713 too but says
    another thing)."""
    entries = [j for j, item in enumerate(new) if item.kind == "glossary"]
    lone_new = _entries_left(new, entries, pairs, split)
    if not lone_new:
        return
    taken: set[int] = set()  # (paired by this pass)
    cites = {j: cited_numbers(texts.raw[new[j].text_id]) for j in lone_new}
    for i, item in enumerate(old):
        if item.kind != "glossary" or i in pairs or i in merged or is_stub(item.key):
            continue
        mine = went_to(cited_numbers(texts.raw[item.text_id]), went)
        if not mine:
            continue
        said = set(word_ids(texts[item.text_id]))
        homes = [
            j
            for j in lone_new
            if j not in taken
            and mine & cites[j]
            and share_within(word_ids(texts[new[j].text_id]), said) >= CITED_RENAME_HELD
        ]
        if len(homes) == 1:
            pairs[i] = homes[0]
            taken.add(homes[0])
