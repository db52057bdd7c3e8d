"""A seat's ``state`` frame as the JSON text sent, built from pieces that outlive a move.

A table sends every connected seat a frame after every move, and most of a frame does
not change from one move to the next: the finished deals (``past_deals``, the largest
part, growing through a game), the last deal, the tricks of the deal, the rules and the
seats' names.  :class:`FrameWriter` keeps the JSON text of each such piece next to the
immutable object it shows (a :class:`~bohmisch_watten.DealSummary`, the state's tuple
of tricks, the :class:`~bohmisch_watten.Rules`, the seats), and reuses the text while
the table still holds the very same object (compared by identity, and the object is
kept alive with its text, so an identity never stands for another object).  Everything
a seat may see is still read from that seat's :class:`~bohmisch_watten.views.PlayerView`
only (R13, R23): a cached piece is public (finished deals, played tricks, rules, names)
and the same for every seat, so no seat can be shown a card of another seat's frame.

The fields whose types are fixed (ints, bools, card codes, lists of them) are written
as JSON text directly rather than through a dict and the encoder: a frame is written
several times per move, and building dicts to encode them was a fifth of its cost.
The text is exactly ``encode(table.frame(seat))``, character for character (the tests
compare the two at every move of many games); :meth:`Table.frame` stays the reference
and the documented shape.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from json.encoder import c_make_encoder, encode_basestring_ascii  # type: ignore[attr-defined]
from typing import Any, Final, Protocol

from ..actions import Action
from ..cards import CARDS, bits
from ..deals import DealSummary, summary_to_dict
from ..phases import Phase
from ..rules import Rules, rules_values
from ..tricks import Plays
from ..views import PlayerView

__all__ = ["FrameWriter", "SeatName", "encode"]


class SeatName(Protocol):
    """What a frame shows of a seat (a :class:`~bohmisch_watten.web.table.Seat`): its
    number, its name and its kind; a protocol, so that the frames need not import the
    table that writes them."""

    @property
    def number(self) -> int: ...

    @property
    def name(self) -> str: ...

    @property
    def kind(self) -> str: ...


_ENCODER: Final = json.JSONEncoder(separators=(",", ":"))
"""Compact JSON, as :func:`encode` writes it (no state: only its options)."""


def _unknown(value: object) -> object:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


_C_ENCODE: Final = (
    None
    if c_make_encoder is None
    else c_make_encoder(None, _unknown, encode_basestring_ascii, None, ":", ",", False, False, True)
)
""":data:`_ENCODER`'s own C encoder, made once: ``_ENCODER.encode`` makes one for every
call (with a fresh dict to detect cycles, which frames never have), and a frame is
written in many calls.  Without cycle detection it holds no state."""


def encode(message: Any) -> str:
    """A frame as the JSON text sent: compact, as every frame carries a view and a log.

    The same text as ``json.dumps(message, separators=(",", ":"))`` (tested).
    """
    if isinstance(message, str):
        return encode_basestring_ascii(message)
    if _C_ENCODE is None:  # pragma: no cover - a Python without the C accelerator
        return _ENCODER.encode(message)
    return "".join(_C_ENCODE(message, 0))


def _plays(plays: Plays) -> list[dict[str, Any]]:
    return [{"seat": seat, "card": str(CARDS[card])} for seat, card in plays]


# The pieces below write JSON the way ``encode`` does (compact, ASCII), for the fields
# of every frame whose types are fixed: a frame is written as text, not as a dict.
_QUOTED: Final = tuple(encode(str(card)) for card in CARDS)
"""Each card's code as a JSON string, by index."""
_BOOLS: Final = ("false", "true")


def _cards_json(indices: Iterable[int]) -> str:
    return "[" + ",".join([_QUOTED[i] for i in indices]) + "]"


def _ints_json(values: Iterable[int]) -> str:
    return "[" + ",".join([f"{v:d}" for v in values]) + "]"


def _counts_json(values: Iterable[int | None]) -> str:
    return "[" + ",".join(["null" if v is None else f"{v:d}" for v in values]) + "]"


def _bools_json(values: Iterable[bool]) -> str:
    return "[" + ",".join([_BOOLS[v] for v in values]) + "]"


def _plays_json(plays: Plays) -> str:
    return (
        "["
        + ",".join([f'{{"seat":{seat:d},"card":{_QUOTED[card]}}}' for seat, card in plays])
        + "]"
    )


def _opt_int_json(value: int | None) -> str:
    return "null" if value is None else f"{value:d}"


