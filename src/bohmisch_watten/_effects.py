"""Internal: the effects of the actions, with their error explainers (R11–R34).

Each effect checks its action against the rules, asks the compiled phase machine for
the destination (``decide``) and builds the one new state with
:func:`~bohmisch_watten._construct.make`.  Positional construction is deliberate: it is
the cheapest way to make a frozen instance.  Where the machine's guard has already
worked something out, the effect uses its conclusion instead of testing it again: in
the fifth trick, whether the card completes it is the guard ``completes_deal``'s answer
(``dest is SCORE``); the exchange's next seat follows ``dealer_decides`` (``dest is
PLAY``); and the scoring reads the :class:`~bohmisch_watten.facts.DealScore` the guard
``game_ends`` computed and kept on the state.

The explainers (``*_problem``, :func:`wrong_phase`) run on the error path only, so they
favour clarity over speed.
"""

from __future__ import annotations

from operator import sub as _minus
from typing import TYPE_CHECKING, Any, Final

from ._construct import bind as bind_construct
from ._construct import make
from ._layout import STOCK_LIMIT, fresh_deal
from ._legal import fold_forbidden_by, pack_indices, pack_problem
from .actions import Exchange, Fold, LeaveCritical, PlayCard, Shuffle, TakeCritical
from .cards import DECK, Card, Suit
from .dealing import cut_looker
from .errors import IllegalActionError
from .facts import CARD_PAIRS, SUITS, DealFields, GameFields
from .phase import Phase
from .phases import TABLE, Decider, resolve
from .rules import Schleck
from .seats import left_of, seat_order
from .summary import DealSummary, Trick
from .tables import BEATS, CRITICAL_MASK, EFFECTIVE, FOLLOW_MASK, STRENGTH, TRUMP, TRUMP_MASK, bits
from .tricks import PlayedTrick, best_play, explain_illegal_play

if TYPE_CHECKING:
    from .state import GameState

__all__ = [
    "bind",
    "deal_cards",
    "exchange",
    "fold",
    "play",
    "score",
    "shuffle",
    "take_or_leave",
    "wrong_phase",
]

# The phases as module constants: ``Phase.PLAY`` looks the member up on the enum class
# at every use (a slow attribute access in CPython 3.11), a constant is one global read.
_GAME_OVER: Final = Phase.GAME_OVER
_PLAY: Final = Phase.PLAY
_SCORE: Final = Phase.SCORE
_HEARTS: Final = Suit.HEARTS
_NO_RITUAL: Final = Schleck.NONE


def _machine_answer(phase: Phase, trigger: str, answer: bool) -> Phase:
    """Where the compiled machine sends ``trigger`` in ``phase`` if its guards say ``answer``."""
    dest = resolve(TABLE[(phase, trigger)], lambda name, guard: answer)
    assert dest is not None
    return dest


_PLAY_ON: Final = _machine_answer(_PLAY, "play", False)
"""Where the machine sends a card played while its guard ``completes_deal`` is false:
phase PLAY.  Before the fifth trick that guard cannot hold (it asks for four tricks
played), so :func:`play` takes this answer there instead of asking the guard."""
assert _PLAY_ON is _PLAY
_EXCHANGE_TO: Final = tuple(_machine_answer(Phase.EXCHANGE, "exchange", d) for d in (False, True))
"""``_EXCHANGE_TO[dealer]``: where the machine sends an exchange by the answer of its one
guard, ``dealer_decides`` (the seat exchanging is the dealer, the last to decide: R18,
R19).  :func:`exchange` has that answer already, so it reads the destination here
instead of asking the guard: EXCHANGE for the others, PLAY after the dealer."""


_PLAY_PAIRS: Final = tuple(tuple((seat, card) for card in range(32)) for seat in range(4))
"""Shared ``(seat, card)`` pairs for tricks, so playing a card allocates one tuple less."""
_PLAY_SINGLES: Final = tuple(tuple((pair,) for pair in pairs) for pairs in _PLAY_PAIRS)
"""``((seat, card),)``, shared: a lead is this tuple itself, a later card one concatenation."""
_new_tuple: Final = tuple.__new__
"""``_new_tuple(DealFields, (...))`` builds a named tuple without its Python ``__new__``."""
_LEFT: Final = tuple(tuple(left_of(seat, n) for seat in range(n)) for n in range(5))
"""``_LEFT[n][seat]`` is ``left_of(seat, n)``: a table, for the hot paths."""

_new_object: Final = object.__new__
_State: Any = None
"""The GameState class, once :func:`bind` ran (``play`` builds its state inline)."""
_Unfrozen: Any = None
"""Its unfrozen twin: the same slots, no frozen ``__setattr__`` (see ``_construct``)."""


