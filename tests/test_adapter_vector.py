"""The vector env: N games in one call, exactly Gymnasium's SyncVectorEnv over WattenEnv."""

from __future__ import annotations

import gc
import random
from typing import Any

import pytest

gymnasium = pytest.importorskip("gymnasium")

import numpy as np  # noqa: E402

from bohmisch_watten import Rules, new_game  # noqa: E402
from bohmisch_watten.adapters.fast import bot_action  # noqa: E402
from bohmisch_watten.adapters.gymnasium import ENV_ID, WattenEnv  # noqa: E402
from bohmisch_watten.adapters.vector import WattenVectorEnv  # noqa: E402
from bohmisch_watten.bots import HeuristicBot, RandomBot  # noqa: E402
from bohmisch_watten.encoding import observation  # noqa: E402

from game_strategies import policy  # noqa: E402


def random_ids(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.asarray((rng.random(masks.shape) * masks).argmax(axis=1))


def assert_same(ours: tuple[Any, ...], theirs: tuple[Any, ...]) -> None:
    for mine, other in zip(ours[:-1], theirs[:-1], strict=True):
        np.testing.assert_array_equal(mine, other)
    assert set(ours[-1]) == set(theirs[-1])
    for key, value in ours[-1].items():
        np.testing.assert_array_equal(value, theirs[-1][key])


@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": 3, "mode": "game", "max_deals": 3, "opponents": "random,heuristic"},
        {"players": "2", "rules": "must_head=false", "seat": "1"},
        {"players": 4, "rules": {"schleck": "none"}},
        {"players": 4, "opponents": "self"},
        {"players": 3, "mode": "game", "max_deals": 3, "opponents": "self"},
    ],
)
def test_it_steps_exactly_as_sync_vector_env(kwargs: dict[str, Any]) -> None:
    """Same seeds, observations, rewards, ends, infos and autoresets (next step)."""
    ours = gymnasium.make_vec(ENV_ID, num_envs=4, vectorization_mode="vector_entry_point", **kwargs)
    assert isinstance(ours, WattenVectorEnv)
    assert ours.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP
    theirs = gymnasium.vector.SyncVectorEnv([lambda: WattenEnv(**kwargs) for _ in range(4)])
    assert ours.single_observation_space == theirs.single_observation_space
    assert ours.observation_space == theirs.observation_space
    assert ours.action_space == theirs.action_space
    first = ours.reset(seed=3)
    assert_same(first, theirs.reset(seed=3))
    rng = np.random.default_rng(0)
    infos = first[1]
    ended = 0
    for t in range(250):
        actions = random_ids(infos["action_mask"], rng)
        if t % 41 == 7:
            actions[1] = 98  # never legal: ends that game with -1 (then autoreset)
        step = ours.step(actions)
        assert_same(step, theirs.step(actions))
        assert ours.observation_space.contains(step[0])
        infos = step[-1]
        ended += int(step[2].sum() + step[3].sum())
    assert ended > 4  # episodes ended and were reset along the way


@pytest.mark.parametrize("native", [False, None])
def test_seed_lists_and_reset_masks(native: bool | None) -> None:
    """Seeds per game, and a masked reset restarts only its games (either core)."""
    envs = WattenVectorEnv(3, players=2, native=native)
    obs, _ = envs.reset(seed=[5, 6, 7])
    again, _ = WattenVectorEnv(3, players=2, native=native).reset(seed=5)
    np.testing.assert_array_equal(obs, again)
    stepped = envs.step(random_ids(envs.reset(seed=1)[1]["action_mask"], np.random.default_rng(1)))
    mask = np.array([False, True, False])
    before = envs.games[0].state if envs.games else None
    masked, _ = envs.reset(seed=9, options={"reset_mask": mask})
    np.testing.assert_array_equal(masked[0], stepped[0][0])  # game 0 as it was
    fresh = WattenVectorEnv(3, players=2, native=native)
    np.testing.assert_array_equal(masked[1], fresh.reset(seed=9)[0][1])  # seeded with 9 + 1
    if before is not None:
        assert envs.games[0].state is before
        assert envs.games[1].state == fresh.games[1].state
    unseeded, _ = WattenVectorEnv(2, players=2, native=native).reset()
    assert unseeded.shape == (2, 334)


