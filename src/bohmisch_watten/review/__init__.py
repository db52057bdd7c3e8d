"""Review a game: every decision of every seat judged, like a chess site's game analysis.

:func:`review` replays a :class:`~bohmisch_watten.GameRecord` and hands the judge, at
each decision, only the deciding seat's :class:`~bohmisch_watten.views.PlayerView`; the
judge ranks the actions and values the one taken, and the difference is the loss in
expected points, labelled by :data:`INACCURACY`, :data:`MISTAKE` and :data:`BLUNDER`.
Any bot with ``hint`` and ``evaluate`` (the :class:`Judge` protocol) can judge; the
default is the strongest bot the registry knows (:func:`default_judge`).  The command
is ``python -m bohmisch_watten review GAME``; :mod:`bohmisch_watten.review.report`
prints the table and draws the graph.

The record is replayed action by action.  At each decision of a reviewed seat with more
than one legal action the judge is handed ``state.view(seat)`` — what that seat knew
then, never the full state, so the judge cannot use the cards the seat could not see
(R13, R23) — and ranks the actions.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Final, Literal, Protocol, runtime_checkable

import attrs

from ..actions import Action, Exchange, Fold, LeaveCritical, PlayCard, TakeCritical
from ..bots import registry
from ..bots.search import SearchBot
from ..cards import Card
from ..errors import FormatError
from ..notation import MAX_DOCUMENT_CHARS, check_text
from ..phases import Phase
from ..records import GameRecord, load_record, replay
from ..rules import Rules
from ..serialization import from_json
from ..state import GameState

if TYPE_CHECKING:
    from ..views import PlayerView

__all__ = [
    "BLUNDER",
    "INACCURACY",
    "MISTAKE",
    "Alternative",
    "Decision",
    "Judge",
    "Label",
    "Review",
    "ReviewProgress",
    "SeatSummary",
    "Situation",
    "default_judge",
    "in_words",
    "label_for",
    "load_game",
    "review",
]

INACCURACY: Final = 0.5
"""A loss of at least this many expected points is an inaccuracy."""
MISTAKE: Final = 1.0
"""A loss of at least this many expected points is a mistake."""
BLUNDER: Final = 2.0
"""A loss of at least this many expected points is a blunder."""

Label = Literal["inaccuracy", "mistake", "blunder"]
"""The labels of a costly decision, mildest first."""

ReviewProgress = Callable[[int, int], object]
"""``progress(done, total)``: called once before the first judged decision, then after each."""


@runtime_checkable
class Judge(Protocol):
    """What a review needs of a bot: rank a seat's actions and value any of them.

    Values are expected points the seat gains toward zero in the current deal (minus the
    tricks it takes, R29–R30), plus or minus a game bonus when the deal ends the game
    (R34), as :meth:`SearchBot.hint <bohmisch_watten.bots.search.SearchBot.hint>` gives
    them.  Both methods see only the deciding seat's view.
    """

    def hint(
        self, view: PlayerView, rng: random.Random | None = None
    ) -> list[tuple[Action, float]]:
        """Some legal actions with their values, best first (perhaps not every one)."""
        ...  # pragma: no cover

    def evaluate(
        self, view: PlayerView, actions: Sequence[Action], rng: random.Random
    ) -> list[float]:
        """The values of the given legal ``actions``, in their order."""
        ...  # pragma: no cover


def in_words(action: Action) -> str:
    """An action as a player says it: "kept your hand", "exchanged HK, S9", "folded".

    The notation's ``exchange`` with no card reads as an exchange but means keeping the
    hand and playing (R18); a review says what happened.

    >>> from bohmisch_watten import Card, Exchange, Fold
    >>> from bohmisch_watten.review import in_words
    >>> in_words(Exchange(frozenset())), in_words(Fold())
    ('kept your hand', 'folded')
    >>> in_words(Exchange({Card.parse("S9"), Card.parse("HK")}, take_trump_card=True))
    'exchanged HK, S9 and took the trump card'
    """
    if isinstance(action, Exchange):
        cards = str(action).split()[1:]
        took = cards[-1:] == ["+trump"]
        cards = cards[:-1] if took else cards
        if not cards:
            return "kept your hand"
        return f"exchanged {', '.join(cards)}" + (" and took the trump card" if took else "")
    if isinstance(action, PlayCard):
        return f"played {action.card}"
    if isinstance(action, Fold):
        return "folded"
    if isinstance(action, TakeCritical):
        return "took the Critical"
    if isinstance(action, LeaveCritical):
        return "left the Critical"
    return str(action)  # a chance action is never judged


@attrs.frozen
class Situation:
    """What the deciding seat knew when it decided, for the people reading a review.

    Only the seat's own view (R13, R23): its hand, the trump, and the decision's own
    circumstances, which depend on the phase.

    Attributes:
        hand: the seat's cards, sorted (in the cut: the Criticals it took so far).
        trump_card: the turned-up trump card (R15); None in the cut, before it is turned.
        dealer: whether the seat deals this deal (it may take the trump card, R19).
        trick: in card play, the trick so far as ``(seat, card)``, leader first (R24).
        before: in the exchange, each seat that decided before this one as ``(seat,
            cards exchanged)``, None for a seat that folded (R18, R21).
        offered: in the cut, the Critical the seat looked at and may take (R12).
    """

    hand: tuple[Card, ...]
    trump_card: Card | None
    dealer: bool
    trick: tuple[tuple[int, Card], ...] = ()
    before: tuple[tuple[int, int | None], ...] = ()
    offered: Card | None = None

    @classmethod
    def of(cls, view: PlayerView) -> Situation:
        """The situation of the seat of ``view`` at its decision."""
        before: tuple[tuple[int, int | None], ...] = ()
        offered = None
        if view.phase is Phase.EXCHANGE:
            before = tuple(
                (seat, None if view.folded[seat] else count)
                for seat, count in enumerate(view.exchange_counts)
                if seat != view.player and (view.folded[seat] or count >= 0)
            )
        elif view.phase is Phase.CUT:
            looks = [look.card for look in view.cut_looks if look.seat == view.player]
            offered = looks[-1] if looks else None
        return cls(
            hand=view.hand,
            trump_card=view.trump_card,
            dealer=view.dealer == view.player,
            trick=view.trick if view.phase is Phase.PLAY else (),
            before=before,
            offered=offered,
        )

    def text(self, phase: Phase) -> str:
        """One line: ``hand E9 EO EK S10 HA; trump HO (Hearts); trick: seat 1 G7``."""
        parts = [f"hand {' '.join(map(str, self.hand))}" if self.hand else "no cards yet"]
        if self.trump_card is not None:
            parts.append(f"trump {self.trump_card} ({self.trump_card.suit})")
        if self.dealer and phase is not Phase.PLAY:
            parts.append("you deal")
        if phase is Phase.PLAY:
            plays = ", ".join(f"seat {seat} {card}" for seat, card in self.trick)
            parts.append(f"trick: {plays}" if plays else "you lead")
        elif phase is Phase.EXCHANGE:
            done = ", ".join(
                f"seat {seat} folded"
                if count is None
                else f"seat {seat} kept its hand"
                if count == 0
                else f"seat {seat} exchanged {count}"
                for seat, count in self.before
            )
            parts.append(f"before you: {done}" if done else "you decide first")
        elif self.offered is not None:
            parts.append(f"offered the Critical {self.offered}")
        return "; ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data: cards in notation."""
        return {
            "hand": [str(card) for card in self.hand],
            "trump_card": None if self.trump_card is None else str(self.trump_card),
            "dealer": self.dealer,
            "trick": [{"seat": seat, "card": str(card)} for seat, card in self.trick],
            "before": [{"seat": seat, "exchanged": count} for seat, count in self.before],
            "offered": None if self.offered is None else str(self.offered),
        }


