"""The encoding as numpy arrays, one row per view (numpy comes with every adapter extra).

>>> from bohmisch_watten import new_game
>>> from bohmisch_watten.adapters.arrays import action_mask_array, observation_array
>>> state = new_game(4)
>>> views = [state.view(seat) for seat in range(4)]
>>> observation_array(views).shape, action_mask_array(views).dtype.name
((4, 496), 'int8')
"""

from __future__ import annotations

from collections.abc import Iterable

from ..encoding import NUM_ACTION_IDS, action_mask_batch, observation_batch
from ..views import PlayerView
from ._extras import needs_extra

with needs_extra(__name__, "gymnasium"):
    import numpy as np
    import numpy.typing as npt

__all__ = ["action_mask_array", "observation_array"]


def observation_array(views: Iterable[PlayerView]) -> npt.NDArray[np.float32]:
    """:func:`~bohmisch_watten.encoding.observation` of each view, shape ``(len, size)``.

    Raises:
        TypeError: if an element is not a :class:`PlayerView`.
        ValueError: if the views are of games with different numbers of players or packs.
    """
    return np.asarray(observation_batch(views), dtype=np.float32)


def action_mask_array(views: Iterable[PlayerView]) -> npt.NDArray[np.int8]:
    """:func:`~bohmisch_watten.encoding.action_mask` of each view, shape ``(len, 99)``
    (``(len, 103)`` for views of the 36-card pack; ``(0, 99)`` for no views).

    Raises:
        TypeError: if an element is not a :class:`PlayerView`.
        ValueError: if the views are of games with different packs.
    """
    rows = action_mask_batch(views)
    return np.asarray(rows, dtype=np.int8).reshape(-1, len(rows[0]) if rows else NUM_ACTION_IDS)
