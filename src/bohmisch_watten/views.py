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

import random
from typing import Any, NamedTuple

import attrs

from .actions import (
    EXCHANGES,
    EXCHANGES_WITH_TRUMP,
    FOLD,
    LEAVE,
    PLAY_ACTIONS,
    TAKE,
    Action,
    Shuffle,
)
from .cards import DECK, Card
from .facts import DealFacts
from .phases import Phase
from .position import Position
from .rules import Rules
from .sampling import CutEntry, DealInfo, Plan, Plays
from .scoring import game_returns
from .state import GameState, new_game
from .summary import DealSummary
from .tables import CRITICAL_MASK, bits

__all__ = ["PlayerView", "PublicDeal"]

_Node = tuple[Any, int | None, Action]
_TrickData = tuple[Plays, int]


class PublicDeal(NamedTuple):
    """The public record of one finished deal: what every seat saw (R13, R23).

    Cards are indices into :data:`~bohmisch_watten.DECK`.

    Attributes:
        dealer: the dealer's seat.
        cut: the looks of the ritual ``(seat, card or -1, taken, critical)``; a card not
            taken is -1 because only the seat that looked knows it (R13).
        trump: the trump card (R15).
        took_trump: whether the dealer took it (R19).
        folded: per seat (R18).
        exchanged: per seat, cards exchanged, -1 for a folded player (R23).
        tricks: the five tricks, ``((seat, card), ...)`` and the winner (R27).
        scores: the scores after the deal (R29–R32).
    """

    dealer: int
    cut: tuple[CutEntry, ...]
    trump: int
    took_trump: bool
    folded: tuple[bool, ...]
    exchanged: tuple[int, ...]
    tricks: tuple[_TrickData, ...]
    scores: tuple[int, ...]


def _codes(mask: int) -> list[str]:
    return [str(DECK[i]) for i in bits(mask)]


def _cut_public(cut: tuple[tuple[int, int, bool], ...], player: int) -> tuple[CutEntry, ...]:
    """R13: taken cards are public, a card left is known only to the seat that looked."""
    return tuple(
        (seat, card if taken or seat == player else -1, taken, bool(CRITICAL_MASK >> card & 1))
        for seat, card, taken in cut
    )


def _tricks_dict(tricks: tuple[_TrickData, ...]) -> list[dict[str, Any]]:
    return [
        {"plays": [{"seat": s, "card": str(DECK[c])} for s, c in plays], "winner": winner}
        for plays, winner in tricks
    ]


def _cut_dict(cut: tuple[CutEntry, ...]) -> list[dict[str, Any]]:
    return [
        {
            "seat": seat,
            "card": str(DECK[card]) if card >= 0 else None,
            "taken": taken,
            "critical": critical,
        }
        for seat, card, taken, critical in cut
    ]


