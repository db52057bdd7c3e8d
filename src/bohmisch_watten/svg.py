"""German-suited cards, hands and whole tables drawn as SVG text, for any UI.

Every function returns a self-contained ``<svg>`` string: no external files, fonts or
ids, so many of them can sit in one HTML page (the web table embeds them), be written
to a file, or be shown by Jupyter, which calls ``_repr_svg_`` on :class:`Card`,
:class:`~bohmisch_watten.GameState` and :class:`~bohmisch_watten.views.PlayerView`
(python-chess does the same for boards).

The four German suits are drawn as their pictures (R6): Acorns (Eichel) a brown acorn,
Leaves (Gras) a green leaf, Hearts (Herz) a red heart, Bells (Schellen) a golden bell.
As on a real pack the Ober shows his suit high and the Unter low.  The three permanent
top trumps (R7) have a gold frame and their name, so Maxi, Belli and Spitz are
recognisable at a glance.

Each card's root element carries ``data-card`` with the card's notation (``"HK"``),
and ``data-legal="true"`` when drawn as playable, so browser tests and scripts can
find cards in a page by what they are.

>>> from bohmisch_watten import MAXI
>>> from bohmisch_watten.svg import card_svg
>>> text = card_svg(MAXI, legal=True)
>>> text.startswith("<svg") and 'data-card="HK"' in text and "Maxi" in text
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from .actions import PlayCard
from .cards import BELLI, MAXI, SPITZ, Card, Rank, Suit
from .phases import Phase
from .state import GameState
from .tricks import trick_winner
from .views import PlayerView

__all__ = [
    "CARD_HEIGHT",
    "CARD_WIDTH",
    "card_back_svg",
    "card_svg",
    "hand_svg",
    "state_svg",
    "suit_symbol",
    "table_svg",
]

CARD_WIDTH: Final = 60
"""The width of a card in SVG user units (the view box is 60 × 90)."""
CARD_HEIGHT: Final = 90
"""The height of a card in SVG user units."""

_NS: Final = 'xmlns="http://www.w3.org/2000/svg"'
_CRITICAL_NAMES: Final = {MAXI: "Maxi", BELLI: "Belli", SPITZ: "Spitz"}
_GOLD: Final = "#c9a227"
_INK: Final = {
    Suit.ACORNS: "#6b3e12",
    Suit.LEAVES: "#1f7a2e",
    Suit.HEARTS: "#c8102e",
    Suit.BELLS: "#a86f00",
}

# Each suit drawn in a 20 × 20 box centred on the origin.
_SUIT_PATHS: Final = {
    Suit.ACORNS: (
        '<path d="M0,-6 L0,-10" stroke="#4a2a0a" stroke-width="1.6" fill="none"/>'
        '<ellipse cx="0" cy="3" rx="5.2" ry="6.6" fill="#c47a2c" stroke="#4a2a0a"'
        ' stroke-width="0.8"/>'
        '<path d="M-6.5,-0.5 C-6.5,-8 6.5,-8 6.5,-0.5 Z" fill="#6b3e12" stroke="#4a2a0a"'
        ' stroke-width="0.8"/>'
        '<path d="M-4,-3 L4,-3 M-3,-5.2 L3,-5.2" stroke="#a0692e" stroke-width="0.7"/>'
    ),
    Suit.LEAVES: (
        '<path d="M0,-10 C8.5,-5 8.5,4 0,8.5 C-8.5,4 -8.5,-5 0,-10 Z" fill="#2e9b3e"'
        ' stroke="#14531f" stroke-width="0.8"/>'
        '<path d="M0,-7.5 L0,10.5 M0,-2 L3.5,-4.5 M0,2 L-3.5,-0.5 M0,5 L3.5,2.5"'
        ' stroke="#14531f" stroke-width="0.8" fill="none"/>'
    ),
    Suit.HEARTS: (
        '<path d="M0,8.5 C-13,-1 -7,-12 0,-4 C7,-12 13,-1 0,8.5 Z" fill="#d0202e"'
        ' stroke="#7a0a14" stroke-width="0.8"/>'
    ),
    Suit.BELLS: (
        '<circle cx="0" cy="-7.6" r="1.8" fill="none" stroke="#7a4d00" stroke-width="0.9"/>'
        '<circle cx="0" cy="1" r="7.2" fill="#f2b705" stroke="#7a4d00" stroke-width="0.8"/>'
        '<path d="M-7,0 L7,0" stroke="#c0392b" stroke-width="1.6"/>'
        '<path d="M-2.8,5 L2.8,5" stroke="#3b2500" stroke-width="1.2" stroke-linecap="round"/>'
        '<circle cx="0" cy="3.3" r="0.9" fill="#3b2500"/>'
    ),
}

# Where the pips of the number cards stand, in card units (x, y), per rank.
_L, _M, _R = 21.5, 30.0, 38.5
_PIPS: Final = {
    Rank.SIX: ((_L, 22), (_R, 22), (_L, 46), (_R, 46), (_L, 70), (_R, 70)),
    Rank.SEVEN: ((_L, 22), (_R, 22), (_M, 36), (_L, 50), (_R, 50), (_L, 68), (_R, 68)),
    Rank.EIGHT: ((_L, 22), (_R, 22), (_L, 38), (_R, 38), (_L, 54), (_R, 54), (_L, 70), (_R, 70)),
    Rank.NINE: (
        (_L, 22), (_R, 22), (_L, 38), (_R, 38), (_M, 46), (_L, 54), (_R, 54), (_L, 70), (_R, 70),
    ),
    Rank.TEN: (
        (_L, 20), (_R, 20), (_M, 29), (_L, 38), (_R, 38),
        (_L, 54), (_R, 54), (_M, 63), (_L, 72), (_R, 72),
    ),
}  # fmt: skip

_RANK_NAMES: Final = {
    Rank.ACE: "Ass",
    Rank.KING: "König",
    Rank.OBER: "Ober",
    Rank.UNTER: "Unter",
}


def _escape(text: str) -> str:
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )


def suit_symbol(suit: Suit, x: float = 0, y: float = 0, size: float = 20) -> str:
    """The picture of ``suit`` as an SVG group centred on ``(x, y)``, ``size`` units wide.

    Useful on its own, e.g. to mark the trump suit next to a score table.
    """
    if not isinstance(suit, Suit):
        raise TypeError(f"suit must be a Suit, got {type(suit).__name__}")
    scale = size / 20
    return f'<g transform="translate({x:g},{y:g}) scale({scale:g})">{_SUIT_PATHS[suit]}</g>'


def _court(card: Card) -> str:
    """The picture of an Unter, Ober, King or Ace: a framed panel with the suit placed
    as on the German pack (Ober high, Unter low, King crowned, Ace large)."""
    ink = _INK[card.suit]
    parts = [
        f'<rect x="10" y="16" width="40" height="58" rx="4" fill="#fbf3dc" stroke="{ink}"'
        ' stroke-width="1"/>'
    ]
    if card.rank is Rank.ACE:
        parts.append(suit_symbol(card.suit, 30, 40, 30))
    elif card.rank is Rank.KING:
        parts.append(
            f'<path d="M19,34 L19,24 L24.5,29 L30,22 L35.5,29 L41,24 L41,34 Z" fill="{_GOLD}"'
            ' stroke="#7a5c00" stroke-width="0.8"/>'
        )
        parts.append(suit_symbol(card.suit, 30, 50, 18))
    elif card.rank is Rank.OBER:
        parts.append(suit_symbol(card.suit, 30, 28, 16))
        parts.append(
            f'<circle cx="30" cy="52" r="8" fill="none" stroke="{ink}" stroke-width="1.4"/>'
        )
    else:
        parts.append(
            f'<circle cx="30" cy="36" r="8" fill="none" stroke="{ink}" stroke-width="1.4"/>'
        )
        parts.append(suit_symbol(card.suit, 30, 60, 16))
    parts.append(
        f'<text x="30" y="72" font-size="6.5" text-anchor="middle" fill="{ink}"'
        f' font-family="sans-serif">{_RANK_NAMES[card.rank]}</text>'
    )
    return "".join(parts)


def _face(card: Card) -> str:
    """Everything printed on the face of ``card`` inside the 60 × 90 box."""
    ink = _INK[card.suit]
    name = _CRITICAL_NAMES.get(card)
    frame = _GOLD if name else "#444"
    parts = [
        f'<rect x="0.75" y="0.75" width="58.5" height="88.5" rx="5" fill="#fffdf6"'
        f' stroke="{frame}" stroke-width="{2.5 if name else 1.2}"/>',
        f'<text x="5" y="13" font-size="11" font-weight="bold" fill="{ink}"'
        f' font-family="sans-serif">{card.rank.symbol}</text>',
        suit_symbol(card.suit, 7.5, 20, 7),
    ]
    if not name:  # the name plate of a Critical takes the bottom corner
        parts.append(
            f'<text x="55" y="84" font-size="11" font-weight="bold" fill="{ink}"'
            f' text-anchor="end" font-family="sans-serif">{card.rank.symbol}</text>'
        )
    if card.rank in _PIPS:
        parts.extend(suit_symbol(card.suit, x, y, 11.5) for x, y in _PIPS[card.rank])
    else:
        parts.append(_court(card))
    if name:
        parts.append(
            f'<rect x="9" y="76" width="42" height="11" rx="3" fill="{_GOLD}"/>'
            f'<text x="30" y="84.5" font-size="8" font-weight="bold" text-anchor="middle"'
            f' fill="#fff" font-family="sans-serif">{name}</text>'
        )
    return "".join(parts)


def _back() -> str:
    return (
        '<rect x="0.75" y="0.75" width="58.5" height="88.5" rx="5" fill="#24427a"'
        ' stroke="#0f1f3d" stroke-width="1.2"/>'
        '<rect x="5" y="5" width="50" height="80" rx="3" fill="none" stroke="#9fb4dd"'
        ' stroke-width="1"/>'
        '<path d="M5,15 L15,5 M5,30 L30,5 M5,45 L45,5 M5,60 L55,10 M5,75 L55,25 M10,85 L55,40'
        ' M25,85 L55,55 M40,85 L55,70" stroke="#5f7fbf" stroke-width="1"/>'
    )


def _card_markup(card: Card | None, x: float, y: float, width: float, attrs: str) -> str:
    height = width * CARD_HEIGHT / CARD_WIDTH
    body = _back() if card is None else _face(card)
    place = f'x="{x:g}" y="{y:g}" ' if (x, y) != (0, 0) else ""
    return (
        f'<svg {_NS} {place}width="{width:g}" height="{height:g}"'
        f' viewBox="0 0 {CARD_WIDTH} {CARD_HEIGHT}"{attrs}>{body}</svg>'
    )


def card_svg(
    card: Card,
    *,
    width: float = CARD_WIDTH,
    legal: bool = False,
    selected: bool = False,
    x: float = 0,
    y: float = 0,
) -> str:
    """One card face as an ``<svg>`` element.

    Args:
        card: the card to draw.
        width: the drawn width; the height follows (2:3).
        legal: mark it as playable: ``data-legal="true"`` and ``class="card legal"``.
        selected: mark it as chosen (e.g. for the exchange): ``class`` gets ``selected``.
        x: position when nested inside a larger SVG (the table).
        y: position when nested inside a larger SVG.

    Raises:
        TypeError: if ``card`` is not a :class:`Card`.
    """
    if not isinstance(card, Card):
        raise TypeError(f"card must be a Card, got {type(card).__name__}")
    classes = "card" + (" legal" if legal else "") + (" selected" if selected else "")
    extra = ' data-legal="true"' if legal else ""
    label = _CRITICAL_NAMES.get(card, "")
    title = f"{card} {label}".strip()
    attrs = f' class="{classes}" data-card="{card}"{extra} role="img" aria-label="{title}"'
    return _card_markup(card, x, y, width, attrs)


def card_back_svg(*, width: float = CARD_WIDTH, x: float = 0, y: float = 0) -> str:
    """The back of a card: what a player sees of another seat's hand or of the stock."""
    return _card_markup(None, x, y, width, ' class="card back" role="img" aria-label="card"')


