"""The compiled core plays exactly the game the Python reference plays.

The native engine (``bohmisch_watten._native.Game``, src/native/game.c) and a
:class:`~bohmisch_watten.GameState` are driven by the same shuffles and the same
decisions, and after every step every field is compared: phase, seat to act, dealer,
deal number, hands, stock, trump card, folds, exchanges, discards, the ritual, the
trick, the finished tricks, tricks won, scores, winners and losers, and the legal
action ids.  At every decision an illegal id is offered to the native engine, which
must refuse it and stay unchanged, and every few decisions to the Python state as well,
which must refuse it too.

The sweep covers every variant of RULES.md §8 (each field off its default, plus a few
mixtures), both packs and every table size (2-4 players with 32 cards, 2-7 with 36), and
games from the start as well as from positions close to the goal, so that endings,
``added_back`` and ``plus_fifty`` are reached often.  ``LOCKSTEP_DECISIONS`` (default
1,000,000) is the number of decisions of the whole sweep; the sanitizer run
(``make native-sanitize``) sets it lower.

The module is imported directly, not through ``bohmisch_watten._cores``, so that the
sweep also runs under ``BOHMISCH_WATTEN_NATIVE=0`` (the reference is pure Python either
way).  Without a build it fails, unless the build was switched off on purpose
(``BOHMISCH_WATTEN_BUILD_NATIVE=0``, the pure-Python install).
"""

from __future__ import annotations

import importlib
import os
import pickle
import random
import subprocess
import sys
from types import ModuleType
from typing import Any

import pytest

from bohmisch_watten import (
    DECK,
    Exchange,
    GameState,
    IllegalActionError,
    Phase,
    PlayCard,
    Position,
    Rules,
    Shuffle,
    new_game,
)
from bohmisch_watten import state as state_module
from bohmisch_watten.cards import CARDS, bits
from bohmisch_watten.encoding import (
    EXCHANGE_BASE,
    EXCHANGE_TRUMP_BASE,
    FOLD_ID,
    PLAY_BASE,
    id_to_action,
)
from bohmisch_watten.errors import FormatError
from bohmisch_watten.scoring import game_result


def _native() -> ModuleType:
    try:
        return importlib.import_module("bohmisch_watten._native")
    except ImportError:
        if os.environ.get("BOHMISCH_WATTEN_BUILD_NATIVE") == "0":
            pytest.skip("the compiled core is switched off (BOHMISCH_WATTEN_BUILD_NATIVE=0)")
        raise


PHASES = {phase: index for index, phase in enumerate(Phase)}
SCHLECK = {"alternate": 0, "cutter_only": 1, "none": 2}
OVERSHOOT = {"wins": 0, "added_back": 1}
TOTAL = int(os.environ.get("LOCKSTEP_DECISIONS", "1000000"))
PROBE_EVERY = 8
"""Every how many decisions the Python state is also offered the illegal id."""

VARIANTS = (
    {},
    {"schleck": "cutter_only"},
    {"schleck": "none"},
    {"dealer_stock_limit": 3},
    {"must_head": False},
    {"overshoot": "added_back"},
    {"plus_fifty": True},
    {"start_score": 7},
    {"hearts_double": False},
    {"min_fold_score": -1000},
    {"min_fold_score": 1000},
    {"schleck": "cutter_only", "dealer_stock_limit": 3, "must_head": False, "min_fold_score": 0},
    {"overshoot": "added_back", "plus_fifty": True, "hearts_double": False, "start_score": 9},
)
TABLES = [(32, n) for n in range(2, 5)] + [(36, n) for n in range(2, 8)]
SEEDS = (1, 2)


