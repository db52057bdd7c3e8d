"""Which requests reach the game server at all: its own host names, no cross-site writes.

* **Host.**  A request whose ``Host`` header names no host the server serves is refused
  (400).  A page on the attacker's site whose name was made to point at the server's
  address (DNS rebinding) sends the attacker's name there, so it can neither read the
  API nor open a websocket.  By default the server serves the loopback names only;
  the operator names the others (``serve --allowed-host``).
* **Cross-site writes.**  A request that changes anything (``POST``, the one method
  of the server's routes that writes; any other method but ``GET``, ``HEAD`` and
  ``OPTIONS`` is refused by the routes, 405, and changes nothing) must say
  ``Content-Type: application/json`` (415 otherwise),
  which a page of another site cannot send without the browser asking the server
  first (CORS, which this server never allows), and if it carries an ``Origin`` it
  must be the server's own or one the operator allows (403 otherwise).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, Final
from urllib.parse import urlsplit

__all__ = ["LOOPBACK", "HostGuard", "host_name", "same_origin"]

LOOPBACK: Final = frozenset({"localhost", "127.0.0.1", "::1"})
"""The host names a server serves unless the operator names others."""

_WRITES: Final = frozenset({"POST"})
"""The methods a route of the server writes with (a route taking another must add it)."""
_HEADERS: Final = [
    (b"content-type", b"application/json"),
    (b"x-content-type-options", b"nosniff"),
    (b"cache-control", b"no-store"),
    (b"connection", b"close"),
]


def host_name(host: str | None) -> str | None:
    """The name in a ``Host`` header (``example.org:8000`` -> ``example.org``, ``[::1]``
    -> ``::1``), lower case; None if there is none or it is malformed."""
    if not host or len(host) > 255:
        return None
    try:
        parts = urlsplit("//" + host)
        name = parts.hostname
        parts.port  # noqa: B018 - raises ValueError for a port that is no number
    except ValueError:
        return None
    if not name or parts.username is not None or parts.path or parts.query or parts.fragment:
        return None
    return name


def same_origin(origin: str, host: str | None, allowed: frozenset[str]) -> bool:
    """Whether a request with ``Origin: origin`` came from a page of this server (its
    ``Host``) or of a site the operator allows."""
    if origin in allowed:
        return True
    try:
        netloc = urlsplit(origin).netloc
    except ValueError:
        return False
    return bool(netloc) and host is not None and netloc.lower() == host.lower()


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            text: str = value.decode("latin-1")
            return text
    return None


class HostGuard:
    """ASGI middleware refusing what the module's docstring says.

    Args:
        app: the application behind it.
        hosts: the host names served; ``*`` among them serves any (behind a proxy
            that checks them).
        origins: the origins (``https://example.org``) other than the server's own
            whose pages may write.
        writes: the paths that take a ``POST`` (None: every path); a ``POST`` to
            another one is the routes' to refuse (405: it changes nothing).
    """

    def __init__(
        self,
        app: Any,
        hosts: Iterable[str],
        origins: Iterable[str] = (),
        writes: Iterable[str] | None = None,
    ) -> None:
        self.app = app
        self.writes = None if writes is None else frozenset(writes)
        names = {h.strip().lower().strip("[]") for h in hosts}
        self.hosts: frozenset[str] | None = None if "*" in names else frozenset(names)
        self.origins = frozenset(o.strip().rstrip("/") for o in origins)

    def refusal(self, scope: dict[str, Any]) -> tuple[int, str] | None:
        """The status and message a request is refused with, None if it may pass."""
        host = _header(scope, b"host")
        if self.hosts is not None and host_name(host) not in self.hosts:
            return 400, (
                f"this server does not serve the host {(host or '')[:60]!r}"
                " (the operator allows host names with serve --allowed-host)"
            )
        if scope["type"] != "http" or scope.get("method") not in _WRITES:
            return None
        if self.writes is not None and scope.get("path") not in self.writes:
            return None
        media = (_header(scope, b"content-type") or "").partition(";")[0].strip().lower()
        if media != "application/json":
            return 415, "send the request as JSON (Content-Type: application/json)"
        origin = _header(scope, b"origin")
        if origin is not None and not same_origin(origin, host, self.origins):
            return 403, "requests from pages of other sites are refused"
        return None

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        refused = self.refusal(scope)
        if refused is None:
            await self.app(scope, receive, send)
            return
        status, message = refused
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})  # 403 to the handshake
            return
        body = json.dumps({"error": message}).encode()
        headers = [*_HEADERS, (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})