@attrs.frozen(slots=True, repr=False, cache_hash=True, weakref_slot=False)
class PlayerView(DealFacts):
    """What seat ``player`` may know at one moment of the game (R13, R23); immutable.

    Get one with :meth:`GameState.view`.  Two states that differ only in cards this seat
    cannot see give equal views (and equal :meth:`to_dict` and :meth:`information_set`).
    Cards are kept as indices internally; the properties return :class:`Card` objects.

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
    _tricks: tuple[_TrickData, ...]
    _tricks_won: tuple[int, ...]
    last_deal: DealSummary | None
    winners: tuple[int, ...]
    losers: tuple[int, ...]
    _past: tuple[PublicDeal, ...]
    _previous_folds: tuple[bool, ...]
    _plan: Plan | None = attrs.field(default=None, init=False, eq=False, hash=False)

    # ------------------------------------------------------------------ reading

    @property
    def hand(self) -> tuple[Card, ...]:
        """This seat's cards, sorted (during the ritual: the Criticals it took)."""
        return tuple(DECK[i] for i in bits(self._hand))

    @property
    def discards(self) -> tuple[Card, ...]:
        """The cards this seat discarded in this deal's exchange, sorted (R23)."""
        return tuple(DECK[i] for i in bits(self._discards))

    @property
    def draws(self) -> tuple[Card, ...]:
        """The cards this seat drew from the stock in this deal, in the order drawn (R23)."""
        return tuple(DECK[i] for i in self._draws)

    @property
    def cut_cards(self) -> tuple[tuple[int, Card | None, bool, bool], ...]:
        """The ritual so far: ``(seat who looked, card or None, taken, was a Critical)`` (R13).

        The card is None where only another seat knows it.
        """
        return tuple(
            (seat, DECK[c] if c >= 0 else None, taken, critical)
            for seat, c, taken, critical in self._cut
        )

    @property
    def stock_size(self) -> int:
        """The cards left in the stock (during the ritual: the undealt pack) (R20)."""
        return self._stock_size

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
        n = self.num_players
        if self.phase is Phase.GAME_OVER:
            return Position(
                n, self.rules, (self.dealer + 1) % n, self.deal_number + 1, self.scores,
                self._previous_folds,
            )  # fmt: skip
        return Position(
            n, self.rules, self.dealer, self.deal_number, self.scores, self._previous_folds
        )

    @property
    def past_deals(self) -> tuple[PublicDeal, ...]:
        """The public record of every finished deal of the game, oldest first."""
        return self._past

    def __repr__(self) -> str:
        turn = "chance" if self.current_player is None else f"seat {self.current_player}"
        hand = " ".join(_codes(self._hand))
        return (
            f"<PlayerView seat {self.player} of {self.num_players}, deal {self.deal_number}, "
            f"{self.phase.name}, {turn}, hand [{hand}]>"
        )

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
        out: list[tuple[int | None, Action | None]] = [(None, None)]
        last = len(self._cut) - 1
        for i, (seat, _, taken, critical) in enumerate(self._cut):
            if taken:
                out.append((seat, TAKE))
            elif critical and not (i == last and self.phase is Phase.CUT):
                out.append((seat, LEAVE))
        if self._trump < 0:
            return tuple(out)
        n = self.num_players
        for q in ((self.dealer + 1 + i) % n for i in range(n)):
            if self._folded[q]:
                out.append((q, FOLD))
            elif self._exchanged[q] >= 0:
                if q == self.player:
                    table = (
                        EXCHANGES_WITH_TRUMP if self._took_trump and q == self.dealer else EXCHANGES
                    )
                    out.append((q, table[self._discards]))
                else:
                    out.append((q, None))
        for plays, _ in self._tricks:
            out += [(s, PLAY_ACTIONS[c]) for s, c in plays]
        out += [(s, PLAY_ACTIONS[c]) for s, c in self._trick]
        return tuple(out)

    def _shell(self) -> GameState:
        """A state holding only this view's facts (other hands empty, stock of blanks).

        Legal actions depend only on the acting seat's hand, the trick, the stock size
        and public facts, so asking this shell reuses the engine's own rule code (R18–R25).
        """
        n, p = self.num_players, self.player
        return GameState(
            n, self.rules, self.phase, self.dealer, self.deal_number, self.scores,
            self.current_player, (0,) * self._stock_size,
            tuple(self._hand if s == p else 0 for s in range(n)), self._trump, self._took_trump,
            self._folded, self._exchanged, (0,) * n, (), self._trick, self._tricks,
            self._tricks_won, self.last_deal, self.winners, self.losers, None, self.position,
        )  # fmt: skip

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
        return self._shell().is_legal(action)

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
        sorted in card order; draws keep the order drawn.
        """
        rules = {
            field.name: (
                getattr(self.rules, field.name).value
                if hasattr(getattr(self.rules, field.name), "value")
                else getattr(self.rules, field.name)
            )
            for field in attrs.fields(Rules)
        }
        last = self.last_deal
        return {
            "player": self.player,
            "num_players": self.num_players,
            "rules": rules,
            "phase": self.phase.value,
            "dealer": self.dealer,
            "deal_number": self.deal_number,
            "scores": list(self.scores),
            "current_player": self.current_player,
            "hand": _codes(self._hand),
            "discards": _codes(self._discards),
            "draws": [str(DECK[i]) for i in self._draws],
            "cut": _cut_dict(self._cut),
            "trump_card": str(DECK[self._trump]) if self._trump >= 0 else None,
            "trump_card_taken": self._took_trump,
            "folded": list(self._folded),
            "exchanged": list(self.exchanged),
            "stock_size": self._stock_size,
            "hand_sizes": list(self.hand_sizes),
            "trick": [{"seat": s, "card": str(DECK[c])} for s, c in self._trick],
            "tricks": _tricks_dict(self._tricks),
            "tricks_won": list(self._tricks_won),
            "legal_actions": [str(a) for a in self.legal_actions()],
            "last_deal": None
            if last is None
            else {
                "deal_number": last.deal_number,
                "dealer": last.dealer,
                "trump_card": str(last.trump_card),
                "trump_card_taken": last.trump_card_taken,
                "folded": list(last.folded),
                "exchanged": list(last.exchanged),
                "tricks": [
                    {"plays": [{"seat": s, "card": str(c)} for s, c in t.plays], "winner": t.winner}
                    for t in last.tricks
                ],
                "tricks_won": list(last.tricks_won),
                "points": list(last.points),
                "scores": list(last.scores),
                "doubled": last.doubled,
            },
            "winners": list(self.winners),
            "losers": list(self.losers),
            "past_deals": [
                {
                    "dealer": d.dealer,
                    "cut": _cut_dict(d.cut),
                    "trump_card": str(DECK[d.trump]),
                    "trump_card_taken": d.took_trump,
                    "folded": list(d.folded),
                    "exchanged": [None if k < 0 else k for k in d.exchanged],
                    "tricks": _tricks_dict(d.tricks),
                    "scores": list(d.scores),
                }
                for d in self._past
            ],
        }

    # ----------------------------------------------------------------- sampling

    def _deal_info(self) -> DealInfo:
        return DealInfo(
            self.num_players, self.dealer, self.rules.must_head, self._cut,
            self.phase is Phase.CUT, self._trump, self._took_trump, self._folded,
            self._exchanged, self._tricks, self._trick, self._stock_size, self.player,
            self._hand, self._discards, self._draws,
        )  # fmt: skip

    def sample_state(self, rng: random.Random) -> GameState:
        """A full state consistent with this view, for determinization and IS-MCTS.

        The hidden cards go to the places this seat cannot see, uniformly among all deals
        consistent with the view (see :mod:`bohmisch_watten.sampling`): voids shown by
        play (R25), no trump held by a player who did not trump when void, no card that
        would have headed or overtrumped when that was compulsory (R25, R26), the taken
        Criticals and the dealer's taken trump card where they are (R13, R19), the cut
        cards this seat saw at the bottom (R13).  ``sample.view(player) == self`` and the
        sample's history replays legally from :func:`new_game`.

        Finished deals are rebuilt from their public record once per record (seeded, not
        from the real state, so nothing hidden crosses over); a new shuffle makes them
        irrelevant to the current deal.

        Raises:
            ValueError: if the view is inconsistent (it was not made by :meth:`GameState.view`).
        """
        prefix = _prefix_state(self)
        if self.phase is Phase.DEAL or self.phase is Phase.GAME_OVER:
            return prefix
        plan = self._plan
        if plan is None:
            plan = Plan(self._deal_info())
            object.__setattr__(self, "_plan", plan)
        world = plan.draw(rng)
        node = _deal_nodes(prefix._history, self._deal_info(), world.pack, world.discards)
        return GameState(
            self.num_players, self.rules, self.phase, self.dealer, self.deal_number,
            self.scores, self.current_player, world.stock, world.hands, self._trump,
            self._took_trump, self._folded, self._exchanged, world.discards, world.cut,
            self._trick, self._tricks, self._tricks_won, self.last_deal, (), (), node,
            prefix._start,
        )  # fmt: skip


# ------------------------------------------------------------------ histories


def _push(node: _Node | None, seat: int | None, action: Action) -> _Node:
    """One more action on a linked history (typed, so that loops do not widen the type)."""
    return (node, seat, action)


def _deal_nodes(
    node: _Node | None,
    info: DealInfo,
    pack: list[int],
    discards: tuple[int, ...],
) -> _Node:
    """Append one deal's actions to a history: shuffle, ritual, exchange, plays."""
    head = _push(node, None, Shuffle(tuple([DECK[i] for i in pack])))
    last = len(info.cut) - 1
    for i, (seat, _, taken, critical) in enumerate(info.cut):
        if taken:
            head = _push(head, seat, TAKE)
        elif critical and not (i == last and info.cut_pending):
            head = _push(head, seat, LEAVE)
    if info.trump < 0:
        return head
    n, dealer = info.num_players, info.dealer
    for q in ((dealer + 1 + i) % n for i in range(n)):
        if info.folded[q]:
            head = _push(head, q, FOLD)
        elif info.exchanged[q] >= 0:
            table = EXCHANGES_WITH_TRUMP if q == dealer and info.took_trump else EXCHANGES
            head = _push(head, q, table[discards[q]])
    for plays, _ in info.tricks:
        for seat, card in plays:
            head = _push(head, seat, PLAY_ACTIONS[card])
    for seat, card in info.trick:
        head = _push(head, seat, PLAY_ACTIONS[card])
    return head