@attrs.frozen
class Alternative:
    """One action the judge rated, with its value in expected points."""

    action: Action
    value: float


@attrs.frozen
class Decision:
    """One judged decision of one seat.

    Attributes:
        number: the action's number in the record, 1 for the first (the number the
            record's text form shows in its comments).
        deal: the deal it was taken in (the state's ``deal_number``: 1 for the
            first deal of a fresh game).
        seat: who decided.
        phase: the phase of the decision (cut, exchange or play).
        score: the seat's score before the decision.
        action: the action taken.
        legal: how many legal actions the seat had (always at least two).
        alternatives: the actions the judge rated, best first; the action taken is
            always among them, and first among those of equal value.
        value: the value of the action taken.
        loss: the best value minus ``value``: 0 for the best action, never negative.
        label: ``"inaccuracy"``, ``"mistake"`` or ``"blunder"`` by :func:`label_for`,
            None for a loss below :data:`INACCURACY`.
        situation: what the seat knew: its hand, the trump, the trick or the exchange
            so far (:class:`Situation`).
    """

    number: int
    deal: int
    seat: int
    phase: Phase
    score: int
    action: Action
    legal: int
    alternatives: tuple[Alternative, ...]
    value: float
    loss: float
    label: Label | None
    situation: Situation

    @property
    def best(self) -> Alternative:
        """The judge's best action and its value."""
        return self.alternatives[0]

    @property
    def expected_score(self) -> float:
        """The seat's score expected at the end of the deal with the best play from here.

        ``score - best.value``: the line of the review's plot.  The value holds the
        judge's game bonus when it expects the deal to end the game, so the line then
        jumps by that bonus.
        """
        return self.score - self.best.value

    @property
    def better(self) -> str | None:
        """The judge's best action in words (:func:`in_words`), None if it was the one taken."""
        return None if self.best.action == self.action else in_words(self.best.action)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data: actions in notation and in words, the phase in lower case."""
        return {
            "number": self.number,
            "deal": self.deal,
            "seat": self.seat,
            "phase": self.phase.name.lower(),
            "score": self.score,
            "action": str(self.action),
            "legal": self.legal,
            "value": self.value,
            "best": str(self.best.action),
            "best_value": self.best.value,
            "loss": self.loss,
            "label": self.label,
            "played": in_words(self.action),
            "better": self.better,
            "situation": {**self.situation.to_dict(), "text": self.situation.text(self.phase)},
            "alternatives": [
                {"action": str(a.action), "value": a.value} for a in self.alternatives
            ],
        }


@attrs.frozen
class SeatSummary:
    """One seat's figures over its judged decisions."""

    seat: int
    decisions: int
    total_loss: float
    average_loss: float
    inaccuracies: int
    mistakes: int
    blunders: int

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data."""
        return attrs.asdict(self)


@attrs.frozen
class Review:
    """The judged decisions of a game and a summary per reviewed seat.

    Attributes:
        num_players: the players of the game.
        rules: its rules.
        judge: the judge's spec (:func:`~bohmisch_watten.bots.registry.bot_spec`:
            ``"expert"``, ``"search:rollouts=240"``), to tell reviews by different
            judges apart.
        seed: the seed the judge's generators were drawn from.
        seats: the reviewed seats.
        decisions: every judged decision of those seats, in the order of the game.
        summaries: one per reviewed seat, in the order of ``seats``.
        actions: the number of actions in the record.
        final_scores: every seat's score after the record's last action.
    """

    num_players: int
    rules: Rules
    judge: str
    seed: int
    seats: tuple[int, ...]
    decisions: tuple[Decision, ...]
    summaries: tuple[SeatSummary, ...]
    actions: int
    final_scores: tuple[int, ...]

    def of_seat(self, seat: int) -> tuple[Decision, ...]:
        """The decisions of one seat."""
        return tuple(d for d in self.decisions if d.seat == seat)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data, for ``review --json`` and the web table."""
        return {
            "format": "bohmisch_watten.review",
            "version": 1,
            "players": self.num_players,
            "rules": str(self.rules) or "default",
            "judge": self.judge,
            "seed": self.seed,
            "thresholds": {"inaccuracy": INACCURACY, "mistake": MISTAKE, "blunder": BLUNDER},
            "seats": list(self.seats),
            "actions": self.actions,
            "final_scores": list(self.final_scores),
            "summaries": [s.to_dict() for s in self.summaries],
            "decisions": [d.to_dict() for d in self.decisions],
        }


