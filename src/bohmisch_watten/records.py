"""Game records: everything needed to reproduce a game, and the text form to share one.

One job in one file, although it is long: the game record — its value, its text form
and files of many records, and the checks of a record's finished deals that every
loader shares.

A :class:`GameRecord` holds the rules, the number of players, the first dealer and every
action since :func:`new_game`, the shuffles included.  The game is a pure function of
these, so :func:`replay` rebuilds the exact :class:`GameState`, and
``replay(state.record()) == state`` for every state.

Two file forms carry a record:

* JSON (:meth:`GameRecord.to_json`, :meth:`GameRecord.from_json`), see
  :mod:`bohmisch_watten.serialization`;
* a text form like PGN for chess (:meth:`GameRecord.to_text`,
  :meth:`GameRecord.from_text`), made for bug reports: a person can read it and edit
  it with any editor.  For example::

      # Böhmisch Watten game record: one action per line, '#' starts a comment
      format: bohmisch_watten.record
      version: 1
      players: 4
      first_dealer: 0
      rules: default

      # deal 1: seat 0 deals
      shuffle EA G9 … S7  # action 1
      leave  # action 2, seat 3
      exchange G8 S9  # action 3, seat 1
      …
      play HK  # action 31, seat 1

  The header lines ``name: value`` come first, each of the five exactly once, in any
  order; ``rules`` uses the notation of :func:`~bohmisch_watten.notation.parse_rules`.
  Any other header line is a **tag**, as in PGN (``event: Club night``, ``seat0:
  Anna``, ``result: winners 0 2; losers 1``; :data:`STANDARD_TAGS`), kept in
  :attr:`GameRecord.tags` in its order and written back after the five.
  Then one action per line in the notation of
  :func:`~bohmisch_watten.notation.parse_action`.  Blank lines and everything from
  ``#`` to the end of a line are ignored: the writer puts each action's number, the
  seat to act and the deal results there, for the reader's convenience only, so editing
  an action never needs the comments changed.

Several games go in one file like a PGN file: :func:`write_records` writes them one
after the other and :func:`read_records` reads them back, a header line after an action
beginning the next record.

Loading either form and :func:`replay` raise :class:`FormatError` only.  Loading checks
the notation (a bad line is reported by line number); :func:`replay` checks legality
and reports an illegal action by its number, 1 for the first action of the record —
the number the text form shows in its comments: ``record action 57: play EA: R25.1:
must follow Bells with …``.
"""

from __future__ import annotations

import io
import json
import os
import random
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Final, TextIO

import attrs

from ._strict_json import DealReader
from .actions import Action, Exchange, Fold, LeaveCritical, PlayCard, Shuffle, TakeCritical
from .cards import CARDS
from .deals import DealSummary, PastDeals, summary_to_dict
from .determinize import DealInfo, Plan, deal_actions, exchange_action
from .errors import FormatError, IllegalActionError
from .notation import MAX_DOCUMENT_CHARS, check_text, parse_action, parse_json, parse_rules
from .phases import Phase
from .position import Position
from .rules import Rules
from .scoring import game_result
from .seats import left_of
from .state import GameState, build_state, new_game

__all__ = [
    "MAX_TAG_CHARS",
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "STANDARD_TAGS",
    "GameRecord",
    "load_record",
    "read_records",
    "replay",
    "write_records",
]

RECORD_FORMAT: Final = "bohmisch_watten.record"
"""The ``format`` of a record, in the text header and in the JSON document."""
RECORD_VERSION: Final = 1
"""The version of both record forms; a loader rejects any other."""

_ACTION_TYPES: Final = (Shuffle, TakeCritical, LeaveCritical, Fold, Exchange, PlayCard)
_HEADER_KEYS: Final = ("format", "version", "players", "first_dealer", "rules")
_OPTIONAL_KEYS: Final = ("start", "past")
"""Header lines only a record that does not start at a fresh game has; ``past`` repeats."""

STANDARD_TAGS: Final = ("event", "site", "date", "round", "seat0", "seat1", "seat2", "seat3",
                        "result")  # fmt: skip
"""The tags every reader understands, like PGN's seven: what, where, when, which round,
a name per seat, and the result (e.g. ``winners 0 2; losers 1``).  Other names are kept."""

MAX_TAG_CHARS: Final = 200
"""The longest tag value: a name or a place, not a document."""

