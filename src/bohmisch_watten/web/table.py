"""One game at a web table: seats, links, bots and the log, with no web code in it.

One job in one file, although it is long: a table's state, its journal and what each
seat is shown of it (the frames) change together, move by move.

The :class:`Table` holds the only :class:`~bohmisch_watten.GameState`; everything it
hands out for a seat (:meth:`Table.frame`) is built from that seat's
:class:`~bohmisch_watten.views.PlayerView` and that seat's log, so a bug in a page can
never show a card the seat may not know (R13, R23).  The asynchronous server in
:mod:`bohmisch_watten.web.app` only moves frames between a :class:`Table` and sockets.
"""

from __future__ import annotations

import hashlib
import random
import secrets
import threading
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

import attrs

from ..actions import Action, Exchange, Fold, LeaveCritical, TakeCritical
from ..cards import Card
from ..errors import counted
from ..events import describe, to_dicts
from ..notation import parse_action
from ..phases import Phase
from ..position import Position
from ..review import Judge, default_judge, review
from ..rules import Rules
from ..state import GameState, new_game, next_game
from ..tricks import trick_winner
from ..views import PlayerView
from ._frames import FrameWriter, encode
from ._players import check as check_player
from ._players import choose as choose_move
from ._players import hint as hint_move
from ._public import public_events, public_view
from ._story import KEPT, LOG_LINES, Story

__all__ = ["LOG_LINES", "MAX_ACTION_CHARS", "NEW_GAME", "Seat", "Table", "TableError", "hash_token"]

MAX_ACTION_CHARS: Final = 80
"""The longest action text accepted; the longest legal one is far shorter."""
NEW_GAME: Final = "!new_game"
"""The journal entry of the host's "new game" (no action text starts with ``!``)."""
_BOT_PREFIX: Final = "!bot "
"""The journal entry that hands a seat to a bot: ``!bot SEAT KIND``."""
_QUICK_BOTS: Final = frozenset({"random", "heuristic"})
_HUMAN_PREFIX: Final = "!human "
"""The journal entry that gives such a seat back to its person: ``!human SEAT``."""
_JSON_BOOLS: Final = ("false", "true")
"""A bool as JSON, by ``int(value)``: a frame is written field by field."""
MAX_JOURNAL: Final = 200_000
"""The journal entries after which a table starts no new game (the game under way is
played to its end): a long evening of games is a few thousand entries, and every entry
is a row of the database that a restart replays."""


def hash_token(token: str) -> str:
    """The stored form of a seat link's token: its SHA-256, so a leaked database opens
    no seat (the token itself is 128 random bits, so no salt or slow hash is needed)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class TableError(ValueError):
    """A request the table refuses that is not a move against the rules (wrong turn,
    not the host, …); its message is shown to the player as it is."""


@attrs.frozen
class Seat:
    """Who sits on a seat: a person (with a secret link token) or a bot of a kind."""

    number: int
    kind: str
    token: str | None = attrs.field(default=None, repr=False)
    token_hash: str | None = attrs.field(default=None, repr=False)
    """The token's :func:`hash_token`, all a stored table keeps of it."""
    display: str | None = None
    """The display name a person chose, if any."""

    def __attrs_post_init__(self) -> None:
        if self.token is not None and self.token_hash is None:
            object.__setattr__(self, "token_hash", hash_token(self.token))

    @property
    def is_human(self) -> bool:
        """True for a person's seat."""
        return self.kind == "human"

    @property
    def name(self) -> str:
        """The name shown to the other seats."""
        if self.display:
            return self.display
        return f"Seat {self.number}" + ("" if self.is_human else f" ({self.kind} bot)")


def _seats_refused(players: int, rules: Rules) -> str:
    """Why a table of ``players`` seats cannot play ``rules`` (R1): the pack sets the
    most seats, so the message says which pack seats more."""
    more = " (the 36-card pack, rules pack=36, seats up to 7)" if rules.pack == 32 else ""
    return (
        f"players must be 2 to {rules.max_players} with the {rules.pack}-card pack (R1)"
        f"{more}, got {players}"
    )


