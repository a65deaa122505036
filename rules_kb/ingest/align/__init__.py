"""Align two editions: pair each rule (or glossary entry) of the old with its counterpart.

Passes, cheapest first; each works on what the previous ones left:

1. identical: same number (or term) and the same stored text (texts are deduplicated,
   so equal text ids mean equal texts) - this settles almost every rule of two
   consecutive editions;
2. typography: same number (or term) and the same wording once typography is folded
   (`rules_kb.typography.key`): curly quotes, dashes, "_Magic_" and the like are never
   a reason to look further;
3. moved: a wording that occurs once among the leftovers of each side is the same rule
   under another number (trample 702.18 -> 702.19 in July 2013); then the same for the
   normalised wording below (renames applied, rule numbers masked);
4. renamed (glossary): an entry that shares a name with exactly one leftover entry
   ("Kicker" -> "Kicker, Kicked", "Mana Burn" -> "Mana Burn (Obsolete)");
5. fuzzy: the rest, level by level (headings, rules, subrules), by similarity of
   normalised words (rapidfuzz) plus small bonuses for keeping the number or staying
   under the counterpart of the old parent, with a one-to-one assignment that
   maximises the total score (the Hungarian method, scipy's linear_sum_assignment),
   never greedy first matches. A rule (not a heading) that keeps its number and its
   parent is the same rule when it was rewritten but still shares words with its old
   self, unless a better counterpart exists elsewhere: the assignment prefers the better
   total; a short rule shares enough where most of its words stand in the rewrite
   ("Instants have no subtypes." 212.5c of 2004-06-01 is 212.5c, "Instant subtypes are
   always single words ..."). A rule paired under another number where a rule left
   over is nearly as like it, and like no other old rule more, goes on in the one that
   says what it said first, and no less of the rest (200.7a of 2009-05-01, on the
   controllers of three kinds of abilities, is 112.7, which says all three, not 603.3a,
   which says the last two). A subrule whose parent's line is known and that keeps its
   letters under it follows it on less likeness (a keyword's definition rewritten,
   "triggered" -> "static", follows its keyword). A glossary name held whole in another ("Order",
   "Damage Assignment Order") counts for nothing where the definitions are unalike and
   the rules they cite are unrelated, as the rules' alignment moved them. The same words
   said of another keyword are another rule, here and wherever a number or a sentence
   would pair them: "Multiple instances of banding ... are redundant." (502.10i of
   2009-05-01; banding went on as 702.19) is not "Multiple instances of intimidate ..."
   (702.11c), unless the two keywords are one renamed (two rules or more alike);
6. splits and merges: a record left new whose words are almost all those of one old
   record was split off it (420.5a of 1999-11-01: the life clause stays 420.5a, the draw
   clause becomes 420.5g), where it holds what the old record's counterpart lost: words
   enough, or a phrase of it whole (the case 408.1d of 2009-05-01 named beside the one
   115.1a kept, "an activated ability", said by 115.1b), though not what it said only
   inside quotation marks (a template the edition rewrote everywhere: 602.5f of
   2021-04-22, quoting what 605.1 quoted before, is new), nor where it is another part
   written again, in its words, for a case the old record never named (201.3d of
   2016-07-22, "... the combined back face of a meld pair ...", after 201.3c on
   double-faced cards, which 201.3 named, is new); the old record's line continues in
   the part that keeps its number, else its first part; where a part keeps its letters
   (or number) under its heading's new number, the part that says first what it said
   first (haste 502.5b of 2009-05-01 goes on as 702.10b, attacking, and 702.10c was
   split from it; 713.3 of 2011-04-01, on subgames, as 714.3, not as the new 713.3 of
   another section); a rule of several sentences goes where its opening is said again,
   where the part keeping its number says little of it (116.7a of 2010-02-01 is 116.7c;
   a new rule on colored reductions took 116.7a); a part holds what the part the line
   goes on in lost, not another (212.4k of 2006-07-15, on moving an Aura, from 212.4e,
   which goes on in its first sentence, though the fuzzy pass had paired it with its
   middle, 212.4j, also split from it). A record printed again word for word lost
   nothing to a part, though a new record written after it took its number ("Vanguard is
   a card type ..." 310.1 of 2012-05-01 is 311.1; the new 310.1, on phenomena, is new);
   printed twice, it goes on in the copy keeping its number or letters, a pointer aside,
   and the other copy was split from it (205.2a of 2009-05-01 is 204.2a, and 300.1 was
   split from it; 205.2b, printed word for word in both, is 204.2b, and 300.2). A rule
   said of two cases, printed once for each in the same words, was split in two: "... a
   replacement or prevention effect" 419.3 of 2009-05-01 is 613.3, on replacement
   effects, and 614.3, on prevention effects, was split from it, and so was 113.1d, on
   triggered abilities, from 415.2 on "an activated or triggered ability", though it
   says more (a copy keeping both cases is new, and so is a rule for a case its source
   did not name beside the other); so was a rule saying what an old rule said of the
   case its counterpart was narrowed away from (704.5w of 2026-08-07, "If a non-Siege
   battle has defense 0 ...", from 704.5v, which went on on Siege battles); and so was a
   rule written in its counterpart's words for the case it named beside the one its
   counterpart kept (103.4a of 2013-07-13, the starting hand of a Vanguard game, from
   103.3b, which goes on on the starting life total). A record left new that opens with
   a sentence one old record dropped, word for word or a word or two changed, was split
   off it too, however much it added (203.1c of 2007-05-01, from 203.1a), and where it
   keeps the old number the line goes on in it (807.4c of 2010-07-16, its "When" become
   "After"; 113.6 of 2010-02-01, whose sentence goes on: "... of a spell or ability, and
   other effects allow ..."). So was a rule placed just after an old rule's counterpart,
   under it or beside it, or just before it, beside it, that says again, reworded, a
   sentence the counterpart dropped: of the rules there, the one most nearly that
   sentence, unless a rule elsewhere holds as much of it and is as much made of it, not
   only as its own old rule, or the one it was written after, did (614.13a of
   2012-07-01, from 614.13: "Such an effect can't cause the permanent itself to not
   enter ..."; 400.7b of 2022-10-07 from 400.7a, though 611.3d holds a word more of it;
   714.3b of 2026-04-17 from 714.3a, though 702.155b, which always said it, was
   rewritten in the same words; 212.6b of 2007-10-01 from 212.6a, though 212.9a, written
   after 212.3a on creatures, says as much; 212.6c of 2007-10-01, before 212.6e, from
   212.6b, which goes on in it as it says what 212.6b said first); and a rule standing
   there, paired by likeness with another old rule, that says every word of such a
   sentence again and holds more of its words than of its partner's (712.11a of
   2023-04-14 from 712.7, not 713.8 on meld cards, which went). An old record left over
   whose words are almost all in one new record was merged into it, but never displaces
   one printed there word for word, though it kept the number (the "legend rule" 801.12
   of 2013-05-01 went; the "world rule" 801.13 is 801.12); where two new rules left over
   hold them alike, one its rewrite and one its parallel for another case, it went on in
   the one holding every word of it the other holds, and more (508.2 of 2016-08-26,
   "Second, any abilities that triggered on attackers being declared go on the stack",
   is 508.2b, not 509.4a, said of blockers), and a rule paired with a short echo of it
   went on in a rewrite left over that holds every word of it the echo holds and more
   (509.4 of 2016-08-26 is 509.4a, not 509.1i); an old rule left over that brought a new
   rule continuing another a sentence that other never said was merged into it, though
   few of the words the new rule gained are its own (the intervening "if" rule 410.8 of
   2009-05-01 into 603.4, which goes on from 404.3), and so was one whose opening
   sentence such a rule came to say, and no other new rule, whatever became of the rest
   (418.5b of 2003-10-01 into 418.5h, its example printed apart there). A rule that took
   in others goes on from the one its first sentence comes from, and from one that says
   that sentence word for word, though another holds almost as much of it (702.19m of
   2009-07-11 from 502.10i, and 502.11d was merged into it), or more of it, where the
   one it opens with lost a sentence on the way (406.4 of 2003-07-01 from 406.1d, and
   406.1e was merged into it). An old rule left over that said for one case what another
   said for another went into the rewrite of that other where it treats both alike,
   naming both or neither (723.2d of 2022-09-08, on the scheme deck, into 724.2a, on
   supplementary decks). An old record left over with no part yet continues in its first
   part (the layer rule 418.5a of 2009-05-01 became 612.1-612.3). A rule still left over
   on both sides went on in the one new rule that carries a long sentence of it almost
   word for word (310.2c of 2009-05-01 is 510.1c, rewritten around "If no creatures are
   currently blocking it..."). A new glossary entry that says apart what an old entry
   lost as it went on, nearly all its words that entry's, was split from it ("Tap
   Symbol" of 2009-07-11 from "Tap", "Attach" of 2005-08-01 from "Move"); one left over
   whose every sentence an entry that went on came to say was merged into it
   ("Suspended" of 2009-05-01 into "Suspend"). A glossary entry left over whose name
   holds a continued entry's name whole was merged into it where that entry has come to
   cite a rule the old one cited, as the rule went ("Colorless mana" of 2009-05-01,
   104.3d, into "Colorless", 107.4c); one left over is the one new entry left over that
   cites where its rules went and says mostly what it said, renamed ("Infinity Rule
   (Informal)" of 2009-05-01, see 421, is "Loop", see 713);
7. headings followed: a section or chapter heading paired by its title alone, whose
   rules left it for one new heading of its kind left over, goes there ("Copying Spells
   and Abilities" 503 of 2003-03-15 is "Copying Objects" 503, not "Targeted Spells and
   Abilities" 415; "General" 300 of 2009-05-01 is "General" 500), and its rules paired
   under the heading it left go to their number under its new home where that is as
   like them (809.2 of 2010-04-23 is 811.2, not 808.3), and so does a rule that is a
   title, paired with one of two new headings of one title, to the other, of whatever
   kind ("Removed from the Game" 217.7 of 2009-05-01 is the zone "Exile" 406, not the
   keyword action "Exile" 701.9); then a rule left over
   whose subrules all went under one new rule went there too, continuing in it
   ("Tribals" 308 is "Kindreds" 308 of 2024-06-07) or, where that rule continues another,
   merged into it, and so did a title into a rule split off another (the title 418.3 of
   2009-05-01 into 610.2, split off 418.1); where too few of its subrules went on, those
   merged count too ("Bands with Other" 502.11 of 2009-05-01 into "Banding" 702.19); a
   section or chapter whose rules stand in one new heading of its kind, under different
   rules of it, went there ("Ending the Turn"
   716 of 2019-07-12, whose 716.2 became 716.1f, is "Ending Turns and Phases" 716), and
   one of a single rule left over was merged into the heading of its kind its rule went into,
   where that heading goes on from another ("Collector Number" 211 of 2007-09-07 into
   "Information Below the Text Box" 210, which goes on from "Legal Text" 210);
   a section or chapter with one rule that stayed under its number, or went deeper under
   a rule of it, is that heading renamed in place ("Type" 205 is "Type Line" 205 of
   2003-07-01; "Legal Text" 210 of 2007-09-07, whose 210.1 became 210.1b, is "Information
   Below the Text Box" 210); a rule whose subrules went under several rules of one new
   chapter left over became that chapter ("Timing of Team Turns" 806.7 of 2010-04-23 is
   "Shared Team Turns Option" 805); then a rule left over on both sides under one number whose
   parents were paired only so is that rule rewritten, as in pass 5, where it shares
   some words with its old self and no other new rule is much more like it (713.2 of
   2020-09-25, under "Checklist Cards" 713 become "Substitute Cards");
8. introductions: an old rule whose counterpart is a subrule of a new rule left over
   that says more of what the old one said first goes on in it, and the subrule was
   split from it (420.1 of 2009-05-01 is 704.1, and 704.1a was split from it); a new
   rule left over whose subrules came of one old rule (two at least, none of another)
   was split from it: it says first what that rule went on to say in them (605.1 of
   2009-07-11 over 605.1a-b, the halves of 406.1), while the old rule's line stays
   where it went.
9. examples: an old rule left over whose example one new rule prints went on there,
   however its text was rewritten: in that rule if it is left over too (419.8b of
   2001-07-23), else merged into it (502.9e of 2009-05-01, whose example 702.17b prints);
10. nearest of all: a rule left over on both sides went on in the other where each is
   the other's most like rule of every rule of both editions, by a margin, however
   rewritten (the local-enchantment rule 214.8h of 2003-03-15 is 415.3 of 2003-07-01,
   among the targeting rules).

The normalisation folds typography, masks rule numbers (renumbered references must
not make texts look different) and applies the Magic 2010 renames ("in play" ->
"on the battlefield", "removed from the game" -> "exiled"), for similarity only.

The modules: `model` (the items, the alignment, the records not paired yet), `words`
(normalisation and the likeness of texts and word sets), `pairs` (passes 1-5), `parts`
(pass 6), `glossary` (pass 6 for glossary entries: renames that leave an "(Obsolete)"
stub, entries merged or split by name, by a term named in quotes ("World Rule" of
2009-07-11 from "World"), by what an entry lost ("Tap Symbol" from "Tap"), by the
sentences another came to say ("Suspended" into "Suspend") or by the rules they cite)
and `leftovers` (passes 7 to 10).
`align` below runs them in order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from rules_kb.ingest.align.glossary import (
    carried_entries,
    cited_heirs,
    cited_renames,
    named_parts,
    named_stubs,
    obsolete_stubs,
    quoted_terms,
    said_entries,
)
from rules_kb.ingest.align.leftovers import (
    Examples,
    carried_examples,
    followed_headings,
    heads_saying_openings,
    introductions,
    kept_under_followed_headings,
    mutual_leftovers,
)
from rules_kb.ingest.align.model import Alignment, Item, Left, LoadTexts
from rules_kb.ingest.align.pairs import (
    carried_sentences,
    fuzzy,
    identical,
    renamed_entries,
    renamed_headings,
    same_key,
    unique_wording,
)
from rules_kb.ingest.align.parts import splits_and_merges
from rules_kb.ingest.align.words import (
    SHORT,
    Normalised,
    Titles,
    normalise,
    numbers_masked,
    renumber_references,
)
from rules_kb.typography import key

__all__ = [
    "Alignment",
    "Item",
    "LoadTexts",
    "align",
    "normalise",
    "numbers_masked",
    "precision_recall",
    "renumber_references",
]


# the passes ----------------------------------------------------------------------


def align(
    old: Sequence[Item],
    new: Sequence[Item],
    load_texts: LoadTexts,
    examples: tuple[Examples, Examples] | None = None,
    went: Mapping[str, frozenset[str]] | None = None,
) -> Alignment:
    """Pair old items with new ones, one to one. `load_texts` is asked only for the texts
    of the items left after the identical pass (and the examples' texts, where an old rule
    with examples is left over). `examples`: the example text ids of each side's rules, by
    index (rules only; without them, pass 9 is skipped). `went`: for the glossary, where
    the rules' alignment of the same editions took each old rule (`Alignment.went`): the
    rules entries cite tell entries under like names apart."""
    pairs = identical(old, new)
    used = set(pairs.values())
    left = Left(
        [i for i in range(len(old)) if i not in pairs],
        [j for j in range(len(new)) if j not in used],
    )
    if not left.old and not left.new:
        return _result(len(old), len(new), pairs)
    raw = load_texts([old[i].text_id for i in left.old] + [new[j].text_id for j in left.new])
    wording = {text_id: key(text) for text_id, text in raw.items()}
    same_key(old, new, pairs, left.update(pairs), wording)
    # What is not the same text under the same number: where parts can come from.
    reworded = Left(list(left.update(pairs).old), list(left.new))
    renamed_entries(old, new, pairs, left.update(pairs))
    unique_wording(old, new, pairs, left.update(pairs), wording)
    texts = Normalised(raw)
    titles = Titles(raw)
    if left.update(pairs).old and left.new:
        unique_wording(old, new, pairs, left.update(pairs), texts, shortest=SHORT)
        renamed_headings(old, new, pairs, left.update(pairs))
        fuzzy(old, new, pairs, left.update(pairs), texts, titles, went)
    split, merged = splits_and_merges(old, new, pairs, left.update(pairs), reworded, texts, titles)
    carried_sentences(old, new, pairs, left, texts, titles, split, merged)
    split.update(obsolete_stubs(old, new, pairs, reworded, texts))
    split.update(named_stubs(old, new, pairs, split, reworded))
    named_parts(old, new, pairs, split, merged, reworded)
    quoted_terms(old, new, pairs, split, reworded, texts)
    carried_entries(old, new, pairs, split, reworded, texts)
    said_entries(old, new, pairs, merged, reworded, texts)
    if went is not None:
        cited_heirs(old, new, pairs, merged, reworded, texts.raw, went)
        cited_renames(old, new, pairs, split, merged, texts, went)
    followed_headings(old, new, pairs, split, merged, texts, titles)
    kept_under_followed_headings(old, new, pairs, split, merged, texts, titles)
    heads_saying_openings(old, new, pairs, split, texts, titles)
    introductions(old, new, pairs, split, texts, titles)
    if examples is not None:
        carried_examples(old, new, pairs, split, merged, examples, load_texts)
    mutual_leftovers(old, new, pairs, split, merged, texts, titles, load_texts)
    return _result(len(old), len(new), pairs, split, merged)


def _result(
    old_count: int,
    new_count: int,
    pairs: dict[int, int],
    split: Mapping[int, int] | None = None,
    merged: Mapping[int, int] | None = None,
) -> Alignment:
    split = split or {}
    merged = merged or {}
    used = set(pairs.values())
    ordered = tuple(sorted(pairs.items(), key=lambda pair: pair[1]))
    return Alignment(
        pairs=ordered,
        removed=tuple(i for i in range(old_count) if i not in pairs and i not in merged),
        added=tuple(j for j in range(new_count) if j not in used and j not in split),
        split=tuple(sorted(((i, j) for j, i in split.items()), key=lambda pair: pair[1])),
        merged=tuple(sorted(merged.items(), key=lambda pair: pair[1])),
    )


def precision_recall(
    predicted: Mapping[str, str],
    pairs: Iterable[tuple[str, str]],
    unmatched_old: Iterable[str] = (),
    unmatched_new: Iterable[str] = (),
) -> tuple[float, float]:
    """Score an alignment (old key -> new key) against labelled pairs and labelled
    unmatched keys. Only predictions touching a labelled key are judged: a pair made
    for a key labelled unmatched is a false positive."""
    labelled = set(pairs)
    backward = {new: old for old, new in predicted.items()}
    judged = {(old, predicted[old]) for old, _ in labelled if old in predicted}
    judged |= {(old, predicted[old]) for old in unmatched_old if old in predicted}
    judged |= {(backward[new], new) for new in unmatched_new if new in backward}
    correct = len(judged & labelled)
    precision = correct / len(judged) if judged else 1.0
    recall = correct / len(labelled) if labelled else 1.0
    return precision, recall
