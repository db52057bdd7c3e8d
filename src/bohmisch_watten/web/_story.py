"""The table's logs and last events per seat and for spectators, told when first read.

Every journal entry of a table is told to every seat and to the spectators: a move as
the events that observer may see (:func:`~bohmisch_watten.events.describe`, R13, R23),
narrated in every language, and a table notice (a new game, a seat handed to a bot) as
one line.  Telling is most of the cost of a move, and most of it is read by nobody: a
bot's seat has no page, a table without spectators has no public log.  So a
:class:`Story` keeps what each entry tells (the states before and after a move, the
seats' names then, or the notice) and tells it to an observer only when that
observer's log or events are read, in the entries' order: the lines and events are
the same as if they had been told at once.

A table lives for many games, so the story keeps only the last :data:`KEPT` entries.
An observer that was not told the older ones (a bot's seat, spectators nobody is
watching) skips them: that changes nothing it will ever show, because what it shows
is made of the last :data:`LOG_LINES` lines, the last :data:`RECENT` entries' events
and the last move's, and the entries kept are checked to hold at least that many
(a card played or a notice is a line for every observer, a move sets the events).

A frame carries an observer's whole log in every language, and a socket that skipped
versions gets the events of each entry it missed.  So a line is also kept as its JSON
text, encoded once when told (:meth:`Story.log_text`), and the events of the last
:data:`RECENT` entries are kept per observer (:meth:`Story.missed`): a frame or a
catch-up costs a join, not a re-encoding or a second :func:`describe` of each move.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any, Final

import attrs

from ..actions import Action, PlayCard
from ..events import describe, to_dicts
from ..state import GameState
from ._frames import encode
from ._i18n import DEFAULT, LANGUAGES, gettext
from ._narrate import narrate_events
from ._public import SPECTATOR, public_events

__all__ = ["KEPT", "LOG_LINES", "RECENT", "Story"]

LOG_LINES: Final = 40
"""How many log lines each seat keeps (older lines drop off)."""
RECENT: Final = 128
"""How many entries' events each observer keeps for :meth:`Story.missed`."""
KEPT: Final = 512
"""How many journal entries a story keeps to tell (at least :data:`RECENT`)."""
_TRIM_EVERY: Final = 256
"""Entries are dropped in batches of this many, once more than :data:`KEPT` are held."""


@attrs.frozen
class _Move:
    before: GameState
    action: Action
    after: GameState
    names: tuple[str, ...]
    """The seats' names when the move was made (a seat handed to a bot is renamed)."""


@attrs.frozen
class _Notice:
    message: str
    """A message id of the catalogs, with ``{fields}``."""
    fields: tuple[tuple[str, object], ...]
    new_game: bool = False
    """A new game clears the last move's events."""


