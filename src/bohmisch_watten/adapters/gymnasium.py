"""Böhmisch Watten as a single-agent Gymnasium environment (extra ``[gymnasium]``).

One learning seat plays against bots, or one policy plays every seat (self-play);
importing this module registers it as ``BohmischWatten-v0``:

>>> import gymnasium
>>> import bohmisch_watten.adapters.gymnasium
>>> env = gymnasium.make("BohmischWatten-v0", players=3)
>>> observation, info = env.reset(seed=1)
>>> observation.shape, info["action_mask"].shape
((415,), (99,))

* **Observation**: :func:`bohmisch_watten.encoding.observation` of the learning seat's
  view, ``float32`` in ``[0, 1]``; ``info["action_mask"]`` is the ``int8`` mask over the
  99 action ids (:mod:`bohmisch_watten.encoding`).  With ``rules="pack=36"`` (two to
  seven ``players``, R1) both are the 36-card pack's own: 103 ids, ``192 + 89 n``
  numbers.
* **Action**: an id in ``Discrete(99)`` (``Discrete(103)`` with 36 cards).  An id
  that is not legal ends the episode with reward −1 and ``info["illegal"] = True``; it
  never raises (``check_env`` steps with random ids, most of them illegal).
* **Episode** (``mode``): ``"deal"`` (default) is one deal from ``position`` (default:
  deal 2, everyone at the start score, so folding is allowed, R21.1); it pays minus the
  seat's score change (R29–R32) when the points are posted.  ``"game"`` is a whole game
  from :func:`new_game`; it pays :meth:`GameState.returns` for the seat (+1 won, −1
  lost, 0 else) at the end, and is truncated with reward 0 after ``max_deals`` deals.
* **Opponents** (default :class:`~bohmisch_watten.bots.RandomBot`): bots of
  :mod:`bohmisch_watten.bots` or names for :func:`~bohmisch_watten.bots.make_bot`
  (``"heuristic"``, ``"search:rollouts=60"``, or ``"random,heuristic,random"``), one
  per other seat in seat order, or one for all; they see their own views only.
  Shuffles and bots draw from one :class:`random.Random` seeded by ``reset(seed=...)``.
* **Self-play** (``opponents="self"``): every seat is the learner and each step is the
  decision of the seat to act; the observation and mask are that seat's own (its view's
  encoding, nothing more), ``info["seat"]`` says which seat it is and ``info["rewards"]``
  holds every seat's reward of the step (a deal's points are posted on one seat's step
  but pay all of them).  The step's reward is the one of the seat that chose the
  action; ``seat`` is not used.  Once the episode is over, the observation is the last
  acting seat's.
* **Configuration as text**: ``rules`` is a :class:`Rules`, the rules notation
  (``"must_head=false,schleck=none"``) or a dict of fields; ``players``, ``seat`` and
  ``max_deals`` may be digit strings, as a YAML or Hydra config passes them.  A bad
  value raises ``TypeError``/``ValueError`` naming the parameter.
* **Speed**: observations and masks come from :mod:`bohmisch_watten.adapters.fast`
  (equal to the view encoding, proven by a property test).  ``gymnasium.make_vec(ENV_ID,
  num_envs=N, vectorization_mode="vector_entry_point")`` steps N games in one call:
  :mod:`bohmisch_watten.adapters.vector`.
"""

from __future__ import annotations

import random
from typing import Any, Final

from ..bots import Bot
from ..encoding import num_action_ids, observation_size
from ..rules import Rules
from ..state import GameState
from ._episodes import action_index
from ._extras import needs_extra
from ._seat_game import Paid, SeatGame
from .fast import Memo, mask_array, mask_bits, observation_row

with needs_extra(__name__, "gymnasium"):
    import gymnasium
    import numpy as np
    from gymnasium import spaces

__all__ = ["ENV_ID", "WattenEnv"]

ENV_ID: Final = "BohmischWatten-v0"
"""The id under which :class:`WattenEnv` is registered."""

