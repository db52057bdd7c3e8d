"""The 36-card pack's own action ids and observation layout, through every adapter (R1, R6).

The encoding of the 36-card pack is proven as the 32-card one is: the fast encoder equals
the view encoding for every seat of whole games at two to seven players, the masks are
the legal actions, and the peer libraries' own suites (OpenSpiel's ``random_sim_test``,
PettingZoo's ``api_test``, Gymnasium's ``check_env``) run on the new sizes.  Hidden
cards: two cards a seat cannot see are swapped in the deal's shuffle and the game is
replayed; the seat's view, vectors and masks must not move (R13, R23).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from bohmisch_watten import (
    FormatError,
    GameState,
    IllegalActionError,
    Phase,
    PlayCard,
    Rules,
    Shuffle,
    new_game,
)
from bohmisch_watten.adapters.arrays import action_mask_array, observation_array
from bohmisch_watten.adapters.fast import (
    Encoder,
    Memo,
    action_for,
    encode_mask,
    encode_observation,
    mask_row,
    observation_row,
)
from bohmisch_watten.cards import SIXES, pack_cards
from bohmisch_watten.encoding import (
    action_mask,
    action_to_id,
    id_to_action,
    layout,
    legal_action_mask,
    num_action_ids,
    observation,
    observation_batch,
    observation_size,
)

from game_strategies import policy

PACK36 = Rules(pack=36)
IDS36 = 103
SEVEN_PLAYER_DEALER_IDS = {36, 37, 39, 43, 51}  # one discard, taking the trump card (R19)


def game(players: int, seed: int, deals: int = 2, rules: Rules = PACK36) -> list[GameState]:
    """Every state of ``deals`` deals of a seeded game (random play with a taste for
    folding and taking Criticals)."""
    rng = random.Random(seed)
    state = new_game(players, rules=rules, dealer=seed % players)
    seen = [state]
    while state.deal_number <= deals and not state.is_terminal:
        state = state.apply(policy(state, rng))
        seen.append(state)
    return seen


def block(vector: list[float], players: int, name: str) -> list[float]:
    for block_name, offset, size in layout(players, 36):
        if block_name == name:
            return vector[offset : offset + size]
    raise KeyError(name)


# ------------------------------------------------------------------ the encoding


@pytest.mark.rule("R1", "R6", "R24")
@pytest.mark.parametrize("players", [2, 5, 6, 7])
def test_masks_are_the_legal_ids_and_ids_round_trip(players: int) -> None:
    sixes_played = 0
    for state in game(players, players):
        mask = legal_action_mask(state)
        assert len(mask) == IDS36
        ids = {action_to_id(state, action) for action in state.legal_actions()}
        assert {i for i, legal in enumerate(mask) if legal} == (
            set() if state.is_chance_node else ids
        )
        for i in ids:
            assert action_to_id(state, id_to_action(state, i)) == i
        seat = state.current_player
        for p in range(players):
            view = state.view(p)
            assert action_mask(view) == ([int(b) for b in mask] if p == seat else [0] * IDS36)
            if p == seat:  # the acting seat's view gives the same ids as the state
                assert all(id_to_action(view, i) == id_to_action(state, i) for i in ids)
        sixes_played += sum(1 for i in ids if i >= 99)
    assert sixes_played > 0  # the Sixes' ids 99-102 were legal along the way


@pytest.mark.rule("R19", "R20")
def test_with_seven_players_the_exchange_ids_are_nothing_or_the_trump_card() -> None:
    rules = Rules(pack=36, schleck="none")
    state = new_game(7, rules=rules).apply(Shuffle(pack_cards(36)))
    while state.current_player != state.dealer:
        assert [i for i, b in enumerate(legal_action_mask(state)) if b] == [3]
        state = state.apply(id_to_action(state, 3))
    legal = {i for i, b in enumerate(legal_action_mask(state)) if b}
    assert legal == {3} | SEVEN_PLAYER_DEALER_IDS
    trump = state.trump_card
    after = state.apply(id_to_action(state, 43))  # give up the fourth card (bit 3)
    assert trump in after.hands[state.dealer]
    assert sorted(state.hands[state.dealer])[3] not in after.hands[state.dealer]


@pytest.mark.rule("R6", "R13", "R24")
def test_seven_player_blocks_say_what_the_layout_promises() -> None:
    states = [s for s in game(7, 3, deals=1) if s.phase is Phase.PLAY and len(s.trick) >= 3]
    state = states[0]
    me = 4
    vector = observation(state.view(me))
    assert len(vector) == observation_size(7, 36) == 815
    hand = block(vector, 7, "hand")
    assert len(hand) == 36
    assert [i for i, x in enumerate(hand) if x] == [c.index for c in state.hands[me]]
    trick = block(vector, 7, "trick")
    for seat, card in state.trick:  # rows of 36, relative to the viewing seat
        assert trick[36 * ((seat - me) % 7) + card.index] == 1.0
    assert sum(trick) == len(state.trick)
    assert block(vector, 7, "stock") == [0.0]  # seven players: no stock (R20)
    assert block(vector, 7, "to_act")[(state.current_player - me) % 7] == 1.0
    trump = state.trump_card
    assert trump is not None
    assert block(vector, 7, "trump_suit")[int(trump.suit)] == 1.0
    five = game(5, 1, deals=1)[1]  # just dealt
    assert five.phase is not Phase.DEAL
    stock = block(observation(five.view(0)), 5, "stock")
    assert stock == [len(five.stock) / 36] == [10 / 36]  # 35 - 5 × 5 (R15)


@pytest.mark.rule("R6")
def test_a_six_fills_its_own_columns_and_its_suit() -> None:
    """A Six as the trump card: column 32-35 of the 36-wide block, and its suit (R16)."""
    rest = [c for c in pack_cards(36) if c != SIXES[2]]
    rules = Rules(pack=36, schleck="none")
    # Deal order (R15): with two players, packets of 3 and the turned-up seventh card.
    pack = (*rest[:6], SIXES[2], *rest[6:])
    state = new_game(2, rules=rules).apply(Shuffle(pack))
    assert state.trump_card == SIXES[2]
    vector = observation(state.view(0))
    assert block(vector, 2, "trump_card")[34] == 1.0
    assert block(vector, 2, "trump_suit") == [0.0, 0.0, 1.0, 0.0]  # Hearts
    np.testing.assert_array_equal(encode_observation(state, 0), np.float32(vector))


def test_batches_refuse_views_of_two_packs() -> None:
    small = game(3, 1, deals=1, rules=Rules())[5]
    large = game(3, 1, deals=1)[5]
    with pytest.raises(ValueError, match="numbers of players or packs"):
        observation_batch([small.view(0), large.view(0)])
    with pytest.raises(ValueError, match="different packs"):
        action_mask_array([small.view(0), large.view(0)])
    views = [large.view(p) for p in range(3)]
    assert observation_array(views).shape == (3, 459)
    assert action_mask_array(views).shape == (3, IDS36)


# --------------------------------------------------------------- the fast encoder


def assert_fast_equals_view(state: GameState, seat: int, memo: Memo) -> None:
    view = state.view(seat)
    expected = np.asarray(observation(view), np.float32)
    mask = np.asarray(action_mask(view), np.int8)
    np.testing.assert_array_equal(encode_observation(state, seat), expected)
    np.testing.assert_array_equal(observation_row(state, seat, memo), expected)
    np.testing.assert_array_equal(encode_mask(state, seat), mask)
    np.testing.assert_array_equal(mask_row(state, seat, memo), mask)


@pytest.mark.rule("R13", "R23")
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
def test_the_fast_encoder_equals_the_view_encoding(players: int) -> None:
    """Every seat of every state of seeded games, through a memo as in an environment."""
    for rules in (PACK36, Rules(pack=36, schleck="none", dealer_stock_limit=3)):
        memo = Memo()
        for state in game(players, 10 + players, rules=rules)[:: 1 if players < 5 else 2]:
            for seat in range(players):
                assert_fast_equals_view(state, seat, memo)


def test_the_batch_encoder_of_the_36_card_pack() -> None:
    states = [s for s in game(6, 2) if not s.is_terminal][:40]
    seats = [i % 6 for i in range(len(states))]
    encoder = Encoder(6, 64, pack=36)
    observations, masks = encoder.encode(states, seats)
    assert observations.shape == (40, 726)
    assert masks.shape == (40, IDS36)
    for row, (state, seat) in enumerate(zip(states, seats, strict=True)):
        np.testing.assert_array_equal(observations[row], encode_observation(state, seat))
        np.testing.assert_array_equal(masks[row], encode_mask(state, seat))
    with pytest.raises(ValueError, match="with 32 cards for a 6-player encoder with 36"):
        Encoder(6, 1, pack=36).encode([game(4, 1, rules=Rules())[0]], [0])
    with pytest.raises(ValueError, match="with 32 cards for a 4-player encoder with 36"):
        Encoder(4, 1, pack=36).encode([game(4, 1, rules=Rules())[0]], [0])
    with pytest.raises(ValueError, match="2 to 4 with the 32-card pack"):
        Encoder(5, 1)
    with pytest.raises(TypeError, match="pack"):
        Encoder(5, 1, pack="36")  # type: ignore[arg-type]


def test_a_memo_met_by_both_packs_gives_each_its_own_mask_length() -> None:
    """The mask integer of a seat not to act is 0 in either pack: 99 zeros or 103."""
    memo = Memo()
    small = game(2, 4, rules=Rules())[3]
    large = game(2, 4)[3]
    for state in (small, large, small):
        seat = state.current_player
        assert seat is not None
        seat = 1 - seat
        row = mask_row(state, seat, memo)
        assert row.tolist() == action_mask(state.view(seat))
        assert len(row) == num_action_ids(state.rules.pack)


def test_action_for_answers_the_sixes_through_the_table() -> None:
    state = game(7, 5, deals=1)[3]
    assert action_for(state, 102) == PlayCard(SIXES[3])
    assert action_for(state, 67) == id_to_action(state, 67)
    with pytest.raises(FormatError, match="0 to 102"):
        action_for(state, 103)
    with pytest.raises(FormatError, match="0 to 98"):
        action_for(game(2, 5, deals=1, rules=Rules())[3], 99)


# ------------------------------------------------------------------ hidden cards


def redealt(state: GameState, seat: int, rng: random.Random) -> GameState | None:
    """``state`` with two cards ``seat`` cannot see swapped in the deal's shuffle and
    the same actions replayed; None if there are no two such cards or a replayed
    action becomes illegal (the swap changed what another seat could play).

    The candidates are the cards in the other seats' hands and in the stock, minus the
    trump card and every card of the ritual (R13) and of the deal's plays; the two
    have different holders, so the hands differ after the swap.
    """
    actions = [action for _, action in state.history]
    shuffles = [i for i, action in enumerate(actions) if isinstance(action, Shuffle)]
    if state.is_chance_node or not shuffles:
        return None
    k = shuffles[-1]
    holder = {card: p for p, hand in enumerate(state.hands) if p != seat for card in hand}
    holder.update(dict.fromkeys(state.stock, -1))
    known = {look.card for look in state.cut_looks}
    known.add(state.trump_card)
    for action in actions[k + 1 :]:
        if isinstance(action, PlayCard):
            known.add(action.card)
    candidates = sorted(set(holder) - known)
    pairs = [(a, b) for a in candidates for b in candidates if a < b and holder[a] != holder[b]]
    if not pairs:
        return None
    a, b = rng.choice(pairs)  # two holders: another seat and another seat or the stock
    swap = {a: b, b: a}
    shuffle = actions[k]
    assert isinstance(shuffle, Shuffle)
    actions[k] = Shuffle(tuple(swap.get(card, card) for card in shuffle.pack))
    other = GameState.from_position(state.start_position)
    try:
        for action in actions:
            other = other.apply(action)
    except IllegalActionError:
        return None
    assert other.hands != state.hands
    return other


@pytest.mark.rule("R13", "R23")
@pytest.mark.parametrize("players", [2, 5, 7])
def test_swapping_cards_a_seat_cannot_see_moves_none_of_its_numbers(players: int) -> None:
    """Security boundary: the view, the view encoding and the fast encoding of a seat
    stay the same when two cards it cannot see change places."""
    rng = random.Random(players)
    swapped = 0
    for state in game(players, 20 + players)[::2]:
        for seat in range(players):
            other = redealt(state, seat, rng)
            if other is None:
                continue
            swapped += 1
            view = state.view(seat)
            assert other.view(seat) == view
            assert observation(other.view(seat)) == observation(view)
            assert action_mask(other.view(seat)) == action_mask(view)
            np.testing.assert_array_equal(
                encode_observation(other, seat), encode_observation(state, seat)
            )
            np.testing.assert_array_equal(encode_mask(other, seat), encode_mask(state, seat))
    assert swapped >= 20


def test_the_swap_is_not_vacuous() -> None:
    """A swap that includes a card the seat holds does move its numbers."""
    state = next(s for s in game(5, 3) if s.phase is Phase.PLAY)
    actions = [action for _, action in state.history]
    k = max(i for i, a in enumerate(actions) if isinstance(a, Shuffle))
    mine = max(state.hands[0])
    theirs = max(state.hands[1])
    shuffle = actions[k]
    assert isinstance(shuffle, Shuffle)
    swap = {mine: theirs, theirs: mine}
    actions[k] = Shuffle(tuple(swap.get(card, card) for card in shuffle.pack))
    other = GameState.from_position(state.start_position)
    for action in actions[: k + 1]:
        other = other.apply(action)
    base = GameState.from_position(state.start_position)
    for action in [a for _, a in state.history][: k + 1]:
        base = base.apply(action)
    assert observation(other.view(0)) != observation(base.view(0))


# -------------------------------------------------------------------- OpenSpiel


@pytest.mark.parametrize(("players", "mode"), [(2, "game"), (5, "deal"), (6, "deal"), (7, "game")])
def test_openspiel_random_sim_test_with_36_cards(players: int, mode: str) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from bohmisch_watten.adapters import openspiel as adapter

    params = f"players={players},pack=36,mode={mode},max_deals=2"
    game_ = pyspiel.load_game(f"{adapter.GAME_NAME}({params})")
    assert game_.num_distinct_actions() == IDS36
    assert game_.max_chance_outcomes() == 36
    assert game_.observation_tensor_size() == observation_size(players, 36)
    pyspiel.random_sim_test(game_, num_sims=2, serialize=True, verbose=False)


def openspiel_state(players: int, cards: int) -> Any:
    pyspiel = pytest.importorskip("pyspiel")
    from bohmisch_watten.adapters import openspiel as adapter

    state = pyspiel.load_game(
        f"{adapter.GAME_NAME}(players={players},pack=36,mode=deal)"
    ).new_initial_state()
    rng = np.random.RandomState(players)
    for _ in range(cards):
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.rule("R13", "R23")
def test_openspiel_deals_36_cards_and_reads_views_only() -> None:
    state = openspiel_state(7, 0)
    for dealt in range(36):
        assert state.is_chance_node()
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 36 - dealt
        state.apply_action(outcomes[-1][0])
    assert not state.is_chance_node()
    assert state.action_to_string(-1, 35) == "deal S6"
    state = openspiel_state(7, 60)
    for p in range(7):
        view = state.game_state.view(p)
        np.testing.assert_array_equal(
            np.array(state.observation_tensor(p)), np.float32(observation(view))
        )
        assert state.information_state_string(p) == repr(view.information_set())


@pytest.mark.rule("R13", "R23")
def test_openspiel_resamples_a_36_card_deal_behind_the_seats_back() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    state = openspiel_state(6, 50)
    p = state.current_player()
    other = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert other.information_state_string(p) == state.information_state_string(p)
    assert other.observation_tensor(p) == state.observation_tensor(p)


@pytest.mark.parametrize("params", ["players=8,pack=36", "players=5", "players=5,pack=32"])
def test_openspiel_refuses_tables_the_pack_cannot_seat(params: str) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from bohmisch_watten.adapters import openspiel as adapter

    with pytest.raises((pyspiel.SpielError, ValueError), match=r"players must be 2 to \d"):
        pyspiel.load_game(f"{adapter.GAME_NAME}({params})")


# ------------------------------------------------------------- PettingZoo, Gymnasium


@pytest.mark.filterwarnings("ignore:Observation space for each agent probably")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize("players", [5, 7])
def test_pettingzoo_api_test_with_36_cards(players: int) -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from bohmisch_watten.adapters.pettingzoo import env, raw_env

    table = env(players=players, rules="pack=36")
    api_test(table, num_cycles=150)
    assert table.action_space("player_0").n == IDS36
    assert table.observation_space("player_0")["observation"].shape == (
        observation_size(players, 36),
    )
    api_test(raw_env(players=str(players), rules={"pack": 36, "schleck": "none"}), num_cycles=100)


def test_pettingzoo_seed_test_with_seven_seats() -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import seed_test

    from bohmisch_watten.adapters.pettingzoo import env, raw_env

    seed_test(lambda: env(players=7, rules="pack=36"), num_cycles=60)
    with pytest.raises(ValueError, match="from 2 to 4, got 5 with the 32-card pack"):
        raw_env(players=5)
    with pytest.raises(ValueError, match="from 2 to 7, got 8 with the 36-card pack"):
        raw_env(players=8, rules="pack=36")


CHECKER_WARNINGS = "ignore:.*(render modes|render fps|different from the unwrapped)"


@pytest.mark.filterwarnings(CHECKER_WARNINGS)
@pytest.mark.parametrize("opponents", [None, "self"])
def test_gymnasium_check_env_on_a_seven_player_36_card_env(opponents: str | None) -> None:
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    from bohmisch_watten.adapters.gymnasium import ENV_ID, WattenEnv

    env = WattenEnv(7, rules="pack=36", opponents=opponents, mode="game", max_deals=2)
    assert env.action_space.n == IDS36
    assert env.observation_space.shape == (815,)
    check_env(env)
    made = gymnasium.make(ENV_ID, players=7, rules="pack=36", seat=6, opponents="heuristic")
    check_env(made.unwrapped)
    obs, info = made.reset(seed=3)
    assert obs.tolist() == pytest.approx(observation(made.unwrapped.game_state.view(6)))
    assert info["action_mask"].shape == (IDS36,)


@pytest.mark.parametrize(
    "kwargs",
    [
        {
            "players": 7,
            "rules": "pack=36",
            "opponents": "random,heuristic,random,random,random,random",
        },
        {
            "players": "5",
            "rules": {"pack": 36},
            "opponents": "self",
            "mode": "game",
            "max_deals": 2,
        },
    ],
)
def test_the_vector_env_steps_as_sync_vector_env_with_36_cards(kwargs: dict[str, Any]) -> None:
    gymnasium = pytest.importorskip("gymnasium")
    from bohmisch_watten.adapters.gymnasium import ENV_ID, WattenEnv
    from bohmisch_watten.adapters.vector import WattenVectorEnv

    ours = gymnasium.make_vec(ENV_ID, num_envs=3, vectorization_mode="vector_entry_point", **kwargs)
    assert isinstance(ours, WattenVectorEnv)
    theirs = gymnasium.vector.SyncVectorEnv([lambda: WattenEnv(**kwargs) for _ in range(3)])
    assert ours.single_action_space == theirs.single_action_space == gymnasium.spaces.Discrete(103)
    assert ours.single_observation_space == theirs.single_observation_space
    mine, other = ours.reset(seed=4), theirs.reset(seed=4)
    rng = np.random.default_rng(4)
    ended = 0
    for t in range(120):
        np.testing.assert_array_equal(mine[0], other[0])
        np.testing.assert_array_equal(mine[-1]["action_mask"], other[-1]["action_mask"])
        masks = mine[-1]["action_mask"]
        actions = np.asarray((rng.random(masks.shape) * masks).argmax(axis=1))
        if t % 37 == 5:
            actions[0] = 102  # a Six's id, legal only when that Six is in hand
        mine, other = ours.step(actions), theirs.step(actions)
        for a, b in zip(mine[:-1], other[:-1], strict=True):
            np.testing.assert_array_equal(a, b)
        ended += int(mine[2].sum() + mine[3].sum())
    assert ended > 0
