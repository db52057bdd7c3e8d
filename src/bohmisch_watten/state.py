"""The immutable game state, read top-down: fields, reads, legal actions, apply (R1–R34).

One job in one file, long as it is: the game state and every rule that moves it.

A :class:`GameState` holds everything about a game at one moment, including hidden
cards.  It never changes: :meth:`GameState.apply` returns a new state, so old states stay
valid (free undo, safe sharing, search trees without copying).

The class reads like OpenSpiel's ``hearts.cc``, one state with a pair of methods per
phase, in this order:

1. the fields, grouped by how often they change (every card; a few times a deal; once
   a deal), so that playing a card copies one reference per group;
2. the reads: every public property, cards as :class:`~bohmisch_watten.Card` objects;
3. the legal actions, per phase (``legal_actions``, ``_exchange_actions``, the fold
   rule R21);
4. ``apply()`` and one effect per phase (``_apply_shuffle``, ``_apply_cut``,
   ``_deal_cards``, ``_apply_fold``, ``_apply_exchange``, ``_apply_play``, ``_score``),
   each asking the phase machine of :mod:`~bohmisch_watten.phases` where it leads;
5. construction: :func:`new_game`, :meth:`GameState.from_position`, and the one fast
   constructor of ``apply()`` (:func:`make`).

Below the class: the phase machine's guards and its table, compiled once from
:data:`bohmisch_watten.phases.TABLE`, then the builders.  Internally cards are integers
(``Card.index``) and hands bitmasks; the history is a linked list, so an action costs
the same at the start and at the end of a long game.

Satellites import this module, never the reverse: views, records, serialization, svg,
the one-line text.  The convenience methods that hand over to them (``view``,
``record``, ``to_json`` …) import them inside the method, as listed in
``docs/architecture.md``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from operator import sub as _minus
from typing import TYPE_CHECKING, Any, Final

import attrs

from ._cores import NATIVE
from .actions import (
    FOLD,
    LEAVE,
    PLAY_ACTIONS,
    TAKE,
    Action,
    Exchange,
    Fold,
    LeaveCritical,
    Node,
    PlayCard,
    Shuffle,
    TakeCritical,
    exchange_options,
)
from .cards import CARDS, PACK_SIZES, SUIT_OF, Card, Suit, bits, pack_cards
from .dealing import cut_looker
from .deals import (
    CARD_PAIRS,
    SUITS,
    CutLook,
    DealFacts,
    DealFields,
    DealScore,
    DealSummary,
    GameFields,
    PastDeals,
    Trick,
)
from .errors import (
    FormatError,
    IllegalActionError,
    check_instance,
    check_int,
    check_rng,
    counted,
    warn_deprecated,
)
from .notation import MAX_DOCUMENT_CHARS, parse_action
from .phases import AUTO_TRIGGERS, TABLE, Decider, Guard, Phase, compile_decider, resolve
from .position import Position
from .rules import Rules, Schleck
from .scoring import deal_points, game_result, game_returns, post_scores
from .seats import left_of, right_of, seat_may_act, seat_order, turn_message
from .tricks import (
    BEATS,
    CRITICAL_MASK,
    EFFECTIVE,
    FOLLOW_MASK,
    STRENGTH,
    TRUMP,
    TRUMP_MASK,
    PlayedTrick,
    Plays,
    best_play,
    explain_illegal_play,
    legal_play_mask,
)

if TYPE_CHECKING:
    from .records import GameRecord
    from .views import PlayerView

__all__ = ["GUARDS", "STOCK_LIMIT", "GameState", "build_state", "new_game", "next_game"]

# The phases as module constants: ``Phase.PLAY`` looks the member up on the enum class
# at every use (a slow attribute access in CPython 3.11), a constant is one global read.
_DEAL: Final = Phase.DEAL
_CUT: Final = Phase.CUT
_EXCHANGE: Final = Phase.EXCHANGE
_PLAY: Final = Phase.PLAY
_SCORE: Final = Phase.SCORE
_GAME_OVER: Final = Phase.GAME_OVER
_HEARTS: Final = int(Suit.HEARTS)
"""Hearts as a plain int: an int compares with an int faster than with an IntEnum."""
_NO_RITUAL: Final = Schleck.NONE
_DEFAULT_RULES: Final = Rules()
_new_tuple: Final = tuple.__new__
"""``tuple.__new__``: a NamedTuple from its fields without its Python ``__new__``."""
_new_object: Final = object.__new__
_set: Final = object.__setattr__
_NO_DEALS: Final = PastDeals()

STOCK_LIMIT: Final = 3
"""R18: a player who is not the dealer exchanges at most 3 cards with the stock."""


# ----------------------------------------------------------------- the history


def history_tuple(node: Node | None) -> tuple[tuple[int | None, Action], ...]:
    """The linked history as ``(seat, action)`` pairs, oldest first."""
    out = []
    while node is not None:
        out.append((node[1], node[2]))
        node = node[0]
    out.reverse()
    return tuple(out)


def last_shuffle(node: Node | None) -> Shuffle:
    """The shuffle that began the current deal: the newest :class:`Shuffle` of the history.

    Raises:
        ValueError: if the history holds no shuffle (no deal has begun).
    """
    while node is not None:
        action = node[2]
        if isinstance(action, Shuffle):
            return action
        node = node[0]
    raise ValueError("the history holds no shuffle: no deal has begun")


_PLAYS: Final = tuple(
    tuple(tuple(PLAY_ACTIONS[suit * 8 + i] for i in bits(byte)) for byte in range(256))
    for suit in range(4)
)
"""``_PLAYS[suit][byte]``: the PlayCard actions of one suit's eight bits of a hand mask."""
_PLAYS_SIXES: Final = tuple(
    tuple(PLAY_ACTIONS[32 + i] for i in range(4) if nibble >> i & 1) for nibble in range(16)
)
"""``_PLAYS_SIXES[mask >> 32]``: the PlayCard actions of the Sixes in a mask (R6)."""


