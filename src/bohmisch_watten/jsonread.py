"""Deprecated: the JSON readers are internal now (:mod:`bohmisch_watten._documents`).

This module only keeps the two names it documented, ``json_depth`` and
``summary_to_dict``, importable for a while; each access warns.  Documents are read
with the loaders of :mod:`bohmisch_watten.serialization` (``from_json`` …).
"""

from __future__ import annotations

from ._moved import forwarder

__all__: list[str] = []  # nothing here is API any more

__getattr__ = forwarder(
    __name__,
    "bohmisch_watten._documents",
    ("json_depth", "summary_to_dict"),
    "; use the loaders of bohmisch_watten.serialization",
)
