"""A state as text: on one line, like a chess FEN, and as the table ``print(state)`` shows.

The one-line form: any state; a seat's view the same way with ``?`` for cards it cannot
know.  The table for people (``str(state)``, ``str(view)``, :func:`render_state`) is
at the end of the module.

A :class:`~bohmisch_watten.Position` is a deal boundary; this text is any moment of a
deal, for puzzles, bug reports and the solver's tests.  It is a list of fields
separated by spaces, the current deal's position first and the phase second::

    p2/d0/n1/s20.20/f00/default play pack=EA.G9.… cut=- trump=SK ex==/G8.H7+
      hands=E10.EU.EO.G9.SK/E7.E8.E9.EA.G10 stock=… tricks=1:HK,0:HA>1 trick=1:E7 turn=0

(shown on two lines here; the text is one).  The fields, in this order:

* ``pack=`` the deal's shuffle, the 32 cards top first (R11); a view has none;
* ``cut=`` the looks of the ritual, ``seat:card`` with ``+`` when the card was taken
  (R12–R14), ``-`` for none;
* ``trump=`` the trump card, ``+`` when the dealer took it (R16, R19);
* ``ex=`` per seat, the exchange: the discarded cards, ``=`` for none, ``F`` for a fold,
  ``-`` while undecided, ``+`` at the end when the dealer took the trump card (R18–R21);
* ``hands=`` per seat, the cards held now, ``-`` for none;
* ``stock=`` the stock, top first (R20);
* ``tricks=`` the finished tricks, ``seat:card`` plays and ``>winner``, separated by
  ``;`` (R24–R27); ``trick=`` the trick so far;
* ``turn=`` the seat to act, ``-`` for none.

Seats are separated by ``/``, cards by ``.``, plays by ``,``.  In a view's text
(:meth:`PlayerView.to_text <bohmisch_watten.views.PlayerView.to_text>`) every card the
seat cannot know is ``?``: the other hands, the stock, other seats' discards, a cut
card only another seat saw.

:func:`state_from_text` (:meth:`GameState.from_text
<bohmisch_watten.GameState.from_text>`) reads a state's text back.  The decisions in it
(``pack``, ``cut``, ``ex``, ``tricks``, ``trick``) are played from the position through
``apply()``, so every rule is checked, and each of the other fields that is present must
agree with the game that gives (they may be left out: they follow from the decisions).
Like every loader it raises :class:`~bohmisch_watten.FormatError` only.  The state read
back starts its history at the deal's position (as :meth:`GameState.from_position
<bohmisch_watten.GameState.from_position>`), so it equals the written state when that
one started there too (the first deal of a game, or a position); for a later deal of a
longer game it is the same deal without the record of the earlier ones.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from .actions import Action, Exchange, Fold, LeaveCritical, PlayCard, Shuffle, TakeCritical
from .cards import CARDS, Card, Suit, bits
from .deals import CutLook
from .errors import FormatError, IllegalActionError
from .notation import MAX_DOCUMENT_CHARS, check_text, parse_card
from .phases import Phase
from .position import Position
from .seats import seat_order, turn_text
from .state import GameState, last_shuffle
from .views import PlayerView

__all__ = [
    "HIDDEN",
    "TABLE_HIDDEN",
    "render_state",
    "render_view",
    "state_from_text",
    "state_to_text",
    "view_to_text",
]

HIDDEN: Final = "?"
"""A card the seat of a view's text cannot know."""

_PHASES: Final = {
    Phase.DEAL: "deal",
    Phase.CUT: "cut",
    Phase.EXCHANGE: "exchange",
    Phase.PLAY: "play",
    Phase.GAME_OVER: "over",
}
_FIELDS: Final = ("pack", "cut", "trump", "ex", "hands", "stock", "tricks", "trick", "turn")
_DECISIONS: Final = frozenset({"pack", "cut", "ex", "tricks", "trick"})
"""The fields a state is rebuilt from; the others are checked against it."""


def _cards(cards: Sequence[Card | None]) -> str:
    return ".".join(HIDDEN if c is None else str(c) for c in cards) or "-"


