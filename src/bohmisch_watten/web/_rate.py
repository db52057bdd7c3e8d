"""A token bucket: how fast one connection may send, messages and control frames alike."""

from __future__ import annotations

import time

__all__ = ["Bucket"]


class Bucket:
    """``rate`` a second on average, bursts of ``2 * rate``: :meth:`take` says whether
    one more may pass now."""

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.level = 2 * rate
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.level = min(2 * self.rate, self.level + (now - self.at) * self.rate)
        self.at = now
        if self.level < 1:
            return False
        self.level -= 1
        return True
