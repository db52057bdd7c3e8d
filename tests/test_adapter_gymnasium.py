"""The Gymnasium adapter, proven by Gymnasium's own check_env."""

from __future__ import annotations

import random

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from bohmisch_watten import Action, PlayerView, Position, Rules  # noqa: E402
from bohmisch_watten.adapters.gymnasium import ENV_ID, WattenEnv  # noqa: E402
from bohmisch_watten.bots import HeuristicBot, RandomBot  # noqa: E402
from bohmisch_watten.encoding import observation  # noqa: E402

CHECKER_WARNINGS = "ignore:.*(render modes|render fps|different from the unwrapped)"


@pytest.mark.filterwarnings(CHECKER_WARNINGS)
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("mode", ["deal", "game"])
def test_gymnasium_check_env_on_the_class(players: int, mode: str) -> None:
    check_env(WattenEnv(players, mode=mode, max_deals=3))


@pytest.mark.filterwarnings(CHECKER_WARNINGS)
@pytest.mark.parametrize("mode", ["deal", "game"])
def test_gymnasium_check_env_on_the_registered_id(mode: str) -> None:
    made = gymnasium.make(ENV_ID, players=3, mode=mode, render_mode="ansi")
    assert made.spec is not None
    assert made.spec.id == "BohmischWatten-v0"
    check_env(made.unwrapped)
    check_env(made)


