"""Whole random games under every variant end with proper winners and losers (R31, R34)."""

from __future__ import annotations

import itertools

import pytest

from bohmisch_watten import Rules

from helpers import VARIANTS, random_game


@pytest.mark.rule("R22", "R31", "R34")
@pytest.mark.parametrize(("num_players", "rules"), list(itertools.product((2, 3, 4), VARIANTS)))
def test_random_games_end_with_winners_and_losers(num_players: int, rules: Rules) -> None:
    finished = 0
    for seed in range(12):
        state, states = random_game(num_players, seed, rules, max_deals=150)
        for s in states:
            if s.phase.name in ("EXCHANGE", "PLAY") and s.current_player is not None:
                assert s.folded.count(False) >= 2  # R22
        if not state.is_terminal:
            continue  # random play can drift upwards for a long time; see the docs
        finished += 1
        assert state.winners
        assert state.losers
        assert not set(state.winners) & set(state.losers)
    assert finished >= 6
