"""The OpenSpiel adapter, proven by OpenSpiel's own random_sim_test and ISMCTS bot."""

from __future__ import annotations

import pickle

import attrs
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from bohmisch_watten import DECK, Rules  # noqa: E402
from bohmisch_watten.adapters import openspiel as adapter  # noqa: E402
from bohmisch_watten.encoding import observation  # noqa: E402


def load(**params: object) -> object:
    text = ",".join(f"{k}={v}" for k, v in params.items())
    return pyspiel.load_game(f"{adapter.GAME_NAME}({text})")


def play_random(state: object, rng: np.random.RandomState) -> list[object]:
    """Play to the end with uniform chance and random players; return every state seen."""
    seen = [state.clone()]
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
        seen.append(state.clone())
    return seen


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("mode", ["game", "deal"])
def test_openspiel_random_sim_test(players: int, mode: str) -> None:
    """OpenSpiel's own conformance test, with serialization of every state."""
    game = load(players=players, mode=mode, max_deals=3)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_random_sim_test_under_variant_rules() -> None:
    game = load(players=3, mode="deal", schleck="none", must_head=False, hearts_double=False)
    assert game.rules == Rules(schleck="none", must_head=False, hearts_double=False)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_one_parameter_per_rules_field_with_the_same_default() -> None:
    params = load().get_parameters()
    defaults = Rules()
    for field in attrs.fields(Rules):
        value = getattr(defaults, field.name)
        assert params[field.name] == getattr(value, "value", value)
    assert params["players"] == 4
    assert params["mode"] == "game"


@pytest.mark.parametrize(
    "params",
    [
        {"players": 5},
        {"mode": "tournament"},
        {"max_deals": 0},
        {"start_score": 0},
        {"mode": "deal", "position": "nonsense"},
        {"mode": "deal", "players": 3, "position": "p4/d2/n5/s4.11.20.3/f0000/default"},
        {"mode": "deal", "players": 3, "position": "p3/d2/n5/s4.11.20/f000/schleck:none"},
    ],
)
def test_bad_parameters_are_refused(params: dict[str, object]) -> None:
    with pytest.raises((pyspiel.SpielError, ValueError)):
        load(**params)


@pytest.mark.rule("R29", "R30", "R31", "R32")
def test_one_deal_pays_minus_the_score_change() -> None:
    game = load(players=4, mode="deal")
    rng = np.random.RandomState(3)
    for _ in range(3):
        seen = play_random(game.new_initial_state(), rng)
        start, end = seen[0].game_state, seen[-1].game_state
        change = [b - a for b, a in zip(start.scores, end.scores, strict=True)]
        assert seen[-1].returns() == [float(x) for x in change]
        assert sum(np.array(s.rewards()) for s in seen[1:]).tolist() == seen[-1].returns()
        assert any(change)
        for seat, out in enumerate(end.last_deal.folded):
            if out:
                assert change[seat] == 0


@pytest.mark.rule("R34")
def test_whole_game_pays_the_game_returns_or_nothing_at_the_cap() -> None:
    rng = np.random.RandomState(5)
    done = play_random(load(players=2, max_deals=200).new_initial_state(), rng)[-1]
    assert done.game_state.is_terminal
    assert done.returns() == list(done.game_state.returns())
    assert sorted(done.returns()) == [-1.0, 1.0]
    capped = play_random(load(players=3, max_deals=1).new_initial_state(), rng)[-1]
    assert not capped.game_state.is_terminal
    assert capped.game_state.deal_number == 2
    assert capped.returns() == [0.0, 0.0, 0.0]


def test_the_pack_is_one_card_per_chance_node() -> None:
    state = load(players=2).new_initial_state()
    dealt = []
    for _ in range(32):
        assert state.is_chance_node()
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 32 - len(dealt)
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        card = outcomes[-1][0]
        dealt.append(card)
        state.apply_action(card)
    assert not state.is_chance_node()
    pack = state.game_state.history[0][1].pack
    assert [c.index for c in pack] == dealt


@pytest.mark.rule("R13", "R23")
def test_tensors_and_strings_come_from_the_view() -> None:
    game = load(players=3, mode="deal")
    for state in play_random(game.new_initial_state(), np.random.RandomState(8))[::7]:
        for p in range(3):
            view = state.game_state.view(p)
            expected = np.array(observation(view), np.float32)
            assert np.array_equal(np.array(state.observation_tensor(p)), expected)
            assert np.array_equal(np.array(state.information_state_tensor(p)), expected)
            assert state.information_state_string(p) == repr(view.information_set())
            assert state.observation_string(p) == str(view)


