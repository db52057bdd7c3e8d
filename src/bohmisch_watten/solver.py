"""An exact solver of the rest of a deal whose hands are all known (R24–R32).

One job in one file, although it is long: the search and its speed tricks belong
together, since each bound and cache is only correct with the others.

:func:`solve` answers, for a :class:`~bohmisch_watten.GameState` in the ``PLAY``
phase, what every legal card of the player to act is worth: the deal points
(``DealSummary.points`` of that seat, R29–R32) he can guarantee by playing it now and
the best cards afterwards.  Lower is better: the race runs from 20 down to 0.

Two models of the other seats:

* ``"paranoid"`` (the default): the others play together against the mover, so the
  value is a guarantee; for two players it is the exact minimax value.
* ``"selfish"`` (max^n): every seat plays to minimise its *own* deal points; among
  cards of equal value for the seat to act, the lowest card index (``Card.index``) is
  played, so the line is deterministic.  The values are the mover's points on that line.

The work is done on bitmasks by :func:`solve_masks`, which a bot can call on sampled
worlds without building states: cards are ints (``Card.index``: ``suit * 8 + rank``,
the Sixes of the 36-card pack 32–35), hands are bitmasks of them, exactly as in
:mod:`bohmisch_watten.tricks`, with two to seven seats (R1).  The trick rules are
those of :mod:`bohmisch_watten.tricks` (``legal_play_mask`` and ``best_play``,
R24–R27), the points those of :mod:`bohmisch_watten.scoring` (R29–R32).

How the paranoid search is fast: it never computes a value directly but answers
yes/no probes ("can the mover end with a number of tricks in this set?"), a
binary search over the few values the mover's points can take; a transposition table
at the start of each trick keeps, for the threshold probes of the default rules, the
bounds "the mover can take at least *lo* / at most *hi* of the remaining tricks"
(independent of the tricks already taken), seeded with what the top trumps alone
decide; cards of one hand that no card still in play separates are one move (they are
interchangeable for the rest of the deal); the side to move tries its likely best
cards first; probes whose answer is the same for every outcome stop at once, and the
last trick, all of whose cards are forced, is played out without a search.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import pairwise
from typing import Final

from ._cores import NATIVE
from .actions import PLAY_ACTIONS, PlayCard
from .cards import CARDS, PACK_SIZES, Card, bits
from .errors import check_instance
from .phases import Phase
from .rules import Rules
from .scoring import deal_points, post_scores
from .seats import left_of
from .state import GameState
from .tricks import BEATS, EFFECTIVE, STRENGTH, TRUMP, TRUMP_MASK, Plays
from .tricks import best_play as _best_play
from .tricks import legal_play_mask as _legal_play_mask

__all__ = [
    "OTHERS",
    "NodeLimitReached",
    "point_table",
    "principal_variation",
    "solve",
    "solve_masks",
]

OTHERS = ("paranoid", "selfish")
"""The models of the other seats :func:`solve` understands."""


class NodeLimitReached(RuntimeError):
    """:func:`solve_masks` gave up: the search started more tricks than its ``max_nodes``.

    A bot that solves many sampled worlds within a budget can catch it and value that
    world another way; most deals take a few hundred such nodes, a rare deal of six or
    seven seats hundreds of thousands.
    """


_ORDER = tuple(
    tuple(EFFECTIVE[t][c] * 64 + STRENGTH[t][EFFECTIVE[t][c]][c] for c in range(len(CARDS)))
    for t in range(4)
)
"""``_ORDER[t][card]``: sorts a hand by effective suit, then by strength within it."""

_SINGLES: tuple[tuple[Plays, ...], ...] = tuple(
    tuple(((seat, card),) for card in range(len(CARDS)))
    for seat in range(max(Rules(pack=pack).max_players for pack in PACK_SIZES))
)
"""``_SINGLES[seat][card]``: the one-play trick ``((seat, card),)``, built once, for
every seat of the largest table (R1) and every card of either pack (R6)."""


def point_table(trump: int, rules: Rules, scores: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """Per seat, the deal points (``DealSummary.points``) for 0–5 tricks taken (R29–R32).

    ``table[seat][t]`` is what seat ``seat``, active, scores when it ends the deal with
    ``t`` tricks: −1 per trick or +5 for none (R29), doubled with Hearts as trumps and
    ``hearts_double`` (R30), and with ``overshoot = added_back`` the change of score
    that R32 gives from ``scores[seat]``.  Computed by :mod:`bohmisch_watten.scoring`,
    the functions ``apply()`` uses, so it is the quantity a finished deal reports.

    Args:
        trump: the trump suit (0–3, ``int(state.trump_suit)``).
        rules: the variants in force.
        scores: per seat, the score before this deal (``state.scores``).
    """
    return _point_table(trump, rules, tuple(scores))


@lru_cache(maxsize=1 << 10)
def _point_table(trump: int, rules: Rules, scores: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    n = len(scores)
    rows = []
    for tricks in range(6):
        raw = deal_points((tricks,) * n, (False,) * n, trump, rules)
        after = post_scores(scores, raw, rules)
        rows.append([a - b for a, b in zip(after, scores, strict=True)])
    return tuple(tuple(rows[t][seat] for t in range(6)) for seat in range(n))


def _classes(legal: int, inplay: int, trump: int) -> list[list[int]]:
    """The cards of ``legal`` in groups of interchangeable cards, weakest group first.

    Two cards of one hand are interchangeable for the rest of the deal when they have
    the same effective suit (R10) and no card still in play (in a hand or in the
    current trick) lies between them in strength (R27): every card then beats both or
    neither, and R25 treats them alike.
    """
    order = _ORDER[trump]
    effective = EFFECTIVE[trump]
    beats = BEATS[trump]
    cards = sorted(bits(legal), key=order.__getitem__)
    groups = [[cards[0]]]
    for low, high in pairwise(cards):
        suit = effective[high]
        if suit == effective[low] and inplay & beats[suit][low] & ~beats[suit][high] == 1 << high:
            groups[-1].append(high)
        else:
            groups.append([high])
    return groups


_TRUMPS_DOWN = tuple(
    tuple(sorted(bits(TRUMP_MASK[t]), key=STRENGTH[t][TRUMP].__getitem__, reverse=True))
    for t in range(4)
)
"""``_TRUMPS_DOWN[t]``: the trumps of either pack, strongest first (R27); the Six of
trumps, last, is in no hand of the 32-card game."""


def _sure(hands: list[int], left: int, mover: int, trump: int) -> list[int]:
    """Bounds ``[lo, hi]`` on the mover's remaining tricks from the trumps alone (R27).

    A trump stronger than every trump of the other side wins the trick it is played
    to: a trump beats every plain card.  So the mover takes at least one trick per
    trump of his above all the others' trumps; and an opponent's trumps above all the
    mover's trumps each make a trick the mover loses (an opponent plays one card a
    trick, so they fall in different tricks).
    """
    trumps = TRUMP_MASK[trump]
    mine = hands[mover] & trumps
    theirs = (sum(hands) ^ hands[mover]) & trumps
    if not theirs:
        return [mine.bit_count(), left]
    if mine:
        lo = (mine & _above(theirs, trump)).bit_count()
        over = _above(mine, trump)
    else:
        lo, over = 0, trumps
    lost = 0
    for seat, hand in enumerate(hands):
        if seat != mover and (hand & over).bit_count() > lost:
            lost = (hand & over).bit_count()
    return [lo, left - lost]


@lru_cache(maxsize=1 << 12)
def _above(trumps: int, trump: int) -> int:
    """The trumps stronger than every card of ``trumps`` (a non-empty set of trumps)."""
    top = next(card for card in _TRUMPS_DOWN[trump] if trumps >> card & 1)
    return BEATS[trump][TRUMP][top]


@lru_cache(maxsize=1 << 16)
def _moves(legal: int, inplay: int, trump: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """One card of each group of interchangeable cards: weakest first, and strongest first."""
    ascending = tuple(group[-1] for group in _classes(legal, inplay, trump))
    return ascending, ascending[::-1]


class _Deal:
    """The fixed facts of one search: trump, the rules of play, the seats in play."""

    def __init__(
        self,
        num_players: int,
        trump: int,
        must_head: bool,
        folded: Sequence[bool],
        points: Sequence[Sequence[int]],
        max_nodes: int | None = None,
    ) -> None:
        self.trump = trump
        # The tricks the search may still start (a cell, counted down in place).
        self.budget = [-1 if max_nodes is None else max_nodes]
        self.limited = max_nodes is not None
        self.must_head = must_head
        self.points = points
        self.active = sum(1 for out in folded if not out)
        nxt = []
        for seat in range(num_players):
            after = left_of(seat, num_players)
            while folded[after]:
                after = left_of(after, num_players)
            nxt.append(after)
        self.next = tuple(nxt)  # R24: folded players are skipped


class _Paranoid:
    """Yes/no probes for one mover against all other seats, sharing one table."""

    def __init__(self, deal: _Deal, mover: int) -> None:
        self.deal = deal
        self.mover = mover
        self.values = deal.points[mover]
        self.bounds: dict[tuple[int, ...], list[int]] = {}
        self.sets: dict[tuple[tuple[int, ...], int], bool] = {}
        self.force = self._make_force()

    def _make_force(self) -> Callable[[list[int], Plays, int, int, int], bool]:
        deal = self.deal
        trump = deal.trump
        must_head = deal.must_head
        nxt = deal.next
        active = deal.active
        mover = self.mover
        bounds = self.bounds
        sets = self.sets
        legal_mask = _legal_play_mask
        best_play = _best_play
        singles = _SINGLES
        budget = deal.budget
        limited = deal.limited

        def force(hands: list[int], trick: Plays, seat: int, want: int, inplay: int) -> bool:
            """Whether the mover can end with ``r`` more tricks for some bit ``r`` of ``want``."""
            hand = hands[seat]
            left = hand.bit_count()  # tricks still to play, the current one included
            full = (2 << left) - 1
            want &= full
            if want == full:
                return True
            if not want:
                return False
            if left == 1:  # the last trick: every card is forced
                plays = trick
                while len(plays) < active:
                    plays = (*plays, (seat, hands[seat].bit_length() - 1))
                    seat = nxt[seat]
                return bool(want >> (best_play(plays, trump)[0] == mover) & 1)
            entry: list[int] | None = None
            key: tuple[int, ...] | None = None
            need = -1
            if trick:
                legal = legal_mask(hand, trick, trump, must_head)
            else:
                legal = hand
                key = (*hands, seat)
                if limited:
                    budget[0] -= 1
                    if budget[0] < 0:
                        raise NodeLimitReached
                low = want & -want
                if want == full & -low:  # "at least need more tricks"
                    need = low.bit_length() - 1
                    entry = bounds.get(key)
                    if entry is None:
                        entry = bounds[key] = _sure(hands, left, mover, trump)
                    if need <= entry[0]:
                        return True
                    if need > entry[1]:
                        return False
                else:
                    known = sets.get((key, want))
                    if known is not None:
                        return known
            # The moves: one card of each group of interchangeable cards.
            if legal & (legal - 1):
                both = _moves(legal, inplay, trump)
                # Ordering (R27): the mover tries his strongest cards first; the others
                # try to beat the mover's card, or to stay high before he plays, and
                # play low once he has played and is beaten, or when they lead.  (A seat
                # that has played to this trick holds a card fewer than ``left``.)
                if seat == mover or (trick and hands[mover].bit_count() == left):
                    moves = both[1]
                elif trick:
                    moves = both[best_play(trick, trump)[0] == mover]
                else:
                    moves = both[0]
            else:
                moves = (legal.bit_length() - 1,)
            is_mover = seat == mover
            result = not is_mover
            for card in moves:
                hands[seat] = hand ^ (1 << card)
                plays = trick + singles[seat][card]
                if len(plays) == active:  # R27: the trick is complete
                    winner = best_play(plays, trump)[0]
                    ok = force(
                        hands, (), winner, want >> 1 if winner == mover else want, sum(hands)
                    )
                else:
                    ok = force(hands, plays, nxt[seat], want, inplay)
                if ok == is_mover:
                    result = ok
                    break
            hands[seat] = hand
            if key is not None:
                if entry is not None:
                    if result:
                        entry[0] = need
                    else:
                        entry[1] = need - 1
                else:
                    sets[(key, want)] = result
            return result

        return force

    def value(
        self, hands: list[int], trick: Plays, seat: int, taken: int, guess: int | None = None
    ) -> int:
        """The mover's deal points at this node (he has ``taken`` tricks so far).

        A binary search over the values his points can still take, each step a probe;
        or, given a ``guess`` (the value of a sibling), a walk from the guess, which
        takes two probes when the guess is right.
        """
        left = hands[seat].bit_count()
        outcomes = self.values[taken : taken + left + 1]
        candidates = sorted(set(outcomes))
        low, high = 0, len(candidates) - 1  # the value's index lies in [low, high]
        inplay = sum(hands) | sum(1 << card for _, card in trick)

        def at_most(index: int) -> bool:
            limit = candidates[index]
            want = sum(1 << r for r, v in enumerate(outcomes) if v <= limit)
            return self.force(hands, trick, seat, want, inplay)

        if guess is not None and low < high:
            near = min(range(len(candidates)), key=lambda i: abs(candidates[i] - guess))
            if near == high or at_most(near):  # walk down from the guess
                high = near
                while low < high and at_most(high - 1):
                    high -= 1
                low = high
            else:  # walk up
                low = near + 1
                while low < high and not at_most(low):
                    low += 1
                high = low
        while low < high:
            mid = (low + high) // 2
            if at_most(mid):
                high = mid
            else:
                low = mid + 1
        return candidates[low]


@lru_cache(maxsize=1 << 16)
def _selfish_moves(legal: int, hand: int, inplay: int, trump: int) -> tuple[int, ...]:
    """One card of each group of cards with the same max^n line, in card order.

    Interchangeable cards (see :func:`_classes`) give the same outcome, and so the same
    line, if also no other card of the hand lies between them in card order: then the
    lowest-index tie rule sees the same order of the hand after either.  Each group is
    represented by its lowest card, which the tie rule would pick among them.
    """
    moves = []
    for group in _classes(legal, inplay, trump):
        run = [group[0]]
        for low, high in pairwise(group):
            first, last = min(low, high), max(low, high)
            if hand & ((1 << last) - (2 << first)):  # a card of the hand in between
                moves.append(min(run))
                run = []
            run.append(high)
        moves.append(min(run))
    return tuple(sorted(moves))


class _Selfish:
    """Max^n: every seat minimises its own points, ties to the lowest card index."""

    def __init__(self, deal: _Deal) -> None:
        self.deal = deal
        self.memo: dict[tuple[int, ...], tuple[int, ...]] = {}

    def line(
        self, hands: list[int], trick: Plays, seat: int, won: tuple[int, ...], inplay: int
    ) -> tuple[int, ...]:
        """The tricks per seat at the end of the deal on the max^n line from here."""
        deal = self.deal
        hand = hands[seat]
        if not hand:
            return won
        key: tuple[int, ...] | None = None
        if not trick:
            if deal.limited:
                deal.budget[0] -= 1
                if deal.budget[0] < 0:
                    raise NodeLimitReached
            key = (*hands, seat, *won)
            known = self.memo.get(key)
            if known is not None:
                return known
            legal = hand
        else:
            legal = _legal_play_mask(hand, trick, deal.trump, deal.must_head)
        own = deal.points[seat]
        best: tuple[int, ...] = ()
        best_value = 0
        for card in _selfish_moves(legal, hand, inplay, deal.trump):
            result = self.child(hands, trick, seat, won, card, inplay)
            value = own[result[seat]]
            if not best or value < best_value:
                best, best_value = result, value
        if key is not None:
            self.memo[key] = best
        return best

    def child(
        self,
        hands: list[int],
        trick: Plays,
        seat: int,
        won: tuple[int, ...],
        card: int,
        inplay: int,
    ) -> tuple[int, ...]:
        """The line after ``seat`` plays ``card``."""
        deal = self.deal
        hand = hands[seat]
        hands[seat] = hand ^ (1 << card)
        plays = (*trick, (seat, card))
        if len(plays) == deal.active:
            winner = _best_play(plays, deal.trump)[0]
            after = list(won)
            after[winner] += 1
            result = self.line(hands, (), winner, tuple(after), sum(hands))
        else:
            result = self.line(hands, plays, deal.next[seat], won, inplay)
        hands[seat] = hand
        return result


_NATIVE_SOLVE: Final[Callable[..., dict[int, int] | None] | None] = getattr(
    NATIVE, "solve_masks", None
)
"""The compiled search (src/native/solver.c) when the compiled core runs, else None."""


def _check_others(others: object, call: str) -> None:
    if not isinstance(others, str):
        raise TypeError(f"{call}: others must be a str, got {type(others).__name__}")
    if others not in OTHERS:
        raise ValueError(f"{call}: others must be one of {', '.join(OTHERS)}, got {others!r}")


def _node_values(
    deal: _Deal,
    search: _Paranoid | _Selfish,
    hands: list[int],
    trick: Plays,
    won: Sequence[int],
    player: int,
    mover: int,
) -> dict[int, int]:
    """Per legal card of ``player``: the mover's points after it, in card order."""
    hand = hands[player]
    legal = _legal_play_mask(hand, trick, deal.trump, deal.must_head) if trick else hand
    out: dict[int, int] = {}
    inplay = sum(hands) | sum(1 << card for _, card in trick)
    if isinstance(search, _Selfish):
        for card in bits(legal):
            result = search.child(hands, trick, player, tuple(won), card, inplay)
            out[card] = deal.points[mover][result[mover]]
        return out
    guess: int | None = None
    for group in _classes(legal, inplay, deal.trump):
        card = group[0]
        hands[player] = hand ^ (1 << card)
        plays = (*trick, (player, card))
        taken = won[mover]
        if len(plays) == deal.active:
            winner = _best_play(plays, deal.trump)[0]
            taken += winner == mover
            value = search.value(hands, (), winner, taken, guess)
        else:
            value = search.value(hands, plays, deal.next[player], taken, guess)
        guess = value
        hands[player] = hand
        for member in group:
            out[member] = value
    return dict(sorted(out.items()))


