"""The PettingZoo adapter, proven by PettingZoo's own api_test and seed_test."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

from bohmisch_watten import IllegalActionError, Rules
from bohmisch_watten.adapters.pettingzoo import env, raw_env
from bohmisch_watten.encoding import observation


# Dict observations with an action mask are PettingZoo's own convention for card games
# (its classic environments draw the same two warnings).
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_api_test(players: int) -> None:
    api_test(env(players=players), num_cycles=200)
    api_test(raw_env(players=players, rules=Rules(schleck="none")), num_cycles=200)


@pytest.mark.parametrize("players", [2, 4])
def test_pettingzoo_seed_test(players: int) -> None:
    seed_test(lambda: env(players=players), num_cycles=100)


def masked_random_game(table: object, seed: int) -> tuple[dict[str, float], list[object]]:
    """Play one game with a masked random policy; return total rewards and last infos."""
    rng = np.random.default_rng(seed)
    table.reset(seed=seed)
    totals = dict.fromkeys(table.possible_agents, 0.0)
    infos = []
    for agent in table.agent_iter():
        obs, reward, terminated, truncated, info = table.last()
        totals[agent] += reward
        if terminated or truncated:
            infos.append((agent, info, terminated))
            table.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        table.step(int(rng.choice(legal)))
    return totals, infos


@pytest.mark.rule("R29", "R31", "R34")
def test_rewards_are_minus_score_changes_plus_the_returns() -> None:
    table = raw_env(players=2, max_deals=500)
    totals, infos = masked_random_game(table, 3)
    state = table.game_state
    assert state.is_terminal
    start = Rules().start_score
    returns = state.returns()
    for seat, agent in enumerate(table.possible_agents):
        assert totals[agent] == pytest.approx(start - state.scores[seat] + returns[seat])
    assert {a: i["returns"] for a, i, _ in infos} == {
        a: returns[s] for s, a in enumerate(table.possible_agents)
    }


def test_the_deal_cap_truncates() -> None:
    table = raw_env(players=3, max_deals=1)
    _, infos = masked_random_game(table, 1)
    assert table.game_state.deal_number == 2
    assert [terminated for _, _, terminated in infos] == [False] * 3


@pytest.mark.rule("R13")
def test_observations_are_the_encoding_of_the_seats_view() -> None:
    table = raw_env(players=3)
    table.reset(seed=4)
    for seat, agent in enumerate(table.possible_agents):
        obs = table.observe(agent)
        view = table.game_state.view(seat)
        assert obs["observation"].dtype == np.float32
        assert obs["action_mask"].dtype == np.int8
        assert obs["observation"].tolist() == pytest.approx(observation(view))
        assert bool(obs["action_mask"].any()) == (agent == table.agent_selection)


def test_illegal_ids_raise_in_raw_env_and_end_the_game_in_env(
    caplog: pytest.LogCaptureFixture,
) -> None:
    table = raw_env(players=2)
    table.reset(seed=0)
    mask = table.observe(table.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[-1])
    with pytest.raises(IllegalActionError):
        table.step(illegal)
    wrapped = env(players=2)
    wrapped.reset(seed=0)
    agent = wrapped.agent_selection
    wrapped.step(illegal)
    assert "Illegal move" in caplog.text
    assert wrapped.terminations[agent]
    assert wrapped.rewards[agent] == -1


def test_ansi_render_shows_the_acting_seats_table() -> None:
    table = raw_env(players=4, render_mode="ansi")
    table.reset(seed=2)
    seat = table.possible_agents.index(table.agent_selection)
    text = table.render()
    assert text is not None
    hand = " ".join(str(c) for c in table.game_state.hands[seat])
    assert text == str(table.game_state.view(seat))
    assert f"seat {seat}: {hand}" in text
    for other in range(4):
        if other != seat:
            assert " ".join(str(c) for c in table.game_state.hands[other]) not in text
    assert raw_env(players=2).render() is None


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"players": 5}, ValueError),
        ({"rules": 7}, TypeError),
        ({"rules": "schleck=maybe"}, ValueError),
        ({"rules": {"start_score": "20"}}, TypeError),
        ({"players": "x"}, ValueError),
        ({"max_deals": "0"}, ValueError),
        ({"render_mode": "human"}, ValueError),
        ({"max_deals": 0}, ValueError),
    ],
)
def test_bad_arguments_are_refused(kwargs: dict[str, object], error: type[Exception]) -> None:
    (name,) = kwargs
    with pytest.raises(error, match=name):
        raw_env(**kwargs)  # type: ignore[arg-type]


def test_configs_as_text() -> None:
    """What a YAML or Hydra config passes: strings and dicts (DESIGN: third round)."""
    table = env(rules="schleck=none", players="3", max_deals="5")
    assert table.unwrapped.rules == Rules(schleck="none")
    assert table.unwrapped.max_deals == 5
    assert len(table.possible_agents) == 3
    assert raw_env(rules={"must_head": False}).rules == Rules(must_head=False)
    table.reset(seed=1)
    api_test(raw_env(players=2, rules="must_head=false,schleck=none"), num_cycles=50)


@pytest.mark.parametrize("action", [None, 2.0, "3", True])
def test_a_non_integer_action_is_a_type_error(action: object) -> None:
    table = raw_env(players=2)
    table.reset(seed=0)
    with pytest.raises(TypeError, match="action"):
        table.step(action)  # type: ignore[arg-type]
    table.step(np.int64(np.flatnonzero(table.observe(table.agent_selection)["action_mask"])[0]))
