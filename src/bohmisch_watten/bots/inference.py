"""Hand inference: how likely a sampled world makes the opponents' own past actions.

:meth:`PlayerView.sample_state <bohmisch_watten.views.PlayerView.sample_state>` draws
the hidden cards uniformly among the deals consistent with a view: it treats every
opponent's choice as uninformative.  Real players are not: a player who exchanged three
cards held a weak hand, one who kept all five a strong one, a player who folded had
little, and a player who led a trump most likely holds more of them.  Kermit (Skat) and
SchafkopfRL (Schafkopf) got their largest gains from weighting the sampled worlds by
such evidence.  Here the model of an opponent is the club player's strategy of
:mod:`bohmisch_watten.bots.policy` with noise (:class:`OpponentModel`):

* **exchange** (R18–R20): each legal exchange is chosen with probability proportional
  to ``exp(value / exchange_temperature)``, where the value is the heuristic's expected
  tricks of the resulting hand, the dealer's option of taking the trump card (R19)
  included.  Because that value adds up card by card, the normaliser over all subsets
  is a sum of elementary symmetric polynomials, computed exactly;
* **fold** (R21): folding, where R21 allows it, with probability
  ``sigmoid((gain - fold_bias) / fold_temperature)`` of the heuristic's expected points
  of the hand: the heuristic folds when it expects to gain points (``fold_bias=0``);
  :class:`~bohmisch_watten.bots.SearchBot` folds half the hands that expect to lose
  1.3 points (``benchmarks/opponent_folds.py``);
* **play** (R24–R27): the heuristic's card with probability ``1 - play_noise``, every
  other legal card an equal share of ``play_noise``.  What a play proves by the rules
  (a void, a card that would have headed, R25) the sampler already excludes.

The likelihood of a world is the product over the opponents' decisions of this deal;
the observer's own decisions have the same probability in every world and are left out.
Only the world's cards and public facts are read: the weight of a world depends on
nothing but that world and the view it was drawn from.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Final

import attrs

from .. import native_core
from ..actions import Shuffle
from ..cards import CARDS, DECK, MAXI, SUIT_OF, Card, Suit, bits
from ..seats import right_of, seat_order
from ..state import STOCK_LIMIT
from ..tricks import BEATS, EFFECTIVE, TRUMP_MASK, Plays, best_play, legal_play_mask
from ._cards import card_value

if TYPE_CHECKING:
    from ..state import GameState
    from ..views import PlayerView

__all__ = [
    "DEFAULT_MODEL",
    "OpponentModel",
    "draw_worlds",
    "heuristic_play",
    "log_likelihood",
]

_VALUE: Final = tuple(tuple(card_value(card, Suit(t)) for card in CARDS) for t in range(4))
"""``_VALUE[trump][card]``: the heuristic's expected tricks of a card (policy rule 2), for
every card of either pack (R6)."""
_TOTAL: Final = tuple(sum(row[: len(DECK)]) for row in _VALUE)
"""``_TOTAL[trump]``: the sum over the 32 cards of :data:`DECK`, which the heuristic's
value of a card drawn from the stock averages over (``_cards.mean_unseen_value``)."""
_NO_TRICK: Final = 5.0  # R29
_ACES: Final = sum(1 << card.index for card in DECK if int(card.rank) == 7)


def _power(trump: int) -> tuple[int, ...]:
    """The heuristic's card order (``tricks.card_strength``): Criticals, trumps, plain by rank."""
    out = []
    for card in CARDS:  # a Six: rank -1, below the Seven (R6)
        if card.is_critical:
            out.append(300 + (2 if card == MAXI else 1 if card.suit is Suit.BELLS else 0))
        else:
            out.append((200 if card.suit == trump else 100) + int(card.rank))
    return tuple(out)


_POWER: Final = tuple(_power(t) for t in range(4))


@attrs.frozen
class OpponentModel:
    """The noisy heuristic an opponent is assumed to play (see the module).

    Attributes:
        exchange_temperature: softness of the exchange choice, in expected tricks.
        fold_temperature: softness of the fold, in expected points.
        play_noise: the probability of a card other than the heuristic's.
        fold_bias: the heuristic's expected points of a hand at which the opponent
            folds half the time (R21, R29): 0 for the heuristic itself, which folds a
            hand that expects to gain; negative for a player who folds more.
    """

    exchange_temperature: float = 0.1
    fold_temperature: float = 0.3
    play_noise: float = 0.2
    fold_bias: float = 0.0