def label_for(loss: float) -> Label | None:
    """The label of a loss in expected points, None below :data:`INACCURACY`."""
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return None


def load_game(text: str | bytes, *, max_chars: int = MAX_DOCUMENT_CHARS) -> GameRecord:
    """The record of a saved game: a record in either form, or a saved state.

    A record is read by :func:`~bohmisch_watten.load_record` (text or JSON); a state
    saved with :meth:`GameState.to_json <bohmisch_watten.GameState.to_json>` (what a
    UI's "save" writes) is read and checked by :func:`~bohmisch_watten.from_json` and
    gives its :meth:`~bohmisch_watten.GameState.record`: the game up to that state.

    Raises:
        FormatError: for anything that is neither, naming what it got.
    """
    text = check_text(text, "a saved game", max_chars)
    if not text.lstrip().startswith("{"):
        return load_record(text, max_chars=max_chars)  # the text form of a record
    loaded = from_json(text, max_chars=max_chars)  # any document: its format says which
    if isinstance(loaded, GameRecord):
        return loaded
    if isinstance(loaded, GameState):
        return loaded.record()
    raise FormatError(
        "expected a bohmisch_watten.record or bohmisch_watten.state document (a saved game),"
        f" got a {type(loaded).__name__} document"
    )


def default_judge() -> Judge:
    """The judge of a review without one: the expert bot once the registry knows
    ``"expert"`` (and it has :class:`Judge`'s methods), else ``SearchBot()``."""
    if "expert" in registry.BOT_NAMES:
        expert = registry.make_bot("expert")
        if isinstance(expert, Judge):
            return expert
    return SearchBot()


