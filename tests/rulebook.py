"""Read the project's rule book (RULES.md) and find references to files and rules in text.

Shared by the reference test, the rule-marker test and the ``--rule`` option: one
reading of the rule book, so that all three agree on which rule IDs exist.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULE_BOOK = ROOT / "RULES.md"

RULE_ID = re.compile(r"\bR(\d+)(?:\.(\d+))?\b")
"""A rule ID as cited anywhere: ``R25`` or ``R25.1`` (item 1 of R25)."""

_ANCHOR = re.compile(r'<a id="([\w.-]+)"></a>')
_SECTION = re.compile(r"^## (\d+)\. ", re.M)
_ITEM = re.compile(r"^(\d+)\. ", re.M)


@lru_cache(maxsize=4)
def _parse(text: str) -> tuple[frozenset[str], frozenset[int], dict[str, int]]:
    anchors = frozenset(_ANCHOR.findall(text))
    sections = frozenset(int(n) for n in _SECTION.findall(text))
    items: dict[str, int] = {}
    marks = list(re.finditer(r'<a id="(r\d+)"></a>', text))
    for i, mark in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else text.find("\n## ", mark.end())
        body = text[mark.end() : end if end != -1 else len(text)]
        numbers = [int(n) for n in _ITEM.findall(body)]
        items[mark.group(1).upper()] = max(numbers, default=0)
    return anchors, sections, items


def anchors(text: str | None = None) -> frozenset[str]:
    """The ``<a id="...">`` anchors of the rule book (``r25``, ``variants-table`` …)."""
    return _parse(RULE_BOOK.read_text(encoding="utf-8") if text is None else text)[0]


def sections(text: str | None = None) -> frozenset[int]:
    """The numbers of the rule book's sections (``## 8. Variants …`` gives 8)."""
    return _parse(RULE_BOOK.read_text(encoding="utf-8") if text is None else text)[1]


def rule_items(text: str | None = None) -> dict[str, int]:
    """Every rule ID of the rule book with its number of numbered items (R21: 6)."""
    return _parse(RULE_BOOK.read_text(encoding="utf-8") if text is None else text)[2]


def unknown_rule_ids(cited: str, items: dict[str, int] | None = None) -> Iterator[str]:
    """The rule IDs in ``cited`` that the rule book does not have, or items it lacks."""
    items = rule_items() if items is None else items
    for match in RULE_ID.finditer(cited):
        rule, item = f"R{match.group(1)}", match.group(2)
        if rule not in items or (item is not None and not 1 <= int(item) <= items[rule]):
            yield match.group(0)
