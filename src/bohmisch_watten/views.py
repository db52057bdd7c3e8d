"""What one seat may know: :class:`PlayerView`, its legal actions, key and samples (R13, R23).

A :class:`~bohmisch_watten.GameState` knows every card; a :class:`PlayerView` holds only
what one seat may know, so that bots and UIs can work from it and never from more:

* the seat's own hand, its own discards and draws (R23), the cards it looked at in the
  cutting ritual (R13);
* the public facts of the deal: the Criticals taken in the cut (R13) and whether a
  Critical was declined (README decision), the trump card and whether the dealer took it
  (R19), who folded and how many cards each player exchanged (R23), every card played,
  by whom, trick by trick, the tricks won, and the size of the stock;
* the game: scores, phase, dealer, deal number, seat to act, the summary of the previous
  deal, and the public record of every finished deal (:class:`PublicDeal`).

It never holds another seat's hidden cards, the stock or its order, or other seats'
discards.  The seat's own hidden cards of *finished* deals are not kept either: every
deal is shuffled afresh (R11), so they say nothing about the game from now on.

The public action history is not stored as such because it is implied: within a deal
the order of events is fixed by the rules (ritual, exchange from forehand, tricks), and
:meth:`PlayerView.public_history` rebuilds it.
"""

from __future__ import annotations

import inspect
import random
from typing import Any, Final

import attrs

from .actions import Action, Shuffle
from .cards import CARDS, Card, bits
from .deals import CutEntry, CutLook, DealFacts, DealSummary, PastDeals, PublicDeal
from .determinize import DealInfo, Plan, deal_actions, deal_nodes, exchange_action
from .errors import check_int, check_rng, warn_deprecated
from .notation import MAX_DOCUMENT_CHARS
from .phases import Phase
from .position import Position
from .rules import Rules
from .scoring import game_returns
from .seats import left_of, right_of, seat_order, turn_text
from .state import GameState, build_state, final_position, last_shuffle
from .tricks import CRITICAL_MASK, PlayedTrick, Plays

__all__ = ["PlayerView", "PublicDeal"]


def _codes(mask: int) -> list[str]:
    return [str(CARDS[i]) for i in bits(mask)]


def _cut_public(cut: tuple[tuple[int, int, bool], ...], player: int) -> tuple[CutEntry, ...]:
    """R13: taken cards are public, a card left is known only to the seat that looked."""
    return tuple(
        (seat, card if taken or seat == player else -1, taken, bool(CRITICAL_MASK >> card & 1))
        for seat, card, taken in cut
    )