def _half_table(offset: int) -> dict[int, tuple[PlayCard, ...]]:
    """The PlayCard actions of every set of at most five cards among 16 (two suits).

    A hand holds five cards at most (R15), so in phase PLAY each half of the mask of
    playable cards is a key: 6,885 of them, built in a few milliseconds at import.
    """
    table: dict[int, tuple[PlayCard, ...]] = {0: ()}
    layer = table
    for _ in range(5):  # each set grows by a card above its highest: in card order
        layer = {
            mask | 1 << i: (*plays, PLAY_ACTIONS[offset + i])
            for mask, plays in layer.items()
            for i in range(mask.bit_length(), 16)
        }
        table.update(layer)
    return table


_PLAYS_LOW: Final = _half_table(0)
"""``_PLAYS_LOW[mask & 0xFFFF]``: the plays of Acorns and Leaves in a playable mask."""
_PLAYS_HIGH: Final = _half_table(16)
"""``_PLAYS_HIGH[mask >> 16]``: the plays of Hearts and Bells in a playable mask."""

INDEX_OF_ID: Final[dict[int, int]] = {id(card): card.index for card in CARDS}
"""A card's index by the identity of the card: the 36 cards are singletons that live as
long as the module, so no other object has their ids (cheaper than hashing a card)."""


_ALL_INDICES: Final = {size: frozenset(range(size)) for size in PACK_SIZES}
_CARD_AT: Final = CARDS.__getitem__
_SWAPS: Final = {
    size: tuple((i, i + 1, (i + 1).bit_length()) for i in range(size - 1, 0, -1))
    for size in PACK_SIZES
}
"""``_SWAPS[size]``: the steps of ``random.Random.shuffle`` on ``size`` items:
``(i, i + 1, bits of i + 1)``."""


_PLAY_PAIRS: Final = tuple(tuple((seat, card) for card in range(36)) for seat in range(8))
"""Shared ``(seat, card)`` pairs for tricks, so playing a card allocates one tuple less."""
_PLAY_SINGLES: Final = tuple(tuple((pair,) for pair in pairs) for pairs in _PLAY_PAIRS)
"""``((seat, card),)``, shared: a lead is this tuple itself, a later card one concatenation."""
_LEFT: Final = tuple(tuple(left_of(seat, n) for seat in range(n)) for n in range(8))
"""``_LEFT[n][seat]`` is ``left_of(seat, n)``: a table, for the hot paths."""


_WHERE: Final = {
    "shuffle": ("R11", "at a chance node (phase DEAL)"),
    "take": ("R12", "when a Critical is offered in the cutting ritual (phase CUT)"),
    "leave": ("R12", "when a Critical is offered in the cutting ritual (phase CUT)"),
    "fold": ("R18", "in the exchange (phase EXCHANGE)"),
    "exchange": ("R18", "in the exchange (phase EXCHANGE)"),
    "play": ("R24", "in trick play (phase PLAY)"),
}


