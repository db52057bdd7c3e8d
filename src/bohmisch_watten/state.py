"""The immutable game state: its fields, its public reads, and the facades (R1–R34).

One job in one file, although it is long: the :class:`GameState` class, every public
read of its fields in one place; the rule logic it calls lives in modules of its own.

A :class:`GameState` holds everything about a game at one moment, including hidden
cards.  It never changes: :meth:`GameState.apply` returns a new state, so old states stay
valid (free undo, safe sharing, search trees without copying).

Internally cards are integers (``Card.index``) and hands are bitmasks; the public
properties turn them into :class:`Card` objects.  ``apply()`` builds one new state per
action (two when a phase is passed through), and the history is a linked list, so an
action costs the same at the start and at the end of a long game.

The engine's other jobs each have a module of their own (internal, ``_`` names):

* :mod:`~bohmisch_watten._layout` — the field groups, by rate of change;
* :mod:`~bohmisch_watten._legal` — legal actions and the fold rule (R18–R26);
* :mod:`~bohmisch_watten._dispatch` — ``apply()``: action → phase machine → effect;
* :mod:`~bohmisch_watten._effects` — the effects and their error explainers;
* :mod:`~bohmisch_watten._construct` — building states (the fast path, by name, unpickling);
* :mod:`~bohmisch_watten._history` — the linked history and a deal's action walk.

This module keeps the class, its reads, hashing, pickling and copying, and the
one-line facades (``view``, ``record``, ``to_json`` …) that hand over to other modules.
"""

from __future__ import annotations

import random
import warnings
from typing import TYPE_CHECKING, Any, Final

import attrs

from ._checks import check_instance, check_int, check_rng
from ._construct import at_position, build_state, make, restore_state
from ._dispatch import apply as _dispatch_apply
from ._effects import bind
from ._history import Node, history_tuple
from ._layout import final_position
from ._legal import draw_shuffle, fold_forbidden_by, is_legal, legal_actions
from ._limits import MAX_DOCUMENT_CHARS
from .actions import Action, Shuffle
from .cards import DECK, Card
from .display import render_state
from .errors import FormatError, IllegalActionError
from .facts import CutLook, DealFacts, DealFields, DealScore, GameFields
from .notation import parse_action
from .phase import Phase
from .position import Position
from .rules import Rules
from .scoring import deal_points, game_result, game_returns, post_scores
from .seats import left_of, right_of, seat_order
from .summary import DealSummary, PastDeals
from .tables import bits
from .tricks import PlayedTrick, Plays

if TYPE_CHECKING:
    from .records import GameRecord
    from .views import PlayerView

__all__ = ["GameState", "new_game", "next_game"]

# The phases as module constants: ``Phase.PLAY`` looks the member up on the enum class
# at every use (a slow attribute access in CPython 3.11), a constant is one global read.
_DEAL: Final = Phase.DEAL
_GAME_OVER: Final = Phase.GAME_OVER


