"""The immutable game state, the legal actions and ``apply()`` (R1–R34).

A :class:`GameState` holds everything about a game at one moment, including hidden
cards.  It never changes: :meth:`GameState.apply` returns a new state, so old states stay
valid (free undo, safe sharing, search trees without copying).

Internally cards are integers (``Card.index``) and hands are bitmasks; the public
properties turn them into :class:`Card` objects.  ``apply()`` builds one new state per
action (two when a phase is passed through), and the history is a linked list, so an
action costs the same at the start and at the end of a long game.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, NamedTuple, cast

import attrs

from ._limits import MAX_DOCUMENT_CHARS
from .actions import (
    FOLD,
    LEAVE,
    PLAY_ACTIONS,
    TAKE,
    Action,
    Exchange,
    Fold,
    LeaveCritical,
    PlayCard,
    Shuffle,
    TakeCritical,
)
from .cards import DECK, Card, Suit
from .checks import check_instance, check_int, check_rng
from .display import render_state
from .errors import IllegalActionError
from .exchange_options import exchange_options
from .facts import SUITS, DealFacts
from .phases import AUTO_TRIGGERS, DECIDERS, Decider, Phase
from .position import Position
from .rules import Rules, Schleck
from .scoring import deal_points, game_result, game_returns, post_scores
from .seats import left_of, right_of, seat_order
from .summary import DealSummary, PastDeals
from .tables import CRITICAL_MASK, FULL_DECK, bits
from .tricks import PlayedTrick, Plays
from .tricks import _best_play as best_play
from .tricks import _explain_illegal_play as explain_illegal_play
from .tricks import _legal_play_mask as legal_play_mask
from .turns import seat_may_act, turn_message

if TYPE_CHECKING:
    from .records import GameRecord
    from .views import PlayerView

__all__ = ["GameState", "new_game", "next_game"]

_Node = tuple[Any, int | None, Action]
"""History as a linked list: ``(previous node or None, seat or None, action)``."""


def _history_tuple(node: _Node | None) -> tuple[tuple[int | None, Action], ...]:
    out = []
    while node is not None:
        out.append((node[1], node[2]))
        node = node[0]
    out.reverse()
    return tuple(out)


_PLAY_PAIRS: Final = tuple(tuple((seat, card) for card in range(32)) for seat in range(4))
"""Shared ``(seat, card)`` pairs for tricks, so playing a card allocates one tuple less."""
_PLAY_SINGLES: Final = tuple(tuple((pair,) for pair in pairs) for pairs in _PLAY_PAIRS)
"""``((seat, card),)``, shared: a lead is this tuple itself, a later card one concatenation."""
_PLAYS: Final = tuple(
    tuple(tuple(PLAY_ACTIONS[suit * 8 + i] for i in bits(byte)) for byte in range(256))
    for suit in range(4)
)
"""``_PLAYS[suit][byte]``: the PlayCard actions of one suit's eight bits of a hand mask."""


class _Deal(NamedTuple):
    """The deal fields that change a few times a deal, never on a card played (R11–R21).

    Grouped in one field of :class:`GameState`, so that playing a card (the commonest
    action by far) copies one reference for all of them.
    """

    pack: tuple[int, ...]
    """The undealt cards, top first; the stock once dealt (R15)."""
    trump: int
    """The trump card's index, -1 before it is turned (R15)."""
    took_trump: bool
    folded: tuple[bool, ...]
    exchanged: tuple[int, ...]
    """Per seat, how many cards he exchanged, -1 if undecided or folded."""
    discards: tuple[int, ...]
    """Per seat, the bitmask of the cards he discarded."""
    cut: tuple[tuple[int, int, bool], ...]
    """The cutting ritual: ``(seat who looked, card index, taken)`` (R12, R13)."""


class _Game(NamedTuple):
    """The fields that change once a deal, at the score, and where the history starts."""

    num_players: int
    rules: Rules
    dealer: int
    deal_number: int
    scores: tuple[int, ...]
    start: Position
    """The position the state's history starts from."""
    past: PastDeals
    """The public record of the finished deals, shared with the parent state."""


def _fresh_deal(
    n: int, pack: tuple[int, ...] = (), cut: tuple[tuple[int, int, bool], ...] = ()
) -> _Deal:
    """The deal fields before the trump card is turned: nobody folded or exchanged."""
    return _Deal(pack, -1, False, (False,) * n, (-1,) * n, (0,) * n, cut)


_LEFT: Final = tuple(tuple(left_of(seat, n) for seat in range(n)) for n in range(5))
"""``_LEFT[n][seat]`` is ``left_of(seat, n)``: a table for the card played, the hot path."""
_DEFAULT_RULES: Final = Rules()
_NO_DEALS: Final = PastDeals()
_STOCK_LIMIT: Final = 3  # R18: at most 3 cards with the stock (non-dealers)


