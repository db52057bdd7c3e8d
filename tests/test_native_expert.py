"""The expert plays the same game with either core: equal strength, proved choice by choice.

``ExpertBot`` reaches the compiled core for its hot loops (the C best reply of
src/native/solver.c, the C solver); the pure-Python functions stay as the reference.
Here the same seeded decision views are decided twice in one process, once with every
compiled hook of the expert switched off, and the sampled worlds' values (every row
:meth:`ExpertBot.world_rows` returns) and the choices must be identical: the same random
stream drawn, the same worlds, the same numbers, hence the same strength.
"""

from __future__ import annotations

import math
import os
import random
from collections.abc import Iterator

import pytest

from bohmisch_watten import GameState, Rules, new_game, solver
from bohmisch_watten._cores import ENVIRONMENT_VARIABLE, NATIVE
from bohmisch_watten.bots import ExpertBot, HeuristicBot, expert, inference
from bohmisch_watten.views import PlayerView

pytestmark = pytest.mark.skipif(
    os.environ.get(ENVIRONMENT_VARIABLE, "").strip() == "0",
    reason=f"{ENVIRONMENT_VARIABLE}=0: the compiled core is switched off",
)

HOOKS = (
    (expert, "_NATIVE", None),
    (solver, "_NATIVE_SOLVE", None),
    (inference, "_play_evidence", inference._play_evidence_python),
    (inference, "_exchange_term", inference._exchange_term_python),
)
"""Every compiled hook the expert's decision goes through, and its Python setting."""


def _views(count: int, seed: int, players: int, pack: int = 32) -> Iterator[PlayerView]:
    """Views with a real choice from seeded heuristic games (as benchmarks/bots.py)."""
    rng = random.Random(seed)
    bot = HeuristicBot()
    found = 0
    while found < count:
        state: GameState = new_game(players, rules=Rules(pack=pack))
        while not state.is_terminal and found < count:
            if state.is_chance_node:
                state = state.apply(state.sample_chance(rng))
                continue
            view = state.view(state.current_player)  # type: ignore[arg-type]
            if len(view.legal_actions()) > 1:
                found += 1
                yield view
            state = state.apply(bot.choose(view, rng))


def test_the_expert_uses_the_compiled_core() -> None:
    """Built, the expert's hooks are the compiled functions (else this test is moot)."""
    assert NATIVE is not None, "the compiled core is not built: python setup.py build_ext"
    assert expert._NATIVE is NATIVE
    assert callable(NATIVE.best_reply)
    assert callable(NATIVE.best_reply_cards)
    assert inference._play_evidence is NATIVE.play_evidence
    assert inference._exchange_term is NATIVE.exchange_evidence


@pytest.mark.parametrize(("players", "pack"), [(2, 32), (3, 36), (4, 32), (5, 36), (7, 36)])
def test_the_play_evidence_is_the_python_one_to_the_bit(players: int, pack: int) -> None:
    """``play_evidence`` in C gives the same float (``==``, not a tolerance: the same
    operations in the same order) and the same hands as the Python term it twins, on
    the worlds of views at every stage of the card play, both packs, R26 on and off,
    with noise drawn at random."""
    assert NATIVE is not None
    rng = random.Random(players)
    compared = 0
    for view in _views(60, 500 + players, players, pack):
        if view.trump_card is None:
            continue
        history = [plays for plays, _ in view.played_tricks]
        if view.trick_plays:
            history.append(view.trick_plays)
        noise = rng.choice((0.2, 0.05, rng.random() * 0.9 + 0.01))
        for must_head in (False, True):
            for _ in range(3):
                world = view.sample_state(rng)
                args = (
                    world.hand_masks,
                    history,
                    view.player,
                    int(inference.SUIT_OF[view.trump_index]),
                    must_head,
                    math.log(1 - noise),
                    math.log(noise),
                )
                value, hands = NATIVE.play_evidence(*args)
                expected, expected_hands = inference._play_evidence_python(*args)
                assert value == expected, view
                assert list(hands) == list(expected_hands)
                compared += 1
    assert compared > 100