def solve_masks(
    hands: Sequence[int],
    trick: Sequence[tuple[int, int]],
    tricks_won: Sequence[int],
    trump: int,
    *,
    player: int,
    mover: int | None = None,
    must_head: bool = True,
    folded: Sequence[bool] | None = None,
    points: Sequence[Sequence[int]] | None = None,
    others: str = "paranoid",
    max_nodes: int | None = None,
) -> dict[int, int]:
    """:func:`solve` on bitmasks: per legal card index of ``player``, the mover's points.

    The fast entry point for a bot that solves many sampled worlds: no
    :class:`GameState` is built.  With the compiled core (``bohmisch_watten.native_core``)
    the search runs in C, which checks every argument (``TypeError`` for a wrong type,
    ``ValueError`` for a position that cannot occur in the ``PLAY`` phase); the
    pure-Python search trusts them (no checks but ``others``).  Both give the same
    values and give up at the same ``max_nodes``.

    Args:
        hands: per seat, the bitmask of the cards in hand (a folded seat's is ignored).
        trick: the current trick as ``(seat, card index)`` pairs, leader first.
        tricks_won: per seat, the tricks won so far in this deal.
        trump: the trump suit, 0–3.
        player: the seat to act (the leader if ``trick`` is empty).
        mover: the seat whose points are returned; the player to act by default.  In
            paranoid mode every other seat plays against the mover.
        must_head: the R26 variant (``rules.must_head``).
        folded: per seat, whether he folded (R21); nobody by default.
        points: per seat, the deal points for 0–5 tricks, as :func:`point_table` gives
            them; by default R29 and R30 with ``hearts_double`` (``Rules()``) and
            ``overshoot = wins``.
        others: ``"paranoid"`` or ``"selfish"`` (see the module's description).
        max_nodes: give up after starting this many tricks in the search (a work
            budget: a bot's decision then takes bounded time however hard the deal);
            None searches to the end.

    Returns:
        ``{card index: points of the mover}`` for every legal card of ``player``, in
        card order.

    Raises:
        NodeLimitReached: if the search would start more than ``max_nodes`` tricks.
    """
    if _NATIVE_SOLVE is None:
        return _solve_masks_python(
            hands,
            trick,
            tricks_won,
            trump,
            player=player,
            mover=mover,
            must_head=must_head,
            folded=folded,
            points=points,
            others=others,
            max_nodes=max_nodes,
        )
    _check_others(others, "solve_masks(others=)")
    if folded is None:
        folded = (False,) * len(hands)
    if points is None:
        points = point_table(trump, Rules(), (100,) * len(hands))
    found: dict[int, int] | None = _NATIVE_SOLVE(
        hands,
        trick,
        tricks_won,
        trump,
        player,
        player if mover is None else mover,
        must_head,
        folded,
        points,
        others,
        max_nodes,
    )
    if found is None:
        raise NodeLimitReached
    return found


