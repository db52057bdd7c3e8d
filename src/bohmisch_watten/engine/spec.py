"""Engine bot specs: ``engine:COMMAND ARGS`` and ``engine[KEY=VALUE ...]:COMMAND ARGS``.

A spec names a program to run, so it is split like a shell would split it, without
running a shell: :func:`shlex.split` (POSIX rules: quotes group words, a backslash
escapes), and the program is looked up as a shell would (a name on ``PATH``, a path
with a ``/`` relative to the working directory).  A program that cannot be found is
refused at once, before any game is played.

Engine options (the settings an engine declares in its ``hello``) cannot follow the
command after colons, since a command may contain any character; they go in brackets
between ``engine`` and the colon, split the same way, each ``KEY=VALUE``.  A value is
read as JSON when it is a JSON number, ``true``, ``false``, ``null`` or a quoted JSON
string, and as text otherwise: ``engine[depth=3 style=calm]:./my-engine --fast``.

A list of specs (``arena --bots``) is split at the commas outside quotes and brackets
(:func:`split_specs`), so a command may hold a quoted comma.
"""

from __future__ import annotations

import json
import shlex
import shutil
from typing import Final

from .host import Engine

__all__ = ["ENGINE_PREFIXES", "engine_from_spec", "is_engine_spec", "split_specs"]

ENGINE_PREFIXES: Final = ("engine:", "engine[")
"""How an engine spec starts (in any case)."""


def is_engine_spec(spec: str) -> bool:
    """Whether ``spec`` names an engine (``engine:`` or ``engine[``), not a bot class."""
    return spec.strip().lower().startswith(ENGINE_PREFIXES)


def _value(text: str) -> object:
    """An option's value: JSON if it is a JSON scalar, else the text itself."""
    try:
        value = json.loads(text)
    except ValueError:
        return text
    return value if isinstance(value, (int, float, str, bool)) or value is None else text


def _options(text: str, spec: str) -> dict[str, object]:
    try:
        words = shlex.split(text)
    except ValueError as error:
        raise ValueError(f"engine: bad options in {spec!r}: {error}") from None
    options: dict[str, object] = {}
    for word in words:
        key, sep, value = word.partition("=")
        if not sep or not key.strip():
            raise ValueError(
                f"engine: option {word!r} is not KEY=VALUE"
                " (e.g. engine[depth=3 style=calm]:./my-engine)"
            )
        if key in options:
            raise ValueError(f"engine: option {key!r} is given twice")
        options[key] = _value(value)
    return options


def engine_from_spec(spec: str) -> Engine:
    """The :class:`Engine` a spec names, not started; see the module docs.

    Raises:
        TypeError: if ``spec`` is not a string.
        ValueError: for a spec that is no engine spec, unbalanced quotes or brackets,
            an option that is not ``KEY=VALUE``, no command, or a program that cannot
            be found.
    """
    if not isinstance(spec, str):
        raise TypeError(f"engine_from_spec: spec must be a string, got {type(spec).__name__}")
    text = spec.strip()
    if not is_engine_spec(text):
        raise ValueError(f"not an engine spec: {spec!r} (engine:COMMAND ARGS)")
    rest = text[len("engine") :]
    options: dict[str, object] = {}
    if rest.startswith("["):
        end = rest.find("]:")
        if end < 0:
            raise ValueError(
                f"engine: no ']:' closes the options of {spec!r}"
                " (engine[KEY=VALUE ...]:COMMAND ARGS)"
            )
        options = _options(rest[1:end], spec)
        rest = rest[end + 1 :]
    command = rest[1:]
    try:
        argv = shlex.split(command)
    except ValueError as error:
        raise ValueError(f"engine: bad command {command!r}: {error}") from None
    if not argv:
        raise ValueError("engine: needs a command, e.g. engine:./my-engine --flag")
    if shutil.which(argv[0]) is None:
        raise ValueError(
            f"engine: {argv[0]!r} is not an executable program (a name on PATH, or a"
            " path with a '/' from the working directory, with its execute bit set)"
        )
    return Engine(argv, options=options or None)


def split_specs(text: str) -> list[str]:
    """Split a comma-separated list of bot specs at the commas outside quotes and
    brackets, stripping each spec and dropping empty ones.

    >>> from bohmisch_watten.engine.spec import split_specs
    >>> split_specs("engine:./e --names 'a,b',random")
    ["engine:./e --names 'a,b'", 'random']

    Raises:
        ValueError: for an unclosed quote or bracket (the spec is named).
    """
    specs: list[str] = []
    current: list[str] = []
    quote: str | None = None
    depth = 0
    escaped = False
    for char in text:
        if escaped:
            escaped = False
        elif char == "\\" and quote != "'":
            escaped = True
        elif quote is not None:
            if char == quote:
                quote = None
        elif char in "'\"":
            quote = char
        elif char == "[":
            depth += 1
        elif char == "]" and depth:
            depth -= 1
        elif char == "," and not depth:
            specs.append("".join(current))
            current = []
            continue
        current.append(char)
    if quote is not None or depth:
        what = "quotation" if quote is not None else "bracket"
        raise ValueError(f"no closing {what} in bot spec {''.join(current).strip()!r}")
    specs.append("".join(current))
    return [spec.strip() for spec in specs if spec.strip()]
