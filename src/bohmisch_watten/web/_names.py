"""Display names that cannot pass for the page's own words.

The page writes some names itself ("You" for the reader's seat, "Seat 2" for a seat
without a name, "Spectator"), so a person named so would pass for the reader or for
another seat.  Comparing the text alone is not enough: ``ＹＯＵ`` (full-width letters)
or ``Yоu`` (a Cyrillic ``о``) reads the same on the page.  So a name is read in
Unicode's compatibility form (NFKC, which folds full-width and other presentation
forms), a name mixing lookalike alphabets (Latin with Cyrillic or Greek) is refused,
and the name's *skeleton* (every Cyrillic or Greek letter that looks like a Latin one
replaced by it, cased away) is compared with the page's words.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

__all__ = ["OWN_WORDS", "confusable_with_own_words", "mixed_scripts", "normalize", "skeleton"]

OWN_WORDS: Final = re.compile(r"(you|du|spectator|zuschauer|(seat|platz)( +[0-9].*)?)")
"""The page's own words, on a skeleton: "You" (``Du``), "Spectator" (``Zuschauer``)
and "Seat N" (``Platz N``)."""

_LOOKALIKES: Final = str.maketrans(
    {
        # Cyrillic letters drawn like Latin ones (upper and lower case).
        "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o",
        "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i",
        "ј": "j", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ү": "y", "һ": "h", "ɩ": "i",
        "А": "a", "В": "b", "Е": "e", "Ё": "e", "К": "k", "М": "m", "Н": "h", "О": "o",
        "Р": "p", "С": "c", "Т": "t", "У": "y", "Х": "x", "Ѕ": "s", "І": "i", "Ї": "i",
        "Ј": "j", "Ү": "y", "Һ": "h", "Ԁ": "d", "Ԛ": "q", "Ԝ": "w",
        # Greek letters drawn like Latin ones.
        "α": "a", "β": "b", "ε": "e", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p",
        "τ": "t", "υ": "u", "χ": "x", "γ": "y", "Α": "a", "Β": "b", "Ε": "e", "Ζ": "z",
        "Η": "h", "Ι": "i", "Κ": "k", "Μ": "m", "Ν": "n", "Ο": "o", "Ρ": "p", "Τ": "t",
        "Υ": "y", "Χ": "x",
        # Latin letters that read as others.
        "ı": "i", "ℓ": "l",
    }
)  # fmt: skip
"""Letters of other alphabets that a reader takes for a Latin letter."""

_LOOKALIKE_SCRIPTS: Final = frozenset({"LATIN", "CYRILLIC", "GREEK"})
"""Alphabets whose letters are drawn alike: a name may use one of them, not two."""


def normalize(text: str) -> str:
    """``text`` in Unicode's compatibility composed form (NFKC): full-width letters,
    ligatures and other presentation forms become the letters they show."""
    return unicodedata.normalize("NFKC", text)


def _script(char: str) -> str | None:
    """The alphabet of a letter among :data:`_LOOKALIKE_SCRIPTS`, None for any other."""
    if not char.isalpha():
        return None
    script = unicodedata.name(char, "").partition(" ")[0]
    return script if script in _LOOKALIKE_SCRIPTS else None


def mixed_scripts(name: str) -> tuple[str, ...]:
    """The lookalike alphabets ``name`` mixes, sorted (empty or one: it mixes none)."""
    scripts = {script for script in map(_script, name) if script is not None}
    return tuple(sorted(scripts)) if len(scripts) > 1 else ()


def skeleton(name: str) -> str:
    """``name`` as it reads: lookalike letters as the Latin ones, case and accents away,
    spaces collapsed."""
    folded = unicodedata.normalize("NFKD", normalize(name).translate(_LOOKALIKES).casefold())
    plain = "".join(char for char in folded if not unicodedata.combining(char))
    return " ".join(plain.split())


def confusable_with_own_words(name: str) -> bool:
    """Whether ``name`` reads like one of the page's own words (:data:`OWN_WORDS`)."""
    return OWN_WORDS.fullmatch(skeleton(name)) is not None
