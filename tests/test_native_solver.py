"""The compiled solver (src/native/solver.c) against the Python search it twins.

``solver.solve_masks`` runs the C search when the compiled core is built; the pure
Python search stays as ``solver._solve_masks_python``, the reference.  Here both run in
one process on thousands of seeded positions — two to seven seats, both packs (R6),
``must_head`` on and off (R26), Hearts doubling and ``overshoot`` (R30, R32), folded
seats (R21), another seat as the mover, both models of the other seats — and must
return the same values, and give up (``NodeLimitReached``) at exactly the same
``max_nodes``: the expert values a world it gives up on differently, so equal limits are
what makes it choose the same cards with either core.  The C entry point is reachable
from the network through the bots, so hostile arguments must raise ``TypeError`` or
``ValueError`` and never crash the process.
"""

from __future__ import annotations

import contextlib
import os
import random
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from bohmisch_watten import Fold, GameState, Phase, Position, Rules, new_game, solver
from bohmisch_watten._cores import ENVIRONMENT_VARIABLE, NATIVE
from bohmisch_watten.cards import SUIT_OF
from bohmisch_watten.solver import NodeLimitReached, point_table, solve

FORCED_PYTHON = os.environ.get(ENVIRONMENT_VARIABLE, "").strip() == "0"

pytestmark = pytest.mark.skipif(
    FORCED_PYTHON, reason=f"{ENVIRONMENT_VARIABLE}=0: the compiled core is switched off"
)

PYTHON = solver._solve_masks_python
NATIVE_SOLVE = solver.solve_masks
CAP = 1500
"""The node limit of the random comparisons: keeps the Python side of a hard world short,
and checks on the way that both sides give up on the same worlds."""


def test_the_compiled_solver_runs() -> None:
    """Unless forced off, the compiled core is built and ``solve_masks`` uses it."""
    assert NATIVE is not None, "the compiled core is not built: python setup.py build_ext"
    assert solver._NATIVE_SOLVE is NATIVE.solve_masks


# ------------------------------------------------------------------ positions


def _to_play(state: GameState, rng: random.Random, fold: bool) -> GameState:
    while state.phase is not Phase.PLAY:
        if state.is_chance_node:
            state = state.apply(state.sample_chance(rng))
            continue
        actions = state.legal_actions()
        if not fold:
            actions = [a for a in actions if not isinstance(a, Fold)] or list(actions)
        state = state.apply(rng.choice(actions))
    return state


def _positions(players: int, pack: int, seed: int, count: int) -> Iterator[GameState]:
    """``count`` seeded PLAY positions: random rules of play, scores, folds and plays."""
    rng = random.Random(seed)
    found = 0
    while found < count:
        rules = Rules(
            pack=pack,
            must_head=rng.random() < 0.5,
            hearts_double=rng.random() < 0.7,
            overshoot=rng.choice(("wins", "added_back")),
        )
        dealer = rng.randrange(players)
        if rng.random() < 0.5:
            start = new_game(players, rules=rules, dealer=dealer)
        else:  # a later deal: low scores (R32) and folding allowed (R21)
            scores = tuple(rng.randint(1, 12) for _ in range(players))
            start = GameState.from_position(
                Position(players, rules, dealer, 2, scores, (False,) * players)
            )
        state = _to_play(start, rng, fold=rng.random() < 0.5)
        for _ in range(rng.randrange(5 * (players - sum(state.folded)))):
            state = state.apply(rng.choice(state.legal_actions()))
            if state.phase is not Phase.PLAY:
                break
        if state.phase is Phase.PLAY:
            found += 1
            yield state


def _arguments(state: GameState, rng: random.Random) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """The masks of ``state`` and random keywords: another mover, the expert's kind of rows."""
    trump = SUIT_OF[state.trump_index]
    points: Any = point_table(trump, state.rules, state.scores)
    active = [seat for seat, out in enumerate(state.folded) if not out]
    mover = rng.choice(active) if rng.random() < 0.4 else state.current_player
    if rng.random() < 0.3:  # rows as the expert builds them: any ints, thousandths
        points = tuple(tuple(rng.randint(-9000, 9000) for _ in range(6)) for _ in points)
    args = (state.hand_masks, state.trick_plays, state.tricks_won, trump)
    keywords = {
        "player": state.current_player,
        "mover": mover,
        "must_head": state.rules.must_head,
        "folded": state.folded,
        "points": points,
    }
    return args, keywords


def _outcome(search: Callable[..., dict[int, int]], *args: Any, **keywords: Any) -> object:
    try:
        return search(*args, **keywords)
    except NodeLimitReached:
        return "limit"