@attrs.frozen(slots=True, repr=False, weakref_slot=False, unsafe_hash=False)
class GameState(DealFacts):
    """Everything about a game at one moment; immutable.

    Create one with :func:`new_game`; move on with :meth:`apply`.  Read-only
    attributes describe the game (``num_players``, ``rules``, ``phase``, ``dealer``,
    ``deal_number``, ``scores``, ``current_player``, ``last_deal``, ``winners``,
    ``losers``); properties describe the deal in progress with :class:`Card` objects
    (``hands``, ``stock``, ``trump_card``, ``trick`` …).

    Meaning of the deal fields: during the cut ritual ``hands`` holds the Criticals taken
    so far and ``stock`` the whole undealt pack; a folded player keeps his five cards in
    ``hands``; ``trump_card`` is the turned-up card for the whole deal whether or not the
    dealer took it; ``stock`` is top first.  Between deals (phase DEAL) and at the end
    no cards are out; the finished deal is in ``last_deal``.

    States compare equal when every field, the history included, is equal, and they
    are hashable, so they can be dictionary keys in a search; the hash reads the
    position and the current deal only, so it costs the same at any length of game.
    A state holds every hidden card: show a player :meth:`view` instead.

    Attributes:
        num_players: 2, 3 or 4 (R1).
        rules: the variants in force (:class:`~bohmisch_watten.Rules`).
        phase: where the deal stands (:class:`~bohmisch_watten.Phase`); never SCORE,
            which ``apply()`` passes through.
        dealer: the dealer's seat in this deal (R2–R4).
        deal_number: 1 for the first deal of the game; R21.1 depends on it.
        scores: per seat, the score before this deal's points (R28–R32).
        current_player: the seat to act, or None at a chance node and at the end.

    Example:
        >>> from bohmisch_watten import new_game
        >>> state = new_game(3, dealer=2)
        >>> state.is_chance_node, state.forehand, state.cutter
        (True, 0, 1)
    """

    phase: Phase
    current_player: int | None
    # What changes with every card: separate fields, so that playing one copies little.
    _hands: tuple[int, ...]
    _trick: Plays
    _tricks: tuple[PlayedTrick, ...]
    _tricks_won: tuple[int, ...]
    # What changes a few times a deal, and what changes once a deal: one field each.
    _deal: _Deal
    _game: _Game
    _history: _Node | None = attrs.field(eq=_history_tuple)
    _hash: int = attrs.field(init=False, eq=False, repr=False, hash=False)
    """The cached hash; left unset by ``__init__`` (nothing to pay per ``apply()``)."""

    def __hash__(self) -> int:
        """Hash the position and the current deal, not the history: constant cost.

        Equal states have equal fields, so they hash equal; computed once per state.
        """
        try:
            return self._hash
        except AttributeError:
            value = hash(
                (
                    self.phase, self.current_player, self._hands, self._trick, self._tricks,
                    self._tricks_won, self._deal, self._game[:5],
                )
            )  # fmt: skip
            object.__setattr__(self, "_hash", value)
            return value

    # ---------------------------------------------- the grouped fields, by name

    @property
    def num_players(self) -> int:
        """2, 3 or 4 (R1)."""
        return self._game[0]

    @property
    def rules(self) -> Rules:
        """The variants in force."""
        return self._game[1]

    @property
    def dealer(self) -> int:
        """The dealer's seat in this deal (R2–R4)."""
        return self._game[2]

    @property
    def deal_number(self) -> int:
        """1 for the first deal of the game (R21.1)."""
        return self._game[3]

    @property
    def scores(self) -> tuple[int, ...]:
        """Per seat, the score before this deal's points (R28–R32)."""
        return self._game[4]

    @property
    def _pack(self) -> tuple[int, ...]:
        return self._deal[0]

    @property
    def _trump(self) -> int:
        return self._deal[1]

    @property
    def _took_trump(self) -> bool:
        return self._deal[2]

    @property
    def _folded(self) -> tuple[bool, ...]:
        return self._deal[3]

    @property
    def _exchanged(self) -> tuple[int, ...]:
        return self._deal[4]

    @property
    def _discards(self) -> tuple[int, ...]:
        return self._deal[5]

    @property
    def _cut(self) -> tuple[tuple[int, int, bool], ...]:
        return self._deal[6]

    @property
    def folded(self) -> tuple[bool, ...]:
        """Per seat, whether that player folded in this deal (R18, R23)."""
        return self._deal[3]

    # ------------------------------------------------------------------ reading

    @property
    def is_chance_node(self) -> bool:
        """True when the next action is chance's: a :class:`Shuffle` (R11)."""
        return self.phase is Phase.DEAL

    @property
    def is_terminal(self) -> bool:
        """True when the game is over (R31–R34)."""
        return self.phase is Phase.GAME_OVER

    @property
    def forehand(self) -> int:
        """The seat left of the dealer: first to receive, decide and lead (R2)."""
        return left_of(self.dealer, self.num_players)

    @property
    def cutter(self) -> int:
        """The seat right of the dealer, who cuts (R2)."""
        return right_of(self.dealer, self.num_players)

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Each seat's cards, sorted (folded players keep theirs, set aside)."""
        return tuple(tuple(DECK[i] for i in bits(h)) for h in self._hands)

    @property
    def stock(self) -> tuple[Card, ...]:
        """The face-down stock, top first; during the cut ritual, the undealt pack (R15)."""
        return tuple(DECK[i] for i in self._pack)

    @property
    def active_players(self) -> tuple[int, ...]:
        """The seats still in this deal (not folded), clockwise from seat 0."""
        return tuple(seat for seat, out in enumerate(self._folded) if not out)

    @property
    def discards(self) -> tuple[tuple[Card, ...], ...]:
        """Per seat, the cards he discarded in the exchange (hidden from others, R23)."""
        return tuple(tuple(DECK[i] for i in bits(m)) for m in self._discards)

    @property
    def cut_cards(self) -> tuple[tuple[int, Card, bool], ...]:
        """The cutting ritual so far: ``(seat who looked, card, taken)`` in order (R12, R13).

        A taken card is public; a card looked at and not taken is known only to that seat.
        """
        return tuple((seat, DECK[i], taken) for seat, i, taken in self._cut)

    @property
    def history(self) -> tuple[tuple[int | None, Action], ...]:
        """Every action since :attr:`start_position`: ``(seat, action)``, seat None for chance.

        For a game from :func:`new_game` that is every action of the game.
        """
        return _history_tuple(self._history)

    @property
    def _start(self) -> Position:
        return self._game[5]

    @property
    def _past(self) -> PastDeals:
        return self._game[6]

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning seats once the game is over, else empty (R34)."""
        if self.phase is not Phase.GAME_OVER:
            return ()
        return game_result(self.scores, self.rules)[0]

    @property
    def losers(self) -> tuple[int, ...]:
        """The losing seats once the game is over, else empty (R34)."""
        if self.phase is not Phase.GAME_OVER:
            return ()
        return game_result(self.scores, self.rules)[1]

    @property
    def start_position(self) -> Position:
        """Where this state's :attr:`history` starts: the game's first deal for a state
        from :func:`new_game`, the given position for :meth:`from_position`."""
        return self._start

    def _previous_folds(self) -> tuple[bool, ...]:
        """Per seat, whether he folded in the previous deal (R21.4)."""
        last = self._past.last
        return self._start.folded if last is None else last.folded

    @property
    def last_deal(self) -> DealSummary | None:
        """The summary of the previous deal (tricks, points), None if there is none.

        None in the first deal of a game and in the first deal of a game started with
        :meth:`from_position`.
        """
        return self._past.last

    @property
    def past_deals(self) -> PastDeals:
        """Every finished deal this state knows of, oldest first (public facts only).

        For a game from :func:`new_game` these are all the deals before the current one;
        for a game from :meth:`from_position`, the deals played since that position.
        """
        return self._past

    @property
    def position(self) -> Position:
        """The :class:`~bohmisch_watten.Position` at the start of the current deal.

        Once the game is over it is the position the final scores would give: the next
        dealer (R4), the next deal number, the final scores and the last deal's folds —
        a position from which no deal is played, since someone has won (R34).

        Example:
            >>> from bohmisch_watten import new_game
            >>> str(new_game(3, dealer=1).position)
            'p3/d1/n1/s20.20.20/f000/default'
        """
        if self.phase is Phase.GAME_OVER:
            n = self.num_players
            return Position(
                n, self.rules, left_of(self.dealer, n), self.deal_number + 1, self.scores,
                self._previous_folds(),
            )  # fmt: skip
        start = self._start
        if self.deal_number == start.deal_number:
            return start
        return Position(
            self.num_players, self.rules, self.dealer, self.deal_number, self.scores,
            self._previous_folds(),
        )  # fmt: skip

    @staticmethod
    def from_position(position: Position) -> GameState:
        """A game at the chance node of ``position``'s deal: set up any situation.

        Like a chess FEN: "deal 7, scores 3/12/20/8, seat 2 folded last deal" without
        playing up to it.  The state's :attr:`history` starts there (empty) and it has no
        record of earlier deals (:attr:`last_deal` is None).

        Raises:
            TypeError: if ``position`` is not a :class:`~bohmisch_watten.Position`.
            ValueError: if its scores already end the game (R31–R34): no deal follows.

        Example:
            >>> from bohmisch_watten import GameState, Position
            >>> state = GameState.from_position(Position.parse("p2/d1/n4/s7.2/f00/default"))
            >>> state.scores, state.dealer, state.deal_number
            ((7, 2), 1, 4)
        """
        if not isinstance(position, Position):
            raise TypeError(f"position must be a Position, got {type(position).__name__}")
        winners, _ = game_result(position.scores, position.rules)
        if winners:
            raise ValueError(
                f"position {position}: the scores already end the game (R31-R34); no deal follows"
            )
        return _at_position(position)

    def __str__(self) -> str:
        """A small table for people: cards, scores, trick, whose turn (see display.py)."""
        return render_state(self)

    def __repr__(self) -> str:
        turn = "chance" if self.current_player is None else f"seat {self.current_player}"
        if self.is_terminal:
            turn = f"winners {list(self.winners)}, losers {list(self.losers)}"
        return (
            f"<GameState {self.num_players} players, deal {self.deal_number}, "
            f"{self.phase.name}, {turn}, scores {list(self.scores)}>"
        )

    # ------------------------------------------------------------------ copying

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle the history as a flat tuple, so a state of any length pickles.

        The linked history would make pickle recurse once per action.
        """
        values = tuple(getattr(self, name) for name in _FIELD_NAMES)
        return (_restore_state, (values, _history_tuple(self._history)))

    def __copy__(self) -> GameState:
        """A state is immutable: its copy is itself."""
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> GameState:
        """A state is immutable and shares nothing mutable: its deep copy is itself."""
        return self

    # ------------------------------------------------------------ legal actions

    def legal_actions(self) -> tuple[Action, ...]:
        """Every action the player to act may take, without duplicates, in a fixed order.

        Empty at a chance node (use :meth:`sample_chance`, or any :class:`Shuffle` of the
        32 cards) and at the end of the game.
        """
        phase = self.phase
        if phase is Phase.PLAY:
            seat = self.current_player
            assert seat is not None  # only the shuffle is chance (R11)
            trick = self._trick
            mask = self._hands[seat]
            if trick:  # R24: the leader may lead any card
                mask = legal_play_mask(
                    mask, trick, self._deal.trump >> 3, self._game.rules.must_head
                )
            return (
                _PLAYS[0][mask & 255]
                + _PLAYS[1][mask >> 8 & 255]
                + _PLAYS[2][mask >> 16 & 255]
                + _PLAYS[3][mask >> 24]
            )
        if phase is Phase.EXCHANGE:
            return self._exchange_actions()
        if phase is Phase.CUT:
            return (TAKE, LEAVE)
        return ()

    def _exchange_actions(self) -> tuple[Action, ...]:
        seat = self.current_player
        assert seat is not None  # only the shuffle is chance (R11)
        stock = len(self._deal.pack)
        game = self._game
        if seat == game.dealer:  # R19: the dealer plays and may take the trump card
            return exchange_options(
                self._hands[seat], min(game.rules.dealer_stock_limit, stock), True
            )
        plain = exchange_options(self._hands[seat], min(_STOCK_LIMIT, stock), False)
        if self.fold_forbidden_by() is None:  # R18, R21
            return (FOLD, *plain)
        return plain

    def fold_forbidden_by(self, seat: int | None = None) -> str | None:
        """Why ``seat`` (default: the player to act) may not fold now, or None (R21).

        The reason names the first of the six conditions of R21 that applies.
        """
        if seat is None:
            seat = self.current_player
        if seat is None or self.phase is not Phase.EXCHANGE:
            return "R18: nobody is deciding whether to fold now"
        game = self._game  # read once: this runs at every exchange decision
        if game.deal_number == 1:
            return "R21.1: nobody may fold in the first deal of the game"
        if self._deal.trump >> 3 == Suit.HEARTS:
            return "R21.2: nobody may fold when Hearts are trumps"
        score = game.scores[seat]
        if score <= game.rules.min_fold_score:
            return (
                f"R21.3: seat {seat} may not fold with {game.rules.min_fold_score} points"
                f" or fewer (has {score})"
            )
        if self._previous_folds()[seat]:
            return f"R21.4: seat {seat} folded in the previous deal"
        if seat == game.dealer:
            return "R21.5: the dealer must play"
        n = game.num_players
        if seat == right_of(game.dealer, n) and all(
            self._deal.folded[s] for s in range(n) if s not in (seat, game.dealer)
        ):
            return f"R21.6: seat {seat} is the last non-dealer to decide and all others folded"
        return None

    def is_legal(self, action: object, *, seat: int | None = None) -> bool:
        """Whether :meth:`apply` would accept ``action`` (chance nodes included).

        With ``seat``, also whether that seat is the one to act: False for any other
        seat, and for every seat at a chance node or at the end.

        Raises:
            TypeError: naming ``seat`` if it is neither None nor an int.
            ValueError: naming ``seat`` if it is not a seat of this game.
        """
        if seat is not None and not seat_may_act(seat, self.current_player, self.num_players):
            return False
        if self.phase is Phase.DEAL:
            return isinstance(action, Shuffle) and _pack_problem(action.pack) is None
        if isinstance(action, PlayCard) and self.phase is Phase.PLAY:
            actor = self.current_player
            assert actor is not None  # only the shuffle is chance (R11)
            mask = legal_play_mask(
                self._hands[actor], self._trick, self._trump >> 3, self.rules.must_head
            )
            return bool(mask >> action.card.index & 1)
        return action in self.legal_actions()

    def sample_chance(self, rng: random.Random) -> Shuffle:
        """A uniformly random :class:`Shuffle` drawn from the caller's generator (R11).

        The state stores no generator: the same seed always gives the same game.

        Raises:
            TypeError: if ``rng`` is not a ``random.Random``.
            IllegalActionError: if this is not a chance node.
        """
        check_rng(rng, "sample_chance(rng)")
        if self.phase is not Phase.DEAL:
            raise IllegalActionError(f"R11: not a chance node (phase {self.phase.name})")
        pack = list(DECK)
        rng.shuffle(pack)
        return Shuffle(pack)

    def returns(self) -> tuple[float, ...]:
        """Per seat, +1.0 for a winner, -1.0 for a loser, 0.0 otherwise (R34).

        All 0.0 until the game is over, as OpenSpiel's ``returns()``.  Per-deal rewards
        (minus the points of each deal) are in :attr:`last_deal` ``.points``.

        Example:
            >>> from bohmisch_watten import new_game
            >>> new_game(3).returns()
            (0.0, 0.0, 0.0)
        """
        return game_returns(self.num_players, self.winners, self.losers)

    # ----------------------------------------------------------------- views

    def view(self, player: int) -> PlayerView:
        """What seat ``player`` may know now: a :class:`PlayerView` (R13, R23).

        Raises:
            TypeError: naming ``player`` if it is not an int.
            ValueError: naming ``player`` if it is not a seat of this game.
        """
        from .views import make_view  # views imports this module

        return make_view(self, player)

    def _repr_svg_(self) -> str:
        """Every hand face up, for Jupyter (:func:`~bohmisch_watten.svg.state_svg`)."""
        from .svg import state_svg  # svg imports this module

        return state_svg(self)

    # ------------------------------------------------- records and serialization

    def record(self) -> GameRecord:
        """The game so far as a :class:`~bohmisch_watten.records.GameRecord`.

        Start position, the public record of the deals before it and every action
        since: ``replay(state.record())`` gives back an equal state.
        """
        from .records import GameRecord

        start = self._start
        played = self.deal_number - start.deal_number + (self.phase is Phase.GAME_OVER)
        past = tuple(self._past)
        past = past[: len(past) - played]  # the deals before the start, not in the history
        return GameRecord(
            self.num_players, self.rules, past[0].dealer if past else start.dealer,
            tuple(a for _, a in self.history), start=start, past=past,
        )  # fmt: skip

    def to_json(self, *, indent: int | None = None) -> str:
        """This state as a JSON document: its record plus a snapshot of every field.

        See :mod:`bohmisch_watten.serialization`; :meth:`from_json` reads it back.
        """
        from .serialization import to_json

        return to_json(self, indent=indent)

    @staticmethod
    def from_json(text: str | bytes, *, max_chars: int = MAX_DOCUMENT_CHARS) -> GameState:
        """Read a state document written by :meth:`to_json`, checking it by replay.

        ``max_chars`` is the size limit of every loader, ``MAX_DOCUMENT_CHARS``.

        Raises:
            FormatError: for anything but a state the rules can produce, see
                :func:`bohmisch_watten.serialization.state_from_json`.
        """
        from .serialization import state_from_json

        return state_from_json(text, max_chars=max_chars)

    # -------------------------------------------------------------------- apply

    def apply(self, action: Action, *, seat: int | None = None) -> GameState:
        """The state after ``action``; this state is unchanged.

        ``seat`` is who sends the action.  A server relaying players' actions passes it,
        so that an action from a seat that is not to act (or from any seat at a chance
        node) is refused with a message that says whose turn it is and nothing else.
        Without it the action is taken for the seat to act (or for chance).

        Phases in which nobody has a choice (the cut when no Critical is offered, and
        the scoring) are passed through here, each by a transition of the phase machine.
        The action need not come from :meth:`legal_actions`: equal actions are
        interchangeable, so a UI may build one from a click.

        Raises:
            IllegalActionError: for anything not in :meth:`legal_actions` (at a chance
                node: anything but a :class:`Shuffle` of the 32 cards), naming the rule;
                for a ``seat`` that is not to act.
            TypeError: naming ``seat`` if it is neither None nor an int.
            ValueError: naming ``seat`` if it is not a seat of this game.

        Example:
            >>> from bohmisch_watten import DECK, Card, Exchange, Fold, Shuffle
            >>> from bohmisch_watten import IllegalActionError, new_game
            >>> state = new_game(2).apply(Shuffle(DECK))  # a known pack, top card first
            >>> " ".join(str(card) for card in state.hands[1])
            'E7 E8 E9 EA G7'
            >>> after = state.apply(Exchange({Card.parse("E8"), Card.parse("G7")}))
            >>> after.exchanged, " ".join(str(card) for card in after.hands[1])
            ((None, 2), 'E7 E9 EA G10 GU')
            >>> try:
            ...     after.apply(Fold())
            ... except IllegalActionError as error:
            ...     print(error)
            R21.1: nobody may fold in the first deal of the game
            >>> try:
            ...     after.apply(Fold(), seat=1)
            ... except IllegalActionError as error:
            ...     print(error)
            R18: it is seat 0's turn, not seat 1's
        """
        if seat is not None and not seat_may_act(seat, self.current_player, self.num_players):
            raise IllegalActionError(turn_message(self.phase, self.current_player, seat))
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise IllegalActionError(
                f"not an action: {action!r:.60} ({type(action).__name__}); expected "
                "Shuffle, TakeCritical, LeaveCritical, Fold, Exchange or PlayCard"
            )
        trigger, effect, deciders = handler
        decide = deciders.get(self.phase)
        if decide is None:
            raise IllegalActionError(_wrong_phase(self, trigger, action))
        state = effect(self, action, decide)
        auto = _AUTO.get(state.phase)
        while auto is not None:
            dest = auto[0](state, None)
            if dest is None:
                break
            state = auto[1](state, dest)
            auto = _AUTO.get(state.phase)
        return state