def bind(state_class: type, unfrozen: type) -> None:
    """Register the state class and its unfrozen twin here and with ``_construct``.

    Called once, by ``state.py``: ``play`` builds its states inline, every other effect
    with :func:`~bohmisch_watten._construct.make`.
    """
    global _State, _Unfrozen
    _State, _Unfrozen = state_class, unfrozen
    bind_construct(state_class, unfrozen)


_WHERE: Final = {
    "shuffle": ("R11", "at a chance node (phase DEAL)"),
    "take": ("R12", "when a Critical is offered in the cutting ritual (phase CUT)"),
    "leave": ("R12", "when a Critical is offered in the cutting ritual (phase CUT)"),
    "fold": ("R18", "in the exchange (phase EXCHANGE)"),
    "exchange": ("R18", "in the exchange (phase EXCHANGE)"),
    "play": ("R24", "in trick play (phase PLAY)"),
}


def wrong_phase(state: GameState, trigger: str, action: object) -> str:
    """Why ``action`` (of ``trigger``) cannot be taken in this phase, naming the rule."""
    if state.phase is _GAME_OVER:
        return "R31: the game is over; no action can be applied"
    rule, where = _WHERE[trigger]
    name = type(action).__name__
    return f"{rule}: {name} is only possible {where}; the phase is {state.phase.name}"


def _next_active(folded: tuple[bool, ...], seat: int) -> int:
    left = _LEFT[len(folded)]
    seat = left[seat]
    while folded[seat]:
        seat = left[seat]
    return seat


# ------------------------------------------------------------- shuffle and cut


def _first_look(
    state: GameState, pack: tuple[int, ...], cut: tuple[tuple[int, int, bool], ...]
) -> tuple[tuple[tuple[int, int, bool], ...], int | None]:
    """The next step of the ritual: who looks at the bottom card and whether it is offered.

    Returns the ritual record with the new look appended (if anybody looks) and the seat
    to decide (None when the ritual is over).  R12 (alternate), R14 (cutter_only, none).
    """
    game = state.game_fields
    schleck = game.rules.schleck
    step = len(cut)
    if schleck is _NO_RITUAL or step >= 3 or (cut and not cut[-1][2]):
        return cut, None
    seat = cut_looker(step, game.dealer, game.num_players, schleck)
    card = pack[-1]
    cut = (*cut, (seat, card, False))
    return cut, (seat if CRITICAL_MASK >> card & 1 else None)


def shuffle(state: GameState, action: Shuffle, decide: Decider) -> GameState:
    """R11: the pack as shuffled; the ritual's first look (R12)."""
    pack = pack_indices(action.pack)
    if pack is None:  # each of the 32 cards once (R11)
        raise IllegalActionError(pack_problem(action.pack) or "R11: not a permutation")
    dest = decide(state, action)
    assert dest is not None
    cut, seat = _first_look(state, pack, ())
    n = state.game_fields.num_players
    return make(
        dest, seat, (0,) * n, (), (), (0,) * n, fresh_deal(n, pack, cut), state.game_fields, 0,
        (state.history_node, None, action),
    )  # fmt: skip


def take_or_leave(
    state: GameState, action: TakeCritical | LeaveCritical, decide: Decider
) -> GameState:
    """R12, R13: the offered Critical taken into the hand (shown), or left at the bottom."""
    dest = decide(state, action)
    assert dest is not None
    seat = state.current_player
    assert seat is not None  # only the shuffle is chance (R11)
    deal = state.deal_fields
    pack, hands, cut = deal.pack, state.hand_masks, deal.cut
    if isinstance(action, TakeCritical):  # R12: into the hand, shown to everybody (R13)
        card = pack[-1]
        pack = pack[:-1]
        hands = tuple(h | (1 << card) if s == seat else h for s, h in enumerate(hands))
        cut = (*cut[:-1], (seat, card, True))
        cut, nxt = _first_look(state, pack, cut)
    else:  # R12: the ritual ends; the card stays at the bottom (R13)
        nxt = None
    return make(
        dest, nxt, hands, (), (), state.tricks_won,
        DealFields(pack, -1, False, deal.folded, deal.exchanged, deal.discards, cut),
        state.game_fields, 0, (state.history_node, seat, action),
    )  # fmt: skip