TABLES = [(2, 32), (3, 32), (4, 32), (2, 36), (3, 36), (4, 36), (5, 36), (6, 36), (7, 36)]


@pytest.mark.parametrize("others", ["paranoid", "selfish"])
@pytest.mark.parametrize(("players", "pack"), TABLES)
def test_values_and_limits_equal_the_python_search(players: int, pack: int, others: str) -> None:
    """Per position: the same values, or both give up at ``max_nodes=CAP``."""
    rng = random.Random(players * 100 + pack)
    count = 160 if others == "paranoid" else 90
    solved = 0
    for state in _positions(players, pack, players * 7 + pack + len(others), count):
        args, keywords = _arguments(state, rng)
        keywords |= {"others": others, "max_nodes": CAP}
        native = _outcome(NATIVE_SOLVE, *args, **keywords)
        assert native == _outcome(PYTHON, *args, **keywords), state.to_json()
        solved += native != "limit"
    assert solved > count // 2  # most worlds are solved, not only given up on


@pytest.mark.parametrize("others", ["paranoid", "selfish"])
@pytest.mark.parametrize(("players", "pack"), [(2, 32), (4, 32), (5, 36), (7, 36)])
def test_the_same_node_limit_exactly(players: int, pack: int, others: str) -> None:
    """The least ``max_nodes`` the C search needs is the least the Python one needs."""
    rng = random.Random(players + pack)
    started = 0
    for state in _positions(players, pack, 900 + players, 12):
        args, keywords = _arguments(state, rng)
        keywords["others"] = others
        low, high = 0, 1
        while _outcome(NATIVE_SOLVE, *args, max_nodes=high, **keywords) == "limit":
            low, high = high + 1, 2 * high + 1
            if high > 4 * CAP:
                break
        else:
            while low < high:  # the least limit the C search needs
                mid = (low + high) // 2
                if _outcome(NATIVE_SOLVE, *args, max_nodes=mid, **keywords) == "limit":
                    low = mid + 1
                else:
                    high = mid
            started += low
            assert _outcome(PYTHON, *args, max_nodes=low, **keywords) != "limit"
            if low > 0:
                assert _outcome(PYTHON, *args, max_nodes=low - 1, **keywords) == "limit"
    assert started  # some searches started tricks


def test_solve_uses_the_compiled_search() -> None:
    """``solve(state)`` equals the Python search on the state's masks (R24-R32)."""
    rng = random.Random(5)
    for players, pack in TABLES:
        for state in _positions(players, pack, 50 + players, 6):
            if players > 4 and not state.trick_plays and len(state.hands[0]) == 5:
                continue  # a first card of six or seven seats: long for the Python side
            args, keywords = _arguments(state, rng)
            keywords["mover"] = state.current_player
            keywords["points"] = point_table(args[3], state.rules, state.scores)
            values = solve(state)
            assert {action.card.index: v for action, v in values.items()} == PYTHON(
                *args, **keywords
            )


def test_threads_solve_at_once() -> None:
    """The search keeps no shared state: four threads get the values one thread gets."""
    rng = random.Random(8)
    work = [_arguments(state, rng) for state in _positions(4, 32, 8, 40)]
    alone = [NATIVE_SOLVE(*args, **keywords) for args, keywords in work]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda item: NATIVE_SOLVE(*item[0], **item[1]), work * 4))
    assert together == alone * 4


# ------------------------------------------------------------------ hostile arguments

# A valid call: seat 0 leads, five cards each, nothing played yet (R11, R24).
GOOD: dict[str, Any] = {
    "hands": [0b11111, 0b11111 << 8],
    "trick": [],
    "tricks_won": [0, 0],
    "trump": 0,
    "player": 0,
    "mover": 0,
    "must_head": True,
    "folded": [False, False],
    "points": [[5, -1, -2, -3, -4, -5]] * 2,
    "others": "paranoid",
    "max_nodes": None,
}

