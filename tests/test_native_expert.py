"""The expert plays the same game with either core: equal strength, proved choice by choice.

``ExpertBot`` reaches the compiled core for its hot loops (the C best reply of
src/native/solver.c, the C solver); the pure-Python functions stay as the reference.
Here the same seeded decision views are decided twice in one process, once with every
compiled hook of the expert switched off, and the sampled worlds' values (every row
:meth:`ExpertBot.world_rows` returns) and the choices must be identical: the same random
stream drawn, the same worlds, the same numbers, hence the same strength.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator

import pytest

from bohmisch_watten import GameState, new_game, solver
from bohmisch_watten._cores import ENVIRONMENT_VARIABLE, NATIVE
from bohmisch_watten.bots import ExpertBot, HeuristicBot, expert
from bohmisch_watten.views import PlayerView

pytestmark = pytest.mark.skipif(
    os.environ.get(ENVIRONMENT_VARIABLE, "").strip() == "0",
    reason=f"{ENVIRONMENT_VARIABLE}=0: the compiled core is switched off",
)

HOOKS = ((expert, "_NATIVE"), (solver, "_NATIVE_SOLVE"))
"""Every compiled hook the expert's decision goes through: set to None, Python answers."""


def _views(count: int, seed: int, players: int) -> Iterator[PlayerView]:
    """Views with a real choice from seeded heuristic games (as benchmarks/bots.py)."""
    rng = random.Random(seed)
    bot = HeuristicBot()
    found = 0
    while found < count:
        state: GameState = new_game(players)
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


@pytest.mark.parametrize(("players", "count"), [(4, 60), (3, 16), (2, 10)])
def test_both_cores_value_the_same_worlds_and_choose_alike(
    monkeypatch: pytest.MonkeyPatch, players: int, count: int
) -> None:
    """Every sampled world's values and every choice equal with and without C."""
    bot = ExpertBot()
    views = [v for v in _views(count, 58 + players, players) if v.phase.name != "CUT"]
    native = [bot.world_rows(view, random.Random(i)) for i, view in enumerate(views)]
    choices = [bot.choose(view, random.Random(i)) for i, view in enumerate(views)]
    for module, name in HOOKS:
        monkeypatch.setattr(module, name, None)
    python = [bot.world_rows(view, random.Random(i)) for i, view in enumerate(views)]
    assert [bot.choose(view, random.Random(i)) for i, view in enumerate(views)] == choices
    for view, a, b in zip(views, native, python, strict=True):
        assert a == b, view
    assert len(views) >= count // 2  # the comparison is not empty
