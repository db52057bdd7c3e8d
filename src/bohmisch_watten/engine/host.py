"""The host side: an engine program as a :class:`~bohmisch_watten.bots.Bot`.

:class:`Engine` starts the program, speaks protocol 1 or 2 (the engine's choice) with it over its
stdin and stdout and turns every way it can misbehave into an :class:`EngineError` that says what
happened, raised by :meth:`Engine.choose` (the only place a bot can fail), so the arena
forfeits the seat with that reason instead of hanging or crashing.

Reading never blocks without a deadline: the engine's stdout is non-blocking and read
through a selector into a buffer capped at
:data:`~bohmisch_watten.engine.protocol.MAX_LINE_BYTES`; writes have deadlines too,
so an engine that stops reading cannot stall the host.  The engine runs in its own
session (process group); closing the engine sends ``quit``, waits briefly, then kills
the whole group, so helper processes an engine started do not outlive it.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import random
import selectors
import shlex
import signal
import subprocess
import tempfile
import time
import weakref
from collections.abc import Iterable, Mapping, Sequence
from typing import IO, Any, Final

from ..actions import Action
from ..events import Event
from ..notation import parse_action, parse_json
from ..position import Position
from ..rules import Rules
from ..views import PlayerView
from .protocol import (
    GRACE_MS,
    MAX_LINE_BYTES,
    PROTOCOLS,
    DecideEncoder,
    encode,
    event_message,
    hello_message,
    new_game_message,
    options_message,
    quit_message,
)

__all__ = [
    "Engine",
    "EngineError",
    "EngineExitedError",
    "EngineProtocolError",
    "EngineTimeoutError",
]

_MAX_DEPTH: Final = 16
"""The deepest nesting of an engine's answer (its options and actions are shallow)."""

log: Final = logging.getLogger("bohmisch_watten.engine")

QUIT_WAIT_S: Final = 1.0
"""How long :meth:`Engine.close` waits for the engine to exit after ``quit``."""
_QUEUE_BYTES: Final = 1 << 16
"""Queued messages (``new_game``, ``event``) beyond this size are written at once."""
STDERR_LINES: Final = 20
"""How many of its last stderr lines a failed engine's reason quotes (a stack trace's
end: the exception's type and message)."""
_STDERR_TAIL: Final = 4096
"""The most bytes of stderr read for those lines, so a reason stays short."""
_STDERR_LINE: Final = 200
_SNIPPET: Final = 80


class EngineError(Exception):
    """An engine failed; the message says how (the reason of an arena forfeit)."""


class EngineExitedError(EngineError):
    """The engine could not be started, or exited (or closed its stdout) too early."""


class EngineTimeoutError(EngineError):
    """The engine did not answer within its time plus the grace margin."""


class EngineProtocolError(EngineError):
    """The engine wrote something the protocol does not allow: garbage, a line over
    the cap, a message nobody asked for, a wrong version, or an action not legal."""


def _snippet(data: bytes | str) -> str:
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    return repr(text[:_SNIPPET]) + ("…" if len(text) > _SNIPPET else "")


