"""Böhmisch Watten as an OpenSpiel Python game: ``python_bohmisch_watten``.

Importing this module registers the game (extra ``[openspiel]``), so that OpenSpiel's
algorithms and tests run on it::

    import pyspiel
    import bohmisch_watten.adapters.openspiel  # registers the game

    game = pyspiel.load_game("python_bohmisch_watten(players=3,mode=deal)")
    seven = pyspiel.load_game("python_bohmisch_watten(players=7,pack=36)")

Parameters (OpenSpiel game strings cannot hold ``,`` or ``=`` inside a value, so the
rules are one flat parameter each, with the names and defaults of :class:`Rules`):

``players``
    2, 3 or 4 (default 4); 2 to 7 with ``pack=36`` (R1).
``mode``
    ``"game"`` (default): a whole game from :func:`new_game`, dealer seat 0; returns
    are :meth:`GameState.returns` (+1 winner, −1 loser, 0 else) at the end, rewards 0
    until then.  ``"deal"``: one deal from ``position``; rewards and returns are minus
    each seat's score change (R29–R32), paid when the deal's points are posted.
``max_deals``
    Whole-game mode only: the game stops after this many deals (default 30) with all
    returns 0, because OpenSpiel needs a bound on the game length and random play can
    drift for hundreds of deals.
``position``
    One-deal mode only: the position at the start of the deal (the text form of
    :class:`~bohmisch_watten.Position`); empty (default) means deal 2, everyone at the
    start score, so folding is allowed (in deal 1 nobody may fold, R21.1).
``pack``
    32 (default) or 36: the 36-card pack with the Sixes (R6), for two to seven players.
``schleck``, ``dealer_stock_limit``, ``must_head``, ``overshoot``, …
    One per :class:`Rules` field (also ``plus_fifty``, ``start_score``,
    ``hearts_double``, ``min_fold_score``), as in :class:`Rules`.

The shuffle is explicit chance: one chance node per card of the pack, top card first,
each uniform over the cards not yet placed (as OpenSpiel's Hearts deals), 32 per deal
(36 with ``pack=36``; a chance outcome is the card's :attr:`Card.index`); the last
completes the library's :class:`Shuffle`.  Player actions are the ids of
:mod:`bohmisch_watten.encoding`: the 32-card pack's 99, or the 36-card pack's own
table of 103.  Observations come from :meth:`GameState.view` only:
the tensor is :func:`bohmisch_watten.encoding.observation` (information-state and
observation tensors alike), the information-state string is the view's exact key
:meth:`PlayerView.information_set` (equal exactly for equal views), the observation
string the seat's table, ``str(view)``.  ``resample_from_infostate`` redeals the current deal
with the exact sampler :meth:`PlayerView.sample_state` and replays it after the finished
deals, so the returned state has a full OpenSpiel history.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Final

from ..actions import Shuffle
from ..cards import CARDS
from ..encoding import (
    action_to_id,
    id_to_action,
    layout,
    legal_action_mask,
    num_action_ids,
    observation,
    observation_size,
)
from ..state import GameState, new_game
from ._episodes import (
    MAX_DEAL_CHANGE,
    RULE_PARAMS,
    deal_over,
    deal_rewards,
    decisions_per_deal,
    rules_from_params,
)
from ._extras import needs_extra
from ._positions import deal_start

with needs_extra(__name__, "openspiel"):
    import numpy as np
    import pyspiel

__all__ = ["GAME_NAME", "WattenGame", "WattenObserver", "WattenState"]

GAME_NAME: Final = "python_bohmisch_watten"
"""The short name under which the game is registered."""

_DEFAULTS: Final[dict[str, Any]] = {
    "players": 4,
    "mode": "game",
    "max_deals": 30,
    "position": "",
    **RULE_PARAMS,
}

_GAME_TYPE: Final = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Böhmisch Watten",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.REWARDS,
    max_num_players=7,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


class WattenGame(pyspiel.Game):  # type: ignore[misc]
    """The game object: parameters, bounds and a factory of initial states."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        merged = {**_DEFAULTS, **(params or {})}
        self.rules = rules_from_params(merged)
        players = merged["players"]
        top = self.rules.max_players
        if players not in range(2, top + 1):
            raise ValueError(
                f"players must be 2 to {top} with the {self.rules.pack}-card pack (R1), "
                f"got {players!r}"
            )
        mode = merged["mode"]
        if mode not in ("game", "deal"):
            raise ValueError(f"mode must be 'game' or 'deal', got {mode!r}")
        max_deals = merged["max_deals"]
        if not isinstance(max_deals, int) or max_deals < 1:
            raise ValueError(f"max_deals must be a positive int, got {max_deals!r}")
        self.mode: str = mode
        self.max_deals: int = max_deals if mode == "game" else 1
        if mode == "deal":
            self.start = deal_start(players, self.rules, merged["position"])
        else:
            self.start = new_game(players, rules=self.rules, dealer=0)
        bound = 1.0 if mode == "game" else float(MAX_DEAL_CHANGE)
        pack = self.rules.pack
        info = pyspiel.GameInfo(
            num_distinct_actions=num_action_ids(pack),
            max_chance_outcomes=pack,
            num_players=players,
            min_utility=-bound,
            max_utility=bound,
            max_game_length=self.max_deals * (pack + decisions_per_deal(players)),
        )
        super().__init__(_GAME_TYPE, info, params or {})

    def new_initial_state(self) -> WattenState:
        """The state before the first card of the first shuffle."""
        return WattenState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> WattenObserver:
        """An observer; perfect recall selects the information-state string."""
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        perfect_recall = bool(iig_obs_type is None or iig_obs_type.perfect_recall)
        return WattenObserver(self.num_players(), perfect_recall, self.rules.pack)


