"""Bots by name, for command lines and configuration: ``make_bot("search:rollouts=60")``."""

from __future__ import annotations

from pathlib import Path
from typing import Final

import attrs

from ..engine.spec import engine_from_spec
from ._loading import convert_parameters, is_file_spec, load_file_object, load_object
from .base import Bot
from .expert import ExpertBot
from .function_bot import FunctionBot
from .heuristic import HeuristicBot
from .random_bot import RandomBot
from .search import SearchBot

__all__ = ["BOT_NAMES", "bot_spec", "make_bot"]

_CLASSES: Final[dict[str, type]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "search": SearchBot,
    "expert": ExpertBot,
}
BOT_NAMES: Final = tuple(_CLASSES)
"""The names :func:`make_bot` knows."""


def _target(name: str, params: list[str]) -> tuple[object, list[str]]:
    """The class (or function) a spec's name part names, and the parameters left.

    ``./file.py:Class`` takes the class name from the first parameter; the loading
    and its error messages live in :mod:`bohmisch_watten.bots._loading`.
    """
    known = _CLASSES.get(name.lower())
    if known is not None:
        return known, params
    if is_file_spec(name):
        attribute = params[0].strip() if params else ""
        if "=" in attribute:
            attribute = ""
        return load_file_object(name, attribute), params[1:] if attribute else params
    if "." not in name:
        raise ValueError(
            f"unknown bot {name!r} (known: {', '.join(BOT_NAMES)}, or a dotted class path"
            " package.module.Class, a file ./file.py:Class, engine:COMMAND)"
            + _file_hint(name, params)
        )
    return load_object(name), params


def _file_hint(name: str, params: list[str]) -> str:
    """``mybot:Clever`` where ``./mybot.py`` exists: the spec the author meant."""
    if not name or not Path(f"{name}.py").is_file():
        return ""
    first = params[0].strip() if params else ""
    attribute = first if first and "=" not in first else "ClassName"
    return f"; ./{name}.py is here: did you mean ./{name}.py:{attribute}?"


def _label(name: str, target: object) -> str:
    """How messages name the bot: a file spec with its class (``./mybot.py:Clever``)."""
    if is_file_spec(name):
        return f"{name}:{getattr(target, '__name__', '?')}"
    return name


def _engine(spec: str) -> Bot:
    """``engine:COMMAND ARGS`` or ``engine[KEY=VALUE ...]:COMMAND ARGS``: a program
    speaking the engine protocol, started when used."""
    return engine_from_spec(spec)


def _policy(path: str) -> Bot:
    """``policy:PATH``: a network trained by examples/train_policy.py (PyTorch, lazily)."""
    try:
        from .learned import PolicyBot  # torch is the optional extra [train]
    except ImportError:
        raise ImportError(
            "policy: needs PyTorch, the extra [train]: pip install 'bohmisch-watten[train]'"
        ) from None
    if not path:
        raise ValueError("policy: needs a checkpoint path, e.g. policy:runs/policy.pt")
    return PolicyBot(path)


def make_bot(spec: str) -> Bot:
    """The bot a spec names: ``name`` or ``name:field=value:field=value``.

    ``name`` is one of :data:`BOT_NAMES`, the dotted path of your own bot class
    (``mypackage.bots.Clever``) or a file and a class (``./mybot.py:Clever``), which
    is called with the fields as keyword arguments, so the arena can measure any bot.
    Each value is converted to the constructor's annotation of its parameter (``int``,
    ``float``, ``bool``, ``str``, ``X | None``, ``Literal[...]``, an enum), and a
    parameter the constructor does not take is refused; a parameter without an
    annotation gets an int, a float or the text.  A plain function
    ``(view, rng) -> Action`` named the same way is wrapped in a
    :class:`~bohmisch_watten.bots.function_bot.FunctionBot`.  When loading fails the
    message says why: no such module on ``sys.path``, the module's own import failed
    (with its message), no such name, or not a class.  ``engine:COMMAND ARGS`` is a program
    speaking the engine protocol (:class:`~bohmisch_watten.engine.Engine`; the command
    is split like a shell would, without running one; engine options go in brackets,
    ``engine[depth=3]:COMMAND``, see :mod:`bohmisch_watten.engine.spec`).  ``policy:PATH`` is a
    :class:`~bohmisch_watten.bots.learned.PolicyBot` playing from a checkpoint of
    ``examples/train_policy.py`` (extra ``[train]``; without PyTorch, ImportError).

    >>> from bohmisch_watten.bots import make_bot
    >>> make_bot("search:rollouts=60:rollout=random")
    SearchBot(rollouts=60, time_ms=None, max_candidates=6, rollout='random')

    Raises:
        TypeError: if ``spec`` is not a string.
        ValueError: for an unknown name or field, or a bad value (naming it).
        ImportError: for ``policy:`` without PyTorch (it names the extra).
    """
    if not isinstance(spec, str):
        raise TypeError(f"make_bot: spec must be a string, got {type(spec).__name__}")
    kind, sep, command = spec.strip().partition(":")
    if spec.strip().lower().startswith(("engine:", "engine[")):
        return _engine(spec)
    if sep and kind.strip().lower() == "policy":
        return _policy(command.strip())
    name, *params = spec.strip().split(":")
    target, params = _target(name.strip(), params)
    name = _label(name.strip(), target)
    if not isinstance(target, type):
        if not callable(target) or params:
            what = "a function" if callable(target) else f"a {type(target).__name__}"
            raise ValueError(
                f"bot {name!r} is {what}, not a bot class (a class with choose(view, rng))"
                + (" and takes no parameters" if callable(target) else "")
            )
        return FunctionBot(target)  # a plain (view, rng) -> Action function
    kwargs = convert_parameters(target, name, params)
    try:
        bot: Bot = target(**kwargs)
    except TypeError as error:
        raise ValueError(f"bot {name!r}: {error}") from None
    if not isinstance(bot, Bot):
        raise ValueError(f"bot {name!r} has no choose(view, rng) method")
    return bot


def _spec_value(value: object) -> str:
    """A field's value as the text :func:`make_bot` converts back to it ("None" too)."""
    if isinstance(value, bool):
        return "1" if value else "0"  # read back by an annotation of bool or of object
    return str(value)


def bot_spec(bot: object) -> str:
    """The spec that names ``bot`` for people: ``"expert"``, ``"search:rollouts=240"``.

    For a bot of :data:`BOT_NAMES` it is the name and every field that differs from its
    default, which :func:`make_bot` reads back as an equal bot; a review or a report
    names its bot this way instead of printing its ``repr`` with every field.  Any
    other bot is named by its class's dotted path.

    >>> from bohmisch_watten.bots import ExpertBot, SearchBot
    >>> from bohmisch_watten.bots.registry import bot_spec
    >>> bot_spec(ExpertBot()), bot_spec(SearchBot(rollouts=240, rollout="random"))
    ('expert', 'search:rollouts=240:rollout=random')
    """
    for name, kind in _CLASSES.items():
        if type(bot) is kind and attrs.has(kind):
            parts = [name]
            for field in attrs.fields(kind):
                value = getattr(bot, field.name)
                if field.init and field.default is not attrs.NOTHING and value != field.default:
                    parts.append(f"{field.alias}={_spec_value(value)}")
            return ":".join(parts)
    return f"{type(bot).__module__}.{type(bot).__qualname__}"