# ---------------------------------------------------------------------- effects
# Each effect checks its action against the rules, asks the compiled machine for the
# destination and builds the one new state.  Positional construction is deliberate:
# it is the cheapest way to make a frozen attrs instance.


def _wrong_phase(state: GameState, trigger: str, action: object) -> str:
    if state.phase is Phase.GAME_OVER:
        return "R31: the game is over; no action can be applied"
    where = {
        "shuffle": ("R11", "at a chance node (phase DEAL)"),
        "take": ("R12", "when a Critical is offered in the cutting ritual (phase CUT)"),
        "leave": ("R12", "when a Critical is offered in the cutting ritual (phase CUT)"),
        "fold": ("R18", "in the exchange (phase EXCHANGE)"),
        "exchange": ("R18", "in the exchange (phase EXCHANGE)"),
        "play": ("R24", "in trick play (phase PLAY)"),
    }[trigger]
    name = type(action).__name__
    return f"{where[0]}: {name} is only possible {where[1]}; the phase is {state.phase.name}"


_ALL_INDICES: Final = frozenset(range(32))
_INDEX_OF_ID: Final[dict[int, int]] = {id(card): card.index for card in DECK}
"""A card's index by the identity of the card: the 32 cards are singletons that live as
long as the module, so no other object has their ids (cheaper than hashing a card)."""