@pytest.mark.parametrize(
    ("call", "error", "name"),
    [
        (lambda: WattenVectorEnv(0), ValueError, "num_envs"),
        (lambda: WattenVectorEnv("x"), ValueError, "num_envs"),
        (lambda: WattenVectorEnv(2, players=5), ValueError, "players"),
        (lambda: WattenVectorEnv(2, rules="nonsense"), ValueError, "rules"),
        (lambda: WattenVectorEnv(2, render_mode="ansi"), ValueError, "render_mode"),
        (lambda: WattenVectorEnv(2, opponents=3), TypeError, "opponents"),
        (lambda: WattenVectorEnv(2, position=4), TypeError, "position"),
        (lambda: WattenVectorEnv(2).reset(seed=[1]), ValueError, "seed"),
        (
            lambda: WattenVectorEnv(2).reset(options={"reset_mask": np.zeros(2, bool)}),
            ValueError,
            "reset_mask",
        ),
        (lambda: WattenVectorEnv(2).step([1, 2, 3]), ValueError, "actions"),
    ],
)
def test_bad_arguments_name_the_parameter(call: Any, error: type[Exception], name: str) -> None:
    with pytest.raises(error, match=name):
        call()


def test_rules_as_text_reach_every_game() -> None:
    envs = gymnasium.make_vec(
        ENV_ID,
        num_envs=2,
        vectorization_mode="vector_entry_point",
        rules="must_head=false",
        native=False,
    )
    envs.reset(seed=0)
    assert {game.state.rules for game in envs.games} == {Rules(must_head=False)}
    assert envs.rules == Rules(must_head=False)
    single = gymnasium.make(ENV_ID, rules="must_head=false,schleck=none")
    single.reset(seed=0)
    assert single.unwrapped.game_state.rules == Rules(must_head=False, schleck="none")


def test_bots_moved_from_the_state_choose_as_from_their_view() -> None:
    """The fast path reads only values the acting seat's view has equally (R13, R23)."""
    rng = random.Random(4)
    checked = 0
    for n in (2, 3, 4):
        state = new_game(n)
        for _ in range(400):
            if state.is_terminal:
                state = new_game(n)
            if not state.is_chance_node:
                seat = state.current_player
                assert seat is not None
                view = state.view(seat)
                assert state.legal_actions() == view.legal_actions()
                for bot in (RandomBot(), HeuristicBot()):
                    k = rng.randrange(2**32)
                    fast = bot_action(bot, state, seat, random.Random(k))
                    assert fast == bot.choose(view, random.Random(k))
                checked += 1
            state = state.apply(policy(state, rng))
    assert checked > 500


def test_steps_leave_almost_nothing_alive() -> None:
    """What a step allocates is freed by the next steps, so Python's cyclic garbage
    collector (which runs after every few hundred objects left alive) seldom runs:
    the encoding's memo holds the current objects of each game only.  With the cyclic
    collector off, its count of objects left alive over 100 steps of 32 games stays
    under two a game step (about 2,700, measured; a memo of a few thousand entries
    left about 25,000)."""
    envs = WattenVectorEnv(32)
    _, infos = envs.reset(seed=8)
    rng = np.random.default_rng(8)
    for _ in range(30):  # every game in a deal, every memo filled
        _, _, _, _, infos = envs.step(random_ids(infos["action_mask"], rng))
    gc.collect()
    gc.disable()
    try:
        before = gc.get_count()[0]
        for _ in range(100):
            _, _, _, _, infos = envs.step(random_ids(infos["action_mask"], rng))
        left = gc.get_count()[0] - before
    finally:
        gc.enable()
    assert left < 100 * 32 * 2, left


@pytest.mark.rule("R13", "R23")
def test_self_play_rows_are_the_acting_seats_own_views() -> None:
    """In self-play each row is the encoding of the view of its game's seat to act —
    nothing of another seat's hand — and ``infos["seat"]`` names that seat."""
    envs = WattenVectorEnv(6, players=3, opponents="self", native=False)
    obs, infos = envs.reset(seed=11)
    rng = np.random.default_rng(11)
    ended = np.zeros(6, np.bool_)
    seats_seen: set[int] = set()
    for _ in range(60):
        for i, game in enumerate(envs.games):
            seat = int(infos["seat"][i])
            if not ended[i]:
                assert seat == game.state.current_player
                seats_seen.add(seat)
            assert obs[i].tolist() == pytest.approx(observation(game.state.view(seat)))
        obs, _, terminated, truncated, infos = envs.step(random_ids(infos["action_mask"], rng))
        ended = terminated | truncated
        if "rewards" in infos:
            live = infos["_rewards"]
            assert (infos["rewards"][live].sum(axis=1) != 0).sum() <= ended.sum()
    assert seats_seen == {0, 1, 2}
