"""Positions: a deal boundary as a value, with a one-line text form (like a FEN).

Everything that decides the future of a game at the start of a deal — the players, the
rules, the dealer, the deal number, the scores and who folded in the previous deal
(R21.4 forbids folding twice in a row) — is a :class:`Position`.  Cards are not part of
it: every deal starts with a fresh shuffle (R11), so nothing about earlier cards matters.

The text form is one line of the characters ``A-Z a-z 0-9 . _ : ; / + -`` (no spaces,
no ``,``, ``=``, parentheses), so it can be a parameter value inside an OpenSpiel game
string.  Six fields separated by ``/``::

    p4/d2/n7/s3.12.20.8/f0010/default

``p`` players (R1), ``d`` the dealer's seat (R2–R4), ``n`` the deal number (1 for the
first deal, R21.1), ``s`` the scores per seat separated by ``.``, ``f`` one digit per
seat, ``1`` if that seat folded in the previous deal (R21.4), and the rules: ``default``
or the fields that differ from the defaults as ``name:value`` separated by ``;``, e.g.
``schleck:none;must_head:false``.

>>> from bohmisch_watten import GameState, Position
>>> position = Position.parse("p4/d2/n7/s3.12.20.8/f0010/default")
>>> position.scores, position.folded
((3, 12, 20, 8), (False, False, True, False))
>>> str(position)
'p4/d2/n7/s3.12.20.8/f0010/default'
>>> state = GameState.from_position(position)
>>> state.deal_number, state.dealer, state.is_chance_node
(7, 2, True)
"""

from __future__ import annotations

from typing import Any, Final

import attrs

from .errors import FormatError
from .notation import DEAL_LIMIT, SCORE_LIMIT, too_large
from .rules import Rules, rules_from_text, rules_to_text
from .seats import right_of

__all__ = ["MAX_POSITION_CHARS", "Position"]

MAX_POSITION_CHARS: Final = 400
"""The longest text :meth:`Position.parse` reads: every rule spelled out fits easily."""
_ALLOWED: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:;/+-")
_DEFAULT_RULES: Final = Rules()


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_players(instance: Position, attribute: attrs.Attribute[Any], value: object) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not 2 <= value <= 7:
        raise ValueError(
            f"Position.num_players must be 2 to 4, or to 7 with the 36-card pack (R1), "
            f"got {value!r:.40}"
        )


def _check_rules(instance: Position, attribute: attrs.Attribute[Any], value: object) -> None:
    if not isinstance(value, Rules):
        raise TypeError(f"Position.rules must be a Rules object, got {type(value).__name__}")


def _to_tuple(value: object) -> object:
    """Lists are accepted for ``scores`` and ``folded``; anything else is checked as is."""
    return tuple(value) if isinstance(value, list) else value


