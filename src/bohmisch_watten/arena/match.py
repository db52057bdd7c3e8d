"""Play one arena game: the code that runs in worker processes and on Ray.

Everything here is a pure function of its arguments (the setup and the game's spec),
so a game gives the same result in this process, in a process pool or on a cluster;
only the measured decision times differ.  Bots are built from their specs inside the
worker, so nothing but small values crosses process boundaries.
"""

from __future__ import annotations

import logging
import random
import signal
import sys
import sysconfig
import threading
import time
import traceback
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Final

import attrs

from ..actions import Action
from ..bots.base import Bot
from ..bots.registry import make_bot
from ..engine import Engine
from ..errors import IllegalActionError, counted
from ..events import describe
from ..records import MAX_TAG_CHARS
from ..rules import Rules
from ..state import GameState, new_game
from .schedule import GameSpec

__all__ = [
    "ArenaSetup",
    "DecisionTimeoutError",
    "GameResult",
    "play_game",
    "play_games",
    "warm_up",
]

log = logging.getLogger("bohmisch_watten.arena")


@attrs.frozen
class ArenaSetup:
    """What every game of one arena shares.

    Attributes:
        bots: one bot spec per contestant (see :func:`~bohmisch_watten.bots.make_bot`).
        labels: one label per contestant, as in the table.
        players: seats per game (R1).
        rules: the variants.
        seed: the arena seed; boards and bot generators are derived from it.
        decision_timeout: seconds one decision may take, None for no limit.
        max_deals: a game still running after this many deals is adjudicated.
        keep_records: whether results carry each game's text record.
    """

    bots: tuple[str, ...]
    labels: tuple[str, ...]
    players: int
    rules: Rules
    seed: int
    decision_timeout: float | None = None
    max_deals: int = 500
    keep_records: bool = False