def _bot_list(bots: Sequence[str] | None, count: int, specs: Mapping[str, str]) -> list[str]:
    if bots is None:
        return (["search"] + ["heuristic"] * count)[:count]
    kinds = list(bots)
    if len(kinds) != count:
        raise ValueError(
            f"bots: need {counted(count, 'bot name')} for the seats without a human,"
            f" got {len(kinds)}"
        )
    for kind in kinds:
        try:
            check_player(specs.get(kind, kind))
        except ValueError as error:
            raise ValueError(f"bots: {error}") from None
    return kinds


class Table:
    """A game where humans (seats ``0 … humans-1``) sit with bots.

    Args:
        players: 2 to ``rules.max_players`` (R1): 4 with the 32-card pack, 7 with the
            36-card pack (``Rules(pack=36)``).
        humans: how many of the seats are people, at least one.
        bots: the bot kind of each other seat, in seat order; by default one search
            bot and heuristic bots.
        seed: seeds the shuffles and the bots, so a table can be replayed.
        rules: the variants to play.
        dealer: the first dealer's seat (R3).
        judge: the judge of the game-over review (:meth:`review`); by default
            :func:`~bohmisch_watten.review.default_judge`.
        specs: bot names that stand for other specs (a server's registered bots, name
            -> :func:`~bohmisch_watten.bots.make_bot` spec): a seat shows the name and
            plays the spec.

    Raises:
        ValueError: for a player count, human count or bot list that does not fit.
        TypeError: naming the argument, for an argument of the wrong type.
    """

    def __init__(
        self,
        *,
        players: int = 4,
        humans: int = 1,
        bots: Sequence[str] | None = None,
        seed: int | None = None,
        rules: Rules | None = None,
        dealer: int = 0,
        judge: Judge | None = None,
        specs: Mapping[str, str] | None = None,
    ) -> None:
        for name, value in (("players", players), ("humans", humans)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"{name} must be an int, got {type(value).__name__}")
        if rules is not None and not isinstance(rules, Rules):
            raise TypeError(f"rules must be a Rules, got {type(rules).__name__}")
        rules = rules or Rules()
        if not 2 <= players <= rules.max_players:
            raise ValueError(_seats_refused(players, rules))
        if not 1 <= humans <= players:
            raise ValueError(f"humans must be from 1 to {players}, got {humans}")
        if isinstance(dealer, bool) or not isinstance(dealer, int):
            raise TypeError(f"dealer must be an int, got {type(dealer).__name__}")
        if not 0 <= dealer < players:
            raise ValueError(f"dealer must be a seat from 0 to {players - 1}, got {dealer}")
        if judge is not None and not isinstance(judge, Judge):
            raise TypeError(f"judge must have hint() and evaluate(), got {type(judge).__name__}")
        specs = dict(specs or {})
        kinds = _bot_list(bots, players - humans, specs)
        seats = tuple(
            Seat(s, "human", secrets.token_urlsafe(16))
            if s < humans
            else Seat(s, kinds[s - humans])
            for s in range(players)
        )
        start = new_game(players, rules=rules, dealer=dealer)
        self._setup(seats, start, seed, judge, specs)

    def _setup(
        self,
        seats: tuple[Seat, ...],
        start: GameState,
        seed: int | None,
        judge: Judge | None,
        specs: Mapping[str, str],
    ) -> None:
        players = len(seats)
        self.specs = specs
        """Bot names that stand for other specs (the ``specs`` argument)."""
        self.rules = start.rules
        # Unseeded, the shuffles come from the operating system's CSPRNG: a finished
        # game's record shows every shuffle, and a Mersenne Twister's later outputs can
        # be worked out from enough earlier ones (R11: nobody may know the deal).
        self.rng: random.Random = secrets.SystemRandom() if seed is None else random.Random(seed)
        self.seats = seats
        self.game_number = 1
        self.dealer = start.dealer
        self.start = start
        """The state the table began in; with :attr:`journal` it is the whole table."""
        self.state: GameState = start
        self.story = Story(players)
        """Each seat's and the spectators' logs and last events, told when read."""
        self._hint: tuple[GameState, str] | None = None
        self.restart_votes: set[int] = set()
        """The persons' seats that asked to give up the game under way (:meth:`new_game`)."""
        self.judge = judge
        self._review: tuple[GameState, dict[str, Any]] | None = None
        self._review_lock = threading.Lock()
        self.journal: list[str] = []
        """Every change since :attr:`start`, in order: action notation, or an entry
        starting with ``!`` (:data:`NEW_GAME`, a seat handed to a bot)."""
        self.frames = FrameWriter()
        """The pieces of :meth:`frame_text` that outlive a move."""
        self._trail: deque[tuple[GameState, Action | None, GameState]] = deque(maxlen=KEPT)
        """Per journal entry of the last :data:`~._story.KEPT`, the state before it, its
        action (None for a ``!`` entry) and the state after it: what a reconnecting
        client missed is read from here (older entries are replayed, :meth:`trail`)."""

    @classmethod
    def restore(
        cls,
        seats: Sequence[Seat],
        start: str,
        journal: Iterable[str] = (),
        *,
        seed: int | None = None,
        judge: Judge | None = None,
        specs: Mapping[str, str] | None = None,
    ) -> Table:
        """A table rebuilt from its stored form: the seats, the start :class:`Position`
        text and the journal, replayed entry by entry (the logs come back too).

        Raises:
            ValueError: if the seats do not fit the position or an entry does not replay
                (``FormatError`` and ``IllegalActionError`` are ValueErrors).
        """
        position = Position.parse(start)
        seats = tuple(seats)
        if len(seats) != position.num_players or not any(s.is_human for s in seats):
            raise ValueError(f"a table of {position.num_players} needs as many seats, one human")
        table = cls.__new__(cls)
        table._setup(seats, GameState.from_position(position), seed, judge, dict(specs or {}))
        for entry in journal:
            table.replay(entry)
        return table

    @property
    def version(self) -> int:
        """How many journal entries the table has: every frame carries it."""
        return len(self.journal)

    def replay(self, entry: str) -> None:
        """Apply one journal entry again (a stored one, or one another server made).

        Raises:
            ValueError: if the entry does not apply (FormatError, IllegalActionError).
        """
        if entry == NEW_GAME:
            self._start_next_game()
        elif entry.startswith(_BOT_PREFIX):
            seat, _, kind = entry[len(_BOT_PREFIX) :].partition(" ")
            self.hand_to_bot(int(seat), kind)
        elif entry.startswith(_HUMAN_PREFIX):
            self.hand_back(int(entry[len(_HUMAN_PREFIX) :]))
        else:
            self._apply(self.state.current_player, parse_action(entry))

    def hand_to_bot(self, seat: int, kind: str) -> None:
        """Let a bot of ``kind`` play the human ``seat`` from now on (a person who went
        away must not stall the table); the seat's link then only watches.

        Raises:
            ValueError: for a seat that is not a person's or an unknown bot.
        """
        if not 0 <= seat < len(self.seats) or not self.seats[seat].is_human:
            raise ValueError(f"seat {seat} is not a person's seat")
        check_player(self.specs.get(kind, kind))
        seats = list(self.seats)
        seats[seat] = attrs.evolve(seats[seat], kind=kind)
        self.seats = tuple(seats)
        self._record(f"{_BOT_PREFIX}{seat} {kind}", None)
        self._announce(
            "{name} is away: a {kind} bot plays the seat.", name=seats[seat].name, kind=kind
        )

    def hand_back(self, seat: int) -> None:
        """Give a seat a bot took over (:meth:`hand_to_bot`) back to its person.

        Raises:
            ValueError: for a seat that was never a person's or still is.
        """
        if not 0 <= seat < len(self.seats) or self.seats[seat].token_hash is None:
            raise ValueError(f"seat {seat} was never a person's seat")
        if self.seats[seat].is_human:
            raise ValueError(f"seat {seat} is a person's already")
        seats = list(self.seats)
        seats[seat] = attrs.evolve(seats[seat], kind="human")
        self.seats = tuple(seats)
        self._record(f"{_HUMAN_PREFIX}{seat}", None)
        self._announce("{name} is back.", name=seats[seat].name)

    def _announce(self, message: str, **fields: object) -> None:
        """Tell every seat and the spectators ``message`` (an id of the catalogs), each
        log in its own language."""
        self.story.notice(message, fields)

    # ------------------------------------------------------------------- logs

    @property
    def logs(self) -> tuple[deque[str], ...]:
        """Per seat, its log (the last :data:`LOG_LINES` lines, in English)."""
        return tuple(self.story.log(seat) for seat in range(len(self.seats)))

    @property
    def public_log(self) -> deque[str]:
        """The log as a spectator reads it: only what every seat may know."""
        return self.story.log(None)

    @property
    def translated(self) -> dict[str, tuple[tuple[deque[str], ...], deque[str]]]:
        """The same logs in the other languages: language -> (per seat, spectators')."""
        seats = [self.story.translated(seat) for seat in range(len(self.seats))]
        public = self.story.translated(None)
        return {lang: (tuple(logs[lang] for logs in seats), public[lang]) for lang in public}

    @property
    def events(self) -> list[list[dict[str, Any]]]:
        """Per seat, the events of the last move as that seat saw them (JSON data)."""
        return [self.story.events(seat) for seat in range(len(self.seats))]

    @property
    def public_events(self) -> list[dict[str, Any]]:
        """The events of the last move as a spectator sees them (JSON data)."""
        return self.story.events(None)

    def _record(self, entry: str, action: Action | None, before: GameState | None = None) -> None:
        self.journal.append(entry)
        self._trail.append((before or self.state, action, self.state))

    def _successor(self, state: GameState, entry: str) -> tuple[Action | None, GameState]:
        """The action of journal ``entry`` (None for a ``!`` entry) and the state after
        it, from ``state`` before it: the states :meth:`replay` goes through."""
        if entry == NEW_GAME:
            return None, self._next_game_state(state)
        if entry.startswith((_BOT_PREFIX, _HUMAN_PREFIX)):
            return None, state
        action = parse_action(entry)
        return action, state.apply(action)

    def _next_game_state(self, state: GameState) -> GameState:
        """The start of the game after ``state`` (R5: a finished game's winner deals)."""
        if state.is_terminal:
            return next_game(state)
        return new_game(len(self.seats), rules=self.rules, dealer=self.dealer)

    def trail(self, since: int = 0) -> list[tuple[GameState, Action | None, GameState]]:
        """Per journal entry from number ``since`` on: the state before it, its action
        (None for a ``!`` entry) and the state after it.

        The last :data:`~._story.KEPT` are kept; older ones are replayed from
        :attr:`start` and the journal (exact, and slower: a table lives for many games).
        """
        since = max(since, 0)
        kept = self._trail
        first = len(self.journal) - len(kept)
        if since >= first:
            return list(kept)[since - first :]
        out: list[tuple[GameState, Action | None, GameState]] = []
        state = self.start
        for number, entry in enumerate(self.journal):
            action, after = self._successor(state, entry)
            if number >= since:
                out.append((state, action, after))
            state = after
        return out

    def state_at(self, version: int) -> GameState:
        """The state after the first ``version`` journal entries (:attr:`start` at 0)."""
        if not 0 <= version <= len(self.journal):
            raise ValueError(f"version must be from 0 to {len(self.journal)}, got {version}")
        if version == 0:
            return self.start
        return self.trail(version - 1)[0][2]

    # ------------------------------------------------------------------ seats

    @property
    def host(self) -> int:
        """The first human seat: it may start a new game."""
        return 0

    @property
    def human_seats(self) -> tuple[int, ...]:
        """The seats of the people at the table."""
        return tuple(seat.number for seat in self.seats if seat.is_human)

    def seat_of(self, token: object) -> int | None:
        """The human seat whose link carries ``token``, None for anything else."""
        if not isinstance(token, str):
            return None
        for seat in self.seats:
            if seat.token is not None and secrets.compare_digest(seat.token, token):
                return seat.number
        return None

    def names_for(self, observer: int | None) -> list[str]:
        """The seats' names as ``observer`` reads them: itself is "You" (None: a spectator)."""
        return ["You" if s.number == observer else s.name for s in self.seats]

    # ------------------------------------------------------------------ moves

    @property
    def needs_auto(self) -> bool:
        """True while chance or a bot is to move (the server paces these moves)."""
        state = self.state
        if state.is_terminal:
            return False
        seat = state.current_player
        return seat is None or not self.seats[seat].is_human

    @property
    def quick_step(self) -> bool:
        """True if :meth:`step` takes well under a millisecond (a shuffle, a random or
        heuristic bot), so a server may make it without a worker thread."""
        seat = self.state.current_player
        if seat is None:
            return True
        kind = self.seats[seat].kind
        return self.specs.get(kind, kind).partition(":")[0] in _QUICK_BOTS

    def _apply(self, seat: int | None, action: Action) -> None:
        before = self.state
        self.state = after = before.apply(action, seat=seat)  # refuses another seat's turn
        self.story.move(before, action, after, [s.name for s in self.seats])
        self._record(str(action), action, before)

    def step(self) -> None:
        """Make the next automatic move: the shuffle (R11) or a bot's decision.

        Raises:
            TableError: if a person is to move or the game is over.
        """
        if not self.needs_auto:
            raise TableError("no automatic move: a person is to act or the game is over")
        seat = self.state.current_player
        if seat is None:
            self._apply(None, self.state.sample_chance(self.rng))
        else:
            view = self.state.view(seat)
            kind = self.seats[seat].kind
            self._apply(seat, choose_move(self.specs.get(kind, kind), view, self.rng))

    def _check_turn(self, seat: int) -> None:
        if type(seat) is not int or not 0 <= seat < len(self.seats):  # apply() would say
            raise TableError(f"no seat {seat!r:.20} at this table")  # ValueError: refuse here
        if self.state.is_terminal:
            raise TableError("the game is over")
        turn = self.state.current_player
        if turn != seat:
            who = "the dealer's shuffle" if turn is None else self.names_for(seat)[turn]
            raise TableError(f"not your turn: waiting for {who}")

    def act(self, seat: int, text: object) -> None:
        """Apply the action written ``text`` (action notation, e.g. ``play HK``) for ``seat``.

        Raises:
            TableError: if ``seat`` is not to act or the text is not a string of sensible size.
            FormatError: if the text is not action notation.
            IllegalActionError: if the rules forbid it; the message names the rule.
        """
        if not isinstance(text, str) or not 0 < len(text) <= MAX_ACTION_CHARS:
            raise TableError(
                f"an action is a short text like 'play HK', at most {MAX_ACTION_CHARS} characters"
            )
        self._check_turn(seat)
        if not self.seats[seat].is_human:
            raise TableError("a bot plays this seat now")
        self._apply(seat, parse_action(text))  # apply() raises IllegalActionError (R-ID)

    def hint(self, seat: int) -> str:
        """A suggested move for ``seat``, as action notation.

        Raises:
            TableError: if ``seat`` is not to act.
        """
        self._check_turn(seat)
        cached = self._hint
        if cached is not None and cached[0] is self.state:
            return cached[1]  # asking again costs nothing
        suggestion = hint_move(self.state.view(seat))
        assert suggestion is not None  # the seat is to act, so it has a legal action
        self._hint = (self.state, str(suggestion))
        return self._hint[1]

    @property
    def persons(self) -> tuple[int, ...]:
        """The seats of a person, also those a bot plays while its person is away."""
        return tuple(seat.number for seat in self.seats if seat.token_hash is not None)

    def new_game(self, seat: int) -> None:
        """Start a new game, or ask for one for ``seat``.

        After the end the host starts it (R5: the finished game's winner deals first).
        A game under way is given up only when every person at the table has asked for
        it (at once, with a single person): its deal is theirs as much as the host's.
        Until then the seat's wish is kept and refused with a message naming whom the
        game waits for.

        Raises:
            TableError: for a seat that is no person's, another seat than the host's
                after the end, a wish kept while others have not asked yet, or a table
                whose journal is full (:data:`MAX_JOURNAL`).
        """
        persons = self.persons
        if seat not in persons:
            raise TableError("only the people at the table can ask for a new game")
        if self.version >= MAX_JOURNAL:
            raise TableError(
                f"this table has played its fill ({MAX_JOURNAL} moves): open a new table"
            )
        if self.state.is_terminal:
            if seat != self.host:
                raise TableError("only the host (the first player's link) can start a new game")
        else:
            self.restart_votes.add(seat)
            waiting = [s for s in persons if s not in self.restart_votes]
            if waiting:
                names = ", ".join(self.names_for(seat)[s] for s in waiting)
                raise TableError(
                    "the game under way ends early only if every person asks for a new"
                    f" game: waiting for {names}"
                )
        self._start_next_game()

    def _start_next_game(self) -> None:
        """Begin the next game (a :data:`NEW_GAME` entry, also when replayed)."""
        before = self.state
        self.state = self._next_game_state(before)
        self.game_number += 1
        self.restart_votes.clear()
        self.story.notice("Game {number} begins.", {"number": self.game_number}, new_game=True)
        self._record(NEW_GAME, None, before)

    def record_text(self) -> str | None:
        """The finished game's record in the library's text format; None before the end."""
        return self.state.record().to_text() if self.state.is_terminal else None

    def review(self) -> dict[str, Any] | None:
        """The review of the human seats' decisions in the finished game, as JSON data.

        None before the end.  The judge sees each decision from the deciding seat's
        view only (:func:`bohmisch_watten.review.review`); the bots' decisions are not
        reviewed.  Computed once per game (a few seconds), in the caller's thread.
        """
        state = self.state
        if not state.is_terminal:
            return None
        with self._review_lock:  # a second request waits for the first one's result
            cached = self._review
            if cached is None or cached[0] is not state:
                judge = self.judge if self.judge is not None else default_judge()
                result = review(state.record(), judge, seats=self.human_seats)
                self._review = cached = (state, result.to_dict())
            return cached[1]

    # ----------------------------------------------------------------- frames

    def frame(self, seat: int) -> dict[str, Any]:
        """Everything the page of ``seat`` shows, as JSON data, built from its view only."""
        view = self.state.view(seat)
        legal = self._legal(seat)  # once: the offer and the exchange read it too
        fields = self._frame_fields(seat, view, legal)
        fields["log"] = list(self.story.log(seat))
        fields["logs"] = {lang: list(log) for lang, log in self.story.translated(seat).items()}
        fields["players"] = [
            {"seat": s.number, "name": name, "kind": s.kind}
            for s, name in zip(self.seats, self.names_for(seat), strict=True)
        ]
        fields["view"] = view.to_dict()
        return fields

    def frame_text(self, seat: int) -> str:
        """``encode(self.frame(seat))``, the text the server sends, made cheaply: the
        parts that outlive a move are reused (:class:`~._frames.FrameWriter`)."""
        state = self.state
        view = state.view(seat)
        legal = self._legal(seat)
        frames, story = self.frames, self.story
        winning = winning_seat(view)
        # The fields of _frame_fields in its order, each written as encode() writes it.
        return "".join(
            (
                f'{{"type":"state","seat":{seat:d},"host":{_JSON_BOOLS[seat == self.host]},'
                f'"game":{self.game_number:d},"players":',
                frames.players_text(self.seats, seat),
                ',"view":',
                frames.view_text(view, legal, state),
                ',"your_turn":',
                _JSON_BOOLS[view.current_player == seat],
                ',"winning":',
                "null" if winning is None else f"{winning:d}",
                ',"offer":',
                encode(offered_card(view, legal)),
                ',"exchange":',
                encode(exchange_options(view, legal)),
                ',"text":',
                encode(str(view)),
                ',"log":',
                story.log_text(seat),
                ',"logs":',
                story.logs_text(seat),
                ',"events":',
                encode(story.events(seat)),
                ',"game_over":',
                _JSON_BOOLS[view.phase is Phase.GAME_OVER],
                f',"version":{self.version:d}}}',
            )
        )

    def _legal(self, seat: int) -> Sequence[Action]:
        """``self.state.view(seat).legal_actions()``, read off the state (the view's
        method asks a state rebuilt from the view for the same answer)."""
        state = self.state
        return state.legal_actions() if state.current_player == seat else ()

    def _frame_fields(self, seat: int, view: PlayerView, legal: Sequence[Action]) -> dict[str, Any]:
        """The fields of :meth:`frame` in order, with ``players``, ``view``, ``log`` and
        ``logs`` None (the callers write those, each in its own way)."""
        return {
            "type": "state",
            "seat": seat,
            "host": seat == self.host,
            "game": self.game_number,
            "players": None,
            "view": None,
            "your_turn": view.current_player == seat,
            "winning": winning_seat(view),
            "offer": offered_card(view, legal),
            "exchange": exchange_options(view, legal),
            "text": str(view),  # the same view as plain text, for screen readers and logs
            "log": None,
            "logs": None,
            "events": self.story.events(seat),
            "game_over": view.phase is Phase.GAME_OVER,
            "version": self.version,
        }

    def public_frame(self) -> dict[str, Any]:
        """What a spectator's page shows: the public view only (no hand, no exchanged
        card, no cut card a seat looked at), the public log, and the seats' names."""
        host_view = self.state.view(self.host)
        view = public_view(host_view.to_dict())
        return {
            "type": "state",
            "seat": None,
            "spectator": True,
            "host": False,
            "game": self.game_number,
            "players": [{"seat": s.number, "name": s.name, "kind": s.kind} for s in self.seats],
            "view": view,
            "your_turn": False,
            "winning": winning_seat(host_view),
            "offer": None,
            "exchange": None,
            "text": "",
            "log": list(self.story.log(None)),
            "logs": {lang: list(log) for lang, log in self.story.translated(None).items()},
            "events": self.story.events(None),
            "game_over": self.state.is_terminal,
            "version": self.version,
        }

    def missed(self, seat: int | None, since: int) -> list[list[dict[str, Any]]]:
        """The events of journal entries ``since`` … now as ``seat`` sees them (None: a
        spectator); a ``!`` entry is one event of type ``table``.

        The events of recent entries are the ones the seat's log was told from
        (:meth:`Story.missed`); older ones are described again from :meth:`trail`.
        """
        kept = self.story.missed(seat, max(since, 0))
        if kept is not None:
            return kept
        return self.described(seat, since)

    def described(self, seat: int | None, since: int) -> list[list[dict[str, Any]]]:
        """:meth:`missed`, every entry described again from :meth:`trail` (the reference)."""
        out: list[list[dict[str, Any]]] = []
        for before, action, after in self.trail(since):
            if action is None:
                out.append([{"type": "table"}])
            elif seat is None:
                out.append(to_dicts(public_events(describe(before, action, after, 0))))
            else:
                out.append(to_dicts(describe(before, action, after, seat)))
        return out