def _seats(seats: Iterable[int] | None, players: int) -> tuple[int, ...]:
    if seats is None:
        return tuple(range(players))
    if isinstance(seats, (str, bytes)) or not isinstance(seats, Iterable):
        raise TypeError(f"seats must be an iterable of seats, got {type(seats).__name__}")
    chosen: list[int] = []
    for seat in seats:
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise TypeError(f"seats: a seat is an int, got {seat!r:.20}")
        if not 0 <= seat < players:
            raise ValueError(f"seats: seat {seat} is not a seat of {players} players")
        if seat not in chosen:
            chosen.append(seat)
    if not chosen:
        raise ValueError("seats: name at least one seat")
    return tuple(sorted(chosen))


def _base_seed(seed: int | None, rng: random.Random | None) -> int:
    if rng is not None:
        if seed is not None:
            raise ValueError("review: give seed or rng, not both")
        if not isinstance(rng, random.Random):
            raise TypeError(f"rng must be a random.Random, got {type(rng).__name__}")
        return rng.getrandbits(63)
    if seed is None:
        return 0
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an int, got {type(seed).__name__}")
    return seed


def _judge(view: PlayerView, taken: Action, judge: Judge, rng: random.Random) -> list[Alternative]:
    """The judge's ranking of the actions of ``view``, the action taken always among them.

    When the hint left the action taken out, every action of the hint is valued again
    together with it, so that all the values come from the same samples.
    """
    ranked = judge.hint(view, rng)
    if not ranked:
        raise ValueError(f"review: the judge rated no action of seat {view.player}")
    actions = [action for action, _ in ranked]
    values = [float(value) for _, value in ranked]
    if taken not in actions:
        actions.append(taken)
        values = [float(value) for value in judge.evaluate(view, actions, rng)]
        if len(values) != len(actions):
            raise ValueError("review: the judge's evaluate() gave a value per action")
    # Best first; among equal values the action taken first, then the judge's order.
    order = sorted(range(len(actions)), key=lambda i: (-values[i], actions[i] != taken))
    return [Alternative(actions[i], values[i]) for i in order]