def hand_svg(
    cards: Iterable[Card], *, legal: Iterable[Card] = (), width: float = CARD_WIDTH
) -> str:
    """A row of cards, overlapping a little like a hand held; ``legal`` ones marked.

    >>> from bohmisch_watten import Card
    >>> from bohmisch_watten.svg import hand_svg
    >>> text = hand_svg([Card.parse("E7"), Card.parse("S7")], legal=[Card.parse("S7")])
    >>> text.count("<svg"), text.count("data-card="), text.count('data-legal="true"')
    (3, 2, 1)
    """
    hand = list(cards)
    playable = set(legal)
    step = width * 0.8
    height = width * CARD_HEIGHT / CARD_WIDTH
    total = step * max(len(hand) - 1, 0) + width
    inner = "".join(
        card_svg(card, width=width, legal=card in playable, x=i * step, y=0)
        for i, card in enumerate(hand)
    )
    return (
        f'<svg {_NS} class="hand" width="{total:g}" height="{height:g}"'
        f' viewBox="0 0 {total:g} {height:g}">{inner}</svg>'
    )


# ----------------------------------------------------------------- the table


def _text(
    x: float, y: float, text: str, size: float = 14, anchor: str = "middle", fill: str = "#fff"
) -> str:
    return (
        f'<text x="{x:g}" y="{y:g}" font-size="{size:g}" text-anchor="{anchor}" fill="{fill}"'
        f' font-family="sans-serif">{_escape(text)}</text>'
    )


