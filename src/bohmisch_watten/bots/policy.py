"""The club player's strategy of :class:`~bohmisch_watten.bots.HeuristicBot`, as pure functions.

Each function takes plain values (a hand, the legal actions, the trick) so the same
decisions serve two callers: the heuristic bot on a
:class:`~bohmisch_watten.views.PlayerView`, and the fast rollouts of
:class:`~bohmisch_watten.bots.SearchBot` on sampled full states, where building a view
per move would cost more than the decision itself.

The decision rules, each with the rules it depends on:

1. **Cut** — take every Critical offered (R12, R14): it is one of the three highest
   cards of the deal whatever the trump suit (R7).
2. **Exchange** — value each card by its expected tricks (Criticals ≈ 1, high trumps
   more than low ones, a plain ace a third of a trick, other plain cards ≈ 0; R7, R9,
   R27) and each draw from the stock by the mean value of the unseen cards; keep the
   exchange with the best value, so low plain cards go and Criticals and high trumps
   stay (R18–R20).  The dealer takes the trump card when that is worth more (R19).
3. **Fold** — when folding is allowed (R21) and the best hand still expects to *gain*
   points: fewer expected tricks than 5 × the chance of taking none (R29, R30).
4. **Lead** — with three trumps, or two and a Critical, lead the highest trump to draw
   the others' trumps (R25.3); otherwise a plain ace, else the lowest plain card (R24).
5. **Follow** — win the trick as cheaply as possible (R25, R27); when no legal card
   can win, throw the lowest one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from ..actions import Action, Exchange, Fold, LeaveCritical, PlayCard, TakeCritical
from ..cards import Card, Rank, Suit
from ..phases import Phase
from ..tricks import TRUMP, card_strength, effective_suit, outranks, winning_play
from ._cards import card_value, mean_unseen_value

__all__ = [
    "choose_cut",
    "choose_exchange",
    "choose_play",
    "decide",
    "expected_gain",
    "rank_exchanges",
]

NO_TRICK_POINTS: Final = 5
"""R29: a player who plays and takes no trick scores plus 5."""


def choose_cut(legal: Sequence[Action]) -> Action:
    """Rule 1: take the Critical if that is allowed (R12, R14), else the only choice."""
    for action in legal:
        if isinstance(action, TakeCritical):
            return action
    for action in legal:
        if isinstance(action, LeaveCritical):
            return action
    return legal[0]


def expected_gain(values: Sequence[float]) -> float:
    """Expected score change of playing a hand whose cards win ``values`` tricks (R29).

    Minus one per expected trick, plus 5 times the chance of taking none (cards taken as
    independent).  Negative is good: the aim is to reach zero (R28).
    """
    none = 1.0
    for value in values:
        none *= 1.0 - value
    return NO_TRICK_POINTS * none - sum(values)


def rank_exchanges(
    hand: Sequence[Card], legal: Sequence[Action], trump_card: Card
) -> list[tuple[Action, float]]:
    """Rule 2: every legal :class:`Exchange`, best first, with its expected tricks.

    A kept card counts its :func:`card_value`; a card drawn from the stock the mean
    value of the cards this seat has not seen; the trump card, if taken, its own value
    (R19).  Ties keep the order of ``legal``; every sum runs in card order, so the
    result is the same in every process (and in the compiled core's twin).
    """
    trump = trump_card.suit
    draw = mean_unseen_value([*hand, trump_card], trump)
    values = {card: card_value(card, trump) for card in hand}
    kept_total = sum(values.values())
    ranked: list[tuple[Action, float]] = []
    for action in legal:
        if isinstance(action, Exchange):
            # In card order: a frozenset's order follows the cards' addresses, and a sum of
            # floats in another order may differ in its last bit, breaking a tie otherwise.
            given = sum([values[card] for card in sorted(action.discard)])
            drawn = len(action.discard)
            gain = 0.0
            if action.take_trump_card:
                drawn -= 1
                gain = card_value(trump_card, trump)
            ranked.append((action, kept_total - given + gain + drawn * draw))
    ranked.sort(key=lambda item: -item[1])
    return ranked


def _hand_values(hand: Sequence[Card], action: Exchange, trump_card: Card) -> list[float]:
    trump = trump_card.suit
    draw = mean_unseen_value([*hand, trump_card], trump)
    values = [card_value(card, trump) for card in hand if card not in action.discard]
    drawn = len(action.discard)
    if action.take_trump_card:
        values.append(card_value(trump_card, trump))
        drawn -= 1
    return values + [draw] * drawn


def choose_exchange(
    hand: Sequence[Card], legal: Sequence[Action], trump_card: Card, fold_at: float = 0.0
) -> Action:
    """Rules 2 and 3: the best exchange, or a fold when that hand expects to gain (R18–R21).

    ``fold_at`` moves rule 3's threshold: the hand is folded when its expected gain is
    above it, so a negative value folds more (a model of a player who does, see
    :class:`~bohmisch_watten.bots.inference.OpponentModel`).
    """
    ranked = rank_exchanges(hand, legal, trump_card)
    best = ranked[0][0]
    assert isinstance(best, Exchange)
    fold = next((a for a in legal if isinstance(a, Fold)), None)
    if fold is not None and expected_gain(_hand_values(hand, best, trump_card)) > fold_at:
        return fold
    return best


def choose_play(legal: Sequence[Card], trick: Sequence[tuple[int, Card]], trump: Suit) -> Card:
    """Rules 4 and 5: the card to lead or to play to ``trick`` (R24–R27).

    Args:
        legal: the cards that may be played now; when leading that is the whole hand
            (R24), which is what rule 4 judges the trump strength on.
        trick: the plays so far, leader first.
        trump: the trump suit.
    """
    if not trick:
        trumps = sorted((c for c in legal if effective_suit(c, trump) == TRUMP), key=_key(trump))
        strong = len(trumps) >= 3 or (len(trumps) >= 2 and trumps[-1].is_critical)
        if strong:
            return trumps[-1]
        plain = [c for c in legal if effective_suit(c, trump) != TRUMP]
        aces = [c for c in plain if c.rank is Rank.ACE]
        if aces:
            return aces[0]
        return min(plain or legal, key=_key(trump))
    best = winning_play(trick, trump)[1]
    led = effective_suit(trick[0][1], trump)
    winners = [c for c in legal if outranks(c, best, led, trump)]
    if winners:
        return min(winners, key=_key(trump))
    return min(legal, key=_key(trump))


def _key(trump: Suit) -> Callable[[Card], int]:
    return lambda card: card_strength(card, trump)


def decide(
    phase: Phase,
    legal: Sequence[Action],
    hand: Sequence[Card],
    trick: Sequence[tuple[int, Card]],
    trump_card: Card | None,
    fold_at: float = 0.0,
) -> Action:
    """The heuristic's action in ``phase`` from what the seat to act knows.

    Args:
        phase: CUT, EXCHANGE or PLAY.
        legal: the legal actions (not empty).
        hand: the hand of the seat to act (only read in the exchange; may be empty
            elsewhere, so fast callers need not build it).
        trick: the current trick, leader first.
        trump_card: the turned-up trump card (None only during the cut).
        fold_at: rule 3's threshold (:func:`choose_exchange`).
    """
    if len(legal) == 1:
        return legal[0]
    if phase is Phase.CUT or trump_card is None:
        return choose_cut(legal)
    if phase is Phase.EXCHANGE:
        return choose_exchange(hand, legal, trump_card, fold_at)
    cards = [action.card for action in legal if isinstance(action, PlayCard)]
    return PlayCard(choose_play(cards, trick, trump_card.suit))