def run_episode(env: WattenEnv, seed: int) -> tuple[float, list[dict[str, object]]]:
    """A masked random policy for the learning seat; total reward and every info."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    total, infos = 0.0, [info]
    done = False
    while not done:
        assert env.observation_space.contains(obs)
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
        infos.append(info)
        done = terminated or truncated
    return total, infos


@pytest.mark.rule("R29", "R30", "R32")
def test_a_deal_pays_minus_the_seats_score_change() -> None:
    for seed in range(4):
        env = WattenEnv(3, seat=1)
        total, infos = run_episode(env, seed)
        start = Position.parse("p3/d1/n2/s20.20.20/f000/default")
        assert env.game_state.start_position == start
        assert env.game_state.deal_number == 3
        assert total == 20 - env.game_state.scores[1]
        assert all("illegal" not in info for info in infos)


@pytest.mark.rule("R34")
def test_a_whole_game_pays_the_returns() -> None:
    env = WattenEnv(2, mode="game", max_deals=500)
    total, _ = run_episode(env, 6)
    assert env.game_state.is_terminal
    assert total == env.game_state.returns()[0]
    assert total in (-1.0, 1.0)


def test_the_deal_cap_truncates_with_reward_zero() -> None:
    env = WattenEnv(4, mode="game", max_deals=1)
    total, _ = run_episode(env, 2)
    assert total == 0.0
    assert env.game_state.deal_number == 2


def test_an_illegal_id_ends_the_episode_with_minus_one() -> None:
    env = WattenEnv(4)
    _, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal"]) == (-1.0, True, False, True)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    env.reset(seed=0)
    _, reward, terminated, _, _ = env.step(1000)  # out of range: illegal too
    assert (reward, terminated) == (-1.0, True)


class Recorder:
    """An opponent that plays the first legal action and records the views it got."""

    def __init__(self) -> None:
        self.views: list[PlayerView] = []

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        self.views.append(view)
        return view.legal_actions()[0]


@pytest.mark.rule("R13")
def test_opponents_get_their_own_views_and_the_seat_its_encoding() -> None:
    bots = [Recorder(), Recorder()]
    env = WattenEnv(3, seat=2, opponents=bots)
    obs, _ = env.reset(seed=5)
    assert obs.tolist() == pytest.approx(observation(env.game_state.view(2)))
    run_episode(env, 5)
    assert bots[0].views
    assert {v.player for v in bots[0].views} == {0}
    assert {v.player for v in bots[1].views} == {1}


def test_opponents_come_from_the_bots_module() -> None:
    assert set(WattenEnv(3).opponents.values()) == {RandomBot()}
    named = WattenEnv(3, opponents="heuristic")
    assert list(named.opponents) == [1, 2]
    assert all(isinstance(bot, HeuristicBot) for bot in named.opponents.values())
    mixed = WattenEnv(3, seat=1, opponents=[RandomBot(), "heuristic"])
    assert mixed.opponents == {0: RandomBot(), 2: HeuristicBot()}
    run_episode(mixed, 3)


def test_seeds_make_episodes_repeatable() -> None:
    first = run_episode(WattenEnv(4), 9)
    again = run_episode(WattenEnv(4), 9)
    assert first[0] == again[0]
    assert [i["action_mask"].tolist() for i in first[1]] == [
        i["action_mask"].tolist() for i in again[1]
    ]


def test_episodes_after_a_seed_draw_on_from_it() -> None:
    """reset(seed) seeds one generator; the episodes of reset() after it draw on from
    that generator: the same sequence after the same seed, a new deal each time."""

    def deals(env: WattenEnv, seed: int) -> list[tuple[int, ...]]:
        env.reset(seed=seed)
        hands = [env.game_state.hand_masks]
        for _ in range(4):
            env.reset()
            hands.append(env.game_state.hand_masks)
        return hands

    first = deals(WattenEnv(4), 21)
    assert first == deals(WattenEnv(4), 21)
    assert len(set(first)) == len(first)  # every episode a new shuffle
    assert deals(WattenEnv(4), 22) != first


def test_ansi_render_shows_the_learning_seat_only() -> None:
    env = WattenEnv(2, seat=1, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert text is not None
    assert text == str(env.game_state.view(1))
    assert "seat 1: " + " ".join(str(c) for c in env.game_state.hands[1]) in text
    assert " ".join(str(c) for c in env.game_state.hands[0]) not in text
    assert WattenEnv(2).render() is None


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"players": 1}, ValueError),
        ({"rules": "x"}, ValueError),
        ({"rules": "schleck=sometimes"}, ValueError),
        ({"rules": {"must_head": "no"}}, TypeError),
        ({"rules": {"colour": 1}}, TypeError),
        ({"rules": {"start_score": 5000}}, ValueError),
        ({"rules": 3}, TypeError),
        ({"players": "four"}, ValueError),
        ({"players": 2.0}, TypeError),
        ({"seat": 4}, ValueError),
        ({"mode": "match"}, ValueError),
        ({"max_deals": 0}, ValueError),
        ({"render_mode": "human"}, ValueError),
        ({"opponents": [Recorder()]}, ValueError),
        ({"opponents": object()}, TypeError),
        ({"opponents": "nobody"}, ValueError),
        ({"position": "p4/d0/n1/s20.20.20.20/f0000/schleck:none"}, ValueError),
        ({"position": "p3/d0/n1/s20.20.20/f000/default"}, ValueError),
    ],
)
def test_bad_arguments_are_refused(kwargs: dict[str, object], error: type[Exception]) -> None:
    with pytest.raises(error):
        WattenEnv(**{"players": 4, **kwargs})  # type: ignore[arg-type]


def test_a_position_text_sets_the_deal() -> None:
    text = "p4/d3/n9/s4.11.2.20/f0100/schleck:none"
    env = WattenEnv(4, rules=Rules(schleck="none"), position=text)
    env.reset(seed=0)
    assert str(env.game_state.start_position) == text


@pytest.mark.parametrize("action", [None, 1.5, "3"])
def test_a_non_integer_action_is_a_type_error(action: object) -> None:
    env = WattenEnv(2)
    env.reset(seed=0)
    with pytest.raises(TypeError, match="action"):
        env.step(action)


@pytest.mark.filterwarnings(CHECKER_WARNINGS)
@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("mode", ["deal", "game"])
def test_check_env_in_self_play(players: int, mode: str) -> None:
    env = WattenEnv(players, mode=mode, max_deals=3, opponents="self")
    assert env.seat is None
    assert env.opponents == {}
    check_env(env)


def self_play_episode(env: WattenEnv, seed: int) -> list[tuple[int, float, np.ndarray]]:
    """A masked random policy for every seat; per step (actor, reward, every seat's).

    Checks on every step that the observation is the acting seat's own view encoding
    (R13, R23: nothing another seat holds) and that ``info["seat"]`` is the seat to act.
    """
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    steps = []
    done = False
    while not done:
        state = env.game_state
        seat = info["seat"]
        assert seat == state.current_player == env.seat_to_act
        assert obs.tolist() == pytest.approx(observation(state.view(seat)))
        assert info["action_mask"].sum() == len(state.legal_actions())
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        assert reward == info["rewards"][seat]
        steps.append((seat, reward, info["rewards"]))
        done = terminated or truncated
    # Over: the last acting seat's observation.
    assert info["seat"] == steps[-1][0]
    assert obs.tolist() == pytest.approx(observation(env.game_state.view(info["seat"])))
    return steps


@pytest.mark.rule("R13", "R29", "R30", "R32")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_self_play_steps_every_seat_on_its_own_view_and_pays_all_seats(players: int) -> None:
    for seed in range(3):
        env = WattenEnv(players, opponents="self")
        steps = self_play_episode(env, seed)
        assert {actor for actor, _, _ in steps} == set(range(players))
        totals = np.sum([every for _, _, every in steps], axis=0)
        assert totals.tolist() == [20 - score for score in env.game_state.scores]
        # One step posts the deal; every earlier one pays nobody.
        assert all(not every.any() for _, _, every in steps[:-1])


@pytest.mark.rule("R34")
def test_self_play_of_a_whole_game_pays_every_seat_its_return() -> None:
    env = WattenEnv(3, mode="game", max_deals=500, opponents="self")
    steps = self_play_episode(env, 4)
    assert env.game_state.is_terminal
    assert steps[-1][2].tolist() == list(env.game_state.returns())


def test_an_illegal_id_in_self_play_costs_the_acting_seat_only() -> None:
    env = WattenEnv(3, opponents=" self ")
    _, info = env.reset(seed=2)
    seat = info["seat"]
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal"]) == (-1.0, True, True)
    assert info["rewards"].tolist() == [-1.0 if s == seat else 0.0 for s in range(3)]