def _seat_places(n: int) -> Sequence[tuple[float, float]]:
    """Centres of the seats' areas, the viewer at the bottom, clockwise (R1)."""
    places: dict[int, list[tuple[float, float]]] = {
        2: [(400, 470), (400, 80)],
        3: [(400, 470), (130, 200), (670, 200)],
        4: [(400, 470), (110, 260), (400, 80), (690, 260)],
        5: [(400, 470), (110, 330), (220, 90), (580, 90), (690, 330)],
        6: [(400, 470), (110, 340), (110, 130), (400, 80), (690, 130), (690, 340)],
        7: [(400, 470), (100, 360), (100, 170), (290, 70), (510, 70), (700, 170), (700, 360)],
    }
    return places[n]


def _table(
    *,
    num_players: int,
    bottom: int,
    hands: Sequence[Sequence[Card] | int],
    names: Sequence[str],
    scores: Sequence[int],
    folded: Sequence[bool],
    tricks_won: Sequence[int],
    trick: Sequence[tuple[int, Card]],
    trump_card: Card | None,
    trump_taken: bool,
    stock_size: int,
    title: str,
    legal: Iterable[Card],
    current: int | None,
    width: float,
) -> str:
    """The shared layout of :func:`table_svg` and :func:`state_svg`."""
    playable = set(legal)
    places = _seat_places(num_players)
    parts = [
        '<rect x="0" y="0" width="800" height="560" rx="24" fill="#1d5e3a"/>',
        '<ellipse cx="400" cy="280" rx="250" ry="120" fill="#23704a" stroke="#2f8a5c"/>',
        _text(20, 30, title, 16, "start"),
    ]
    for offset in range(num_players):
        seat = (bottom + offset) % num_players
        cx, cy = places[offset]
        held = hands[seat]
        cards_here: list[Card | None] = list(held) if not isinstance(held, int) else [None] * held
        size = 56 if offset == 0 else 40
        step = size * (0.95 if offset == 0 else 0.5)
        left = cx - (step * max(len(cards_here) - 1, 0) + size) / 2
        top = cy - size * 0.75
        for i, card in enumerate(cards_here):
            cx_i = left + i * step
            if card is None:
                parts.append(card_back_svg(width=size, x=cx_i, y=top))
            else:
                parts.append(card_svg(card, width=size, legal=card in playable, x=cx_i, y=top))
        label = f"{names[seat]} · {scores[seat]} pts · {tricks_won[seat]} tricks"
        if folded[seat]:
            label += " · folded"
        marker = "▶ " if current == seat else ""
        parts.append(_text(cx, cy + size * 0.75 + 18, marker + label, 13))
    if trump_card is not None:
        note = "trump (taken)" if trump_taken else "trump"
        parts.append(card_svg(trump_card, width=44, x=600, y=330))
        parts.append(_text(622, 412, note, 12))
    parts.append(_text(180, 412, f"stock: {stock_size}", 12))
    winner = trick_winner(trick, trump_card.suit if trump_card else None)
    for i, (seat, card) in enumerate(trick):
        x = 290 + i * 56
        parts.append(card_svg(card, width=50, x=x, y=235))
        who = "wins" if seat == winner else ""
        parts.append(_text(x + 25, 325, f"{names[seat]} {who}".strip(), 11))
    height = width * 560 / 800
    return (
        f'<svg {_NS} class="table" width="{width:g}" height="{height:g}"'
        f' viewBox="0 0 800 560">{"".join(parts)}</svg>'
    )


