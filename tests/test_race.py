"""The race model of ExpertBot: win chances from the scores, and their worth in points."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bohmisch_watten import Rules
from bohmisch_watten.bots._race import RaceValue, strength, win_chances
from bohmisch_watten.bots._race_tables import LOW, STRENGTH
from bohmisch_watten.rules import Overshoot

scores = st.integers(min_value=1, max_value=120)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_lower_score_is_never_weaker(players: int) -> None:
    table = STRENGTH[players - 2]
    assert len(table) == 100
    assert all(a >= b for a, b in itertools.pairwise(table))
    assert table[0] > table[19] > table[-1]  # the goal is near at 1, far at 100 (R28)
    assert strength(-3, players) == table[0] == strength(LOW, players)
    assert strength(500, players) == table[-1]


@pytest.mark.parametrize("players", [5, 6, 7])
def test_five_to_seven_players_use_the_four_player_table(players: int) -> None:
    """No table is fitted beyond four players: the nearest one stands in (R1)."""
    for score in (-3, 1, 7, 20, 63, 500):
        assert strength(score, players) == strength(score, 4)
    judge = RaceValue((3,) + (20,) * (players - 1), 1, Rules(pack=36))
    assert judge.value((3, 18) + (20,) * (players - 2)) > 0  # two points nearer the goal


@given(st.lists(scores, min_size=2, max_size=7))
def test_chances_of_a_game_going_on_sum_to_one(values: list[int]) -> None:
    chances = win_chances(values, Rules())
    assert sum(chances) == pytest.approx(1.0)
    best = min(values)
    assert chances[values.index(best)] == max(chances)  # the lowest score leads (R31)


@pytest.mark.rule("R31", "R34")
def test_chances_are_exact_once_the_game_is_over() -> None:
    assert win_chances((0, 7, 9, 3), Rules()) == (1.0, 0.0, 0.0, 0.0)
    assert win_chances((-2, 7, 0), Rules()) == (0.5, 0.0, 0.5)  # a shared win: 1/k
    # R32: with the excess added back only an exact 0 wins.
    assert win_chances((0, 3), Rules(overshoot=Overshoot.ADDED_BACK)) == (1.0, 0.0)


@pytest.mark.rule("R29", "R31")
def test_far_from_the_goal_a_deal_is_worth_about_its_points() -> None:
    judge = RaceValue((20, 20, 20, 20), 0, Rules())
    assert judge.value((20, 20, 20, 20)) == pytest.approx(0.0)
    assert judge.value((19, 20, 20, 20)) == pytest.approx(1.0, abs=0.25)
    assert judge.value((25, 20, 20, 20)) == pytest.approx(-5.0, abs=1.5)
    # The others' progress counts too: a rival's two tricks cost me something.
    assert judge.value((20, 18, 20, 20)) < 0


@pytest.mark.rule("R31", "R34")
def test_near_the_goal_the_game_ending_tricks_weigh_the_game() -> None:
    judge = RaceValue((2, 3, 15, 15), 0, Rules())
    win = judge.value((0, 3, 15, 15))  # two tricks end the game for me
    lose = judge.value((2, 0, 15, 15))  # the rival ends it instead
    assert win > 2 + 2  # more than the two points
    assert lose < -3  # far worse than keeping my score
    assert win > judge.value((1, 3, 15, 15)) > judge.value((2, 3, 15, 15)) > lose