@attrs.frozen(slots=True, repr=False, cache_hash=True, weakref_slot=False)
class PlayerView(DealFacts):
    """What seat ``player`` may know at one moment of the game (R13, R23); immutable.

    Get one with :meth:`GameState.view` (or read one with ``from_json``); it is not
    built by hand: its fields are the engine's compact form (cards as indices, sets of
    cards as bitmasks), private, so its signature shows none of them and the
    properties return :class:`Card` objects.  Two states that differ only in cards this
    seat cannot see give equal views (and equal :meth:`to_dict` and
    :meth:`information_set`).

    Attributes:
        player: the seat whose view this is.
        num_players: as on :class:`GameState`.
        rules: the variants of the game (public).
        phase: the phase of the game.
        dealer: the dealer's seat.
        deal_number: 1 for the first deal.
        scores: per seat, the score (public).
        current_player: the seat to act, None at chance nodes and at the end.
        last_deal: the summary of the previous deal (public parts only).
        winners: the winners once the game is over (R34).
        losers: the losers once the game is over (R34).
    """

    player: int
    num_players: int
    rules: Rules
    phase: Phase
    dealer: int
    deal_number: int
    scores: tuple[int, ...]
    current_player: int | None
    _hand: int
    _discards: int
    _draws: tuple[int, ...]
    _cut: tuple[CutEntry, ...]
    _trump: int
    _took_trump: bool
    _folded: tuple[bool, ...]
    _exchanged: tuple[int, ...]
    _stock_size: int
    _trick: Plays
    _tricks: tuple[PlayedTrick, ...]
    _tricks_won: tuple[int, ...]
    _past: PastDeals
    winners: tuple[int, ...]
    losers: tuple[int, ...]
    _previous_folds: tuple[bool, ...]
    _plan: Plan | None = attrs.field(default=None, init=False, eq=False, hash=False)
    _position: Position | None = attrs.field(default=None, init=False, eq=False, hash=False)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle the fields only: the sampler's tables are rebuilt when needed."""
        return (PlayerView, tuple(getattr(self, name) for name in _VIEW_FIELDS))

    # ------------------------------------------------------------------ reading

    @property
    def hand(self) -> tuple[Card, ...]:
        """This seat's cards, sorted (during the ritual: the Criticals it took)."""
        return tuple(CARDS[i] for i in bits(self._hand))

    @property
    def discards(self) -> tuple[Card, ...]:
        """The cards this seat discarded in this deal's exchange, sorted (R23)."""
        return tuple(CARDS[i] for i in bits(self._discards))

    @property
    def draws(self) -> tuple[Card, ...]:
        """The cards this seat drew from the stock in this deal, in the order drawn (R23)."""
        return tuple(CARDS[i] for i in self._draws)

    @property
    def cut_looks(self) -> tuple[CutLook, ...]:
        """The ritual so far, each look a :class:`~bohmisch_watten.deals.CutLook`
        ``(seat, card or None, taken, critical)`` (R13), as on the state.

        The card is None where only another seat knows it.
        """
        return tuple(
            CutLook(seat, CARDS[c] if c >= 0 else None, taken, critical)
            for seat, c, taken, critical in self._cut
        )

    @property
    def cut_cards(self) -> tuple[tuple[int, Card | None, bool, bool], ...]:
        """Deprecated: the same looks as :attr:`cut_looks`, which has one shape on the
        state and the view."""
        warn_deprecated("PlayerView.cut_cards", "use cut_looks, the same on the state")
        return self.cut_looks

    @property
    def stock_size(self) -> int:
        """The cards left in the stock (during the ritual: the undealt pack) (R20)."""
        return self._stock_size

    @property
    def forehand(self) -> int:
        """The seat left of the dealer: first to decide and to lead (R2), as on the state."""
        return left_of(self.dealer, self.num_players)

    @property
    def cutter(self) -> int:
        """The seat right of the dealer, who cuts (R2), as on the state."""
        return right_of(self.dealer, self.num_players)

    # -------------------------------------------------- the compact form, read-only
    # Cards as indices 0–31 (``Card.index``), sets of cards as bitmasks (bit i for the
    # card of index i): what documents and encoders read instead of private fields.

    @property
    def hand_mask(self) -> int:
        """The compact form of :attr:`hand`: a bitmask of card indices."""
        return self._hand

    @property
    def discard_mask(self) -> int:
        """The compact form of :attr:`discards`: a bitmask of card indices (R23)."""
        return self._discards

    @property
    def draw_indices(self) -> tuple[int, ...]:
        """The compact form of :attr:`draws`: card indices in the order drawn (R23)."""
        return self._draws

    @property
    def cut_entries(self) -> tuple[CutEntry, ...]:
        """The compact form of :attr:`cut_looks`: ``(seat, card index or -1, taken,
        was a Critical)``, -1 where only another seat knows the card (R13)."""
        return self._cut

    @property
    def past_summaries(self) -> PastDeals:
        """The finished deals as :class:`~bohmisch_watten.DealSummary` objects (all public).

        The same record :attr:`past_deals` gives as :class:`PublicDeal` objects, shared
        with the state the view was made from, not copied.
        """
        return self._past

    @property
    def previous_folds(self) -> tuple[bool, ...]:
        """Per seat, whether he folded in the previous deal (R21.4: he may not fold again).

        Public, as on :attr:`GameState.previous_folds <bohmisch_watten.GameState.previous_folds>`.
        """
        return self._previous_folds

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """Per seat, how many cards he holds (folded players keep five, set aside)."""
        n = self.num_players
        if self.phase is Phase.CUT:
            sizes = [0] * n
            for seat, _, taken, _ in self._cut:
                sizes[seat] += taken
            return tuple(sizes)
        if self._trump < 0:
            return (0,) * n
        played = [0] * n
        for plays, _ in self._tricks:
            for seat, _ in plays:
                played[seat] += 1
        for seat, _ in self._trick:
            played[seat] += 1
        return tuple(5 - k for k in played)

    @property
    def position(self) -> Position:
        """The :class:`~bohmisch_watten.Position` at the start of the current deal.

        The same as :attr:`GameState.position <bohmisch_watten.GameState.position>`:
        everything in it is public (R23).
        """
        position = self._position
        if position is None:  # built once per view: samples and legal actions reuse it
            n = self.num_players
            if self.phase is Phase.GAME_OVER:
                position = final_position(
                    n, self.rules, self.dealer, self.deal_number, self.scores,
                    self._previous_folds,
                )  # fmt: skip
            else:
                position = Position(
                    n, self.rules, self.dealer, self.deal_number, self.scores,
                    self._previous_folds,
                )  # fmt: skip
            object.__setattr__(self, "_position", position)
        return position

    @property
    def past_deals(self) -> tuple[PublicDeal, ...]:
        """The public record of every finished deal the state knows of, oldest first.

        For a game from :func:`~bohmisch_watten.new_game`, every finished deal of the
        game; for one from :meth:`GameState.from_position
        <bohmisch_watten.GameState.from_position>`, those played since that position.
        """
        return tuple([deal.public() for deal in self._past])

    @property
    def last_deal(self) -> DealSummary | None:
        """The summary of the previous deal (all public), None if there is none."""
        return self._past.last

    def __str__(self) -> str:
        """The table of ``str(state)`` as this seat sees it, hidden cards as ``??``."""
        from .state_text import render_view  # the text forms import this module

        return render_view(self)

    def __repr__(self) -> str:
        turn = turn_text(self.phase, self.current_player, self.winners, self.losers)
        hand = " ".join(_codes(self._hand))
        return (
            f"<PlayerView seat {self.player} of {self.num_players}, deal {self.deal_number}, "
            f"{self.phase.name}, {turn}, hand [{hand}]>"
        )

    def _repr_svg_(self) -> str:
        """The table as this seat sees it, for Jupyter (:func:`~bohmisch_watten.svg.table_svg`)."""
        from .svg import table_svg  # svg imports this module

        return table_svg(self)

    # ------------------------------------------------------------- derived data

    def public_history(self) -> tuple[tuple[int | None, Action | None], ...]:
        """This deal's actions as this seat saw them, in order.

        The chance event is ``(None, None)`` (the pack is hidden, R11); another seat's
        exchange is ``(seat, None)``, its size being in :attr:`exchanged` (R23);
        everything else (Take, Leave, Fold, this seat's exchange, every play) appears as
        it was taken.
        """
        if self._trump < 0 and self.phase is not Phase.CUT:
            return ()
        player, dealer, took, discards = self.player, self.dealer, self._took_trump, self._discards
        return tuple(
            deal_actions(
                self._deal_info(),
                None,  # R11: the pack is hidden
                lambda q: exchange_action(q, dealer, took, discards) if q == player else None,
            )
        )

    def _shell(self) -> GameState:
        """A state holding only this view's facts (other hands empty, stock of blanks).

        Legal actions depend only on the acting seat's hand, the trick, the stock size
        and public facts, so asking this shell reuses the engine's own rule code (R18–R25).
        """
        n, p = self.num_players, self.player
        return build_state(
            position=self.position,
            past=self._past,
            phase=self.phase,
            current_player=self.current_player,
            pack=(0,) * self._stock_size,
            hands=tuple(self._hand if s == p else 0 for s in range(n)),
            trump=self._trump,
            took_trump=self._took_trump,
            folded=self._folded,
            exchanged=self._exchanged,
            trick=self._trick,
            tricks=self._tricks,
            tricks_won=self._tricks_won,
        )

    def legal_actions(self) -> tuple[Action, ...]:
        """``state.legal_actions()`` when this seat is to act, else ``()`` (R12, R18–R25).

        Computed from the view alone, so a bot never needs the full state.
        """
        if self.current_player != self.player:
            return ()
        return self._shell().legal_actions()

    def is_legal(self, action: object) -> bool:
        """Whether this seat may take ``action`` now: ``state.is_legal(action, seat=player)``.

        False whenever another seat (or chance) is to act.  Computed from the view alone.
        """
        if self.current_player != self.player:
            return False
        return action in self.legal_actions()

    def returns(self) -> tuple[float, ...]:
        """As :meth:`GameState.returns`: +1.0 winner, -1.0 loser, 0.0 else (R34)."""
        return game_returns(self.num_players, self.winners, self.losers)

    def information_set(self) -> tuple[Any, ...]:
        """A compact hashable key, equal for two views exactly when they are equal.

        Plain ints and tuples (cards as indices, hands as bitmasks) plus the
        :class:`Rules`; :attr:`last_deal` is left out because the record of finished deals
        and the scores determine it.
        """
        return (
            self.player, self.num_players, self.rules, self.phase.value, self.dealer,
            self.deal_number, self.scores, self.current_player, self._hand, self._discards,
            self._draws, self._cut, self._trump, self._took_trump, self._folded,
            self._exchanged, self._stock_size, self._trick, self._tricks, self._tricks_won,
            self.winners, self.losers, self._past,
        )  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        """The view as plain JSON data (str, int, bool, None, list, dict), stable keys.

        Cards are notation strings such as ``"HK"``; sets of cards (hand, discards) are
        sorted in card order; draws keep the order drawn.  Written by
        :mod:`bohmisch_watten.serialization`, next to the reader of view documents.
        """
        from .serialization import view_to_dict  # the writer sits next to its reader

        return view_to_dict(self)

    def to_text(self) -> str:
        """What this seat knows on one line, ``?`` for every card it cannot know.

        The format of :meth:`GameState.to_text <bohmisch_watten.GameState.to_text>`
        (see :mod:`bohmisch_watten.state_text`), without the pack: for bug reports and
        puzzles told from one seat.
        """
        from .state_text import view_to_text

        return view_to_text(self)

    def to_json(self, *, indent: int | None = None) -> str:
        """This view as a JSON document, like :meth:`GameState.to_json` for a state.

        :meth:`from_json` reads it back to an equal view, checking every field; it holds
        only what this seat may know.
        """
        from .serialization import to_json  # the writer sits next to its reader

        return to_json(self, indent=indent)

    @staticmethod
    def from_json(text: str | bytes, *, max_chars: int = MAX_DOCUMENT_CHARS) -> PlayerView:
        """Read a view document written by :meth:`to_json`, checking every field.

        The reader beside its writer, as :meth:`GameState.from_json` for a state; it is
        :func:`~bohmisch_watten.serialization.view_from_json`.

        Raises:
            FormatError: for anything but the document of a view the rules can produce.
        """
        from .serialization import view_from_json  # the reader sits next to its writer

        return view_from_json(text, max_chars=max_chars)

    # ----------------------------------------------------------------- sampling

    def _deal_info(self) -> DealInfo:
        return DealInfo(
            self.num_players, self.dealer, self.rules.must_head, self._cut,
            self.phase is Phase.CUT, self._trump, self._took_trump, self._folded,
            self._exchanged, self._tricks, self._trick, self._stock_size, self.player,
            self._hand, self._discards, self._draws, self.rules.pack,
        )  # fmt: skip

    def sample_state(self, rng: random.Random) -> GameState:
        """A full state consistent with this view, for determinization and IS-MCTS.

        The hidden cards go to the places this seat cannot see, uniformly among all deals
        consistent with the view (see the internal ``bohmisch_watten.determinize``): voids shown by
        play (R25), no trump held by a player who did not trump when void, no card that
        would have headed or overtrumped when that was compulsory (R25, R26), the taken
        Criticals and the dealer's taken trump card where they are (R13, R19), the cut
        cards this seat saw at the bottom (R13).  ``sample.view(player) == self``.

        The sample's history starts at the current deal's :attr:`position` (its
        :attr:`~bohmisch_watten.GameState.start_position`) and replays legally from there;
        it carries the same public record of earlier deals as this view, shared, not
        copied.  Nothing about earlier deals is made up: a fresh shuffle (R11) makes
        their hidden cards irrelevant, so a sample costs the same at deal 80 as at deal 2.

        Raises:
            TypeError: if ``rng`` is not a ``random.Random``.
            ValueError: if the view is inconsistent (it was not made by :meth:`GameState.view`).
        """
        check_rng(rng, "sample_state(rng)")
        phase = self.phase
        if phase is Phase.DEAL or phase is Phase.GAME_OVER:
            return build_state(position=self.position, past=self._past, phase=phase)
        plan = self._plan
        if plan is None:
            plan = Plan(self._deal_info())
            object.__setattr__(self, "_plan", plan)
        world = plan.draw(rng)
        return build_state(
            position=self.position,
            past=self._past,
            phase=phase,
            current_player=self.current_player,
            pack=world.stock,
            hands=world.hands,
            trump=self._trump,
            took_trump=self._took_trump,
            folded=self._folded,
            exchanged=self._exchanged,
            discards=world.discards,
            cut=world.cut,
            trick=self._trick,
            tricks=self._tricks,
            tricks_won=self._tricks_won,
            history=deal_nodes(None, self._deal_info(), _shuffle_of(world.pack), world.discards),
        )