ScoredDeal = tuple[
    GameFields, int, bool, tuple[bool, ...], tuple[int | None, ...], tuple[PlayedTrick, ...],
    tuple[int, ...], tuple[int, ...], tuple[tuple[int, Card | None, bool, bool], ...],
]  # fmt: skip
"""What :func:`summarize` builds a summary from: the game's fields, then the deal's
trump card, taken trump card, folds, exchange counts, tricks, tricks won, new scores and
public cut looks — public facts only (R13, R23)."""


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
    cards are indices 0–35 (``Card.index``) and sets of cards bitmasks (bit ``i`` for
    ``DECK[i]``).  ``hand_masks``, ``trick_plays``, ``played_tricks`` and ``tricks_won``
    change with every card; ``deal_fields`` (:class:`~bohmisch_watten.deals.DealFields`)
    a few times a deal; ``game_fields`` (:class:`~bohmisch_watten.deals.GameFields`)
    once a deal; ``history_node`` is the history as a linked list.  Other modules read
    these, never private fields.

    Attributes:
        num_players: 2 to 4, or to 7 with the 36-card pack (R1).
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
        """2 to 4, or to 7 with the 36-card pack (R1)."""
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
            points = deal_points(self.tricks_won, self.deal_fields.folded, SUIT_OF[trump], rules)
            scores = post_scores(self.game_fields.scores, points, rules)
            value = _new_tuple(DealScore, (points, scores, game_result(scores, rules)[0]))
            object.__setattr__(self, "_deal_score", value)
            return value

    # ------------------------------------------------------------------ reads

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
        return tuple(tuple(CARDS[i] for i in bits(h)) for h in self.hand_masks)

    @property
    def stock(self) -> tuple[Card, ...]:
        """The face-down stock, top first; during the cut ritual, the undealt pack (R15)."""
        return tuple(CARDS[i] for i in self.deal_fields.pack)

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
        return tuple(tuple(CARDS[i] for i in bits(m)) for m in self.deal_fields.discards)

    @property
    def cut_looks(self) -> tuple[CutLook, ...]:
        """The cutting ritual so far, each look a :class:`~bohmisch_watten.deals.CutLook`
        ``(seat, card, taken, critical)`` in order (R12, R13).

        A taken card is public; a card looked at and not taken is known only to that
        seat, so :attr:`PlayerView.cut_looks <bohmisch_watten.PlayerView.cut_looks>` has
        the same looks with None for a card the seat may not know.
        """
        return tuple(
            CutLook(seat, CARDS[i], taken, CARDS[i].is_critical)
            for seat, i, taken in self.deal_fields.cut
        )

    @property
    def cut_cards(self) -> tuple[tuple[int, Card, bool], ...]:
        """Deprecated: ``(seat, card, taken)`` of each look; use :attr:`cut_looks`.

        It had three fields here and four on a view; :attr:`cut_looks` has the same
        four on both.
        """
        warn_deprecated(
            "GameState.cut_cards",
            "use cut_looks, (seat, card, taken, critical) on the state and the view alike",
        )
        return tuple((seat, CARDS[i], taken) for seat, i, taken in self.deal_fields.cut)

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

    def __str__(self) -> str:
        """A small table for people: cards, scores, trick, whose turn (see state_text.py)."""
        from .state_text import render_state  # the text forms import this module

        return render_state(self)

    def __repr__(self) -> str:
        turn = "chance" if self.current_player is None else f"seat {self.current_player}"
        if self.is_terminal:
            turn = f"winners {list(self.winners)}, losers {list(self.losers)}"
        return (
            f"<GameState {self.num_players} players, deal {self.deal_number}, "
            f"{self.phase.name}, {turn}, scores {list(self.scores)}>"
        )

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

    # ------------------------------------------------- legal actions, per phase

    def legal_actions(self) -> tuple[Action, ...]:
        """Every action the player to act may take, without duplicates, in a fixed order.

        Empty at a chance node (use :meth:`sample_chance`, or any :class:`Shuffle` of the
        32 cards) and at the end of the game.
        """
        phase = self.phase
        if phase is _PLAY:
            mask = self.play_mask  # R24–R26, worked out when the self was made
            try:  # two lookups and one concatenation: the commonest question of a game
                return _PLAYS_LOW[mask & 0xFFFF] + _PLAYS_HIGH[mask >> 16]
            except KeyError:  # more than five cards in two suits: no hand of R15 holds them
                pass
            return (
                _PLAYS[0][mask & 255]
                + _PLAYS[1][mask >> 8 & 255]
                + _PLAYS[2][mask >> 16 & 255]
                + _PLAYS[3][mask >> 24 & 255]
                + _PLAYS_SIXES[mask >> 32]
            )
        if phase is _EXCHANGE:
            return self._exchange_actions()
        if phase is _CUT:
            return (TAKE, LEAVE)
        return ()

    def _exchange_actions(self) -> tuple[Action, ...]:
        seat = self.current_player
        assert seat is not None  # only the shuffle is chance (R11)
        stock = len(self.deal_fields.pack)
        game = self.game_fields
        hand = self.hand_masks[seat]
        if seat == game.dealer:  # R19: the dealer plays and may take the trump card
            limit = game.rules.dealer_stock_limit
            return exchange_options(hand, limit if limit < stock else stock, True)
        plain = exchange_options(hand, STOCK_LIMIT if stock > STOCK_LIMIT else stock, False)
        if self._fold_rule(seat) is None:  # R18, R21
            return (FOLD, *plain)
        return plain

    def fold_forbidden_by(self, seat: int | None = None) -> str | None:
        """Why ``seat`` (default: the player to act) may not fold now, or None (R21).

        The reason names the first of the six conditions of R21 that applies.
        """
        if seat is None:
            seat = self.current_player
        if seat is None or self.phase is not _EXCHANGE:
            return "R18: nobody is deciding whether to fold now"
        rule = self._fold_rule(seat)
        if rule is None:
            return None
        game = self.game_fields
        if rule == "R21.1":
            return "R21.1: nobody may fold in the first deal of the game"
        if rule == "R21.2":
            return "R21.2: nobody may fold when Hearts are trumps"
        if rule == "R21.3":
            points = counted(game.rules.min_fold_score, "point")
            return (
                f"R21.3: seat {seat} may not fold with {points} or fewer (has {game.scores[seat]})"
            )
        if rule == "R21.4":
            return f"R21.4: seat {seat} folded in the previous deal"
        if rule == "R21.5":
            return "R21.5: the dealer must play"
        return f"R21.6: seat {seat} is the last non-dealer to decide and all others folded"

    def _fold_rule(self, seat: int) -> str | None:
        """The first condition of R21 that forbids ``seat`` to fold in this exchange, or None.

        Only the rule's number, so that the legal actions, asked at every exchange decision,
        do not format a message; :func:`fold_forbidden_by` words it.
        """
        game = self.game_fields  # read once: this runs at every exchange decision
        if game.deal_number == 1:
            return "R21.1"
        deal = self.deal_fields
        if SUIT_OF[deal.trump] == _HEARTS:
            return "R21.2"
        if game.scores[seat] <= game.rules.min_fold_score:
            return "R21.3"
        folds = game.past.last_folded  # self.previous_folds, one property call less
        if (game.start.folded if folds is None else folds)[seat]:
            return "R21.4"
        dealer = game.dealer
        if seat == dealer:
            return "R21.5"
        n = game.num_players
        if seat == right_of(dealer, n) and all(
            deal.folded[s] for s in range(n) if s not in (seat, dealer)
        ):
            return "R21.6"
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
        if self.phase is _DEAL:
            size = self.game_fields.rules.pack
            return isinstance(action, Shuffle) and pack_problem(action.pack, size) is None
        if isinstance(action, PlayCard) and self.phase is _PLAY:
            return bool(self.play_mask >> action.card.index & 1)
        return action in self.legal_actions()

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
        return draw_shuffle(rng, self.game_fields.rules.pack)  # rng.shuffle, done faster

    # -------------------------------------------------------- apply, per phase

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
        if type(action) is PlayCard and self.phase is _PLAY:  # the same step, found sooner
            if _NATIVE_PLAY is not None:  # the compiled core, if built (bohmisch_watten._cores)
                native = self._play_natively(action)
                if native is not None:
                    return native
            after = _APPLY_PLAY(self, action, _PLAY_DECIDE)
            if after.phase is _PLAY:  # no automatic trigger in phase PLAY
                return after
            return after._pass_through()
        steps = _STEPS.get(type(action))
        if steps is None:
            raise IllegalActionError(
                f"not an action: {action!r:.60} ({type(action).__name__}); expected "
                "Shuffle, TakeCritical, LeaveCritical, Fold, Exchange or PlayCard"
            )
        step = steps.get(self.phase)
        if step is None:
            raise IllegalActionError(self._wrong_phase(_TRIGGERS[type(action)], action))
        return step[0](self, action, step[1])._pass_through()

    def _pass_through(self) -> GameState:
        """Fire the automatic triggers while their guards allow (the cut, the scoring)."""
        state = self
        auto = _AUTO.get(state.phase)
        while auto is not None:
            dest = auto[0](state, None)
            if dest is None:
                break
            state = auto[1](state, dest)
            auto = _AUTO.get(state.phase)
        return state

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
        return self.apply(action, seat=seat)

    # shuffle and cut (R11–R15)

    def _apply_shuffle(self, action: Shuffle, decide: Decider) -> GameState:
        """R11: the pack as shuffled; the ritual's first look (R12)."""
        size = self.game_fields.rules.pack
        pack = pack_indices(action.pack, size)
        if pack is None:  # each card of the pack once (R6, R11)
            raise IllegalActionError(pack_problem(action.pack, size) or "R11: not a permutation")
        dest = decide(self, action)
        assert dest is not None
        cut, seat = self._first_look(pack, ())
        n = self.game_fields.num_players
        return make(
            dest, seat, (0,) * n, (), (), (0,) * n, fresh_deal(n, pack, cut), self.game_fields, 0,
            (self.history_node, None, action),
        )  # fmt: skip

    def _first_look(
        self, pack: tuple[int, ...], cut: tuple[tuple[int, int, bool], ...]
    ) -> tuple[tuple[tuple[int, int, bool], ...], int | None]:
        """The next step of the ritual: who looks at the bottom card and whether it is offered.

        Returns the ritual record with the new look appended (if anybody looks) and the seat
        to decide (None when the ritual is over).  R12 (alternate), R14 (cutter_only, none).
        """
        game = self.game_fields
        schleck = game.rules.schleck
        step = len(cut)
        if schleck is _NO_RITUAL or step >= 3 or (cut and not cut[-1][2]):
            return cut, None
        seat = cut_looker(step, game.dealer, game.num_players, schleck)
        card = pack[-1]
        cut = (*cut, (seat, card, False))
        return cut, (seat if CRITICAL_MASK >> card & 1 else None)

    def _apply_cut(self, action: TakeCritical | LeaveCritical, decide: Decider) -> GameState:
        """R12, R13: the offered Critical taken into the hand (shown), or left at the bottom."""
        dest = decide(self, action)
        assert dest is not None
        seat = self.current_player
        assert seat is not None  # only the shuffle is chance (R11)
        deal = self.deal_fields
        pack, hands, cut = deal.pack, self.hand_masks, deal.cut
        if isinstance(action, TakeCritical):  # R12: into the hand, shown to everybody (R13)
            card = pack[-1]
            pack = pack[:-1]
            hands = tuple(h | (1 << card) if s == seat else h for s, h in enumerate(hands))
            cut = (*cut[:-1], (seat, card, True))
            cut, nxt = self._first_look(pack, cut)
        else:  # R12: the ritual ends; the card stays at the bottom (R13)
            nxt = None
        return make(
            dest, nxt, hands, (), (), self.tricks_won,
            DealFields(pack, -1, False, deal.folded, deal.exchanged, deal.discards, cut),
            self.game_fields, 0, (self.history_node, seat, action),
        )  # fmt: skip

    def _deal_cards(self, dest: Phase) -> GameState:
        """R15: packets of 3 − k and 2 clockwise from forehand, the trump card between."""
        game, deal = self.game_fields, self.deal_fields
        pack = deal.pack
        order = seat_order(game.dealer, game.num_players)
        hands = list(self.hand_masks)
        pos = 0
        for seat in order:  # R15: 3 - k cards, k the Criticals he took in the ritual (R12)
            hand = hands[seat]
            if hand:
                take = 3 - hand.bit_count()
                for i in pack[pos : pos + take]:
                    hand |= 1 << i
                pos += take
            else:
                hand = 1 << pack[pos] | 1 << pack[pos + 1] | 1 << pack[pos + 2]
                pos += 3
            hands[seat] = hand
        trump = pack[pos]
        for seat in order:  # R15: then 2 cards each
            hands[seat] |= 1 << pack[pos + 1] | 1 << pack[pos + 2]
            pos += 2
        return make(
            dest, order[0], tuple(hands), (), (), self.tricks_won,
            _new_tuple(
                DealFields,
                (
                    pack[pos + 1 :], trump, False, deal.folded, deal.exchanged,
                    deal.discards, deal.cut,
                ),
            ),
            game, 0, self.history_node,
        )  # fmt: skip

    # the exchange (R18–R21)

    def _apply_fold(self, action: Fold, decide: Decider) -> GameState:
        """R18, R21: the player to act folds, if R21 allows it."""
        reason = self.fold_forbidden_by()
        if reason is not None:
            raise IllegalActionError(reason)
        dest = decide(self, action)
        assert dest is not None
        seat = self.current_player
        assert seat is not None  # only the shuffle is chance (R11)
        deal = self.deal_fields
        folded = list(deal.folded)
        folded[seat] = True
        return make(
            dest, _LEFT[len(folded)][seat], self.hand_masks, (), (), self.tricks_won,
            _new_tuple(
                DealFields,
                (
                    deal.pack, deal.trump, False, tuple(folded), deal.exchanged,
                    deal.discards, deal.cut,
                ),
            ),
            self.game_fields, 0, (self.history_node, seat, action),
        )  # fmt: skip

    def _apply_exchange(self, action: Exchange, decide: Decider) -> GameState:
        """R18–R20: discards, draws from the stock top first; the dealer may take the trump."""
        seat = self.current_player
        assert seat is not None  # only the shuffle is chance (R11)
        mask = action.discard_mask
        take = action.take_trump_card
        hand = self.hand_masks[seat]
        size = mask.bit_count()
        draws = size - take
        deal, game = self.deal_fields, self.game_fields
        pack = deal.pack
        dealer = seat == game.dealer
        if (
            mask & ~hand
            or draws > (game.rules.dealer_stock_limit if dealer else STOCK_LIMIT)
            or draws > len(pack)
            or (take and (not dealer or not mask))
        ):
            raise IllegalActionError(self._exchange_problem(seat, action))
        dest = _EXCHANGE_TO[dealer]  # the machine's answer for dealer_decides, known here
        hand &= ~mask
        for i in pack[:draws]:
            hand |= 1 << i
        if take:
            hand |= 1 << deal.trump
        hands = list(self.hand_masks)  # copied and changed in place: the cheapest copy
        hands[seat] = hand
        exchanged = list(deal.exchanged)
        exchanged[seat] = size
        discards = list(deal.discards)
        discards[seat] |= mask
        fields = _new_tuple(
            DealFields,
            (
                pack[draws:],
                deal.trump,
                take,
                deal.folded,
                tuple(exchanged),
                tuple(discards),
                deal.cut,
            ),
        )
        if dest is _PLAY:  # R24: forehand leads, or the first active player after him
            nxt = _next_active(deal.folded, game.dealer)
            return make(
                dest, nxt, tuple(hands), (), (), self.tricks_won, fields, game,
                hands[nxt],  # R24: the leader may lead any card
                (self.history_node, seat, action),
            )  # fmt: skip
        return make(
            dest, _LEFT[game.num_players][seat], tuple(hands), (), (), self.tricks_won, fields,
            game, 0, (self.history_node, seat, action),
        )  # fmt: skip

    # trick play (R24–R27)

    def _apply_play(self, action: PlayCard, decide: Decider) -> GameState:
        """R24–R27: the card to the trick; a complete trick goes to its winner, who leads."""
        seat = self.current_player
        assert seat is not None  # only the shuffle is chance (R11)
        card = action.card.index
        if not self.play_mask >> card & 1:  # R24: any card of the hand may lead; R25, R26
            raise IllegalActionError(
                explain_illegal_play(
                    seat, self.hand_masks[seat], card, self.trick_plays,
                    SUIT_OF[self.deal_fields.trump], self.game_fields.rules.must_head,
                )
            )  # fmt: skip
        copy = list(self.hand_masks)  # copied and changed in place: this is the hottest path
        copy[seat] &= ~(1 << card)
        hands = tuple(copy)
        trick = self.trick_plays + _PLAY_SINGLES[seat][card]
        tricks = self.played_tricks
        deal = self.deal_fields
        folded = deal.folded
        # Whether this card completes its trick.  In the fifth trick the machine decides, by
        # its guard completes_deal (dest SCORE, or not), and its answer is taken.  Before it
        # the guard cannot hold (it asks for four tricks played), so the machine's answer is
        # known without asking it, _PLAY_ON; a trick is complete when every active player has
        # played to it (R24, R27).
        dest: Phase | None
        if len(tricks) < 4:
            dest = _PLAY_ON
            complete = len(trick) == folded.count(False)
        else:
            dest = decide(self, action)
            assert dest is not None
            complete = dest is _SCORE
        if complete:
            trump = SUIT_OF[deal.trump]
            winner = best_play(trick, trump)[0]
            tricks = (*tricks, (trick, winner))
            counts = list(self.tricks_won)
            counts[winner] += 1
            won = tuple(counts)
            trick = ()
            if dest is _SCORE:
                nxt: int | None = None
                mask = 0
            else:
                nxt = winner
                mask = hands[winner]  # R24: the winner leads any card
        else:
            won = self.tricks_won
            nxt = _LEFT[len(folded)][seat]
            if folded[nxt]:
                nxt = _next_active(folded, nxt)
            # R25, R26: legal_play_mask() inlined, worked out once, for legal_actions() and
            # for the check of the next play (tests/test_fast_paths.py compares the two).
            mask = hands[nxt]
            trump = SUIT_OF[deal.trump]
            led = EFFECTIVE[trump][trick[0][1]]
            follow = mask & FOLLOW_MASK[trump][led]
            if not follow and led != TRUMP:
                follow = mask & TRUMP_MASK[trump]  # R25.2: void in a plain suit, must trump
            if follow:  # else R25.4: neither the suit led nor a trump, any card
                mask = follow
                if self.game_fields.rules.must_head:  # R25.1-3: head / overtrump if possible
                    strength = STRENGTH[trump][led]
                    winning = trick[0][1]
                    for _, other in trick[1:]:
                        if strength[other] > strength[winning]:
                            winning = other
                    heading = follow & BEATS[trump][led][winning]
                    if heading:
                        mask = heading
        # The new self, built as make() builds it, inline: a card played is the commonest
        # action, and the call of make() with its ten arguments was a tenth of its cost.
        # tests/test_fast_paths.py checks that both build the same states.
        new: Any = _new_object(_Unfrozen)
        new.phase = dest
        new.current_player = nxt
        new.hand_masks = hands
        new.trick_plays = trick
        new.played_tricks = tricks
        new.tricks_won = won
        new.deal_fields = deal
        new.game_fields = self.game_fields
        new.play_mask = mask
        new.history_node = (self.history_node, seat, action)
        new.is_chance_node = False  # phase PLAY or SCORE: neither chance nor the end
        new.is_terminal = False
        new.__class__ = GameState
        return new  # type: ignore[no-any-return]

    def _play_natively(self, action: PlayCard) -> GameState | None:
        """:meth:`_apply_play` by the compiled core, or None for the Python path to take.

        The commonest step of a user's loop, a card played (R24–R27), worked out in C on
        this state's own fields (``_native.play_step``): it returns the new hands, trick,
        finished tricks and counts, sharing what does not change, and the next seat with
        its play mask, so the new state is the one :meth:`_apply_play` makes, field for
        field (tests/test_native_lockstep.py plays both side by side).  The Python path
        takes the rest: a card that may not be played (its :class:`IllegalActionError`
        names the rule) and the card that completes the deal (the phase machine and the
        scoring).
        """
        deal = self.deal_fields
        seat = self.current_player
        step = _NATIVE_PLAY(  # type: ignore[misc]
            seat, action.card.index, self.play_mask, self.hand_masks, self.trick_plays,
            self.played_tricks, self.tricks_won, deal.folded, deal.trump,
            self.game_fields.rules.must_head,
        )  # fmt: skip
        if step is None:
            return None
        new: Any = _new_object(_Unfrozen)  # as _apply_play builds it
        new.phase = _PLAY_ON  # the machine's answer before the deal's last card
        new.current_player = step[4]
        new.hand_masks = step[0]
        new.trick_plays = step[1]
        new.played_tricks = step[2]
        new.tricks_won = step[3]
        new.deal_fields = deal
        new.game_fields = self.game_fields
        new.play_mask = step[5]
        new.history_node = (self.history_node, seat, action)
        new.is_chance_node = False
        new.is_terminal = False
        new.__class__ = GameState
        return new  # type: ignore[no-any-return]

    # scoring (R28–R34)

    def _scored_deal(self) -> ScoredDeal:
        """The public facts of the deal that ``self`` (phase SCORE) scores (R29–R34).

        Kept, unbuilt, in the past deals until the summary is read
        (:meth:`PastDeals.append_later <bohmisch_watten.deals.PastDeals.append_later>`),
        so it holds no hand, stock, discard or secret cut card: a seat's view shares the
        past deals and must carry nothing it may not know (R13, R23).
        """
        deal = self.deal_fields
        cut = deal.cut
        return (
            self.game_fields, deal.trump, deal.took_trump, deal.folded, self.exchanged,
            self.played_tricks, self.tricks_won, self.deal_score.scores,
            tuple([
                (seat, CARDS[card] if taken else None, taken, bool(CRITICAL_MASK >> card & 1))
                for seat, card, taken in cut
            ]) if cut else (),  # R13: a card looked at and not taken stays that seat's secret
        )  # fmt: skip

    def _score(self, dest: Phase) -> GameState:
        """R29–R34: post the points, keep the deal readable, then a new deal or the end.

        The points and scores are the :attr:`~bohmisch_watten.GameState.deal_score` that the
        guard ``game_ends`` computed to choose ``dest``: read, not computed again.  The
        deal's public facts are appended to the past deals unbuilt (:func:`summarize`
        builds the summary when it is first read).
        """
        n, rules, dealer, deal_number, _, start, past = self.game_fields
        scores = self.deal_score.scores
        if dest is not _GAME_OVER:
            dealer, deal_number = left_of(dealer, n), deal_number + 1  # R4
        past = past.append_later(summarize, self._scored_deal(), self.deal_fields.folded)
        return make(
            dest, None, (0,) * n, (), (), (0,) * n, fresh_deal(n),
            _new_tuple(GameFields, (n, rules, dealer, deal_number, scores, start, past)),
            0, self.history_node,
        )  # fmt: skip

    # the error path: why an action is refused, naming the rule

    def _wrong_phase(self, trigger: str, action: object) -> str:
        """Why ``action`` (of ``trigger``) cannot be taken in this phase, naming the rule."""
        if self.phase is _GAME_OVER:
            return "R31: the game is over; no action can be applied"
        rule, where = _WHERE[trigger]
        name = type(action).__name__
        return f"{rule}: {name} is only possible {where}; the phase is {self.phase.name}"

    def _exchange_problem(self, seat: int, action: Exchange) -> str:
        """Why ``action`` is not a legal exchange for ``seat`` (the error path only)."""
        hand = self.hand_masks[seat]
        mask = action.discard_mask
        game = self.game_fields
        if mask & ~hand:
            stray = ", ".join(str(CARDS[i]) for i in bits(mask & ~hand))
            return f"R18: seat {seat} cannot discard {stray}: not in his hand"
        dealer = seat == game.dealer
        take = action.take_trump_card
        if take and not dealer:
            return f"R19: only the dealer (seat {game.dealer}) may take the trump card"
        if take and not mask:
            return "R19: taking the trump card needs one card of the hand in exchange"
        draws = mask.bit_count() - take
        limit = game.rules.dealer_stock_limit if dealer else STOCK_LIMIT
        if draws > limit:
            who = "the dealer" if dealer else "a player"
            rule = "R19" if dealer else "R18"
            return f"{rule}: {who} may exchange at most {limit} cards with the stock, not {draws}"
        stock = counted(len(self.deal_fields.pack), "card")
        return f"R20: the stock holds only {stock}, cannot draw {draws}"

    # ------------------------------------------------------- construction

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

    # ------------------- convenience methods: hand over to the satellite modules

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