_TAG_NAME: Final = re.compile(r"[A-Za-z][A-Za-z0-9_.-]{0,39}")


def _to_actions(actions: Iterable[Action]) -> tuple[Action, ...]:
    if isinstance(actions, (str, bytes)) or not isinstance(actions, Iterable):
        raise FormatError(f"GameRecord.actions must be a sequence of actions, got {actions!r:.40}")
    out = tuple(actions)
    for number, action in enumerate(out, 1):
        if not isinstance(action, _ACTION_TYPES):
            raise FormatError(
                f"record action {number}: not an action: {type(action).__name__}"
                " (use parse_action for notation)"
            )
    return out


def _check_record_setup(record: GameRecord) -> None:
    """Raise :class:`FormatError` unless ``new_game`` accepts the record's setup."""
    n, rules, dealer = record.num_players, record.rules, record.first_dealer
    if not isinstance(rules, Rules):
        raise FormatError(f"record: rules must be a Rules object, got {type(rules).__name__}")
    if isinstance(n, bool) or not isinstance(n, int) or not 2 <= n <= rules.max_players:
        raise FormatError(
            f"record: num_players must be 2 to {rules.max_players} with the {rules.pack}-card "
            f"pack (R1), got {n!r:.20}"
        )
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
        raise FormatError(
            f"record: first_dealer must be a seat from 0 to {n - 1} (R3), got {dealer!r:.20}"
        )


def _check_record(record: GameRecord) -> None:
    """Raise :class:`FormatError` unless the setup, start and past fit together."""
    _check_record_setup(record)
    n, rules, dealer = record.num_players, record.rules, record.first_dealer
    start, past = record.start, record.past
    if not isinstance(start, Position):
        raise FormatError(f"record: start must be a Position, got {type(start).__name__}")
    if start.num_players != n or start.rules != rules:
        raise FormatError(f"record: the start position {start} is not of this game's setup")
    first = past[0].dealer if past else start.dealer
    if dealer != first:
        raise FormatError(
            f"record: first_dealer is {dealer}, but the first deal is dealt by seat {first}"
        )


def _fresh_start(record: GameRecord) -> Position:
    """The default start: the first deal of a fresh game, or FormatError for a bad setup."""
    try:
        return Position.start(record.num_players, rules=record.rules, dealer=record.first_dealer)
    except (TypeError, ValueError, AttributeError):
        _check_record_setup(record)
        raise  # pragma: no cover - the check above raises for every bad setup


def _to_tags(tags: object) -> tuple[tuple[str, str], ...]:
    """The tags as ``(name, value)`` pairs in the order given, checked for the text form.

    A name is a word (a letter, then letters, digits, ``_ . -``; at most 40 characters)
    that is none of the record's own header names; a value is one line of at most
    :data:`MAX_TAG_CHARS` characters without ``#`` (which starts a comment in the text
    form), stripped.  Names are unique, ignoring case.
    """
    if isinstance(tags, Mapping):
        items = list(tags.items())
    elif isinstance(tags, (str, bytes)) or not isinstance(tags, Iterable):
        raise FormatError(f"GameRecord.tags must be a mapping of names to texts, got {tags!r:.40}")
    else:
        items = list(tags)
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    for item in items:
        if not (isinstance(item, tuple) and len(item) == 2):
            raise FormatError(f"GameRecord.tags: expected (name, value) pairs, got {item!r:.40}")
        name, value = item
        problem = _tag_problem(name, value)
        if problem is not None:
            raise FormatError(f"GameRecord.tags: {problem}")
        if name.lower() in seen:
            raise FormatError(f"GameRecord.tags: tag {name!r} given twice")
        seen.add(name.lower())
        out.append((name, value.strip()))
    return tuple(out)


def _tag_problem(name: object, value: object) -> str | None:
    """Why ``name: value`` cannot be a tag, or None."""
    if not isinstance(name, str) or not _TAG_NAME.fullmatch(name):
        return (
            "a tag name is a word of letters, digits, '_', '.' or '-' starting with a letter,"
            f" at most 40 characters, got {name!r:.50}"
        )
    if name.lower() in _HEADER_KEYS or name.lower() in _OPTIONAL_KEYS:
        return f"{name!r} is a header of the record itself, not a tag"
    if not isinstance(value, str):
        return f"tag {name}: the value must be a text, got {type(value).__name__}"
    if len(value) > MAX_TAG_CHARS or "#" in value or "\n" in value or "\r" in value:
        return (
            f"tag {name}: the value must be one line of at most {MAX_TAG_CHARS} characters"
            f" without '#', got {value!r:.50}"
        )
    return None


def _to_past(deals: Iterable[DealSummary]) -> tuple[DealSummary, ...]:
    if isinstance(deals, (str, bytes)) or not isinstance(deals, Iterable):
        raise FormatError(f"GameRecord.past must be a sequence of DealSummary, got {deals!r:.40}")
    out = tuple(deals)
    for deal in out:
        if not isinstance(deal, DealSummary):
            raise FormatError(
                f"GameRecord.past holds DealSummary objects, got {type(deal).__name__}"
            )
    return out


@attrs.frozen(slots=True)
class GameRecord:
    """The rules, the players, the first dealer and every action of a game (R3, R11).

    Get one from :meth:`GameState.record`, or build one by hand (actions from
    :func:`~bohmisch_watten.notation.parse_action`); :func:`replay` turns it back into
    the state.  The fields are checked on construction, the actions' legality only by
    :func:`replay`.

    Attributes:
        num_players: 2 to 4, or to 7 with the 36-card pack (R1).
        rules: the variants in force.
        first_dealer: the dealer of the record's first deal (R3); later dealers follow
            (R4): the first of ``past`` if any, else the dealer of ``start``.
        actions: every action in order from ``start``, the chance actions
            (:class:`Shuffle`) included.
        start: the :class:`~bohmisch_watten.Position` the actions start from; by
            default the first deal of a fresh game.
        past: the public record of the deals before ``start`` (:class:`DealSummary`,
            oldest first), empty for a fresh game; checked by :func:`replay`.
        tags: what the game is, like PGN's tags: ``(name, value)`` pairs in order
            (a mapping is accepted), e.g. ``event``, ``site``, ``date``, a name per
            seat ``seat0`` … ``seat3``, ``result`` (:data:`STANDARD_TAGS`); any other
            name is kept as well.  They do not change the game: :func:`replay`
            ignores them.

    Raises:
        FormatError: on construction, for a bad field.
    """

    num_players: int
    rules: Rules
    first_dealer: int
    actions: tuple[Action, ...] = attrs.field(converter=_to_actions)
    start: Position = attrs.field(
        default=attrs.Factory(_fresh_start, takes_self=True), kw_only=True
    )
    past: tuple[DealSummary, ...] = attrs.field(default=(), converter=_to_past, kw_only=True)
    tags: tuple[tuple[str, str], ...] = attrs.field(default=(), converter=_to_tags, kw_only=True)

    def __attrs_post_init__(self) -> None:
        _check_record(self)

    def tag(self, name: str, default: str | None = None) -> str | None:
        """The value of the tag ``name`` (ignoring case), else ``default``."""
        wanted = name.lower()
        return next((value for key, value in self.tags if key.lower() == wanted), default)

    def with_tags(self, tags: Mapping[str, str] | None = None, **more: str) -> GameRecord:
        """This record with the tags ``tags`` and ``more`` set (added, or replaced in place).

        >>> from bohmisch_watten import new_game
        >>> record = new_game(2).record().with_tags(event="Club night", seat0="Anna")
        >>> record.tags, record.tag("EVENT")
        ((('event', 'Club night'), ('seat0', 'Anna')), 'Club night')

        Raises:
            FormatError: for a tag the text form cannot carry (see :attr:`tags`).
        """
        new = {**(tags or {}), **more}
        by_lower = {key.lower(): key for key in new}
        kept = []
        for key, value in self.tags:
            given = by_lower.pop(key.lower(), None)
            kept.append((key, value) if given is None else (key, new.pop(given)))
        return attrs.evolve(self, tags=(*kept, *new.items()))

    @property
    def starts_fresh(self) -> bool:
        """Whether the record starts at the first deal of a fresh game (:func:`new_game`)."""
        return not self.past and self.start == Position.start(
            self.num_players, rules=self.rules, dealer=self.first_dealer
        )

    def to_text(self) -> str:
        """The text form (see the module docs), annotated with seats and deal results.

        The comments come from replaying the record; if the record holds an illegal
        action the annotations stop there, and the actions are written all the same.
        """
        return _to_text(self)

    @classmethod
    def from_text(cls, text: str | bytes, *, max_chars: int = MAX_DOCUMENT_CHARS) -> GameRecord:
        """Read the text form.  The actions are parsed but not replayed.

        Raises:
            FormatError: naming the line, for anything that is not a record.
        """
        return _from_text(text, max_chars)

    def to_json(self, *, indent: int | None = None) -> str:
        """The JSON document of this record (see :mod:`bohmisch_watten.serialization`)."""
        from .serialization import to_json

        return to_json(self, indent=indent)

    @classmethod
    def from_json(cls, text: str | bytes, *, max_chars: int = MAX_DOCUMENT_CHARS) -> GameRecord:
        """Read a JSON record document.  The actions are parsed but not replayed.

        Raises:
            FormatError: for anything that is not a record document.
        """
        from .serialization import record_from_json

        return record_from_json(text, max_chars=max_chars)


def replay(record: GameRecord) -> GameState:
    """The state reached by playing ``record`` from :func:`new_game`.

    ``replay(state.record()) == state`` for every state.

    Raises:
        FormatError: if ``record`` is not a :class:`GameRecord` or an action is illegal;
            the message gives the action's number (1 = first) and notation and the
            rule, e.g. ``"record action 57: play EA: R25.1: must follow Bells …"``.
    """
    if not isinstance(record, GameRecord):
        raise FormatError(f"replay() needs a GameRecord, got {type(record).__name__}")
    _check_record(record)  # the fields may have been changed with object.__setattr__
    state = _initial_state(record)
    for number, action in enumerate(record.actions, 1):
        try:
            state = state.apply(action)
        except IllegalActionError as error:
            raise FormatError(f"record action {number}: {action}: {error}") from None
    return state


def _initial_state(record: GameRecord) -> GameState:
    """The state a record's actions start from: its start position and past deals.

    A start whose scores end the game is the end of a game (a record of a finished
    game as seen from its last position); it needs the past deals that led there.

    Raises:
        FormatError: if the past deals cannot lead to the start position or a game
            gives none of them (R4, R11–R34), or the start position ends the game
            without any past deal.
    """
    if record.starts_fresh:
        return new_game(record.num_players, rules=record.rules, dealer=record.first_dealer)
    past = PastDeals(record.past)
    over = bool(game_result(record.start.scores, record.rules)[0])
    phase = Phase.GAME_OVER if over else Phase.DEAL
    if over and not past:
        raise FormatError(f"record start {record.start}: the scores already end the game")
    problem = past_problem(past, record.start, phase)
    if problem is not None:
        raise FormatError(f"record past: {problem}")
    return build_state(position=record.start, past=past, phase=phase)


def load_record(text: str | bytes, *, max_chars: int = MAX_DOCUMENT_CHARS) -> GameRecord:
    """Read a record in either form: JSON if it starts with ``{``, else the text form.

    Raises:
        FormatError: for anything that is not a record.
    """
    text = check_text(text, "a record", max_chars)
    if text.lstrip().startswith("{"):
        return GameRecord.from_json(text, max_chars=max_chars)
    return GameRecord.from_text(text, max_chars=max_chars)


# ------------------------------------------------------------------ text form


def _to_text(record: GameRecord) -> str:
    lines = [
        "# Böhmisch Watten game record: one action per line, '#' starts a comment",
        f"format: {RECORD_FORMAT}",
        f"version: {RECORD_VERSION}",
        f"players: {record.num_players}",
        f"first_dealer: {record.first_dealer}",
        f"rules: {str(record.rules) or 'default'}",
    ]
    lines += [f"{name}: {value}" for name, value in record.tags]
    if not record.starts_fresh:
        lines.append(f"start: {record.start}")
        lines += [f"past: {json.dumps(summary_to_dict(deal, cut=True))}" for deal in record.past]
    state: GameState | None
    try:
        state = _initial_state(record)
    except FormatError as error:
        lines.append(f"# the start above is not possible: {error}")
        state = None
    for number, action in enumerate(record.actions, 1):
        if state is None:  # an illegal action or start came before: no seats any more
            lines.append(f"{action}  # action {number}")
            continue
        if state.is_chance_node:
            lines += ["", f"# deal {state.deal_number}: seat {state.dealer} deals"]
            lines.append(f"{action}  # action {number}")
        else:
            lines.append(f"{action}  # action {number}, seat {state.current_player}")
        before = state
        try:
            state = state.apply(action)
        except IllegalActionError as error:
            lines.append(f"# the action above is illegal: {error}")
            state = None
            continue
        summary = state.last_deal
        if summary is not None and summary is not before.last_deal:  # a deal was scored
            points = " ".join(f"{p:+d}" for p in summary.points)
            scores = " ".join(str(s) for s in summary.scores)
            lines.append(f"# deal {summary.deal_number} points: {points}; scores: {scores}")
    if state is not None and state.is_terminal:
        winners = " ".join(str(s) for s in state.winners)
        losers = " ".join(str(s) for s in state.losers)
        lines.append(f"# game over: winners {winners}; losers {losers}")
    return "\n".join(lines) + "\n"


def _header_int(value: str, number: int, written: str, key: str) -> int:
    if not value.isascii() or not value.isdigit() or len(value) > 3:
        raise FormatError(
            f"line {number}: {key} must be a small number, got {value[:20]!r}"
            f" (header {written!r:.60})"
        )
    return int(value)


def _from_text(text: str | bytes, max_chars: int, first_line: int = 1) -> GameRecord:
    """One record's text; ``first_line`` numbers its first line (for a file of several)."""
    text = check_text(text, "a record", max_chars)
    header: dict[str, tuple[str, int, str]] = {}
    past_lines: list[tuple[str, int]] = []
    tags: list[tuple[str, str]] = []
    unknown: list[str] = []
    actions: list[Action] = []
    for number, raw in enumerate(text.splitlines(), first_line):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, colon, value = line.partition(":")
        if colon:
            name, key = key.strip(), key.strip().lower()
            if actions:
                raise FormatError(
                    f"line {number}: header line {key!r:.30} after the first action"
                    " (several games in one file: read_records)"
                )
            if key == "past":
                past_lines.append((value.strip(), number))
                continue
            if key in header or any(k.lower() == key for k, _ in tags):
                raise FormatError(f"line {number}: header {key} given twice")
            if key not in _HEADER_KEYS and key not in _OPTIONAL_KEYS:
                problem = _tag_problem(name, value)  # any other header is a tag, kept
                if problem is not None:
                    raise FormatError(f"line {number}: {problem} (header {line!r:.60})")
                tags.append((name, value.strip()))
                unknown.append(f"line {number}: unknown header {name!r:.30} read as a tag")
                continue
            header[key] = (value.strip(), number, line)
            continue
        try:
            actions.append(parse_action(line))
        except FormatError as error:
            if not header:  # no header yet: the text is no record, or lost its head
                raise FormatError(
                    f"record: missing header lines: {', '.join(_HEADER_KEYS)} (a record"
                    f" starts with them; line {number} is {line!r:.40}, neither a header"
                    " 'name: value' nor an action)"
                ) from None
            raise FormatError(f"line {number}: record action {len(actions) + 1}: {error}") from None
    missing = [key for key in _HEADER_KEYS if key not in header]
    if missing:
        seen = "".join(f"; {note}" for note in unknown[:3])  # a misspelt header shows here
        lines = "header line" if len(missing) == 1 else "header lines"
        raise FormatError(f"record: missing {lines}: {', '.join(missing)}{seen}")
    fmt, number, _ = header["format"]
    if fmt != RECORD_FORMAT:
        raise FormatError(f"line {number}: format must be {RECORD_FORMAT}, got {fmt[:40]!r}")
    version, number, _ = header["version"]
    if version != str(RECORD_VERSION):
        raise FormatError(
            f"line {number}: unsupported record version {version[:20]!r}"
            f" (this library reads version {RECORD_VERSION})"
        )
    rules_text, rules_line, _ = header["rules"]
    try:
        rules = parse_rules(rules_text)
    except FormatError as error:
        raise FormatError(f"line {rules_line}: {error}") from None
    players = _header_int(*header["players"], "players")
    if not 2 <= players <= rules.max_players:
        _, number, written = header["players"]
        raise FormatError(
            f"line {number}: num_players must be 2 to {rules.max_players} with the "
            f"{rules.pack}-card pack (R1), got {players} (header {written!r:.60})"
        )
    dealer = _header_int(*header["first_dealer"], "first_dealer")
    if not 0 <= dealer < players:
        _, number, written = header["first_dealer"]
        raise FormatError(
            f"line {number}: first_dealer must be a seat from 0 to {players - 1} (R3),"
            f" got {dealer} (header {written!r:.60})"
        )
    if "start" not in header and not past_lines:
        return GameRecord(players, rules, dealer, tuple(actions), tags=tuple(tags))
    start_text, number, _ = header.get("start", ("", 0, ""))
    try:
        start = Position.parse(start_text)
    except FormatError as error:
        raise FormatError(f"line {number}: {error}") from None
    read = DealReader(players)
    past = []
    for text_value, number in past_lines:
        try:
            past.append(read.deal(_parse_json(text_value), "past"))
        except FormatError as error:
            raise FormatError(f"line {number}: {error}") from None
    return GameRecord(
        players, rules, dealer, tuple(actions), start=start, past=tuple(past), tags=tuple(tags)
    )


