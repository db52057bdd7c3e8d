"""Deprecated: this module is internal now (``bohmisch_watten._checks``, attrs' convention).

Its names stay importable from here for a while; each access warns.  Nothing here is API.
"""

from __future__ import annotations

from ._moved import forwarder

__all__: list[str] = []  # nothing here is API any more

__getattr__ = forwarder(__name__, "bohmisch_watten._checks")