_NATIVE_PLAY: Final = getattr(NATIVE, "play_step", None)
"""The compiled core's card play on the state's fields (src/native/py_play.c), or None
with the Python core: see :meth:`GameState._play_natively`."""


class _Unfrozen(DealFacts):
    """A :class:`GameState` under construction: the same slots, no frozen ``__setattr__``.

    Same base, same slots, so CPython lets :func:`make` turn one into a GameState by
    assigning ``__class__`` once its slots are filled.
    """

    __slots__ = GameState.__slots__


def make(
    phase: Phase,
    current_player: int | None,
    hand_masks: tuple[int, ...],
    trick_plays: Plays,
    played_tricks: tuple[PlayedTrick, ...],
    tricks_won: tuple[int, ...],
    deal_fields: DealFields,
    game_fields: GameFields,
    play_mask: int,
    history_node: Node | None,
) -> GameState:
    """``GameState(...)`` with the same arguments, at less than half the cost (the hot path)."""
    state: Any = _new_object(_Unfrozen)
    state.phase = phase
    state.current_player = current_player
    state.hand_masks = hand_masks
    state.trick_plays = trick_plays
    state.played_tricks = played_tricks
    state.tricks_won = tricks_won
    state.deal_fields = deal_fields
    state.game_fields = game_fields
    state.play_mask = play_mask
    state.history_node = history_node
    state.is_chance_node = phase is _DEAL
    state.is_terminal = phase is _GAME_OVER
    state.__class__ = GameState
    return state  # type: ignore[no-any-return]