_DEFAULT_RULES: Final = Rules()
_new_tuple: Final = tuple.__new__
"""``tuple.__new__``: a NamedTuple from its fields without its Python ``__new__``."""


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

    The compact form is public and read-only, as in python-chess (``board.pawns``):
    cards are indices 0–31 (``Card.index``) and sets of cards bitmasks (bit ``i`` for
    ``DECK[i]``).  ``hand_masks``, ``trick_plays``, ``played_tricks`` and ``tricks_won``
    change with every card; ``deal_fields`` (:class:`~bohmisch_watten.facts.DealFields`)
    a few times a deal; ``game_fields`` (:class:`~bohmisch_watten.facts.GameFields`)
    once a deal; ``history_node`` is the history as a linked list.  Other modules read
    these, never private fields.

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
    hand_masks: tuple[int, ...]
    """Per seat, the bitmask of his cards (folded players keep theirs)."""
    trick_plays: Plays
    """The current trick as ``(seat, card index)`` pairs, leader first."""
    played_tricks: tuple[PlayedTrick, ...]
    """The completed tricks as ``((seat, card index) pairs, winner)``, in order (R27)."""
    tricks_won: tuple[int, ...]
    """Per seat, the tricks won in this deal so far."""
    # What changes a few times a deal, and what changes once a deal: one field each.
    deal_fields: DealFields
    """The deal's pack, trump card, folds, exchanges, discards and cut, compact (R11–R21)."""
    game_fields: GameFields
    """Players, rules, dealer, deal number, scores, start position and finished deals."""
    play_mask: int = attrs.field(eq=False, hash=False)
    """In phase PLAY, the cards the player to act may play, as a bitmask (R24–R26); else 0.

    Worked out once, when the state is made: :meth:`legal_actions` lists it and
    :meth:`apply` checks a card against it.  It follows from the other fields, so it
    takes no part in equality.
    """
    history_node: Node | None = attrs.field(eq=history_tuple)
    """The history as a linked list ``(previous node, seat, action)``, newest first."""
    is_chance_node: bool = attrs.field(init=False, eq=False, repr=False, hash=False)
    """True when the next action is chance's: a :class:`Shuffle` (R11).

    ``phase is Phase.DEAL``, kept as a field when the state is made: it is read at every
    step of a game loop, and a field reads faster than a property computes.
    """
    is_terminal: bool = attrs.field(init=False, eq=False, repr=False, hash=False)
    """True when the game is over (R31–R34): ``phase is Phase.GAME_OVER``, kept as a field."""
    _hash: int = attrs.field(init=False, eq=False, repr=False, hash=False)
    """The cached hash; left unset by ``__init__`` (nothing to pay per ``apply()``)."""
    _deal_score: DealScore = attrs.field(init=False, eq=False, repr=False, hash=False)
    """The cached :attr:`deal_score`; left unset until it is asked for."""

    def __attrs_post_init__(self) -> None:
        """Set the two flags that follow from the phase (the fast constructor sets them too)."""
        phase = self.phase
        object.__setattr__(self, "is_chance_node", phase is _DEAL)
        object.__setattr__(self, "is_terminal", phase is _GAME_OVER)

    def __hash__(self) -> int:
        """Hash the position and the current deal, not the history: constant cost.

        Equal states have equal fields, so they hash equal; computed once per state.
        """
        try:
            return self._hash
        except AttributeError:
            value = hash(
                (
                    self.phase, self.current_player, self.hand_masks, self.trick_plays,
                    self.played_tricks, self.tricks_won, self.deal_fields, self.game_fields[:5],
                )
            )  # fmt: skip
            object.__setattr__(self, "_hash", value)
            return value

    # ---------------------------------------------- the grouped fields, by name

    @property
    def num_players(self) -> int:
        """2, 3 or 4 (R1)."""
        return self.game_fields[0]

    @property
    def rules(self) -> Rules:
        """The variants in force."""
        return self.game_fields[1]

    @property
    def dealer(self) -> int:
        """The dealer's seat in this deal (R2–R4)."""
        return self.game_fields[2]

    @property
    def deal_number(self) -> int:
        """1 for the first deal of the game (R21.1)."""
        return self.game_fields[3]

    @property
    def scores(self) -> tuple[int, ...]:
        """Per seat, the score before this deal's points (R28–R32)."""
        return self.game_fields[4]

    @property
    def folded(self) -> tuple[bool, ...]:
        """Per seat, whether that player folded in this deal (R18, R23)."""
        return self.deal_fields[3]

    @property
    def trump_index(self) -> int:
        """The trump card's index (``Card.index``); -1 before it is turned (R15)."""
        return self.deal_fields[1]

    @property
    def trump_card_taken(self) -> bool:
        """Whether the dealer took the trump card in his exchange (R19)."""
        return self.deal_fields[2]

    @property
    def exchange_counts(self) -> tuple[int, ...]:
        """Per seat, how many cards he exchanged; -1 if undecided or folded (R23)."""
        return self.deal_fields[4]

    @property
    def deal_score(self) -> DealScore:
        """What the tricks won so far would give if the deal were scored now (R28–R34).

        The points, the scores once posted and the game's winners with them.  Computed
        once per state and kept: the phase machine's guard ``game_ends`` decides with it
        and the scoring then posts the same object, so the deal is scored once.

        Raises:
            ValueError: before the trump card is turned (no trump suit, nothing to score).
        """
        try:
            return self._deal_score
        except AttributeError:
            trump = self.deal_fields.trump
            if trump < 0:
                raise ValueError("deal_score: the trump card is not turned yet (R15)") from None
            rules = self.game_fields.rules
            points = deal_points(self.tricks_won, self.deal_fields.folded, trump >> 3, rules)
            scores = post_scores(self.game_fields.scores, points, rules)
            value = _new_tuple(DealScore, (points, scores, game_result(scores, rules)[0]))
            object.__setattr__(self, "_deal_score", value)
            return value

    # ------------------------------------------------------------------ reading

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
        return tuple(tuple(DECK[i] for i in bits(h)) for h in self.hand_masks)

    @property
    def stock(self) -> tuple[Card, ...]:
        """The face-down stock, top first; during the cut ritual, the undealt pack (R15)."""
        return tuple(DECK[i] for i in self.deal_fields.pack)

    @property
    def active_players(self) -> tuple[int, ...]:
        """The seats still in this deal (not folded), clockwise from seat 0."""
        return tuple(seat for seat, out in enumerate(self.deal_fields.folded) if not out)

    @property
    def discards(self) -> tuple[tuple[Card, ...], ...]:
        """Per seat, the cards he discarded in the exchange (hidden from others, R23).

        Every seat's, as the state knows every card;
        :attr:`PlayerView.discards <bohmisch_watten.PlayerView.discards>` is the seat's own.
        """
        return tuple(tuple(DECK[i] for i in bits(m)) for m in self.deal_fields.discards)

    @property
    def cut_looks(self) -> tuple[CutLook, ...]:
        """The cutting ritual so far, each look a :class:`~bohmisch_watten.facts.CutLook`
        ``(seat, card, taken, critical)`` in order (R12, R13).

        A taken card is public; a card looked at and not taken is known only to that
        seat, so :attr:`PlayerView.cut_looks <bohmisch_watten.PlayerView.cut_looks>` has
        the same looks with None for a card the seat may not know.
        """
        return tuple(
            CutLook(seat, DECK[i], taken, DECK[i].is_critical)
            for seat, i, taken in self.deal_fields.cut
        )

    @property
    def cut_cards(self) -> tuple[tuple[int, Card, bool], ...]:
        """Deprecated: ``(seat, card, taken)`` of each look; use :attr:`cut_looks`.

        It had three fields here and four on a view; :attr:`cut_looks` has the same
        four on both.
        """
        warnings.warn(
            "GameState.cut_cards is deprecated: use cut_looks, (seat, card, taken, critical)"
            " on the state and the view alike",
            DeprecationWarning,
            stacklevel=2,
        )
        return tuple((seat, DECK[i], taken) for seat, i, taken in self.deal_fields.cut)

    @property
    def history(self) -> tuple[tuple[int | None, Action], ...]:
        """Every action since :attr:`start_position`: ``(seat, action)``, seat None for chance.

        For a game from :func:`new_game` that is every action of the game.
        """
        return history_tuple(self.history_node)

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning seats once the game is over, else empty (R34)."""
        if self.phase is not _GAME_OVER:
            return ()
        return game_result(self.scores, self.rules)[0]

    @property
    def losers(self) -> tuple[int, ...]:
        """The losing seats once the game is over, else empty (R34)."""
        if self.phase is not _GAME_OVER:
            return ()
        return game_result(self.scores, self.rules)[1]

    @property
    def start_position(self) -> Position:
        """Where this state's :attr:`history` starts: the game's first deal for a state
        from :func:`new_game`, the given position for :meth:`from_position`."""
        return self.game_fields.start

    @property
    def previous_folds(self) -> tuple[bool, ...]:
        """Per seat, whether he folded in the previous deal (R21.4); public, as on a view."""
        game = self.game_fields
        folded = game.past.last_folded  # without building the summary (R21.4, each exchange)
        return game.start.folded if folded is None else folded

    @property
    def last_deal(self) -> DealSummary | None:
        """The summary of the previous deal (tricks, points), None if there is none.

        None in the first deal of a game and in the first deal of a game started with
        :meth:`from_position`.
        """
        return self.game_fields.past.last

    @property
    def past_deals(self) -> PastDeals:
        """Every finished deal this state knows of, oldest first (public facts only).

        For a game from :func:`new_game` these are all the deals before the current one;
        for a game from :meth:`from_position`, the deals played since that position.
        """
        return self.game_fields.past

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
        if self.phase is _GAME_OVER:
            game = self.game_fields
            return final_position(
                game.num_players, game.rules, game.dealer, game.deal_number, game.scores,
                self.previous_folds,
            )  # fmt: skip
        start = self.game_fields.start
        if self.deal_number == start.deal_number:
            return start
        return Position(
            self.num_players, self.rules, self.dealer, self.deal_number, self.scores,
            self.previous_folds,
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
        return at_position(position)

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
        return (restore_state, (values, history_tuple(self.history_node)))

    def __copy__(self) -> GameState:
        """A state is immutable: its copy is itself."""
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> GameState:
        """A state is immutable and shares nothing mutable: its deep copy is itself."""
        return self

    # --------------------------- legal actions and apply: functions of their modules

    legal_actions = legal_actions
    fold_forbidden_by = fold_forbidden_by
    is_legal = is_legal
    apply = _dispatch_apply

    def apply_text(self, text: str, *, seat: int | None = None) -> GameState:
        """:meth:`apply` for an action in notation: ``state.apply_text("play G8")``.

        Like python-chess's ``push_san`` beside ``push``: the text is parsed by
        :func:`~bohmisch_watten.parse_action` (``"exchange S9 +trump"``, ``"fold"``, any
        case) and applied as the action it names.  :meth:`apply` itself takes action
        objects only, so that it accepts exactly :meth:`legal_actions`.

        Raises:
            IllegalActionError: for a text that is no action notation, and for
                everything :meth:`apply` refuses, naming the rule.
            TypeError: naming ``seat`` if it is neither None nor an int.
            ValueError: naming ``seat`` if it is not a seat of this game.

        Example:
            >>> from bohmisch_watten import DECK, Shuffle, new_game
            >>> state = new_game(2).apply(Shuffle(DECK)).apply_text("exchange E8 G7")
            >>> state.apply_text("exchange G8", seat=0).exchanged
            (1, 2)
        """
        try:
            action = parse_action(text)
        except FormatError as error:  # the notation is wrong: as illegal as a wrong card
            raise IllegalActionError(str(error)) from error
        return _dispatch_apply(self, action, seat=seat)

    def sample_chance(self, rng: random.Random) -> Shuffle:
        """A uniformly random :class:`Shuffle` drawn from the caller's generator (R11).

        The state stores no generator: the same seed always gives the same game.

        Raises:
            TypeError: if ``rng`` is not a ``random.Random``.
            IllegalActionError: if this is not a chance node.
        """
        check_rng(rng, "sample_chance(rng)")
        if self.phase is not _DEAL:
            raise IllegalActionError(f"R11: not a chance node (phase {self.phase.name})")
        return draw_shuffle(rng)  # rng.shuffle of the deck, done faster

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

        start = self.start_position
        played = self.deal_number - start.deal_number + (self.phase is _GAME_OVER)
        past = tuple(self.past_deals)
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

    def to_text(self) -> str:
        """This state on one line, like a chess FEN: hands, stock, trump card, cut,
        exchanges, tricks (see :mod:`bohmisch_watten.state_text`); :meth:`from_text`
        reads it back."""
        from .state_text import state_to_text

        return state_to_text(self)

    @staticmethod
    def from_text(text: str | bytes, *, max_chars: int = MAX_DOCUMENT_CHARS) -> GameState:
        """Read the one-line text of :meth:`to_text`, checking it by playing it.

        Raises:
            FormatError: for anything but the text of a possible state, with the field
                and the rule.
        """
        from .state_text import state_from_text

        return state_from_text(text, max_chars=max_chars)

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


_FIELD_NAMES: Final = tuple(
    field.name for field in attrs.fields(GameState) if field.init and field.name != "history_node"
)
"""The fields pickled as they are; the history (the last field) is flattened."""
assert _FIELD_NAMES[-1] == "play_mask"  # restore_state() reads 0.3's pickles by this order


class _Unfrozen(DealFacts):
    """A :class:`GameState` under construction: the same slots, no frozen ``__setattr__``.

    Same base, same slots, so CPython lets :func:`~bohmisch_watten._construct.make` turn
    one into a GameState by assigning ``__class__`` once its slots are filled.
    """

    __slots__ = GameState.__slots__


bind(GameState, _Unfrozen)

# The names of 0.3, for code and pickles that refer to them.
_make = make
_build_state = build_state
_restore_state = restore_state
_Deal = DealFields
_Game = GameFields


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
    return at_position(Position.start(num_players, rules=rules, dealer=dealer))


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