def winning_seat(view: PlayerView) -> int | None:
    """Who is winning the trick on the table so far (R27), None with no trick."""
    return trick_winner(view.trick, view.trump_suit)


def offered_card(view: PlayerView, legal: Sequence[Action]) -> str | None:
    """The Critical offered to this seat in the cut ritual now, if any (R12, R13).

    ``legal`` is ``view.legal_actions()``, computed once per frame (it is not free).
    """
    if view.phase is not Phase.CUT:  # R12: only the ritual offers a Critical
        return None
    if TakeCritical() not in legal and LeaveCritical() not in legal:
        return None
    card: Card | None = view.cut_looks[-1].card
    return None if card is None else str(card)


def exchange_options(view: PlayerView, legal: Sequence[Action]) -> dict[str, Any] | None:
    """What this seat may do in the exchange now (R18–R21), None if it is not deciding.

    ``max`` is the most cards it may give to the stock; ``max_with_trump`` the most it may
    give when taking the trump card (dealer only, R19), None without that option.
    ``legal`` is ``view.legal_actions()``.
    """
    if view.phase is not Phase.EXCHANGE:  # R18: exchanges are decided in that phase only
        return None
    exchanges = [a for a in legal if isinstance(a, Exchange)]
    if not exchanges:
        return None
    plain = [len(a.discard) for a in exchanges if not a.take_trump_card]
    trump = [len(a.discard) for a in exchanges if a.take_trump_card]
    return {
        "max": max(plain),
        "max_with_trump": max(trump) if trump else None,
        "can_fold": Fold() in legal,
    }
