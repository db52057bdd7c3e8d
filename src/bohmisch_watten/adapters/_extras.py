"""A missing optional extra, named: the import guard of every adapter module.

The adapters need third-party packages that a plain ``pip install bohmisch-watten``
does not bring (numpy, Gymnasium, PettingZoo, OpenSpiel).  Without this guard a user
who imports one meets a bare ``ModuleNotFoundError: No module named 'gymnasium'``
and has to guess which extra brings it; with it the error says what to install, as
``make_bot("policy:…")`` does for PyTorch.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["needs_extra"]


@contextmanager
def needs_extra(module: str, extra: str) -> Iterator[None]:
    """Around a module's third-party imports: a missing package is reported as a
    ``ModuleNotFoundError`` (an ``ImportError``) that names ``extra`` and how to install it.

    Only a missing third-party module counts; a missing module of this package is a bug
    and keeps its own error.

    Args:
        module: the importing module's ``__name__``, for the message.
        extra: the extra that brings the packages, e.g. ``"gymnasium"``.

    Raises:
        ModuleNotFoundError: ``bohmisch_watten.adapters.gymnasium needs the [gymnasium]
            extra (gymnasium is missing): pip install 'bohmisch-watten[gymnasium]'``.
    """
    try:
        yield
    except ModuleNotFoundError as error:
        missing = (error.name or "").partition(".")[0]
        if not missing or missing == __name__.partition(".")[0]:
            raise
        raise ModuleNotFoundError(
            f"{module} needs the [{extra}] extra ({missing} is missing):"
            f" pip install 'bohmisch-watten[{extra}]'",
            name=error.name,
        ) from None