def _pack_problem(pack: tuple[object, ...]) -> str | None:
    for card in pack:
        if type(card) is not Card:
            return f"R11: a shuffle holds Card objects only, got {card!r:.20}"
    if len(pack) != 32:
        return f"R11: a shuffle must hold all 32 cards once, got {len(pack)} cards"
    mask = 0
    for card in pack:
        mask |= 1 << _INDEX_OF_ID[id(card)]
    if mask != FULL_DECK:
        missing = ", ".join(str(DECK[i]) for i in bits(FULL_DECK & ~mask))
        return f"R11: a shuffle must hold all 32 cards once; missing {missing}"
    return None


def _first_look(
    state: GameState, pack: tuple[int, ...], cut: tuple[tuple[int, int, bool], ...]
) -> tuple[tuple[tuple[int, int, bool], ...], int | None]:
    """The next step of the ritual: who looks at the bottom card and whether it is offered.

    Returns the ritual record with the new look appended (if anybody looks) and the seat
    to decide (None when the ritual is over).  R12 (alternate), R14 (cutter_only, none).
    """
    schleck = state.rules.schleck
    step = len(cut)
    if schleck is Schleck.NONE or step >= 3 or (cut and not cut[-1][2]):
        return cut, None
    cutter = right_of(state.dealer, state.num_players)
    seat = cutter if schleck is Schleck.CUTTER_ONLY or step % 2 == 0 else state.dealer
    card = pack[-1]
    cut = (*cut, (seat, card, False))
    return cut, (seat if CRITICAL_MASK >> card & 1 else None)