class _Shared:
    """Holds immutable states; OpenSpiel clones Python states with ``copy.deepcopy``.

    A :class:`GameState` never changes, so a clone may share it; copying it would walk
    its linked history, one level of recursion per action of the game.
    """

    __slots__ = ("start", "state")

    def __init__(self, start: GameState, state: GameState) -> None:
        self.start = start
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self


class WattenState(pyspiel.State):  # type: ignore[misc]
    """One OpenSpiel state around an immutable :class:`GameState`."""

    def __init__(self, game: WattenGame) -> None:
        super().__init__(game)
        self._mode = game.mode
        self._max_deals = game.max_deals
        self._shared = _Shared(game.start, game.start)
        self._pack: list[int] = []
        self._pack_size = game.rules.pack
        self._moves = 0  # the length of OpenSpiel's history
        self._deal_start = 0  # ... when the first card of the current deal's pack came
        n = game.num_players()
        self._rewards = [0.0] * n
        self._returns = [0.0] * n

    # ----------------------------------------------------------------- reading

    @property
    def game_state(self) -> GameState:
        """The library's state (it knows every card: do not hand it to a player)."""
        return self._shared.state

    @property
    def _inner(self) -> GameState:
        return self._shared.state

    @property
    def _start(self) -> GameState:
        return self._shared.start

    def _capped(self) -> bool:
        return self._inner.deal_number - self._start.deal_number >= self._max_deals

    def is_terminal(self) -> bool:
        """Game over, or the deal cap (whole game) or the deal (one deal) reached."""
        return self._inner.is_terminal or self._capped()

    def current_player(self) -> int:
        """The seat to act, CHANCE while the pack is dealt, TERMINAL at the end."""
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if self._inner.is_chance_node:
            return int(pyspiel.PlayerId.CHANCE)
        seat = self._inner.current_player
        assert seat is not None
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        # OpenSpiel asks only for the player to act; other seats get [] before this.
        return [i for i, legal in enumerate(legal_action_mask(self._inner)) if legal]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards not yet placed in the pack, each equally likely (R11)."""
        placed = set(self._pack)
        rest = [i for i in range(self._pack_size) if i not in placed]
        return [(i, 1.0 / len(rest)) for i in rest]

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {CARDS[action]}"
        if self._inner.current_player == player:
            return str(id_to_action(self._inner, action))
        return f"action {action}"

    def rewards(self) -> list[float]:
        """The rewards of the last action (nonzero only when an episode pays)."""
        return list(self._rewards)

    def returns(self) -> list[float]:
        """The sum of all rewards so far."""
        return list(self._returns)

    def __str__(self) -> str:
        dealt = " ".join(str(CARDS[i]) for i in self._pack)
        return f"{self._inner!r} pack [{dealt}]" if dealt else repr(self._inner)

    # ---------------------------------------------------------------- acting

    def _apply_action(self, action: int) -> None:
        before = self._inner
        self._moves += 1
        if before.is_chance_node:
            if not self._pack:
                self._deal_start = self._moves - 1
            self._pack.append(int(action))
            if len(self._pack) < self._pack_size:
                self._rewards = [0.0] * len(self._rewards)
                return
            after = before.apply(Shuffle(tuple(CARDS[i] for i in self._pack)))
            self._pack = []
        else:
            after = before.apply(id_to_action(before, int(action)))
        self._shared = _Shared(self._start, after)
        n = len(self._rewards)
        if self._mode == "deal":
            rewards = deal_rewards(before, after) if deal_over(before, after) else (0.0,) * n
        elif after.is_terminal:
            rewards = after.returns()
        else:
            rewards = (0.0,) * n
        self._rewards = list(rewards)
        self._returns = [r + x for r, x in zip(self._returns, rewards, strict=True)]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> WattenState:
        """A state ``player_id`` cannot tell from this one, drawn by the exact sampler.

        The sampler is OpenSpiel's uniform sampler; one draw of it seeds a
        :class:`random.Random` for :meth:`PlayerView.sample_state`, which redeals the
        cards of the current deal the seat cannot see.  The new state replays this
        state's actions up to the start of the current deal (finished deals: a fresh
        shuffle makes their cards irrelevant to the rest of the game, R11), then the
        sample's actions of the current deal, so its history is complete.  Cards of a
        shuffle still being dealt are drawn afresh: nobody has seen them.
        """
        rng = random.Random(int(float(probability_sampler()) * 2**53))
        out: WattenState = self.get_game().new_initial_state()
        for action in self.history()[: self._deal_start]:
            out.apply_action(action)
        if self._inner.is_chance_node:
            for _ in self._pack:
                outcomes = out.chance_outcomes()
                out.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            return out
        sample = self._inner.view(player_id).sample_state(rng)
        actions = [action for _, action in sample.history]
        first = max(i for i, action in enumerate(actions) if isinstance(action, Shuffle))
        for action in actions[first:]:
            if isinstance(action, Shuffle):
                for card in action.pack:
                    out.apply_action(card.index)
            else:
                out.apply_action(action_to_id(out._inner, action))
        return out


class WattenObserver:
    """OpenSpiel's Python observer protocol: a tensor, its named pieces, strings.

    Everything comes from ``state.game_state.view(player)``, never from the full state.
    """

    def __init__(self, num_players: int, perfect_recall: bool, pack: int = 32) -> None:
        self._perfect_recall = perfect_recall
        self.tensor = np.zeros(observation_size(num_players, pack), np.float32)
        self.dict = {
            name: self.tensor[offset : offset + size]
            for name, offset, size in layout(num_players, pack)
        }

    def set_from(self, state: WattenState, player: int) -> None:
        """Fill :attr:`tensor` with the encoding of ``player``'s view."""
        self.tensor[:] = observation(state.game_state.view(player))

    def string_from(self, state: WattenState, player: int) -> str:
        """The information-state key (perfect recall) or a readable summary."""
        view = state.game_state.view(player)
        if self._perfect_recall:
            return repr(view.information_set())
        return str(view)


_register: Callable[..., None] = pyspiel.register_game
_register(_GAME_TYPE, WattenGame)