class Story:
    """What a table's journal entries told each of ``players`` seats and the spectators.

    The observers are the seats ``0 … players-1`` and the spectators (index
    ``players``).  Each has a log per language (:data:`LOG_LINES` lines) and the events
    of the last move as JSON data; :meth:`log`, :meth:`events` and :meth:`translated`
    read them after telling the observer the entries it has not been told yet.
    """

    def __init__(self, players: int) -> None:
        self.players = players
        observers = players + 1
        self._logs: dict[str, tuple[deque[str], ...]] = {
            lang: tuple(deque(maxlen=LOG_LINES) for _ in range(observers)) for lang in LANGUAGES
        }
        self._texts: dict[str, tuple[deque[str], ...]] = {
            lang: tuple(deque(maxlen=LOG_LINES) for _ in range(observers)) for lang in LANGUAGES
        }
        """The lines of :attr:`_logs` as JSON texts, in step with them."""
        self._events: list[list[dict[str, Any]]] = [[] for _ in range(observers)]
        self._recent: list[deque[list[dict[str, Any]]]] = [
            deque(maxlen=RECENT) for _ in range(observers)
        ]
        """Per observer, the events of each of its last told entries (a notice's: one
        event of type ``table``)."""
        self._entries: list[_Move | _Notice] = []
        """The last entries (at most :data:`KEPT` + :data:`_TRIM_EVERY`)."""
        self._first = 0
        """The journal number of ``_entries[0]``: the entries before it were dropped."""
        self._told = [0] * observers
        """Per observer, how many entries of :attr:`_entries` it was told."""

    # ---------------------------------------------------------------- writing

    def move(
        self, before: GameState, action: Action, after: GameState, names: Sequence[str]
    ) -> None:
        """A move was made; ``names`` are the seats' names now."""
        self._entries.append(_Move(before, action, after, tuple(names)))
        self._trim()

    def notice(self, message: str, fields: Mapping[str, object], *, new_game: bool = False) -> None:
        """A table notice: ``message`` (an id of the catalogs, its ``fields`` filled in)
        for every observer."""
        self._entries.append(_Notice(message, tuple(fields.items()), new_game))
        self._trim()

    def _trim(self) -> None:
        """Drop the entries before the last :data:`KEPT` when no observer needs them.

        An observer not told them yet skips them, which is exact only if the kept
        entries alone make the same logs and events: they must hold at least
        :data:`LOG_LINES` lines for every observer (a card played and a notice are one
        line each for everyone, other moves are not counted), :data:`RECENT` entries
        and a move (or a new game) for the last events.  Otherwise all are kept.
        """
        entries = self._entries
        if len(entries) < KEPT + _TRIM_EVERY:
            return
        cut = len(entries) - KEPT
        kept = entries[cut:]
        lines = sum(
            1 for entry in kept if isinstance(entry, _Notice) or isinstance(entry.action, PlayCard)
        )
        moved = any(isinstance(entry, _Move) or entry.new_game for entry in kept)
        if lines < LOG_LINES or not moved:  # pragma: no cover - no game of 512 such entries
            return
        self._told = [max(0, told - cut) for told in self._told]
        del entries[:cut]
        self._first += cut

    # ---------------------------------------------------------------- reading

    def _index(self, seat: int | None) -> int:
        return self.players if seat is None else seat

    def log(self, seat: int | None, lang: str = DEFAULT) -> deque[str]:
        """The log of ``seat`` (None: the spectators') in ``lang``."""
        self._tell(self._index(seat))
        return self._logs[lang][self._index(seat)]

    def translated(self, seat: int | None) -> dict[str, deque[str]]:
        """The log of ``seat`` (None: the spectators') in every other language."""
        index = self._index(seat)
        self._tell(index)
        return {lang: logs[index] for lang, logs in self._logs.items() if lang != DEFAULT}

    def log_text(self, seat: int | None, lang: str = DEFAULT) -> str:
        """``encode(list(self.log(seat, lang)))``, from the lines encoded when told."""
        index = self._index(seat)
        self._tell(index)
        return "[" + ",".join(self._texts[lang][index]) + "]"

    def logs_text(self, seat: int | None) -> str:
        """``encode(self.translated(seat))`` with the lists as :meth:`log_text` writes them."""
        index = self._index(seat)
        self._tell(index)
        return (
            "{"
            + ",".join(
                f"{encode(lang)}:[{','.join(texts[index])}]"
                for lang, texts in self._texts.items()
                if lang != DEFAULT
            )
            + "}"
        )

    def missed(self, seat: int | None, since: int) -> list[list[dict[str, Any]]] | None:
        """The events of entries ``since`` … now as ``seat`` (None: a spectator) saw
        them, one list per entry; None if some of them are no longer kept."""
        index = self._index(seat)
        self._tell(index)
        recent = self._recent[index]
        first = self._first + len(self._entries) - len(recent)
        if since < first:
            return None
        return [recent[number - first] for number in range(since, self._first + len(self._entries))]

    def events(self, seat: int | None) -> list[dict[str, Any]]:
        """The last move's events as ``seat`` (None: a spectator) saw them, as JSON data;
        empty after a new game."""
        index = self._index(seat)
        self._tell(index)
        return self._events[index]

    def _tell(self, index: int) -> None:
        """Tell observer ``index`` the entries it was not told yet, in order."""
        start = self._told[index]
        if start == len(self._entries):
            return
        spectator = index == self.players
        recent = self._recent[index]
        for entry in self._entries[start:]:
            if isinstance(entry, _Notice):
                fields = dict(entry.fields)
                for lang in self._logs:
                    self._add(lang, index, [gettext(lang, entry.message, **fields)])
                if entry.new_game:
                    self._events[index] = []
                recent.append([{"type": "table"}])
                continue
            if spectator:  # seat 0's events without what only it saw
                shown = public_events(describe(entry.before, entry.action, entry.after, 0))
                observer, names = SPECTATOR, list(entry.names)
            else:
                shown = describe(entry.before, entry.action, entry.after, index)
                observer = index
                names = ["You" if s == index else name for s, name in enumerate(entry.names)]
            for lang in self._logs:
                self._add(
                    lang, index, narrate_events(shown, entry.before, observer, names, lang=lang)
                )
            self._events[index] = events = to_dicts(shown)
            recent.append(events)
        self._told[index] = len(self._entries)

    def _add(self, lang: str, index: int, lines: list[str]) -> None:
        self._logs[lang][index].extend(lines)
        self._texts[lang][index].extend(encode(line) for line in lines)