def _solve_masks_python(
    hands: Sequence[int],
    trick: Sequence[tuple[int, int]],
    tricks_won: Sequence[int],
    trump: int,
    *,
    player: int,
    mover: int | None = None,
    must_head: bool = True,
    folded: Sequence[bool] | None = None,
    points: Sequence[Sequence[int]] | None = None,
    others: str = "paranoid",
    max_nodes: int | None = None,
) -> dict[int, int]:
    """:func:`solve_masks` by the pure-Python search: the reference the compiled one is
    tested against (tests/test_native_solver.py), and the search without a compiled core."""
    _check_others(others, "solve_masks(others=)")
    n = len(hands)
    out = tuple(folded) if folded is not None else (False,) * n
    if points is None:
        points = point_table(trump, Rules(), (100,) * n)
    deal = _Deal(n, trump, must_head, out, points, max_nodes)
    if mover is None:
        mover = player
    masks = [0 if gone else hand for hand, gone in zip(hands, out, strict=True)]
    plays = tuple((seat, card) for seat, card in trick)
    search: _Paranoid | _Selfish = (
        _Paranoid(deal, mover) if others == "paranoid" else _Selfish(deal)
    )
    return _node_values(deal, search, masks, plays, tricks_won, player, mover)


def _read(state: object, call: str) -> tuple[_Deal, list[int], Plays, tuple[int, ...], int]:
    """The solver's view of a state, from its public properties only."""
    check_instance(state, GameState, "state", call)
    assert isinstance(state, GameState)
    if state.phase is not Phase.PLAY or state.current_player is None:
        raise ValueError(
            f"{call}: the state must be in the PLAY phase with a player to act,"
            f" got phase {state.phase.value}"
        )
    trump_suit = state.trump_suit
    assert trump_suit is not None  # turned up before the PLAY phase (R16)
    trump = int(trump_suit)
    folded = state.folded
    rules = state.rules
    points = point_table(trump, rules, state.scores)
    deal = _Deal(state.num_players, trump, rules.must_head, folded, points)
    hands = [
        0 if out else sum(1 << card.index for card in hand)
        for hand, out in zip(state.hands, folded, strict=True)
    ]
    trick = tuple((seat, card.index) for seat, card in state.trick)
    return deal, hands, trick, state.tricks_won, state.current_player