DEFAULT_MODEL: Final = OpponentModel()


def heuristic_play(legal: int, trick: Plays, trump: int) -> int:
    """The card :func:`~bohmisch_watten.bots.policy.choose_play` picks from ``legal``.

    Rules 4 and 5 of the policy on bitmasks (R24–R27), so that weighing a world costs
    microseconds.  ``legal`` is the mask of legal cards, the whole hand for a lead.
    """
    power = _POWER[trump].__getitem__
    if not trick:
        trumps = legal & TRUMP_MASK[trump]
        if trumps:
            top = max(bits(trumps), key=power)
            count = trumps.bit_count()
            if count >= 3 or (count >= 2 and power(top) >= 300):
                return top
        plain = legal & ~TRUMP_MASK[trump]
        aces = plain & _ACES
        if aces:
            return (aces & -aces).bit_length() - 1
        return min(bits(plain or legal), key=power)
    led = EFFECTIVE[trump][trick[0][1]]
    winners = legal & BEATS[trump][led][best_play(trick, trump)[1]]
    return min(bits(winners or legal), key=power)


def _fold_allowed(view: PlayerView, seat: int) -> bool:
    """Whether R21 let ``seat`` fold at his decision: public facts only."""
    rules = view.rules
    if view.deal_number == 1 or SUIT_OF[view.trump_index] == Suit.HEARTS:  # R21.1, R21.2
        return False
    if view.scores[seat] <= rules.min_fold_score or view.previous_folds[seat]:  # R21.3-4
        return False
    dealer, n = view.dealer, view.num_players
    if seat == dealer:  # R21.5
        return False
    others = [s for s in range(n) if s not in (seat, dealer)]
    return not (seat == right_of(dealer, n) and all(view.folded[s] for s in others))  # R21.6


def _elementary(xs: list[float], top: int) -> list[float]:
    """``e_0 … e_top`` of ``xs``: the sums of the products of every j of them."""
    e = [1.0] + [0.0] * top
    for x in xs:
        for j in range(top, 0, -1):
            e[j] += e[j - 1] * x
    return e


def _exchange_log_p(
    view: PlayerView, seat: int, dealt: int, discards: int, model: OpponentModel
) -> float:
    """Log-probability of the world's exchange (or fold) of ``seat`` from ``dealt``."""
    folded = view.folded[seat]
    stock = _stock_before(view, seat)
    may_fold = _fold_allowed(view, seat)
    if not (stock or may_fold or folded or seat == view.dealer):
        return 0.0  # R20: an empty stock left the empty exchange only (seven players)
    trump_card = view.trump_index
    trump = SUIT_OF[trump_card]
    dealer = seat == view.dealer
    return _exchange_term(
        dealt,
        discards,
        _VALUE[trump],
        _TOTAL[trump],
        trump_card,
        min(STOCK_LIMIT, stock),  # the most a seat other than the dealer draws (R20)
        may_fold,
        folded,
        min(view.rules.dealer_stock_limit, stock) if dealer else -1,  # R19
        dealer and view.trump_card_taken,
        model.fold_bias,
        model.fold_temperature,
        model.exchange_temperature,
    )


def _total(xs: Iterable[float]) -> float:
    """The floats added left to right, as the C twin adds them (``sum`` compensates its
    rounding from Python 3.12 on, which no plain C loop reproduces to the bit)."""
    out = 0.0
    for x in xs:
        out += x
    return out


