"""Deal-perft: reference counts of legal decision sequences, the way chess engines use perft.

``perft(d)`` of a fixed pack is the number of distinct sequences of ``d`` decisions (take
or leave, fold or exchange, play a card) that the rules allow after the pack is shuffled
in (the ``Shuffle`` itself is not counted).  A sequence that ends the deal before ``d``
decisions has no continuation (the next action would be chance's), so it does not count
at depth ``d``.  ``play_perft`` counts the same from the first lead of a deal, and
``complete`` counts the sequences from the first lead to the end of the deal.

Every number below is checked two ways in CI:

* by the engine: an exhaustive walk over ``legal_actions()``/``apply()`` (the last
  level is counted with ``len(legal_actions())``, as perft programs do);
* by :class:`BruteForce`, an independent enumerator written here from RULES.md: its own
  ritual, dealing, exchange and fold rules, and the trick rules of ``tests/reference.py``
  (card strengths from notation, R25 read literally) - nothing from the engine's
  ``tricks``, ``tables``, ``phases`` or ``state`` modules.  It memoizes on positions, so
  it also reaches depths that the engine walk cannot.

The first depths are also derived by hand in :func:`test_first_depths_by_hand`.
The lists go as deep as the engine walk gets in a few seconds; CI checks the first
depths of each (see ``checked``), ``BW_PERFT_FULL=1`` checks them all.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from bohmisch_watten import (
    Card,
    Exchange,
    GameState,
    Phase,
    Rules,
    Shuffle,
    new_game,
)

import reference as ref


def pack(codes: str, size: int = 32) -> tuple[Card, ...]:
    cards = tuple(Card.parse(c) for c in codes.split())
    assert len(set(cards)) == size
    return cards


# The fixed packs, top card first (R11).  PACK_2 and PACK_4_PLAY have no Critical at the
# bottom, so no cut ritual; PACK_3 ends with E7 S7 HK (cut card HK, then S7, then E7), so
# the whole alternate ritual can happen (R12); PACK_4 ends with a Critical and a plain card.
PACK_2 = pack(
    "G9 SO H8 EA S8 GU E10 HA G7 SK E9 HO GK S10 EO EK H10 GO S9 HU SA G10 "
    "E8 EU H9 H7 S7 GA G8 E7 HK SU"
)
PACK_3 = pack(
    "SK G7 HU EA S9 GU H10 E9 SA G10 EU H8 GK S8 EO G9 SO HO H9 GA E8 S10 "
    "HA SU G8 EK GO E10 H7 E7 S7 HK"
)
PACK_4 = pack(
    "EO H9 GA S10 G8 SK HU GU E8 HO S9 G9 EK SU H8 H10 GO E9 S8 HA EA SA "
    "G7 EU GK E10 H7 SO G10 E7 HK S7"
)
PACK_4_PLAY = pack(
    "GA S9 EU E8 H8 HA G9 SO EK E10 GO S10 H7 GU S7 HU G10 EA SK E9 GK G8 "
    "H10 HO HK SU E7 S8 EO H9 G7 SA"
)
# The 36-card pack (R6) with five to seven players: seeded shuffles written out.  PACK_7_36
# ends with HK, so seven players go through the ritual and the card left at the bottom is
# the dealer's last card (the stock is empty, R15, R20); PACK_7_36_PLAY has no Critical
# at the bottom.
PACK_5_36 = pack(
    "S9 G7 H10 GO S6 SK G8 SU G9 S10 HO GK E9 EU HA EK E7 H6 H9 S8 H8 GU SA GA G10 E10 "
    "EO E6 HU EA S7 SO E8 G6 HK H7",
    36,
)
PACK_6_36 = pack(
    "S6 S8 SU G6 EA HK E6 HU E8 GK SK GU S9 SO G8 H10 E10 H8 GO EK S10 G7 H6 G9 G10 HA "
    "S7 GA H9 HO EU E7 E9 H7 SA EO",
    36,
)
PACK_7_36 = pack(
    "SA S7 G9 EO SO S10 G7 HA GK GU SU H6 GA E7 H10 SK EA HO S6 GO E9 G6 EK H7 E8 H9 G10 "
    "E6 H8 S9 EU E10 S8 G8 HU HK",
    36,
)
PACK_7_36_PLAY = pack(
    "S7 E8 GK SU HA G9 HK G10 HO E9 EK H9 SO GO SA EO S10 S8 G7 E7 S6 H6 SK EU EA H10 H8 "
    "E6 G8 E10 S9 G6 GA GU HU H7",
    36,
)
PACK_3_DEAL_2 = pack(
    "H9 SK E8 GO EA S10 G9 HU E9 G8 SA EK SO G7 E10 GA H10 S8 HA EO GU S9 "
    "H8 HO EU GK G10 SU HK S7 E7 H7"
)

# ---------------------------------------------------------------- the engine side


def engine_perft(state: GameState, depth: int) -> list[int]:
    """``[perft(1), …, perft(depth)]`` from ``state`` by walking the engine."""
    counts = [0] * depth
    deal = state.deal_number

    def walk(node: GameState, d: int) -> None:
        legal = node.legal_actions()
        counts[d] += len(legal)
        if d + 1 == depth:
            return
        for action in legal:
            child = node.apply(action)
            if child.deal_number == deal and child.current_player is not None:
                walk(child, d + 1)

    walk(state, 0)
    return counts


def engine_complete(state: GameState) -> int:
    """The number of decision sequences from ``state`` to the end of its deal."""
    deal = state.deal_number
    total = 0
    for action in state.legal_actions():
        child = state.apply(action)
        if child.deal_number != deal or child.current_player is None:
            total += 1
        else:
            total += engine_complete(child)
    return total


def after_shuffle(num_players: int, cards: Sequence[Card], rules: Rules) -> GameState:
    return new_game(num_players, rules=rules).apply(Shuffle(cards))


def first_lead(num_players: int, cards: Sequence[Card], rules: Rules) -> GameState:
    """The deal after everybody plays without exchanging (no Critical in the ritual)."""
    state = after_shuffle(num_players, cards, rules)
    while state.phase is not Phase.PLAY:
        state = state.apply(Exchange(()))
    return state


def second_deal(cards: Sequence[Card], rules: Rules) -> GameState:
    """Three players, deal 2 (folding allowed, R21): deal 1 is PACK_2 kept and played out
    with the first legal card each time; then ``cards`` are shuffled in."""
    state = first_lead(3, PACK_2, rules)
    while state.deal_number == 1:
        state = state.apply(state.legal_actions()[0])
    return state.apply(Shuffle(cards))


# ------------------------------------------------------------ the brute force side

Pos = tuple[Any, ...]
OVER: Pos = ("over",)


class BruteForce:
    """All legal decisions of one deal, enumerated straight from RULES.md.

    Positions are plain tuples of cards and seats; nothing is shared with the engine but
    the :class:`Card` objects (and their notation, from which ``reference`` reads suits
    and ranks).
    """

    def __init__(
        self,
        n: int,
        rules: Rules,
        *,
        dealer: int = 0,
        deal_number: int = 1,
        scores: Sequence[int] | None = None,
        folded_before: Sequence[bool] | None = None,
    ) -> None:
        self.n = n
        self.rules = rules
        self.dealer = dealer
        self.forehand = (dealer + 1) % n  # R2
        self.cutter = (dealer - 1) % n
        self.order = [(dealer + 1 + i) % n for i in range(n)]  # R18: forehand .. dealer
        self.deal_number = deal_number
        self.scores = list(scores or [rules.start_score] * n)
        self.folded_before = list(folded_before or [False] * n)
        self.looks = ref.ritual_looks((), n, dealer, rules.schleck)
        self._memo: dict[tuple[Pos, int], list[int]] = {}
        self._complete: dict[Pos, int] = {}

    # R11-R14: the cut ritual; R15: the deal.
    def start(self, cards: Sequence[Card]) -> Pos:
        return self._ritual(tuple(cards), tuple(() for _ in range(self.n)), 0)

    def _ritual(self, pack: tuple[Card, ...], taken: tuple[tuple[Card, ...], ...], k: int) -> Pos:
        if k < len(self.looks) and ref.is_critical(pack[-1]):
            return ("cut", pack, taken, k)
        hands, trump, stock = ref.deal(pack, self.n, self.dealer, taken)
        return (
            "exchange",
            tuple(frozenset(h) for h in hands),
            tuple(stock),
            trump,
            (False,) * self.n,
            0,
        )

    def may_fold(self, seat: int, trump: Card, folded: Sequence[bool]) -> bool:
        """R21: the six reasons why a player may not fold."""
        others = [s for s in range(self.n) if s not in (seat, self.dealer)]
        return not (
            self.deal_number == 1
            or ref.suit_of(trump) == ref.HEARTS
            or self.scores[seat] <= self.rules.min_fold_score
            or self.folded_before[seat]
            or seat == self.dealer
            or (seat == self.cutter and all(folded[s] for s in others))
        )

    def children(self, pos: Pos) -> Iterator[Pos]:
        kind = pos[0]
        if kind == "cut":  # R12: take the offered Critical, or leave it and end the ritual
            _, pack, taken, k = pos
            seat = self.looks[k]
            more = tuple((*t, pack[-1]) if s == seat else t for s, t in enumerate(taken))
            yield self._ritual(pack[:-1], more, k + 1)
            yield self._ritual(pack, taken, len(self.looks))
        elif kind == "exchange":
            yield from self._exchanges(pos)
        elif kind == "play":
            yield from self._plays(pos)

    def exchange_choices(self, pos: Pos) -> Iterator[tuple[bool, tuple[Card, ...], bool]]:
        """The decisions of the player to decide: ``(fold, discard, take trump card)``."""
        _, hands, stock, trump, folded, i = pos
        seat = self.order[i]
        hand = sorted(hands[seat])

        def subsets(low: int, high: int) -> Iterator[tuple[Card, ...]]:
            for size in range(low, min(high, len(hand)) + 1):
                yield from itertools.combinations(hand, size)

        if seat != self.dealer:
            if self.may_fold(seat, trump, folded):  # R18, R21
                yield True, (), False
            for discard in subsets(0, min(3, len(stock))):  # R18, R20
                yield False, discard, False
            return
        limit = min(self.rules.dealer_stock_limit, len(stock))  # R19, R20
        for discard in subsets(0, limit):
            yield False, discard, False
        for discard in subsets(1, limit + 1):  # R19: the trump card for one of them
            yield False, discard, True

    def _exchanges(self, pos: Pos) -> Iterator[Pos]:
        _, hands, stock, trump, folded, i = pos
        seat = self.order[i]
        for out, discard, take in self.exchange_choices(pos):
            drawn = stock[: len(discard) - take]  # R18: from the top of the stock
            hand = hands[seat] - set(discard) | set(drawn) | ({trump} if take else set())
            new_hands = tuple(hand if s == seat else h for s, h in enumerate(hands))
            new_stock = stock[len(drawn) :]
            new_folded = tuple(out if s == seat else f for s, f in enumerate(folded))
            if seat != self.dealer:
                yield ("exchange", new_hands, new_stock, trump, new_folded, i + 1)
            else:  # R24: forehand leads, or the first active player clockwise from him
                leader = next(s for s in self.order if not new_folded[s])
                yield ("play", new_hands, ref.suit_of(trump), new_folded, (), leader, 0)

    def _plays(self, pos: Pos) -> Iterator[Pos]:
        _, hands, trump, folded, trick, seat, done = pos
        active = folded.count(False)
        cards = [c for _, c in trick]
        for card in ref.legal_plays(hands[seat], cards, trump, self.rules.must_head):
            new_hands = tuple(h - {card} if s == seat else h for s, h in enumerate(hands))
            new_trick = (*trick, (seat, card))
            if len(new_trick) < active:  # R24: clockwise, folded players skipped
                nxt = (seat + 1) % self.n
                while folded[nxt]:
                    nxt = (nxt + 1) % self.n
                yield ("play", new_hands, trump, folded, new_trick, nxt, done)
            elif done == 4:  # the fifth trick ends the deal
                yield OVER
            else:  # R27: the winner leads the next trick
                winner = new_trick[ref.winning_index([c for _, c in new_trick], trump)][0]
                yield ("play", new_hands, trump, folded, (), winner, done + 1)

    def perft(self, pos: Pos, depth: int) -> list[int]:
        """``[perft(1), …, perft(depth)]`` from ``pos``, all depths in one pass."""
        out = [0] * depth
        if pos is OVER or depth == 0:
            return out
        if depth == 1 and pos[0] == "play":  # the last level: just count the decisions
            _, hands, trump, _, trick, seat, _ = pos
            plays = ref.legal_plays(hands[seat], [c for _, c in trick], trump, self.rules.must_head)
            return [len(plays)]
        if depth == 1 and pos[0] == "exchange":
            return [sum(1 for _ in self.exchange_choices(pos))]
        key = (pos, depth)
        if key in self._memo:
            return self._memo[key]
        for child in self.children(pos):
            out[0] += 1
            if depth > 1 and child is not OVER:
                for i, count in enumerate(self.perft(child, depth - 1), 1):
                    out[i] += count
        if pos[0] == "play":  # before trick play, positions hardly ever repeat
            self._memo[key] = out
        return out

    def complete(self, pos: Pos) -> int:
        """Decision sequences from ``pos`` to the end of the deal."""
        if pos is OVER:
            return 1
        if pos not in self._complete:
            self._complete[pos] = sum(self.complete(c) for c in self.children(pos))
        return self._complete[pos]

    def first_lead(self, cards: Sequence[Card]) -> Pos:
        """Everybody plays without exchanging, as :func:`first_lead` does."""
        pos = self.start(cards)
        while pos[0] == "exchange":
            hands, seat = pos[1], self.order[pos[-1]]
            pos = next(
                p
                for p in self.children(pos)
                if p[1] == hands and not (p[4] if p[0] == "exchange" else p[3])[seat]
            )
        return pos


# --------------------------------------------------------------- reference numbers
# Each case: players, pack, rules, perft(1..d), and how many depths the default run
# checks.  The first depths are derived by hand in test_first_depths_by_hand; every
# number was checked against both the engine walk and the brute force with
# BW_PERFT_FULL=1, which checks all depths listed.  The default run (CI) stops where the
# engine walk takes about a second without coverage; with coverage it takes three times
# as long, and `make test` must stay within its budget.

FULL = os.environ.get("BW_PERFT_FULL") == "1"

DEFAULT = Rules()
NO_HEADING = Rules(must_head=False)
PACK36 = Rules(pack=36)

Case = tuple[int, tuple[Card, ...], Rules, list[int], int]

CASES: dict[str, Case] = {
    # 2 players, no ritual: forehand's exchange, the dealer's, then trick play.
    "2p": (2, PACK_2, DEFAULT, [26, 1066, 5330, 10532, 42128, 119140, 357420, 841290], 6),
    "2p-no-heading": (
        2, PACK_2, NO_HEADING, [26, 1066, 5330, 11042, 44168, 125810, 377430, 906938], 6
    ),
    # 3 players, the whole alternate ritual possible (HK, S7, E7 at the bottom).
    "3p": (3, PACK_3, DEFAULT, [2, 28, 704, 28444, 167648, 414674], 5),
    "3p-no-heading": (3, PACK_3, NO_HEADING, [2, 28, 704, 28444, 167648, 420988], 5),
    # 4 players, ritual (S7, HK, E7 at the bottom).  Depth 5 ends in the dealer's
    # exchange, before any card is played, so must_head cannot matter yet (the
    # first-lead cases below cover it for 3 and 4 players).
    "4p": (4, PACK_4, DEFAULT, [2, 28, 704, 18304, 739544], 5),
    # The 36-card pack (R1, R6): 10 stock cards with five players, 5 with six; with seven
    # the stock is empty, so the six non-dealers have one exchange each (R20) and the
    # dealer only the trump card to take (R19).
    "5p-36": (5, PACK_5_36, PACK36, [26, 676, 17576, 406976, 11806016], 4),
    "6p-36": (6, PACK_6_36, PACK36, [26, 576, 4776, 21376, 67876, 688541, 3442705], 5),
    "7p-36": (
        7, PACK_7_36, PACK36, [2, 2, 2, 2, 2, 2, 2, 12, 60, 150, 456], 11
    ),
}  # fmt: skip

PLAY_CASES: dict[str, Case] = {
    # From the first lead of PACK_4_PLAY after nobody exchanged: two or three tricks.
    "3p": (3, PACK_4_PLAY, DEFAULT, [5, 5, 6, 24, 40, 82, 246, 506, 936], 9),
    "3p-no-heading": (3, PACK_4_PLAY, NO_HEADING, [5, 5, 6, 24, 40, 98, 294, 602, 1344], 9),
    "4p": (4, PACK_4_PLAY, DEFAULT, [5, 9, 25, 89, 356, 489, 928, 1416], 8),
    "4p-no-heading": (4, PACK_4_PLAY, NO_HEADING, [5, 9, 25, 89, 356, 489, 936, 1436], 8),
    "5p-36": (
        5, PACK_5_36, PACK36,
        [5, 9, 31, 134, 386, 1544, 2333, 4205, 6573, 8028, 24084, 48336, 111426], 10,
    ),
    "6p-36": (
        6, PACK_6_36, PACK36,
        [5, 13, 26, 30, 56, 256, 1024, 2152, 3656, 7728, 20192, 29728, 89184], 11,
    ),
    "7p-36": (
        7, PACK_7_36_PLAY, PACK36,
        [5, 6, 8, 12, 51, 100, 260, 1040, 2398, 7930, 24910, 36238, 120766, 128938, 386814], 11,
    ),
}  # fmt: skip

COMPLETE_CASES: dict[str, tuple[int, tuple[Card, ...], Rules, int]] = {
    # From the first lead to the end of the deal.
    "2p": (2, PACK_2, DEFAULT, 1304),
    "2p-no-heading": (2, PACK_2, NO_HEADING, 1488),
    "3p": (3, PACK_4_PLAY, DEFAULT, 4608),
    "3p-no-heading": (3, PACK_4_PLAY, NO_HEADING, 7024),
}

# Deal 2 of a 3-player game (dealer seat 1): folding is allowed (R21), except for the
# cutter once forehand has folded (R21.6).
DEAL_2_PERFT = [27, 728, 29848, 149240, 226932]
DEAL_2_QUICK = 4


def checked(counts: list[int], quick: int) -> list[int]:
    """The depths this run checks: all with BW_PERFT_FULL=1, else the first ``quick``."""
    return counts if FULL else counts[:quick]


@pytest.mark.rule("R12", "R15", "R18", "R19", "R20", "R24", "R25", "R26")
@pytest.mark.parametrize("case", CASES)
def test_perft_engine(case: str) -> None:
    n, cards, rules, counts, quick = CASES[case]
    expected = checked(counts, quick)
    assert engine_perft(after_shuffle(n, cards, rules), len(expected)) == expected


@pytest.mark.rule("R12", "R15", "R18", "R19", "R20", "R24", "R25", "R26")
@pytest.mark.parametrize("case", CASES)
def test_perft_brute_force(case: str) -> None:
    n, cards, rules, counts, quick = CASES[case]
    expected = checked(counts, quick)
    brute = BruteForce(n, rules)
    assert brute.perft(brute.start(cards), len(expected)) == expected


@pytest.mark.rule("R24", "R25", "R26", "R27")
@pytest.mark.parametrize("case", PLAY_CASES)
def test_play_perft(case: str) -> None:
    n, cards, rules, counts, quick = PLAY_CASES[case]
    expected = checked(counts, quick)
    assert engine_perft(first_lead(n, cards, rules), len(expected)) == expected
    brute = BruteForce(n, rules)
    assert brute.perft(brute.first_lead(cards), len(expected)) == expected


@pytest.mark.rule("R24", "R25", "R26", "R27")
@pytest.mark.parametrize("case", COMPLETE_CASES)
def test_complete_deal_count(case: str) -> None:
    n, cards, rules, expected = COMPLETE_CASES[case]
    assert engine_complete(first_lead(n, cards, rules)) == expected
    brute = BruteForce(n, rules)
    assert brute.complete(brute.first_lead(cards)) == expected


@pytest.mark.rule("R18", "R21", "R22")
def test_perft_with_folding() -> None:
    state = second_deal(PACK_3_DEAL_2, DEFAULT)
    assert state.deal_number == 2
    assert state.last_deal is not None
    expected = checked(DEAL_2_PERFT, DEAL_2_QUICK)
    assert engine_perft(state, len(expected)) == expected
    brute = BruteForce(
        3,
        DEFAULT,
        dealer=state.dealer,
        deal_number=2,
        scores=state.scores,
        folded_before=state.last_deal.folded,
    )
    assert brute.perft(brute.start(PACK_3_DEAL_2), len(expected)) == expected


def test_first_depths_by_hand() -> None:
    """The first depths, counted by hand from the rules.

    A non-dealer keeps or exchanges 0-3 of 5 cards (R18): 1 + 5 + 10 + 10 = 26 choices,
    27 with folding (not in deal 1, R21.1).  The dealer (R19, limit 2) exchanges 0-2
    with the stock (1 + 5 + 10 = 16) or gives 1-3 cards for the trump card and 0-2
    stock cards (5 + 10 + 10 = 25): 41.  The leader may lead any of his 5 cards (R24).
    A Critical at the bottom offers take/leave (2); leaving ends the ritual (R12).
    """
    non_dealer, dealer, lead, ritual = 1 + 5 + 10 + 10, (1 + 5 + 10) + (5 + 10 + 10), 5, 2
    two = CASES["2p"][3]
    assert two[:3] == [non_dealer, non_dealer * dealer, non_dealer * dealer * lead]
    # 3 players, HK S7 E7 at the bottom: the cutter takes or leaves HK; after "take" the
    # dealer takes or leaves S7; after that the cutter takes or leaves E7.
    leave, take_leave, take_take = non_dealer, ritual, ritual
    three = CASES["3p"][3]
    assert three[:3] == [
        ritual,
        leave + take_leave,  # leave: forehand decides; take: the dealer looks at S7
        non_dealer**2 + non_dealer + take_take,
    ]
    # 4 players, S7 HK E7 at the bottom: the same ritual, one more non-dealer.
    four = CASES["4p"][3]
    assert four[:4] == [
        ritual,
        non_dealer + ritual,
        non_dealer**2 + non_dealer + ritual,
        non_dealer**3 + non_dealer**2 + non_dealer + non_dealer,  # E7 taken or left
    ]
    assert four[4] == non_dealer**3 * dealer + non_dealer**3 + non_dealer**2 + non_dealer**2
    assert PLAY_CASES["4p"][3][0] == lead
    # Deal 2, 3 players: forehand may fold (27); if he did, the cutter may not (R21.6).
    folding = non_dealer + 1
    assert DEAL_2_PERFT[:3] == [
        folding,
        (folding - 1) * folding + 1 * non_dealer,
        ((folding - 1) * folding + non_dealer) * dealer,
    ]