def at_position(position: Position) -> GameState:
    """The chance node of ``position``'s deal, with an empty history starting there."""
    n = position.num_players
    return GameState(
        Phase.DEAL, None, (0,) * n, (), (), (0,) * n, fresh_deal(n),
        GameFields(
            n, position.rules, position.dealer, position.deal_number, position.scores,
            position, _NO_DEALS,
        ),
        0, None,
    )  # fmt: skip


def build_state(
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
    history: Node | None = None,
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
        dealer, deal_number = last_deal_of(position)
    hands = (0,) * n if hands is None else hands
    mask = 0
    if phase is Phase.PLAY and current_player is not None:
        mask = legal_play_mask(
            hands[current_player], trick, SUIT_OF[trump], position.rules.must_head
        )
    return GameState(
        phase, current_player, hands, trick, tricks,
        (0,) * n if tricks_won is None else tricks_won,
        DealFields(
            pack, trump, took_trump, (False,) * n if folded is None else folded,
            (-1,) * n if exchanged is None else exchanged,
            (0,) * n if discards is None else discards, cut,
        ),
        GameFields(n, position.rules, dealer, deal_number, position.scores, position, past),
        mask, history,
    )  # fmt: skip


def restore_state(
    values: tuple[Any, ...], history: tuple[tuple[int | None, Action], ...]
) -> GameState:
    """Unpickle a state: its fields and its history as a flat tuple (see ``__reduce__``)."""
    node: Node | None = None
    for seat, action in history:
        node = (node, seat, action)
    construct: Callable[..., GameState] = GameState
    return construct(*values, node)


_FRESH: Final = tuple(
    DealFields((), -1, False, (False,) * n, (-1,) * n, (0,) * n, ()) for n in range(8)
)
"""``_FRESH[n]``: the deal fields between deals, shared (a tuple of tuples never changes)."""


def fresh_deal(
    n: int, pack: tuple[int, ...] = (), cut: tuple[tuple[int, int, bool], ...] = ()
) -> DealFields:
    """The deal fields before the trump card is turned: nobody folded or exchanged."""
    fresh = _FRESH[n]
    if not pack and not cut:
        return fresh
    # tuple.__new__ builds the named tuple without its Python-level __new__ (once a deal)
    return _new_tuple(
        DealFields, (pack, -1, False, fresh.folded, fresh.exchanged, fresh.discards, cut)
    )


def final_position(
    n: int,
    rules: Rules,
    dealer: int,
    deal_number: int,
    scores: tuple[int, ...],
    folds: tuple[bool, ...],
) -> Position:
    """The position a finished game gives: the next dealer and deal number (R4, R34).

    ``dealer`` and ``deal_number`` are the last deal's.  No deal is played from it, since
    someone has won; it is what ``state.position`` and ``view.position`` say at the end.
    """
    return Position(n, rules, left_of(dealer, n), deal_number + 1, scores, folds)


def last_deal_of(position: Position) -> tuple[int, int]:
    """The inverse of :func:`final_position`: the last deal's dealer and deal number."""
    return right_of(position.dealer, position.num_players), position.deal_number - 1


# ------------------------------------------------ the phase machine, compiled once


def ritual_over(state: GameState, action: object) -> bool:
    """No Critical is on offer any more, so the cards are dealt (R12, R14, R15)."""
    return state.current_player is None


def dealer_decides(state: GameState, action: object) -> bool:
    """The dealer is the last to decide, so his exchange ends the phase (R18, R19)."""
    return state.current_player == state.game_fields.dealer  # the field, not the property


def completes_deal(state: GameState, action: object) -> bool:
    """This card completes the fifth trick (R24).

    The play effect takes this answer for the fifth trick: when the machine stays in
    PLAY there, the trick goes on; it is not tested again.
    """
    return len(state.played_tricks) == 4 and len(
        state.trick_plays
    ) + 1 == state.deal_fields.folded.count(False)


def game_ends(state: GameState, action: object) -> bool:
    """Posting this deal's points ends the game (R31, R33, R34).

    Decided on the state's :attr:`~bohmisch_watten.GameState.deal_score`, which the
    state keeps: the scoring that follows posts that same score, not a recomputed one.
    """
    return bool(state.deal_score.winners)


GUARDS: Final[Mapping[str, Guard]] = {
    "ritual_over": ritual_over,
    "dealer_decides": dealer_decides,
    "completes_deal": completes_deal,
    "game_ends": game_ends,
}
"""The guards by the names :data:`~bohmisch_watten.phases.TRANSITIONS` uses, as a
``transitions`` model would: pure functions ``guard(state, action)`` of the state before
the transition.

:meta hide-value:
"""

_Effect = Callable[[GameState, Any, Decider], GameState]
_AutoEffect = Callable[[GameState, Phase], GameState]

_EFFECTS: Final[dict[type, tuple[str, _Effect]]] = {
    PlayCard: ("play", GameState._apply_play),
    Exchange: ("exchange", GameState._apply_exchange),
    Fold: ("fold", GameState._apply_fold),
    TakeCritical: ("take", GameState._apply_cut),
    LeaveCritical: ("leave", GameState._apply_cut),
    Shuffle: ("shuffle", GameState._apply_shuffle),
}
"""Each action type's trigger in :data:`~bohmisch_watten.phases.TRANSITIONS` and effect."""
_TRIGGERS: Final = {kind: trigger for kind, (trigger, _) in _EFFECTS.items()}

_STEPS: Final[dict[type, dict[Phase, tuple[_Effect, Decider]]]] = {
    kind: {
        phase: (effect, compile_decider(options, GUARDS))
        for (phase, t), options in TABLE.items()
        if t == trigger
    }
    for kind, (trigger, effect) in _EFFECTS.items()
}
"""The table ``apply()`` reads, compiled once from the machine:
``_STEPS[action type][phase]`` is the effect and the decider of the machine's entry."""
_PLAY_DECIDE: Final = _STEPS[PlayCard][_PLAY][1]
"""The machine's entry for the commonest action, a card played in phase PLAY."""
_APPLY_PLAY: Final = GameState._apply_play
"""Its effect, read once here: one global read on the hot path instead of a method lookup."""
_AUTO_EFFECTS: Final[dict[str, _AutoEffect]] = {
    "deal": GameState._deal_cards,
    "score": GameState._score,
}
_AUTO: Final[dict[Phase, tuple[Decider, _AutoEffect]]] = {
    phase: (compile_decider(TABLE[(phase, trigger)], GUARDS), _AUTO_EFFECTS[trigger])
    for phase, trigger in AUTO_TRIGGERS.items()
}
"""The automatic triggers by phase: the machine's decider and the effect."""
assert _PLAY not in _AUTO  # apply() returns a state in phase PLAY without passing through


def _machine_answer(phase: Phase, trigger: str, answer: bool) -> Phase:
    """Where the machine sends ``trigger`` in ``phase`` if its guards say ``answer``."""
    dest = resolve(TABLE[(phase, trigger)], lambda name: answer)
    assert dest is not None
    return dest


_PLAY_ON: Final = _machine_answer(_PLAY, "play", False)
"""Where the machine sends a card played while its guard ``completes_deal`` is false:
phase PLAY.  Before the fifth trick that guard cannot hold (it asks for four tricks
played), so :meth:`GameState._apply_play` takes this answer there instead of asking."""
assert _PLAY_ON is _PLAY
_EXCHANGE_TO: Final = tuple(_machine_answer(_EXCHANGE, "exchange", d) for d in (False, True))
"""``_EXCHANGE_TO[dealer]``: where the machine sends an exchange by the answer of its one
guard, ``dealer_decides`` (the seat exchanging is the dealer, the last to decide: R18,
R19).  :meth:`GameState._apply_exchange` has that answer already, so it reads the
destination here instead of asking the guard: EXCHANGE for the others, PLAY after the
dealer."""


# ---------------------------------------------------- the pack and the scoring


class _DrawnPack(tuple[Card, ...]):
    """The pack of a :class:`Shuffle` that :func:`draw_shuffle` made: the 32 cards, and
    their indices kept beside them (``indices``), so that applying the shuffle need not
    look the cards up and check them again (:func:`pack_indices`).

    A tuple: equal to, and hashed as, the plain tuple of the same cards, so the shuffle
    is equal to ``Shuffle(pack)``; it pickles and copies as the plain tuple.  Nothing
    but :func:`draw_shuffle` makes one, from indices it has just drawn.
    """

    indices: tuple[int, ...]

    def __reduce__(self) -> tuple[type[tuple[Card, ...]], tuple[tuple[Card, ...]]]:
        return (tuple, (tuple(self),))


def draw_shuffle(rng: random.Random, size: int = 32) -> Shuffle:
    """A uniformly random :class:`Shuffle` of the ``size``-card pack: ``rng.shuffle`` (R11).

    For a plain ``random.Random`` the shuffle is done here, step for step the same
    Fisher–Yates as ``random.Random.shuffle`` (the same ``getrandbits`` calls, so the
    same pack and the same generator state after it: ``tests/test_fast_paths.py``
    compares them), without its two Python calls per card.  Any other generator (a
    subclass may draw differently) shuffles by its own method.
    """
    if type(rng) is not random.Random:
        pack = list(pack_cards(size))
        rng.shuffle(pack)
        return Shuffle(pack)
    getrandbits = rng.getrandbits
    order = list(range(size))
    for i, n, k in _SWAPS[size]:
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        order[i], order[j] = order[j], order[i]
    indices = tuple(order)
    cards = _DrawnPack(map(_CARD_AT, indices))
    cards.indices = indices
    action: Shuffle = _new_object(Shuffle)
    _set(action, "pack", cards)  # a tuple of Cards already: the converter has nothing to do
    return action


def pack_indices(pack: tuple[object, ...], size: int = 32) -> tuple[int, ...] | None:
    """The card indices of a shuffle's ``pack``, or None if it is not the ``size`` cards
    of the pack (R6, R11)."""
    if type(pack) is _DrawnPack:  # drawn by draw_shuffle: its indices came with it
        return pack.indices if len(pack.indices) == size else None
    found = tuple(map(INDEX_OF_ID.get, map(id, pack)))
    if len(found) != size or set(found) != _ALL_INDICES[size]:
        return None
    return found  # type: ignore[return-value]  # no None in it: all indices were found


def pack_problem(pack: tuple[object, ...], size: int = 32) -> str | None:
    """Why ``pack`` is not a shuffle of the ``size``-card pack (R6, R11), or None."""
    for card in pack:
        if type(card) is not Card:
            return f"R11: a shuffle holds Card objects only, got {card!r:.20}"
    if len(pack) != size:
        return f"R11: a shuffle must hold all {size} cards once, got {counted(len(pack), 'card')}"
    mask = 0
    for card in pack:
        mask |= 1 << card.index  # type: ignore[attr-defined]  # a Card: checked above
    full = (1 << size) - 1
    if mask > full:
        sixes = " ".join(str(card) for card in pack if card.index >= 32)  # type: ignore[attr-defined]
        return f"R6: the 32-card pack has no Sixes, got {sixes}"
    if mask != full:
        missing = ", ".join(str(CARDS[i]) for i in bits(full & ~mask))
        return f"R11: a shuffle must hold all {size} cards once; missing {missing}"
    return None


def _next_active(folded: tuple[bool, ...], seat: int) -> int:
    left = _LEFT[len(folded)]
    seat = left[seat]
    while folded[seat]:
        seat = left[seat]
    return seat


def summarize(facts: ScoredDeal) -> DealSummary:
    """The :class:`DealSummary` of a scored deal (:func:`scored_deal`), built when it is
    first read: a game whose past deals nobody reads never builds their tricks."""
    game, trump, took_trump, folded, exchanged, played, won, scores, cut = facts
    _, rules, dealer, deal_number, before, _, _ = game
    pairs = CARD_PAIRS
    tricks = tuple(
        [Trick(tuple([pairs[s][i] for s, i in plays]), winner) for plays, winner in played]
    )
    return DealSummary(  # positional, in the order of its fields: cheaper than by name
        deal_number, dealer, CARDS[trump], SUITS[SUIT_OF[trump]], took_trump, folded,
        exchanged, tricks, won, tuple(map(_minus, scores, before)),
        scores, SUIT_OF[trump] == _HEARTS and rules.hearts_double, cut,
    )  # fmt: skip


# ----------------------------------------------------------------- new games


def new_game(num_players: int = 4, *, rules: Rules = _DEFAULT_RULES, dealer: int = 0) -> GameState:
    """A new game at its first chance node (phase DEAL), every player at ``start_score``.

    Args:
        num_players: 2, 3 or 4; up to 7 with ``Rules(pack=36)`` (R1).
        rules: the variants (RULES.md §8); default rules if omitted.
        dealer: the first dealer's seat (R3: chosen by the caller).

    Raises:
        TypeError: naming the argument, for an argument of the wrong type.
        ValueError: naming the argument, for a bad player count or seat (five to seven
            players need ``Rules(pack=36)``).
    """
    check_int(num_players, "num_players", "new_game(num_players)")
    check_instance(rules, Rules, "rules", "new_game(rules=)")
    if not 2 <= num_players <= rules.max_players:
        raise ValueError(
            f"num_players must be 2 to {rules.max_players} with the {rules.pack}-card pack "
            f"(R1), got {num_players}"
        )
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