def native_game(native: ModuleType, state: GameState) -> Any:
    """The native twin of a state at the chance node of a deal."""
    rules = state.rules
    return native.Game(
        state.num_players,
        state.dealer,
        pack=rules.pack,
        schleck=SCHLECK[rules.schleck.value],
        dealer_stock_limit=rules.dealer_stock_limit,
        must_head=rules.must_head,
        overshoot=OVERSHOOT[rules.overshoot.value],
        plus_fifty=rules.plus_fifty,
        start_score=rules.start_score,
        hearts_double=rules.hearts_double,
        min_fold_score=rules.min_fold_score,
        deal_number=state.deal_number,
        scores=state.scores,
        prev_folded=sum(1 << s for s, f in enumerate(state.previous_folds) if f),
    )


def python_ids(state: GameState) -> tuple[int, ...]:
    """The ids of ``state.legal_actions()``, ascending (the native order)."""
    actions = state.legal_actions()
    if state.phase is Phase.PLAY:
        ids = [PLAY_BASE + action.card.index for action in actions]  # type: ignore[attr-defined]
    elif state.phase is Phase.EXCHANGE:
        assert state.current_player is not None
        position = {card: j for j, card in enumerate(bits(state.hand_masks[state.current_player]))}
        ids = []
        for action in actions:
            if isinstance(action, Exchange):
                p = sum(1 << position[card.index] for card in action.discard)
                ids.append((EXCHANGE_TRUMP_BASE if action.take_trump_card else EXCHANGE_BASE) + p)
            else:
                ids.append(FOLD_ID)
    elif state.phase is Phase.CUT:
        ids = [0, 1]
    else:
        ids = []
    assert len(set(ids)) == len(ids), "the reference lists an action twice"
    return tuple(sorted(ids))


def compare(state: GameState, game: Any) -> None:
    """Every field of the state equals the native game's."""
    deal = state.deal_fields
    assert PHASES[state.phase] == game.phase
    assert state.current_player == game.current_player
    assert state.dealer == game.dealer
    assert state.deal_number == game.deal_number
    assert state.hand_masks == game.hand_masks
    assert deal.pack == game.stock
    assert deal.trump == game.trump
    assert deal.took_trump == game.took_trump
    assert deal.folded == game.folded
    assert deal.exchanged == game.exchanged
    assert deal.discards == game.discards
    assert deal.cut == game.cut
    assert state.trick_plays == game.trick
    assert state.played_tricks == game.played_tricks
    assert state.tricks_won == game.tricks_won
    assert state.scores == game.scores
    assert state.winners == game.winners
    assert state.losers == game.losers
    assert state.play_mask == game.play_mask
    assert state.previous_folds == game.prev_folded
    assert state.is_terminal == game.is_terminal
    assert state.is_chance_node == game.is_chance_node


def start_state(rules: Rules, n: int, rng: random.Random) -> GameState:
    """A new game, or (half of the time) a game from a position near the goal."""
    dealer = rng.randrange(n)
    if rng.random() < 0.5:
        return new_game(n, rules=rules, dealer=dealer)
    while True:
        if rules.plus_fifty and rng.random() < 0.5:
            scores = tuple(rng.randint(40, 49) for _ in range(n))
        else:
            scores = tuple(rng.randint(1, min(12, rules.start_score + 5)) for _ in range(n))
        folded = [rng.random() < 0.3 for _ in range(n)]
        folded[(dealer - 1) % n] = False  # R21.5: the previous dealer played
        if n - sum(folded) < 2:
            folded = [False] * n
        if not game_result(scores, rules)[0]:
            position = Position(n, rules, dealer, rng.randint(2, 9), scores, tuple(folded))
            return GameState.from_position(position)


def python_refuses(state: GameState, action_id: int) -> bool:
    """Whether the reference refuses the decision with this id (and stays as it was)."""
    try:
        action = id_to_action(state, action_id)
    except FormatError:  # an exchange id outside the exchange: no such action here
        return True
    try:
        state.apply(action)
    except IllegalActionError:
        return True
    return False