def _plays(plays: Sequence[tuple[int, Card]]) -> str:
    return ",".join(f"{seat}:{card}" for seat, card in plays) or "-"


def _tricks(tricks: Sequence[tuple[Sequence[tuple[int, Card]], int]]) -> str:
    return ";".join(f"{_plays(plays)}>{winner}" for plays, winner in tricks) or "-"


def _fields(
    subject: GameState | PlayerView,
    hand: Callable[[int], Sequence[Card | None]],
    discards: Callable[[int], Sequence[Card | None]],
    stock: Sequence[Card | None],
    cut: Sequence[tuple[int, Card | None, bool]],
) -> list[str]:
    phase = subject.phase
    out = [str(subject.position), _PHASES[phase]]
    if phase is Phase.DEAL or phase is Phase.GAME_OVER:
        return out
    n = subject.num_players
    looks = ",".join(
        f"{seat}:{HIDDEN if card is None else card}{'+' if taken else ''}"
        for seat, card, taken in cut
    )
    out.append(f"cut={looks or '-'}")
    if phase is not Phase.CUT:
        assert subject.trump_card is not None
        out.append(f"trump={subject.trump_card}{'+' if subject.trump_card_taken else ''}")
        exchanges = []
        for seat in range(n):
            count = subject.exchanged[seat]
            if subject.folded[seat]:
                exchanges.append("F")
            elif count is None:
                exchanges.append("-")
            else:
                took = "+" if seat == subject.dealer and subject.trump_card_taken else ""
                exchanges.append((_cards(discards(seat)) if count else "=") + took)
        out.append("ex=" + "/".join(exchanges))
    out.append("hands=" + "/".join(_cards(hand(seat)) for seat in range(n)))
    out.append(f"stock={_cards(stock)}")
    if phase is Phase.PLAY:
        out.append("tricks=" + _tricks([(t.plays, t.winner) for t in subject.tricks]))
        out.append(f"trick={_plays(subject.trick)}")
    turn = subject.current_player
    out.append(f"turn={'-' if turn is None else turn}")
    return out


def state_to_text(state: GameState) -> str:
    """The one-line text of ``state`` (see the module docs), every card shown.

    Raises:
        TypeError: if ``state`` is not a :class:`~bohmisch_watten.GameState`.
    """
    if not isinstance(state, GameState):
        raise TypeError(f"state_to_text(state): state must be a GameState, got {type(state)}")
    fields = _fields(
        state,
        lambda seat: state.hands[seat],
        lambda seat: state.discards[seat],
        state.stock,
        [(seat, card, taken) for seat, card, taken, _ in state.cut_looks],
    )
    if state.phase is not Phase.DEAL and state.phase is not Phase.GAME_OVER:
        fields.insert(2, f"pack={_cards(last_shuffle(state.history_node).pack)}")
    return " ".join(fields)


def view_to_text(view: PlayerView) -> str:
    """The one-line text of what ``view``'s seat knows, ``?`` for every card it cannot.

    Raises:
        TypeError: if ``view`` is not a :class:`~bohmisch_watten.PlayerView`.
    """

    if not isinstance(view, PlayerView):
        raise TypeError(f"view_to_text(view): view must be a PlayerView, got {type(view)}")
    me = view.player
    sizes = view.hand_sizes

    def hand(seat: int) -> Sequence[Card | None]:
        return view.hand if seat == me else (None,) * sizes[seat]

    def discards(seat: int) -> Sequence[Card | None]:
        if seat == me:
            return view.discards
        return (None,) * (view.exchanged[seat] or 0)  # R23: how many, never which

    cut = [(seat, card, taken) for seat, card, taken, _ in view.cut_looks]
    return " ".join(_fields(view, hand, discards, (None,) * view.stock_size, cut))


# ------------------------------------------------------------------- reading


def _card_list(value: str, where: str) -> list[Card]:
    if value == "-":
        return []
    if HIDDEN in value:
        raise FormatError(
            f"{where}: '?' is a card the text's seat cannot know; a state needs every card"
            " (a view's text cannot be read as a state)"
        )
    cards = []
    for code in value.split("."):
        try:
            cards.append(parse_card(code))
        except FormatError as error:
            raise FormatError(f"{where}: {error}") from None
    return cards


