"""What a seat has been able to see, computed from the full game, for leak tests.

Independent of :mod:`bohmisch_watten.views`: the game is replayed from its history and,
after every action, the cards the rules let ``seat`` see are collected (R13, R23).
"""

from __future__ import annotations

import re

from bohmisch_watten import Card, GameState, Phase, new_game

CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9])[EGHS](?:10|[AKOU6789])(?![A-Za-z0-9])")
"""A card in notation inside any text (a JSON frame, a log line, an SVG)."""


def _look(state: GameState, seat: int, known: set[Card]) -> None:
    if state.phase in (Phase.CUT, Phase.EXCHANGE, Phase.PLAY):
        known.update(state.hands[seat])
        known.update(state.discards[seat])
        for who, card, taken, _ in state.cut_looks:
            if taken or who == seat:
                known.add(card)
        if state.trump_card is not None:
            known.add(state.trump_card)
        known.update(card for _, card in state.trick)
        for trick in state.tricks:
            known.update(card for _, card in trick.plays)
    if state.last_deal is not None:
        known.add(state.last_deal.trump_card)
        for trick in state.last_deal.tricks:
            known.update(card for _, card in trick.plays)


def known_cards(state: GameState, seat: int) -> set[str]:
    """Every card ``seat`` has seen so far in the game, in notation."""
    n = state.num_players
    first = (state.dealer - (state.deal_number - 1)) % n
    replay = new_game(n, rules=state.rules, dealer=first)
    known: set[Card] = set()
    _look(replay, seat, known)
    for _, action in state.history:
        replay = replay.apply(action)
        _look(replay, seat, known)
    return {str(card) for card in known}


def cards_in(text: str) -> set[str]:
    """The card codes written anywhere in ``text``."""
    return set(CARD_TOKEN.findall(text))
