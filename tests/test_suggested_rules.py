"""``suggested_rules``: the rules the rule book suggests for a table (RULES.md §9.3)."""

from __future__ import annotations

import random

import pytest

import bohmisch_watten
from bohmisch_watten import Rules, new_game, suggested_rules
from bohmisch_watten.bots import HeuristicBot


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("pack", [32, 36])
def test_small_tables_get_the_default_rules(players: int, pack: int) -> None:
    assert suggested_rules(players, pack) == Rules(pack=pack)
    assert suggested_rules(players, pack=pack) == Rules(pack=pack)


@pytest.mark.rule("R33")
@pytest.mark.parametrize("players", [5, 6, 7])
def test_big_tables_get_plus_fifty_and_nothing_else(players: int) -> None:
    rules = suggested_rules(players, 36)
    assert rules == Rules(pack=36, plus_fifty=True)
    assert str(rules) == "plus_fifty=true,pack=36"


def test_exported_from_the_package() -> None:
    assert "suggested_rules" in bohmisch_watten.__all__
    assert bohmisch_watten.suggested_rules is suggested_rules
    assert suggested_rules(4) == Rules()


@pytest.mark.parametrize(
    ("args", "error", "message"),
    [
        (("7",), TypeError, r"suggested_rules\(num_players\): num_players must be an int, got str"),
        ((True,), TypeError, "num_players must be an int, got bool"),
        ((4, "36"), TypeError, r"suggested_rules\(pack=\): pack must be an int, got str"),
        ((4, 40), ValueError, r"pack must be 32 or 36 \(R6\), got 40"),
        (
            (7,),
            ValueError,
            r"num_players must be 2 to 4 with the 32-card pack \(R1\), got 7;"
            " five to seven play with pack=36",
        ),
        ((8, 36), ValueError, r"num_players must be 2 to 7 with the 36-card pack \(R1\), got 8"),
        ((1, 36), ValueError, "num_players must be 2 to 7 .* got 1$"),
    ],
)
def test_bad_arguments_are_named(args: tuple[object, ...], error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        suggested_rules(*args)  # type: ignore[arg-type]


def _deals_to_end(rules: Rules, players: int, seed: int, cap: int) -> int | None:
    rng = random.Random(seed)
    bot = HeuristicBot()
    state = new_game(players, rules=rules)
    while not state.is_terminal:
        if state.is_chance_node:
            if state.deal_number > cap:
                return None
            state = state.apply(state.sample_chance(rng))
        else:
            seat = state.current_player
            assert seat is not None
            state = state.apply(bot.choose(state.view(seat), rng))
    return state.deal_number


@pytest.mark.rule("R29", "R31", "R33")
def test_the_suggestion_ends_a_game_the_default_rules_do_not() -> None:
    """Game 3 of seven heuristic seats (the seed of a newcomer's demo run) runs past 100
    deals under the default rules with 36 cards and ends under the suggested rules."""
    assert _deals_to_end(Rules(pack=36), 7, 3, cap=100) is None
    ended = _deals_to_end(suggested_rules(7, 36), 7, 3, cap=100)
    assert ended is not None