def probe_shuffle(state: GameState, game: Any, rng: random.Random) -> None:
    """A pack with a card twice is refused by both; a decision at a chance node too."""
    size = state.rules.pack
    order = list(range(size))
    rng.shuffle(order)
    order[rng.randrange(size)] = order[rng.randrange(size)]
    if len(set(order)) == size:
        order[0] = order[1]
    with pytest.raises(ValueError, match="R11"):
        game.shuffle(order)
    with pytest.raises((IllegalActionError, ValueError)):
        state.apply(Shuffle([CARDS[i] for i in order]))
    with pytest.raises(ValueError, match="not an action of this phase"):
        game.apply(PLAY_BASE)
    with pytest.raises(IllegalActionError):
        state.apply(PlayCard(DECK[0]))


def play_in_lockstep(native: ModuleType, rules: Rules, n: int, seed: int, quota: int) -> int:
    """Games of ``rules`` at ``n`` seats until ``quota`` decisions; the decisions taken."""
    rng = random.Random(seed)
    decisions = probes = 0
    while decisions < quota:
        state = start_state(rules, n, rng)
        game = native_game(native, state)
        last_deal = state.deal_number + 25  # tables of six or seven may never end (R31)
        compare(state, game)
        while not state.is_terminal and state.deal_number <= last_deal:
            if state.is_chance_node:
                if rng.random() < 0.05:
                    probe_shuffle(state, game, rng)
                shuffle = state.sample_chance(rng)
                game.shuffle([card.index for card in shuffle.pack])
                state = state.apply(shuffle)
                compare(state, game)
                continue
            ids = game.legal()
            assert ids == python_ids(state)
            illegal = [i for i in range(PLAY_BASE + rules.pack) if i not in ids]
            bad = illegal[rng.randrange(len(illegal))]
            before = game.copy()
            try:
                game.apply(bad)
            except ValueError:
                pass
            else:
                raise AssertionError(f"the native core took the illegal id {bad}")
            assert (game.hand_masks, game.current_player, game.stock, game.trick) == (
                before.hand_masks, before.current_player, before.stock, before.trick,
            )  # fmt: skip
            assert not game.is_legal(bad)
            assert all(game.is_legal(i) for i in ids[:3])
            decisions += 1
            if decisions % PROBE_EVERY == 0:
                assert python_refuses(state, bad), f"the reference took the illegal id {bad}"
                probes += 1
            if FOLD_ID in ids and rng.random() < 0.25:
                choice = FOLD_ID  # folding is one option among ~27: make it common
            else:
                choice = ids[rng.randrange(len(ids))]
            game.apply(choice)
            state = state.apply(id_to_action(state, choice))
            compare(state, game)
    assert probes > 0
    return decisions


