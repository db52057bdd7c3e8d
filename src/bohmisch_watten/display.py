"""Text for people: ``str(state)`` and ``str(view)`` as a small table, one-line reprs.

``print(state)`` should tell a person at a glance where the game stands, as
``print(board)`` does in python-chess: the deal, the dealer, the trump card, each seat's
cards, score and tricks, the trick on the table and whose turn it is.  ``print(view)``
is the same table as that seat sees it: cards it may not know are ``??`` (R13, R23).

The functions read only public attributes of the state or view and import neither
module (only their types, for the checker): :mod:`~bohmisch_watten.state` and
:mod:`~bohmisch_watten.views` import this module for their ``__str__``, so it sits
*below* them in the import graph.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .cards import DECK, Card, Suit
from .phase import Phase
from .tables import bits

if TYPE_CHECKING:
    from .facts import CutLook
    from .state import GameState
    from .views import PlayerView

__all__ = ["render_state", "render_view", "turn_text"]

HIDDEN = "??"
"""How a card the reader may not know is shown."""
_CODES = tuple(str(card) for card in DECK)
"""``str(DECK[i])`` by card index: a view is drawn from its compact fields (R23), and
the web table draws one for every frame."""
_HIDDEN_HANDS = tuple(" ".join([HIDDEN] * size) or "-" for size in range(6))
"""Another seat's hand of 0–5 cards as it is shown."""


def turn_text(
    phase: Phase, current_player: int | None, winners: Sequence[int], losers: Sequence[int]
) -> str:
    """Who acts now, in words: a seat, chance (the shuffle), or the game's result."""
    if phase is Phase.GAME_OVER:
        return f"game over, winners {list(winners)}, losers {list(losers)}"
    if current_player is None:
        return "chance"
    return f"seat {current_player}"


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(str(card) for card in cards) if cards else "-"


def _trump(card: Card | None, suit: Suit | None, taken: bool) -> str:
    if card is None or suit is None:
        return "not turned"
    return f"{card} ({suit.label})" + (", taken by the dealer" if taken else "")


def _table(
    head: str,
    trump: str,
    dealer: int,
    to_act: int | None,
    hands: Sequence[str],
    scores: Sequence[int],
    tricks_won: Sequence[int],
    folded: Sequence[bool],
    stock: str,
    trick: Sequence[tuple[int, Card | str]],
    turn: str,
    notes: Sequence[str] = (),
) -> str:
    width = max(len(hand) for hand in hands)
    lines = [head, f"Trump card: {trump}"]
    for seat, hand in enumerate(hands):
        marks = ("D" if seat == dealer else " ") + (">" if seat == to_act else " ")
        extra = "  folded" if folded[seat] else ""
        lines.append(
            f"{marks} seat {seat}: {hand:<{width}}  score {scores[seat]:>3}"
            f"  tricks {tricks_won[seat]}{extra}"
        )
    lines.append(f"Stock: {stock}")
    lines.append("Trick: " + (", ".join(f"{s}:{c}" for s, c in trick) if trick else "-"))
    lines.append(f"To act: {turn}")
    lines += notes
    return "\n".join(lines)


def _ritual(looks: Sequence[CutLook], phase: Phase) -> list[str]:
    """R12, R13: the looks of the cutting ritual while it is on."""
    if phase is not Phase.CUT:
        return []
    words = [
        f"seat {seat} {'took' if taken else 'looks at'} {HIDDEN if card is None else card}"
        for seat, card, taken, _ in looks
    ]
    return ["Ritual: " + ", ".join(words)]


def _last_deal(state: GameState | PlayerView) -> list[str]:
    """The points of the deal just scored, while no new deal is dealt (R29–R31)."""
    last = state.last_deal
    if last is None or state.phase not in (Phase.DEAL, Phase.GAME_OVER):
        return []
    points = " ".join(f"{p:+d}" for p in last.points)
    return [f"Last deal: deal {last.deal_number}, points {points}"]


def render_state(state: GameState) -> str:
    """``str(state)``: the table with every card (D marks the dealer, > the seat to act).

    Example:
        >>> from bohmisch_watten import DECK, Shuffle, new_game
        >>> print(new_game(2).apply(Shuffle(DECK)))
        Deal 1, dealer seat 0, EXCHANGE
        Trump card: EK (Acorns)
        D  seat 0: E10 EU EO G8 G9  score  20  tricks 0
         > seat 1: E7 E8 E9 EA G7   score  20  tricks 0
        Stock: 21 cards, top G10
        Trick: -
        To act: seat 1
    """
    stock = state.stock
    return _table(
        f"Deal {state.deal_number}, dealer seat {state.dealer}, {state.phase.name}",
        _trump(state.trump_card, state.trump_suit, state.trump_card_taken),
        state.dealer,
        state.current_player,
        [_cards(hand) for hand in state.hands],
        state.scores,
        state.tricks_won,
        state.folded,
        f"{len(stock)} cards, top {stock[0]}" if stock else "-",
        state.trick,
        turn_text(state.phase, state.current_player, state.winners, state.losers),
        _ritual(state.cut_looks, state.phase) + _last_deal(state),
    )


def render_view(view: PlayerView) -> str:
    """``str(view)``: the table as seat ``view.player`` sees it, hidden cards as ``??``.

    Example:
        >>> from bohmisch_watten import DECK, Shuffle, new_game
        >>> print(new_game(2).apply(Shuffle(DECK)).view(0))
        Deal 1, dealer seat 0, EXCHANGE, seen by seat 0
        Trump card: EK (Acorns)
        D  seat 0: E10 EU EO G8 G9  score  20  tricks 0
         > seat 1: ?? ?? ?? ?? ??   score  20  tricks 0
        Stock: 21 cards
        Trick: -
        To act: seat 1
    """
    player, phase = view.player, view.phase
    hands = list(map(_HIDDEN_HANDS.__getitem__, view.hand_sizes))  # R23: others' cards
    hands[player] = " ".join([_CODES[i] for i in bits(view.hand_mask)]) or "-"
    if phase is Phase.CUT:
        notes = _ritual(view.cut_looks, phase)
    elif phase is Phase.DEAL or phase is Phase.GAME_OVER:
        notes = _last_deal(view)
    else:
        notes = []
    return _table(
        f"Deal {view.deal_number}, dealer seat {view.dealer}, {phase.name}, seen by seat {player}",
        _trump(view.trump_card, view.trump_suit, view.trump_card_taken),
        view.dealer,
        view.current_player,
        hands,
        view.scores,
        view.tricks_won,
        view.folded,
        f"{view.stock_size} cards" if view.stock_size else "-",
        [(seat, _CODES[card]) for seat, card in view.trick_plays],
        turn_text(phase, view.current_player, view.winners, view.losers),
        notes,
    )