_VIEW_FIELDS: Final = tuple(field.name for field in attrs.fields(PlayerView) if field.init)

# The constructor's fields are the compact internal form: ``help(PlayerView)``,
# ``inspect.signature`` and the API page show no bitmask (views come from state.view).
_INTERNAL_FIELDS: Final = inspect.Parameter("fields", inspect.Parameter.VAR_POSITIONAL)
PlayerView.__signature__ = inspect.Signature([_INTERNAL_FIELDS])  # type: ignore[attr-defined]
PlayerView.__init__.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
    [inspect.Parameter("self", inspect.Parameter.POSITIONAL_ONLY), _INTERNAL_FIELDS]
)


# ------------------------------------------------------------------ histories


def _shuffle_of(pack: list[int]) -> Shuffle:
    return Shuffle(tuple([CARDS[i] for i in pack]))


def make_view(state: GameState, player: int) -> PlayerView:
    """Build ``state.view(player)``; see :class:`PlayerView`.

    Raises:
        TypeError: naming ``player`` if it is not an int.
        ValueError: naming ``player`` if it is not a seat of this game.
    """
    n = state.num_players
    check_int(player, "player", "view(player)")
    if not 0 <= player < n:
        raise ValueError(f"player must be a seat from 0 to {n - 1}, got {player!r}")
    phase = state.phase
    deal = state.deal_fields
    exchanged = deal.exchanged
    draws = drawn_cards(state, player)
    return PlayerView(
        player=player,
        num_players=n,
        rules=state.rules,
        phase=phase,
        dealer=state.dealer,
        deal_number=state.deal_number,
        scores=state.scores,
        current_player=state.current_player,
        hand=state.hand_masks[player],
        discards=deal.discards[player],
        draws=draws,
        cut=_cut_public(deal.cut, player),
        trump=deal.trump,
        took_trump=deal.took_trump,
        folded=deal.folded,
        exchanged=exchanged,
        stock_size=len(deal.pack),
        trick=state.trick_plays,
        tricks=state.played_tricks,
        tricks_won=state.tricks_won,
        past=state.past_deals,
        winners=state.winners,
        losers=state.losers,
        previous_folds=state.previous_folds,
    )


