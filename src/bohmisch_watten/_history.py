"""Histories: the linked list of a state's actions, and one walk of a deal's actions.

Internal.  A deal's order of events is fixed by the rules — the shuffle (R11), the
looks of the cutting ritual (R12, R13), each seat's fold or exchange from forehand
(R18–R20), the cards of every trick (R24) — so the actions of a deal follow from its
facts.  :func:`deal_actions` walks them once; a seat's public history (with what that
seat may not see left out) and a sampled state's history (with every card) are both
read off that one walk.

A state's history is a linked list ``(previous node or None, seat or None, action)``,
newest first, so that ``apply()`` extends it in constant time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from ._sampling import DealInfo
from .actions import (
    EXCHANGES,
    EXCHANGES_WITH_TRUMP,
    FOLD,
    LEAVE,
    PLAY_ACTIONS,
    TAKE,
    Action,
    Shuffle,
)
from .seats import seat_order

__all__ = [
    "Node",
    "deal_actions",
    "deal_nodes",
    "exchange_action",
    "history_tuple",
    "last_shuffle",
    "push",
]

Node = tuple[Any, int | None, Action]
"""History as a linked list: ``(previous node or None, seat or None, action)``."""


def history_tuple(node: Node | None) -> tuple[tuple[int | None, Action], ...]:
    """The linked history as ``(seat, action)`` pairs, oldest first."""
    out = []
    while node is not None:
        out.append((node[1], node[2]))
        node = node[0]
    out.reverse()
    return tuple(out)


def push(node: Node | None, seat: int | None, action: Action) -> Node:
    """One more action on a linked history (typed, so that loops do not widen the type)."""
    return (node, seat, action)


def exchange_action(seat: int, dealer: int, took_trump: bool, discards: int) -> Action:
    """The :class:`~bohmisch_watten.Exchange` that discarded ``discards`` (R18, R19)."""
    table = EXCHANGES_WITH_TRUMP if took_trump and seat == dealer else EXCHANGES
    return table[discards]


def deal_actions(
    info: DealInfo,
    shuffle: Action | None,
    exchange: Callable[[int], Action | None],
) -> Iterator[tuple[int | None, Action | None]]:
    """The deal's actions in order, from its facts (R11–R27).

    Args:
        info: the deal's facts (the phase CUT pending look is not yet an action).
        shuffle: the chance action to start with, or None where it is hidden (R11).
        exchange: per seat that exchanged, its action, or None where it is hidden (R23).
    """
    yield None, shuffle
    last = len(info.cut) - 1
    for i, (seat, _, taken, critical) in enumerate(info.cut):
        if taken:
            yield seat, TAKE
        elif critical and not (i == last and info.cut_pending):
            yield seat, LEAVE
    if info.trump < 0:
        return
    for q in seat_order(info.dealer, info.num_players):
        if info.folded[q]:
            yield q, FOLD
        elif info.exchanged[q] >= 0:
            yield q, exchange(q)
    for plays, _ in info.tricks:
        for seat, card in plays:
            yield seat, PLAY_ACTIONS[card]
    for seat, card in info.trick:
        yield seat, PLAY_ACTIONS[card]


def deal_nodes(
    node: Node | None, info: DealInfo, shuffle: Action, discards: tuple[int, ...]
) -> Node:
    """Append one whole deal's actions to a history: ``shuffle``, then :func:`deal_actions`.

    ``discards`` gives every seat's discards (bitmasks), so every exchange is known.
    """
    dealer, took = info.dealer, info.took_trump
    head = node
    for seat, action in deal_actions(
        info, shuffle, lambda q: exchange_action(q, dealer, took, discards[q])
    ):
        assert action is not None  # every action is known here
        head = push(head, seat, action)
    assert head is not None  # the shuffle at least
    return head


def last_shuffle(node: Node | None) -> Shuffle:
    """The shuffle that began the current deal: the newest :class:`Shuffle` of the history.

    Raises:
        ValueError: if the history holds no shuffle (no deal has begun).
    """
    while node is not None:
        action = node[2]
        if isinstance(action, Shuffle):
            return action
        node = node[0]
    raise ValueError("the history holds no shuffle: no deal has begun")
