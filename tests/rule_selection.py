"""``pytest --rule R25``: run the tests of one rule of the rule book.

Tests say which rules they check with ``@pytest.mark.rule("R25", "R26")``.  The option
keeps the tests whose marker names the rule, one of its items or the rule it is an item
of, and deselects the rest: ``--rule R25`` selects ``R25`` and ``R25.1``; ``--rule
R25.1`` selects ``R25.1`` and ``R25`` (a test of R25 checks all of its items) but not
``R25.2``; ``--rule R2`` never selects ``R25``.  It may be given more than once
(``--rule R25 --rule R27``: the tests of either rule).  A rule ID the rule book does not
define is a usage error, so a typo never runs zero tests silently.

The hooks are loaded by ``conftest.py``; a test runs this file as a plugin of its own
(``-p rule_selection``) to check it on a throwaway test module.
"""

from __future__ import annotations

import re

import pytest

from rulebook import rule_items

_RULE = re.compile(r"^R\d+(\.\d+)?$")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--rule",
        action="append",
        default=[],
        metavar="ID",
        help="run only the tests marked with this rule ID of RULES.md, one of its items or "
        "its rule (R25 selects R25 and R25.1; R25.1 selects R25.1 and R25); may be repeated",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "rule(*ids): the rule IDs of RULES.md that a test checks")
    check_options(config.getoption("rule"))


def check_options(wanted: list[str]) -> None:
    """Refuse a ``--rule`` value that is no rule ID of the rule book (a typo)."""
    known = rule_items()
    for rule in wanted:
        if not _RULE.match(rule):
            raise pytest.UsageError(f"--rule {rule}: a rule ID looks like R25 or R25.1")
        if rule.split(".")[0] not in known:
            raise pytest.UsageError(f"--rule {rule}: RULES.md has no rule {rule}")


def selects(wanted: str, marked: str) -> bool:
    """Whether ``--rule wanted`` selects a test marked ``marked``.

    R25 selects R25 and R25.1; R25.1 selects R25.1 and R25, not R25.2.
    """
    return marked == wanted or marked.startswith(wanted + ".") or wanted.startswith(marked + ".")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    wanted = config.getoption("rule")
    if not wanted:
        return
    keep, drop = [], []
    for item in items:
        marked = [rule for mark in item.iter_markers("rule") for rule in mark.args]
        if any(selects(w, m) for w in wanted for m in marked):
            keep.append(item)
        else:
            drop.append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep
