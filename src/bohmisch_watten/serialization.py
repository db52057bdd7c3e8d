"""JSON documents for cards, rules, actions, records, game states and player views.

One job, kept in one file although it is long: writing and dispatching the documents
of every value, so a format change is made and reviewed in one place.

Every document is a JSON object with a ``format`` naming what it holds and a
``version`` (:data:`FORMAT_VERSION`); :func:`to_json` writes one, :func:`from_json`
reads any of them back to an equal object, and the typed loaders
(:func:`state_from_json` …) accept only their own kind.  The layouts, version 1::

    {"format": "bohmisch_watten.card", "version": 1, "card": "HK"}
    {"format": "bohmisch_watten.rules", "version": 1,
     "rules": {"schleck": "alternate", "dealer_stock_limit": 2, "must_head": true,
               "overshoot": "wins", "plus_fifty": false, "start_score": 20,
               "hearts_double": true, "min_fold_score": 5}}
    {"format": "bohmisch_watten.action", "version": 1, "action": {"type": "play", "card": "HK"}}
    {"format": "bohmisch_watten.record", "version": 1, "num_players": 4,
     "first_dealer": 0, "rules": {…}, "actions": ["shuffle EA …", "leave", "play HK", …]}
    {"format": "bohmisch_watten.state", "version": 1,
     "record": {"num_players": 4, "first_dealer": 0, "rules": {…}, "actions": […]},
     "state": {"phase": "play", "dealer": 0, "deal_number": 3, "scores": […], …}}
    {"format": "bohmisch_watten.view", "version": 1, "view": {…}}

Actions as JSON objects have a ``type`` (``shuffle``, ``take``, ``leave``, ``fold``,
``exchange``, ``play``) and their fields: ``pack`` (32 cards, top first), ``discard``
(sorted cards) and ``take_trump_card``, ``card``.  In records, actions are written in the
compact notation of :mod:`bohmisch_watten.notation` instead.  Cards are always their
notation (``"HK"``); a trick play is always ``{"seat": 1, "card": "HK"}`` and a finished
deal has one shape in every document.

A record that does not start at a fresh game also has ``"start"`` (its
:class:`~bohmisch_watten.Position` as text) and ``"past"`` (the finished deals before
it); a view has ``"position"``.  Documents written by release 0.1.0 (plays as
``[seat, card]`` pairs, eight-field past deals, no position) are still read.

**Why a state document holds its record.**  A state cannot be checked field by field:
whether a hand, a stock and a score fit together depends on the whole game.  So a state
document carries the record of the game, and :func:`state_from_json` *replays* it; the
``state`` object is a snapshot of the public fields (handy for a UI that does not want
to replay) which must equal the replayed state's, field for field.  An impossible state
— a card twice, wrong hand sizes, a score the rules cannot produce — can therefore not
be loaded at all: there is no game that leads to it.

**Hostile input.**  Every loader raises :class:`FormatError` and nothing else, with a
message that says what and where (``state.scores: …``, ``record action 57: …``).
Documents are limited to :data:`~bohmisch_watten.notation.MAX_DOCUMENT_CHARS`
characters and :data:`MAX_JSON_DEPTH` levels of nesting, both checked before the JSON
parser runs; duplicate keys, ``NaN`` and ``Infinity`` are rejected; every object must
have exactly its documented keys.  No pickle, no eval.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any, Final, TypeAlias, TypeVar

import attrs

from ._read_v0_1 import old_folds, old_snapshot, read_past_deals
from ._strict_json import (
    JSON,
    DealReader,
    read_array,
    read_bool,
    read_card,
    read_distinct_cards,
    read_int,
    read_object,
    read_str,
    type_name,
)
from .actions import (
    FOLD,
    LEAVE,
    PLAY_ACTIONS,
    TAKE,
    Action,
    Exchange,
    Fold,
    LeaveCritical,
    PlayCard,
    Shuffle,
    TakeCritical,
)
from .cards import CARDS, PACK_SIZES, Card, bits
from .deals import CutEntry, summary_to_dict
from .errors import FormatError, warn_deprecated
from .notation import DEAL_LIMIT, MAX_DOCUMENT_CHARS, SCORE_LIMIT, parse_action, parse_json
from .phases import Phase
from .position import Position
from .records import GameRecord, past_problem, replay
from .rules import OPTIONAL_RULES, RULE_TYPES, Rules, rules_values
from .state import GameState
from .tricks import Plays
from .views import PlayerView

__all__ = [
    "FORMAT_VERSION",
    "MAX_JSON_DEPTH",
    "Serializable",
    "action_from_json",
    "card_from_json",
    "from_json",
    "record_from_json",
    "rules_from_json",
    "state_from_json",
    "to_json",
    "view_from_json",
]

FORMAT_VERSION: Final = 1
"""The version of every document this module writes; the loaders read this one only."""

MAX_JSON_DEPTH: Final = 16
"""The deepest nesting of arrays and objects a document may have (a state needs 7)."""

_PREFIX: Final = "bohmisch_watten."
_V = TypeVar("_V")


# --------------------------------------------------------------- reading safely


def _load(text: object, expected: str | None, max_chars: int) -> tuple[str, dict[str, JSON]]:
    """Parse a document safely; returns its kind (``state`` …) and the top object."""
    what = f"a {expected} document" if expected else "a document"
    doc = parse_json(text, what, max_chars=max_chars, max_depth=MAX_JSON_DEPTH)
    if not isinstance(doc, dict):
        raise FormatError(f"{what} must be a JSON object, got {type_name(doc)}")
    fmt = doc.get("format")
    if not isinstance(fmt, str) or not fmt.startswith(_PREFIX) or fmt[len(_PREFIX) :] not in _KINDS:
        kinds = ", ".join(_PREFIX + kind for kind in _KINDS)
        raise FormatError(f"{what} needs a format field, one of {kinds}; got {fmt!r:.50}")
    kind = fmt[len(_PREFIX) :]
    if expected is not None and kind != expected:
        raise FormatError(f"expected a {_PREFIX}{expected} document, got {fmt}")
    version = doc.get("version")
    if type(version) is not int or version != FORMAT_VERSION:  # not true, not 1.0
        raise FormatError(
            f"{fmt}: unsupported version {version!r:.20} (this library reads {FORMAT_VERSION})"
        )
    optional = _RECORD_OPTIONAL if kind == "record" else ()
    return kind, read_object(doc, fmt, ("format", "version", *_KINDS[kind][0]), optional)


def _header(kind: str) -> dict[str, JSON]:
    return {"format": _PREFIX + kind, "version": FORMAT_VERSION}


# ------------------------------------------------------------------------ rules


def _rules_from_dict(value: JSON, where: str) -> Rules:
    """The ``rules`` object: every field of :data:`~bohmisch_watten.rules.RULE_TYPES`.

    A field of :data:`~bohmisch_watten.rules.OPTIONAL_RULES` may be missing (documents
    of 0.1.0 and 0.2.0 have no ``pack``): it then has its default.
    """
    required = tuple(name for name in RULE_TYPES if name not in OPTIONAL_RULES)
    data = read_object(value, where, required, tuple(OPTIONAL_RULES))
    fields: dict[str, Any] = {}
    for name, kind in RULE_TYPES.items():
        if name not in data:
            continue
        item, at = data[name], f"{where}.{name}"
        if kind is bool:
            fields[name] = read_bool(item, at)
        elif kind is str:  # the StrEnum fields
            fields[name] = read_str(item, at)
        else:
            fields[name] = read_int(item, at, -SCORE_LIMIT, SCORE_LIMIT)
    try:
        return Rules(**fields)
    except ValueError as error:
        raise FormatError(f"{where}: {error}") from None


# ---------------------------------------------------------------------- actions


def _action_to_dict(action: Action) -> dict[str, JSON]:
    if isinstance(action, PlayCard):
        return {"type": "play", "card": str(action.card)}
    if isinstance(action, Exchange):
        return {
            "type": "exchange",
            "discard": [str(c) for c in sorted(action.discard)],
            "take_trump_card": action.take_trump_card,
        }
    if isinstance(action, Shuffle):
        return {"type": "shuffle", "pack": [str(c) for c in action.pack]}
    return {"type": str(action)}  # take, leave, fold


_SIMPLE: Final[dict[str, Action]] = {"take": TAKE, "leave": LEAVE, "fold": FOLD}
_ACTION_KEYS: Final = {
    "play": ("type", "card"),
    "exchange": ("type", "discard", "take_trump_card"),
    "shuffle": ("type", "pack"),
    "take": ("type",),
    "leave": ("type",),
    "fold": ("type",),
}


def _action_from_dict(value: JSON, where: str) -> Action:
    if not isinstance(value, dict):
        raise FormatError(f"{where}: expected an object, got {type_name(value)}")
    kind = value.get("type")
    if not isinstance(kind, str) or kind not in _ACTION_KEYS:
        raise FormatError(
            f"{where}.type: expected one of {', '.join(_ACTION_KEYS)}, got {kind!r:.30}"
        )
    data = read_object(value, where, _ACTION_KEYS[kind])
    if kind == "play":
        return PLAY_ACTIONS[read_card(data["card"], f"{where}.card").index]
    if kind == "exchange":
        discard = read_distinct_cards(data["discard"], f"{where}.discard", None, 5)
        take = read_bool(data["take_trump_card"], f"{where}.take_trump_card")
        return Exchange(frozenset(discard), take)
    if kind == "shuffle":
        pack = read_distinct_cards(data["pack"], f"{where}.pack", None, max(PACK_SIZES))
        if len(pack) not in PACK_SIZES:
            raise FormatError(f"{where}.pack: expected 32 or 36 cards (R6), got {len(pack)}")
        return Shuffle(pack)
    return _SIMPLE[kind]


# ---------------------------------------------------------------------- records


_RECORD_KEYS: Final = ("num_players", "first_dealer", "rules", "actions")
_RECORD_OPTIONAL: Final = ("start", "past", "tags")
"""Written only for a record that does not start at a fresh game."""


def _record_to_dict(record: GameRecord) -> dict[str, JSON]:
    out: dict[str, JSON] = {
        "num_players": record.num_players,
        "first_dealer": record.first_dealer,
        "rules": rules_values(record.rules),
        "actions": [str(action) for action in record.actions],
    }
    if not record.starts_fresh:
        out["start"] = str(record.start)
        out["past"] = [summary_to_dict(deal, cut=True) for deal in record.past]
    if record.tags:  # like PGN's tags: an object in the record's order
        out["tags"] = dict(record.tags)
    return out


def _tags_from_dict(value: JSON, where: str) -> tuple[tuple[str, str], ...]:
    """The ``tags`` object: names to texts (each checked by :class:`GameRecord`)."""
    if not isinstance(value, dict):
        raise FormatError(f"{where}: expected an object, got {type(value).__name__}")
    return tuple((key, read_str(item, f"{where}.{key[:30]}")) for key, item in value.items())


def _record_from_dict(data: dict[str, JSON], where: str) -> GameRecord:
    n = read_int(data["num_players"], f"{where}.num_players", 2, 7)
    dealer = read_int(data["first_dealer"], f"{where}.first_dealer", 0, n - 1)
    rules = _rules_from_dict(data["rules"], f"{where}.rules")
    actions = []
    for number, item in enumerate(read_array(data["actions"], f"{where}.actions"), 1):
        try:
            actions.append(parse_action(read_str(item, "expected notation")))
        except FormatError as error:
            raise FormatError(f"record action {number}: {error}") from None
    tags = _tags_from_dict(data["tags"], f"{where}.tags") if "tags" in data else ()
    if "start" not in data and "past" not in data:
        return GameRecord(n, rules, dealer, tuple(actions), tags=tags)
    start = Position.parse(read_str(data.get("start"), f"{where}.start"))
    read = DealReader(n)
    past = tuple(
        read.deal(item, f"{where}.past[{i}]")
        for i, item in enumerate(read_array(data.get("past", []), f"{where}.past"))
    )
    return GameRecord(n, rules, dealer, tuple(actions), start=start, past=past, tags=tags)


# ------------------------------------------------------------------------ state


def _cards(cards: tuple[Card, ...]) -> list[JSON]:
    return [str(c) for c in cards]


def _plays(plays: tuple[tuple[int, Card], ...]) -> list[JSON]:
    """Trick plays as every document spells them: ``{"seat": 1, "card": "HK"}``."""
    return [{"seat": seat, "card": str(card)} for seat, card in plays]


def _snapshot(state: GameState) -> dict[str, JSON]:
    """The public fields of ``state`` as JSON values (the ``state`` object)."""
    trump = state.trump_card
    suit = state.trump_suit
    last = state.last_deal
    return {
        "phase": state.phase.value,
        "dealer": state.dealer,
        "deal_number": state.deal_number,
        "scores": list(state.scores),
        "current_player": state.current_player,
        "hands": [_cards(hand) for hand in state.hands],
        "stock": _cards(state.stock),
        "trump_card": None if trump is None else str(trump),
        "trump_suit": None if suit is None else suit.name.lower(),
        "trump_card_taken": state.trump_card_taken,
        "folded": list(state.folded),
        "exchanged": list(state.exchanged),
        "discards": [_cards(d) for d in state.discards],
        "cut_cards": [[seat, str(card), taken] for seat, card, taken, _ in state.cut_looks],
        "trick": _plays(state.trick),
        "tricks": [{"plays": _plays(t.plays), "winner": t.winner} for t in state.tricks],
        "tricks_won": list(state.tricks_won),
        "last_deal": None if last is None else summary_to_dict(last),
        "winners": list(state.winners),
        "losers": list(state.losers),
    }


_SNAPSHOT_KEYS: Final = (
    "phase",
    "dealer",
    "deal_number",
    "scores",
    "current_player",
    "hands",
    "stock",
    "trump_card",
    "trump_suit",
    "trump_card_taken",
    "folded",
    "exchanged",
    "discards",
    "cut_cards",
    "trick",
    "tricks",
    "tricks_won",
    "last_deal",
    "winners",
    "losers",
)


def _same(a: JSON, b: JSON) -> bool:
    """JSON equality that tells ``true`` from ``1`` (Python's ``==`` does not)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return bool(a == b)


def _short(value: JSON) -> str:
    text = json.dumps(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _state_from_doc(doc: dict[str, JSON]) -> GameState:
    data = read_object(doc["record"], "record", _RECORD_KEYS, _RECORD_OPTIONAL)
    state = replay(_record_from_dict(data, "record"))
    claimed = read_object(doc["state"], "state", _SNAPSHOT_KEYS)
    actual = _snapshot(state)
    legacy = old_snapshot(actual, state.trick, state.tricks, state.last_deal)
    for key in _SNAPSHOT_KEYS:
        if not _same(claimed[key], actual[key]) and not _same(claimed[key], legacy[key]):
            raise FormatError(
                f"state.{key} is {_short(claimed[key])}, but the game in the record gives "
                f"{_short(actual[key])}: the state does not follow from its record"
            )
    return state


# ------------------------------------------------------------------------ views


def _codes(mask: int) -> list[JSON]:
    return [str(CARDS[i]) for i in bits(mask)]


def _index_plays(plays: Plays) -> list[JSON]:
    return [{"seat": seat, "card": str(CARDS[card])} for seat, card in plays]


def _cut_dict(cut: tuple[CutEntry, ...]) -> list[dict[str, JSON]]:
    return [
        {
            "seat": seat,
            "card": str(CARDS[card]) if card >= 0 else None,
            "taken": taken,
            "critical": critical,
        }
        for seat, card, taken, critical in cut
    ]


def view_to_dict(view: PlayerView) -> dict[str, JSON]:
    """``view.to_dict()``: the view as plain JSON data, stable keys (the ``view`` object).

    Cards are notation strings such as ``"HK"``; sets of cards (hand, discards) are
    sorted in card order; draws keep the order drawn.
    """
    last = view.last_deal
    trump = view.trump_index  # the compact public reads: indices and masks
    return {
        "player": view.player,
        "num_players": view.num_players,
        "rules": rules_values(view.rules),
        "phase": view.phase.value,
        "dealer": view.dealer,
        "deal_number": view.deal_number,
        "scores": list(view.scores),
        "current_player": view.current_player,
        "hand": _codes(view.hand_mask),
        "discards": _codes(view.discard_mask),
        "draws": [str(CARDS[i]) for i in view.draw_indices],
        "cut": _cut_dict(view.cut_entries),
        "trump_card": str(CARDS[trump]) if trump >= 0 else None,
        "trump_card_taken": view.trump_card_taken,
        "folded": list(view.folded),
        "exchanged": list(view.exchanged),
        "stock_size": view.stock_size,
        "hand_sizes": list(view.hand_sizes),
        "trick": _index_plays(view.trick_plays),
        "tricks": [
            {"plays": _index_plays(plays), "winner": winner} for plays, winner in view.played_tricks
        ],
        "tricks_won": list(view.tricks_won),
        "legal_actions": [str(a) for a in view.legal_actions()],
        "last_deal": None if last is None else summary_to_dict(last),
        "winners": list(view.winners),
        "losers": list(view.losers),
        "past_deals": [summary_to_dict(deal, cut=True) for deal in view.past_summaries],
        "position": str(view.position),
    }


_VIEW_KEYS: Final = (
    "player",
    "num_players",
    "rules",
    "phase",
    "dealer",
    "deal_number",
    "scores",
    "current_player",
    "hand",
    "discards",
    "draws",
    "cut",
    "trump_card",
    "trump_card_taken",
    "folded",
    "exchanged",
    "stock_size",
    "hand_sizes",
    "trick",
    "tricks",
    "tricks_won",
    "legal_actions",
    "last_deal",
    "winners",
    "losers",
    "past_deals",
    "position",
)
_PHASES: Final = {phase.value: phase for phase in Phase}


def _view_from_dict(value: JSON, where: str) -> PlayerView:
    """Build a view from its dictionary, then prove that some game gives exactly it.

    The fields are read strictly; then the view's own :meth:`PlayerView.to_dict` must
    give the input back (so derived fields such as ``legal_actions`` and
    ``hand_sizes`` agree), and a game sampled from the view
    (:meth:`PlayerView.sample_state`), replayed from its first action, must show this
    seat the same view.  A view that no game can produce fails one of the two.
    """
    if isinstance(value, dict) and "position" not in value:  # written by release 0.1.0
        data = read_object(value, where, _VIEW_KEYS[:-1])
        position_text = None
    else:
        data = read_object(value, where, _VIEW_KEYS)
        position_text = read_str(data["position"], f"{where}.position")
    rules = _rules_from_dict(data["rules"], f"{where}.rules")
    n = read_int(data["num_players"], f"{where}.num_players", 2, rules.max_players)
    read = DealReader(n)
    trump = data["trump_card"]
    exchanged = read.per_seat(data["exchanged"], f"{where}.exchanged", read.count_or_none)
    phase = read_str(data["phase"], f"{where}.phase")
    if phase not in _PHASES:
        raise FormatError(f"{where}.phase: expected one of {', '.join(_PHASES)}, got {phase!r:.20}")
    for key in ("hand_sizes", "legal_actions"):  # derived: checked against to_dict below
        read_array(data[key], f"{where}.{key}")
    deal_number = read_int(data["deal_number"], f"{where}.deal_number", 1, DEAL_LIMIT)
    last = (
        None if data["last_deal"] is None else read.summary(data["last_deal"], f"{where}.last_deal")
    )
    past = read_past_deals(
        read,
        data["past_deals"],
        f"{where}.past_deals",
        last_number=deal_number if phase == Phase.GAME_OVER.value else deal_number - 1,
        start_score=rules.start_score,
        hearts_double=rules.hearts_double,
    )
    if (last is None) != (past.last is None) or (
        last is not None and past.last is not None and last != attrs.evolve(past.last, cut=())
    ):
        raise FormatError(f"{where}.last_deal is not the last of past_deals")
    if position_text is not None:
        folds = Position.parse(position_text).folded
    else:
        folds = old_folds(n, last)
    fields = (
        read.seat(data["player"], f"{where}.player"),
        n,
        rules,
        _PHASES[phase],
        read.seat(data["dealer"], f"{where}.dealer"),
        deal_number,
        read.per_seat(data["scores"], f"{where}.scores", read.score),
        read.seat_or_none(data["current_player"], f"{where}.current_player"),
        read.mask(data["hand"], f"{where}.hand"),
        read.mask(data["discards"], f"{where}.discards"),
        read.cards(data["draws"], f"{where}.draws"),
        read.cut(data["cut"], f"{where}.cut"),
        -1 if trump is None else read.card_index(trump, f"{where}.trump_card"),
        read_bool(data["trump_card_taken"], f"{where}.trump_card_taken"),
        read.per_seat(data["folded"], f"{where}.folded", read_bool),
        tuple(-1 if k is None else k for k in exchanged),
        read.count(data["stock_size"], f"{where}.stock_size"),
        read.plays(data["trick"], f"{where}.trick"),
        read.tricks(data["tricks"], f"{where}.tricks"),
        read.per_seat(data["tricks_won"], f"{where}.tricks_won", read.count),
        past,
        read.seats(data["winners"], f"{where}.winners"),
        read.seats(data["losers"], f"{where}.losers"),
        folds,
    )
    # The fields are well-typed now, but may still contradict each other; the view's
    # own code may then fail in any way, which is this input's fault: report it as such.
    try:
        view = PlayerView(*fields)
        again = view.to_dict()
        problem = past_problem(past, view.position, view.phase)
    except Exception as error:  # hostile input reaching the view's own code
        raise FormatError(f"{where}: the fields contradict each other ({error!s:.100})") from None
    if problem is not None:
        raise FormatError(f"{where}.past_deals: {problem}")
    for key in data:
        if key == "position" or (key == "past_deals" and position_text is None):
            continue  # the position is checked last; old past entries were checked above
        if not _same(data[key], again[key]):
            raise FormatError(
                f"{where}.{key} is {_short(data[key])}, but the rest of the view gives "
                f"{_short(again[key])}"
            )
    try:
        sample = view.sample_state(random.Random(0))
        # The sample's fields are partly copied from the view (the scores, say); its
        # history is not, so the state that history really leads to is the judge.
        possible = replay(sample.record()).view(view.player) == view
    except Exception as error:  # hostile input reaching the sampler
        raise FormatError(f"{where}: no game gives this view ({error!s:.100})") from None
    if not possible:
        raise FormatError(f"{where}: no game gives this view")
    if position_text is not None and position_text != again["position"]:
        raise FormatError(
            f"{where}: no game gives this view: position is {position_text[:60]!r}, but the "
            f"rest of the view gives {again['position']!r}"
        )
    return view


def _view_from_doc(doc: dict[str, JSON]) -> PlayerView:
    return _view_from_dict(doc["view"], "view")


# ------------------------------------------------------------------ public API


Serializable: TypeAlias = "Card | Rules | Action | GameRecord | GameState | PlayerView"
"""Everything :func:`to_json` writes and :func:`from_json` reads."""


def _card_from_doc(doc: dict[str, JSON]) -> Card:
    return read_card(doc["card"], "card")


def _rules_from_doc(doc: dict[str, JSON]) -> Rules:
    return _rules_from_dict(doc["rules"], "rules")


def _action_from_doc(doc: dict[str, JSON]) -> Action:
    return _action_from_dict(doc["action"], "action")


def _record_from_doc(doc: dict[str, JSON]) -> GameRecord:
    return _record_from_dict(doc, "record")


_KINDS: Final[dict[str, tuple[tuple[str, ...], Callable[[dict[str, JSON]], Serializable]]]] = {
    "card": (("card",), _card_from_doc),
    "rules": (("rules",), _rules_from_doc),
    "action": (("action",), _action_from_doc),
    "record": (_RECORD_KEYS, _record_from_doc),
    "state": (("record", "state"), _state_from_doc),
    "view": (("view",), _view_from_doc),
}


def to_dict(obj: Serializable) -> dict[str, JSON]:
    """The document of ``obj`` as a dictionary of JSON values (see the module docs).

    Raises:
        TypeError: if ``obj`` is none of the serializable types.
    """
    if isinstance(obj, Card):
        return {**_header("card"), "card": str(obj)}
    if isinstance(obj, Rules):
        return {**_header("rules"), "rules": rules_values(obj)}
    if isinstance(obj, (Shuffle, TakeCritical, LeaveCritical, Fold, Exchange, PlayCard)):
        return {**_header("action"), "action": _action_to_dict(obj)}
    if isinstance(obj, GameRecord):
        return {**_header("record"), **_record_to_dict(obj)}
    if isinstance(obj, GameState):
        return {
            **_header("state"),
            "record": _record_to_dict(obj.record()),
            "state": _snapshot(obj),
        }
    if isinstance(obj, PlayerView):
        return {**_header("view"), "view": view_to_dict(obj)}
    raise TypeError(f"cannot write {type(obj).__name__} as a bohmisch_watten document")


def to_json(obj: Serializable, *, indent: int | None = None) -> str:
    """The JSON document of ``obj``; :func:`from_json` reads it back to an equal object.

    Args:
        obj: a :class:`Card`, :class:`Rules`, an action, a :class:`GameRecord`, a
            :class:`GameState` or a :class:`PlayerView`.
        indent: as for :func:`json.dumps`; None writes one line.

    Raises:
        TypeError: if ``obj`` is none of those.
    """
    return json.dumps(to_dict(obj), indent=indent, ensure_ascii=False)


def from_json(text: str | bytes, *, max_chars: int = MAX_DOCUMENT_CHARS) -> Serializable:
    """Read any document written by :func:`to_json`; its ``format`` says what it is.

    Args:
        text: the document (``bytes`` are decoded as UTF-8).
        max_chars: the size limit, :data:`MAX_DOCUMENT_CHARS` (16 M) unless raised for
            a trusted file.

    Raises:
        FormatError: for anything but a valid document of a supported version; for a
            state, also when its record holds an illegal action or its snapshot does
            not follow from the record.
    """
    kind, doc = _load(text, None, max_chars)
    return _KINDS[kind][1](doc)


def card_from_json(text: str | bytes, *, max_chars: int = MAX_DOCUMENT_CHARS) -> Card:
    """Read a ``bohmisch_watten.card`` document.

    Raises:
        FormatError: for anything else.
    """
    return _card_from_doc(_load(text, "card", max_chars)[1])


def rules_from_json(text: str | bytes, *, max_chars: int = MAX_DOCUMENT_CHARS) -> Rules:
    """Read a ``bohmisch_watten.rules`` document; every field must be present.

    Raises:
        FormatError: for anything else, or a value :class:`Rules` rejects.
    """
    return _rules_from_doc(_load(text, "rules", max_chars)[1])


def action_from_json(text: str | bytes, *, max_chars: int = MAX_DOCUMENT_CHARS) -> Action:
    """Read a ``bohmisch_watten.action`` document.

    Raises:
        FormatError: for anything else.
    """
    return _action_from_doc(_load(text, "action", max_chars)[1])


def record_from_json(text: str | bytes, *, max_chars: int = MAX_DOCUMENT_CHARS) -> GameRecord:
    """Read a ``bohmisch_watten.record`` document (not replayed: see :func:`replay`).

    Raises:
        FormatError: for anything else.
    """
    return _record_from_doc(_load(text, "record", max_chars)[1])


def state_from_json(text: str | bytes, *, max_chars: int = MAX_DOCUMENT_CHARS) -> GameState:
    """Read a ``bohmisch_watten.state`` document by replaying its record.

    The ``state`` snapshot in the document must equal the replayed state field for
    field, so a document that describes a state the rules cannot produce is rejected.

    Args:
        text: the document (``bytes`` are decoded as UTF-8).
        max_chars: the size limit, as for every loader: :data:`MAX_DOCUMENT_CHARS`
            (16 M) unless raised for a trusted file.  ``None``, this loader's old
            spelling of the default, is deprecated.

    Raises:
        FormatError: for anything else, an illegal action in the record
            (``record action 57: play EA: R25.1: …``) or a snapshot field that does not
            follow from the record (``state.scores is …``).
    """
    if max_chars is None:
        warn_deprecated(
            "state_from_json(max_chars=None)",
            "leave max_chars out for the default, as with every other loader",
        )
        max_chars = MAX_DOCUMENT_CHARS
    return _state_from_doc(_load(text, "state", max_chars)[1])


def view_from_json(text: str | bytes, *, max_chars: int = MAX_DOCUMENT_CHARS) -> PlayerView:
    """Read a ``bohmisch_watten.view`` document.

    Raises:
        FormatError: for anything else.
    """
    return _view_from_doc(_load(text, "view", max_chars)[1])