def _actions(node: _Node | None) -> list[tuple[int | None, Action]]:
    out = []
    while node is not None:
        out.append((node[1], node[2]))
        node = node[0]
    out.reverse()
    return out


_PREFIX_LIMIT = 256
_prefixes: dict[tuple[int, int, Rules, int], tuple[tuple[PublicDeal, ...], GameState]] = {}
_PREFIX_SEED = 0x5EED


def _prefix_state(view: PlayerView) -> GameState:
    """A state at the start of the current deal whose finished deals match the record.

    Each finished deal is drawn by the same exact sampler with no seat's private cards
    (public facts only) and a fixed seed, then replayed with ``apply()``, which checks
    every step.  Cached per record object, so it costs once per deal, not per sample.
    """
    n = view.num_players
    first = (view.dealer - (view.deal_number - 1)) % n  # R4
    past = view._past
    key = (id(past), n, view.rules, first)
    hit = _prefixes.get(key)
    if hit is not None and hit[0] is past:
        return hit[1]
    rng = random.Random(_PREFIX_SEED)
    state = new_game(n, rules=view.rules, dealer=first)
    stock = 31 - 5 * n  # R15: 32 cards, 5 per hand, the trump card
    for deal in past:
        draws = sum(
            k - (1 if q == deal.dealer and deal.took_trump else 0)
            for q, k in enumerate(deal.exchanged)
            if k >= 0
        )
        won = [0] * n
        for _, winner in deal.tricks:
            won[winner] += 1
        info = DealInfo(
            n, deal.dealer, view.rules.must_head, deal.cut, False, deal.trump,
            deal.took_trump, deal.folded, deal.exchanged, deal.tricks, (), stock - draws,
            -1, 0, 0, (),
        )  # fmt: skip
        world = Plan(info).draw(rng)
        for _, action in _actions(_deal_nodes(None, info, world.pack, world.discards)):
            state = state.apply(action)
    if len(_prefixes) >= _PREFIX_LIMIT:
        _prefixes.clear()
    _prefixes[key] = (past, state)
    return state


