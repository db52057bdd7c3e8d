"""The batched API of the compiled core plays exactly the Python episodes.

:class:`~bohmisch_watten.adapters.batch.BatchGames` (src/native/batch.c) is driven side
by side with N Python :class:`SeatGame` episodes seeded with the same
``random.Random`` seeds, and after every step the observations are compared element
for element with :class:`~bohmisch_watten.adapters.fast.Encoder` (itself proven equal
to the view encoding), and so are the masks, seats, rewards of every seat, episode
ends, illegal ids and autoresets.  The compiled heuristic bot is compared with
:class:`~bohmisch_watten.bots.HeuristicBot` on its view over many decisions of every
table size and variant.  Hostile arguments raise TypeError/ValueError, never crash.
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from bohmisch_watten import (  # noqa: E402
    Rules,
    native_core,
    new_game,
)
from bohmisch_watten.adapters._seat_game import SeatGame  # noqa: E402
from bohmisch_watten.adapters.fast import Encoder  # noqa: E402
from bohmisch_watten.bots import HeuristicBot, SearchBot  # noqa: E402
from bohmisch_watten.encoding import action_to_id, id_to_action  # noqa: E402

NATIVE = native_core.module
if NATIVE is None:
    if os.environ.get("BOHMISCH_WATTEN_NATIVE") == "0" or (
        os.environ.get("BOHMISCH_WATTEN_BUILD_NATIVE") == "0"
    ):
        from bohmisch_watten.adapters.batch import BatchGames

        def test_batch_games_needs_the_compiled_core() -> None:
            with pytest.raises(RuntimeError, match="compiled core"):
                BatchGames(2)

    else:  # a missing build is a failure, not a skip

        def test_the_compiled_core_is_built() -> None:
            raise AssertionError("the compiled core did not import: build it (setup.py)")

else:
    from bohmisch_watten.adapters.batch import _NEUMAIER, BatchGames, _native_start
    from bohmisch_watten.adapters.vector import WattenVectorEnv

    CONFIGS: list[dict[str, Any]] = [
        {"players": 4},
        {"players": 3, "mode": "game", "max_deals": 3, "opponents": "random"},
        {"players": 4, "opponents": "heuristic", "seat": 2},
        {"players": 2, "opponents": "heuristic", "rules": "schleck=none"},
        {"players": 3, "opponents": "random,heuristic", "rules": "dealer_stock_limit=3"},
        {"players": 2, "rules": "pack=36,must_head=false"},
        {"players": 5, "rules": "pack=36", "opponents": "heuristic", "seat": 4},
        {"players": 7, "rules": "pack=36,dealer_stock_limit=3", "opponents": "random"},
        {"players": 6, "rules": "pack=36,schleck=cutter_only", "mode": "game", "max_deals": 2},
        {
            "players": 3,
            "rules": "overshoot=added_back,plus_fifty=true,start_score=6",
            "mode": "game",
            "opponents": "heuristic",
            "max_deals": 40,
        },
        {
            "players": 4,
            "rules": "hearts_double=false,min_fold_score=-5",
            "mode": "game",
            "max_deals": 2,
        },
    ]

    def python_games(count: int, config: dict[str, Any]) -> list[SeatGame]:
        opponents = config.get("opponents", "self")
        first = SeatGame.build(
            config.get("players", 4),
            config.get("rules", Rules()),
            config.get("seat", 0),
            config.get("mode", "deal"),
            "",
            None if opponents == "random" else opponents,
            config.get("max_deals", 100),
        )
        mode = config.get("mode", "deal")
        return [first] + [
            SeatGame(first.start, first.seat, mode, first.max_deals, first.opponents)
            for _ in range(count - 1)
        ]

    @pytest.mark.parametrize("config", CONFIGS)
    def test_the_batch_plays_the_python_episodes_step_for_step(config: dict[str, Any]) -> None:
        count, steps = 6, 260
        batch = BatchGames(count, **config)
        games = python_games(count, config)
        encoder = Encoder(batch.num_players, count, batch.rules.pack)
        batch.reset(seed=21)
        for i, game in enumerate(games):
            game.reset(random.Random(21 + i))
        rng = np.random.default_rng(5)
        done = [False] * count
        ends = 0
        for t in range(steps):
            observations, masks = encoder.encode(
                [g.state for g in games], [g.to_act for g in games]
            )
            np.testing.assert_array_equal(batch.observations, observations)
            np.testing.assert_array_equal(batch.action_masks, masks)
            assert batch.seats.tolist() == [g.to_act for g in games]
            actions = (rng.random(masks.shape) * masks).argmax(axis=1)
            if t % 37 == 11:
                actions[t % count] = 2 if t % 2 else 500  # fold where forbidden / no id
            batch.step(actions)
            for i, game in enumerate(games):
                assert bool(batch.was_reset[i]) == done[i]
                if done[i]:
                    game.reset()
                    done[i] = False
                    assert batch.rewards[i] == 0.0
                    continue
                index, actor = int(actions[i]), game.to_act
                if not (index < masks.shape[1] and masks[i, index]):
                    assert batch.illegal[i]
                    assert batch.terminated[i]
                    assert batch.rewards[i] == -1.0
                    assert batch.every_reward[i].tolist() == list(game.fined())
                    done[i] = True
                    continue
                paid, terminated, truncated = game.play(index)
                assert not batch.illegal[i]
                assert (bool(batch.terminated[i]), bool(batch.truncated[i])) == (
                    terminated,
                    truncated,
                )
                expected = [0.0] * batch.num_players if paid is None else list(paid)
                assert batch.every_reward[i].tolist() == expected
                assert batch.rewards[i] == expected[actor]
                done[i] = terminated or truncated
                ends += done[i]
        assert ends > 0

    @pytest.mark.parametrize(
        ("pack", "players", "rules"),
        [
            (32, 2, {}),
            (32, 3, {"dealer_stock_limit": 3}),
            (32, 4, {"schleck": "cutter_only", "must_head": False}),
            (36, 2, {}),
            (36, 5, {"dealer_stock_limit": 3}),
            (36, 7, {"hearts_double": False}),
        ],
    )
    def test_the_compiled_heuristic_chooses_as_the_python_bot(
        pack: int, players: int, rules: dict[str, Any]
    ) -> None:
        """Over thousands of decisions of random games (deal 2 on, so folds happen)."""
        bot = HeuristicBot()
        rng = random.Random(pack * 10 + players)
        checked = 0
        while checked < 3000:
            state = new_game(players, rules=Rules(pack=pack, **rules))
            native = _native_start(state)
            for _ in range(400):
                if state.is_terminal:
                    break
                if state.is_chance_node:
                    shuffle = state.sample_chance(rng)
                    native.shuffle([card.index for card in shuffle.pack])
                    state = state.apply(shuffle)
                    continue
                seat = state.current_player
                assert seat is not None
                expected = action_to_id(state, bot.choose(state.view(seat), rng))
                assert NATIVE.heuristic_action(native, _NEUMAIER) == expected
                checked += 1
                # Mostly the bot's own move, so its kind of game is reached too.
                chosen = expected if rng.random() < 0.6 else rng.choice(native.legal())
                native.apply(chosen)
                state = state.apply(id_to_action(state, chosen))

    def test_random_actions_are_legal_and_seeded() -> None:
        batch = BatchGames(64, players=3, opponents="heuristic")
        batch.reset(seed=3)
        decisions = 0
        for _ in range(200):
            actions = batch.random_actions()
            live = batch.action_masks.any(axis=1)  # the others are reset, their ids ignored
            decisions += int(live.sum())
            assert batch.action_masks[np.arange(64), actions][live].all()
            batch.step(actions)
            assert not batch.illegal.any()
        assert decisions > 64 * 200 // 2
        one = BatchGames(8, players=2)
        two = BatchGames(8, players=2)
        one.reset(seed=1)
        two.reset(seed=1)
        np.testing.assert_array_equal(one.random_actions(seed=4), two.random_actions(seed=4))

    def test_returned_arrays_are_the_batchs_own() -> None:
        """No copies: the arrays a step returns are the ones the core writes."""
        batch = BatchGames(4)
        observations, masks = batch.reset(seed=0)
        step = batch.step(batch.random_actions())
        assert step[0] is observations is batch.observations
        assert masks is batch.action_masks
        assert step[1] is batch.rewards

    @pytest.mark.parametrize(
        ("call", "error", "name"),
        [
            (lambda: BatchGames(0), ValueError, "num_games"),
            (lambda: BatchGames(2.5), TypeError, "num_games"),
            (lambda: BatchGames(2, players=9), ValueError, "players"),
            (lambda: BatchGames(2, opponents=SearchBot()), ValueError, "opponents"),
            (lambda: BatchGames(2, opponents=7), TypeError, "opponents"),
            (lambda: BatchGames(2, mode="match"), ValueError, "mode"),
            (lambda: BatchGames(2).step([0, 0]), RuntimeError, "reset"),
            (lambda: BatchGames(2).reset(seed=[1]), ValueError, "seed"),
            (lambda: BatchGames(2).reset(seed=[1, -1]), ValueError, "seed"),
            (lambda: BatchGames(2).reset(seed="1"), TypeError, "seed"),
            (lambda: BatchGames(2).reset(seed=[1, 1.5]), TypeError, "seed"),
            (lambda: BatchGames(2).reset(mask=[1, 0]), TypeError, "mask"),
            (lambda: BatchGames(2).reset(mask=np.ones(3, bool)), ValueError, "mask"),
            (lambda: BatchGames(2).random_actions(seed=1.0), TypeError, "seed"),
            (lambda: WattenVectorEnv(2, opponents=SearchBot(), native=True), ValueError, "native"),
            (lambda: WattenVectorEnv(2, native="yes"), TypeError, "native"),
        ],
    )
    def test_bad_arguments_name_the_parameter(call: Any, error: type[Exception], name: str) -> None:
        with pytest.raises(error, match=name):
            call()

    @pytest.mark.parametrize(
        ("actions", "error"),
        [
            (np.zeros(3, np.int64), ValueError),
            (np.zeros(4, np.float64), TypeError),
            (np.zeros(4, np.bool_), TypeError),
            (["a", "b", "c", "d"], TypeError),
            (np.array([1, 2, 3, 1.5], object), TypeError),
        ],
    )
    def test_bad_actions_raise(actions: Any, error: type[Exception]) -> None:
        batch = BatchGames(4)
        batch.reset(seed=0)
        with pytest.raises(error, match="actions"):
            batch.step(actions)

    def test_any_integer_id_is_an_illegal_action_not_a_crash() -> None:
        batch = BatchGames(6, players=2)
        batch.reset(seed=0)
        ids = np.array([-1, 2**62, -(2**63), 10**30, 98, 102], object)
        batch.step(ids)
        assert batch.illegal.all()
        assert (batch.rewards == -1.0).all()
        batch.step(np.array([2**64 - 1] * 6, np.uint64))  # all reset: ignored
        assert batch.was_reset.all()

    def test_the_core_type_checks_every_buffer() -> None:
        batch = BatchGames(3, players=2)
        batch.reset(seed=0)
        core = batch._core
        good = [
            np.zeros(3, np.int64),
            np.zeros((3, 334), np.float32),
            np.zeros((3, 99), np.int8),
            np.zeros(3, np.int64),
            np.zeros(3, np.float64),
            *(np.zeros(3, np.bool_) for _ in range(4)),
            np.zeros((3, 2), np.float64),
        ]
        core.step(*good)  # the shapes above are right
        for k in range(len(good)):
            for bad, error in (
                (list(good[k].reshape(-1)), TypeError),  # no buffer
                (good[k].astype(np.int16), TypeError),  # another item type
                (np.zeros(good[k].size + 1, good[k].dtype), ValueError),  # the wrong size
            ):
                arguments = list(good)
                arguments[k] = bad
                with pytest.raises(error):
                    core.step(*arguments)
        read_only = np.zeros((3, 334), np.float32)
        read_only.flags.writeable = False
        with pytest.raises(TypeError, match="observations"):
            core.observe(read_only, good[2], good[3])
        with pytest.raises(TypeError, match="observations"):
            core.observe(np.zeros((3, 668), np.float32)[:, ::2], good[2], good[3])
        with pytest.raises(TypeError, match="mask"):
            core.reset(np.ones(3, np.int64), np.zeros(3, np.int64))
        start = _native_start(new_game(2))
        with pytest.raises(TypeError, match="start"):
            NATIVE.Batch(object(), 2, bytes([2, 2]), True, 10, False)
        with pytest.raises(ValueError, match="seats"):
            NATIVE.Batch(start, 2, bytes([2, 9]), True, 10, False)
        with pytest.raises(ValueError, match="seats"):
            NATIVE.Batch(start, 2, bytes([0, 0]), True, 10, False)
        with pytest.raises(TypeError, match="seats"):
            NATIVE.Batch(start, 2, [2, 2], True, 10, False)
        with pytest.raises(ValueError, match="num_games"):
            NATIVE.Batch(start, 0, bytes([2, 2]), True, 10, False)
        start.shuffle(list(range(32)))
        with pytest.raises(ValueError, match="chance node"):
            NATIVE.Batch(start, 2, bytes([2, 2]), True, 10, False)
        with pytest.raises(TypeError, match="game"):
            NATIVE.heuristic_action(3, False)
        with pytest.raises(ValueError, match="nobody"):
            NATIVE.heuristic_action(_native_start(new_game(2)), False)

    @pytest.mark.parametrize("native", [False, True])
    def test_the_vector_env_refuses_ids_that_are_no_integers(native: bool) -> None:
        envs = WattenVectorEnv(3, players=2, native=native)
        envs.reset(seed=0)
        with pytest.raises(TypeError, match="action"):
            envs.step(np.zeros(3, np.float64))
        with pytest.raises(TypeError, match="action"):
            envs.step(np.zeros(3, np.bool_))
        assert envs.native is native
