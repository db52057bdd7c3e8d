"""ExpertBot: sampled worlds weighted by inference, each solved exactly.

One job in one file, although it is long: the expert's search and the values it gives a
world; inference, the solver and the race model are modules of their own.

The three things the strongest programs of this family of games (GIB for bridge, Kermit
for Skat, the Schafkopf bots) combine:

1. **Worlds from the posterior.**  The hidden cards are drawn exactly and uniformly
   from the view (:meth:`PlayerView.sample_state
   <bohmisch_watten.views.PlayerView.sample_state>`), then weighted by how likely they
   make what the opponents did in this deal — folds, how many cards each exchanged,
   which cards they played — under a noisy model of play, and resampled
   (:mod:`bohmisch_watten.bots.inference`).
2. **An exact solver per world.**  In the ``PLAY`` phase each world is solved to the
   end of the deal by :func:`bohmisch_watten.solver.solve_masks`: the points every
   legal card guarantees (perfect-information Monte-Carlo, PIMC), averaged over the
   worlds.  In a deal of three or four seats the solver's paranoid assumption (all
   the others against the bot) is tempered by a heuristic rollout of the same card
   (``rollout_weight``), and ties go to the heuristic's card.  In the exchange each
   candidate (the heuristic's best exchanges, and the fold) is applied in every world
   and the deal finished by the heuristic policy (``leaf="rollout"``) or solved from
   its first card (``leaf="solver"``).
3. **A value that counts the race.**  A result is worth the points it gains toward
   zero (R28–R32) plus :data:`GAME_BONUS` when it reaches the goal and ends the game
   (R31–R34), so that near the end the bot plays for the tricks that win, not for the
   most tricks.  ``race_near=True`` (the default) values instead by the race the deals
   in which another seat may reach the goal and the bot may not: the change the result
   makes to the bot's chance of winning the game, every seat's chance from a race model
   of the scores fitted on whole games (:mod:`bohmisch_watten.bots._race`), in points
   of the current position; there a fold, worth 0 points, leaves the others to share the
   tricks that end the game.

The budget is counted in worlds, so a decision does the same work, and gives the same
answer for the same generator, on a loaded machine as on an idle one; ``time_ms`` is the
opt-in wall-clock alternative.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, Literal, NamedTuple

import attrs

from .. import native_core
from ..actions import Action, Fold, PlayCard
from ..cards import SUIT_OF, bits
from ..phases import Phase
from ..scoring import deal_points, post_scores, reached_goal
from ..seats import left_of
from ..solver import NodeLimitReached, point_table, solve_masks
from ..tricks import Plays, best_play, legal_play_mask
from ._budget import optional_count, positive_count, time_budget
from ._race import RaceValue
from .base import ranked_hint
from .inference import DEFAULT_MODEL, draw_worlds, heuristic_play
from .policy import decide, rank_exchanges

if TYPE_CHECKING:
    from ..rules import Rules
    from ..state import GameState
    from ..views import PlayerView

__all__ = ["GAME_BONUS", "TABLE_BUDGETS", "ExpertBot", "TableBudget", "confident"]

GAME_BONUS: Final = 10.0
"""Value of reaching the goal and ending the game, in points of score (R31, R34)."""


class TableBudget(NamedTuple):
    """The default work of one decision at a table of one size (see :data:`TABLE_BUDGETS`)."""

    samples: int
    """Worlds per card-play decision, each solved."""
    proposals: int
    """Uniform proposals drawn per world kept (1: no inference)."""
    exchange_samples: int
    """Worlds per exchange decision."""
    max_nodes: int | None
    """Tricks the exact solver may start in one world (``solve_masks(max_nodes=)``);
    None: no limit."""


TABLE_BUDGETS: Final[Mapping[int, TableBudget]] = MappingProxyType(
    {
        2: TableBudget(40, 3, 40, None),
        3: TableBudget(120, 6, 40, None),
        4: TableBudget(40, 3, 40, None),
        5: TableBudget(40, 3, 30, 300),
        6: TableBudget(40, 3, 30, 300),
        7: TableBudget(40, 3, 30, 300),
    }
)
"""The default budget by the number of players at the table (R1), where ``samples``,
``proposals`` or ``exchange_samples`` is left None; a value given to the bot wins.

