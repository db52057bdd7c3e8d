"""N games stepped together in the compiled core, arrays in and out (``[gymnasium]``).

A pgx-style batched API for learning code: one call steps every game, and the
observations, action masks, rewards and episode ends of all of them are numpy arrays
that the compiled core writes in place (no copy, no Python object per game)::

    from bohmisch_watten.adapters.batch import BatchGames

    games = BatchGames(1024, players=4)  # self-play: every seat is the caller's
    observations, masks = games.reset(seed=7)  # (1024, 496) float32, (1024, 99) int8
    for _ in range(100):
        observations, rewards, terminated, truncated = games.step(games.random_actions())

* **Games.**  Each game is exactly one episode of
  :class:`~bohmisch_watten.adapters.gymnasium.WattenEnv` with the same arguments
  (``players``, ``rules``, ``seat``, ``mode``, ``position``, ``opponents``,
  ``max_deals``), as values or as config text.  ``opponents="self"`` (the default)
  is self-play: every seat is the caller's and each row is the decision of its game's
  seat to act (:attr:`seats`).  Against the built-in bots, ``opponents`` is
  ``"random"`` (or None), ``"heuristic"``, a list of them per other seat, or
  :class:`~bohmisch_watten.bots.RandomBot` / :class:`~bohmisch_watten.bots.HeuristicBot`
  objects: the compiled core plays them (its heuristic bot is the twin of the Python
  one, same choice for the same view).  Other bots need the Python environments.
* **Arrays**, rewritten by every call (copy what you keep): :attr:`observations`
  (N × :func:`~bohmisch_watten.encoding.observation_size`, float32, the encoding of the
  acting seat's view, element for element), :attr:`action_masks` (N × 99, int8; 103
  with ``rules="pack=36"``), :attr:`seats`, :attr:`rewards` (the acting seat's),
  :attr:`every_reward` (N × players: every seat's reward of the step), :attr:`terminated`,
  :attr:`truncated`, :attr:`illegal` (the id was not legal: the episode ended with −1)
  and :attr:`was_reset`.
* **Autoreset** as Gymnasium's ``NEXT_STEP``: the step after a game's episode ended
  resets it, ignores its action and pays 0 (:attr:`was_reset` says which).
* **Seeds.**  ``reset(seed=s)`` gives game ``i`` the generator ``random.Random(s + i)``
  (a list: one seed per game); its shuffles and random bot moves are then exactly those
  of a :class:`WattenEnv` episode drawing from that generator.  Later episodes draw on.

The compiled core must be built (``bohmisch_watten.native_core`` is true); without it
:class:`BatchGames` raises :class:`RuntimeError` and the Gymnasium vector environment
(:mod:`bohmisch_watten.adapters.vector`) runs the same games in Python.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from .. import native_core
from ..rules import Overshoot, Rules, Schleck
from ..state import GameState
from ._config import count_argument
from ._seat_game import SeatGame

__all__ = ["BatchGames"]

_DEFAULT_RULES: Final = Rules()
_SCHLECK: Final = {Schleck.ALTERNATE: 0, Schleck.CUTTER_ONLY: 1, Schleck.NONE: 2}
_OVERSHOOT: Final = {Overshoot.WINS: 0, Overshoot.ADDED_BACK: 1}
_NEUMAIER: Final = sys.version_info >= (3, 12)
"""Whether this interpreter's ``sum()`` of floats is compensated (3.12+): the compiled
heuristic bot sums its card values the same way, so its floats are Python's."""
_SEED_BITS: Final = 62
_CORE: Final = native_core.module
"""The compiled module, or None: the Python core runs."""


def _native_start(state: GameState) -> Any:
    """The compiled core's game at the chance node ``state`` (R11)."""
    assert _CORE is not None
    rules = state.rules
    return _CORE.Game(
        state.num_players,
        state.dealer,
        pack=rules.pack,
        schleck=_SCHLECK[rules.schleck],
        dealer_stock_limit=rules.dealer_stock_limit,
        must_head=rules.must_head,
        overshoot=_OVERSHOOT[rules.overshoot],
        plus_fifty=rules.plus_fifty,
        start_score=rules.start_score,
        hearts_double=rules.hearts_double,
        min_fold_score=rules.min_fold_score,
        deal_number=state.deal_number,
        scores=state.scores,
        prev_folded=sum(1 << s for s, folded in enumerate(state.previous_folds) if folded),
    )


