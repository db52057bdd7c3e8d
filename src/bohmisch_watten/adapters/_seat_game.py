"""Internal: the episode of Gymnasium's envs, one learning seat against bots or self-play.

:class:`~bohmisch_watten.adapters.gymnasium.WattenEnv` runs one of these and the vector
environment of :mod:`~bohmisch_watten.adapters.vector` runs N; both then encode the
acting seat's observation with :mod:`~bohmisch_watten.adapters.fast`, so one game and a
batch of games cannot disagree on what an episode is or pays.  In self-play
(``opponents="self"``) every seat is the learner: only shuffles happen in between.
"""

from __future__ import annotations

import random
from typing import Final, TypeAlias

from ..bots import Bot, HeuristicBot, RandomBot
from ..state import GameState, new_game
from ._config import count_argument, opponent_bots, players_argument, rules_argument
from ._episodes import deal_over, deal_rewards
from ._positions import deal_start
from .fast import action_for, bot_action

__all__ = ["SELF_PLAY", "Paid", "SeatGame"]

SELF_PLAY: Final = "self"
"""The ``opponents`` value that makes every seat the learner."""

_RANDOM, _HEURISTIC, _LEARNER = 0, 1, 2  # the seat kinds of src/native/batch.h

Paid: TypeAlias = tuple[float, ...] | None
"""Every seat's reward of a step, None when all are 0 (most steps)."""


