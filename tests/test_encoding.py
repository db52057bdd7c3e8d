"""The numeric encoding of views: layout, masks, batches and no hidden cards in it."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bohmisch_watten import (
    BELLI,
    DECK,
    NUM_ACTION_IDS,
    Card,
    Exchange,
    FormatError,
    GameState,
    LeaveCritical,
    Phase,
    PlayCard,
    Rules,
    Shuffle,
    TakeCritical,
    action_to_id,
    id_to_action,
    legal_action_mask,
    new_game,
)
from bohmisch_watten.encoding import (
    ACTION_ID_NAMES,
    action_id_names,
    action_mask,
    action_mask_batch,
    layout,
    num_action_ids,
    observation,
    observation_batch,
    observation_size,
)

from helpers import VARIANTS, stack_pack


def walk(num_players: int, seed: int, steps: int, rules_index: int = 0) -> GameState:
    """A state ``steps`` random moves into a seeded game."""
    rng = random.Random(seed)
    state = new_game(num_players, rules=VARIANTS[rules_index], dealer=seed % num_players)
    for _ in range(steps):
        if state.is_terminal:
            break
        if state.is_chance_node:
            state = state.apply(state.sample_chance(rng))
        else:
            state = state.apply(rng.choice(state.legal_actions()))
    return state


def block(vector: list[float], num_players: int, name: str) -> list[float]:
    for block_name, offset, size in layout(num_players):
        if block_name == name:
            return vector[offset : offset + size]
    raise KeyError(name)


@pytest.mark.parametrize(("n", "size"), [(2, 334), (3, 415), (4, 496)])
def test_size_depends_only_on_the_number_of_players(n: int, size: int) -> None:
    assert observation_size(n) == size
    _, offset, last = layout(n)[-1]
    assert offset + last == size
    offsets = [offset for _, offset, _ in layout(n)]
    assert offsets == sorted(offsets)
    for seed in range(3):
        for steps in (0, 20, 40):
            state = walk(n, seed, steps)
            assert len(observation(state.view(seed % n))) == size


@pytest.mark.parametrize("bad", [1, 5, True, "4"])
def test_layout_rejects_other_player_counts(bad: object) -> None:
    with pytest.raises(ValueError, match="num_players"):
        layout(bad)  # type: ignore[arg-type]


def test_wrong_argument_types_name_the_argument() -> None:
    state = new_game(3)
    with pytest.raises(TypeError, match="view"):
        observation(state)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="view"):
        action_mask(state)  # type: ignore[arg-type]


@pytest.mark.rule("R24")
def test_blocks_say_what_the_layout_promises() -> None:
    state = walk(4, 11, 0)
    while state.phase is not Phase.PLAY or len(state.trick) < 2:
        state = walk(4, 11, len(state.history) + 1)
    me = 2
    vector = observation(state.view(me))
    hand = block(vector, 4, "hand")
    assert [DECK[i] for i, x in enumerate(hand) if x] == list(state.hands[me])
    trump = block(vector, 4, "trump_card")
    assert state.trump_card is not None
    assert trump[state.trump_card.index] == 1.0
    assert sum(trump) == 1.0
    trick = block(vector, 4, "trick")
    for seat, card in state.trick:  # rows are relative to the viewing seat
        assert trick[32 * ((seat - me) % 4) + card.index] == 1.0
    leader = block(vector, 4, "trick_leader")
    assert leader[(state.trick[0][0] - me) % 4] == 1.0
    to_act = block(vector, 4, "to_act")
    assert state.current_player is not None
    assert to_act[(state.current_player - me) % 4] == 1.0
    assert block(vector, 4, "phase")[list(Phase).index(Phase.PLAY)] == 1.0
    assert block(vector, 4, "dealer")[(state.dealer - me) % 4] == 1.0
    assert block(vector, 4, "scores") == [0.5] * 4  # 20 of a 40-point scale


@given(
    n=st.integers(2, 4),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 120),
    rules_index=st.integers(0, len(VARIANTS) - 1),
)
def test_every_entry_is_in_the_unit_interval_and_masks_match(
    n: int, seed: int, steps: int, rules_index: int
) -> None:
    state = walk(n, seed, steps, rules_index)
    for p in range(n):
        view = state.view(p)
        assert all(0.0 <= x <= 1.0 for x in observation(view))
        mask = action_mask(view)
        assert len(mask) == NUM_ACTION_IDS
        if state.current_player == p:
            assert mask == [int(b) for b in legal_action_mask(state)]
            ids = {action_to_id(state, a) for a in state.legal_actions()}
            assert {i for i, bit in enumerate(mask) if bit} == ids
        else:
            assert not any(mask)


@pytest.mark.rule("R13", "R23")
@given(
    n=st.integers(2, 4),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 150),
    player=st.integers(0, 3),
)
def test_states_differing_only_in_hidden_cards_encode_equally(
    n: int, seed: int, steps: int, player: int
) -> None:
    """Security boundary: redeal what the seat cannot see; its tensors must not change."""
    state = walk(n, seed, steps)
    player %= n
    view = state.view(player)
    other = view.sample_state(random.Random(seed + 1))
    assert other.view(player) == view
    assert observation(other.view(player)) == observation(view)
    assert action_mask(other.view(player)) == action_mask(view)


def test_tensors_do_change_with_what_the_seat_sees() -> None:
    """The invariance above is not vacuous: one played card changes the vector."""
    state = walk(3, 4, 0)
    while state.phase is not Phase.PLAY:
        state = walk(3, 4, len(state.history) + 1)
    before = observation(state.view(0))
    action = state.legal_actions()[0]
    assert isinstance(action, PlayCard)
    after = observation(state.apply(action).view(0))
    assert before != after


def test_batches_stack_rows_in_order() -> None:
    state = walk(4, 5, 30)
    views = [state.view(p) for p in range(4)]
    rows = observation_batch(views)
    assert rows == [observation(v) for v in views]
    assert action_mask_batch(views) == [action_mask(v) for v in views]
    mixed = [walk(2, 1, 10).view(0), views[0]]
    with pytest.raises(ValueError, match="different numbers of players"):
        observation_batch(mixed)


def test_batches_as_numpy_arrays() -> None:
    np = pytest.importorskip("numpy")
    from bohmisch_watten.adapters.arrays import action_mask_array, observation_array

    state = walk(3, 2, 45)
    views = [state.view(p) for p in range(3)]
    obs = observation_array(views)
    assert obs.shape == (3, 415)
    assert obs.dtype == np.float32
    assert np.allclose(obs, np.array(observation_batch(views), dtype=np.float32))
    masks = action_mask_array(views)
    assert masks.shape == (3, 99)
    assert masks.tolist() == action_mask_batch(views)
    assert action_mask_array([]).shape == (0, 99)


@pytest.mark.rule("R12", "R13")
def test_the_ritual_blocks_taken_and_left_criticals() -> None:
    """Cutter takes Maxi (public to all), dealer leaves Belli (known to the dealer only)."""
    state = new_game(3, dealer=0)
    cutter = state.cutter
    state = state.apply(stack_pack(3, 0, {}, "EA", bottom="HK S7", taken={cutter: 1})).apply(
        TakeCritical()
    )
    assert state.phase is Phase.CUT
    state = state.apply(LeaveCritical())
    for seat in range(3):
        vector = observation(state.view(seat))
        taken = block(vector, 3, "criticals_taken")
        assert taken[3 * ((cutter - seat) % 3) + 0] == 1.0  # Maxi, row of the cutter
        assert sum(taken) == 1.0
        left = block(vector, 3, "criticals_left")
        assert left[(0 - seat) % 3] == 1.0  # the dealer declined a Critical (public)
        seen = block(vector, 3, "cut_seen")
        assert seen[DECK.index(BELLI)] == (1.0 if seat == 0 else 0.0)  # R13


# ------------------------------------------------------- the pinned 32-card tables
# Written out by hand, not computed: a trained policy reads exactly these ids and
# columns, so any change to the 32-card table or layout must fail here (R6: the
# 36-card pack has its own table and layout, never these).

PINNED_32_IDS = """
  0 take
  1 leave
  2 fold
  3 exchange []
  4 exchange [0]
  5 exchange [1]
  6 exchange [0 1]
  7 exchange [2]
  8 exchange [0 2]
  9 exchange [1 2]
 10 exchange [0 1 2]
 11 exchange [3]
 12 exchange [0 3]
 13 exchange [1 3]
 14 exchange [0 1 3]
 15 exchange [2 3]
 16 exchange [0 2 3]
 17 exchange [1 2 3]
 18 exchange [0 1 2 3]
 19 exchange [4]
 20 exchange [0 4]
 21 exchange [1 4]
 22 exchange [0 1 4]
 23 exchange [2 4]
 24 exchange [0 2 4]
 25 exchange [1 2 4]
 26 exchange [0 1 2 4]
 27 exchange [3 4]
 28 exchange [0 3 4]
 29 exchange [1 3 4]
 30 exchange [0 1 3 4]
 31 exchange [2 3 4]
 32 exchange [0 2 3 4]
 33 exchange [1 2 3 4]
 34 exchange [0 1 2 3 4]
 35 exchange [] +trump
 36 exchange [0] +trump
 37 exchange [1] +trump
 38 exchange [0 1] +trump
 39 exchange [2] +trump
 40 exchange [0 2] +trump
 41 exchange [1 2] +trump
 42 exchange [0 1 2] +trump
 43 exchange [3] +trump
 44 exchange [0 3] +trump
 45 exchange [1 3] +trump
 46 exchange [0 1 3] +trump
 47 exchange [2 3] +trump
 48 exchange [0 2 3] +trump
 49 exchange [1 2 3] +trump
 50 exchange [0 1 2 3] +trump
 51 exchange [4] +trump
 52 exchange [0 4] +trump
 53 exchange [1 4] +trump
 54 exchange [0 1 4] +trump
 55 exchange [2 4] +trump
 56 exchange [0 2 4] +trump
 57 exchange [1 2 4] +trump
 58 exchange [0 1 2 4] +trump
 59 exchange [3 4] +trump
 60 exchange [0 3 4] +trump
 61 exchange [1 3 4] +trump
 62 exchange [0 1 3 4] +trump
 63 exchange [2 3 4] +trump
 64 exchange [0 2 3 4] +trump
 65 exchange [1 2 3 4] +trump
 66 exchange [0 1 2 3 4] +trump
 67 play E7
 68 play E8
 69 play E9
 70 play E10
 71 play EU
 72 play EO
 73 play EK
 74 play EA
 75 play G7
 76 play G8
 77 play G9
 78 play G10
 79 play GU
 80 play GO
 81 play GK
 82 play GA
 83 play H7
 84 play H8
 85 play H9
 86 play H10
 87 play HU
 88 play HO
 89 play HK
 90 play HA
 91 play S7
 92 play S8
 93 play S9
 94 play S10
 95 play SU
 96 play SO
 97 play SK
 98 play SA