@pytest.mark.parametrize(("pack", "num_players"), TABLES)
def test_native_and_python_cores_agree_step_by_step(
    pack: int, num_players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    native = _native()
    monkeypatch.setattr(state_module, "_NATIVE_PLAY", None)  # the reference: pure Python
    quota = max(200, TOTAL // (len(TABLES) * len(VARIANTS) * len(SEEDS)))
    total = 0
    for variant in VARIANTS:
        rules = Rules(pack=pack, **variant)
        for seed in SEEDS:
            total += play_in_lockstep(native, rules, num_players, seed * 1000 + num_players, quota)
    assert total >= quota * len(VARIANTS) * len(SEEDS)


# ------------------------------------------------- GameState on the compiled core


def _random_game(rules: Rules, n: int, seed: int) -> tuple[list[GameState], list[Any]]:
    """A game by random decisions: its states and the action applied to each."""
    rng = random.Random(seed)
    state = start_state(rules, n, rng)
    states: list[GameState] = []
    actions: list[Any] = []
    while not state.is_terminal and len(states) < 200:
        action = (
            state.sample_chance(rng) if state.is_chance_node else rng.choice(state.legal_actions())
        )
        states.append(state)
        actions.append(action)
        state = state.apply(action)
    states.append(state)
    return states, actions


def _illegal_plays(state: GameState) -> list[PlayCard]:
    return [
        PlayCard(card) for card in CARDS[: state.rules.pack] if not state.is_legal(PlayCard(card))
    ]


def _refusal(state: GameState, action: PlayCard) -> str:
    with pytest.raises(IllegalActionError) as error:
        state.apply(action)
    return str(error.value)


@pytest.mark.parametrize("variant", VARIANTS[:7])
def test_gamestate_plays_the_same_with_the_compiled_core(
    variant: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``GameState.apply`` plays cards through the compiled core (``_play_natively``);
    the states it makes equal, field by field, those of the pure-Python path, also after
    pickling, and an illegal card is refused with the same IllegalActionError text."""
    play_step = _native().play_step
    assert state_module._NATIVE_PLAY is play_step, "GameState does not use the compiled core"
    taken: list[int] = []

    def counted(*args: Any) -> Any:
        step = play_step(*args)
        taken.append(step is not None)
        return step

    monkeypatch.setattr(state_module, "_NATIVE_PLAY", counted)
    for pack, n in ((32, 4), (36, 6), (32, 2)):
        rules = Rules(pack=pack, **variant)
        for seed in range(5):
            taken.clear()
            states, actions = _random_game(rules, n, seed)
            assert sum(taken) > len(taken) / 2  # the compiled path played most cards
            refusals = [
                [_refusal(s, bad) for bad in _illegal_plays(s)[:2]]
                for s in states[:-1]
                if s.phase is Phase.PLAY
            ]
            pickles = [pickle.loads(pickle.dumps(s)) for s in states[::7]]
            with monkeypatch.context() as patch:
                patch.setattr(state_module, "_NATIVE_PLAY", None)
                reference = start_state(rules, n, random.Random(seed))
                assert reference == states[0]
                played = [reference]
                for action in actions:
                    played.append(played[-1].apply(action))
                expected = [
                    [_refusal(s, bad) for bad in _illegal_plays(s)[:2]]
                    for s in played[:-1]
                    if s.phase is Phase.PLAY
                ]
            for mine, theirs in zip(states, played, strict=True):
                assert mine == theirs
                assert hash(mine) == hash(theirs)
                assert mine.play_mask == theirs.play_mask  # eq=False field
                assert mine.legal_actions() == theirs.legal_actions()
            for mine, theirs in list(zip(states, played, strict=True))[::9]:
                assert mine.view(0) == theirs.view(0)
            assert refusals == expected
            assert pickles == played[::7]


def test_the_environment_variable_keeps_gamestate_on_the_reference() -> None:
    """``BOHMISCH_WATTEN_NATIVE=0``: GameState plays every card in Python; without it, in C."""
    _native()
    code = (
        "import bohmisch_watten, bohmisch_watten.state as s;"
        "print(bool(bohmisch_watten.native_core), s._NATIVE_PLAY is None)"
    )
    answers = {}
    for setting in ("0", "1"):
        env = {**os.environ, "BOHMISCH_WATTEN_NATIVE": setting}
        done = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        answers[setting] = done.stdout.split()
    assert answers == {"0": ["False", "True"], "1": ["True", "False"]}


# ----------------------------------------------------------------- hostile arguments

HOSTILE_CONSTRUCTIONS: list[tuple[tuple[Any, ...], dict[str, Any], type[Exception]]] = [
    (("4",), {}, TypeError),
    ((4.0,), {}, TypeError),
    ((True,), {}, TypeError),
    ((None,), {}, TypeError),
    ((1,), {}, ValueError),
    ((5,), {}, ValueError),
    ((8,), {"pack": 36}, ValueError),
    ((2**80,), {}, ValueError),
    ((-(2**80),), {}, ValueError),
    ((4,), {"pack": 33}, ValueError),
    ((4,), {"pack": "32"}, TypeError),
    ((4, 4), {}, ValueError),
    ((4, -1), {}, ValueError),
    ((4, "0"), {}, TypeError),
    ((4,), {"schleck": 3}, ValueError),
    ((4,), {"schleck": "none"}, TypeError),
    ((4,), {"dealer_stock_limit": 4}, ValueError),
    ((4,), {"must_head": 2}, ValueError),
    ((4,), {"must_head": "yes"}, TypeError),
    ((4,), {"overshoot": 2}, ValueError),
    ((4,), {"start_score": 0}, ValueError),
    ((4,), {"start_score": 1001}, ValueError),
    ((4,), {"min_fold_score": 1001}, ValueError),
    ((4,), {"deal_number": 0}, ValueError),
    ((4,), {"scores": (1, 2, 3)}, ValueError),
    ((4,), {"scores": 5}, TypeError),
    ((4,), {"scores": (1, 2, 3, "4")}, TypeError),
    ((4,), {"scores": (1, 2, 3, 2**70)}, ValueError),
    ((4,), {"prev_folded": 16}, ValueError),
    ((4,), {"prev_folded": -1}, ValueError),
    ((4,), {"colour": 1}, TypeError),
    ((4, 0, 32), {}, TypeError),
]


@pytest.mark.parametrize(("args", "kwargs", "error"), HOSTILE_CONSTRUCTIONS)
def test_the_native_game_refuses_bad_construction(
    args: tuple[Any, ...], kwargs: dict[str, Any], error: type[Exception]
) -> None:
    with pytest.raises(error):
        _native().Game(*args, **kwargs)


def test_the_native_game_refuses_bad_actions_and_stays_usable() -> None:
    native = _native()
    game = native.Game(4)
    for value, error in [
        ("3", TypeError), (3.0, TypeError), (None, TypeError), (True, TypeError),
        (-1, ValueError), (2**64, ValueError), (-(2**64), ValueError), (103, ValueError),
        (99, ValueError), (67, ValueError), (0, ValueError),
    ]:  # fmt: skip
        with pytest.raises(error):
            game.apply(value)
        if error is TypeError or value in (-1, 2**64, -(2**64), 103):  # no id of any table
            with pytest.raises(error):
                game.is_legal(value)
        else:
            assert game.is_legal(value) is False
    for pack, error in [
        (None, TypeError), ("abc", TypeError), (b"\x00" * 32, TypeError), (5, TypeError),
        (list(range(31)), ValueError), (list(range(33)), ValueError), ([0] * 32, ValueError),
        ([*range(31), 32], ValueError), ([*range(31), -1], ValueError),
        ([*range(31), 31.0], TypeError), ([*range(31), 2**70], ValueError),
        ([*range(31), "31"], TypeError),
    ]:  # fmt: skip
        with pytest.raises(error):
            game.shuffle(pack)
    assert game.phase == 0  # every refusal left the chance node as it was
    game.shuffle(range(32))
    with pytest.raises(ValueError, match="R11"):
        game.shuffle(range(32))  # no chance node any more
    for seat, error in [(4, ValueError), ("1", TypeError), (None, TypeError)]:
        with pytest.raises(error):
            game.fold_rule(seat)
    for args, error in [
        (("seed",), TypeError), ((1.5,), TypeError), ((), TypeError), ((1, 0), ValueError),
        ((1, "9"), TypeError),
    ]:  # fmt: skip
        with pytest.raises(error):
            game.playout(*args)
    for args, error in [
        ((None, 1, 1), TypeError), ((game, -1, 1), ValueError), ((game, "1", 1), TypeError),
        ((game, 1, None), TypeError), ((game, 1, 1, 0), ValueError),
    ]:  # fmt: skip
        with pytest.raises(error):
            native.random_playouts(*args)
    assert game.playout(7) > 0
    assert game.is_terminal or game.deal_number > 500


def _play_args() -> list[Any]:
    """The arguments GameState gives play_step, from a real mid-trick state."""
    state = new_game(4).apply(Shuffle(DECK))
    while state.phase is not Phase.PLAY:
        state = state.apply(state.legal_actions()[0])
    state = state.apply(state.legal_actions()[0])
    deal = state.deal_fields
    card = state.legal_actions()[0].card.index  # type: ignore[attr-defined]
    return [
        state.current_player, card, state.play_mask, state.hand_masks, state.trick_plays,
        state.played_tricks, state.tricks_won, deal.folded, deal.trump, True,
    ]  # fmt: skip


BAD_PLAY_ARGS: list[tuple[int, Any, type[Exception]]] = [
    (0, None, TypeError), (0, 4, ValueError), (0, -1, ValueError), (0, 1.0, TypeError),
    (1, 36, ValueError), (1, "1", TypeError), (1, 2**70, ValueError),
    (2, None, TypeError), (3, [1, 2, 3, 4], TypeError), (3, (1,), ValueError),
    (3, (1, 2, 3, "4"), TypeError), (3, tuple(range(9)), TypeError),
    (4, ((0, 1),) * 7, TypeError), (4, ((0, 1, 2),), TypeError), (4, ((9, 1),), ValueError),
    (4, ((0, 99),), ValueError), (4, (None,), TypeError), (4, ((0, 1),) * 4, ValueError),
    (5, (None,) * 5, TypeError), (6, (0, 0, 0), ValueError), (6, (0, 0, 0, 9), ValueError),
    (7, (True, True, True, False), ValueError), (7, (0, 0, 0, 0), TypeError),
    (7, (False,) * 3, ValueError), (8, 36, ValueError), (8, None, TypeError),
]  # fmt: skip


@pytest.mark.parametrize(("index", "value", "error"), BAD_PLAY_ARGS)
def test_play_step_refuses_bad_fields(index: int, value: Any, error: type[Exception]) -> None:
    native = _native()
    args = _play_args()
    assert native.play_step(*args) is not None  # the good arguments work
    args[index] = value
    with pytest.raises(error):
        native.play_step(*args)


def test_play_step_refuses_a_wrong_number_of_arguments() -> None:
    with pytest.raises(TypeError, match="10 arguments"):
        _native().play_step(*_play_args()[:9])


def test_random_calls_never_crash_the_native_game() -> None:
    """Thousands of random calls with random arguments: each returns or raises, the
    game stays consistent (its legal ids are accepted), nothing crashes."""
    native = _native()
    rng = random.Random(58)
    junk: list[Any] = [None, -1, 0, 1, 2, 66, 67, 98, 102, 103, 2**40, -(2**63), 1.0, "x", (), [1]]
    games = [native.Game(rng.choice((2, 3, 4))), native.Game(7, pack=36)]
    for _ in range(20000):
        game = rng.choice(games)
        what = rng.randrange(5)
        try:
            if what == 0:
                game.apply(rng.choice(junk) if rng.random() < 0.5 else rng.randrange(-5, 110))
            elif what == 1:
                size = game.pack
                order = list(range(size))
                rng.shuffle(order)
                if rng.random() < 0.5:
                    order[rng.randrange(size)] = rng.choice(junk)
                game.shuffle(order)
            elif what == 2:
                ids = game.legal()
                if ids:
                    choice = rng.choice(ids)
                    try:
                        game.apply(choice)
                    except ValueError:
                        raise AssertionError(f"the legal id {choice} was refused") from None
            elif what == 3:
                game.fold_rule(rng.choice(junk))
            else:
                games.append(game.copy())
                games = games[-8:]
        except (TypeError, ValueError):
            pass
        if game.is_terminal:
            games.remove(game)
            games.append(native.Game(rng.choice((2, 3, 4)), rng.randrange(2)))
    assert all(game.phase in range(6) for game in games)