def deal_cards(state: GameState, dest: Phase) -> GameState:
    """R15: packets of 3 − k and 2 clockwise from forehand, the trump card between."""
    game, deal = state.game_fields, state.deal_fields
    pack = deal.pack
    order = seat_order(game.dealer, game.num_players)
    hands = list(state.hand_masks)
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
        dest, order[0], tuple(hands), (), (), state.tricks_won,
        _new_tuple(
            DealFields,
            (pack[pos + 1 :], trump, False, deal.folded, deal.exchanged, deal.discards, deal.cut),
        ),
        game, 0, state.history_node,
    )  # fmt: skip


# ---------------------------------------------------------------- the exchange


def fold(state: GameState, action: Fold, decide: Decider) -> GameState:
    """R18, R21: the player to act folds, if R21 allows it."""
    reason = fold_forbidden_by(state)
    if reason is not None:
        raise IllegalActionError(reason)
    dest = decide(state, action)
    assert dest is not None
    seat = state.current_player
    assert seat is not None  # only the shuffle is chance (R11)
    deal = state.deal_fields
    folded = list(deal.folded)
    folded[seat] = True
    return make(
        dest, _LEFT[len(folded)][seat], state.hand_masks, (), (), state.tricks_won,
        _new_tuple(
            DealFields,
            (deal.pack, deal.trump, False, tuple(folded), deal.exchanged, deal.discards, deal.cut),
        ),
        state.game_fields, 0, (state.history_node, seat, action),
    )  # fmt: skip


def exchange_problem(state: GameState, seat: int, action: Exchange) -> str:
    """Why ``action`` is not a legal exchange for ``seat`` (the error path only)."""
    hand = state.hand_masks[seat]
    mask = action.discard_mask
    game = state.game_fields
    if mask & ~hand:
        stray = ", ".join(str(DECK[i]) for i in bits(mask & ~hand))
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
    return f"R20: the stock holds only {len(state.deal_fields.pack)} cards, cannot draw {draws}"


def exchange(state: GameState, action: Exchange, decide: Decider) -> GameState:
    """R18–R20: discards, draws from the stock top first; the dealer may take the trump."""
    seat = state.current_player
    assert seat is not None  # only the shuffle is chance (R11)
    mask = action.discard_mask
    take = action.take_trump_card
    hand = state.hand_masks[seat]
    size = mask.bit_count()
    draws = size - take
    deal, game = state.deal_fields, state.game_fields
    pack = deal.pack
    dealer = seat == game.dealer
    if (
        mask & ~hand
        or draws > (game.rules.dealer_stock_limit if dealer else STOCK_LIMIT)
        or draws > len(pack)
        or (take and (not dealer or not mask))
    ):
        raise IllegalActionError(exchange_problem(state, seat, action))
    dest = _EXCHANGE_TO[dealer]  # the machine's answer for dealer_decides, known here
    hand &= ~mask
    for i in pack[:draws]:
        hand |= 1 << i
    if take:
        hand |= 1 << deal.trump
    hands = list(state.hand_masks)  # copied and changed in place: the cheapest copy
    hands[seat] = hand
    exchanged = list(deal.exchanged)
    exchanged[seat] = size
    discards = list(deal.discards)
    discards[seat] |= mask
    fields = _new_tuple(
        DealFields,
        (pack[draws:], deal.trump, take, deal.folded, tuple(exchanged), tuple(discards), deal.cut),
    )
    if dest is _PLAY:  # R24: forehand leads, or the first active player after him
        nxt = _next_active(deal.folded, game.dealer)
        return make(
            dest, nxt, tuple(hands), (), (), state.tricks_won, fields, game,
            hands[nxt],  # R24: the leader may lead any card
            (state.history_node, seat, action),
        )  # fmt: skip
    return make(
        dest, _LEFT[game.num_players][seat], tuple(hands), (), (), state.tricks_won, fields,
        game, 0, (state.history_node, seat, action),
    )  # fmt: skip


# ------------------------------------------------------------------- trick play


