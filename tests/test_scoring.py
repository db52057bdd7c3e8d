"""Scoring and the end of the game (R28–R34)."""

from __future__ import annotations

import pytest

from bohmisch_watten import Phase, Rules
from bohmisch_watten.scoring import deal_points, game_result, post_scores

from helpers import dealt_state, keep_all, play_cards

DEFAULT = Rules()
HEARTS, LEAVES = 2, 1


@pytest.mark.rule("R29")
def test_minus_one_per_trick_plus_five_for_none_folded_nothing() -> None:
    points = deal_points((2, 0, 3, 0), (False, False, False, True), LEAVES, DEFAULT)
    assert points == (-2, 5, -3, 0)


@pytest.mark.rule("R30")
def test_hearts_double() -> None:
    points = deal_points((2, 0, 3, 0), (False, False, False, True), HEARTS, DEFAULT)
    assert points == (-4, 10, -6, 0)
    plain = deal_points(
        (2, 0, 3, 0), (False, False, False, True), HEARTS, Rules(hearts_double=False)
    )
    assert plain == (-2, 5, -3, 0)


@pytest.mark.rule("R31")
def test_below_zero_stays_below_zero_by_default() -> None:
    assert post_scores((2, 10), (-3, 5), DEFAULT) == (-1, 15)


@pytest.mark.rule("R32")
def test_overshoot_added_back() -> None:
    rules = Rules(overshoot="added_back")
    assert post_scores((2, 10, 3), (-3, 5, -3), rules) == (3, 15, 0)
    assert post_scores((2,), (-6,), rules) == (6,)  # doubled: excess 4


@pytest.mark.rule("R31", "R34")
def test_game_goes_on_until_someone_reaches_zero() -> None:
    assert game_result((1, 5, 20), DEFAULT) == ((), ())


@pytest.mark.rule("R31", "R34")
def test_winners_and_losers() -> None:
    assert game_result((0, 5, 20, 20), DEFAULT) == ((0,), (2, 3))
    assert game_result((-2, 0, 7, 3), DEFAULT) == ((0, 1), (2,))


@pytest.mark.rule("R34")
def test_everyone_reached_the_goal() -> None:
    assert game_result((-1, -3, 0), DEFAULT) == ((1,), (2,))
    assert game_result((-2, -2, 0, -1), DEFAULT) == ((0, 1), (2,))
    assert game_result((-1, -1), DEFAULT) == ((), ())  # all equal: the game goes on


@pytest.mark.rule("R32")
def test_added_back_only_exact_zero_wins() -> None:
    rules = Rules(overshoot="added_back")
    assert game_result((1, 3), rules) == ((), ())
    assert game_result((0, 3, 3), rules) == ((0,), (1, 2))


@pytest.mark.rule("R33")
def test_plus_fifty() -> None:
    rules = Rules(plus_fifty=True)
    assert game_result((50, 10, 20), rules) == ((0,), (2,))
    assert game_result((52, 0, 20), rules) == ((0, 1), (2,))  # both win (R33)
    assert game_result((52, 10, 20), DEFAULT) == ((), ())


@pytest.mark.rule("R28", "R29", "R31", "R34")
def test_a_deal_is_scored_and_ends_the_game() -> None:
    # Two players, start score 2; forehand (seat 1) holds the top trumps and takes 3.
    dealt = {1: "HK S7 E7 GA E9", 0: "GK G7 E8 S10 S9"}
    state = keep_all(dealt_state(2, dealt, "G8", rules=Rules(start_score=2)))
    state = play_cards(state, "HK G7 S7 GK E7 E8")
    assert state.tricks_won == (0, 3)
    # Seat 1 leads E9; seat 0 has no Acorns left (E8 gone) and must trump... none left.
    state = play_cards(state, "E9 S9 GA S10")
    assert state.phase is Phase.GAME_OVER
    assert state.is_terminal
    assert state.last_deal is not None
    assert state.last_deal.tricks_won == (0, 5)
    assert state.last_deal.points == (5, -5)
    assert state.scores == (7, -3)
    assert state.winners == (1,)
    assert state.losers == (0,)
    assert state.legal_actions() == ()
    assert state.current_player is None
    assert "winners [1]" in repr(state)


@pytest.mark.rule("R30")
def test_a_hearts_deal_is_recorded_as_doubled() -> None:
    dealt = {1: "HA HO E7 GA E9", 0: "GK G7 E8 S10 S9"}
    state = keep_all(dealt_state(2, dealt, "H8"))
    while state.phase is Phase.PLAY:
        state = state.apply(state.legal_actions()[0])
    assert state.last_deal is not None
    assert state.last_deal.doubled
    assert sum(state.last_deal.points) == sum(
        -2 * t if t else 10 for t in state.last_deal.tricks_won
    )


@pytest.mark.rule("R31")
def test_post_scores_refuses_points_for_another_number_of_seats() -> None:
    with pytest.raises(ValueError, match="one entry per seat"):
        post_scores((2, 10), (-3, 5, 1), DEFAULT)
