"""SearchBot: perfect-information Monte-Carlo search over the exact determinization.

For each decision the bot draws full states consistent with its view
(:meth:`PlayerView.sample_state <bohmisch_watten.views.PlayerView.sample_state>`, exact
and uniform), tries every candidate action in each of them, plays the rest of the deal
out with the fast heuristic policy of :mod:`bohmisch_watten.bots.policy` and keeps the
action with the best mean result.  All candidates share the same samples (common
random numbers), so their differences are measured with less noise than their values.

The budget is a number of rollouts, so a decision does the same work — and the same
result — on a loaded machine as on an idle one; ``time_ms`` is the opt-in alternative.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final, Literal

import attrs

from ..actions import Action, Fold
from ..phases import Phase
from ._budget import positive_count, time_budget
from .base import ranked_hint
from .policy import decide, rank_exchanges

if TYPE_CHECKING:
    from ..state import GameState
    from ..views import PlayerView

__all__ = ["SearchBot"]

GAME_BONUS: Final = 10.0
"""Value of winning the game (minus for losing), in points of score (R31, R34)."""


def _policy(instance: object, attribute: attrs.Attribute[str], value: object) -> None:
    if value not in ("heuristic", "random"):
        raise ValueError(f"SearchBot.rollout must be 'heuristic' or 'random', got {value!r:.20}")


@attrs.frozen
class SearchBot:
    """Determinized search: sample the hidden cards, roll out, keep the best mean.

    Attributes:
        rollouts: the budget per decision, in rollouts (one candidate action played out
            in one sampled state); the samples are ``ceil(rollouts / candidates)``.  The
            default takes 30–55 ms per decision on the project's 2-core machines.
        time_ms: opt-in wall-clock budget per decision instead of ``rollouts`` (at least
            one sample is always drawn); results then depend on the machine's load.
        max_candidates: in the exchange phase only the best exchanges by the heuristic's
            hand value are searched, this many in all, plus the fold if it is legal.
        rollout: the policy of the rollouts, ``"heuristic"`` (default) or ``"random"``.
    """

    rollouts: int = attrs.field(default=120, validator=positive_count)
    time_ms: float | None = attrs.field(default=None, validator=time_budget)
    max_candidates: int = attrs.field(default=6, validator=positive_count)
    rollout: Literal["heuristic", "random"] = attrs.field(default="heuristic", validator=_policy)

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """The candidate action with the best mean rollout result."""
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return self.search(view, rng)[0][0]

    def hint(
        self, view: PlayerView, rng: random.Random | None = None
    ) -> list[tuple[Action, float]]:
        """The ranked actions with their estimated values, for a UI's "hint" button.

        The value of an action is the mean points the seat gains toward zero in this
        deal after it (minus the tricks it takes, R29–R30), plus or minus
        :data:`GAME_BONUS` when the deal ends the game with the seat among the winners
        or losers (R34).  Empty when the seat has no decision to make.

        Args:
            view: the seat's view.
            rng: the generator of the samples; by default a fixed seed, so the same view
                always gets the same hint.
        """
        return ranked_hint(self.search, view, rng)

    def search(self, view: PlayerView, rng: random.Random) -> list[tuple[Action, float]]:
        """Every candidate action and its mean value, best first (ties: legal order)."""
        candidates = self.candidates(view)
        ranked = list(zip(candidates, self._mean_values(view, candidates, rng), strict=True))
        ranked.sort(key=lambda item: -item[1])
        return ranked

    def evaluate(
        self, view: PlayerView, actions: Sequence[Action], rng: random.Random
    ) -> list[float]:
        """The values of the given legal ``actions``, in their order, as :meth:`hint` rates.

        :meth:`hint` searches only the best exchanges (``max_candidates``); a review
        (:mod:`bohmisch_watten.review`) also needs the value of an action it skipped.
        The actions share the samples, as the candidates of one search do, and the
        budget is spread over them the same way.

        Raises:
            ValueError: if ``actions`` is empty or holds an action that is not legal.
        """
        chosen = list(actions)
        if not chosen:
            raise ValueError("SearchBot.evaluate: actions must not be empty")
        for action in chosen:
            if not view.is_legal(action):
                raise ValueError(f"SearchBot.evaluate: {action} is not a legal action here")
        return self._mean_values(view, chosen, rng)

    def _mean_values(
        self, view: PlayerView, candidates: Sequence[Action], rng: random.Random
    ) -> list[float]:
        """The mean rollout value of each candidate over the same sampled states."""
        seat = view.player
        before = view.scores[seat]
        totals = [0.0] * len(candidates)
        heuristic = self.rollout == "heuristic"
        budget = -(-self.rollouts // len(candidates))
        deadline = None if self.time_ms is None else time.perf_counter() + self.time_ms / 1000
        samples = 0
        while True:
            world = view.sample_state(rng)
            seed = rng.getrandbits(64)
            for i, action in enumerate(candidates):
                end = _rollout(world.apply(action), random.Random(seed), heuristic)
                totals[i] += _value(end, seat, before)
            samples += 1
            if deadline is None:
                if samples >= budget:
                    break
            elif time.perf_counter() >= deadline:
                break
        return [total / samples for total in totals]

    def candidates(self, view: PlayerView) -> list[Action]:
        """The actions searched: all legal ones, or the best exchanges and the fold."""
        legal = view.legal_actions()
        if view.phase is not Phase.EXCHANGE or len(legal) <= self.max_candidates:
            return list(legal)
        folds: list[Action] = [a for a in legal if isinstance(a, Fold)]
        assert view.trump_card is not None
        ranked = rank_exchanges(view.hand, legal, view.trump_card)
        keep = max(1, self.max_candidates - len(folds))
        return [action for action, _ in ranked[:keep]] + folds


def _rollout(state: GameState, rng: random.Random, heuristic: bool) -> GameState:
    """Play to the end of the current deal with the heuristic policy (or at random)."""
    deal = state.deal_number
    while not state.is_terminal and state.deal_number == deal:
        legal = state.legal_actions()
        action: Action
        if len(legal) == 1:
            action = legal[0]
        elif heuristic:
            phase = state.phase
            # The hand matters only in the exchange (building all hands is costly).
            seat = state.current_player
            hand = state.hands[seat] if phase is Phase.EXCHANGE and seat is not None else ()
            action = decide(phase, legal, hand, state.trick, state.trump_card)
        else:
            action = rng.choice(legal)
        state = state.apply(action)
    return state


def _value(end: GameState, seat: int, before: int) -> float:
    value = float(before - end.scores[seat])
    if end.is_terminal:
        if seat in end.winners:
            value += GAME_BONUS
        elif seat in end.losers:
            value -= GAME_BONUS
    return value