def _exchange_term_python(
    dealt: int,
    discards: int,
    value: tuple[float, ...],
    total: float,
    trump_card: int,
    limit: int,
    may_fold: bool,
    folded: bool,
    dealer_limit: int,
    took: bool,
    fold_bias: float,
    fold_temperature: float,
    exchange_temperature: float,
) -> float:
    """Log-probability of a seat's fold or exchange from ``dealt`` (R18–R21).

    ``value`` and ``total`` are :data:`_VALUE` and :data:`_TOTAL` of the trump suit,
    ``limit`` the cards the seat may draw, ``dealer_limit`` the dealer's (R19), or -1
    for another seat, ``took`` whether the dealer took the trump card.
    """
    cards = bits(dealt)
    seen = [c for c in (*cards, trump_card) if c < len(DECK)]  # as the heuristic counts
    draw = (total - _total(value[c] for c in seen)) / (len(DECK) - len(seen))
    out = 0.0
    if may_fold:
        gains = sorted(value[c] for c in cards)  # the heuristic's best exchange (R20)
        kept = [v if i >= limit or v >= draw else draw for i, v in enumerate(gains)]
        none = 1.0
        for v in kept:
            none *= 1.0 - v
        gain = _NO_TRICK * none - _total(kept)  # policy.expected_gain of the best exchange
        p_fold = 1.0 / (1.0 + math.exp((fold_bias - gain) / fold_temperature))
        p_fold = min(max(p_fold, 1e-6), 1 - 1e-6)
        out += math.log(p_fold if folded else 1.0 - p_fold)
    if folded:
        return out
    tau = exchange_temperature
    xs = [math.exp((draw - value[c]) / tau) for c in cards]
    if dealer_limit >= 0:
        e = _elementary(xs, dealer_limit + 1)
        take = math.exp((value[trump_card] - draw) / tau)
        z = _total(e[: dealer_limit + 1]) + take * _total(e[1:])
    else:
        z = _total(_elementary(xs, limit))
    chosen = _total((draw - value[c]) / tau for c in bits(discards))
    if took:
        chosen += (value[trump_card] - draw) / tau
    return out + chosen - math.log(z)


_exchange_term: Final[Callable[..., float]] = getattr(
    native_core.module, "exchange_evidence", _exchange_term_python
)
""":func:`_exchange_term_python`, or its C twin (``exchange_evidence`` in
src/native/evidence.c, the same operations in the same order: the same bits) when the
compiled core is built."""


def _stock_before(view: PlayerView, seat: int) -> int:
    """The cards in the stock when ``seat`` decided (R18–R20): public facts only.

    The stock after the deal holds ``pack - 5N - 1`` cards (R15; none with seven
    players and 36 cards), less what the seats before ``seat`` drew, from the dealer's
    left; nobody draws more than it holds (R20), so with five to seven players a seat
    late in the order may have had fewer cards to draw than it wanted, or none.
    """
    n = view.num_players
    order = seat_order(view.dealer, n)
    counts = view.exchange_counts  # -1: folded; the dealer, last, is never before a seat
    drawn = sum(max(counts[q], 0) for q in order[: order.index(seat)])
    return view.rules.pack - 5 * n - 1 - drawn


def _drawn(world: GameState) -> list[int]:
    """Per seat, the cards drawn from the stock in this deal (R18–R20), as a bitmask.

    Read from the world's own shuffle, as :meth:`GameState.view` does for one seat:
    the stock is dealt in seat order from the dealer's left, each seat drawing its
    exchanged cards less the trump card the dealer may have taken (R19).
    """
    node = world.history_node
    while not isinstance(node[2], Shuffle):  # type: ignore[index]
        node = node[0]  # type: ignore[index]
    pack: tuple[Card, ...] = node[2].pack  # type: ignore[index]
    n, dealer = world.num_players, world.dealer
    exchanged = world.exchange_counts
    took = world.trump_card_taken
    order = seat_order(dealer, n)
    counts = [0] * n
    for q in order:
        if exchanged[q] > 0:
            counts[q] = exchanged[q] - (1 if q == dealer and took else 0)
    takes = sum(1 for _, _, taken in world.deal_fields.cut if taken)
    end = world.rules.pack - takes - len(world.deal_fields.pack)
    position = end - sum(counts)
    out = [0] * n
    for q in order:
        mask = 0
        for card in pack[position : position + counts[q]]:
            mask |= 1 << card.index
        out[q] = mask
        position += counts[q]
    return out