@attrs.frozen
class GameResult:
    """The outcome of one game, seat by seat.

    Attributes:
        index: the game's number (see :class:`~bohmisch_watten.arena.schedule.GameSpec`).
        board: its board.
        seating: per seat, the contestant index.
        scores: final scores per seat.
        winners: the winning seats (R34); a win shared by k counts 1/k.
        losers: the losing seats (R34).
        deals: deals played.
        capped: whether the game hit ``max_deals`` and was adjudicated: the lowest
            score wins, the highest loses.
        forfeit: the seat whose bot raised, returned an illegal action or ran over the
            decision timeout (it alone loses, the others share the win), else None.
        incident: what happened then, for the report: the game, the bot, its seat
            and the reason.
        reason: the forfeit's reason alone: ``raised TYPE: MESSAGE (at FILE:LINE in
            FUNCTION)`` with the bot's own innermost line, ``returned an illegal action
            X (R…: …)`` with the rule, or ``exceeded the decision timeout …``; an
            engine's says how it failed (exited, timed out, wrote garbage or a line over
            the cap, an extra answer, an action not legal).
        decision_seconds: per seat, the time its bot spent deciding.
        decisions: per seat, the decisions its bot made, the forfeited one included
            (a decision that timed out counts with its time).
        decision_ms: per seat, the milliseconds of each decision, in order (for
            medians and percentiles).
        record: the game's record in the library's text format, if asked for.
    """

    index: int
    board: int
    seating: tuple[int, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    losers: tuple[int, ...]
    deals: int
    capped: bool = False
    forfeit: int | None = None
    incident: str | None = None
    reason: str | None = None
    decision_seconds: tuple[float, ...] = ()
    decisions: tuple[int, ...] = ()
    decision_ms: tuple[tuple[float, ...], ...] = ()
    record: str | None = None

    def win_share(self, seat: int) -> float:
        """The share of the win credited to ``seat``: 1/k for one of k winners."""
        return 1.0 / len(self.winners) if seat in self.winners else 0.0


class DecisionTimeoutError(Exception):
    """A bot ran over the arena's decision timeout."""


def _on_alarm(signum: int, frame: object) -> None:
    raise DecisionTimeoutError


@contextmanager
def _time_limit(seconds: float | None) -> Iterator[None]:
    """Interrupt the block after ``seconds`` where signals allow it (main thread, POSIX).

    Elsewhere the block runs to its end and the caller's measured time decides.
    """
    usable = (
        seconds is not None
        and hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
    )
    if not usable:
        yield
        return
    assert seconds is not None
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


_LIBRARY: Final = Path(__file__).resolve().parent.parent
"""The package's own directory: a frame in it is the library's code, not a bot's."""


def _inside(filename: str, folder: Path) -> bool:
    return Path(filename).resolve().is_relative_to(folder)


def _home(bot: Bot) -> Path | None:
    """Where the bot's class lives: its top-level package's folder, or its module's file;
    None for a class of this library (a built-in bot, a wrapped function)."""
    module = sys.modules.get(type(bot).__module__)
    top = sys.modules.get(type(bot).__module__.partition(".")[0])
    path = getattr(top, "__path__", None) or []
    home = Path(next(iter(path))) if path else Path(getattr(module, "__file__", None) or "")
    home = home.resolve()
    if not home.name or home.is_relative_to(_LIBRARY):
        return None
    return home


def _installed(filename: str) -> bool:
    """Whether a frame is the standard library's or an installed package's code."""
    paths = sysconfig.get_paths()
    return any(_inside(filename, Path(paths[key])) for key in ("stdlib", "purelib", "platlib"))


def _authored(filename: str) -> bool:
    """Whether a frame is code somebody wrote beside the bot: a real file, neither this
    library nor installed (``<string>`` and attrs' generated methods are not)."""
    return (
        not filename.startswith("<")
        and not _inside(filename, _LIBRARY)
        and not _installed(filename)
    )


def _shown(filename: str) -> str:
    path = Path(filename)
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:  # outside the working directory
        return filename


def _where(error: BaseException, bot: Bot) -> str:
    """``FILE:LINE in FUNCTION`` of the bot's own innermost frame in ``error``'s traceback
    (an exception the arena caught: at least the arena's own frame is in it).

    The bot's own code first (the module or package of its class), then any code that
    is neither this library nor installed (a wrapped function, the author's helpers),
    then this library's (a built-in bot), then the innermost frame.
    """
    frames = traceback.extract_tb(error.__traceback__)
    home = _home(bot)
    groups = (
        [f for f in frames if home is not None and _inside(f.filename, home)],
        [f for f in frames if _authored(f.filename)],
        [f for f in frames if _inside(f.filename, _LIBRARY)],
        frames,
    )
    frame = next(group for group in groups if group)[-1]
    return f"{_shown(frame.filename)}:{frame.lineno} in {frame.name}"


def _raised(error: Exception, bot: Bot) -> str:
    """The reason of a bot that raised: the exception and, but for an engine (whose
    frames are the host's; its message says how it failed), the bot's line."""
    reason = f"raised {type(error).__name__}: {error}"
    return reason if isinstance(bot, Engine) else f"{reason} (at {_where(error, bot)})"


def _adjudicate(scores: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """At the deal cap: the lowest score wins, the highest loses (nobody if all equal)."""
    low, high = min(scores), max(scores)
    winners = tuple(s for s, score in enumerate(scores) if score == low)
    losers = tuple(s for s, score in enumerate(scores) if score == high and high != low)
    return winners, losers


def _seat_bot(spec: str, decision_timeout: float | None) -> Bot:
    """The bot of one seat; an engine is told the arena's decision time as ``time_ms``."""
    bot = make_bot(spec)
    if isinstance(bot, Engine) and decision_timeout is not None:
        bot = bot.with_timeout(max(1, round(1000 * decision_timeout)))
    return bot


def _limit(bot: Bot, decision_timeout: float | None) -> float | None:
    """Seconds a decision may take: an engine times itself out first (its time plus its
    grace margin, with the reason), the arena's alarm one second later is a backstop."""
    if decision_timeout is None or not isinstance(bot, Engine):
        return decision_timeout
    return decision_timeout + bot.grace_ms / 1000 + 1.0


def play_game(setup: ArenaSetup, spec: GameSpec) -> GameResult:
    """Play the game ``spec`` of the arena ``setup`` and report it.

    The board's generator draws one shuffle per deal (R11), so every game of a board
    sees the same packs whoever sits where; each seat's bot gets its own generator.
    An engine seat (``engine:COMMAND``) gets its own process for this game: it is told
    ``new_game`` and the seat's events, and its process is reaped when the game ends,
    however it ends.
    """
    bots = [_seat_bot(setup.bots[c], setup.decision_timeout) for c in spec.seating]
    try:
        return _play(setup, spec, bots)
    finally:
        for bot in bots:
            if isinstance(bot, Engine):
                bot.close()


def _tell(engines: dict[int, Engine], before: GameState, action: Action, after: GameState) -> None:
    for seat, engine in engines.items():
        engine.observe(describe(before, action, after, observer=seat))


def _play(setup: ArenaSetup, spec: GameSpec, bots: list[Bot]) -> GameResult:
    n = setup.players
    board = random.Random(f"{setup.seed}:board:{spec.board}")
    rngs = [random.Random(f"{setup.seed}:game:{spec.index}:seat:{s}") for s in range(n)]
    limits = [_limit(bot, setup.decision_timeout) for bot in bots]
    times: list[list[float]] = [[] for _ in range(n)]
    seconds = [0.0] * n
    state: GameState = new_game(n, rules=setup.rules, dealer=0)
    engines = {seat: bot for seat, bot in enumerate(bots) if isinstance(bot, Engine)}
    for place, engine in engines.items():  # a failure here surfaces at its first decision
        engine.new_game(n, place, setup.rules, state.position, rngs[place].getrandbits(31))
    capped = False
    forfeit: int | None = None
    reason: str | None = None
    while not state.is_terminal:
        if state.is_chance_node:
            if state.deal_number > setup.max_deals:
                capped = True
                break
            shuffle = state.sample_chance(board)
            after = state.apply(shuffle)
            _tell(engines, state, shuffle, after)
            state = after
            continue
        mover = state.current_player
        assert mover is not None  # neither a chance node nor the end
        seat = mover
        view = state.view(seat)
        start = time.perf_counter()
        limit = limits[seat]
        try:
            with _time_limit(limit):
                action = bots[seat].choose(view, rngs[seat])
            elapsed = time.perf_counter() - start
            if limit is not None and elapsed > limit:
                raise DecisionTimeoutError
        except DecisionTimeoutError:
            elapsed = time.perf_counter() - start
            reason = (
                f"exceeded the decision timeout of {setup.decision_timeout} s"
                f" (stopped after {1000 * elapsed:.0f} ms)"
            )
        except Exception as error:  # any bug of the bot: it loses this game
            elapsed = time.perf_counter() - start
            reason = _raised(error, bots[seat])
        seconds[seat] += elapsed  # a forfeited decision counts with its time
        times[seat].append(1000 * elapsed)
        if reason is None:
            try:
                after = state.apply(action)
            except IllegalActionError as error:  # the bot's answer, not its code: no line
                shown = str(action) if isinstance(action, Action) else repr(action)
                reason = f"returned an illegal action {shown[:80]} ({error})"
        if reason is not None:
            forfeit = seat
            break
        _tell(engines, state, action, after)
        state = after
    incident: str | None = None
    if forfeit is not None:
        label = setup.labels[spec.seating[forfeit]]
        incident = f"game {spec.index}: {label} (seat {forfeit}) {reason}"
        log.warning("forfeit: %s", incident)  # once per game; the table sums them up
        winners = tuple(s for s in range(n) if s != forfeit)
        losers: tuple[int, ...] = (forfeit,)
    elif capped:
        winners, losers = _adjudicate(state.scores)
    else:
        winners, losers = state.winners, state.losers
    return GameResult(
        index=spec.index,
        board=spec.board,
        seating=spec.seating,
        scores=state.scores,
        winners=winners,
        losers=losers,
        deals=state.deal_number - 1 if capped else state.deal_number,
        capped=capped,
        forfeit=forfeit,
        incident=incident,
        reason=reason,
        decision_seconds=tuple(seconds),
        decisions=tuple(len(seat_times) for seat_times in times),
        decision_ms=tuple(tuple(seat_times) for seat_times in times),
        record=_record_text(setup, spec, state, winners, losers, forfeit, capped)
        if setup.keep_records
        else None,
    )


def _tag_value(text: str) -> str:
    """A text as a record tag's value: one line, no ``#`` (a comment in the text form)."""
    return " ".join(text.replace("#", "%23").split())[:MAX_TAG_CHARS]


def _record_text(
    setup: ArenaSetup,
    spec: GameSpec,
    state: GameState,
    winners: tuple[int, ...],
    losers: tuple[int, ...],
    forfeit: int | None,
    capped: bool,
) -> str:
    """The game's text record, its tags naming the arena, the game and each seat's bot."""
    ends = f"winners {' '.join(map(str, winners))}; losers {' '.join(map(str, losers))}"
    if forfeit is not None:
        ends = f"seat {forfeit} forfeits; {ends}"
    elif capped:
        ends = f"adjudicated after {counted(setup.max_deals, 'deal')}; {ends}"
    tags = {
        "event": f"bohmisch_watten arena, seed {setup.seed}",
        "round": str(spec.index),
        "board": str(spec.board),
        **{f"seat{s}": _tag_value(setup.bots[c]) for s, c in enumerate(spec.seating)},
        "result": _tag_value(ends),
    }
    return state.record().with_tags(tags).to_text()


def warm_up(players: int, rules: Rules) -> None:
    """Build the library's shared tables in this process before any decision is timed.

    Some tables are built on first use, once per process: the exchanges of a hand, for
    one, are shared action objects whose first use costs tens of milliseconds.  Timed
    inside the first exchange a bot decides in a worker, that cost was charged to that
    bot — to ``random`` as 30 ms or more a decision in a run whose games ended early,
    when an engine forfeited.  One deal of random legal actions, every one asked of the
    mover's view as a bot asks it, builds them all; afterwards it costs about a
    millisecond, once per batch.
    """
    rng = random.Random(0)
    state = new_game(players, rules=rules)
    while state.deal_number == 1 and not state.is_terminal:
        if state.is_chance_node:
            state = state.apply(state.sample_chance(rng))
        else:
            assert state.current_player is not None
            state = state.apply(rng.choice(state.view(state.current_player).legal_actions()))


def play_games(setup: ArenaSetup, specs: Sequence[GameSpec]) -> list[GameResult]:
    """Play a batch of games: the unit of work sent to a worker process or a Ray task.

    The process is warmed up first (:func:`warm_up`), so that no bot's decision time
    holds the library's one-time costs.
    """
    warm_up(setup.players, setup.rules)
    return [play_game(setup, spec) for spec in specs]