def _title(deal_number: int, phase: Phase, dealer: int) -> str:
    return f"Deal {deal_number} · {phase.name.lower()} · seat {dealer} deals"


def table_svg(view: PlayerView, *, width: float = 800) -> str:
    """The table as seat ``view.player`` sees it: his hand face up at the bottom, the
    other hands face down, the trick with who is winning it, the trump card, the stock
    size, scores and tricks.  Drawn from the view alone, so it can show nothing the
    seat may not know (R13, R23).
    """
    if not isinstance(view, PlayerView):
        raise TypeError(f"view must be a PlayerView, got {type(view).__name__}")
    n, me = view.num_players, view.player
    sizes = view.hand_sizes
    hands: list[Sequence[Card] | int] = [view.hand if s == me else sizes[s] for s in range(n)]
    names = ["You" if s == me else f"Seat {s}" for s in range(n)]
    legal = [a.card for a in view.legal_actions() if isinstance(a, PlayCard)]
    return _table(
        num_players=n,
        bottom=me,
        hands=hands,
        names=names,
        scores=view.scores,
        folded=view.folded,
        tricks_won=view.tricks_won,
        trick=view.trick,
        trump_card=view.trump_card,
        trump_taken=view.trump_card_taken,
        stock_size=view.stock_size,
        title=_title(view.deal_number, view.phase, view.dealer),
        legal=legal,
        current=view.current_player,
        width=width,
    )


def state_svg(state: GameState, *, width: float = 800) -> str:
    """The whole table with every hand face up: for notebooks, logs and debugging.

    A full state knows every card, so this must never be shown to a player; a UI
    draws :func:`table_svg` of the player's view instead.
    """
    if not isinstance(state, GameState):
        raise TypeError(f"state must be a GameState, got {type(state).__name__}")
    n = state.num_players
    return _table(
        num_players=n,
        bottom=0,
        hands=state.hands,
        names=[f"Seat {s}" for s in range(n)],
        scores=state.scores,
        folded=state.folded,
        tricks_won=state.tricks_won,
        trick=state.trick,
        trump_card=state.trump_card,
        trump_taken=state.trump_card_taken,
        stock_size=len(state.stock),
        title=_title(state.deal_number, state.phase, state.dealer),
        legal=[],
        current=state.current_player,
        width=width,
    )
