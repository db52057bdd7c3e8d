"""Bots by name, for command lines and configuration: ``make_bot("search:rollouts=60")``."""

from __future__ import annotations

import importlib
import shlex
import shutil
from typing import Final

import attrs

from .base import Bot
from .expert import ExpertBot
from .heuristic import HeuristicBot
from .random_bot import RandomBot
from .search import SearchBot

__all__ = ["BOT_NAMES", "make_bot"]

_CLASSES: Final[dict[str, type]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "search": SearchBot,
    "expert": ExpertBot,
}
BOT_NAMES: Final = tuple(_CLASSES)
"""The names :func:`make_bot` knows."""


def _value(text: str) -> object:
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    return text


def _import(path: str) -> type:
    module, _, attribute = path.rpartition(".")
    try:
        cls = getattr(importlib.import_module(module), attribute) if module else None
    except (ImportError, AttributeError):
        cls = None
    if not isinstance(cls, type):
        raise ValueError(
            f"unknown bot {path!r} (known: {', '.join(BOT_NAMES)}, or a dotted class path)"
        )
    return cls


def _engine(command: str) -> Bot:
    """``engine:COMMAND ARGS``: a program speaking engine protocol 1, started when used."""
    from ..engine import Engine  # engine.serve imports bots: at module level, a cycle

    try:
        argv = shlex.split(command)
    except ValueError as error:
        raise ValueError(f"engine: bad command {command!r}: {error}") from None
    if not argv:
        raise ValueError("engine: needs a command, e.g. engine:./my-engine --flag")
    if shutil.which(argv[0]) is None:
        raise ValueError(f"engine: {argv[0]!r} is not an executable program")
    return Engine(argv)


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

    ``name`` is one of :data:`BOT_NAMES` or the dotted path of your own bot class
    (``mypackage.bots.Clever``), which is called with the fields as keyword arguments,
    so the arena can measure any importable bot.  Numbers are converted (int, then
    float); anything else is passed as a string.  ``engine:COMMAND ARGS`` is a program
    speaking engine protocol 1 (:class:`~bohmisch_watten.engine.Engine`; the command
    is split like a shell would, without running one).  ``policy:PATH`` is a
    :class:`~bohmisch_watten.bots.learned.PolicyBot` playing from a checkpoint of
    ``examples/train_policy.py`` (extra ``[train]``; without PyTorch, ImportError).

    >>> from bohmisch_watten.bots import make_bot
    >>> make_bot("search:rollouts=60:rollout=random")
    SearchBot(rollouts=60, time_ms=None, max_candidates=6, rollout='random')

    Raises:
        TypeError: if ``spec`` is not a string.
        ValueError: for an unknown name or field, or a bad value.
        ImportError: for ``policy:`` without PyTorch (it names the extra).
    """
    if not isinstance(spec, str):
        raise TypeError(f"make_bot: spec must be a string, got {type(spec).__name__}")
    kind, sep, command = spec.strip().partition(":")
    if sep and kind.strip().lower() == "engine":
        return _engine(command)
    if sep and kind.strip().lower() == "policy":
        return _policy(command.strip())
    name, *params = spec.strip().split(":")
    name = name.strip()
    cls = _CLASSES.get(name.lower()) or _import(name)
    fields = {field.name for field in attrs.fields(cls)} if attrs.has(cls) else None
    kwargs: dict[str, object] = {}
    for param in params:
        key, sep, raw = param.partition("=")
        key = key.strip()
        if not sep or not key or (fields is not None and key not in fields):
            known = ", ".join(sorted(fields or ())) or "none"
            raise ValueError(f"bot {name!r}: bad parameter {param!r} (fields: {known})")
        kwargs[key] = _value(raw.strip())
    try:
        bot: Bot = cls(**kwargs)
    except TypeError as error:
        raise ValueError(f"bot {name!r}: {error}") from None
    if not isinstance(bot, Bot):
        raise ValueError(f"bot {name!r} has no choose(view, rng) method")
    return bot
