"""An independent reading of RULES.md, for cross-checking the engine in tests.

Nothing here imports the engine's rule logic (``tricks``, ``tables``, ``scoring``,
``phases``): cards are handled through their notation (``"HK"``, ``"G10"``), and every
function is written straight from the rule text it cites, as plainly as possible.  The
property tests and the perft brute force compare the engine with these functions, so a
misreading would have to be made twice, in two different styles, to go unnoticed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bohmisch_watten import Card, Rules

CRITICAL_CODES = ("HK", "S7", "E7")
"""R7: Maxi, Belli, Spitz, highest first."""

RANK_ORDER = ("6", "7", "8", "9", "10", "U", "O", "K", "A")
"""R6: the ranks low to high (the Six only in the 36-card pack)."""

HEARTS = "H"
TRUMP = "T"
"""The effective suit of every trump (R10)."""


def suit_of(card: Card) -> str:
    """The printed suit letter: E, G, H or S."""
    return str(card)[0]


def is_critical(card: Card) -> bool:
    return str(card) in CRITICAL_CODES


def effective_suit(card: Card, trump: str) -> str:
    """R8, R10: Criticals and cards of the trump suit are trumps; others their own suit."""
    if is_critical(card) or suit_of(card) == trump:
        return TRUMP
    return suit_of(card)


def power(card: Card, led: str, trump: str) -> int:
    """How strongly ``card`` competes in a trick whose effective led suit is ``led`` (R27).

    Criticals in their order (R7), then trumps by rank (R9), then the suit led by rank;
    anything else cannot win (-1).
    """
    code = str(card)
    if code in CRITICAL_CODES:
        return 300 - CRITICAL_CODES.index(code)
    rank = RANK_ORDER.index(code[1:])
    if suit_of(card) == trump:
        return 200 + rank
    if suit_of(card) == led:
        return 100 + rank
    return -1


def winning_index(trick: Sequence[Card], trump: str) -> int:
    """R27: the position in ``trick`` of the card that wins it so far."""
    led = effective_suit(trick[0], trump)
    powers = [power(c, led, trump) for c in trick]
    return powers.index(max(powers))


def legal_plays(
    hand: Iterable[Card], trick: Sequence[Card], trump: str, must_head: bool
) -> set[Card]:
    """The cards of ``hand`` that may be played to ``trick`` (R24-R26), read literally."""
    hand = set(hand)
    if not trick:
        return hand  # R24: any lead
    led = effective_suit(trick[0], trump)
    best = power(trick[winning_index(trick, trump)], led, trump)

    def beating(cards: set[Card]) -> set[Card]:
        return {c for c in cards if power(c, led, trump) > best}

    same = {c for c in hand if effective_suit(c, trump) == led}
    if same:  # R25.1 (plain lead) and R25.3 (trump lead): follow, and head if you can
        if must_head and beating(same):
            return beating(same)
        return same
    trumps = {c for c in hand if effective_suit(c, trump) == TRUMP}
    if trumps:  # R25.2: void in a plain suit, trump, and overtrump if you can
        if must_head and beating(trumps):
            return beating(trumps)
        return trumps
    return hand  # R25.4


def deal_points(
    tricks_won: Sequence[int], folded: Sequence[bool], trump: str, rules: Rules
) -> list[int]:
    """R29, R30: -1 per trick, +5 for none, folded players 0; doubled with Hearts trumps."""
    factor = 2 if trump == HEARTS and rules.hearts_double else 1
    points = []
    for won, out in zip(tricks_won, folded, strict=True):
        if out:
            points.append(0)
        elif won == 0:
            points.append(5 * factor)
        else:
            points.append(-won * factor)
    return points


def post(scores: Sequence[int], points: Sequence[int], rules: Rules) -> list[int]:
    """R31, R32: add the points; with ``added_back`` the excess below zero is added back."""
    out = []
    for before, delta in zip(scores, points, strict=True):
        after = before + delta
        if after < 0 and rules.overshoot == "added_back":
            after = before + (-after)
        out.append(after)
    return out


def result(scores: Sequence[int], rules: Rules) -> tuple[set[int], set[int]]:
    """R31-R34: (winners, losers) after a deal; two empty sets if the game goes on."""

    def reached(score: int) -> bool:
        if rules.plus_fifty and score >= 50:  # R33
            return True
        if rules.overshoot == "added_back":  # R32: only an exact 0
            return score == 0
        return score <= 0  # R31

    seats = range(len(scores))
    goal = {s for s in seats if reached(scores[s])}
    if not goal:
        return set(), set()
    if len(goal) == len(scores):  # R34: everybody reached the goal in this deal
        low, high = min(scores), max(scores)
        if low == high:
            return set(), set()
        return {s for s in seats if scores[s] == low}, {s for s in seats if scores[s] == high}
    rest = [s for s in seats if s not in goal]
    high = max(scores[s] for s in rest)
    return goal, {s for s in rest if scores[s] == high}


def ritual_looks(pack: Sequence[Card], n: int, dealer: int, schleck: str) -> list[int]:
    """R12, R14: who looks at the 1st, 2nd, 3rd card from the bottom, if it gets that far."""
    cutter = (dealer - 1) % n
    if schleck == "none":
        return []
    if schleck == "cutter_only":
        return [cutter, cutter, cutter]
    return [cutter, dealer, cutter]


def deal(
    pack: Sequence[Card], n: int, dealer: int, taken: Sequence[Sequence[Card]]
) -> tuple[list[list[Card]], Card, list[Card]]:
    """R15: deal ``pack`` (top first, the taken Criticals already removed from its bottom).

    Returns the hands (each seat's taken Criticals first), the trump card and the stock.
    """
    order = [(dealer + 1 + i) % n for i in range(n)]
    hands = [list(taken[s]) for s in range(n)]
    rest = list(pack)
    for seat in order:  # first packet: 3 - k cards
        k = 3 - len(taken[seat])
        hands[seat] += rest[:k]
        del rest[:k]
    trump = rest.pop(0)
    for seat in order:  # second packet: 2 cards
        hands[seat] += rest[:2]
        del rest[:2]
    return hands, trump, rest
