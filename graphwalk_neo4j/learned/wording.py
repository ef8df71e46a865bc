"""English words and idioms read as the hops they stand for (:func:`written_out`).

A family graph stores one hop per relation (``parents``, ``children``, ``spouse``), while English folds two or three
of them into one word: a grandparent is a parent's parent, an in-law a spouse's parent, a sibling a child of one's
parents, and a native of a place someone born in it. No word-level column can find two hops in one word (MiniLM
puts ``grandparents`` at 0.66 from ``parents`` and ``siblings`` nearer ``parents`` than ``children``), so the walk
took one hop and stopped. :func:`kin_reading` writes such words out as the hops they name (``the grandparents of
[X]`` reads ``the parents of parents of [X]``), which the columns that count namings (``again``, ``owner``) and
place them (``near``) then read as they read any question that says so.

A word is written out only where the graph does not name it itself: a graph with a ``sibling`` or a
``grandparent`` relation has the word's own hop, and the word stays (``relation_words``: the words of the
decision's relations). The readings are English's, not one graph's or one benchmark's.

One idiom is read the same way (:func:`idiom_reading`): ``what does [X] do (for a living)`` and ``work as`` ask
for an occupation, a word the question never says.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

# the kin a word names on the parents' side and on the children's (the rest: spouses and siblings)
_ELDERS = frozenset("parent parents father fathers mother mothers".split())
_PARENTS = r"(?:mothers?|fathers?|moms?|mums?|dads?)"
_SPOUSES = r"(?:husbands?|wife|wives)"
_OFFSPRING = r"(?:sons?|daughters?)"
_SIBLINGS = r"(?:brothers?|sisters?)"
_KIN = r"(?:parents?|mothers?|fathers?|sons?|daughters?|child|children|kids?|brothers?|sisters?|siblings?)"

_PAIR = r"\b({0})\s+(and|or|&)\s+({0})\b"  # two kin words of one side joined: "mother and father"
_PAIRS: tuple[tuple[str, str, str], ...] = (
    (_PARENTS, "parent", "parents"),
    (_SPOUSES, "spouse", "spouses"),
    (_OFFSPRING, "child", "children"),
    (_SIBLINGS, "sibling", "siblings"),
)
_IN_LAW = re.compile(rf"\b(?:({_KIN})[- ])?in[- ]laws?\b", re.IGNORECASE)
_GRAND = re.compile(rf"\b((?:great[- ]?)*)grand[- ]?({_KIN}|pas?|mas?|dads?|mums?|moms?)\b", re.IGNORECASE)
_SIBLING = re.compile(r"\b(siblings?|brothers?|sisters?)\b", re.IGNORECASE)
_NATIVE = re.compile(r"\bnatives?\s+of\b", re.IGNORECASE)

# a sibling is a child of one's parents: each sibling word's child-side word; and the short forms after grand-
_SIBLING_OF = {"siblings": "children", "sibling": "child", "brothers": "sons", "brother": "son"}
_SIBLING_OF |= {"sisters": "daughters", "sister": "daughter"}
_GRAND_SHORT = {"pa": "father", "pas": "fathers", "ma": "mother", "mas": "mothers", "dad": "father"}
_GRAND_SHORT |= {"dads": "fathers", "mum": "mother", "mums": "mothers", "mom": "mother", "moms": "mothers"}


def _plural(word: str) -> bool:
    return word.endswith("s") or word in {"children", "wives"}


def _pair(plural: str, singular: str) -> Callable[[re.Match[str]], str]:
    """Both of one side are several (``mother and father``: parents); one of them is one (``wife or husband``)."""
    return lambda m: plural if m.group(2).lower() != "or" or _plural(m.group(1).lower()) else singular


def _one(word: str) -> str:
    """``word`` without a plural ``s`` (``siblings`` -> ``sibling``; ``class`` stays)."""
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def _names_it(word: str, relation_word: str) -> bool:
    """Whether a relation's word is ``word`` itself, in the singular or the plural (``sibling``, ``siblings``);
    a longer word that starts with it is another word (``law``, ``lawyer``)."""
    return _one(word) == _one(relation_word)


_OWNED = re.compile(r"(?:'s|s')\s*$")  # the word before a match is a possessive: "[X]'s grandparents"


def _hops(write: Callable[[re.Match[str]], list[str]]) -> Callable[[re.Match[str]], str]:
    """The hops ``write`` names, first hop first, in the grammar the match stands in: after a possessive as a
    chain of them (``[X]'s grandparents`` -> ``[X]'s parents' parents``), else as ``of`` phrases (``the
    grandparents of [X]`` -> ``the parents of parents of [X]``); either way the ``owner`` column reads each hop
    as owned in turn."""

    def render(match: re.Match[str]) -> str:
        hops = write(match)
        if _OWNED.search(match.string[: match.start()]):
            return " ".join(f"{w}'" if w.endswith("s") else f"{w}'s" for w in hops[:-1]) + " " + hops[-1]
        return " of ".join(reversed(hops))

    return render


def _in_law(match: re.Match[str]) -> list[str]:
    kin = (match.group(1) or "").lower()
    if not kin:
        return ["spouse", "parents"]
    if kin in _ELDERS or kin.startswith(("sibling", "brother", "sister")):
        return ["spouse", kin]  # a spouse's parent, a spouse's sibling
    return [kin, "spouses" if _plural(kin) else "spouse"]  # a child's spouse


def _grand(match: re.Match[str]) -> list[str]:
    kin = match.group(2).lower()
    kin = _GRAND_SHORT.get(kin, kin)
    inner = "parents" if kin in _ELDERS else "children"
    return [inner] * (1 + match.group(1).lower().count("great")) + [kin]


def _sibling(match: re.Match[str]) -> list[str]:
    return ["parents", _SIBLING_OF[match.group(1).lower()]]


def kin_reading(text: str, relation_words: Iterable[str]) -> str:
    """``text`` with the kinship words that stand for several hops written out as those hops, lower-cased where
    changed: ``grandparents`` -> ``parents of parents`` (``great-`` one more), ``grandson`` -> ``son of
    children``, ``in-laws`` -> ``parents of spouse``, ``mother-in-law`` -> ``mother of spouse``,
    ``son-in-law`` -> ``spouse of son``, ``siblings`` (``brothers``, ``sisters``) -> ``children of parents``
    (after a possessive as a chain of them: ``[X]'s grandparents`` -> ``[X]'s parents' parents``),
    two kin words of one side joined (``mother and father``, ``wife or husband``) -> the word for both
    (``parents``, ``spouse``), ``natives of`` -> ``people born in``. A reading is skipped where one of
    ``relation_words`` (the graph's own) is the word itself (:func:`_names_it`): that graph names the word's hop."""
    own = tuple(relation_words)

    def unless_named(
        key: Callable[[re.Match[str]], Sequence[str]], write: Callable[[re.Match[str]], str]
    ) -> Callable[[re.Match[str]], str]:
        return lambda m: m.group(0) if any(_names_it(k.lower(), w) for k in key(m) for w in own) else write(m)

    for side, singular, plural in _PAIRS:
        text = re.sub(
            _PAIR.format(side),
            unless_named(lambda m: (m.group(1), m.group(3)), _pair(plural, singular)),
            text,
            flags=re.IGNORECASE,
        )
    text = _IN_LAW.sub(unless_named(lambda m: ("law",), _hops(_in_law)), text)
    text = _GRAND.sub(unless_named(lambda m: (re.sub(r"[- ]", "", m.group(0)),), _hops(_grand)), text)
    text = _SIBLING.sub(unless_named(lambda m: m.groups(), _hops(_sibling)), text)
    return _NATIVE.sub(unless_named(lambda m: ("native",), lambda m: "people born in"), text)


def read_outside(text: str, names: Sequence[str], read: Callable[[str], str]) -> str:
    """``read`` applied to ``text`` with the spans of ``names`` (case-insensitive) held out, so a name with a kin
    word in it (``Warner Brothers``) is left as written while the sentence around it is read whole."""
    held: list[str] = []

    def hold(match: re.Match[str]) -> str:
        held.append(match.group(0))
        return f"\ue000{len(held) - 1}\ue001"  # private-use marks: no pattern here matches them

    spans = sorted({n for n in names if n}, key=len, reverse=True)  # one pass, the longest name first
    if spans:
        text = re.sub("|".join(map(re.escape, spans)), hold, text, flags=re.IGNORECASE)
    return re.sub("\ue000(\\d+)\ue001", lambda m: held[int(m.group(1))], read(text))


_DO_FOR = re.compile(r"\b(do|does|did|doing)\s+for\s+(?:a\s+)?(?:living|work|job|money)\b", re.IGNORECASE)
_WORK_AS = re.compile(r"\b(work|works|worked|working)\s+as\b", re.IGNORECASE)
_WHAT_DO = re.compile(r"^(\s*what\s+(?:do|does|did)\b.*\S)\s+do\s*\??\s*$", re.IGNORECASE)
OCCUPATION = "occupation"  # the word the idiom asks for (MiniLM: 0.76 from profession, 0.65 from employer)


def idiom_reading(text: str, relation_words: Iterable[str]) -> str:
    """``text`` with the idioms that ask for an occupation saying so: ``do for a living`` (``for work``, ``for a
    job``) -> ``do for occupation``, ``work as`` -> ``work as occupation``, and a question that asks ``what does
    ... do`` and ends there -> ``... do occupation``. Skipped where one of ``relation_words`` is ``work``,
    ``job`` or ``living`` itself (:func:`_names_it`): that graph names the idiom's words."""
    if any(_names_it(k, w) for k in ("work", "job", "living") for w in relation_words):
        return text
    text = _DO_FOR.sub(lambda m: f"{m.group(1)} for {OCCUPATION}", text)
    text = _WORK_AS.sub(lambda m: f"{m.group(1)} as {OCCUPATION}", text)
    return _WHAT_DO.sub(lambda m: f"{m.group(1)} do {OCCUPATION}", text)


def written_out(text: str, relation_words: Iterable[str]) -> str:
    """``text`` with its kin words (:func:`kin_reading`) and idioms (:func:`idiom_reading`) written out as the
    hops they stand for, where the graph (``relation_words``) does not name them itself."""
    own = tuple(relation_words)
    return idiom_reading(kin_reading(text, own), own)