def _play_list(value: str, where: str) -> list[tuple[int, Card]]:
    if value == "-":
        return []
    plays = []
    for item in value.split(","):
        seat, colon, code = item.partition(":")
        if not colon or not seat.isascii() or not seat.isdigit() or len(seat) > 1:
            raise FormatError(f"{where}: expected seat:card plays, got {item[:20]!r}")
        plays.append((int(seat), _card_list(code, where)[0] if code else _no_card(where)))
    return plays


def _no_card(where: str) -> Card:
    raise FormatError(f"{where}: a play needs a card")


def _apply(state: GameState, action: Action, where: str) -> GameState:
    try:
        return state.apply(action)
    except IllegalActionError as error:
        raise FormatError(f"{where}: {action}: {error}") from None


def _split(text: str) -> tuple[Position, str, dict[str, str]]:
    tokens = text.split()
    if len(tokens) < 2:
        raise FormatError("state text: expected a position and a phase, e.g. 'p2/d0/… play …'")
    try:
        position = Position.parse(tokens[0])
    except FormatError as error:
        raise FormatError(f"state text: {error}") from None
    fields: dict[str, str] = {}
    for token in tokens[2:]:
        key, equals, value = token.partition("=")
        if not equals or key not in _FIELDS:
            raise FormatError(
                f"state text: unknown field {token[:20]!r} (fields: {', '.join(_FIELDS)})"
            )
        if key in fields:
            raise FormatError(f"state text: field {key} given twice")
        fields[key] = value
    return position, tokens[1].lower(), fields


def state_from_text(text: str | bytes, *, max_chars: int = MAX_DOCUMENT_CHARS) -> GameState:
    """The state a text of :func:`state_to_text` describes, checked by playing it.

    Raises:
        FormatError: for anything but the text of a possible state: a bad field, a
            hidden card, an illegal decision (with its rule), or a field the decisions
            do not give (``hands=…: the game gives …``).
    """
    text = check_text(text, "a state text", max_chars).strip()
    if "\n" in text or "\r" in text:
        raise FormatError("state text: expected one line")
    position, phase_name, fields = _split(text)
    phase = next((p for p, name in _PHASES.items() if name == phase_name), None)
    if phase is None or phase is Phase.GAME_OVER:
        raise FormatError(
            "state text: the phase must be one of deal, cut, exchange, play, got"
            f" {phase_name!r:.20} (a finished game is read from its record)"
        )
    try:
        state = GameState.from_position(position)
    except ValueError as error:
        raise FormatError(f"state text: {error}") from None
    if phase is not Phase.DEAL:
        state = _play(state, phase, fields)
    written = state_to_text(state).split()
    expected = dict(token.partition("=")[::2] for token in written[2:])
    if written[1] != phase_name:
        raise FormatError(f"state text: the decisions lead to phase {written[1]}, not {phase_name}")
    for key, value in fields.items():
        if key not in expected:
            raise FormatError(f"state text: phase {phase_name} has no field {key}")
        if value.upper() != expected[key].upper():
            raise FormatError(
                f"state text: {key}={value[:60]}: the game gives {key}={expected[key][:60]}"
            )
    return state