Two to four players (the 32-card game's tables): a three-player deal has fewer hidden
cards to place and a smaller tree to solve than a four-player one, so three times the
worlds, each kept from twice the proposals, stay within the 100 ms a decision; against
two ``SearchBot()`` bots that budget won more games than 40 worlds on the same seeds,
and larger budgets with two or four players won nothing measurable
(benchmarks/RESULTS-expert.md#the-three-player-tables-budget).

Five to seven players (the 36-card pack, R1): the four-player worlds per card play, and
30 worlds per exchange (the respond leaf plays out the deal for more seats), and the
exact solver limited to 300 tricks started per world: the median world needs a few
dozen, but one first-card world in a hundred of a seven-seat deal needs hundreds of
thousands (seconds), and such a world (some 7 % of those solved with seven players) is
valued by the best reply alone.  Median CPU time of a decision well under 100 ms at
every size on the project's 2-core machines, against heuristic bots
(benchmarks/RESULTS-pack36.md, "The expert's decision time")."""

_SCALE: Final = 1000
"""A value in points is handed to the solver in thousandths, a whole number."""

_BATCH: Final = 8
"""Worlds drawn at a time under a ``time_ms`` budget."""


def _leaf(instance: object, attribute: attrs.Attribute[str], value: object) -> None:
    if value not in ("solver", "rollout", "respond"):
        raise ValueError(
            f"ExpertBot.leaf must be 'solver', 'rollout' or 'respond', got {value!r:.20}"
        )


def _weight(instance: object, attribute: attrs.Attribute[float], value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"ExpertBot.{attribute.name} must be a number, got {value!r:.20}")
    if not 0 <= value <= 1:
        raise ValueError(f"ExpertBot.{attribute.name} must be from 0 to 1, got {value}")


def _points_value(instance: object, attribute: attrs.Attribute[float], value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"ExpertBot.{attribute.name} must be a number, got {value!r:.20}")
    if not -10 <= value <= 10:
        raise ValueError(f"ExpertBot.{attribute.name} must be from -10 to 10, got {value}")


def _noise(instance: object, attribute: attrs.Attribute[float], value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"ExpertBot.{attribute.name} must be a number, got {value!r:.20}")
    if not 0 < value < 1:  # a probability whose logarithm and complement's are taken
        raise ValueError(f"ExpertBot.{attribute.name} must be between 0 and 1, got {value}")


def _confidence(instance: object, attribute: attrs.Attribute[float], value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"ExpertBot.{attribute.name} must be a number, got {value!r:.20}")
    if not 0 <= value <= 10:
        raise ValueError(f"ExpertBot.{attribute.name} must be from 0 to 10, got {value}")


def _means(rows: Sequence[Sequence[float]], width: int) -> list[float]:
    """The mean of each column of ``rows`` (one row per world)."""
    totals = [0.0] * width
    for row in rows:
        for i, value in enumerate(row):
            totals[i] += value
    return [total / len(rows) for total in totals]


def confident(rows: Sequence[Sequence[float]], best: int, base: int, margin: float) -> bool:
    """Whether column ``best`` beats column ``base`` by at least ``margin`` standard errors.

    The difference is taken world by world (both were valued in the same worlds): its
    mean must be positive and at least ``margin`` times its standard error.  With one
    world there is no standard error, and a positive difference is enough.
    """
    differences = [row[best] - row[base] for row in rows]
    count = len(differences)
    mean = sum(differences) / count
    if mean <= 0:
        return False
    if count < 2:
        return True
    spread = sum((d - mean) ** 2 for d in differences) / (count - 1)
    return mean >= margin * math.sqrt(spread / count)


def _to_flag(value: object) -> object:
    """``make_bot("expert:race_near=0")`` passes an int: 0 and 1 mean False and True."""
    if type(value) is int and value in (0, 1):
        return bool(value)
    return value


def _flag(instance: object, attribute: attrs.Attribute[bool], value: object) -> None:
    if not isinstance(value, bool):
        raise TypeError(f"ExpertBot.{attribute.name} must be a bool, got {value!r:.20}")


@attrs.frozen
class ExpertBot:
    """PIMC with an exact solver, inference-weighted worlds and a race-aware value.

    Attributes:
        samples: worlds per card-play decision, each solved exactly; None takes the
            table's from :data:`TABLE_BUDGETS` (40, and 120 with three players).
        exchange_samples: worlds per exchange decision; each candidate exchange is
            applied and the deal finished in every one of them (see ``leaf``); None
            takes the table's from :data:`TABLE_BUDGETS` (40 with two to four players).
        proposals: uniform worlds drawn per world kept, to be weighed by the opponent
            model and resampled (1 turns inference off: uniform worlds); None takes the
            table's from :data:`TABLE_BUDGETS` (3, and 6 with three players).
        max_candidates: exchanges searched in the exchange phase: the heuristic's best,
            this many in all, plus the fold if it is legal.
        time_ms: opt-in wall-clock budget per decision instead of the world counts (at
            least one batch of worlds is always used); results then depend on the load.
        evidence: the power to which a world's likelihood under the opponent model is
            raised before resampling (:func:`~bohmisch_watten.bots.inference.draw_worlds`):
            1 trusts the model fully, lower values temper it, so that more distinct
            worlds share the weight and an opponent who is not the model misleads less.
        leaf: how the exchange values a deal after a candidate exchange: ``"rollout"``
            (the other seats' exchanges and every card by the heuristic policy, as
            :class:`~bohmisch_watten.bots.SearchBot` does), ``"respond"`` (the other
            seats' exchanges and cards by the heuristic policy, the bot's own cards the
            best reply to them in that world) or ``"solver"`` (the other exchanges by
            the heuristic, then the play solved exactly from its first card).  With
            paranoid opponents the solver is pessimistic at the first card of a 3- or
            4-player deal, and slower.
        rollout_weight: in card play with three or more seats in the deal, the share in
            a card's value of the bot's best reply to the other seats playing the
            heuristic's cards (a search in which only the bot branches), the rest being
            the solver's; it tempers the paranoid assumption that every other seat plays
            against the bot, and breaks the solver's many ties.  With two seats the
            solver's value is the exact minimax and is used alone.
        fold_bonus: points added to the fold's value when choosing (not in
            :meth:`hint`): positive folds more often.  The worlds are seen with all
            cards, so a played hand looks better than it is (PIMC's optimism) while a
            fold's own points are exactly 0 (R29).
        exchange_confidence: how many standard errors (of the world-by-world
            difference) the searched best exchange must gain over the heuristic's first
            choice to be made instead of it; 0 makes the searched best as it is.  The
            fold is then weighed against the exchange chosen.
        race_near: whether to value by the race model (the change of the bot's chance
            to win the game, in points of the current position, every seat's result
            counted) the deals in which another seat may reach the goal and the bot may
            not (R29–R31: five tricks, ten points with Hearts doubled), and by points
            (the bot's own toward zero, plus :data:`GAME_BONUS` at the goal) the others.  Then
            what counts is to stop that seat, which the bot's own points do not see: a
            fold, worth 0 points, lets the others share the deal's tricks.
        opponent_play_noise: the probability that an opponent plays a card other than
            the heuristic's (R24–R27), in weighing the worlds (the ``play_noise`` of
            :class:`~bohmisch_watten.bots.inference.OpponentModel`): lower trusts each
            play more, right against :class:`HeuristicBot`, whose every card is the
            heuristic's, and wrong against :class:`SearchBot`, whose leads are not.
        max_nodes: how many tricks the exact solver may start in one world
            (:func:`~bohmisch_watten.solver.solve_masks`); a world that needs more is
            valued by the best reply alone (see ``rollout_weight``).  None takes the
            table's from :data:`TABLE_BUDGETS`: no limit with two to four players.
    """

    samples: int | None = attrs.field(default=None, validator=optional_count)
    exchange_samples: int | None = attrs.field(default=None, validator=optional_count)
    proposals: int | None = attrs.field(default=None, validator=optional_count)
    max_candidates: int = attrs.field(default=5, validator=positive_count)
    time_ms: float | None = attrs.field(default=None, validator=time_budget)
    leaf: Literal["solver", "rollout", "respond"] = attrs.field(default="respond", validator=_leaf)
    rollout_weight: float = attrs.field(default=0.5, validator=_weight)
    fold_bonus: float = attrs.field(default=0.6, validator=_points_value)
    evidence: float = attrs.field(default=0.5, validator=_weight)
    exchange_confidence: float = attrs.field(default=1.0, validator=_confidence)
    race_near: bool = attrs.field(default=True, validator=_flag, converter=_to_flag)
    opponent_play_noise: float = attrs.field(default=0.2, validator=_noise)
    max_nodes: int | None = attrs.field(default=None, validator=optional_count)

    # ------------------------------------------------------------------ the protocol

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """The candidate action with the best mean value over the sampled worlds."""
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if view.phase is Phase.CUT:
            return decide(view.phase, legal, view.hand, view.trick, view.trump_card)
        candidates, rows = self.world_rows(view, rng)
        means = _means(rows, len(candidates))
        if view.phase is Phase.PLAY:  # the first best: ties go to the heuristic's card
            return candidates[max(range(len(candidates)), key=means.__getitem__)]
        return candidates[self._pick_exchange(candidates, rows, means, self.fold_bonus)]

    def _pick_exchange(
        self,
        candidates: Sequence[Action],
        rows: Sequence[Sequence[float]],
        means: list[float],
        fold_bonus: float,
    ) -> int:
        """The index of the exchange or fold to make (R18–R21).

        The searched best exchange replaces the heuristic's first choice (the first
        candidate) only when it gains at least ``exchange_confidence`` standard errors
        of the world-by-world difference: the best of several noisy means is the one
        whose noise flattered it most (the winner's curse), and the heuristic's order
        is a good prior.  The fold is then weighed against the exchange chosen, with
        ``fold_bonus``.
        """
        plays = [i for i, action in enumerate(candidates) if not isinstance(action, Fold)]
        best = max(plays, key=means.__getitem__)
        base = plays[0]
        margin = self.exchange_confidence
        if best != base and margin and not confident(rows, best, base, margin):
            best = base
        for i, action in enumerate(candidates):
            if isinstance(action, Fold) and means[i] + fold_bonus > means[best]:
                return i
        return best

    def hint(
        self, view: PlayerView, rng: random.Random | None = None
    ) -> list[tuple[Action, float]]:
        """The ranked actions with their values, best first, for a UI's "hint" button.

        The value of an action is the mean, over the sampled worlds, of what the deal's
        result after it is worth to the seat, in points toward zero (R29–R32, Hearts
        doubled), plus :data:`GAME_BONUS` when they reach the goal (R31); in a deal that
        ``race_near`` values by the race, the change of the seat's chance to win the game
        (R31–R34) divided by the chance one point is worth now.  Empty when the seat has no
        decision to make.  In the cut (R12) the values are the heuristic's: 0 for
        everything but its choice, 1 for that.

        Args:
            view: the seat's view.
            rng: the generator of the samples; by default a fixed seed, so the same view
                always gets the same hint.
        """
        return ranked_hint(self.search, view, rng)

    def evaluate(
        self, view: PlayerView, actions: Sequence[Action], rng: random.Random | None = None
    ) -> list[float]:
        """The value (as in :meth:`hint`) of each of ``actions``, legal in ``view``.

        With the same generator state the values of the actions :meth:`hint` ranks are
        the same numbers: the worlds are drawn in the same way and each world's value of
        an action does not depend on which other actions are valued.

        Raises:
            ValueError: if an action is not legal in ``view``.
        """
        legal = view.legal_actions()
        for action in actions:
            if action not in legal:
                raise ValueError(f"ExpertBot.evaluate: {action} is not legal in this view")
        values = dict(
            self.search(view, rng if rng is not None else random.Random(0), extra=actions)
        )
        return [values[action] for action in actions]

    def world_values(
        self, view: PlayerView, world: GameState, actions: Sequence[Action]
    ) -> list[float]:
        """The value of each of ``actions`` in one known ``world`` consistent with ``view``.

        What :meth:`search` averages over its sampled worlds: in card play the solved
        value of each card (R24–R32), in the exchange each action applied and the deal
        finished as ``leaf`` says.  Given the true state as ``world`` it is the value a
        player who saw every card would give, which is how ``benchmarks/expert_ceiling.py``
        measures what the hidden cards are worth.

        Raises:
            ValueError: if the phase is not the exchange or card play, or ``world`` is
                not at ``view``'s decision.
        """
        if view.phase not in (Phase.EXCHANGE, Phase.PLAY):
            raise ValueError(f"ExpertBot.world_values: no world values in the {view.phase.value}")
        if world.phase is not view.phase or world.current_player != view.player:
            raise ValueError("ExpertBot.world_values: world is not at the view's decision")
        if view.phase is Phase.PLAY:
            return self._play_values(view, world, actions)
        return self._exchange_values(view, world, actions)

    # ------------------------------------------------------------------ the search

    def search(
        self, view: PlayerView, rng: random.Random, extra: Sequence[Action] = ()
    ) -> list[tuple[Action, float]]:
        """Every candidate action (and ``extra``) with its mean value, best first."""
        if view.phase is Phase.CUT:
            candidates = self.candidates(view)
            candidates += [a for a in extra if a not in candidates]
            best = decide(view.phase, view.legal_actions(), view.hand, view.trick, view.trump_card)
            return sorted(((a, float(a == best)) for a in candidates), key=lambda x: -x[1])
        candidates, rows = self.world_rows(view, rng, extra)
        ranked = list(zip(candidates, _means(rows, len(candidates)), strict=True))
        ranked.sort(key=lambda item: -item[1])
        return ranked

    def world_rows(
        self, view: PlayerView, rng: random.Random, extra: Sequence[Action] = ()
    ) -> tuple[list[Action], list[list[float]]]:
        """The candidate actions (and ``extra``) and their values in each sampled world.

        One row per world drawn (a world drawn twice is valued once and counted
        twice), in the order of the candidates; the exchange or card play only.
        """
        candidates = self.candidates(view)
        candidates += [a for a in extra if a not in candidates]
        play = view.phase is Phase.PLAY
        samples, proposals, exchange_samples, _ = self.budget(view.num_players)
        count = samples if play else exchange_samples
        rows: list[list[float]] = []
        evaluate = self._play_values if play else self._exchange_values
        deadline = None if self.time_ms is None else time.perf_counter() + self.time_ms / 1000
        memo: dict[object, list[float]] = {}
        judge = self._judge(view)
        model = attrs.evolve(DEFAULT_MODEL, play_noise=self.opponent_play_noise)
        while True:
            batch = count if deadline is None else _BATCH
            worlds = draw_worlds(view, rng, batch, batch * proposals, model, self.evidence)
            for world in worlds:
                # Card play depends on the hands only; the exchange also on the stock.
                key = (
                    world.hand_masks
                    if play
                    else (world.hand_masks, world.deal_fields.discards, world.deal_fields.pack)
                )
                values = memo.get(key)
                if values is None:
                    values = memo[key] = evaluate(view, world, candidates, judge)
                rows.append(values)
            if deadline is None or time.perf_counter() >= deadline:
                break
        return candidates, rows

    def budget(self, players: int) -> TableBudget:
        """The worlds per card-play decision, the proposals per world kept, the worlds
        per exchange decision and the solver's limit at a table of ``players`` seats: the
        fields, or :data:`TABLE_BUDGETS` where they are None.

        Raises:
            ValueError: if ``players`` is not a table size of the game (2 to 7, R1).
        """
        if type(players) is not int or players not in TABLE_BUDGETS:  # True is no size
            raise ValueError(f"ExpertBot.budget: players must be 2 to 7, got {players!r}")
        table = TABLE_BUDGETS[players]
        return TableBudget(
            table.samples if self.samples is None else self.samples,
            table.proposals if self.proposals is None else self.proposals,
            table.exchange_samples if self.exchange_samples is None else self.exchange_samples,
            table.max_nodes if self.max_nodes is None else self.max_nodes,
        )

    def candidates(self, view: PlayerView) -> list[Action]:
        """The actions searched: every legal card, or the heuristic's best exchanges in
        its order (its first choice first) and the fold."""
        legal = view.legal_actions()
        if view.phase is Phase.PLAY:  # the heuristic's card first: it wins the ties
            first = decide(view.phase, legal, (), view.trick, view.trump_card)
            return [first, *(a for a in legal if a != first)]
        if view.phase is not Phase.EXCHANGE:
            return list(legal)
        folds: list[Action] = [a for a in legal if isinstance(a, Fold)]
        assert view.trump_card is not None
        ranked = rank_exchanges(view.hand, legal, view.trump_card)
        return [action for action, _ in ranked[: self.max_candidates]] + folds

    # ------------------------------------------------------------------ world values

    def _judge(self, view: PlayerView) -> _Judge:
        """What a result is worth at this decision: one judge for all its worlds, so
        the race model is built once and its values are remembered across worlds."""
        return _Judge(view.scores, view.player, view.rules, self._race(view))

    def _race(self, view: PlayerView) -> bool:
        """Whether this decision is valued by the race model rather than by points.

        With ``race_near``, in a deal in which another seat may reach the goal and the
        bot may not (R29–R31: five tricks, doubled with Hearts): then what counts is
        stopping that seat, which points toward zero do not see.
        """
        if not self.race_near:
            return False
        assert view.trump_card is not None  # the exchange and card play only
        table = point_table(SUIT_OF[view.trump_card.index], view.rules, view.scores)
        rules, me = view.rules, view.player
        near = [
            not folded and reached_goal(score + min(row), rules)
            for score, row, folded in zip(view.scores, table, view.folded, strict=True)
        ]
        others = any(near[s] for s in range(len(near)) if s != me)
        return others and not near[me]

    def _play_values(
        self,
        view: PlayerView,
        world: GameState,
        candidates: Sequence[Action],
        judge: _Judge | None = None,
    ) -> list[float]:
        """The solved value of each candidate card in one world (R24–R32); ``judge``
        is :meth:`_judge` of ``view``, made here if not given."""
        me = view.player
        if judge is None:
            judge = self._judge(view)
        try:
            found: dict[int, int] | None = _solve(
                world, me, judge.rows(world), self.budget(view.num_players).max_nodes
            )
        except NodeLimitReached:  # too hard a world for the budget: the best reply alone
            found = None
        active = view.num_players - sum(view.folded)
        weight = self.rollout_weight if active > 2 else 0.0
        if found is None:
            weight = 1.0
        out = []
        replies: dict[int, float] = {}
        if weight:
            replies = _reply_cards(world, me, _Table(world, judge))
        for action in candidates:
            assert isinstance(action, PlayCard)
            if found is None:
                out.append(replies[action.card.index])
                continue
            value = -found[action.card.index] / _SCALE
            if replies:
                value = (1 - weight) * value + weight * replies[action.card.index]
            out.append(value)
        return out

    def _exchange_values(
        self,
        view: PlayerView,
        world: GameState,
        candidates: Sequence[Action],
        judge: _Judge | None = None,
    ) -> list[float]:
        """Each candidate applied in one world, the exchange finished, the play solved
        (``judge`` as for :meth:`_play_values`)."""
        me = view.player
        if judge is None:
            judge = self._judge(view)
        out = []
        for action in candidates:
            if self.leaf == "rollout":
                end = _rollout(world.apply(action))
                out.append(judge.after(end.scores))
                continue
            state = _finish_exchange(world.apply(action))
            folds = state.folded[me]
            if folds and judge.race is None:
                out.append(judge.after(view.scores))  # R29: a folded seat scores nothing
                continue
            player = state.current_player
            assert player is not None
            if self.leaf == "solver" and not folds:
                try:
                    found = _solve(
                        state, me, judge.rows(state), self.budget(view.num_players).max_nodes
                    )
                except NodeLimitReached:  # too hard for the budget: the best reply
                    pass
                else:
                    best = min(found.values()) if player == me else max(found.values())
                    out.append(-best / _SCALE)
                    continue
            # A folded seat only watches: the others' cards are the heuristic's.
            out.append(_reply(state, player, me, _Table(state, judge)))
        return out


class _Judge:
    """What a deal's result is worth to ``me``: the race, or points toward zero (R28–R34)."""

    def __init__(self, scores: tuple[int, ...], me: int, rules: Rules, race: bool = False) -> None:
        self.before = scores
        self.me = me
        self.rules = rules
        self.race = RaceValue(scores, me, rules) if race else None
        self.memo: dict[tuple[int, ...], float] = {}

    def after(self, scores: tuple[int, ...]) -> float:
        """The value of the deal's end with every seat's score ``scores`` after it."""
        found = self.memo.get(scores)
        if found is None:
            if self.race is None:
                points = scores[self.me] - self.before[self.me]
                found = _utility(points, self.before[self.me], self.rules)
            else:
                found = self.race.value(scores)
            self.memo[scores] = found
        return found

    def after_mine(self, points: int) -> float:
        """The value of ``me`` scoring ``points`` in this deal, by points (R29–R32)."""
        return _utility(points, self.before[self.me], self.rules)

    def deal_end(self, won: tuple[int, ...], folded: tuple[bool, ...], trump: int) -> float:
        """The value of a deal that ends with ``won`` tricks per seat (R29–R32)."""
        points = deal_points(won, folded, trump, self.rules)
        return self.after(post_scores(self.before, points, self.rules))

    def rows(self, state: GameState) -> tuple[tuple[int, ...], ...]:
        """The solver's point rows: the deal points per seat, ``me``'s replaced by minus
        his value for 0–5 tricks in thousandths (the solver's mover minimises his row;
        :data:`_SCALE` keeps it in whole numbers).

        With two seats in the deal the other one takes the tricks ``me`` does not, so
        the value is exact (R29); with more, the others' points are left as they were
        before the deal, a paranoid search deciding only ``me``'s tricks.
        """
        me = self.me
        rows = list(_points(state))
        mine = rows[me]  # point_table: the score change of 0-5 tricks (R29-R32)
        if self.race is None:  # by points only me's own tricks count
            rows[me] = tuple(-round(_SCALE * self.after_mine(p)) for p in mine)
            return tuple(rows)
        trump = SUIT_OF[state.trump_index]
        folded = state.folded
        active = [seat for seat in range(len(folded)) if not folded[seat]]
        other = active[0] if active[1] == me else active[1]
        row = []
        for t in range(6):
            if len(active) == 2:
                won = [0] * len(folded)
                won[me], won[other] = t, 5 - t
                row.append(-round(_SCALE * self.deal_end(tuple(won), folded, trump)))
            else:
                after = list(self.before)
                after[me] += mine[t]
                row.append(-round(_SCALE * self.after(tuple(after))))
        rows[me] = tuple(row)
        return tuple(rows)


class _Table:
    """The fixed facts of one best-response search: trump, rules, seats, leaf values."""

    def __init__(self, state: GameState, judge: _Judge) -> None:
        self.trump = SUIT_OF[state.trump_index]
        self.must_head = state.rules.must_head
        folded = state.folded
        n = state.num_players
        self.active = n - sum(folded)
        nxt = []
        for seat in range(n):
            after = left_of(seat, n)
            while folded[after]:
                after = left_of(after, n)
            nxt.append(after)
        self.next = tuple(nxt)  # R24: folded players are skipped
        self.folded = folded
        self.judge = judge
        self.me = me = judge.me
        self.ends: dict[tuple[int, ...], float] = {}
        # By points only ``me``'s tricks matter: one value per count, looked up.
        # R29: a folded seat scores nothing, whatever the others take.
        row = _points(state)[me]
        self.values = (
            tuple(judge.after_mine(0 if folded[me] else row[t]) for t in range(6))
            if judge.race is None
            else None
        )

    def leaf(self, won: tuple[int, ...]) -> float:
        """The value of a finished deal for the judge's seat (R29-R32)."""
        if self.values is not None:
            return self.values[won[self.me]]
        found = self.ends.get(won)
        if found is None:
            found = self.ends[won] = self.judge.deal_end(won, self.folded, self.trump)
        return found


def _points(state: GameState) -> tuple[tuple[int, ...], ...]:
    return point_table(SUIT_OF[state.trump_index], state.rules, state.scores)


def _solve(
    state: GameState,
    mover: int,
    points: tuple[tuple[int, ...], ...],
    max_nodes: int | None = None,
) -> dict[int, int]:
    """The mover's points per legal card of the seat to act, in one known deal.

    Raises:
        NodeLimitReached: if the solver would start more than ``max_nodes`` tricks.
    """
    player = state.current_player
    assert player is not None
    return solve_masks(
        state.hand_masks,
        state.trick_plays,
        state.tricks_won,
        SUIT_OF[state.trump_index],
        player=player,
        mover=mover,
        must_head=state.rules.must_head,
        folded=state.folded,
        points=points,
        max_nodes=max_nodes,
    )


def _finish_exchange(state: GameState) -> GameState:
    """Let the heuristic decide the other seats' exchanges, up to the first card (R18)."""
    while state.phase is Phase.EXCHANGE:
        legal = state.legal_actions()
        seat = state.current_player
        assert seat is not None
        hand = state.hands[seat]
        state = state.apply(decide(Phase.EXCHANGE, legal, hand, (), state.trump_card))
    return state


def _rollout(state: GameState) -> GameState:
    """Play to the end of the current deal with the heuristic policy (R18–R29)."""
    deal = state.deal_number
    while not state.is_terminal and state.deal_number == deal and not state.is_chance_node:
        legal = state.legal_actions()
        if len(legal) == 1:
            state = state.apply(legal[0])
            continue
        phase = state.phase
        seat = state.current_player
        hand = state.hands[seat] if phase is Phase.EXCHANGE and seat is not None else ()
        state = state.apply(decide(phase, legal, hand, state.trick, state.trump_card))
    return state


def _utility(points: int, score: int, rules: Rules) -> float:
    """Points gained toward zero, plus the bonus of reaching the goal (R28–R34)."""
    value = float(-points)
    if reached_goal(score + points, rules):
        value += GAME_BONUS
    return value


_NATIVE: Final[Any] = native_core.module
"""The compiled core (``best_reply``, ``best_reply_cards`` in src/native/solver.c, the C
twins of :func:`_respond` and :func:`_respond_cards`, tested equal value for value), or
``None``: then the Python search below, the reference, answers."""


def _native_leaf(game: _Table) -> object:
    """The leaf the C best reply takes: six values by ``me``'s tricks, or the callable."""
    return game.leaf if game.values is None else game.values


def _reply(state: GameState, player: int, me: int, game: _Table) -> float:
    """:func:`_respond` from the start of a trick of ``state``, in C when it is built."""
    if _NATIVE is None:
        return _respond(state.hand_masks, (), state.tricks_won, player, me, game, {})
    value: float = _NATIVE.best_reply(
        state.hand_masks,
        (),
        state.tricks_won,
        game.trump,
        player,
        me,
        game.must_head,
        game.folded,
        _native_leaf(game),
    )
    return value


def _reply_cards(state: GameState, me: int, game: _Table) -> dict[int, float]:
    """:func:`_respond_cards` of ``me``, the seat to act in ``state``, in C when built."""
    if _NATIVE is None:
        return _respond_cards(state.hand_masks, state.trick_plays, state.tricks_won, me, game, {})
    values: dict[int, float] = _NATIVE.best_reply_cards(
        state.hand_masks,
        state.trick_plays,
        state.tricks_won,
        game.trump,
        me,
        me,
        game.must_head,
        game.folded,
        _native_leaf(game),
    )
    return values


def _respond(
    hands: tuple[int, ...],
    trick: Plays,
    won: tuple[int, ...],
    player: int,
    me: int,
    game: _Table,
    memo: dict[object, float],
) -> float:
    """The best value ``me`` reaches against seats that play the heuristic's cards.

    A single-agent search: every other seat's card is the heuristic's
    (:func:`~bohmisch_watten.bots.inference.heuristic_play`, R24–R27), so only ``me``
    branches; the value of a finished deal is ``game.leaf(won)``.
    """
    trump, must_head, nxt = game.trump, game.must_head, game.next
    while player != me:
        hand = hands[player]
        legal = legal_play_mask(hand, trick, trump, must_head) if trick else hand
        card = heuristic_play(legal, trick, trump)
        hands = (*hands[:player], hand ^ (1 << card), *hands[player + 1 :])
        trick = (*trick, (player, card))
        if len(trick) == game.active:
            player = best_play(trick, trump)[0]
            won = (*won[:player], won[player] + 1, *won[player + 1 :])
            trick = ()
            if sum(won) == 5:
                return game.leaf(won)
        else:
            player = nxt[player]
    key = (hands, trick, won)
    found = memo.get(key)
    if found is not None:
        return found
    best = -1e9
    for value in _respond_cards(hands, trick, won, me, game, memo).values():
        best = max(best, value)
    memo[key] = best
    return best


def _respond_cards(
    hands: tuple[int, ...],
    trick: Plays,
    won: tuple[int, ...],
    me: int,
    game: _Table,
    memo: dict[object, float],
) -> dict[int, float]:
    """Per legal card of ``me`` (to act), the value of :func:`_respond` after it."""
    trump = game.trump
    hand = hands[me]
    legal = legal_play_mask(hand, trick, trump, game.must_head) if trick else hand
    out = {}
    for card in bits(legal):
        after = (*hands[:me], hand ^ (1 << card), *hands[me + 1 :])
        plays = (*trick, (me, card))
        if len(plays) == game.active:
            winner = best_play(plays, trump)[0]
            score = (*won[:winner], won[winner] + 1, *won[winner + 1 :])
            if sum(score) == 5:
                out[card] = game.leaf(score)
            else:
                out[card] = _respond(after, (), score, winner, me, game, memo)
        else:
            out[card] = _respond(after, plays, won, game.next[me], me, game, memo)
    return out