def solve(state: GameState, *, others: str = "paranoid") -> dict[PlayCard, int]:
    """Per legal card of the player to act: the deal points he can guarantee with it.

    The value of a card is the ``DealSummary.points`` of the mover (the player to act)
    at the end of this deal if he plays that card now and the best cards afterwards:
    with ``others="paranoid"`` the lowest he can guarantee whatever the other seats
    play; with ``others="selfish"`` his points on the max^n line (every seat
    minimises its own points, ties to the lowest card index).  Tricks already taken
    count (R29: a mover with a trick cannot score +5); folded seats do not play (R24).

    Args:
        state: a state in the ``PLAY`` phase.
        others: ``"paranoid"`` (default) or ``"selfish"``.

    Returns:
        ``{PlayCard: points}`` for every legal card, in card order; lower is better.

    Raises:
        TypeError: if ``state`` is not a GameState or ``others`` not a str.
        ValueError: at a chance node, outside the ``PLAY`` phase, at the end of the
            game, or for an unknown ``others``.

    Example:
        >>> import random
        >>> from bohmisch_watten import new_game, Phase
        >>> from bohmisch_watten.solver import solve
        >>> rng = random.Random(3)
        >>> state = new_game(2)
        >>> while state.phase is not Phase.PLAY:
        ...     if state.is_chance_node:
        ...         state = state.apply(state.sample_chance(rng))
        ...     else:
        ...         state = state.apply(rng.choice(state.legal_actions()))
        >>> values = solve(state)
        >>> set(values) == set(state.legal_actions())
        True
    """
    call = "solve(state)"
    _check_others(others, "solve(others=)")
    deal, hands, trick, won, player = _read(state, call)
    if _NATIVE_SOLVE is not None:
        found = _NATIVE_SOLVE(
            hands,
            trick,
            won,
            deal.trump,
            player,
            player,
            deal.must_head,
            state.folded,
            deal.points,
            others,
            None,
        )
        assert found is not None  # no node limit
        return {PLAY_ACTIONS[card]: value for card, value in found.items()}
    search: _Paranoid | _Selfish = (
        _Paranoid(deal, player) if others == "paranoid" else _Selfish(deal)
    )
    values = _node_values(deal, search, hands, trick, won, player, player)
    return {PLAY_ACTIONS[card]: value for card, value in values.items()}