def _summary(seat: int, decisions: Sequence[Decision]) -> SeatSummary:
    total = sum(d.loss for d in decisions)
    labels = [d.label for d in decisions]
    return SeatSummary(
        seat=seat,
        decisions=len(decisions),
        total_loss=total,
        average_loss=total / len(decisions) if decisions else 0.0,
        inaccuracies=labels.count("inaccuracy"),
        mistakes=labels.count("mistake"),
        blunders=labels.count("blunder"),
    )


def review(
    record: GameRecord,
    bot: Judge | None = None,
    *,
    seats: Iterable[int] | None = None,
    seed: int | None = None,
    rng: random.Random | None = None,
    progress: ReviewProgress | None = None,
) -> Review:
    """Judge every decision of ``seats`` in the game of ``record``.

    Decisions with a single legal action (a forced card, the only exchange) are not
    judged: there was nothing to choose.  Each judged decision gets its own generator,
    drawn from the seed and the decision's number, so a review is the same for a seat
    whether or not the other seats are reviewed with it.

    Args:
        record: the game, e.g. from :func:`~bohmisch_watten.load_record`.
        bot: the judge; by default :func:`default_judge`.
        seats: the seats to review, by default every seat.
        seed: the seed of the judge's generators (default 0).
        rng: instead of ``seed``: a generator the seed is drawn from.
        progress: called as ``progress(done, total)`` before the first decision is
            judged and after each one (for a progress bar).

    Raises:
        TypeError: naming the argument, for an argument of the wrong type.
        ValueError: for a bad seat, both ``seed`` and ``rng``, or a judge that rates
            no action.
        FormatError: if the record holds an illegal action.
    """
    if not isinstance(record, GameRecord):
        raise TypeError(f"record must be a GameRecord, got {type(record).__name__}")
    judge = default_judge() if bot is None else bot
    if not isinstance(judge, Judge):
        raise TypeError(
            f"bot must have hint(view, rng) and evaluate(view, actions, rng),"
            f" got {type(judge).__name__}"
        )
    chosen = _seats(seats, record.num_players)
    base = _base_seed(seed, rng)
    replay(record)  # an illegal action is a FormatError naming it, before any judging
    state = replay(attrs.evolve(record, actions=()))
    todo: list[tuple[int, PlayerView, Action]] = []
    for number, action in enumerate(record.actions, 1):
        seat = state.current_player
        if seat in chosen and len(state.legal_actions()) > 1:
            todo.append((number, state.view(seat), action))
        state = state.apply(action)
    if progress is not None:
        progress(0, len(todo))
    decisions: list[Decision] = []
    for done, (number, view, action) in enumerate(todo, 1):
        ranked = _judge(view, action, judge, random.Random(f"review:{base}:{number}"))
        value = next(a.value for a in ranked if a.action == action)
        loss = max(0.0, ranked[0].value - value)
        decisions.append(
            Decision(
                number=number,
                deal=view.deal_number,
                seat=view.player,
                phase=view.phase,
                score=view.scores[view.player],
                action=action,
                legal=len(view.legal_actions()),
                alternatives=tuple(ranked),
                value=value,
                loss=loss,
                label=label_for(loss),
                situation=Situation.of(view),
            )
        )
        if progress is not None:
            progress(done, len(todo))
    return Review(
        num_players=record.num_players,
        rules=record.rules,
        judge=registry.bot_spec(judge),
        seed=base,
        seats=chosen,
        decisions=tuple(decisions),
        summaries=tuple(_summary(s, [d for d in decisions if d.seat == s]) for s in chosen),
        actions=len(record.actions),
        final_scores=state.scores,
    )
