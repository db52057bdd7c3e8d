"""Builders for exact test scenarios: stacked packs and scripted deals."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence

from bohmisch_watten import (
    DECK,
    Card,
    Exchange,
    Fold,
    GameState,
    LeaveCritical,
    Phase,
    Rules,
    Shuffle,
    new_game,
)

VARIANTS: list[Rules] = [
    Rules(),
    Rules(schleck="cutter_only"),
    Rules(schleck="none"),
    Rules(dealer_stock_limit=3),
    Rules(must_head=False),
    Rules(overshoot="added_back"),
    Rules(plus_fifty=True),
    Rules(hearts_double=False),
    Rules(min_fold_score=10, start_score=15),
]
"""One rule set per variant value of RULES.md §8 (defaults first), for tests over variants."""


def cards(codes: str) -> list[Card]:
    """``cards("HK S7 G10")`` -> the three cards."""
    return [Card.parse(c) for c in codes.split()]


def stack_pack(
    num_players: int,
    dealer: int,
    dealt: Mapping[int, str],
    trump: str,
    *,
    stock: str = "",
    bottom: str = "",
    taken: Mapping[int, int] | None = None,
) -> Shuffle:
    """A pack that deals exactly ``dealt`` (R15) if the cut ritual takes what ``taken`` says.

    A thin layer over :meth:`Shuffle.deal` for terse scenarios: notation strings,
    partial hands filled up with unnamed cards, and the bottom of the pack spelled out.

    Args:
        dealt: per seat, the cards dealt to it in dealing order (first packet of 3 − k,
            then 2), e.g. ``{1: "EA EK EO EU E10"}``.  Seats left out get filler cards.
        trump: the card turned up between the packets.
        stock: the first stock cards, top first.
        bottom: the bottom cards, C1 (the cut card) first, then C2, C3 (R11, R12).
        taken: per seat, how many Criticals it takes in the ritual (k of R15); those
            must be the first cards of ``bottom`` in ritual order.
    """
    taken = dict(taken or {})
    n = num_players
    low = cards(bottom)
    k = sum(taken.values())
    takes, cut, above = low[:k], (low[k] if len(low) > k else None), low[k + 1 :]
    # R12, R14: the cutter alone takes more than one Critical only under cutter_only.
    cutter_only = k > 1 and not taken.get(dealer)
    cutter = (dealer - 1) % n
    owners = [cutter if cutter_only or i % 2 == 0 else dealer for i in range(k)]
    assert all(owners.count(s) == c for s, c in taken.items()), "taken does not fit R12"
    named = [c for text in dealt.values() for c in cards(text)]
    named += [Card.parse(trump), *cards(stock), *low]
    assert len(set(named)) == len(named), "a card is named twice"
    filler = iter(c for c in DECK if c not in named)
    order = [(dealer + 1 + i) % n for i in range(n)]
    hands = {s: cards(dealt.get(s, "")) for s in order}
    for s in order:
        while len(hands[s]) < 5 - taken.get(s, 0):
            hands[s].append(next(filler))
        hands[s] += [card for card, owner in zip(takes, owners, strict=True) if owner == s]
    top = cards(stock)
    if above:  # cards above the cut card: spell out the whole stock (R15: 31 - 5n cards)
        middle = list(filler)
        top += middle[: 31 - 5 * n - 1 - len(top) - len(above)] + above[::-1]
        top.append(cut)  # type: ignore[arg-type]
    return Shuffle.deal(
        [hands[s] for s in range(n)],
        Card.parse(trump),
        dealer=dealer,
        stock=top,
        cut_card=cut,
        taken=takes,
        rules=Rules(schleck="cutter_only" if cutter_only else "alternate"),
    )


def dealt_state(
    num_players: int,
    dealt: Mapping[int, str],
    trump: str,
    *,
    dealer: int = 0,
    rules: Rules | None = None,
    stock: str = "",
    state: GameState | None = None,
) -> GameState:
    """A state in the EXCHANGE phase right after a stacked deal (no Critical taken)."""
    if state is None:
        state = new_game(num_players, rules=rules or Rules(), dealer=dealer)
    assert state.phase is Phase.DEAL
    # A non-Critical cut card, so the ritual passes straight through (R12).
    named = set(cards(" ".join(dealt.values()) + " " + trump + " " + stock))
    cut = next(c for c in reversed(DECK) if not c.is_critical and c not in named)
    state = state.apply(
        stack_pack(num_players, state.dealer, dealt, trump, stock=stock, bottom=str(cut))
    )
    while state.phase is Phase.CUT:
        state = state.apply(LeaveCritical())
    assert state.phase is Phase.EXCHANGE
    return state


def keep_all(state: GameState) -> GameState:
    """Everybody still to decide plays without exchanging (R18)."""
    while state.phase is Phase.EXCHANGE:
        state = state.apply(Exchange(frozenset()))
    return state


def play_out_deal(state: GameState, rng: random.Random | None = None) -> GameState:
    """Finish the current deal: no folds, random legal plays (first ones without ``rng``)."""
    deal = state.deal_number
    while state.deal_number == deal and not state.is_terminal:
        options = [a for a in state.legal_actions() if not isinstance(a, Fold)]
        state = state.apply(rng.choice(options) if rng else options[0])
    return state


def play_cards(state: GameState, codes: str) -> GameState:
    """Play the given cards in order, each by whoever is to act."""
    from bohmisch_watten import PlayCard

    for card in cards(codes):
        state = state.apply(PlayCard(card))
    return state


def random_game(
    num_players: int, seed: int, rules: Rules | None = None, max_deals: int = 2000
) -> tuple[GameState, list[GameState]]:
    """A whole random game; returns the final state and every state on the way."""
    rng = random.Random(seed)
    state = new_game(num_players, rules=rules or Rules())
    states = [state]
    while not state.is_terminal and state.deal_number <= max_deals:
        action = (
            state.sample_chance(rng) if state.is_chance_node else rng.choice(state.legal_actions())
        )
        state = state.apply(action)
        states.append(state)
    return state, states


def seats(items: Iterable[tuple[int, Card]]) -> list[int]:
    return [s for s, _ in items]


def codes(items: Sequence[Card]) -> str:
    return " ".join(str(c) for c in items)