def _shuffle(state: GameState, action: Shuffle, decide: Decider) -> GameState:
    found = tuple(map(_INDEX_OF_ID.get, map(id, action.pack)))
    if len(found) != 32 or set(found) != _ALL_INDICES:  # each of the 32 cards once (R11)
        raise IllegalActionError(_pack_problem(action.pack) or "R11: not a permutation")
    pack = cast(tuple[int, ...], found)
    dest = decide(state, action)
    assert dest is not None
    cut, seat = _first_look(state, pack, ())
    n = state.num_players
    return _make(
        dest, seat, (0,) * n, (), (), (0,) * n, _fresh_deal(n, pack, cut), state._game,
        (state._history, None, action),
    )  # fmt: skip


def _take_or_leave(
    state: GameState, action: TakeCritical | LeaveCritical, decide: Decider
) -> GameState:
    dest = decide(state, action)
    assert dest is not None
    seat = state.current_player
    assert seat is not None  # only the shuffle is chance (R11)
    deal = state._deal
    pack, hands, cut = deal.pack, state._hands, deal.cut
    if isinstance(action, TakeCritical):  # R12: into the hand, shown to everybody (R13)
        card = pack[-1]
        pack = pack[:-1]
        hands = tuple(h | (1 << card) if s == seat else h for s, h in enumerate(hands))
        cut = (*cut[:-1], (seat, card, True))
        cut, nxt = _first_look(state, pack, cut)
    else:  # R12: the ritual ends; the card stays at the bottom (R13)
        nxt = None
    return _make(
        dest, nxt, hands, (), (), state._tricks_won,
        _Deal(pack, -1, False, deal.folded, deal.exchanged, deal.discards, cut), state._game,
        (state._history, seat, action),
    )  # fmt: skip


