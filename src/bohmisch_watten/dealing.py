"""A pack that deals given hands: the inverse of dealing (R11, R12, R15).

A :class:`~bohmisch_watten.Shuffle` is the whole pack, top card first; the engine deals
it by R15 after the cutting ritual of R12.  Tests, puzzles and UIs often want the
opposite: "seat 1 holds these five cards, the trump card is E10" — and then need the
pack that produces exactly that.  :func:`deal_pack` builds it, and
:meth:`Shuffle.deal <bohmisch_watten.Shuffle.deal>` wraps it in the chance action.

Which pack deals a hand depends on the ritual: a seat that takes k Criticals in the
ritual gets a first packet of 3 − k cards (R15), and the taken Criticals come from the
bottom of the pack, in ritual order (R12).  So the caller says which Criticals are
taken (``taken``), and the seats that take them follow from the hands.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .cards import Card, pack_cards
from .rules import Rules, Schleck
from .seats import right_of, seat_order

__all__ = ["cut_looker", "deal_pack"]

_DEFAULT_RULES = Rules()
_CUTTER_ONLY = Schleck.CUTTER_ONLY  # a constant: an enum member read off its class is slow


def _cards(value: object, name: str) -> list[Card]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise TypeError(f"{name} must be a sequence of Card objects, got {value!r:.40}")
    out = list(value)
    for card in out:
        if not isinstance(card, Card):
            raise TypeError(
                f"{name} must hold Card objects, got {card!r:.20} (use Card.parse for notation)"
            )
    return out


def cut_looker(step: int, dealer: int, num_players: int, schleck: Schleck) -> int:
    """Who looks at the bottom card in step ``step`` (0, 1, 2) of the ritual (R12, R14).

    The cutter first; then, alternating, the dealer and the cutter again, or the cutter
    every time under ``schleck = cutter_only``.  The engine's ritual and
    :func:`deal_pack` both ask this function, so they cannot disagree.
    """
    cutter = right_of(dealer, num_players)
    return cutter if schleck is _CUTTER_ONLY or step % 2 == 0 else dealer


def deal_pack(
    hands: Sequence[Iterable[Card]],
    trump_card: Card,
    *,
    dealer: int = 0,
    stock: Iterable[Card] = (),
    cut_card: Card | None = None,
    taken: Iterable[Card] = (),
    rules: Rules = _DEFAULT_RULES,
) -> list[Card]:
    """The pack, top first, that deals ``hands`` (R6, R11, R12, R15).

    Applied to ``new_game(len(hands), rules=rules, dealer=dealer)`` as a
    :class:`~bohmisch_watten.Shuffle`, and followed by a
    :class:`~bohmisch_watten.TakeCritical` for each card of ``taken`` (and a
    :class:`~bohmisch_watten.LeaveCritical` if ``cut_card`` is a Critical that is
    looked at), the pack gives every seat exactly its hand, turns up ``trump_card``,
    and leaves a stock that starts with ``stock`` and ends with the cut card.  With
    seven players (the 36-card pack) the stock is empty and the cut card is the
    dealer's last card (RULES.md §9): ``cut_card`` must then be in the dealer's hand
    (default: his last card that is no Critical), and it is dealt to him last.

    Args:
        hands: per seat, its five cards after the deal (Criticals taken included); the
            number of seats is ``len(hands)``: 2 to 4, or to 7 with the 36-card pack
            (R1).  Within a hand, the cards not taken in the ritual are dealt in the
            order given: the first packet, then two.
        trump_card: the card turned up between the packets (R15, R16).
        dealer: the dealer's seat (R2).
        stock: the top cards of the stock, top first; the rest of the stock is the
            unnamed cards in id order (:func:`~bohmisch_watten.cards.pack_cards`).
        cut_card: the card at the bottom after the taken Criticals: looked at in the
            ritual (if the ritual goes on that far) and the last card of the stock
            (R12, R13).  Default: an unnamed card that is not a Critical, so the ritual
            ends there without an offer.
        taken: the Criticals taken in the ritual, in the order taken (C1, C2, C3 of
            R12); the seat that takes each is the seat whose hand holds it, and it must
            be the seat that looks at that step under ``rules.schleck`` (R12, R14).
        rules: the variants; ``schleck`` and ``pack`` matter here.

    Raises:
        TypeError: naming the argument, for anything but Card objects, an int dealer
            or a Rules object.
        ValueError: for an impossible request, saying why and naming the rule: a hand
            without five cards, a card named twice, a taken card that is no Critical or
            was taken by a seat that does not look at that step, a stock too long.

    Example:
        >>> from bohmisch_watten import Card, Shuffle, new_game
        >>> from bohmisch_watten.dealing import deal_pack
        >>> def cards(text):
        ...     return [Card.parse(code) for code in text.split()]
        >>> pack = deal_pack(
        ...     [cards("EA EK EO EU E10"), cards("GA GK GO GU G10")], Card.parse("H9")
        ... )
        >>> state = new_game(2).apply(Shuffle(pack))
        >>> [" ".join(str(c) for c in hand) for hand in state.hands], str(state.trump_card)
        (['E10 EU EO EK EA', 'G10 GU GO GK GA'], 'H9')
    """
    if not isinstance(hands, Sequence) or isinstance(hands, (str, bytes)):
        raise TypeError(f"hands must be a sequence of hands, one per seat, got {hands!r:.40}")
    n = len(hands)
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules object, got {type(rules).__name__}")
    if not 2 <= n <= rules.max_players:
        raise ValueError(
            f"R1: hands must give 2 to {rules.max_players} seats with the {rules.pack}-card "
            f"pack, got {n}"
        )
    if isinstance(dealer, bool) or not isinstance(dealer, int):
        raise TypeError(f"dealer must be an int, got {type(dealer).__name__}")
    if not 0 <= dealer < n:
        raise ValueError(f"dealer must be a seat from 0 to {n - 1}, got {dealer}")
    given = [_cards(hand, f"hands[{seat}]") for seat, hand in enumerate(hands)]
    for seat, hand in enumerate(given):
        if len(hand) != 5:
            raise ValueError(
                f"R15: every hand has 5 cards after the deal; seat {seat} has {len(hand)}"
            )
    (trump,) = _cards([trump_card], "trump_card")
    top_stock = _cards(stock, "stock")
    takes = _cards(taken, "taken")
    cut = None if cut_card is None else _cards([cut_card], "cut_card")[0]
    stock_size = rules.pack - 1 - 5 * n  # R15: 35 - 5n with 36 cards, the cut card last
    if cut is not None and top_stock and top_stock[-1] == cut:
        if len(top_stock) != stock_size:
            raise ValueError(f"R13: the cut card {cut} can only be the last card of the stock")
        top_stock = top_stock[:-1]
    named = [c for hand in given for c in hand] + [trump, *top_stock]
    named += [] if cut is None or stock_size == 0 else [cut]
    seen: set[Card] = set()
    for card in named:
        if card in seen:
            raise ValueError(f"R6: {card} is named twice (every card is in the pack once)")
        seen.add(card)
    owner = {card: seat for seat, hand in enumerate(given) for card in hand}
    if len(takes) != len(set(takes)):
        raise ValueError("R12: a Critical can be taken only once")
    if takes and rules.schleck is Schleck.NONE:
        raise ValueError("R14: with schleck = none nobody takes a Critical")
    per_seat = [0] * n
    for step, card in enumerate(takes):
        if not card.is_critical:
            raise ValueError(f"R12: only a Critical can be taken in the ritual, not {card}")
        if card not in owner:
            raise ValueError(f"R12: the taken {card} must be in the hand of the seat taking it")
        looker = cut_looker(step, dealer, n, rules.schleck)
        if owner[card] != looker:
            raise ValueError(
                f"R12: step {step + 1} of the ritual is seat {looker}'s, so {card} taken "
                f"then must be in seat {looker}'s hand, not seat {owner[card]}'s"
            )
        per_seat[looker] += 1
    order = seat_order(dealer, n)
    dealt = {seat: [c for c in given[seat] if c not in takes] for seat in order}
    if stock_size == 0:  # seven players (R15, RULES.md §9): the pack is dealt to its end
        last = dealt[dealer]  # the dealer's last card is the one the ritual left (R13)
        if cut is None:
            cut = next(c for c in reversed(last) if not c.is_critical)  # 5 cards, <= 3 Criticals
        elif cut not in last:
            raise ValueError(
                f"R13: with {n} players the cut card is the dealer's last card, so {cut} must "
                f"be in seat {dealer}'s hand and not taken"
            )
        last.remove(cut)
        last.append(cut)
        rest = []
    else:
        if len(top_stock) > stock_size - 1:
            raise ValueError(
                f"R15: the stock holds {stock_size} cards, the cut card last; "
                f"{len(top_stock)} named above it"
            )
        rest = [c for c in pack_cards(rules.pack) if c not in seen]
        if cut is None:
            plain = [c for c in rest if not c.is_critical]
            if not plain:
                raise ValueError("R12: no card that is not a Critical is left for the cut card")
            cut = plain[-1]
            rest.remove(cut)
    pack = [c for seat in order for c in dealt[seat][: 3 - per_seat[seat]]]
    pack.append(trump)
    pack += [c for seat in order for c in dealt[seat][3 - per_seat[seat] :]]
    if stock_size:
        pack += [*top_stock, *rest, cut]
    pack += reversed(takes)
    if len(set(pack)) != len(pack) or len(pack) != rules.pack:
        raise ValueError(
            f"R6: the named cards do not make a {rules.pack}-card pack (a Six in the 32-card game?)"
        )
    return pack