def _play_evidence_python(
    dealt: tuple[int, ...],
    history: list[Plays],
    me: int,
    trump: int,
    must_head: bool,
    hit: float,
    miss: float,
) -> tuple[float, Sequence[int]]:
    """The card-play term of :func:`log_likelihood` and the hands before ``history``.

    The tricks are walked backwards, each card put back into its seat's hand; every
    play of another seat with more than one legal card is the heuristic's (``hit``) or
    one of the ``k - 1`` others (``miss - log(k - 1)``, R24-R27).  ``dealt`` are the
    world's hands now.
    """
    hands = list(dealt)
    out = 0.0
    for plays in reversed(history):  # hands grow back to what each seat held then
        for i in range(len(plays) - 1, -1, -1):
            seat, card = plays[i]
            hands[seat] |= 1 << card
            if seat == me:
                continue
            prefix = plays[:i]
            legal = (
                legal_play_mask(hands[seat], prefix, trump, must_head) if prefix else hands[seat]
            )
            k = legal.bit_count()
            if k > 1:
                chosen = heuristic_play(legal, prefix, trump)
                out += hit if chosen == card else miss - math.log(k - 1)
    return out, hands


_play_evidence: Final[Callable[..., tuple[float, Sequence[int]]]] = getattr(
    native_core.module, "play_evidence", _play_evidence_python
)
""":func:`_play_evidence_python`, or its C twin (``play_evidence`` in src/native/solver.c:
the same float operations in the same order, so the same value to the bit) when the
compiled core is built."""


def log_likelihood(view: PlayerView, world: GameState, model: OpponentModel) -> float:
    """Log-probability, under ``model``, of the opponents' decisions of this deal in ``world``.

    Up to a constant that is the same for every world of ``view``.
    """
    n, me = view.num_players, view.player
    trump_card = view.trump_index
    if trump_card < 0:
        return 0.0  # the ritual: nothing has been decided that depends on hidden cards
    trump = SUIT_OF[trump_card]
    must_head = view.rules.must_head
    history: list[Plays] = [plays for plays, _ in view.played_tricks]
    if view.trick_plays:
        history.append(view.trick_plays)
    noise = model.play_noise
    out, hands = _play_evidence(
        world.hand_masks, history, me, trump, must_head, math.log(1.0 - noise), math.log(noise)
    )
    discards = world.deal_fields.discards
    took_bit = 1 << trump_card if view.trump_card_taken else 0
    drawn_by: list[int] | None = None
    for seat in range(n):
        if seat == me or (view.exchange_counts[seat] < 0 and not view.folded[seat]):
            continue
        if view.folded[seat]:
            dealt = hands[seat]
        else:
            if drawn_by is None:
                drawn_by = _drawn(world)
            held = hands[seat] & ~drawn_by[seat]
            if seat == view.dealer:
                held &= ~took_bit
            dealt = held | discards[seat]
        out += _exchange_log_p(view, seat, dealt, discards[seat], model)
    return out


def draw_worlds(
    view: PlayerView,
    rng: random.Random,
    count: int,
    proposals: int,
    model: OpponentModel | None = DEFAULT_MODEL,
    evidence: float = 1.0,
) -> list[GameState]:
    """``count`` worlds of ``view``, drawn from the posterior of the opponent model.

    Draws ``proposals`` uniform worlds (exact, :meth:`PlayerView.sample_state`), weighs
    each by its likelihood raised to the power ``evidence`` and resamples ``count`` of
    them in proportion to their weights (systematic resampling: the least noisy way to
    turn weights into a sample).  An ``evidence`` below 1 tempers the model: real
    opponents are not the model, and the full likelihood is so sharp that a few worlds
    take nearly all the weight (an effective sample of about 4 of 120 proposals in card
    play), while at 0.5 about 15 share it.  With ``model=None``, ``evidence=0``, or
    when no opponent has decided anything yet, the first ``count`` uniform worlds.
    """
    decided = (
        view.played_tricks
        or view.trick_plays
        or any(
            view.folded[s] or view.exchange_counts[s] >= 0
            for s in range(view.num_players)
            if s != view.player
        )
    )
    if model is None or not decided or proposals <= count or not evidence:
        return [view.sample_state(rng) for _ in range(count)]
    worlds = [view.sample_state(rng) for _ in range(proposals)]
    logs = [evidence * log_likelihood(view, world, model) for world in worlds]
    top = max(logs)
    weights = [math.exp(x - top) for x in logs]
    total = sum(weights)
    step = total / count
    point = rng.random() * step
    out: list[GameState] = []
    acc = 0.0
    for world, weight in zip(worlds, weights, strict=True):
        acc += weight
        while point < acc and len(out) < count:
            out.append(world)
            point += step
    while len(out) < count:  # pragma: no cover - float rounding at the very end
        out.append(worlds[-1])
    return out