class SeatGame:
    """The episode of one learning seat: bots move and shuffles happen in between.

    Args:
        start: the state each episode starts from.
        seat: the learning seat, or None: every seat learns (self-play), and
            :attr:`to_act` says whose decision the episode waits for.
        mode: ``"deal"`` (one deal, pays minus the seat's score change, R29–R32) or
            ``"game"`` (pays ``returns()[seat]`` at the end, R34).
        max_deals: the deal cap of a whole game (truncation).
        opponents: the bot of every other seat (none in self-play).
    """

    def __init__(
        self,
        start: GameState,
        seat: int | None,
        mode: str,
        max_deals: int,
        opponents: dict[int, Bot],
    ) -> None:
        self.start = start
        self.seat = seat
        self.deal_mode = mode == "deal"
        self.max_deals = max_deals
        self.opponents = opponents
        self.state = start
        self.rng = random.Random()
        self.seeded = False
        """Whether a :meth:`reset` has handed this game its generator yet."""
        self.to_act = 0 if seat is None else seat
        """The seat whose decision the episode waits for (the learning seat, or in
        self-play the seat to act; once the episode is over, the one that acted last)."""

    def reset(self, rng: random.Random | None = None) -> None:
        """A new episode from :attr:`start`, drawing every shuffle and bot move from
        ``rng``, or on from the generator of the episode before if it is None."""
        if rng is not None:
            self.rng = rng
            self.seeded = True
        self.state = self.start
        self.advance()

    def ended(self, state: GameState) -> bool:
        """Whether the episode is over at ``state`` (the deal's points posted, or game over)."""
        if self.deal_mode:
            return state.is_terminal or state.deal_number != self.start.deal_number
        return state.is_terminal

    def capped(self, state: GameState) -> bool:
        """Whether ``state`` is past the deal cap (a whole game is truncated there)."""
        return state.deal_number - self.start.deal_number >= self.max_deals

    def pay(self, before: GameState, after: GameState) -> Paid:
        """Every seat's reward for the step from ``before`` to ``after``; None for all 0."""
        if self.deal_mode:
            return deal_rewards(before, after) if deal_over(before, after) else None
        return after.returns() if after.is_terminal else None

    def fined(self) -> tuple[float, ...]:
        """Every seat's reward when :attr:`to_act` gave an illegal id: −1 for it alone."""
        actor = self.to_act
        return tuple([-1.0 if s == actor else 0.0 for s in range(self.start.num_players)])

    def advance(self) -> Paid:
        """Shuffles and bot moves until a learner is to act or the episode ends; what
        they paid every seat (None: nothing)."""
        state = self.state
        if self.ended(state) or self.capped(state):
            return None
        return self._bots_move(state)

    def _bots_move(self, state: GameState) -> Paid:
        """:meth:`advance` from ``state``, known not to end the episode."""
        paid = None
        seat, rng, bots = self.seat, self.rng, self.opponents
        while True:
            mover = state.current_player
            if mover is None:  # a chance node: the end of a game was caught below (R34)
                after = state.apply(state.sample_chance(rng))
            elif mover == seat:
                break
            elif seat is None:  # self-play: every seat is the learner
                self.to_act = mover
                break
            else:
                after = state.apply(bot_action(bots[mover], state, mover, rng))
            # The game fields change once a deal, when its points are posted (R28): only
            # then can the episode pay, end or reach the cap.
            if after.game_fields is not state.game_fields:
                # Only a step that ends the episode pays (a deal's posting in deal mode,
                # the game's end in game mode), so nothing paid before is overwritten.
                paid = self.pay(state, after)
                state = after
                if self.ended(state) or self.capped(state):
                    break
            else:
                state = after
        self.state = state
        return paid

    def play(self, index: int) -> tuple[Paid, bool, bool]:
        """Play the legal id ``index`` for :attr:`to_act`, then the bots (or shuffles):
        ``(every seat's reward or None for all 0, terminated, truncated)``.

        Paying, ending and the cap all follow the game fields, which change only when
        a deal's points are posted (R28): a step that leaves them as they were pays 0
        and ends nothing, so the checks run only on a step that posted a deal.
        """
        state = self.state
        game = state.game_fields
        after = state.apply(action_for(state, index))
        if after.game_fields is game:
            self.state = after
            paid = self._bots_move(after)
        else:
            paid = self.pay(state, after)
            self.state = after
            if paid is None:  # a step that pays ends the episode: nothing more moves
                paid = self.advance()
        if self.state.game_fields is game:
            return paid, False, False
        terminated = self.ended(self.state)
        return paid, terminated, not terminated and self.capped(self.state)

    def native_kinds(self) -> bytes | None:
        """The compiled core's kind of every seat (2 learner, 0 RandomBot, 1
        HeuristicBot), or None if a bot is not one the compiled core plays.

        Only exactly :class:`RandomBot` and :class:`HeuristicBot` (a subclass may choose
        otherwise), as :func:`~bohmisch_watten.adapters.fast.bot_action` decides.
        """
        kinds = []
        for seat in range(self.start.num_players):
            bot = self.opponents.get(seat)
            if self.seat is None or seat == self.seat:
                kinds.append(_LEARNER)
            elif type(bot) is RandomBot:
                kinds.append(_RANDOM)
            elif type(bot) is HeuristicBot:
                kinds.append(_HEURISTIC)
            else:
                return None
        return bytes(kinds)

    @classmethod
    def build(
        cls,
        players: object,
        rules: object,
        seat: object,
        mode: object,
        position: object,
        opponents: object,
        max_deals: object,
    ) -> SeatGame:
        """The episode of ``WattenEnv`` (and of each game of the vector env), checked.

        Raises:
            TypeError: naming the parameter, for a value of the wrong type.
            ValueError: naming the parameter, for a bad value.
        """
        rules = rules_argument(rules)
        n = players_argument(players, rules)
        seat = count_argument(seat, "seat", 0, n - 1)
        if mode not in ("deal", "game"):
            raise ValueError(f"mode must be 'deal' or 'game', got {mode!r}")
        if not isinstance(position, str):
            raise TypeError(f"position must be a position text, got {type(position).__name__}")
        max_deals = count_argument(max_deals, "max_deals", 1)
        start = deal_start(n, rules, position) if mode == "deal" else new_game(n, rules=rules)
        if isinstance(opponents, str) and opponents.strip() == SELF_PLAY:
            return cls(start, None, mode, max_deals, {})
        return cls(start, seat, mode, max_deals, opponent_bots(n, seat, opponents))