def _exchange_arguments(rng: random.Random) -> tuple[object, ...]:
    """Random arguments of the exchange term: any hand of either pack (R6), discards
    from it, every limit of R19-R20, fold and trump card flags, model settings."""
    pack = rng.choice((32, 36))
    trump_card = rng.randrange(pack)
    cards = rng.sample([c for c in range(pack) if c != trump_card], rng.randint(0, 5))
    dealt = sum(1 << c for c in cards)
    discards = sum(1 << c for c in cards if rng.random() < 0.4)
    trump = int(inference.SUIT_OF[trump_card])
    dealer = rng.random() < 0.3
    return (
        dealt,
        discards,
        inference._VALUE[trump],
        inference._TOTAL[trump],
        trump_card,
        rng.randint(0, 3),
        rng.random() < 0.5,
        rng.random() < 0.2,
        rng.randint(0, 3) if dealer else -1,
        dealer and rng.random() < 0.5,
        rng.choice((0.0, -1.3, rng.uniform(-3, 3))),
        rng.choice((0.3, rng.uniform(0.05, 2))),
        rng.choice((0.1, rng.uniform(0.02, 2))),
    )


def test_the_exchange_evidence_is_the_python_one_to_the_bit() -> None:
    """``exchange_evidence`` in C returns the Python term's float exactly (``==``) on
    20 000 random arguments, and raises the same error where Python's ``math.exp``
    overflows (a temperature far too small)."""
    assert NATIVE is not None
    rng = random.Random(58)
    for _ in range(20_000):
        args = _exchange_arguments(rng)
        assert NATIVE.exchange_evidence(*args) == inference._exchange_term_python(*args), args
    args = list(_exchange_arguments(random.Random(1)))
    args[6], args[7], args[10], args[11] = True, False, 500.0, 1e-3
    with pytest.raises(OverflowError):
        inference._exchange_term_python(*args)
    with pytest.raises(OverflowError):
        NATIVE.exchange_evidence(*args)


def test_the_exchange_evidence_refuses_hostile_arguments() -> None:
    assert NATIVE is not None
    good = list(_exchange_arguments(random.Random(3)))
    NATIVE.exchange_evidence(*good)
    for index, bad, error in [
        (0, -1, ValueError),
        (0, 1 << 36, ValueError),
        (0, 10**30, ValueError),
        (1, 1.0, TypeError),
        (2, (0.5,) * 35, TypeError),
        (2, (1,) * 36, TypeError),
        (3, 1, TypeError),
        (4, 36, ValueError),
        (5, -1, ValueError),
        (5, 9, ValueError),
        (6, 1, TypeError),
        (8, -2, ValueError),
        (12, None, TypeError),
    ]:
        call = list(good)
        call[index] = bad
        with pytest.raises(error):
            NATIVE.exchange_evidence(*call)
    with pytest.raises(TypeError, match="13"):
        NATIVE.exchange_evidence(*good[:12])


def test_the_play_evidence_refuses_hostile_arguments() -> None:
    """Reachable from the network through the bots: bad arguments raise, never crash."""
    assert NATIVE is not None
    good = ([0b11, 0b1100], [[(0, 4), (1, 0)]], 0, 1, True, -0.2, -1.6)
    assert NATIVE.play_evidence(*good)[1] == (0b11 | 1 << 4, 0b1101)
    for index, bad, error in [
        (0, [1], ValueError),
        (0, [1 << 36, 0], ValueError),
        (0, "ab", TypeError),
        (1, [[(0, 4)]] * 6, ValueError),
        (1, [[(0, 4), (1, 0), (0, 5)]], ValueError),
        (1, [[(2, 4)]], ValueError),
        (1, [[(0, 36)]], ValueError),
        (1, [[(0,)]], ValueError),
        (1, [5], TypeError),
        (2, 2, ValueError),
        (3, 4, ValueError),
        (4, 1, TypeError),
        (5, 0, TypeError),
    ]:
        call = list(good)
        call[index] = bad
        with pytest.raises(error):
            NATIVE.play_evidence(*call)
    with pytest.raises(TypeError, match="7"):
        NATIVE.play_evidence(*good[:6])


@pytest.mark.parametrize(("players", "count"), [(4, 60), (3, 16), (2, 10)])
def test_both_cores_value_the_same_worlds_and_choose_alike(
    monkeypatch: pytest.MonkeyPatch, players: int, count: int
) -> None:
    """Every sampled world's values and every choice equal with and without C."""
    bot = ExpertBot()
    views = [v for v in _views(count, 58 + players, players) if v.phase.name != "CUT"]
    native = [bot.world_rows(view, random.Random(i)) for i, view in enumerate(views)]
    choices = [bot.choose(view, random.Random(i)) for i, view in enumerate(views)]
    for module, name, python_setting in HOOKS:
        monkeypatch.setattr(module, name, python_setting)
    python = [bot.world_rows(view, random.Random(i)) for i, view in enumerate(views)]
    assert [bot.choose(view, random.Random(i)) for i, view in enumerate(views)] == choices
    for view, a, b in zip(views, native, python, strict=True):
        assert a == b, view
    assert len(views) >= count // 2  # the comparison is not empty