HOSTILE: list[tuple[dict[str, Any], type[Exception], str]] = [
    ({"hands": 7}, TypeError, "hands"),
    ({"hands": "ab"}, TypeError, "hands"),
    ({"hands": [1.0, 2]}, TypeError, "hand"),
    ({"hands": [True, 2]}, TypeError, "hand"),
    ({"hands": [-1, 2]}, ValueError, "hand"),
    ({"hands": [1 << 36, 2]}, ValueError, "hand"),
    ({"hands": [1 << 200, 2]}, ValueError, "hand"),
    ({"hands": [1]}, ValueError, "seats"),
    ({"hands": [0] * 8}, ValueError, "seats"),
    ({"hands": [0b11111, 0b11111]}, ValueError, "two hands"),
    ({"hands": [0b111111, 0b111111 << 8]}, ValueError, "five"),
    ({"hands": [0b11111, 0b1111 << 8]}, ValueError, "hands in play"),
    ({"hands": [0, 0]}, ValueError, "five"),
    ({"trick": None}, TypeError, "trick"),
    ({"trick": [(1,)]}, ValueError, "play"),
    ({"trick": [(1, "E7")]}, TypeError, "card"),
    ({"trick": [(1, 36)]}, ValueError, "card"),
    ({"trick": [(2, 20)]}, ValueError, "seat"),
    ({"trick": [(1, 8)]}, ValueError, "also in a hand"),
    ({"trick": [(1, 20), (0, 21)]}, ValueError, "fewer plays"),
    ({"trick": [(0, 20)]}, ValueError, "after the last play"),
    ({"tricks_won": [0]}, ValueError, "tricks_won"),
    ({"tricks_won": [1, 0]}, ValueError, "five tricks"),
    ({"tricks_won": [0, -1]}, ValueError, "tricks_won"),
    ({"tricks_won": [0, None]}, TypeError, "tricks_won"),
    ({"trump": 4}, ValueError, "trump"),
    ({"trump": "0"}, TypeError, "trump"),
    ({"player": 2}, ValueError, "player"),
    ({"mover": -1}, ValueError, "mover"),
    ({"must_head": 1}, TypeError, "must_head"),
    ({"folded": [False]}, ValueError, "folded"),
    ({"folded": [0, 0]}, TypeError, "folded"),
    ({"folded": [False, True]}, ValueError, "two seats"),
    ({"points": [[5, -1, -2, -3, -4, -5]]}, ValueError, "points"),
    ({"points": [[5, -1, -2]] * 2}, ValueError, "points"),
    ({"points": [[5, -1, -2, -3, -4, 1 << 60]] * 2}, ValueError, "point"),
    ({"points": [[5, -1, -2, -3, -4, 0.5]] * 2}, TypeError, "point"),
    ({"others": "maxn"}, ValueError, "others"),
    ({"others": None}, TypeError, "others"),
    ({"max_nodes": 1.5}, TypeError, "max_nodes"),
    ({"max_nodes": True}, TypeError, "max_nodes"),
]


@pytest.mark.parametrize(("change", "error", "words"), HOSTILE)
def test_hostile_arguments_raise(
    change: dict[str, Any], error: type[Exception], words: str
) -> None:
    """Straight into the C entry point: an error naming the argument, never a crash."""
    assert NATIVE is not None
    call = GOOD | change
    with pytest.raises(error, match=words):
        NATIVE.solve_masks(*call.values())


def test_the_valid_call_and_the_argument_count() -> None:
    """The base of the hostile cases is valid; a wrong number of arguments is refused."""
    assert NATIVE is not None
    values = NATIVE.solve_masks(*GOOD.values())
    assert values == PYTHON(*list(GOOD.values())[:4], **dict(list(GOOD.items())[4:]))
    with pytest.raises(TypeError, match="11"):
        NATIVE.solve_masks(*list(GOOD.values())[:10])


def test_solve_masks_checks_through_the_public_name() -> None:
    """The public function passes its arguments to the checks of the C search."""
    with pytest.raises(ValueError, match="two hands"):
        solver.solve_masks([0b11111, 0b11111], [], [0, 0], 0, player=0)
    with pytest.raises(TypeError, match="folded"):
        solver.solve_masks([0b11111, 0b11111 << 8], [], [0, 0], 0, player=0, folded=[0, 0])


def test_no_references_leak() -> None:
    """Valid and refused calls alike leave no object behind (reference counts)."""
    assert NATIVE is not None
    calls = [list((GOOD | change).values()) for change, _, _ in HOSTILE] + [list(GOOD.values())]

    def run_all() -> None:
        for call in calls:
            with contextlib.suppress(TypeError, ValueError):
                NATIVE.solve_masks(*call)

    def counts() -> list[int]:  # of the lists given (None, bools and small ints are shared)
        return [sys.getrefcount(a) for call in calls for a in call if isinstance(a, list)]

    run_all()
    before = counts()
    blocks = sys.getallocatedblocks()
    for _ in range(300):
        run_all()
    assert sys.getallocatedblocks() - blocks < 100  # 300 x 42 calls: a leak shows
    assert counts() == before
