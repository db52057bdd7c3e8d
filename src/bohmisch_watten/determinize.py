"""Determinization: hidden cards dealt anew so that everything one seat knows stays true.

One job in one file, although it is long: the exact sampler, whose counting, cases and
pack layout answer to one another and to the walk of a deal's actions at the end.

This module serves :meth:`PlayerView.sample_state`.  It works on one deal at a time,
described by a :class:`DealInfo` (what an observer knows of that deal: the public facts
plus, optionally, one seat's own cards), and draws a *world*: a pack order and every
other player's discards, such that replaying the deal's public actions is legal (R11–R27)
and shows the observer exactly what he saw.

**Distribution.**  The target is the uniform distribution over worlds consistent with
the observation, i.e. a uniformly shuffled pack (R11) conditioned on what was seen, with
the other players' choices treated as uninformative (no opponent model).  The sampler
is *exact*, not a rejection loop:

1. Every hidden card may go to some *groups* of places: the unseen hand of an active
   player (minus the cards his plays rule out, see :func:`forbidden_mask`), his
   discards (a taken Critical he no longer shows can only be there or in his hand), the
   bottom card of the stock (a Critical or not, R13), and "anywhere else" (folded hands,
   undecided hands, other discards, the stock).  With the 36-card pack and seven
   players there is no stock, and the bottom card is the dealer's last dealt card
   (R15, RULES.md §9): he may have played it, still hold it, or have given it up for the
   trump card (R19).  Each of these is a *case* with its own groups; a world draws its
   case first, with the exact number of worlds in it as the weight.  Cards with the
   same set of allowed groups are interchangeable, so a placement is a table of counts
   per card *type* and group.  A dynamic programme over the types counts the
   completions of every partial table exactly (Python integers), including the number
   of histories behind each placement (which of a player's cards were drawn); the table
   is then drawn group by group with exact integer weights, and the cards of each type
   are shuffled into it.
2. Which of a player's cards were drawn from the stock is then chosen uniformly among
   the cards that can have been drawn.

So each consistent world has the same probability: no loop, no rejection, and a view
with tight constraints costs the same as a loose one.  The counting tables are built
once per observation and cached, so repeated samples of one view are cheap.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Callable, Iterator
from functools import lru_cache
from math import comb
from typing import NamedTuple

from .actions import (
    EXCHANGES,
    EXCHANGES_WITH_TRUMP,
    FOLD,
    LEAVE,
    PLAY_ACTIONS,
    TAKE,
    Action,
    Node,
)
from .cards import CARDS, SUIT_OF, bits
from .deals import CutEntry
from .seats import seat_order
from .tricks import CRITICAL_MASK, PlayedTrick, Plays, legal_play_mask

__all__ = [
    "DealInfo",
    "Plan",
    "World",
    "deal_actions",
    "deal_nodes",
    "exchange_action",
    "forbidden_mask",
]


@lru_cache(maxsize=1 << 16)
def forbidden_mask(card: int, prefix: Plays, trump: int, must_head: bool) -> int:
    """The cards a player cannot have held when he played ``card`` to ``prefix`` (R25, R26).

    A play is legal for a hand exactly when no card of the hand belongs to this mask:
    every obligation of R25 (follow, head, trump, overtrump) is "you may not play this
    card while holding one of those".  The mask is derived from
    :func:`~bohmisch_watten.tricks.legal_cards` (in bitmask form), one card at a time, so the
    rules have one source of truth; ``tests/test_views.py`` checks the characterisation
    on random hands.
    """
    own = 1 << card
    out = 0
    for other in range(len(CARDS)):  # R6: the Sixes too
        if (
            other != card
            and not legal_play_mask(own | 1 << other, prefix, trump, must_head) >> card & 1
        ):
            out |= 1 << other
    return out


class DealInfo(NamedTuple):
    """What an observer knows of one deal; ``observer`` is -1 for public facts only.

    Attributes:
        num_players: 2 to 4, up to 7 with the 36-card pack (R1).
        dealer: the dealer's seat.
        must_head: the R26 variant switch (it changes what a play reveals).
        cut: the looks of the ritual (:data:`CutEntry`), card -1 where not known.
        cut_pending: True in phase CUT, when the last look awaits Take/Leave.
        trump: the trump card index (-1 in phase CUT).
        took_trump: whether the dealer took the trump card (R19).
        folded: per seat.
        exchanged: per seat, the number of cards exchanged; -1 undecided or folded.
        tricks: completed tricks ``(plays, winner)``.
        trick: the trick in progress.
        stock_size: the cards left in the stock (phase CUT: the undealt pack).
        observer: the seat whose own cards are known, or -1.
        hand: the observer's hand (bitmask).
        discards: the observer's discards (bitmask).
        draws: the observer's draws from the stock, in the order drawn.
        pack: the size of the pack, 32 or 36 (R6).
    """

    num_players: int
    dealer: int
    must_head: bool
    cut: tuple[CutEntry, ...]
    cut_pending: bool
    trump: int
    took_trump: bool
    folded: tuple[bool, ...]
    exchanged: tuple[int, ...]
    tricks: tuple[PlayedTrick, ...]
    trick: Plays
    stock_size: int
    observer: int
    hand: int
    discards: int
    draws: tuple[int, ...]
    pack: int = 32


class World(NamedTuple):
    """One sampled deal: enough to build the state and its history."""

    pack: list[int]
    hands: tuple[int, ...]
    discards: tuple[int, ...]
    stock: tuple[int, ...]
    cut: tuple[tuple[int, int, bool], ...]


# A group of places: (size, allowed cards, kind, seat); kinds below.
_X, _D, _BOTTOM = 0, 1, 2  # unseen hand of an exchanged player, his discards, the bottom card
_Group = tuple[int, int, int, int]
_Slot = tuple[int, int]  # free places: (kind, seat or stock position)
_HAND, _DISCARD, _STOCK = 0, 1, 2
_Choice = tuple[tuple[int, ...], tuple[int, ...]]
# Where the dealer's last dealt card is, when it is the card the ritual left at the
# bottom (seven players, no stock: R13, R15, RULES.md §9): not such a deal, one of his
# played cards, his hidden hand, or his discard given up for the trump card (R19).
_ANYWHERE, _PLAYED, _HELD, _GIVEN = 0, 1, 2, 3


class Plan:
    """The counting tables and fixed facts of one :class:`DealInfo`, built once.

    Usually one arrangement of groups (a :class:`_Placement`) describes every consistent
    world.  With seven players the card the ritual left at the bottom is the dealer's
    last dealt card, which he may have played, kept or given up for the trump card; each
    of these is a *case* with its own arrangement, and a world draws its case first, with
    the exact weight of the worlds in it.
    """

    def __init__(self, info: DealInfo) -> None:
        """Count, once per view, every way the hidden cards can be placed (see the module)."""
        self.info = info
        n, dealer, obs = info.num_players, info.dealer, info.observer
        deck = (1 << info.pack) - 1  # R6: the 32 cards, with 36 the Sixes too
        self.order = seat_order(dealer, n)  # R2, R15, R18
        taken_by = [0] * n
        self.takes: list[int] = []
        for seat, card, taken, _ in info.cut:
            if taken:
                taken_by[seat] |= 1 << card
                self.takes.append(card)
        self.taken_by = taken_by
        taken_all = sum(taken_by)
        look = info.cut[-1] if info.cut and not info.cut[-1][2] else None
        # The card left at the bottom: (who looked, card or -1, is a Critical) (R13).
        self.look = look
        class_mask = 0
        if look is not None:
            class_mask = CRITICAL_MASK if look[3] else deck & ~CRITICAL_MASK
        self.class_mask = class_mask
        known_look = look[1] if look is not None and look[1] >= 0 else -1
        self.known_look = known_look
        self.pinned_hand = [0] * n
        self.drew_bottom = -1
        # The seat dealt the bottom card as his last card: the dealer when the pack leaves
        # no stock (seven players and 36 cards, R15), else -1.
        self.dealt_bottom = -1
        self.played_by = [0] * n
        self.forbid = [0] * n
        self.cases: list[tuple[_Placement, int]] = []
        self.case_weights: list[int] = []
        if info.trump < 0:  # phase CUT: only the pack and the takes exist
            known = taken_all | (1 << known_look if known_look >= 0 else 0)
            pool = deck & ~known
            size = info.stock_size - (1 if look is not None else 0)
            groups: list[_Group] = []
            if look is not None and known_look < 0:
                groups.append((1, pool & class_mask, _BOTTOM, -1))
            free: list[_Slot] = [(_STOCK, i) for i in range(size)]
            self._add_case(pool, (groups, free), [0] * n, 1, _ANYWHERE)
            self._finish()
            return

        played_by = self.played_by
        for plays, _ in info.tricks:
            for seat, card in plays:
                played_by[seat] |= 1 << card
        for seat, card in info.trick:
            played_by[seat] |= 1 << card
        played_all = sum(played_by)
        trump_bit = 1 << info.trump
        # Who drew the bottom card of the stock, if the stock ran out (R20).
        stock_len = info.stock_size + sum(self._draws(q) for q in range(n))
        total = 0
        for q in self.order:
            total += self._draws(q)
            if look is not None and total == stock_len and self._draws(q) and self.drew_bottom < 0:
                self.drew_bottom = q
        if look is not None and info.pack - 1 - 5 * n == 0:
            self.dealt_bottom = dealer
        known = played_all | trump_bit | taken_all
        if obs >= 0:
            known |= info.hand | info.discards
        if known_look >= 0:
            known |= 1 << known_look
        unknown = deck & ~known
        semi = [0] * n  # taken Criticals a player kept or discarded: we cannot tell
        forbid = self.forbid
        trump_suit = SUIT_OF[info.trump]  # R6: a Six has the index 32 + suit
        for plays, _ in (*info.tricks, (info.trick, -1)):
            for i in range(1, len(plays)):
                seat, card = plays[i]
                if seat != obs:
                    forbid[seat] |= forbidden_mask(card, plays[:i], trump_suit, info.must_head)
        for q in range(n):
            if q == obs or info.folded[q] or info.exchanged[q] < 0:
                continue
            semi[q] = taken_by[q] & ~played_by[q]
            pinned = 0
            if q == dealer and info.took_trump and not played_by[q] & trump_bit:
                pinned |= trump_bit
            if q == self.drew_bottom and known_look >= 0 and not played_by[q] >> known_look & 1:
                pinned |= 1 << known_look
            self.pinned_hand[q] = pinned
        pool = unknown | sum(semi)
        holder = self.dealt_bottom
        if holder < 0 or holder == obs:
            self._add_case(pool, self._places(unknown, semi, _ANYWHERE), semi, 1, _ANYWHERE)
        elif info.folded[holder] or info.exchanged[holder] < 0:  # his hand is as dealt
            self._add_case(pool, self._places(unknown, semi, _HELD), semi, 1, _HELD)
        else:
            # A played card of the bottom's class (a Critical or not, R13): each of the
            # dealer's dealt cards he played may be it, so that case counts them.
            dealt_played = played_by[holder] & ~taken_by[holder] & ~trump_bit
            if known_look >= 0:
                in_play = dealt_played >> known_look & 1
            else:
                in_play = (dealt_played & class_mask).bit_count()
            if in_play:
                self._add_case(pool, self._places(unknown, semi, _PLAYED), semi, in_play, _PLAYED)
            if known_look < 0 or not in_play:
                self._add_case(pool, self._places(unknown, semi, _HELD), semi, 1, _HELD)
                if info.exchanged[holder] > 0:  # R19: given up for the trump card
                    self._add_case(pool, self._places(unknown, semi, _GIVEN), semi, 1, _GIVEN)
        self._finish()

    def _draws(self, q: int) -> int:
        info = self.info
        if info.folded[q] or info.exchanged[q] < 0:
            return 0
        return info.exchanged[q] - (1 if q == info.dealer and info.took_trump else 0)

    def _places(
        self, unknown: int, semi: list[int], where: int
    ) -> tuple[list[_Group], list[_Slot]] | None:
        """The groups and the free places of the hidden cards, the dealer's last dealt
        card ``where`` it is (a case, see the class); None if that cannot be."""
        info = self.info
        known_look, class_mask = self.known_look, self.class_mask
        groups: list[_Group] = []
        free: list[_Slot] = []
        for q in range(info.num_players):
            if q == info.observer:
                continue
            t_q = self.taken_by[q].bit_count()
            holds = q == self.dealt_bottom and where != _ANYWHERE
            if info.folded[q] or info.exchanged[q] < 0:  # the dealt hand, untouched
                if holds and known_look < 0:  # R13: dealt last, of a known class
                    groups.append((1, unknown & class_mask, _BOTTOM, q))
                free += [(_HAND, q)] * (5 - t_q - holds)
                continue
            pinned = self.pinned_hand[q]  # the trump card taken, a bottom card drawn
            size = 5 - self.played_by[q].bit_count() - pinned.bit_count()
            given = info.exchanged[q]
            bottom: list[_Group] = []
            if holds and where == _HELD:
                size -= 1
                if known_look >= 0:
                    pinned |= 1 << known_look
                else:
                    bottom.append((1, unknown & class_mask & ~self.forbid[q], _BOTTOM, q))
            elif holds and where == _GIVEN:
                given -= 1
                if known_look < 0:
                    bottom.append((1, unknown & class_mask, _BOTTOM, q))
            if size < 0 or pinned & self.forbid[q]:
                return None
            groups.append((size, (unknown | semi[q]) & ~self.forbid[q], _X, q))
            groups += bottom
            if semi[q] or holds:  # a group in every case, so the free places stay the same
                groups.append((given, unknown | semi[q], _D, q))
            else:
                free += [(_DISCARD, q)] * given
        stock_free = info.stock_size
        if self.look is not None and info.stock_size:
            stock_free -= 1
            if known_look < 0:
                groups.append((1, unknown & class_mask, _BOTTOM, -1))
        free += [(_STOCK, i) for i in range(stock_free)]
        return groups, free

    def _add_case(
        self,
        pool: int,
        places: tuple[list[_Group], list[_Slot]] | None,
        semi: list[int],
        factor: int,
        where: int,
    ) -> None:
        if places is None:
            return
        groups, free = places
        placement = _Placement(pool, groups, free, semi, self.class_mask, self._multiplier)
        weight = factor * placement.count(0, placement.start)
        if weight:
            self.cases.append((placement, where))
            self.case_weights.append(weight + (self.case_weights[-1] if self.case_weights else 0))

    def _finish(self) -> None:
        if not self.cases:
            raise ValueError("inconsistent view: no deal of the hidden cards fits it")
        frees = {tuple(sorted(placement.free)) for placement, _ in self.cases}
        assert len(frees) == 1  # the cases count worlds alike only over the same free places

    def _multiplier(self, g: _Group, placement: _Placement) -> Callable[[tuple[int, ...]], int]:
        """Histories per placement of a hand: which of its cards were drawn (R18, R19)."""
        _size, _, kind, q = g
        if kind != _X:
            return lambda c: 1
        info = self.info
        took = 1 if q == info.dealer and info.took_trump else 0
        w = info.exchanged[q] - took
        kept_public = (self.taken_by[q] & self.played_by[q]).bit_count()
        bottom = q == self.drew_bottom
        known = self.known_look >= 0
        played_class = (
            self.played_by[q] & self.class_mask & ~self.taken_by[q] & ~(1 << info.trump)
        ).bit_count()
        types = range(len(placement.start))
        semi_types = [t for t in types if placement.type_semi[t]]
        class_types = [t for t in types if placement.type_class[t] and not placement.type_semi[t]]

        def mult(c: tuple[int, ...]) -> int:
            kept = kept_public + sum(c[t] for t in semi_types)
            drawable = 5 - took - kept
            if not bottom:
                return comb(drawable, w)
            if known:
                return comb(drawable - 1, w - 1)
            candidates = played_class + sum(c[t] for t in class_types)
            return candidates * comb(drawable - 1, w - 1)

        return mult

    # ------------------------------------------------------------------ drawing

    def draw(self, rng: random.Random) -> World:
        """One world, uniformly among those consistent with the observation."""
        info = self.info
        n = info.num_players
        cases = self.cases
        if len(cases) == 1:
            placement, where = cases[0]
        else:
            weights = self.case_weights
            placement, where = cases[bisect_right(weights, rng.randrange(weights[-1]))]
        placed, leftover = placement.place(rng)
        hands = [0] * n
        discards = [0] * n
        bottom = -1
        for (_, _, kind, q), cards in zip(placement.groups, placed, strict=True):
            mask = sum(1 << card for card in cards)
            if kind == _X:
                hands[q] |= mask
            elif kind == _D:
                discards[q] |= mask
            else:
                bottom = cards[0]
        stock_free: list[int] = []
        for (kind, place), card in zip(placement.free, leftover, strict=True):
            if kind == _HAND:
                hands[place] |= 1 << card
            elif kind == _DISCARD:
                discards[place] |= 1 << card
            else:
                stock_free.append(card)
        if self.known_look >= 0:
            bottom = self.known_look
        if where == _HELD:  # _ANYWHERE (0) but in seven-player deals
            hands[info.dealer] |= 1 << bottom
        elif where == _GIVEN:
            discards[info.dealer] |= 1 << bottom
        if info.trump < 0:
            return self._cut_world(hands, stock_free, bottom)
        return self._dealt_world(rng, hands, discards, stock_free, bottom, where)

    def _full_cut(self, hidden_look: int) -> tuple[tuple[int, int, bool], ...]:
        return tuple(
            (seat, card if card >= 0 else hidden_look, taken)
            for seat, card, taken, _ in self.info.cut
        )

    def _cut_world(self, hands: list[int], stock_free: list[int], bottom: int) -> World:
        info = self.info
        for seat, card, taken, _ in info.cut:
            if taken:
                hands[seat] |= 1 << card
        pack = stock_free + ([bottom] if self.look is not None else [])
        full = pack + self.takes[::-1]  # R12: the first card taken was the bottom card
        return World(
            full, tuple(hands), (0,) * info.num_players, tuple(pack), self._full_cut(bottom)
        )

    def _dealt_world(
        self,
        rng: random.Random,
        hands: list[int],
        discards: list[int],
        stock_free: list[int],
        bottom: int,
        where: int,
    ) -> World:
        info = self.info
        n, obs, dealer = info.num_players, info.observer, info.dealer
        holder = self.dealt_bottom
        trump_bit = 1 << info.trump
        chunks: list[list[int]] = [[] for _ in range(n)]
        dealt: list[int] = [0] * n
        for q in range(n):
            taken = self.taken_by[q]
            if q == obs:
                hands[q] = info.hand
                discards[q] = info.discards
                chunks[q] = list(info.draws)
                if q == self.drew_bottom:
                    bottom = info.draws[-1]
                if info.folded[q] or info.exchanged[q] < 0:
                    dealt[q] = info.hand
                else:
                    after = info.hand | self.played_by[q]
                    own_drawn = sum(1 << card for card in info.draws)
                    took = trump_bit if q == dealer and info.took_trump else 0
                    dealt[q] = (after & ~own_drawn & ~took) | info.discards
                if q == holder and self.known_look < 0:  # his, of a known class
                    bottom = rng.choice(bits(dealt[q] & self.class_mask & ~taken))
                continue
            if info.folded[q] or info.exchanged[q] < 0:
                hands[q] |= taken
                dealt[q] = hands[q]
                continue
            hands[q] |= self.pinned_hand[q]
            after = hands[q] | self.played_by[q]
            took = trump_bit if q == dealer and info.took_trump else 0
            drawable = after & ~took & ~taken
            w = self._draws(q)
            if q == self.drew_bottom:
                if self.known_look < 0:
                    bottom = rng.choice(bits(drawable & self.class_mask))
                drawn = [*rng.sample(bits(drawable & ~(1 << bottom)), w - 1), bottom]
            else:
                if q == holder and where == _PLAYED and self.known_look < 0:
                    bottom = rng.choice(bits(self.played_by[q] & ~taken & ~took & self.class_mask))
                drawn = rng.sample(bits(drawable), w)
            chunks[q] = drawn
            dealt[q] = (after & ~sum(1 << card for card in drawn) & ~took) | discards[q]
        stock = stock_free + ([bottom] if self.look is not None and info.stock_size else [])
        pack: list[int] = []
        second: list[int] = []
        for q in self.order:  # R15: 3 - k, the trump card, then 2 each
            own = bits(dealt[q] & ~self.taken_by[q])
            if q == holder:  # R13: with no stock the bottom card is dealt last
                own.remove(bottom)
                own.append(bottom)
            first = 3 - self.taken_by[q].bit_count()
            pack += own[:first]
            second += own[first:]
        pack.append(info.trump)
        pack += second
        for q in self.order:
            pack += chunks[q]
        pack += stock
        pack += self.takes[::-1]
        hidden_look = bottom if self.look is not None else -1
        return World(pack, tuple(hands), tuple(discards), tuple(stock), self._full_cut(hidden_look))


class _Placement:
    """The counting tables of one arrangement of groups and free places (see the module)."""

    def __init__(
        self,
        pool: int,
        groups: list[_Group],
        free: list[_Slot],
        semi: list[int],
        class_mask: int,
        multiplier: Callable[[_Group, _Placement], Callable[[tuple[int, ...]], int]],
    ) -> None:
        self.groups = groups
        self.free = free
        if sum(g[0] for g in groups) + len(free) != pool.bit_count():
            raise ValueError("inconsistent view: hidden cards and hidden places differ in number")
        semi_all = sum(semi)
        by_type: dict[tuple[int, bool, bool], list[int]] = {}
        for card in bits(pool):
            member = 0
            for g, (_, allowed, _, _) in enumerate(groups):
                if allowed >> card & 1:
                    member |= 1 << g
            is_semi = bool(semi_all >> card & 1)
            key = (member, is_semi, bool(class_mask >> card & 1))
            by_type.setdefault(key, []).append(card)
        keys = sorted(by_type)
        self.type_cards = [by_type[k] for k in keys]
        self.type_member = [k[0] for k in keys]
        self.type_free = [not k[1] for k in keys]  # semi cards cannot go anywhere else
        self.type_semi = [k[1] for k in keys]
        self.type_class = [k[2] for k in keys]
        self.start = tuple(len(c) for c in self.type_cards)
        self._count: dict[tuple[int, tuple[int, ...]], int] = {}
        self._tables: dict[tuple[int, tuple[int, ...]], tuple[list[_Choice], list[int]]] = {}
        self._mults = [multiplier(g, self) for g in groups]

    def count(self, g: int, rest: tuple[int, ...]) -> int:
        """The number of weighted completions from group ``g`` with ``rest`` cards per type."""
        key = (g, rest)
        found = self._count.get(key)
        if found is not None:
            return found
        if g == len(self.groups):
            total = int(all(r == 0 or self.type_free[t] for t, r in enumerate(rest)))
        else:
            total = self.table(g, rest)[1][-1] if self.table(g, rest)[0] else 0
        self._count[key] = total
        return total

    def table(
        self, g: int, rest: tuple[int, ...]
    ) -> tuple[list[tuple[tuple[int, ...], tuple[int, ...]]], list[int]]:
        """Every way group ``g`` can take its cards, with cumulative exact weights.

        A way is ``(taken, left)``: how many cards of each type the group takes, and how
        many of each type are left for the groups after it.
        """
        key = (g, rest)
        found = self._tables.get(key)
        if found is not None:
            return found
        size, _, _, _ = self.groups[g]
        allowed = [t for t in range(len(rest)) if rest[t] and self.type_member[t] >> g & 1]
        choices: list[_Choice] = []
        cumulative: list[int] = []
        acc = 0
        mult = self._mults[g]
        pick = [0] * len(rest)

        def walk(i: int, left: int) -> None:
            nonlocal acc
            if left == 0:
                c = tuple(pick)
                nxt = tuple(r - k for r, k in zip(rest, c, strict=True))
                weight = 1
                for t in allowed:
                    weight *= comb(rest[t], c[t])
                weight *= mult(c)
                if weight:
                    weight *= self.count(g + 1, nxt)
                if weight:
                    acc += weight
                    choices.append((c, nxt))
                    cumulative.append(acc)
                return
            if i == len(allowed):
                return
            t = allowed[i]
            for k in range(min(left, rest[t]), -1, -1):
                pick[t] = k
                walk(i + 1, left - k)
            pick[t] = 0

        walk(0, size)
        result = (choices, cumulative)
        self._tables[key] = result
        return result

    def place(self, rng: random.Random) -> tuple[list[list[int]], list[int]]:
        """The cards of every group, drawn with exact weights, and the rest shuffled."""
        rest = self.start
        picks = []
        for g in range(len(self.groups)):
            choices, cumulative = self.table(g, rest)
            i = bisect_right(cumulative, rng.randrange(cumulative[-1]))
            c, rest = choices[i]
            picks.append(c)
        pools = [rng.sample(cards, len(cards)) for cards in self.type_cards]
        placed: list[list[int]] = []
        for c in picks:
            cards: list[int] = []
            for t, k in enumerate(c):
                if k:
                    cards += pools[t][:k]
                    del pools[t][:k]
            placed.append(cards)
        leftover = [card for cards in pools for card in cards]
        rng.shuffle(leftover)
        return placed, leftover


# ------------------------------------------------- the actions of a deal, walked once
# A deal's order of events is fixed by the rules — the shuffle (R11), the looks of the
# cutting ritual (R12, R13), each seat's fold or exchange from forehand (R18–R20), the
# cards of every trick (R24) — so the actions of a deal follow from its facts.
# :func:`deal_actions` walks them once; a seat's public history and a sampled state's
# history are both read off that one walk.


def exchange_action(seat: int, dealer: int, took_trump: bool, discards: int) -> Action:
    """The :class:`~bohmisch_watten.Exchange` that discarded ``discards`` (R18, R19)."""
    table = EXCHANGES_WITH_TRUMP if took_trump and seat == dealer else EXCHANGES
    return table[discards]


def deal_actions(
    info: DealInfo,
    shuffle: Action | None,
    exchange: Callable[[int], Action | None],
) -> Iterator[tuple[int | None, Action | None]]:
    """The deal's actions in order, from its facts (R11–R27).

    Args:
        info: the deal's facts (the phase CUT pending look is not yet an action).
        shuffle: the chance action to start with, or None where it is hidden (R11).
        exchange: per seat that exchanged, its action, or None where it is hidden (R23).
    """
    yield None, shuffle
    last = len(info.cut) - 1
    for i, (seat, _, taken, critical) in enumerate(info.cut):
        if taken:
            yield seat, TAKE
        elif critical and not (i == last and info.cut_pending):
            yield seat, LEAVE
    if info.trump < 0:
        return
    for q in seat_order(info.dealer, info.num_players):
        if info.folded[q]:
            yield q, FOLD
        elif info.exchanged[q] >= 0:
            yield q, exchange(q)
    for plays, _ in info.tricks:
        for seat, card in plays:
            yield seat, PLAY_ACTIONS[card]
    for seat, card in info.trick:
        yield seat, PLAY_ACTIONS[card]


def deal_nodes(
    node: Node | None, info: DealInfo, shuffle: Action, discards: tuple[int, ...]
) -> Node:
    """Append one whole deal's actions to a history: ``shuffle``, then :func:`deal_actions`.

    ``discards`` gives every seat's discards (bitmasks), so every exchange is known.
    """
    dealer, took = info.dealer, info.took_trump
    head = node
    for seat, action in deal_actions(
        info, shuffle, lambda q: exchange_action(q, dealer, took, discards[q])
    ):
        assert action is not None  # every action is known here
        head = (head, seat, action)
    assert head is not None  # the shuffle at least
    return head