_DEFAULT_RULES: Final = Rules()


class WattenEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One learning seat against bots; see the module docstring."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        players: int | str = 4,
        *,
        rules: Rules | str | dict[str, Any] = _DEFAULT_RULES,
        seat: int | str = 0,
        mode: str = "deal",
        position: str = "",
        opponents: object = None,
        max_deals: int | str = 100,
        render_mode: str | None = None,
    ) -> None:
        self._game = SeatGame.build(players, rules, seat, mode, position, opponents, max_deals)
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.seat: int | None = self._game.seat
        """The learning seat; None in self-play (every seat learns)."""
        self.mode = mode
        self.max_deals = self._game.max_deals
        self.render_mode = render_mode
        n = self._game.start.num_players
        pack = self._game.start.rules.pack
        self.observation_space = spaces.Box(0.0, 1.0, (observation_size(n, pack),), np.float32)
        self._num_ids = num_action_ids(pack)
        self.action_space = spaces.Discrete(self._num_ids)
        self._done = False
        self._mask = 0
        self._memo = Memo()

    @property
    def opponents(self) -> dict[int, Bot]:
        """The bot of every other seat, by seat."""
        return self._game.opponents

    @property
    def seat_to_act(self) -> int:
        """The seat whose observation the last reset or step returned (the learning
        seat; in self-play the seat to act, or once the episode is over the last one)."""
        return self._game.to_act

    @property
    def game_state(self) -> GameState:
        """The full state of the game (it knows every card: do not show it to the agent)."""
        return self._game.state

    # ------------------------------------------------------------------ helpers

    def _observe(self) -> tuple[np.ndarray, dict[str, Any]]:
        state, seat = self._game.state, self._game.to_act
        # The mask's integer is kept: the next step checks its action against it.
        self._mask = mask_bits(state, seat)
        memo = self._memo
        info: dict[str, Any] = {"action_mask": mask_array(self._mask, memo, self._num_ids)}
        if self.seat is None:
            info["seat"] = seat
        return observation_row(state, seat, memo), info

    def _paid(self, paid: Paid, info: dict[str, Any], actor: int) -> float:
        """The step's reward (the actor's), every seat's in ``info`` in self-play."""
        if self.seat is None:
            n = self._game.start.num_players
            info["rewards"] = np.array(paid if paid is not None else (0.0,) * n, np.float64)
        return 0.0 if paid is None else paid[actor]

    # ---------------------------------------------------------------- the API

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start a new episode; ``seed`` fixes every shuffle and bot choice from here on.

        The shuffles and bots draw from one :class:`random.Random`, seeded from
        :attr:`np_random` when a ``seed`` is given (or at the first reset) and drawn on
        by the episodes that follow; seeding a new generator for every episode cost a
        tenth of a short episode's time.
        """
        super().reset(seed=seed)
        if seed is not None or not self._game.seeded:
            self._game.reset(random.Random(int(self.np_random.integers(2**62))))
        else:
            self._game.reset()
        self._done = False
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
        index = action if type(action) is int else action_index(action)
        actor = self._game.to_act
        if not (0 <= index < self._num_ids and self._mask >> index & 1):
            self._done = True
            obs, info = self._observe()
            info["illegal"] = True
            return obs, self._paid(self._game.fined(), info, actor), True, False, info
        paid, terminated, truncated = self._game.play(index)
        self._done = terminated or truncated
        obs, info = self._observe()
        return obs, self._paid(paid, info, actor), terminated, truncated, info

    def render(self) -> str | None:
        """``str(view)`` of the learning seat (in self-play, of :attr:`seat_to_act`): its
        table (``render_mode="ansi"``), else None."""
        if self.render_mode != "ansi":
            return None
        return str(self._game.state.view(self._game.to_act))


if ENV_ID not in gymnasium.registry:
    gymnasium.register(
        id=ENV_ID,
        entry_point=f"{__name__}:WattenEnv",
        vector_entry_point="bohmisch_watten.adapters.vector:WattenVectorEnv",
    )
