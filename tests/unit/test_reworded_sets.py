"""The word lists of the reworded question sets (docs/eval.md, "Reworded questions"): what each rewrites, and
exactly which words they share, as the docs state."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import TYPE_CHECKING

from graphwalk_neo4j.learned.augment import vocabulary

if TYPE_CHECKING:
    from types import ModuleType

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def words(rules: list[tuple[str, str]]) -> set[str]:
    return {w for _, replacement in rules for w in re.findall(r"[a-z]+", replacement)}


def test_the_selection_set_rewords_outside_the_topic_only() -> None:
    selection = script("selection_metaqa")
    assert selection.reword("who directed the films written by [The Director]") == (
        "who steered the works of cinema composed by [The Director]"
    )
    assert selection.reword("what genre is [Actors] about") == "what sort is [Actors] dealing with"


def test_the_word_lists_share_exactly_the_words_the_docs_name() -> None:
    selection = words(script("selection_metaqa").RULES)
    evaluation = words(script("paraphrase_metaqa").RULES)
    training = set(vocabulary())
    assert selection & evaluation == {"cast", "picture", "pictures"}
    assert selection & training == {"debut", "in", "out", "was"}  # "debut" and three function words
    assert evaluation & training == {
        "author", "authors", "feature", "featured", "features", "filmmaker", "filmmakers", "pen", "penned",
        "perform", "performed", "scriptwriter", "themes", "tongue", "tongues",
    }  # fmt: skip
