"""The browser every test module of this folder drives: Debian's Chromium, headless."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, sync_playwright
from test_browser import ARGS, CHROMIUM

MISSING_CHROMIUM = (
    f"The browser tests drive Debian's Chromium, and {CHROMIUM} is missing.  Install it"
    " with `sudo apt-get install chromium` (Debian or Ubuntu; Playwright's own browser"
    " downloads are not used), as .ci/run does, then run `make browser` again.  The"
    " other tests do not need it: `make pytest` runs them."
)
"""What a missing Chromium fails with: how to get it, not only that it is missing."""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail(MISSING_CHROMIUM, pytrace=False)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=ARGS
        )
        yield chromium
        chromium.close()