def drawn_cards(state: GameState, player: int) -> tuple[int, ...]:
    """The card indices ``player`` drew from the stock in this deal, in order (R20).

    What ``state.view(player)`` holds as ``draw_indices``, and only that seat's view
    (R23): () before it exchanged.  The draws are not among the state's compact fields
    but read off the deal's shuffle, so this is the one reading of them, for the view
    and for the encoder of :mod:`bohmisch_watten.adapters.fast`, which needs them
    without building a whole view.
    """
    phase = state.phase
    deal = state.deal_fields
    if phase is Phase.CUT or phase is Phase.DEAL or deal.exchanged[player] <= 0:
        return ()
    exchanged, n = deal.exchanged, state.num_players
    dealer, took = state.dealer, deal.took_trump
    order = seat_order(dealer, n)
    counts = {
        q: exchanged[q] - (1 if q == dealer and took else 0) for q in order if exchanged[q] >= 0
    }
    takes = sum(1 for _, _, taken in deal.cut if taken)
    # The stock cards drawn so far lie just above what is left of the stock, in seat order.
    size = state.game_fields.rules.pack  # R6: 32 or 36 cards
    first = max(0, size - takes - len(deal.pack) - sum(counts.values()))
    for q in order:
        if q == player:
            break
        first += counts.get(q, 0)
    drawn = last_shuffle(state.history_node).pack[first : min(first + counts[player], size - takes)]
    return tuple([card.index for card in drawn])