@attrs.frozen(slots=True, repr=False)
class Position:
    """A deal boundary: everything that decides the rest of the game, no cards (R11).

    Start a game there with :meth:`GameState.from_position
    <bohmisch_watten.GameState.from_position>`; read the position of a state with
    :attr:`GameState.position <bohmisch_watten.GameState.position>`.  ``str(position)``
    is the one-line text form and :meth:`parse` reads it back (see the module docs).

    Attributes:
        num_players: 2, 3 or 4; up to 7 with ``rules.pack == 36`` (R1).
        rules: the variants in force.
        dealer: the dealer of this deal (R2–R4).
        deal_number: 1 for the first deal of the game (R21.1 depends on it), at most
            :data:`~bohmisch_watten.notation.DEAL_LIMIT` (10**15, beyond any game).
        scores: per seat, the score before this deal (R28–R32), within
            ±:data:`~bohmisch_watten.notation.SCORE_LIMIT` (10**17).
        folded: per seat, whether that player folded in the *previous* deal (R21.4);
            all False in the first deal.

    Raises:
        TypeError: naming the field, for a value of the wrong type.
        ValueError: naming the field, for a value out of range, e.g. a fold recorded
            for the first deal, or a previous deal in which fewer than two played (R21).
    """

    num_players: int = attrs.field(validator=_check_players)
    rules: Rules = attrs.field(validator=_check_rules)
    dealer: int
    deal_number: int
    scores: tuple[int, ...] = attrs.field(converter=_to_tuple)
    folded: tuple[bool, ...] = attrs.field(converter=_to_tuple)

    def __attrs_post_init__(self) -> None:
        n = self.num_players
        if n > self.rules.max_players:
            raise ValueError(
                f"Position.num_players: {n} players need the 36-card pack (R1): "
                f"with {self.rules.pack} cards at most {self.rules.max_players} play"
            )
        if not _is_int(self.dealer):
            raise TypeError(f"Position.dealer must be an int, got {type(self.dealer).__name__}")
        if not 0 <= self.dealer < n:
            raise ValueError(f"Position.dealer must be a seat from 0 to {n - 1}, got {self.dealer}")
        if not _is_int(self.deal_number):
            raise TypeError(
                f"Position.deal_number must be an int, got {type(self.deal_number).__name__}"
            )
        if not 1 <= self.deal_number <= DEAL_LIMIT:
            raise ValueError(
                f"Position.deal_number must be from 1 to {DEAL_LIMIT}, got {self.deal_number}"
            )
        if not isinstance(self.scores, tuple) or not all(_is_int(s) for s in self.scores):
            raise TypeError(f"Position.scores must be a tuple of ints, got {self.scores!r:.60}")
        if len(self.scores) != n:
            raise ValueError(f"Position.scores must hold {n} scores, got {len(self.scores)}")
        if any(abs(s) > SCORE_LIMIT for s in self.scores):
            raise ValueError(f"Position.scores must lie within ±{SCORE_LIMIT}")
        folded = self.folded
        if not isinstance(folded, tuple) or not all(isinstance(f, bool) for f in folded):
            raise TypeError(f"Position.folded must be a tuple of bools, got {folded!r:.60}")
        if len(folded) != n:
            raise ValueError(f"Position.folded must hold {n} values, got {len(folded)}")
        if any(folded):
            if self.deal_number == 1:
                raise ValueError("Position.folded: nobody folds before the first deal (R21.1)")
            if folded[right_of(self.dealer, n)]:
                raise ValueError(
                    "Position.folded: the previous dealer "
                    f"(seat {right_of(self.dealer, n)}) must have played (R21.5)"
                )
            if n - sum(folded) < 2:
                raise ValueError("Position.folded: at least two players play every deal (R21.6)")

    @classmethod
    def start(
        cls, num_players: int = 4, *, rules: Rules = _DEFAULT_RULES, dealer: int = 0
    ) -> Position:
        """The position of a fresh game: deal 1, every player at ``rules.start_score`` (R28)."""
        return cls(
            num_players,
            rules,
            dealer,
            1,
            (rules.start_score,) * num_players,
            (False,) * num_players,
        )

    def __str__(self) -> str:
        """The one-line text form, e.g. ``p4/d2/n7/s3.12.20.8/f0010/default``."""
        scores = ".".join(str(s) for s in self.scores)
        folded = "".join("1" if f else "0" for f in self.folded)
        return (
            f"p{self.num_players}/d{self.dealer}/n{self.deal_number}/s{scores}/f{folded}/"
            f"{_rules_text(self.rules)}"
        )

    def __repr__(self) -> str:
        return f"Position.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: object, *, max_chars: int = MAX_POSITION_CHARS) -> Position:
        """Read the text form written by ``str(position)``.

        The input is treated as hostile: anything but a valid position raises
        :class:`FormatError`.  Like every loader of the package, it refuses an input
        longer than ``max_chars`` before reading it.

        Args:
            text: the text form (``bytes`` are decoded as UTF-8).
            max_chars: the size limit, :data:`MAX_POSITION_CHARS` unless raised.

        Raises:
            FormatError: saying what is wrong.
        """
        if isinstance(text, bytes):
            if len(text) > max_chars:
                raise FormatError(too_large("a position", len(text), "bytes", max_chars))
            try:
                text = text.decode("utf-8")
            except UnicodeDecodeError:
                raise FormatError("position: not UTF-8 text") from None
        if not isinstance(text, str):
            raise FormatError(f"position: expected text, got {type(text).__name__}")
        if len(text) > max_chars:
            raise FormatError(too_large("a position", len(text), "characters", max_chars))
        text = text.strip()
        bad = next((c for c in text if c not in _ALLOWED), None)
        if bad is not None:
            raise FormatError(f"position: character {bad!r} is not allowed")
        fields = text.split("/")
        if len(fields) != 6:
            raise FormatError(
                f"position: expected 6 fields separated by '/' "
                f"(p, d, n, s, f, rules), got {len(fields)}"
            )
        players, dealer, deal, scores, folded, rules = fields
        n = _number(players, "p", "players")
        try:
            return cls(
                n,
                _parse_rules(rules),
                _number(dealer, "d", "dealer"),
                _number(deal, "n", "deal number"),
                tuple(_score(s) for s in _tagged(scores, "s", "scores").split(".")),
                tuple(_fold(f) for f in _tagged(folded, "f", "folds")),
            )
        except (TypeError, ValueError) as error:
            if isinstance(error, FormatError):
                raise
            raise FormatError(f"position: {error}") from None


def _tagged(field: str, tag: str, what: str) -> str:
    if not field.startswith(tag):
        raise FormatError(f"position: the {what} field must start with {tag!r}, got {field[:20]!r}")
    return field[len(tag) :]


def _number(field: str, tag: str, what: str) -> int:
    value = _tagged(field, tag, what)
    if not value.isdigit() or len(value) > len(str(DEAL_LIMIT)):
        raise FormatError(f"position: the {what} must be a small number, got {value[:20]!r}")
    return int(value)


def _score(value: str) -> int:
    digits = value[1:] if value[:1] in "+-" else value
    if not digits.isdigit() or len(digits) > len(str(SCORE_LIMIT)):
        raise FormatError(f"position: a score must be a whole number, got {value[:20]!r}")
    return int(value)


def _fold(value: str) -> bool:
    if value not in "01":
        raise FormatError(f"position: folds are 0 or 1 per seat, got {value!r}")
    return value == "1"


def _rules_text(rules: Rules) -> str:
    """The rules field: the one rules codec with ``:`` and ``;``, ``default`` for none."""
    return rules_to_text(rules, pair=":", sep=";", default="default")


def _parse_rules(text: str) -> Rules:
    """Read the rules field strictly: exactly what :func:`_rules_text` writes."""
    try:
        return rules_from_text(text, pair=":", sep=";", default="default", lenient=False)
    except FormatError as error:
        raise FormatError(f"position: rules: {error}") from None