# ------------------------------------------------------------ several games


def _chunks(text: str) -> Iterator[tuple[int, str]]:
    """Each record of a file and the number of its first line: a header line after an
    action line, or a header the current record already has (a record without actions
    ends there), begins the next record."""
    lines = text.splitlines()
    start, acted = 0, False
    seen: set[str] = set()
    for index, raw in enumerate(lines):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, colon, _ = line.partition(":")
        if colon:
            key = key.strip().lower()
            if acted or (key in seen and key != "past"):
                yield start + 1, "\n".join(lines[start:index])
                start, acted, seen = index, False, set()
            seen.add(key)
        else:
            acted = True
    if any(raw.split("#", 1)[0].strip() for raw in lines[start:]):
        yield start + 1, "\n".join(lines[start:])


def read_records(
    source: str | bytes | os.PathLike[str] | TextIO, *, max_chars: int = MAX_DOCUMENT_CHARS
) -> Iterator[GameRecord]:
    """The records of a file of several games in the text form, one after the other.

    Like a PGN file: each record is its header lines then its actions, and a header
    line after an action (or a header the record already has, after a record without
    actions) begins the next record; blank lines and comments between them are free.
    ``source`` is the text itself (``str`` or ``bytes``), a path (:class:`os.PathLike`,
    e.g. :class:`pathlib.Path`) or an open text file.  The whole
    file is checked against ``max_chars`` first; the records are parsed as the
    iteration reaches them, so a bad record is reported with its number and the
    file's line number.

    >>> from bohmisch_watten import new_game
    >>> from bohmisch_watten.records import read_records
    >>> games = [new_game(n).record().with_tags(round=str(n)) for n in (2, 3)]
    >>> text = "\\n".join(record.to_text() for record in games)
    >>> [(record.num_players, record.tag("round")) for record in read_records(text)]
    [(2, '2'), (3, '3')]

    Raises:
        FormatError: for a file over the limit, of the wrong type or without any record
            (at the call), or a bad record (while iterating): ``"record 2: line 57: …"``.
    """
    text: object
    if isinstance(source, os.PathLike):
        with open(source, encoding="utf-8") as file:
            text = file.read(max_chars + 1)
    elif isinstance(source, (str, bytes)):
        text = source
    elif hasattr(source, "read"):
        text = source.read(max_chars + 1)
    else:
        raise FormatError(f"read_records: expected a text, a path or a file, got {source!r:.40}")
    chunks = list(_chunks(check_text(text, "a file of records", max_chars)))
    if not chunks:
        raise FormatError("read_records: no record in the file (only blank lines or comments)")
    return _read_chunks(chunks)


def _read_chunks(chunks: list[tuple[int, str]]) -> Iterator[GameRecord]:
    for count, (first_line, chunk) in enumerate(chunks, 1):
        try:
            yield _from_text(chunk, len(chunk) + 1, first_line)
        except FormatError as error:
            raise FormatError(f"record {count}: {error}") from None


def write_records(records: Iterable[GameRecord], file: os.PathLike[str] | TextIO) -> int:
    """Write ``records`` to ``file`` in the text form, a blank line between two; the count.

    ``file`` is a path (written anew, UTF-8) or an open text file.  :func:`read_records`
    reads them back.

    Raises:
        FormatError: if an item is not a :class:`GameRecord` (nothing is written then).
    """
    out = io.StringIO()
    count = 0
    for record in records:
        if not isinstance(record, GameRecord):
            raise FormatError(f"write_records: expected GameRecord, got {type(record).__name__}")
        out.write(("\n" if count else "") + record.to_text())
        count += 1
    if isinstance(file, os.PathLike):
        with open(file, "w", encoding="utf-8") as handle:
            handle.write(out.getvalue())
    else:
        file.write(out.getvalue())
    return count


