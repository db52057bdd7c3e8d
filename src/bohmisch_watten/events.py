"""What an action did, as a list of events: for UIs, servers and logs (R11–R34).

One :meth:`~bohmisch_watten.GameState.apply` can do a lot: the last card of a trick
completes it, the fifth trick ends the deal, the deal is scored and the game may end;
a shuffle may pass the cutting ritual and deal the cards.  A UI that animates the
table, or a server that tells each player what happened, should not have to diff two
states to find out.  :func:`apply_with_events` applies an action and returns the new
state with the events it caused, in order; :func:`describe` gives the events of a
transition already applied, so a server applies once and describes it once per seat.

Events are as seen by one seat (``observer``), or by an omniscient observer
(``observer=None``): a seat's events never carry a card that its views cannot know
(R13, R23).  Another seat's exchange shows the number of cards only; the dealt hands
and a Critical left in the ritual show their cards to their own seat only.

Every event is a small frozen value with :meth:`to_dict` (JSON data, cards in
notation, a ``"type"`` key); :func:`to_dicts` turns a sequence of them into a list
ready for :func:`json.dumps`.

>>> from bohmisch_watten import DECK, Shuffle, new_game
>>> from bohmisch_watten.events import apply_with_events, to_dicts
>>> state, events = apply_with_events(new_game(2), Shuffle(DECK), observer=1)
>>> [event.type for event in events]
['deal_started', 'cut_card_seen', 'hand_dealt', 'hand_dealt', 'trump_card_turned']
>>> for data in to_dicts(events)[1:4]:
...     print(data)
{'type': 'cut_card_seen', 'seat': 1, 'card': 'SA', 'critical': False}
{'type': 'hand_dealt', 'seat': 1, 'cards': ['E7', 'E8', 'E9', 'EA', 'G7']}
{'type': 'hand_dealt', 'seat': 0, 'cards': None}
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar, TypeAlias, cast

import attrs

from .actions import Action, Exchange, Fold, LeaveCritical, PlayCard, Shuffle, TakeCritical
from .cards import Card
from .phases import Phase
from .seats import seat_order
from .state import GameState

__all__ = [
    "CardPlayed",
    "CriticalLeft",
    "CriticalTaken",
    "CutCardSeen",
    "DealScored",
    "DealStarted",
    "Event",
    "Exchanged",
    "Folded",
    "GameOver",
    "HandDealt",
    "TrickWon",
    "TrumpCardTurned",
    "apply_with_events",
    "describe",
    "to_dicts",
]


def _jsonable(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, tuple):
        return [_jsonable(item) for item in value]
    return value


class _EventBase:
    """Mixin for the events: the JSON form from the attrs fields."""

    __slots__ = ()
    type: ClassVar[str]

    def to_dict(self) -> dict[str, Any]:
        """The event as JSON data: ``{"type": ..., field: value}``, cards in notation."""
        out: dict[str, Any] = {"type": self.type}
        for field in attrs.fields(cast(Any, type(self))):
            out[field.name] = _jsonable(getattr(self, field.name))
        return out


@attrs.frozen(slots=True)
class DealStarted(_EventBase):
    """The pack was shuffled and cut for a new deal (R11)."""

    type: ClassVar[str] = "deal_started"
    deal_number: int
    dealer: int


@attrs.frozen(slots=True)
class CutCardSeen(_EventBase):
    """``seat`` looked at the bottom card in the cutting ritual (R12, R13).

    ``card`` is None for every other seat: only the seat that looks knows it until it
    is taken.  ``critical`` is public: a Critical means an offer the table sees.
    """

    type: ClassVar[str] = "cut_card_seen"
    seat: int
    card: Card | None
    critical: bool


@attrs.frozen(slots=True)
class CriticalTaken(_EventBase):
    """``seat`` took the offered Critical into his hand, shown to everybody (R12, R13)."""

    type: ClassVar[str] = "critical_taken"
    seat: int
    card: Card


@attrs.frozen(slots=True)
class CriticalLeft(_EventBase):
    """``seat`` left the offered Critical at the bottom; the card only for him (R13)."""

    type: ClassVar[str] = "critical_left"
    seat: int
    card: Card | None


@attrs.frozen(slots=True)
class HandDealt(_EventBase):
    """``seat`` now holds five cards (R15); ``cards`` is None for every other seat."""

    type: ClassVar[str] = "hand_dealt"
    seat: int
    cards: tuple[Card, ...] | None


@attrs.frozen(slots=True)
class TrumpCardTurned(_EventBase):
    """The trump card was turned up; its suit is trumps for the deal (R15, R16)."""

    type: ClassVar[str] = "trump_card_turned"
    card: Card


@attrs.frozen(slots=True)
class Folded(_EventBase):
    """``seat`` sits this deal out (R18)."""

    type: ClassVar[str] = "folded"
    seat: int


@attrs.frozen(slots=True)
class Exchanged(_EventBase):
    """``seat`` plays and exchanged ``count`` cards (R18–R20, R23).

    ``count`` and ``took_trump_card`` are public; ``discarded`` and ``drawn`` (the
    cards from the stock, top first, without the trump card) are None for other seats.
    """

    type: ClassVar[str] = "exchanged"
    seat: int
    count: int
    took_trump_card: bool
    discarded: tuple[Card, ...] | None
    drawn: tuple[Card, ...] | None


@attrs.frozen(slots=True)
class CardPlayed(_EventBase):
    """``seat`` played ``card`` to the trick (R24)."""

    type: ClassVar[str] = "card_played"
    seat: int
    card: Card


@attrs.frozen(slots=True)
class TrickWon(_EventBase):
    """``seat`` won the trick of ``plays``; he leads the next (R24, R27)."""

    type: ClassVar[str] = "trick_won"
    seat: int
    plays: tuple[tuple[int, Card], ...]

    def to_dict(self) -> dict[str, Any]:
        """As for every event; plays as ``{"seat": s, "card": code}`` objects."""
        return {
            "type": self.type,
            "seat": self.seat,
            "plays": [{"seat": s, "card": str(card)} for s, card in self.plays],
        }


@attrs.frozen(slots=True)
class DealScored(_EventBase):
    """The deal was scored: per seat the points (negative is good) and scores (R29–R32)."""

    type: ClassVar[str] = "deal_scored"
    deal_number: int
    tricks_won: tuple[int, ...]
    points: tuple[int, ...]
    scores: tuple[int, ...]
    doubled: bool


@attrs.frozen(slots=True)
class GameOver(_EventBase):
    """The game ended (R31–R34)."""

    type: ClassVar[str] = "game_over"
    winners: tuple[int, ...]
    losers: tuple[int, ...]
    scores: tuple[int, ...]


Event: TypeAlias = (
    DealStarted
    | CutCardSeen
    | CriticalTaken
    | CriticalLeft
    | HandDealt
    | TrumpCardTurned
    | Folded
    | Exchanged
    | CardPlayed
    | TrickWon
    | DealScored
    | GameOver
)
"""Any event :func:`describe` produces."""


def to_dicts(events: Iterable[Event]) -> list[dict[str, Any]]:
    """The events as a list of JSON data, ready for :func:`json.dumps`."""
    return [event.to_dict() for event in events]


def _check(before: object, after: object, observer: object) -> None:
    if not isinstance(before, GameState):
        raise TypeError(f"before must be a GameState, got {type(before).__name__}")
    if not isinstance(after, GameState):
        raise TypeError(f"after must be a GameState, got {type(after).__name__}")
    if observer is None:
        return
    if isinstance(observer, bool) or not isinstance(observer, int):
        raise TypeError(f"observer must be a seat (int) or None, got {type(observer).__name__}")
    if not 0 <= observer < before.num_players:
        raise ValueError(
            f"observer must be a seat from 0 to {before.num_players - 1}, got {observer}"
        )


def describe(
    before: GameState, action: Action, after: GameState, observer: int | None = None
) -> tuple[Event, ...]:
    """The events of ``before.apply(action) == after``, as seen by seat ``observer``.

    With ``observer=None`` the events are omniscient (every card).  The transition must
    be one that :meth:`GameState.apply` made; the events are read from the two states
    and the action, so describing costs no second ``apply()``.

    Raises:
        TypeError: naming the argument, for states that are not states or an observer
            that is neither None nor an int.
        ValueError: for an observer that is not a seat of the game.
    """
    _check(before, after, observer)
    actor = before.current_player

    def sees(seat: int) -> bool:
        return observer is None or observer == seat

    events: list[Event] = []
    if isinstance(action, Shuffle):
        events.append(DealStarted(after.deal_number, after.dealer))
    elif isinstance(action, (TakeCritical, LeaveCritical)):
        assert actor is not None
        card = before.cut_looks[-1].card
        assert card is not None  # the state knows every card
        if isinstance(action, TakeCritical):
            events.append(CriticalTaken(actor, card))
        else:
            events.append(CriticalLeft(actor, card if sees(actor) else None))
    if isinstance(action, (Shuffle, TakeCritical, LeaveCritical)):
        for seat, card, _, critical in after.cut_looks[len(before.cut_looks) :]:
            events.append(CutCardSeen(seat, card if sees(seat) else None, critical))
        turned = after.trump_card
        if turned is not None and before.trump_card is None:  # R15: the cards are dealt
            n = after.num_players
            for seat in seat_order(after.dealer, n):
                events.append(HandDealt(seat, after.hands[seat] if sees(seat) else None))
            events.append(TrumpCardTurned(turned))
    elif isinstance(action, Fold):
        assert actor is not None
        events.append(Folded(actor))
    elif isinstance(action, Exchange):
        assert actor is not None
        take = action.take_trump_card
        count = len(action.discard)
        if sees(actor):
            discarded: tuple[Card, ...] | None = tuple(sorted(action.discard))
            drawn: tuple[Card, ...] | None = before.stock[: count - take]
        else:
            discarded = drawn = None
        events.append(Exchanged(actor, count, take, discarded, drawn))
    elif isinstance(action, PlayCard):
        assert actor is not None
        events.append(CardPlayed(actor, action.card))
        events += _trick_end(before, after)
    return tuple(events)


def _trick_end(before: GameState, after: GameState) -> list[Event]:
    """TrickWon, DealScored and GameOver after a card that completed a trick."""
    if after.trick:
        return []  # the trick goes on
    scored = after.deal_number != before.deal_number or after.phase is Phase.GAME_OVER
    if not scored:
        trick = after.tricks[-1]
        return [TrickWon(trick.winner, trick.plays)]
    summary = after.last_deal
    assert summary is not None
    trick = summary.tricks[-1]
    out: list[Event] = [
        TrickWon(trick.winner, trick.plays),
        DealScored(
            summary.deal_number,
            summary.tricks_won,
            summary.points,
            summary.scores,
            summary.doubled,
        ),
    ]
    if after.phase is Phase.GAME_OVER:
        out.append(GameOver(after.winners, after.losers, after.scores))
    return out


def apply_with_events(
    state: GameState,
    action: Action,
    *,
    seat: int | None = None,
    observer: int | None = None,
) -> tuple[GameState, tuple[Event, ...]]:
    """``state.apply(action, seat=seat)`` and the events it caused, seen by ``observer``.

    Raises:
        IllegalActionError: as :meth:`GameState.apply`; nothing happened then.
        TypeError, ValueError: as :func:`describe`, for a bad ``observer``.
    """
    after = state.apply(action, seat=seat)
    return after, describe(state, action, after, observer)