def _play(state: GameState, phase: Phase, fields: dict[str, str]) -> GameState:
    """The position's deal played from the text's decisions."""
    if "pack" not in fields:
        raise FormatError("state text: a deal in progress needs its pack=")
    pack = _card_list(fields["pack"], "pack")
    try:
        shuffle = Shuffle(pack)
    except (TypeError, ValueError) as error:
        raise FormatError(f"pack: {error}") from None
    state = _apply(state, shuffle, "pack")
    looks = [] if fields.get("cut", "-") == "-" else fields["cut"].split(",")
    for number, look in enumerate(looks, 1):
        if number == len(looks) and phase is Phase.CUT:
            break  # the last look waits for its decision
        take = look.endswith("+")
        _, colon, code = look.removesuffix("+").partition(":")
        card = _card_list(code, f"cut look {number}")[0] if colon and code else None
        if card is None or not card.is_critical:
            continue  # R12: a card that is no Critical needs no decision; checked below
        if state.phase is not Phase.CUT:
            raise FormatError(f"cut: look {number} ({look[:10]}) after the ritual ended")
        state = _apply(state, TakeCritical() if take else LeaveCritical(), f"cut look {number}")
    if phase is Phase.CUT:
        return state
    exchanges = fields.get("ex", "").split("/") if "ex" in fields else []
    if exchanges and len(exchanges) != state.num_players:
        raise FormatError(f"ex: expected {state.num_players} seats, got {len(exchanges)}")
    for seat in seat_order(state.dealer, state.num_players) if exchanges else ():
        value = exchanges[seat]
        if value == "-":
            break
        where = f"ex seat {seat}"
        action: Action
        if value == "F":
            action = Fold()
        else:
            took = value.endswith("+")
            cards = value.removesuffix("+")
            action = Exchange(
                frozenset(() if cards == "=" else _card_list(cards, where)), take_trump_card=took
            )
        if state.current_player != seat:
            raise FormatError(f"{where}: seat {state.current_player} is to decide first (R18)")
        state = _apply(state, action, where)
    if phase is Phase.EXCHANGE:
        return state
    tricks = [] if fields.get("tricks", "-") == "-" else fields["tricks"].split(";")
    plays = [p for trick in tricks for p in _play_list(trick.partition(">")[0], "tricks")]
    plays += _play_list(fields.get("trick", "-"), "trick")
    for number, (seat, card) in enumerate(plays, 1):
        if state.current_player != seat:
            raise FormatError(f"play {number}: seat {state.current_player} is to play, not {seat}")
        state = _apply(state, PlayCard(card), f"play {number}")
    return state


# ------------------------------------------------------------ the table for people
# Text for people: ``str(state)`` and ``str(view)`` as a small table, one-line reprs.
#
# ``print(state)`` should tell a person at a glance where the game stands, as
# ``print(board)`` does in python-chess: the deal, the dealer, the trump card, each seat's
# cards, score and tricks, the trick on the table and whose turn it is.  ``print(view)``
# is the same table as that seat sees it: cards it may not know are ``??`` (R13, R23).
#
# The functions read only public attributes of the state or view.  This module stands
# above both, as :mod:`~bohmisch_watten.svg` does: ``str(state)`` and ``str(view)`` are
# convenience methods that import it when called.

TABLE_HIDDEN: Final = "??"
"""How a card the reader may not know is shown."""
_CODES = tuple(str(card) for card in CARDS)
"""``str(DECK[i])`` by card index: a view is drawn from its compact fields (R23), and
the web table draws one for every frame."""
_HIDDEN_HANDS = tuple(" ".join([TABLE_HIDDEN] * size) or "-" for size in range(6))
"""Another seat's hand of 0–5 cards as it is shown."""


def _card_words(cards: Sequence[Card]) -> str:
    return " ".join(str(card) for card in cards) if cards else "-"


def _trump(card: Card | None, suit: Suit | None, taken: bool) -> str:
    if card is None or suit is None:
        return "not turned"
    return f"{card} ({suit.label})" + (", taken by the dealer" if taken else "")


def _table(
    head: str,
    trump: str,
    dealer: int,
    to_act: int | None,
    hands: Sequence[str],
    scores: Sequence[int],
    tricks_won: Sequence[int],
    folded: Sequence[bool],
    stock: str,
    trick: Sequence[tuple[int, Card | str]],
    turn: str,
    notes: Sequence[str] = (),
) -> str:
    width = max(len(hand) for hand in hands)
    lines = [head, f"Trump card: {trump}"]
    for seat, hand in enumerate(hands):
        marks = ("D" if seat == dealer else " ") + (">" if seat == to_act else " ")
        extra = "  folded" if folded[seat] else ""
        lines.append(
            f"{marks} seat {seat}: {hand:<{width}}  score {scores[seat]:>3}"
            f"  tricks {tricks_won[seat]}{extra}"
        )
    lines.append(f"Stock: {stock}")
    lines.append("Trick: " + (", ".join(f"{s}:{c}" for s, c in trick) if trick else "-"))
    lines.append(f"To act: {turn}")
    lines += notes
    return "\n".join(lines)


