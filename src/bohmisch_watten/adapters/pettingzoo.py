"""Böhmisch Watten as a PettingZoo AEC environment (extra ``[pettingzoo]``).

>>> from bohmisch_watten.adapters.pettingzoo import env
>>> table = env(players=3)
>>> table.reset(seed=7)
>>> table.agent_selection in table.agents
True

* Agents ``player_0`` … ``player_{n-1}`` are the seats; the one to act is
  ``agent_selection``.  The shuffle is drawn inside the environment from the seed of
  ``reset`` (R11).
* Observations are ``{"observation": float32 vector, "action_mask": int8 mask}``: the
  :func:`bohmisch_watten.encoding.observation` of the seat's view and the mask over the
  99 action ids of :mod:`bohmisch_watten.encoding` (all 0 when it is not to act; the
  36-card pack has its own layout and 103 ids: ``env(players=7, rules="pack=36")``),
  computed by :mod:`bohmisch_watten.adapters.fast` (equal numbers, proven by a
  property test, at several times the speed).
* ``rules`` is a :class:`Rules`, the rules notation (``env(rules="schleck=none")``) or a
  dict of fields; ``players`` and ``max_deals`` may be digit strings, as config files
  pass them.  A bad value raises ``TypeError``/``ValueError`` naming the parameter.
* Rewards: when a deal's points are posted every agent gets minus its score change
  (R29–R32: taking tricks is good); when the game ends (R31–R34) each agent also gets
  :meth:`GameState.returns` (+1 winner, −1 loser, 0 else), which ``infos[agent]
  ["returns"]`` repeats.  After ``max_deals`` deals (default 100) the episode is
  truncated for everybody, because random play can drift for hundreds of deals.
* ``env()`` wraps :class:`raw_env` in PettingZoo's usual wrappers: an illegal action id
  ends the game with reward −1 for the agent that chose it; ``raw_env`` raises
  :class:`IllegalActionError` instead.
* ``render_mode="ansi"``: :meth:`raw_env.render` returns ``str(view)`` of the acting
  seat: its table, every card it may not know shown as ``??``.
"""

from __future__ import annotations

import random
from typing import Any, Final

from ..encoding import num_action_ids, observation_size
from ..phases import Phase
from ..rules import Rules
from ..state import GameState, new_game
from ._config import count_argument, players_argument, rules_argument
from ._episodes import action_index, deal_over, deal_rewards
from ._extras import needs_extra
from .fast import Memo, action_for, mask_row, observation_row

with needs_extra(__name__, "pettingzoo"):
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers

__all__ = ["env", "raw_env"]

_DEFAULT_RULES: Final = Rules()
_DEAL: Final = Phase.DEAL


def env(
    players: int | str = 4,
    rules: Rules | str | dict[str, Any] = _DEFAULT_RULES,
    render_mode: str | None = None,
    max_deals: int | str = 100,
) -> Any:
    """The wrapped environment: illegal ids end the game, order of calls is checked."""
    inner: Any = raw_env(players=players, rules=rules, render_mode=render_mode, max_deals=max_deals)
    inner = wrappers.TerminateIllegalWrapper(inner, illegal_reward=-1)
    inner = wrappers.AssertOutOfBoundsWrapper(inner)
    return wrappers.OrderEnforcingWrapper(inner)


class raw_env(AECEnv):  # type: ignore[misc]
    """The AEC environment without wrappers; see the module docstring."""

    metadata: Final = {
        "render_modes": ["ansi"],
        "name": "bohmisch_watten_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int | str = 4,
        rules: Rules | str | dict[str, Any] = _DEFAULT_RULES,
        render_mode: str | None = None,
        max_deals: int | str = 100,
    ) -> None:
        super().__init__()
        rules = rules_argument(rules)
        players = players_argument(players, rules)
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        max_deals = count_argument(max_deals, "max_deals", 1)
        self.rules = rules
        self.render_mode = render_mode
        self.max_deals = max_deals
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        size = observation_size(players, rules.pack)
        ids = num_action_ids(rules.pack)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (ids,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(ids) for agent in self.possible_agents}
        self._rng = random.Random()
        self._memo = Memo()
        self.game_state: GameState = new_game(players, rules=rules)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same Dict space for every agent."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(99)`` (``Discrete(103)`` with 36 cards): the action ids."""
        return self.action_spaces[agent]

    def _seat(self, agent: str) -> int:
        return self._seats[agent]

    def observe(self, agent: str) -> dict[str, Any]:
        """The agent's observation vector and action mask, from its view only.

        Computed when asked (``last()`` asks for the agent to act only), as new arrays
        the caller may keep.
        """
        seat = self._seats[agent]
        state = self.game_state
        memo = self._memo
        return {
            "observation": observation_row(state, seat, memo),
            "action_mask": mask_row(state, seat, memo),
        }

    def _deal_until_decision(self) -> None:
        state = self.game_state
        while state.phase is _DEAL:  # a chance node (R11)
            state = state.apply(state.sample_chance(self._rng))
        self.game_state = state

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game, dealer seat 0; ``seed`` fixes every shuffle of it."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._paid = False
        self.game_state = new_game(len(self.possible_agents), rules=self.rules)
        self._deal_until_decision()
        self._select()

    def _select(self) -> None:
        seat = self.game_state.current_player
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]

    def step(self, action: int | None) -> None:
        """Apply the action id of ``agent_selection``; None for a finished agent.

        Raises:
            IllegalActionError: for an id that is not legal now (``env()`` turns that
                into the end of the game with reward −1).
            TypeError: naming ``action`` if it is not an integer (None included).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        index = action if type(action) is int else action_index(action)
        self._cumulative_rewards[agent] = 0.0
        before = self.game_state
        after = before.apply(action_for(before, index))
        self.game_state = after
        seat = after.current_player
        if after.game_fields is before.game_fields and seat is not None:
            # Within a deal a seat is to act and nothing is paid or ends: the game fields
            # change only when a deal's points are posted (R28).  The zero rewards are
            # rebuilt only if the last step paid something.
            if self._paid:
                self.rewards = dict.fromkeys(self.possible_agents, 0.0)
                self._paid = False
            self.agent_selection = self.possible_agents[seat]
            return
        self._deal_until_decision()
        n = len(self.possible_agents)
        rewards = deal_rewards(before, after) if deal_over(before, after) else (0.0,) * n
        if after.is_terminal:
            returns = after.returns()
            rewards = tuple(r + x for r, x in zip(rewards, returns, strict=True))
            for seat, name in enumerate(self.possible_agents):
                self.terminations[name] = True
                self.infos[name] = {"returns": returns[seat]}
        elif after.deal_number > self.max_deals:
            for name in self.possible_agents:
                self.truncations[name] = True
        self.rewards = {name: rewards[seat] for seat, name in enumerate(self.possible_agents)}
        self._paid = True
        self._accumulate_rewards()
        self._select()

    def render(self) -> str | None:
        """``str(view)`` of the acting seat: its table (``render_mode="ansi"``), else None."""
        if self.render_mode != "ansi":
            return None
        return str(self.game_state.view(self._seat(self.agent_selection)))

    def close(self) -> None:
        """Nothing to release."""