def _deal(state: GameState, dest: Phase) -> GameState:
    """R15: packets of 3 − k and 2 clockwise from forehand, the trump card between."""
    n, dealer, deal = state.num_players, state.dealer, state._deal
    pack = deal.pack
    order = seat_order(dealer, n)
    hands = list(state._hands)
    pos = 0
    for seat in order:
        take = 3 - hands[seat].bit_count()
        for i in pack[pos : pos + take]:
            hands[seat] |= 1 << i
        pos += take
    trump = pack[pos]
    pos += 1
    for seat in order:
        for i in pack[pos : pos + 2]:
            hands[seat] |= 1 << i
        pos += 2
    return _make(
        dest, order[0], tuple(hands), (), (), state._tricks_won,
        _Deal(pack[pos:], trump, False, deal.folded, deal.exchanged, deal.discards, deal.cut),
        state._game, state._history,
    )  # fmt: skip


def _next_active(folded: tuple[bool, ...], seat: int) -> int:
    n = len(folded)
    seat = left_of(seat, n)
    while folded[seat]:
        seat = left_of(seat, n)
    return seat


def _fold(state: GameState, action: Fold, decide: Decider) -> GameState:
    reason = state.fold_forbidden_by()
    if reason is not None:
        raise IllegalActionError(reason)
    dest = decide(state, action)
    assert dest is not None
    seat = state.current_player
    assert seat is not None  # only the shuffle is chance (R11)
    deal = state._deal
    folded = tuple(f or s == seat for s, f in enumerate(deal.folded))
    return _make(
        dest, left_of(seat, state.num_players), state._hands, (), (), state._tricks_won,
        _Deal(deal.pack, deal.trump, False, folded, deal.exchanged, deal.discards, deal.cut),
        state._game,
        (state._history, seat, action),
    )  # fmt: skip


def _exchange_problem(state: GameState, seat: int, action: Exchange) -> str:
    """Why ``action`` is not a legal exchange for ``seat`` (the error path only)."""
    hand = state._hands[seat]
    mask = action._mask
    if mask & ~hand:
        stray = ", ".join(str(DECK[i]) for i in bits(mask & ~hand))
        return f"R18: seat {seat} cannot discard {stray}: not in his hand"
    dealer = seat == state.dealer
    take = action.take_trump_card
    if take and not dealer:
        return f"R19: only the dealer (seat {state.dealer}) may take the trump card"
    if take and not mask:
        return "R19: taking the trump card needs one card of the hand in exchange"
    draws = mask.bit_count() - take
    limit = state.rules.dealer_stock_limit if dealer else _STOCK_LIMIT
    if draws > limit:
        who = "the dealer" if dealer else "a player"
        rule = "R19" if dealer else "R18"
        return f"{rule}: {who} may exchange at most {limit} cards with the stock, not {draws}"
    return f"R20: the stock holds only {len(state._pack)} cards, cannot draw {draws}"


def _exchange(state: GameState, action: Exchange, decide: Decider) -> GameState:
    seat = state.current_player
    assert seat is not None  # only the shuffle is chance (R11)
    mask = action._mask
    take = action.take_trump_card
    hand = state._hands[seat]
    size = mask.bit_count()
    draws = size - take
    deal, game = state._deal, state._game
    pack = deal.pack
    dealer = seat == game.dealer
    if (
        mask & ~hand
        or draws > (game.rules.dealer_stock_limit if dealer else _STOCK_LIMIT)
        or draws > len(pack)
        or (take and (not dealer or not mask))
    ):
        raise IllegalActionError(_exchange_problem(state, seat, action))
    dest = decide(state, action)
    assert dest is not None
    hand &= ~mask
    for i in pack[:draws]:
        hand |= 1 << i
    if take:
        hand |= 1 << deal.trump
    # R24: after the dealer, forehand leads, or the first active player after him.
    nxt = (
        _next_active(deal.folded, game.dealer)
        if dest is Phase.PLAY
        else left_of(seat, game.num_players)
    )
    return _make(
        dest, nxt, _replace(state._hands, seat, hand), (), (), state._tricks_won,
        _Deal(
            pack[draws:], deal.trump, take, deal.folded, _replace(deal.exchanged, seat, size),
            _replace(deal.discards, seat, deal.discards[seat] | mask), deal.cut,
        ),
        game, (state._history, seat, action),
    )  # fmt: skip