def _reap(process: subprocess.Popen[bytes]) -> None:
    """Kill the engine's process group and collect the exit status (idempotent)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        process.wait()
    for pipe in (process.stdin, process.stdout):
        if pipe is not None:
            with contextlib.suppress(OSError):
                pipe.close()


def _positive_int(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"Engine: {name} must be an int, got {type(value).__name__}")
    if value < 1:
        raise ValueError(f"Engine: {name} must be at least 1, got {value}")
    return value


class Engine:
    """A bot played by another program over the engine protocol (``docs/engine-protocol.md``).

    The constructor only records the command, so an engine is a cheap value that can be
    pickled to a worker; the process starts at the first message (or at once with
    :meth:`popen`).  Use it as a context manager, or call :meth:`close`: either way the
    process is reaped; an engine dropped without closing is killed when it is
    garbage-collected or at interpreter exit.

    One engine process plays one seat at a time.  Before the first decision of a game
    the host sends ``new_game`` (explicitly with :meth:`new_game`, or from the first
    view :meth:`choose` sees; a view of another seat or of an earlier point of play
    starts a new game too).

    Args:
        command: the program and its arguments, a sequence or one shell-like string
            (split with :func:`shlex.split`, no shell involved).
        timeout_ms: the ``time_ms`` of every ``decide``; the host waits this plus
            ``grace_ms`` for the answer.
        grace_ms: see :data:`~bohmisch_watten.engine.protocol.GRACE_MS`.
        hello_timeout_ms: how long the engine may take to start and answer ``hello``.
        options: values for the engine's declared options, sent after ``hello``.
        max_line_bytes: the longest line read from the engine.

    Raises:
        TypeError: naming the argument, for a wrong type.
        ValueError: for an empty command or a bad number.
    """

    def __init__(
        self,
        command: Sequence[str] | str,
        *,
        timeout_ms: int = 1000,
        grace_ms: int = GRACE_MS,
        hello_timeout_ms: int = 10_000,
        options: Mapping[str, object] | None = None,
        max_line_bytes: int = MAX_LINE_BYTES,
    ) -> None:
        if isinstance(command, str):
            argv = shlex.split(command)
        elif isinstance(command, Sequence) and all(isinstance(arg, str) for arg in command):
            argv = list(command)
        else:
            raise TypeError("Engine: command must be a string or a sequence of strings")
        if not argv:
            raise ValueError("Engine: command is empty")
        if options is not None and not isinstance(options, Mapping):
            raise TypeError(f"Engine: options must be a mapping, got {type(options).__name__}")
        self.command: tuple[str, ...] = tuple(argv)
        self.timeout_ms = _positive_int("timeout_ms", timeout_ms)
        if isinstance(grace_ms, bool) or not isinstance(grace_ms, int):
            raise TypeError(f"Engine: grace_ms must be an int, got {type(grace_ms).__name__}")
        if grace_ms < 0:
            raise ValueError(f"Engine: grace_ms must not be negative, got {grace_ms}")
        self.grace_ms = grace_ms
        self.hello_timeout_ms = _positive_int("hello_timeout_ms", hello_timeout_ms)
        self.options: dict[str, object] = dict(options or {})
        self.max_line_bytes = _positive_int("max_line_bytes", max_line_bytes)
        self.name: str | None = None
        """The engine's name from its ``hello`` (None before it answered)."""
        self.author: str | None = None
        self.declared_options: dict[str, Any] = {}
        """The options the engine declared in its ``hello``."""
        self.protocol: int | None = None
        """The protocol the engine chose in its ``hello`` (None before it answered)."""
        self.warnings: list[str] = []
        """Warnings the engine reported in its answers (unknown options, …)."""
        self._process: subprocess.Popen[bytes] | None = None
        self._stderr: IO[bytes] | None = None
        self._selector: selectors.BaseSelector | None = None
        self._buffer = bytearray()
        self._failure: EngineError | None = None
        self._game: tuple[int, int, Rules] | None = None
        self._progress: tuple[int, ...] = ()
        self._finalizer: weakref.finalize[Any, Any] | None = None
        self._decide = DecideEncoder()
        self._pending = bytearray()

    @classmethod
    def popen(cls, command: Sequence[str] | str, **kwargs: Any) -> Engine:
        """Start ``command`` now and shake hands; the keywords are those of the class.

        Raises:
            EngineError: if the engine does not start or answer ``hello`` properly.
        """
        engine = cls(command, **kwargs)
        engine.start()
        return engine

    def with_timeout(self, timeout_ms: int) -> Engine:
        """The same engine configuration with another ``time_ms`` (not started)."""
        return Engine(
            self.command,
            timeout_ms=timeout_ms,
            grace_ms=self.grace_ms,
            hello_timeout_ms=self.hello_timeout_ms,
            options=self.options,
            max_line_bytes=self.max_line_bytes,
        )

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickles as its configuration: the copy starts its own process when used."""
        return (_rebuild, (self.command, self._config()))

    def _config(self) -> dict[str, Any]:
        return {
            "timeout_ms": self.timeout_ms,
            "grace_ms": self.grace_ms,
            "hello_timeout_ms": self.hello_timeout_ms,
            "options": self.options,
            "max_line_bytes": self.max_line_bytes,
        }

    def __repr__(self) -> str:
        return f"Engine({shlex.join(self.command)!r}, timeout_ms={self.timeout_ms})"

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @property
    def pid(self) -> int | None:
        """The engine's process id (also its process group id), None when not running."""
        return None if self._process is None else self._process.pid

    # ------------------------------------------------------------------ life cycle

    def start(self) -> None:
        """Start the process and shake hands, unless that happened already.

        Raises:
            EngineError: the reason the engine cannot play (it is closed then).
        """
        if self._failure is not None:
            raise self._failure
        if self._process is not None:
            return
        try:
            self._spawn()
            reply = self._ask(hello_message(), "hello", self.hello_timeout_ms, "hello")
            protocol = reply.get("protocol")
            if isinstance(protocol, bool) or protocol not in PROTOCOLS:
                raise EngineProtocolError(
                    f"speaks protocol {_snippet(json.dumps(protocol))},"
                    f" not one of {', '.join(map(str, PROTOCOLS))}"
                )
            self.protocol = protocol
            self._decide = DecideEncoder(protocol)
            name, author = reply.get("name"), reply.get("author")
            self.name = name if isinstance(name, str) else None
            self.author = author if isinstance(author, str) else None
            declared = reply.get("options")
            self.declared_options = declared if isinstance(declared, dict) else {}
            if self.options:
                self._send(options_message(self.options), self.hello_timeout_ms)
        except EngineError as error:
            self._fail(error)
            raise

    def close(self) -> None:
        """Send ``quit`` and close the engine's stdin, give it :data:`QUIT_WAIT_S` to
        exit, then kill its process group and reap it.  Safe to call twice; never raises."""
        self._stop(polite=self._failure is None)

    def _stop(self, *, polite: bool) -> None:
        process = self._process
        if process is None:
            return
        if polite and process.poll() is None:
            with contextlib.suppress(EngineError, OSError):
                self._flush("quit", encode(quit_message()))
            with contextlib.suppress(OSError):
                assert process.stdin is not None
                process.stdin.close()  # the end of input: the other way to say quit
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(QUIT_WAIT_S)
        if self._finalizer is not None:
            self._finalizer()
        if self._selector is not None:
            self._selector.close()
        if self._stderr is not None:
            self._stderr.close()
        self._process = self._selector = self._stderr = None
        self._game = None

    def _spawn(self) -> None:
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 -- closed by close()
        try:
            process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr,
                bufsize=0,
                start_new_session=True,  # its own process group: close() kills it whole
            )
        except OSError as error:
            raise EngineExitedError(f"could not start {self.command[0]!r}: {error}") from None
        assert process.stdin is not None
        assert process.stdout is not None
        self._process = process
        self._finalizer = weakref.finalize(self, _reap, process)
        os.set_blocking(process.stdin.fileno(), False)
        os.set_blocking(process.stdout.fileno(), False)
        self._selector = selectors.DefaultSelector()
        self._selector.register(process.stdout, selectors.EVENT_READ)
        self._buffer.clear()

    def _fail(self, error: EngineError) -> None:
        """Remember ``error`` (every later call raises it), log it, stop the process."""
        self._failure = error
        log.warning("engine %s: %s", shlex.join(self.command), error)
        self._stop(polite=False)  # a failed engine gets no second chance to stall

    # ----------------------------------------------------------------- game events

    def new_game(
        self,
        players: int,
        seat: int,
        rules: Rules,
        position: Position,
        seed: int | None = None,
    ) -> None:
        """Tell the engine it plays ``seat`` of a game from ``position``.

        A failure is remembered and raised by the next :meth:`choose`, the one place
        where a bot may fail.
        """
        self._game = (players, seat, rules)
        self._progress = ()
        self._notify(new_game_message(players, seat, rules, position, seed))
        self._decide = DecideEncoder(self.protocol or 1)

    def observe(self, events: Iterable[Event]) -> None:
        """Tell the engine the seat's events (seen by this engine's seat, see
        :func:`~bohmisch_watten.events.describe`).

        Like ``new_game`` they are written with the next ``decide`` (or ``quit``), in
        order; failures wait for :meth:`choose`.
        """
        if self._game is not None:
            self._notify(event_message(events))

    def _notify(self, message: dict[str, Any]) -> None:
        """Queue a message that needs no answer; it goes out with the next question.

        One write per decision instead of one per event saves the engine a wake-up per
        action; a long queue is written at once, so it stays small.
        """
        try:
            self.start()
            self._pending += encode(message)
            if len(self._pending) > _QUEUE_BYTES:
                self._flush("event")
        except EngineError as error:
            if self._failure is None:
                self._fail(error)

    def _flush(self, during: str, then: bytes = b"") -> None:
        data, self._pending = bytes(self._pending) + then, bytearray()
        self._send(data, self.timeout_ms + self.grace_ms, during)

    # ------------------------------------------------------------------- deciding

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """The engine's answer to ``decide`` for ``view``: one of its legal actions.

        Raises:
            TypeError: if ``view`` is not a PlayerView.
            ValueError: if the seat of ``view`` is not to act.
            EngineError: how the engine failed (it cannot play on afterwards).
        """
        if not isinstance(view, PlayerView):
            raise TypeError(f"Engine.choose: view must be a PlayerView, got {type(view).__name__}")
        if view.current_player != view.player:
            raise ValueError(f"Engine.choose: seat {view.player} is not to act in this view")
        if self._failure is not None:
            raise self._failure
        progress = (
            view.deal_number,
            view.tricks_completed,
            len(view.trick),
            *(-score for score in view.scores),
        )
        game = (view.num_players, view.player, view.rules)
        if self._game != game or progress < self._progress:
            seed = rng.getrandbits(31)
            self.new_game(view.num_players, view.player, view.rules, view.position, seed)
            if self._failure is not None:
                raise self._failure
        self._progress = progress
        line, legal = self._decide.encode(view, self.timeout_ms)
        try:
            self._unexpected()
            line, self._pending = bytes(self._pending) + line, bytearray()
            reply = self._ask(line, "action", self.timeout_ms + self.grace_ms, "decide")
            if self._buffer:
                raise EngineProtocolError(
                    f"wrote {_snippet(bytes(self._buffer))} after its answer (an extra answer)"
                )
            return self._action(reply, legal, view)
        except EngineError as error:
            self._fail(error)
            raise

    def _action(self, reply: dict[str, Any], legal: list[str], view: PlayerView) -> Action:
        text = reply.get("action")
        if not isinstance(text, str) or text not in legal:
            shown = ", ".join(legal[:8]) + (", …" if len(legal) > 8 else "")
            raise EngineProtocolError(
                f"answered action {_snippet(json.dumps(text))}, which is not one of the"
                f" {len(legal)} legal actions ({shown})"
            )
        action = parse_action(text)
        assert view.is_legal(action)  # legal holds the notation of the legal actions
        return action

    # ------------------------------------------------------------------- the pipes

    def _exited(self, during: str) -> EngineExitedError:
        process = self._process
        assert process is not None
        try:
            status: int | None = process.wait(0.5)
        except subprocess.TimeoutExpired:
            status = None
        what = "closed its stdout" if status is None else f"exited with status {status}"
        return EngineExitedError(f"{what} during {during}{self._stderr_tail()}")

    def _stderr_tail(self) -> str:
        """The last :data:`STDERR_LINES` lines of the engine's stderr, indented under a
        heading, or nothing if it wrote none."""
        assert self._stderr is not None  # opened with the process
        self._stderr.seek(0, os.SEEK_END)
        size = self._stderr.tell()
        self._stderr.seek(max(0, size - _STDERR_TAIL))
        data = self._stderr.read()
        if size > _STDERR_TAIL:  # the first line read is a fragment
            data = data.partition(b"\n")[2]
        lines = data.decode("utf-8", "replace").rstrip().splitlines()[-STDERR_LINES:]
        lines = [line.rstrip()[:_STDERR_LINE] for line in lines]
        while lines and not lines[0].strip():
            del lines[0]
        if not lines:
            return ""
        return "; its stderr ends:\n" + "\n".join("    " + line for line in lines)

    def _send(
        self, message: dict[str, Any] | bytes, timeout_ms: int, during: str | None = None
    ) -> None:
        """Write a message (a dict, or lines already encoded) within ``timeout_ms``."""
        process = self._process
        assert process is not None
        assert process.stdin is not None
        line = message if isinstance(message, bytes) else encode(message)
        data = memoryview(line)
        deadline = time.monotonic() + timeout_ms / 1000
        fd = process.stdin.fileno()
        during = during or _type_of(line)
        with selectors.DefaultSelector() as writable:
            writable.register(fd, selectors.EVENT_WRITE)
            while data:
                try:
                    written = os.write(fd, data)
                except BlockingIOError:
                    written = 0
                except (BrokenPipeError, ConnectionResetError):
                    raise self._exited(during) from None
                data = data[written:]
                if data:
                    remaining = deadline - time.monotonic()
                    if remaining <= 0 or not writable.select(remaining):
                        raise EngineTimeoutError(
                            f"stopped reading its input (the {during} message could not"
                            f" be written within {timeout_ms} ms)"
                        )

    def _fill(self, timeout_s: float, during: str) -> bool:
        """Read what the engine wrote within ``timeout_s``; False if nothing came."""
        process = self._process
        assert process is not None
        assert process.stdout is not None
        assert self._selector is not None
        if timeout_s > 0 and not self._selector.select(timeout_s):
            return False
        try:
            data = os.read(process.stdout.fileno(), 1 << 16)
        except BlockingIOError:
            return False
        if not data:
            raise self._exited(during)
        self._buffer += data
        return True

    def _line(self) -> bytes | None:
        """The next complete line of the buffer (without ``\\n``), if any."""
        end = self._buffer.find(b"\n")
        if end > self.max_line_bytes or (end < 0 and len(self._buffer) > self.max_line_bytes):
            raise EngineProtocolError(
                f"wrote a line longer than the cap of {self.max_line_bytes} bytes"
            )
        if end < 0:
            return None
        line = bytes(self._buffer[:end])
        del self._buffer[: end + 1]
        return line

    def _unexpected(self) -> None:
        """Before a question: anything the engine wrote unasked is a protocol error."""
        with contextlib.suppress(EngineExitedError):  # the write will say so
            while self._fill(0, "idle"):
                pass
        line = self._line()
        if line is not None or self._buffer:
            raise EngineProtocolError(
                f"wrote {_snippet(line if line is not None else bytes(self._buffer))}"
                " when no answer was due (an extra answer)"
            )

    def _ask(
        self, message: dict[str, Any] | bytes, expect: str, timeout_ms: int, during: str
    ) -> Any:
        """Send ``message`` and read its answer, a JSON object of type ``expect``."""
        deadline = time.monotonic() + timeout_ms / 1000
        self._send(message, timeout_ms, during)
        line = self._line()
        while line is None:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not self._fill(remaining, during):
                raise EngineTimeoutError(
                    f"did not answer {during} within {timeout_ms} ms"
                    + (f" ({self.timeout_ms} ms + {self.grace_ms} ms grace)"
                       if during == "decide" else "")
                )  # fmt: skip
            line = self._line()
        try:  # the one hardened parser: a repeated key or NaN is no JSON either
            reply = parse_json(
                line, "the answer", max_chars=self.max_line_bytes, max_depth=_MAX_DEPTH
            )
        except ValueError:
            raise EngineProtocolError(
                f"answered {during} with {_snippet(line)}, not JSON"
            ) from None
        if not isinstance(reply, dict) or reply.get("type") != expect:
            raise EngineProtocolError(
                f"answered {during} with {_snippet(line)}, not a {expect!r} message"
            )
        warnings = reply.get("warnings")
        if isinstance(warnings, list):
            for warning in warnings:
                text = str(warning)[:200]
                self.warnings.append(text)
                log.warning("engine %s warns: %s", shlex.join(self.command), text)
        return reply


def _type_of(line: bytes) -> str:
    """The ``type`` of a line the host wrote (its first key, by :func:`encode`)."""
    return line[9 : line.index(b'"', 9)].decode("ascii")


def _rebuild(command: tuple[str, ...], config: dict[str, Any]) -> Engine:
    return Engine(command, **config)