_PAST_DEPTH: Final = 8
"""The nesting a ``past:`` line may have (a finished deal is nested 5 deep)."""


def _parse_json(text: str) -> object:
    """One finished deal's JSON on a ``past:`` line, read by the documents' own parser.

    The line is already within the record's ``max_chars``; duplicate keys, ``NaN``,
    ``Infinity`` and deep nesting are refused as in every JSON document.
    """
    return parse_json(text, "past", max_chars=len(text), max_depth=_PAST_DEPTH)


# ------------------------------------------------------- checking a record


def past_problem(past: PastDeals, position: Position, phase: Phase) -> str | None:
    """Why ``past`` cannot be the finished deals before ``position``, or None.

    For loaders of hostile input: each deal must follow the one before it (dealer R4,
    deal number, scores), and some shuffle must give exactly its public record when
    played by the rules (R11–R34) — found by the exact sampler with no seat's cards
    (public facts only) and replayed with ``apply()``.  Before the first recorded deal
    nobody is taken to have folded, since that deal's predecessor is not recorded.
    ``position`` is the current deal's position; at GAME_OVER the final one.
    """
    n, rules = position.num_players, position.rules
    previous: DealSummary | None = None
    for deal in past:
        if len(deal.scores) != n or len(deal.folded) != n or len(deal.points) != n:
            return f"deal {deal.deal_number}: not a {n}-player deal"
        before = tuple(a - b for a, b in zip(deal.scores, deal.points, strict=True))
        if previous is not None:
            if deal.deal_number != previous.deal_number + 1:
                return f"deal {deal.deal_number} follows deal {previous.deal_number}"
            if deal.dealer != left_of(previous.dealer, n):
                return f"deal {deal.deal_number}: dealt by seat {deal.dealer} (R4)"
            if before != previous.scores:
                return f"deal {deal.deal_number}: the scores do not follow from the deal before"
        try:
            start = Position(
                n, rules, deal.dealer, deal.deal_number, before,
                (False,) * n if previous is None else previous.folded,
            )  # fmt: skip
            replayed = public_replay(start, deal)
        except Exception as error:  # hostile input reaching the engine
            return f"deal {deal.deal_number}: no game gives this deal ({error!s:.80})"
        if replayed != deal:
            return f"deal {deal.deal_number}: no game gives this deal"
        previous = deal
    if previous is not None:
        final = phase is Phase.GAME_OVER
        follows = (
            position.deal_number == previous.deal_number + 1
            and position.dealer == left_of(previous.dealer, n)
            and position.scores == previous.scores
            and position.folded == previous.folded
        )
        if not follows:
            return "the current deal does not follow the last recorded deal"
        if final != bool(build_state(position=position, phase=Phase.GAME_OVER).winners):
            return "the game's end does not agree with the scores (R31-R34)"
    return None


def public_replay(start: Position, deal: DealSummary) -> DealSummary | None:
    """The summary a game from ``start`` gives when played to the public record ``deal``."""
    n = start.num_players
    cut = tuple(
        (seat, -1 if card is None else card.index, taken, critical)
        for seat, card, taken, critical in deal.cut
    )
    stock = start.rules.pack - 1 - 5 * n  # R15: 32 or 36 cards, 5 per hand, the trump card
    draws = sum(
        k - (1 if q == deal.dealer and deal.trump_card_taken else 0)
        for q, k in enumerate(deal.exchanged)
        if k is not None
    )
    tricks = tuple((tuple((s, c.index) for s, c in t.plays), t.winner) for t in deal.tricks)
    info = DealInfo(
        n, deal.dealer, start.rules.must_head, cut, False, deal.trump_card.index,
        deal.trump_card_taken, deal.folded, tuple(-1 if k is None else k for k in deal.exchanged),
        tricks, (), stock - draws, -1, 0, 0, (), start.rules.pack,
    )  # fmt: skip
    world = Plan(info).draw(random.Random(0))
    dealer, took = info.dealer, info.took_trump
    state = build_state(position=start)
    for _, action in deal_actions(
        info,
        Shuffle(tuple([CARDS[i] for i in world.pack])),
        lambda q: exchange_action(q, dealer, took, world.discards[q]),
    ):
        assert action is not None  # every card is known in a sampled world
        state = state.apply(action)
    return state.last_deal