class BatchGames:
    """N episodes stepped together by the compiled core; see the module docstring.

    Args:
        num_games: how many games (1 to 1,000,000).
        players, rules, seat, mode, position, max_deals: as for
            :class:`~bohmisch_watten.adapters.gymnasium.WattenEnv`.
        opponents: ``"self"`` (default: every seat is the caller's), or the built-in
            bots of the other seats (``"random"``, ``"heuristic"``, None for random, a
            list per seat, or RandomBot / HeuristicBot objects).

    Raises:
        RuntimeError: if the compiled core is not built (or forced off).
        TypeError: naming the parameter, for a value of the wrong type.
        ValueError: naming the parameter, for a bad value, or ``opponents`` that the
            compiled core does not play.
    """

    def __init__(
        self,
        num_games: int | str,
        players: int | str = 4,
        *,
        rules: Rules | str | dict[str, Any] = _DEFAULT_RULES,
        seat: int | str = 0,
        mode: str = "deal",
        position: str = "",
        opponents: object = "self",
        max_deals: int | str = 100,
    ) -> None:
        if _CORE is None:
            raise RuntimeError(
                "BatchGames needs the compiled core (bohmisch_watten.native_core is false); "
                "the Gymnasium vector env runs the same games in Python"
            )
        count = count_argument(num_games, "num_games", 1, 1_000_000)
        if isinstance(opponents, str) and opponents.strip() == "random":
            opponents = None
        game = SeatGame.build(players, rules, seat, mode, position, opponents, max_deals)
        kinds = game.native_kinds()
        if kinds is None:
            raise ValueError(
                "opponents: the compiled core plays the built-in random and heuristic bots "
                "only (use the Python environments for other bots)"
            )
        self._core = _CORE.Batch(
            _native_start(game.start), count, kinds, game.deal_mode, game.max_deals, _NEUMAIER
        )
        n = game.start.num_players
        self.num_games = count
        self.num_players = n
        self.rules = game.start.rules
        """The rules of every game."""
        self.self_play = game.seat is None
        """Whether every seat is the caller's (``opponents="self"``)."""
        self.seat = game.seat
        """The learning seat; None in self-play."""
        self.observations: npt.NDArray[np.float32] = np.zeros((count, self._core.size), np.float32)
        self.action_masks: npt.NDArray[np.int8] = np.zeros((count, self._core.num_ids), np.int8)
        self.seats: npt.NDArray[np.int64] = np.zeros(count, np.int64)
        """The seat whose observation each row is (the learning seat, or in self-play
        the seat to act; once an episode is over, the one that acted last)."""
        self.rewards: npt.NDArray[np.float64] = np.zeros(count, np.float64)
        """Each game's reward of the last step for the seat that chose its action."""
        self.every_reward: npt.NDArray[np.float64] = np.zeros((count, n), np.float64)
        """Every seat's reward of the last step, by absolute seat."""
        self.terminated: npt.NDArray[np.bool_] = np.zeros(count, np.bool_)
        self.truncated: npt.NDArray[np.bool_] = np.zeros(count, np.bool_)
        self.illegal: npt.NDArray[np.bool_] = np.zeros(count, np.bool_)
        """Games whose last id was not legal (their episode ended with reward −1)."""
        self.was_reset: npt.NDArray[np.bool_] = np.zeros(count, np.bool_)
        """Games the last step reset (their episode had ended; the action was ignored)."""
        self._seeded = np.zeros(count, np.bool_)
        self._actions = np.zeros(count, np.int64)
        self._started = False

    def reset(
        self,
        seed: int | Sequence[int | None] | None = None,
        *,
        mask: npt.ArrayLike | None = None,
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]:
        """Start a new episode in every game (or where ``mask`` is True).

        ``seed``: game ``i`` draws from ``random.Random(seed + i)``; a list gives each
        game's seed (None: its generator drawn on, or a fresh one the first time).
        A game not started yet is started by the next :meth:`step` (its id ignored).
        Returns :attr:`observations` and :attr:`action_masks`.

        Raises:
            TypeError: for a seed that is not an int, or a mask that is no boolean array.
            ValueError: for a list of seeds of the wrong length, a negative seed, or a
                mask of the wrong shape.
        """
        n = self.num_games
        if seed is None:
            seeds: list[int | None] = [None] * n
        elif isinstance(seed, int) and not isinstance(seed, bool):
            seeds = [seed + i for i in range(n)]
        elif isinstance(seed, Sequence) and not isinstance(seed, (str, bytes)):
            seeds = list(seed)
            if len(seeds) != n:
                raise ValueError(f"seed: {len(seeds)} seeds for {n} games")
        else:
            raise TypeError(
                f"seed must be an int, a list of seeds or None, got {type(seed).__name__}"
            )
        which = np.ones(n, np.bool_)
        if mask is not None:
            which = np.asarray(mask)
            if which.dtype != np.bool_:
                raise TypeError(f"mask must be a boolean array, got {which.dtype}")
            if which.shape != (n,):
                raise ValueError(f"mask must hold {n} booleans, got shape {which.shape}")
        values = np.full(n, -1, np.int64)
        system = random.SystemRandom()
        for i in np.flatnonzero(which).tolist():
            given = seeds[i]
            if given is None and not self._seeded[i]:
                given = system.getrandbits(_SEED_BITS)
            if given is not None:
                if isinstance(given, bool) or not isinstance(given, int):
                    raise TypeError(f"seed must hold ints or None, got {type(given).__name__}")
                if not 0 <= given < 2**64:
                    raise ValueError(f"seed must be from 0 to 2**64 - 1, got {given}")
                values[i] = given
        self._core.reset(which, values)
        self._seeded |= which
        self._started = True
        self._core.observe(self.observations, self.action_masks, self.seats)
        return self.observations, self.action_masks

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
    ]:
        """One action id per game: ``(observations, rewards, terminated, truncated)``.

        Ids that are not legal end their game's episode with reward −1
        (:attr:`illegal`); games whose episode ended on the step before are reset and
        their ids ignored (:attr:`was_reset`).  The arrays returned are this object's
        own, rewritten by the next call.

        Raises:
            RuntimeError: before the first :meth:`reset`.
            TypeError: naming ``actions`` if they are not integers.
            ValueError: naming ``actions`` if they are not one id per game.
        """
        if not self._started:
            raise RuntimeError("step before reset(): call reset() first")
        self._core.step(
            self.actions_argument(actions),
            self.observations,
            self.action_masks,
            self.seats,
            self.rewards,
            self.terminated,
            self.truncated,
            self.illegal,
            self.was_reset,
            self.every_reward,
        )
        return self.observations, self.rewards, self.terminated, self.truncated

    def actions_argument(self, actions: npt.ArrayLike) -> npt.NDArray[np.int64]:
        """``actions`` as a C-ordered int64 array of one id per game (no copy when it is
        one already); ids beyond int64 become −1, which is never legal.

        Raises:
            TypeError: naming ``actions`` if they are not integers.
            ValueError: naming ``actions`` if they are not one id per game.
        """
        if isinstance(actions, np.ndarray) and actions.dtype == np.int64:
            ids = actions
        else:
            ids = np.asarray(actions)
            if ids.dtype == np.bool_ or ids.dtype.kind not in "iuO":
                raise TypeError(f"actions must be integer action ids, got {ids.dtype}")
        if ids.shape != (self.num_games,):
            raise ValueError(f"actions must hold {self.num_games} ids, got shape {ids.shape}")
        if ids.dtype == np.int64:
            return np.ascontiguousarray(ids)
        out = self._actions
        for i, value in enumerate(ids.tolist()):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"actions must be integer action ids, got {type(value).__name__}")
            out[i] = value if -(2**63) <= value < 2**63 else -1
        return out

    def random_actions(self, seed: int | None = None) -> npt.NDArray[np.int64]:
        """A uniformly random legal id for each game (0 where nobody is to act), drawn
        in C from a generator of its own (``seed`` reseeds it): a baseline policy and
        the benchmark's, without a numpy draw per step.

        Raises:
            TypeError: if ``seed`` is not an int or None.
        """
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise TypeError(f"seed must be an int or None, got {type(seed).__name__}")
        out = np.empty(self.num_games, np.int64)
        self._core.random_actions(out, seed)
        return out