"""

PINNED_32_LAYOUT = {
    2: (
        ("hand", 0, 32), ("discards", 32, 32), ("draws", 64, 32), ("cut_seen", 96, 32),
        ("trump_card", 128, 32), ("trump_suit", 160, 4), ("trump_taken", 164, 1),
        ("criticals_taken", 165, 6), ("criticals_left", 171, 2), ("trick", 173, 64),
        ("trick_leader", 237, 2), ("played", 239, 64), ("tricks_won", 303, 2),
        ("folded", 305, 2), ("exchanged", 307, 12), ("scores", 319, 2), ("dealer", 321, 2),
        ("forehand", 323, 2), ("to_act", 325, 2), ("phase", 327, 6), ("stock", 333, 1),
    ),
    3: (
        ("hand", 0, 32), ("discards", 32, 32), ("draws", 64, 32), ("cut_seen", 96, 32),
        ("trump_card", 128, 32), ("trump_suit", 160, 4), ("trump_taken", 164, 1),
        ("criticals_taken", 165, 9), ("criticals_left", 174, 3), ("trick", 177, 96),
        ("trick_leader", 273, 3), ("played", 276, 96), ("tricks_won", 372, 3),
        ("folded", 375, 3), ("exchanged", 378, 18), ("scores", 396, 3), ("dealer", 399, 3),
        ("forehand", 402, 3), ("to_act", 405, 3), ("phase", 408, 6), ("stock", 414, 1),
    ),
    4: (
        ("hand", 0, 32), ("discards", 32, 32), ("draws", 64, 32), ("cut_seen", 96, 32),
        ("trump_card", 128, 32), ("trump_suit", 160, 4), ("trump_taken", 164, 1),
        ("criticals_taken", 165, 12), ("criticals_left", 177, 4), ("trick", 181, 128),
        ("trick_leader", 309, 4), ("played", 313, 128), ("tricks_won", 441, 4),
        ("folded", 445, 4), ("exchanged", 449, 24), ("scores", 473, 4), ("dealer", 477, 4),
        ("forehand", 481, 4), ("to_act", 485, 4), ("phase", 489, 6), ("stock", 495, 1),
    ),
}  # fmt: skip


def pinned_ids() -> list[tuple[int, str]]:
    rows = []
    for line in PINNED_32_IDS.strip().splitlines():
        number, name = line.strip().split(" ", 1)
        rows.append((int(number), name))
    return rows


@pytest.mark.rule("R6")
def test_the_32_card_ids_are_pinned_id_by_id() -> None:
    rows = pinned_ids()
    assert [number for number, _ in rows] == list(range(99))
    assert NUM_ACTION_IDS == num_action_ids() == num_action_ids(32) == 99
    assert list(ACTION_ID_NAMES) == [name for _, name in rows]
    assert action_id_names(32) == ACTION_ID_NAMES
    # What the names say is what the ids do: plays by card, exchanges by hand position.
    state = new_game(2, rules=Rules(schleck="none"), dealer=0)
    state = state.apply(Shuffle(DECK))
    assert state.phase is Phase.EXCHANGE
    assert state.current_player is not None
    hand = sorted(state.hands[state.current_player])
    for number, name in rows:
        verb, _, rest = name.partition(" ")
        if verb == "play":
            assert id_to_action(state, number) == PlayCard(Card.parse(rest))
        elif verb == "exchange" and not rest.endswith("+trump"):
            positions = [int(j) for j in rest.strip("[]").split()]
            action = id_to_action(state, number)
            assert action == Exchange([hand[j] for j in positions])


@pytest.mark.rule("R6")
@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_32_card_layout_is_pinned_block_by_block(n: int) -> None:
    assert layout(n) == layout(n, 32) == PINNED_32_LAYOUT[n]
    assert observation_size(n) == observation_size(n, pack=32) == 172 + 81 * n


@pytest.mark.rule("R6")
def test_the_36_card_table_is_its_own_and_extends_the_32_card_one() -> None:
    names = action_id_names(36)
    assert num_action_ids(36) == len(names) == len(set(names)) == 103
    assert names[:99] == ACTION_ID_NAMES
    assert names[99:] == ("play E6", "play G6", "play H6", "play S6")
    assert [observation_size(n, 36) for n in range(2, 8)] == [370, 459, 548, 637, 726, 815]
    assert layout(7, pack=36) == (
        ("hand", 0, 36), ("discards", 36, 36), ("draws", 72, 36), ("cut_seen", 108, 36),
        ("trump_card", 144, 36), ("trump_suit", 180, 4), ("trump_taken", 184, 1),
        ("criticals_taken", 185, 21), ("criticals_left", 206, 7), ("trick", 213, 252),
        ("trick_leader", 465, 7), ("played", 472, 252), ("tricks_won", 724, 7),
        ("folded", 731, 7), ("exchanged", 738, 42), ("scores", 780, 7), ("dealer", 787, 7),
        ("forehand", 794, 7), ("to_act", 801, 7), ("phase", 808, 6), ("stock", 814, 1),
    )  # fmt: skip
    # The same blocks in the same order as the 32-card layout, only wider.
    assert [name for name, _, _ in layout(4, 36)] == [name for name, _, _ in layout(4)]


@pytest.mark.rule("R1", "R6")
@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: num_action_ids(33), ValueError, "pack must be 32 or 36"),
        (lambda: num_action_ids("36"), TypeError, "pack must be an int"),
        (lambda: num_action_ids(True), TypeError, "pack must be an int"),
        (lambda: observation_size(5), ValueError, "2 to 4 with the 32-card pack"),
        (lambda: observation_size(8, 36), ValueError, "2 to 7 with the 36-card pack"),
        (lambda: layout(3, 40), ValueError, "pack must be 32 or 36"),
        (lambda: action_id_names(35), ValueError, "pack must be 32 or 36"),
    ],
)
def test_table_sizes_refuse_other_packs_and_counts(
    call: Callable[[], object], error: type[Exception], match: str
) -> None:
    with pytest.raises(error, match=match):
        call()


@pytest.mark.rule("R6")
def test_a_six_has_no_id_in_the_32_card_table() -> None:
    state = new_game(2)
    with pytest.raises(FormatError, match="S6 is no card of the 32-card pack"):
        action_to_id(state, PlayCard(Card.parse("S6")))
    with pytest.raises(FormatError, match="ids run from 0 to 98"):
        id_to_action(state, 102)
    seven = new_game(7, rules=Rules(pack=36))
    assert action_to_id(seven, PlayCard(Card.parse("S6"))) == 102
    assert id_to_action(seven, 99) == PlayCard(Card.parse("E6"))
    with pytest.raises(FormatError, match="ids run from 0 to 102"):
        id_to_action(seven, 103)
