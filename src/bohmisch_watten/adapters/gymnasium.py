"""Böhmisch Watten as a single-agent Gymnasium environment (extra ``[gymnasium]``).

One learning seat plays against bots; importing this module registers it as
``BohmischWatten-v0``:

>>> import gymnasium
>>> import bohmisch_watten.adapters.gymnasium
>>> env = gymnasium.make("BohmischWatten-v0", players=3)
>>> observation, info = env.reset(seed=1)
>>> observation.shape, info["action_mask"].shape
((415,), (99,))

* **Observation**: :func:`bohmisch_watten.encoding.observation` of the learning seat's
  view, ``float32`` in ``[0, 1]``; ``info["action_mask"]`` is the ``int8`` mask over the
  99 action ids (:mod:`bohmisch_watten.action_ids`).
* **Action**: an id in ``Discrete(99)``.  An id that is not legal ends the episode with
  reward −1 and ``info["illegal"] = True``; it never raises (``check_env`` steps with
  random ids, most of them illegal).
* **Episode** (``mode``): ``"deal"`` (default) is one deal from ``position`` (default:
  deal 2, everyone at the start score, so folding is allowed, R21.1); it pays minus the
  seat's score change (R29–R32) when the points are posted.  ``"game"`` is a whole game
  from :func:`new_game`; it pays :meth:`GameState.returns` for the seat (+1 won, −1
  lost, 0 else) at the end, and is truncated with reward 0 after ``max_deals`` deals.
* **Opponents** (default :class:`~bohmisch_watten.bots.RandomBot`): bots of
  :mod:`bohmisch_watten.bots` or names for :func:`~bohmisch_watten.bots.make_bot`
  (``"heuristic"``), one per other seat in seat order, or one for all; they see their
  own views only.  Shuffles and bots
  draw from one :class:`random.Random` seeded by ``reset(seed=...)``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

import gymnasium
import numpy as np
from gymnasium import spaces

from ..action_ids import NUM_ACTION_IDS, id_to_action
from ..bots import Bot, RandomBot, make_bot
from ..encoding import action_mask, observation, observation_size
from ..rules import Rules
from ..state import GameState, new_game
from ._episodes import action_index, deal_over, deal_rewards
from ._positions import deal_start

__all__ = ["ENV_ID", "WattenEnv"]

ENV_ID: Final = "BohmischWatten-v0"
"""The id under which :class:`WattenEnv` is registered."""

_DEFAULT_RULES: Final = Rules()


class WattenEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One learning seat against bots; see the module docstring."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        players: int = 4,
        *,
        rules: Rules = _DEFAULT_RULES,
        seat: int = 0,
        mode: str = "deal",
        position: str = "",
        opponents: Bot | str | Sequence[Bot | str] | None = None,
        max_deals: int = 100,
        render_mode: str | None = None,
    ) -> None:
        if isinstance(players, bool) or players not in (2, 3, 4):
            raise ValueError(f"players must be 2, 3 or 4, got {players!r}")
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a Rules, got {type(rules).__name__}")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(f"seat must be a seat from 0 to {players - 1}, got {seat!r}")
        if mode not in ("deal", "game"):
            raise ValueError(f"mode must be 'deal' or 'game', got {mode!r}")
        if isinstance(max_deals, bool) or not isinstance(max_deals, int) or max_deals < 1:
            raise ValueError(f"max_deals must be a positive int, got {max_deals!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.seat = seat
        self.mode = mode
        self.max_deals = max_deals
        self.render_mode = render_mode
        if mode == "deal":
            self._start = deal_start(players, rules, position)
        else:
            self._start = new_game(players, rules=rules, dealer=0)
        self._opponents = _seat_bots(players, seat, opponents)
        self.observation_space = spaces.Box(0.0, 1.0, (observation_size(players),), np.float32)
        self.action_space = spaces.Discrete(NUM_ACTION_IDS)
        self._rng = random.Random()
        self.game_state: GameState = self._start
        self._done = False

    # ------------------------------------------------------------------ helpers

    def _observe(self) -> tuple[np.ndarray, dict[str, Any]]:
        view = self.game_state.view(self.seat)
        obs = np.asarray(observation(view), dtype=np.float32)
        return obs, {"action_mask": np.asarray(action_mask(view), dtype=np.int8)}

    def _ended(self, state: GameState) -> bool:
        if self.mode == "deal":
            return state.is_terminal or state.deal_number != self._start.deal_number
        return state.is_terminal

    def _advance(self) -> float:
        """Shuffles and bot moves until the seat is to act or the episode ends."""
        reward = 0.0
        state = self.game_state
        while not self._ended(state) and state.current_player != self.seat:
            if state.deal_number - self._start.deal_number >= self.max_deals:
                break
            if state.is_chance_node:
                after = state.apply(state.sample_chance(self._rng))
            else:
                seat = state.current_player
                assert seat is not None
                action = self._opponents[seat].choose(state.view(seat), self._rng)
                after = state.apply(action, seat=seat)
            reward += self._pay(state, after)
            state = after
        self.game_state = state
        return reward

    def _pay(self, before: GameState, after: GameState) -> float:
        if self.mode == "deal":
            return deal_rewards(before, after)[self.seat] if deal_over(before, after) else 0.0
        return after.returns()[self.seat] if after.is_terminal else 0.0

    # ---------------------------------------------------------------- the API

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start a new episode; ``seed`` fixes every shuffle and bot choice of it."""
        super().reset(seed=seed)
        self._rng = random.Random(int(self.np_random.integers(2**62)))
        self.game_state = self._start
        self._done = False
        self._advance()
        return self._observe()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Play the action id for the learning seat, then let the bots play.

        An illegal id ends the episode with reward −1 and ``info["illegal"] = True``.

        Raises:
            TypeError: naming ``action`` if it is not an integer.
            RuntimeError: if the episode is over (call :meth:`reset`).
        """
        if self._done:
            raise RuntimeError("the episode is over: call reset()")
        state = self.game_state
        legal = action_mask(state.view(self.seat))
        index = action_index(action)
        if not 0 <= index < NUM_ACTION_IDS or not legal[index]:
            self._done = True
            obs, info = self._observe()
            info["illegal"] = True
            return obs, -1.0, True, False, info
        after = state.apply(id_to_action(state, index), seat=self.seat)
        reward = self._pay(state, after)
        self.game_state = after
        reward += self._advance()
        terminated = self._ended(self.game_state)
        truncated = not terminated and (
            self.game_state.deal_number - self._start.deal_number >= self.max_deals
        )
        self._done = terminated or truncated
        obs, info = self._observe()
        return obs, reward, terminated, truncated, info

    def render(self) -> str | None:
        """``str(view)`` of the learning seat: its table (``render_mode="ansi"``), else None."""
        if self.render_mode != "ansi":
            return None
        return str(self.game_state.view(self.seat))


def _seat_bots(
    players: int, seat: int, opponents: Bot | str | Sequence[Bot | str] | None
) -> dict[int, Bot]:
    """The bot of every other seat: one for all, or one each in seat order."""
    others = [s for s in range(players) if s != seat]
    if opponents is None:
        opponents = RandomBot()
    if isinstance(opponents, Sequence) and not isinstance(opponents, str):
        if len(opponents) != len(others):
            raise ValueError(f"opponents must hold {len(others)} bots, got {len(opponents)}")
        given = list(opponents)
    else:
        given = [opponents] * len(others)
    bots = [make_bot(bot) if isinstance(bot, str) else bot for bot in given]
    for bot in bots:
        if not isinstance(bot, Bot):
            raise TypeError(f"opponents must be bots (choose(view, rng)), got {bot!r:.40}")
    return dict(zip(others, bots, strict=True))


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point=f"{__name__}:WattenEnv")