# ---------------------------------------------------------- building a view

_RECORD_LIMIT = 4096
_records: dict[int, tuple[_Node | None, tuple[PublicDeal, ...], GameState]] = {}


def _finished_deals(state: GameState, boundary: _Node | None) -> tuple[PublicDeal, ...]:
    """The public records of every deal that ended at or before ``boundary``.

    The history is a linked list shared by all states of a game, so the records of the
    deals before a node are cached by node identity (the node is kept alive in the cache,
    so its id cannot be reused) and extended one deal at a time: building a view costs a
    walk back to the start of the current deal, not a replay of the game.
    """
    pending: list[tuple[_Node, list[Action]]] = []
    node = boundary
    base: tuple[tuple[PublicDeal, ...], GameState] | None = None
    while node is not None:
        hit = _records.get(id(node))
        if hit is not None and hit[0] is node:
            base = (hit[1], hit[2])
            break
        end = node
        actions: list[Action] = []
        while True:
            actions.append(node[2])
            if isinstance(node[2], Shuffle):
                break
            node = node[0]
        actions.reverse()
        pending.append((end, actions))
        node = node[0]
    if base is None:
        base = ((), GameState.from_position(state.start_position))
    records, current = base
    for end, actions in reversed(pending):
        before = current
        for action in actions:
            before, current = current, current.apply(action)
        summary = current.last_deal
        assert summary is not None
        record = PublicDeal(
            before.dealer,
            _cut_public(before._cut, -1),
            before._trump,
            before._took_trump,
            before._folded,
            before._exchanged,
            tuple((tuple((s, c.index) for s, c in t.plays), t.winner) for t in summary.tricks),
            current.scores,
        )
        records = (*records, record)
        if len(_records) >= _RECORD_LIMIT:
            _records.clear()
        _records[id(end)] = (end, records, current)
    return records