def _replace(values: tuple[int, ...], seat: int, value: int) -> tuple[int, ...]:
    """``values`` with ``values[seat]`` replaced: the cheapest copy for a few seats."""
    copy = list(values)
    copy[seat] = value
    return tuple(copy)


def _play(state: GameState, action: PlayCard, decide: Decider) -> GameState:
    seat = state.current_player
    assert seat is not None  # only the shuffle is chance (R11)
    card = action.card.index
    hands = state._hands
    hand = hands[seat]
    trick = state._trick
    deal = state._deal
    trump = deal.trump >> 3
    if trick:  # R24: any card may lead; R25, R26 for the others
        must_head = state._game.rules.must_head
        if not legal_play_mask(hand, trick, trump, must_head) >> card & 1:
            raise IllegalActionError(
                explain_illegal_play(seat, hand, card, trick, trump, must_head)
            )
    elif not hand >> card & 1:
        raise IllegalActionError(explain_illegal_play(seat, hand, card, trick, trump, True))
    dest = decide(state, action)
    assert dest is not None
    hands = _replace(hands, seat, hand & ~(1 << card))
    trick += _PLAY_SINGLES[seat][card]
    tricks, won = state._tricks, state._tricks_won
    folded = deal.folded
    if len(trick) == folded.count(False):  # R27: the trick is complete
        winner = best_play(trick, trump)[0]
        tricks = (*tricks, (trick, winner))
        won = _replace(won, winner, won[winner] + 1)
        trick = ()
        nxt: int | None = None if dest is Phase.SCORE else winner
    else:
        nxt = _LEFT[len(folded)][seat]
        if folded[nxt]:
            nxt = _next_active(folded, nxt)
    return _make(
        dest, nxt, hands, trick, tricks, won, deal, state._game, (state._history, seat, action)
    )


def _score(state: GameState, dest: Phase) -> GameState:
    """R29–R34: post the points, keep the deal readable, then a new deal or the end."""
    n, rules, dealer, deal_number, before, start, past = state._game
    deal = state._deal
    trump_suit = deal.trump >> 3
    points = deal_points(state._tricks_won, deal.folded, trump_suit, rules)
    scores = post_scores(before, points, rules)
    summary = DealSummary(
        deal_number=deal_number,
        dealer=dealer,
        trump_card=DECK[deal.trump],
        trump_suit=SUITS[trump_suit],
        trump_card_taken=deal.took_trump,
        folded=deal.folded,
        exchanged=state.exchanged,
        tricks=state.tricks,
        tricks_won=state._tricks_won,
        points=tuple([a - b for a, b in zip(scores, before, strict=True)]),
        scores=scores,
        doubled=trump_suit == Suit.HEARTS and rules.hearts_double,
        cut=tuple(
            (seat, DECK[card] if taken else None, taken, bool(CRITICAL_MASK >> card & 1))
            for seat, card, taken in deal.cut
        ),  # R13: a card looked at and not taken stays that seat's secret
    )
    if dest is not Phase.GAME_OVER:
        dealer, deal_number = left_of(dealer, n), deal_number + 1  # R4
    return _make(
        dest, None, (0,) * n, (), (), (0,) * n, _fresh_deal(n),
        _Game(n, rules, dealer, deal_number, scores, start, past.append(summary)),
        state._history,
    )  # fmt: skip


_FIELD_NAMES: Final = tuple(
    field.name for field in attrs.fields(GameState) if field.init and field.name != "_history"
)
"""The fields pickled as they are; the history (the last field) is flattened."""


class _Unfrozen(DealFacts):
    """A :class:`GameState` under construction: the same slots, no frozen ``__setattr__``.

    Same base, same slots, so CPython lets :func:`_make` turn one into a GameState by
    assigning ``__class__`` once its slots are filled.
    """

    __slots__ = GameState.__slots__


def _make(
    phase: Phase,
    current_player: int | None,
    hands: tuple[int, ...],
    trick: Plays,
    tricks: tuple[PlayedTrick, ...],
    tricks_won: tuple[int, ...],
    deal: _Deal,
    game: _Game,
    history: _Node | None,
) -> GameState:
    """``GameState(...)`` with the same arguments, at less than half the cost (the hot path).

    attrs' frozen ``__init__`` sets every field through ``object.__setattr__`` by name;
    this fills the slots of an :class:`_Unfrozen` twin by plain assignment, the fastest
    store Python has, then makes it a GameState.  Nothing else happens in ``__init__``
    for this class (no defaults, converters or validators), and ``tests/test_fast_paths.py``
    proves that both build equal values.
    """
    state: Any = _new_object(_Unfrozen)
    state.phase = phase
    state.current_player = current_player
    state._hands = hands
    state._trick = trick
    state._tricks = tricks
    state._tricks_won = tricks_won
    state._deal = deal
    state._game = game
    state._history = history
    state.__class__ = GameState
    return state  # type: ignore[no-any-return]


_new_object: Final = object.__new__


_Effect = Callable[[GameState, Any, Decider], GameState]
_AutoEffect = Callable[[GameState, Phase], GameState]