def play(state: GameState, action: PlayCard, decide: Decider) -> GameState:
    """R24–R27: the card to the trick; a complete trick goes to its winner, who leads."""
    seat = state.current_player
    assert seat is not None  # only the shuffle is chance (R11)
    card = action.card.index
    if not state.play_mask >> card & 1:  # R24: any card of the hand may lead; R25, R26
        raise IllegalActionError(
            explain_illegal_play(
                seat, state.hand_masks[seat], card, state.trick_plays,
                state.deal_fields.trump >> 3, state.game_fields.rules.must_head,
            )
        )  # fmt: skip
    copy = list(state.hand_masks)  # copied and changed in place: this is the hottest path
    copy[seat] &= ~(1 << card)
    hands = tuple(copy)
    trick = state.trick_plays + _PLAY_SINGLES[seat][card]
    tricks = state.played_tricks
    deal = state.deal_fields
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
        dest = decide(state, action)
        assert dest is not None
        complete = dest is _SCORE
    if complete:
        trump = deal.trump >> 3
        winner = best_play(trick, trump)[0]
        tricks = (*tricks, (trick, winner))
        counts = list(state.tricks_won)
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
        won = state.tricks_won
        nxt = _LEFT[len(folded)][seat]
        if folded[nxt]:
            nxt = _next_active(folded, nxt)
        # R25, R26: legal_play_mask() inlined, worked out once, for legal_actions() and
        # for the check of the next play (tests/test_fast_paths.py compares the two).
        mask = hands[nxt]
        trump = deal.trump >> 3
        led = EFFECTIVE[trump][trick[0][1]]
        follow = mask & FOLLOW_MASK[trump][led]
        if not follow and led != TRUMP:
            follow = mask & TRUMP_MASK[trump]  # R25.2: void in a plain suit, must trump
        if follow:  # else R25.4: neither the suit led nor a trump, any card
            mask = follow
            if state.game_fields.rules.must_head:  # R25.1-3: head / overtrump if possible
                strength = STRENGTH[trump][led]
                winning = trick[0][1]
                for _, other in trick[1:]:
                    if strength[other] > strength[winning]:
                        winning = other
                heading = follow & BEATS[trump][led][winning]
                if heading:
                    mask = heading
    # The new state, built as make() builds it, inline: a card played is the commonest
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
    new.game_fields = state.game_fields
    new.play_mask = mask
    new.history_node = (state.history_node, seat, action)
    new.is_chance_node = False  # phase PLAY or SCORE: neither chance nor the end
    new.is_terminal = False
    new.__class__ = _State
    return new  # type: ignore[no-any-return]


# ---------------------------------------------------------------------- scoring


ScoredDeal = tuple[
    GameFields, int, bool, tuple[bool, ...], tuple[int | None, ...], tuple[PlayedTrick, ...],
    tuple[int, ...], tuple[int, ...], tuple[tuple[int, Card | None, bool, bool], ...],
]  # fmt: skip
"""What :func:`summarize` builds a summary from: the game's fields, then the deal's
trump card, taken trump card, folds, exchange counts, tricks, tricks won, new scores and
public cut looks — public facts only (R13, R23)."""


def scored_deal(state: GameState) -> ScoredDeal:
    """The public facts of the deal that ``state`` (phase SCORE) scores (R29–R34).

    Kept, unbuilt, in the past deals until the summary is read
    (:meth:`PastDeals.append_later <bohmisch_watten.summary.PastDeals.append_later>`),
    so it holds no hand, stock, discard or secret cut card: a seat's view shares the
    past deals and must carry nothing it may not know (R13, R23).
    """
    deal = state.deal_fields
    cut = deal.cut
    return (
        state.game_fields, deal.trump, deal.took_trump, deal.folded, state.exchanged,
        state.played_tricks, state.tricks_won, state.deal_score.scores,
        tuple([
            (seat, DECK[card] if taken else None, taken, bool(CRITICAL_MASK >> card & 1))
            for seat, card, taken in cut
        ]) if cut else (),  # R13: a card looked at and not taken stays that seat's secret
    )  # fmt: skip


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
        deal_number, dealer, DECK[trump], SUITS[trump >> 3], took_trump, folded,
        exchanged, tricks, won, tuple(map(_minus, scores, before)),
        scores, trump >> 3 == _HEARTS and rules.hearts_double, cut,
    )  # fmt: skip


def score(state: GameState, dest: Phase) -> GameState:
    """R29–R34: post the points, keep the deal readable, then a new deal or the end.

    The points and scores are the :attr:`~bohmisch_watten.GameState.deal_score` that the
    guard ``game_ends`` computed to choose ``dest``: read, not computed again.  The
    deal's public facts are appended to the past deals unbuilt (:func:`summarize`
    builds the summary when it is first read).
    """
    n, rules, dealer, deal_number, _, start, past = state.game_fields
    scores = state.deal_score.scores
    if dest is not _GAME_OVER:
        dealer, deal_number = left_of(dealer, n), deal_number + 1  # R4
    past = past.append_later(summarize, scored_deal(state), state.deal_fields.folded)
    return make(
        dest, None, (0,) * n, (), (), (0,) * n, fresh_deal(n),
        _new_tuple(GameFields, (n, rules, dealer, deal_number, scores, start, past)),
        0, state.history_node,
    )  # fmt: skip