def principal_variation(
    state: GameState, *, others: str = "paranoid"
) -> tuple[tuple[int, Card], ...]:
    """One optimal line to the end of the deal, as ``(seat, Card)`` pairs.

    Paranoid: the mover (the player to act now) plays his best card, the others the
    card that is worst for him, each time the lowest card index among equals; replayed
    through ``apply()`` the line ends the deal with the mover's points equal to
    ``min(solve(state).values())``.  Selfish: the max^n line, every seat playing its
    own best card (lowest index among equals); the mover ends with the value of the
    card he plays first.

    Raises:
        TypeError, ValueError: as :func:`solve`.
    """
    call = "principal_variation(state)"
    _check_others(others, "principal_variation(others=)")
    deal, hands, trick, won, player = _read(state, call)
    mover = player
    paranoid = _Paranoid(deal, mover) if others == "paranoid" else None
    selfish = _Selfish(deal)
    taken = list(won)
    line: list[tuple[int, Card]] = []
    seat = player
    while hands[seat]:
        if paranoid is not None:
            values = _node_values(deal, paranoid, hands, trick, taken, seat, mover)
            pick = min if seat == mover else max
            target = pick(values.values())
        else:
            values = _node_values(deal, selfish, hands, trick, taken, seat, seat)
            target = min(values.values())
        card = min(c for c, v in values.items() if v == target)
        line.append((seat, CARDS[card]))
        hands[seat] ^= 1 << card
        plays = (*trick, (seat, card))
        if len(plays) == deal.active:
            seat = _best_play(plays, deal.trump)[0]
            taken[seat] += 1
            trick = ()
        else:
            trick = plays
            seat = deal.next[seat]
    return tuple(line)