def make_view(state: GameState, player: int) -> PlayerView:
    """Build ``state.view(player)``; see :class:`PlayerView`.

    Raises:
        ValueError: naming ``player`` if it is not a seat of this game.
    """
    n = state.num_players
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < n:
        raise ValueError(f"player must be a seat from 0 to {n - 1}, got {player!r}")
    phase = state.phase
    node: _Node | None = state._history
    if phase is Phase.DEAL or phase is Phase.GAME_OVER:
        past = _finished_deals(state, node)
        return PlayerView(
            player, n, state.rules, phase, state.dealer, state.deal_number, state.scores,
            state.current_player, 0, 0, (), (), -1, False, (False,) * n, (-1,) * n, 0, (), (),
            (0,) * n, state.last_deal, state.winners, state.losers, past,
            state._previous_folds(),
        )  # fmt: skip
    assert node is not None
    while not isinstance(node[2], Shuffle):
        node = node[0]
    shuffle: Shuffle = node[2]
    past = _finished_deals(state, node[0])
    draws: tuple[int, ...] = ()
    exchanged = state._exchanged
    if phase is not Phase.CUT and exchanged[player] > 0:
        dealer, took = state.dealer, state._took_trump
        order = [(dealer + 1 + i) % n for i in range(n)]
        counts = {
            q: exchanged[q] - (1 if q == dealer and took else 0) for q in order if exchanged[q] >= 0
        }
        takes = sum(1 for _, _, taken in state._cut if taken)
        pack = [c.index for c in shuffle.pack[: 32 - takes]]
        initial = pack[len(pack) - len(state._pack) - sum(counts.values()) :]
        offset = 0
        for q in order:
            if q == player:
                break
            offset += counts.get(q, 0)
        draws = tuple(initial[offset : offset + counts[player]])
    return PlayerView(
        player, n, state.rules, phase, state.dealer, state.deal_number, state.scores,
        state.current_player, state._hands[player], state._discards[player], draws,
        _cut_public(state._cut, player), state._trump, state._took_trump, state._folded,
        exchanged, len(state._pack), state._trick, state._tricks, state._tricks_won,
        state.last_deal, state.winners, state.losers, past, state._previous_folds(),
    )  # fmt: skip