@pytest.mark.rule("R13", "R23")
def test_resampled_states_look_the_same_to_the_seat() -> None:
    """resample_from_infostate: same information for the seat, other hidden cards."""
    game = load(players=4, max_deals=3)
    rng = np.random.RandomState(1)
    seen = play_random(game.new_initial_state(), rng)
    differs = 0
    assert seen[-1].game_state.deal_number > 2
    for state in seen[40::9]:
        if state.is_terminal() or state.is_chance_node():
            continue
        p = state.current_player()
        sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
        other = state.resample_from_infostate(p, sampler)
        assert other.information_state_string(p) == state.information_state_string(p)
        assert other.observation_tensor(p) == state.observation_tensor(p)
        assert other.legal_actions() == state.legal_actions()
        assert len(other.history()) == len(state.history())
        start = state._deal_start  # finished deals are kept, the current one is redealt
        assert other.history()[:start] == state.history()[:start]
        differs += other.game_state.hands != state.game_state.hands
    assert differs > 0


@pytest.mark.rule("R13", "R23")
@settings(max_examples=15, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**31 - 1), cut=st.floats(0.2, 0.95))
def test_no_string_or_tensor_of_a_seat_moves_when_hidden_cards_are_redealt(
    players: int, seed: int, cut: float
) -> None:
    """Security boundary: every seat's strings and tensors survive a redeal for that seat."""
    game = load(players=players, mode="deal")
    seen = play_random(game.new_initial_state(), np.random.RandomState(seed))
    state = seen[int(cut * (len(seen) - 1))]
    for p in range(players):
        other = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert other.information_state_string(p) == state.information_state_string(p)
        assert other.observation_string(p) == state.observation_string(p)
        assert other.information_state_tensor(p) == state.information_state_tensor(p)
        assert other.observation_tensor(p) == state.observation_tensor(p)


def test_a_position_parameter_starts_the_deal_there_and_survives_pickling() -> None:
    text = "p3/d2/n5/s4.11.20/f100/schleck:none;must_head:false"
    game = load(players=3, mode="deal", position=text, schleck="none", must_head=False)
    start = game.new_initial_state()
    assert str(start.game_state.position) == text
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    state = play_random(start, np.random.RandomState(9))[40]
    copy = pickle.loads(pickle.dumps(state))
    assert copy.history() == state.history()
    assert copy.game_state == state.game_state
    assert str(pickle.loads(pickle.dumps(game))) == str(game)


def test_serialization_round_trip() -> None:
    game = load(players=3, mode="deal")
    state = play_random(game.new_initial_state(), np.random.RandomState(2))[45]
    text = pyspiel.serialize_game_and_state(game, state)
    _, state2 = pyspiel.deserialize_game_and_state(text)
    assert state2.history() == state.history()
    assert state2.game_state == state.game_state


@pytest.mark.parametrize("players", [2, 4])
def test_ismcts_plays_whole_deals_against_random_play(players: int) -> None:
    """OpenSpiel's own ISMCTS bot in seat 0, random play elsewhere, whole deals."""
    game = load(players=players, mode="deal")
    rng = np.random.RandomState(players)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=20, random_state=rng)
    for _ in range(2):
        state = game.new_initial_state()
        bot_moves = 0
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(actions, p=probs)))
            elif state.current_player() == 0:
                action = bot.step(state)
                assert action in state.legal_actions()
                state.apply_action(action)
                bot_moves += 1
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        assert bot_moves >= 1
        assert state.game_state.deal_number == game.start.deal_number + 1


def test_resample_while_the_pack_is_dealt_keeps_its_size_hidden() -> None:
    state = load(players=3, max_deals=2).new_initial_state()
    for card in (5, 17, 30, 2):
        state.apply_action(card)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    others = [state.resample_from_infostate(1, sampler) for _ in range(5)]
    for other in others:
        assert other.is_chance_node()
        assert len(other.history()) == 4
        assert other.information_state_string(1) == state.information_state_string(1)
    assert any(other.history() != [5, 17, 30, 2] for other in others)


def test_actions_of_other_seats_and_strings() -> None:
    game = load(players=2, mode="deal")
    state = play_random(game.new_initial_state(), np.random.RandomState(4))[32]
    seat = state.current_player()
    assert state.legal_actions(1 - seat) == []
    assert state.action_to_string(1 - seat, 70) == "action 70"
    assert state.action_to_string(seat, 70) == f"play {DECK[70 - 67]}"
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 0).startswith("deal ")
    with pytest.raises(ValueError, match="not supported"):
        game.make_py_observer(None, {"detail": 1})


def test_the_final_observation_string_names_winners_and_losers() -> None:
    done = play_random(load(players=2, max_deals=200).new_initial_state(), np.random.RandomState(5))
    text = done[-1].observation_string(0)
    assert "winners [" in text
    assert str(done[-1]) == repr(done[-1].game_state)