def _handler(trigger: str, effect: _Effect) -> tuple[str, _Effect, dict[Phase, Decider]]:
    """An action type's trigger, effect and the compiled machine's entries for it by phase."""
    return trigger, effect, {phase: d for (phase, t), d in DECIDERS.items() if t == trigger}


_HANDLERS: Final[dict[type, tuple[str, _Effect, dict[Phase, Decider]]]] = {
    PlayCard: _handler("play", _play),
    Exchange: _handler("exchange", _exchange),
    Fold: _handler("fold", _fold),
    TakeCritical: _handler("take", _take_or_leave),
    LeaveCritical: _handler("leave", _take_or_leave),
    Shuffle: _handler("shuffle", _shuffle),
}
_AUTO_EFFECTS: Final[dict[str, _AutoEffect]] = {"deal": _deal, "score": _score}
_AUTO: Final[dict[Phase, tuple[Decider, _AutoEffect]]] = {
    phase: (DECIDERS[(phase, trigger)], _AUTO_EFFECTS[trigger])
    for phase, trigger in AUTO_TRIGGERS.items()
}
"""The automatic triggers by phase: the compiled machine's entry and the effect."""


# ----------------------------------------------------------------- construction


def new_game(num_players: int = 4, *, rules: Rules = _DEFAULT_RULES, dealer: int = 0) -> GameState:
    """A new game at its first chance node (phase DEAL), every player at ``start_score``.

    Args:
        num_players: 2, 3 or 4 (R1).
        rules: the variants (RULES.md §8); default rules if omitted.
        dealer: the first dealer's seat (R3: chosen by the caller).

    Raises:
        TypeError: naming the argument, for an argument of the wrong type.
        ValueError: naming the argument, for a bad player count or seat.
    """
    check_int(num_players, "num_players", "new_game(num_players)")
    if num_players not in (2, 3, 4):
        raise ValueError(f"num_players must be 2, 3 or 4 (R1), got {num_players}")
    check_instance(rules, Rules, "rules", "new_game(rules=)")
    check_int(dealer, "dealer", "new_game(dealer=)")
    if not 0 <= dealer < num_players:
        raise ValueError(f"dealer must be a seat from 0 to {num_players - 1}, got {dealer}")
    return _at_position(Position.start(num_players, rules=rules, dealer=dealer))


def _at_position(position: Position) -> GameState:
    """The chance node of ``position``'s deal, with an empty history starting there."""
    n = position.num_players
    return GameState(
        Phase.DEAL, None, (0,) * n, (), (), (0,) * n, _fresh_deal(n),
        _Game(
            n, position.rules, position.dealer, position.deal_number, position.scores, position,
            _NO_DEALS,
        ),
        None,
    )  # fmt: skip


def _build_state(
    *,
    position: Position,
    past: PastDeals = _NO_DEALS,
    phase: Phase = Phase.DEAL,
    current_player: int | None = None,
    pack: tuple[int, ...] = (),
    hands: tuple[int, ...] | None = None,
    trump: int = -1,
    took_trump: bool = False,
    folded: tuple[bool, ...] | None = None,
    exchanged: tuple[int, ...] | None = None,
    discards: tuple[int, ...] | None = None,
    cut: tuple[tuple[int, int, bool], ...] = (),
    trick: Plays = (),
    tricks: tuple[PlayedTrick, ...] = (),
    tricks_won: tuple[int, ...] | None = None,
    history: _Node | None = None,
) -> GameState:
    """The one way other modules build a :class:`GameState`: by name, not by position.

    ``position`` is the start of the current deal and becomes the state's
    :attr:`~GameState.start_position` (the history, if any, starts there); ``past`` is
    the public record of earlier deals.  Cards are indices and hands bitmasks, as in the
    state's own fields.  With ``phase`` GAME_OVER, ``position`` is the position the final
    scores give (see :attr:`GameState.position`) and the result is the finished game.
    """
    n = position.num_players
    dealer, deal_number = position.dealer, position.deal_number
    if phase is Phase.GAME_OVER:
        dealer, deal_number = right_of(dealer, n), deal_number - 1
    return GameState(
        phase, current_player, (0,) * n if hands is None else hands, trick, tricks,
        (0,) * n if tricks_won is None else tricks_won,
        _Deal(
            pack, trump, took_trump, (False,) * n if folded is None else folded,
            (-1,) * n if exchanged is None else exchanged,
            (0,) * n if discards is None else discards, cut,
        ),
        _Game(n, position.rules, dealer, deal_number, position.scores, position, past),
        history,
    )  # fmt: skip


def _restore_state(
    values: tuple[Any, ...], history: tuple[tuple[int | None, Action], ...]
) -> GameState:
    """Unpickle a state: its fields and its history as a flat tuple (see ``__reduce__``)."""
    node: _Node | None = None
    for seat, action in history:
        node = (node, seat, action)
    make: Callable[..., GameState] = GameState
    return make(*values, node)


def next_game(state: GameState) -> GameState:
    """A new game with the same players and rules, the previous game's winner dealing (R5).

    With several winners the one with the lowest final score deals; still tied, the
    first of them clockwise from the previous dealer's left.

    Raises:
        TypeError: if ``state`` is not a :class:`GameState`.
        ValueError: if ``state`` is not the end of a game.
    """
    check_instance(state, GameState, "state", "next_game(state)")
    if not state.is_terminal:
        raise ValueError("next_game() needs a finished game (phase GAME_OVER)")
    n = state.num_players
    low = min(state.scores[w] for w in state.winners)
    order = seat_order(state.dealer, n)
    dealer = next(s for s in order if s in state.winners and state.scores[s] == low)
    return new_game(n, rules=state.rules, dealer=dealer)