class FrameWriter:
    """One table's cache of frame pieces (see the module's docstring).

    Every cached piece is kept with the object it was made from and used only while
    :meth:`frame_text`'s arguments hold that same object, so the cache can never serve
    a piece of an earlier move, game or table: it holds nothing a caller could change.
    """

    def __init__(self) -> None:
        self._rules: tuple[Rules, str] | None = None
        self._tricks: tuple[object, str] | None = None
        self._last: tuple[DealSummary, str] | None = None
        self._deals: list[tuple[DealSummary, str]] = []
        self._past: tuple[object, str] | None = None
        """The whole ``past_deals`` text with the list it shows: that list changes only
        when a deal ends, the text is asked for at every move."""
        self._players: dict[int, tuple[tuple[SeatName, ...], str]] = {}
        self._public: tuple[object, str, str, str] | None = None
        self._position: tuple[tuple[object, ...], str] | None = None
        """The ``position`` text with what it is made of: it changes once a deal."""

    # ------------------------------------------------------------- the pieces

    def _rules_text(self, rules: Rules) -> str:
        cached = self._rules
        if cached is None or cached[0] is not rules:
            self._rules = cached = (rules, encode(rules_values(rules)))
        return cached[1]

    def _tricks_text(self, tricks: Sequence[tuple[Plays, int]]) -> str:
        cached = self._tricks
        if cached is None or cached[0] is not tricks:
            text = encode([{"plays": _plays(plays), "winner": w} for plays, w in tricks])
            self._tricks = cached = (tricks, text)
        return cached[1]

    def _last_text(self, last: DealSummary | None) -> str:
        if last is None:
            return "null"
        cached = self._last
        if cached is None or cached[0] is not last:
            self._last = cached = (last, encode(summary_to_dict(last)))
        return cached[1]

    def _past_text(self, deals: Iterable[DealSummary]) -> str:
        """The finished deals with their public looks of the cut, one cached text each."""
        whole = self._past
        if whole is not None and whole[0] is deals:
            return whole[1]
        cache = self._deals
        texts: list[str] = []
        for number, deal in enumerate(deals):
            if number < len(cache) and cache[number][0] is deal:
                texts.append(cache[number][1])
                continue
            text = encode(summary_to_dict(deal, cut=True))
            del cache[number:]  # a new game (or another history): the rest is stale
            cache.append((deal, text))
            texts.append(text)
        joined = "[" + ",".join(texts) + "]"
        self._past = (deals, joined)  # kept with the list: its identity stays its own
        return joined

    def players_text(self, seats: tuple[SeatName, ...], seat: int) -> str:
        """The ``players`` list as ``seat`` reads it (itself is "You")."""
        cached = self._players.get(seat)
        if cached is None or cached[0] is not seats:
            text = encode(
                [
                    {
                        "seat": s.number,
                        "name": "You" if s.number == seat else s.name,
                        "kind": s.kind,
                    }
                    for s in seats
                ]
            )
            self._players[seat] = cached = (seats, text)
        return cached[1]

    # ------------------------------------------------------------------ views

    def view_text(self, view: PlayerView, legal: Sequence[Action], state: object) -> str:
        """``encode(view.to_dict())``; ``legal`` is ``view.legal_actions()`` and ``state``
        the state the view was made from.

        The public fields (R23: the same in every seat's view of one state) are written
        once per state and reused for the next seat's frame of that state; the seat's
        own fields (its ``player``, hand, discards, draws, its look at the cut and its
        legal actions) are written for each view.
        """
        public = self._public
        if public is None or public[0] is not state:
            self._public = public = (state, *self._public_texts(view))
        cut = ",".join(
            [
                f'{{"seat":{seat:d},"card":{_QUOTED[card] if card >= 0 else "null"},'
                f'"taken":{_BOOLS[taken]},"critical":{_BOOLS[critical]}}}'
                for seat, card, taken, critical in view.cut_entries
            ]
        )
        return "".join(
            (
                f'{{"player":{view.player:d},',
                public[1],
                ',"hand":',
                _cards_json(bits(view.hand_mask)),
                ',"discards":',
                _cards_json(bits(view.discard_mask)),
                ',"draws":',
                _cards_json(view.draw_indices),
                ',"cut":[',
                cut,
                "],",
                public[2],
                ',"legal_actions":',
                encode([str(a) for a in legal]),
                ",",
                public[3],
                "}",
            )
        )

    def _position_text(self, view: PlayerView) -> str:
        """``str(view.position)``: the position is made of these fields only (and of
        whether the game is over), so its text is kept while they stay the same."""
        made_of = (
            view.phase is Phase.GAME_OVER,
            view.num_players,
            view.rules,
            view.dealer,
            view.deal_number,
            view.scores,
            view.previous_folds,
        )
        cached = self._position
        if cached is None or cached[0] != made_of:
            self._position = cached = (made_of, str(view.position))
        return cached[1]

    def _public_texts(self, view: PlayerView) -> tuple[str, str, str]:
        """The three runs of public fields of ``view.to_dict()``, without braces: those
        before the hand, those between the cut and the legal actions, those after."""
        trump = view.trump_index
        head = (
            f'"num_players":{view.num_players:d},"rules":{self._rules_text(view.rules)},'
            f'"phase":{encode(view.phase.value)},"dealer":{view.dealer:d},'
            f'"deal_number":{view.deal_number:d},"scores":{_ints_json(view.scores)},'
            f'"current_player":{_opt_int_json(view.current_player)}'
        )
        middle = (
            f'"trump_card":{_QUOTED[trump] if trump >= 0 else "null"},'
            f'"trump_card_taken":{_BOOLS[view.trump_card_taken]},'
            f'"folded":{_bools_json(view.folded)},"exchanged":{_counts_json(view.exchanged)},'
            f'"stock_size":{view.stock_size:d},"hand_sizes":{_ints_json(view.hand_sizes)},'
            f'"trick":{_plays_json(view.trick_plays)},'
            f'"tricks":{self._tricks_text(view.played_tricks)},'
            f'"tricks_won":{_ints_json(view.tricks_won)}'
        )
        tail = (
            f'"last_deal":{self._last_text(view.last_deal)},'
            f'"winners":{_ints_json(view.winners)},"losers":{_ints_json(view.losers)},'
            f'"past_deals":{self._past_text(view.past_summaries)},'
            f'"position":{encode(self._position_text(view))}'
        )
        return head, middle, tail
