"""Bots in any language: the engine protocol (versions 1 and 2), the host that plays
engines, and our bots served as engines.

An engine is a program that reads one JSON object per line on stdin and answers one per
line on stdout (``docs/engine-protocol.md``; the JSON Schema of its messages ships as
``schemas/protocol.schema.json`` in this package).  :class:`Engine` plays one as a
:class:`~bohmisch_watten.bots.Bot`; ``make_bot("engine:./my-engine --flag")`` and the
arena's ``--bots engine:...`` build one from a command line; ``python -m bohmisch_watten
engine --bot SPEC`` serves a built-in bot over the protocol (:func:`serve`).  The
messages and the limits (line cap, grace margin) are in :mod:`.protocol`.

>>> import sys
>>> from bohmisch_watten.engine import Engine
>>> served = [sys.executable, "-m", "bohmisch_watten", "engine", "--bot", "random"]
>>> with Engine.popen(served) as engine:
...     engine.name
'bohmisch_watten random'
"""

from __future__ import annotations

from .host import (
    Engine,
    EngineError,
    EngineExitedError,
    EngineProtocolError,
    EngineTimeoutError,
)
from .serve import serve

__all__ = [
    "Engine",
    "EngineError",
    "EngineExitedError",
    "EngineProtocolError",
    "EngineTimeoutError",
    "serve",
]