def _ritual(looks: Sequence[CutLook], phase: Phase) -> list[str]:
    """R12, R13: the looks of the cutting ritual while it is on."""
    if phase is not Phase.CUT:
        return []
    words = [
        f"seat {seat} {'took' if taken else 'looks at'} {TABLE_HIDDEN if card is None else card}"
        for seat, card, taken, _ in looks
    ]
    return ["Ritual: " + ", ".join(words)]


def _last_deal(state: GameState | PlayerView) -> list[str]:
    """The points of the deal just scored, while no new deal is dealt (R29–R31)."""
    last = state.last_deal
    if last is None or state.phase not in (Phase.DEAL, Phase.GAME_OVER):
        return []
    points = " ".join(f"{p:+d}" for p in last.points)
    return [f"Last deal: deal {last.deal_number}, points {points}"]


def render_state(state: GameState) -> str:
    """``str(state)``: the table with every card (D marks the dealer, > the seat to act).

    Example:
        >>> from bohmisch_watten import DECK, Shuffle, new_game
        >>> print(new_game(2).apply(Shuffle(DECK)))
        Deal 1, dealer seat 0, EXCHANGE
        Trump card: EK (Acorns)
        D  seat 0: E10 EU EO G8 G9  score  20  tricks 0
         > seat 1: E7 E8 E9 EA G7   score  20  tricks 0
        Stock: 21 cards, top G10
        Trick: -
        To act: seat 1
    """
    stock = state.stock
    return _table(
        f"Deal {state.deal_number}, dealer seat {state.dealer}, {state.phase.name}",
        _trump(state.trump_card, state.trump_suit, state.trump_card_taken),
        state.dealer,
        state.current_player,
        [_card_words(hand) for hand in state.hands],
        state.scores,
        state.tricks_won,
        state.folded,
        f"{len(stock)} cards, top {stock[0]}" if stock else "-",
        state.trick,
        turn_text(state.phase, state.current_player, state.winners, state.losers),
        _ritual(state.cut_looks, state.phase) + _last_deal(state),
    )


def render_view(view: PlayerView) -> str:
    """``str(view)``: the table as seat ``view.player`` sees it, hidden cards as ``??``.

    Example:
        >>> from bohmisch_watten import DECK, Shuffle, new_game
        >>> print(new_game(2).apply(Shuffle(DECK)).view(0))
        Deal 1, dealer seat 0, EXCHANGE, seen by seat 0
        Trump card: EK (Acorns)
        D  seat 0: E10 EU EO G8 G9  score  20  tricks 0
         > seat 1: ?? ?? ?? ?? ??   score  20  tricks 0
        Stock: 21 cards
        Trick: -
        To act: seat 1
    """
    player, phase = view.player, view.phase
    hands = list(map(_HIDDEN_HANDS.__getitem__, view.hand_sizes))  # R23: others' cards
    hands[player] = " ".join([_CODES[i] for i in bits(view.hand_mask)]) or "-"
    if phase is Phase.CUT:
        notes = _ritual(view.cut_looks, phase)
    elif phase is Phase.DEAL or phase is Phase.GAME_OVER:
        notes = _last_deal(view)
    else:
        notes = []
    return _table(
        f"Deal {view.deal_number}, dealer seat {view.dealer}, {phase.name}, seen by seat {player}",
        _trump(view.trump_card, view.trump_suit, view.trump_card_taken),
        view.dealer,
        view.current_player,
        hands,
        view.scores,
        view.tricks_won,
        view.folded,
        f"{view.stock_size} cards" if view.stock_size else "-",
        [(seat, _CODES[card]) for seat, card in view.trick_plays],
        turn_text(phase, view.current_player, view.winners, view.losers),
        notes,
    )
