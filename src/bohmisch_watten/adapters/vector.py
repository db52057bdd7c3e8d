"""N games of :class:`~bohmisch_watten.adapters.gymnasium.WattenEnv` in one call (``[gymnasium]``).

>>> import gymnasium
>>> import bohmisch_watten.adapters.gymnasium
>>> envs = gymnasium.make_vec(
...     "BohmischWatten-v0", num_envs=8, vectorization_mode="vector_entry_point", players=3
... )
>>> observations, infos = envs.reset(seed=1)
>>> observations.shape, infos["action_mask"].shape
((8, 415), (8, 99))

A Gymnasium :class:`~gymnasium.vector.VectorEnv` that keeps N games in one process and
encodes all N observations and masks with one batch call of
:class:`~bohmisch_watten.adapters.fast.Encoder` into preallocated arrays.  Each game is
exactly a :class:`WattenEnv` with the same arguments (``players``, ``rules``, ``seat``,
``mode``, ``position``, ``opponents``, ``max_deals``, as values or as config text), and
the vector env behaves exactly as ``gymnasium.vector.SyncVectorEnv`` over N of them —
same seeds, same observations, rewards and infos, step for step (a test checks it):

* **Seeds**: ``reset(seed=s)`` seeds game ``i`` with ``s + i``; a list gives one seed
  per game (None in it: that game's generator as it is); without a seed each game
  draws on from its generator (a fresh one at the first reset), as does every
  autoreset.
* **Autoreset**: Gymnasium 1.x's default, ``AutoresetMode.NEXT_STEP``
  (``metadata["autoreset_mode"]``): the step after a game's episode ended resets that
  game, ignores its action and returns its first observation with reward 0.
  ``reset(options={"reset_mask": mask})`` resets only the games where ``mask`` is True.
* **Infos**: ``infos["action_mask"]`` (N × 99, int8; N × 103 with ``rules="pack=36"``)
  with ``infos["_action_mask"]``; ``infos["illegal"]`` and ``infos["_illegal"]`` when a
  game was ended by an illegal id (reward −1, as in :class:`WattenEnv`).
* **Self-play** (``opponents="self"``, as in :class:`WattenEnv`): each game's row is
  the observation of its seat to act, ``infos["seat"]`` (N, int64) says which, and
  ``infos["rewards"]`` (N × players) holds every seat's reward of the step; the
  returned reward is the one of the seat that chose the action.  No bot moves between
  two steps, so every step is a learner's decision.
* **Returned arrays** are fresh copies, safe to keep.
* **Cores** (``native``): with the compiled core built and built-in opponents only
  (random, heuristic, or self-play), the N games run in C —
  :class:`~bohmisch_watten.adapters.batch.BatchGames`, the same games, observations and
  rewards step for step, its generator a twin of :class:`random.Random`.  ``native=False``
  keeps them in Python (:attr:`WattenVectorEnv.games`, each a game with its
  :class:`~bohmisch_watten.GameState`); ``native=True`` insists on the compiled core.
"""

from __future__ import annotations

import random
from typing import Any, Final

from .. import native_core
from ..encoding import num_action_ids, observation_size
from ..rules import Rules
from ._config import count_argument
from ._episodes import action_index
from ._extras import needs_extra
from ._seat_game import SeatGame
from .batch import BatchGames
from .fast import Encoder

with needs_extra(__name__, "gymnasium"):
    import gymnasium
    import numpy as np
    import numpy.typing as npt
    from gymnasium import spaces
    from gymnasium.utils import seeding
    from gymnasium.vector import AutoresetMode
    from gymnasium.vector.utils import batch_space

__all__ = ["WattenVectorEnv"]

_DEFAULT_RULES: Final = Rules()


class WattenVectorEnv(gymnasium.vector.VectorEnv[Any, Any, Any]):
    """N one-seat games stepped together; see the module docstring.

    Args:
        num_envs: how many games (at least 1).
        players, rules, seat, mode, position, opponents, max_deals: as for
            :class:`~bohmisch_watten.adapters.gymnasium.WattenEnv`, the same for every
            game.
        render_mode: None only (a batch of tables has no one picture).
        native: None (default): the compiled core when it is built and every opponent is
            a built-in bot; False: the Python games; True: the compiled core or an error.

    Raises:
        TypeError: naming the parameter, for a value of the wrong type.
        ValueError: naming the parameter, for a bad value.
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int | str = 1,
        players: int | str = 4,
        *,
        rules: Rules | str | dict[str, Any] = _DEFAULT_RULES,
        seat: int | str = 0,
        mode: str = "deal",
        position: str = "",
        opponents: object = None,
        max_deals: int | str = 100,
        render_mode: str | None = None,
        native: bool | None = None,
    ) -> None:
        self.num_envs = count_argument(num_envs, "num_envs", 1, 1_000_000)
        if render_mode is not None:
            raise ValueError(f"render_mode must be None, got {render_mode!r}")
        if native is not None and not isinstance(native, bool):
            raise TypeError(f"native must be a bool or None, got {type(native).__name__}")
        first = SeatGame.build(players, rules, seat, mode, position, opponents, max_deals)
        compiled = native_core.module is not None and first.native_kinds() is not None
        if native and not compiled:
            raise ValueError(
                "native=True needs the compiled core and built-in opponents (random, "
                "heuristic or self)"
            )
        self._batch: BatchGames | None = None
        self.games: list[SeatGame] = []
        """The N games in Python (``native=False``, or no compiled core); empty when the
        compiled core runs them."""
        if compiled and native is not False:
            self._batch = BatchGames(
                self.num_envs, players, rules=rules, seat=seat, mode=mode,
                position=position, opponents=opponents, max_deals=max_deals,
            )  # fmt: skip
        else:
            self.games = [first] + [
                SeatGame(first.start, first.seat, mode, first.max_deals, first.opponents)
                for _ in range(self.num_envs - 1)
            ]
        self.native = self._batch is not None
        """Whether the compiled core runs the games."""
        self.rules = first.start.rules
        """The rules of every game."""
        n = first.start.num_players
        pack = first.start.rules.pack
        self._players = n
        self._num_ids = num_action_ids(pack)
        self.seat = first.seat
        self.self_play = first.seat is None
        """Whether every seat is the learner (``opponents="self"``)."""
        self.render_mode = None
        self.single_observation_space = spaces.Box(
            0.0, 1.0, (observation_size(n, pack),), np.float32
        )
        self.single_action_space = spaces.Discrete(self._num_ids)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        # The Python games' encoder (the compiled core writes its own arrays).
        self._encoder = Encoder(n, 1 if self._batch is not None else self.num_envs, pack)
        self._autoreset = np.zeros(self.num_envs, np.bool_)
        self._masks: list[int] = [0] * self.num_envs
        self._seeded = np.zeros(self.num_envs, np.bool_)

    # ------------------------------------------------------------------ helpers

    def _restart(self, i: int, seed: int | None) -> None:
        """Game ``i`` from its start, seeded as ``WattenEnv.reset(seed=seed)`` would be:
        a new generator for a seed (or the first time), else the one before, drawn on."""
        if seed is not None or not self.games[i].seeded:
            generator, _ = seeding.np_random(seed)
            self.games[i].reset(random.Random(int(generator.integers(2**62))))
        else:
            self.games[i].reset()

    def _native_seed(self, i: int, seed: int | None) -> int | None:
        """The seed of ``random.Random`` that :meth:`_restart` would give game ``i``, or
        None where it draws on from its generator."""
        if seed is not None or not self._seeded[i]:
            generator, _ = seeding.np_random(seed)
            return int(generator.integers(2**62))
        return None

    def _native_observe(self) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        batch = self._batch
        assert batch is not None
        everyone = np.ones(self.num_envs, np.bool_)
        infos = {"action_mask": batch.action_masks.copy(), "_action_mask": everyone}
        if self.self_play:
            infos["seat"] = batch.seats.copy()
            infos["_seat"] = everyone.copy()
        return batch.observations.copy(), infos

    def _native_step(
        self, ids: npt.NDArray[Any]
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        """:meth:`step` by the compiled core: the same checks, the same results."""
        batch = self._batch
        assert batch is not None
        if ids.dtype.kind not in "iu" or ids.dtype == np.bool_:
            # As the Python games do: every id of a game not being reset must be an
            # integer (TypeError naming ``action``); the others are ignored.
            resetting = self._autoreset.tolist()
            values = [0 if resetting[i] else action_index(a) for i, a in enumerate(ids.tolist())]
            ids = np.array([v if -(2**63) <= v < 2**63 else -1 for v in values], np.int64)
        autoreset = self._autoreset
        batch.step(ids.astype(np.int64, copy=False))
        ended = batch.terminated.copy()
        cut = batch.truncated.copy()
        self._autoreset = ended | cut
        observations, infos = self._native_observe()
        if batch.illegal.any():
            infos["illegal"] = batch.illegal.copy()
            infos["_illegal"] = batch.illegal.copy()
        if self.self_play and not autoreset.all():  # a reset pays nothing: no rewards
            infos["rewards"] = batch.every_reward.copy()
            infos["_rewards"] = ~autoreset
        return observations, batch.rewards.copy(), ended, cut, infos

    def _observe(self) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        encoder = self._encoder
        seats = [g.to_act for g in self.games]
        observations, masks = encoder.encode([g.state for g in self.games], seats)
        # The masks' integers are kept: the next step checks each action against them.
        self._masks = encoder.mask_ints
        everyone = np.ones(self.num_envs, np.bool_)
        infos = {"action_mask": masks.copy(), "_action_mask": everyone}
        if self.self_play:
            infos["seat"] = np.array(seats, np.int64)
            infos["_seat"] = everyone.copy()
        return observations.copy(), infos

    # ---------------------------------------------------------------- the API

    def reset(
        self,
        *,
        seed: int | list[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Reset every game (or those of ``options["reset_mask"]``); see the seeds above.

        Raises:
            ValueError: for a list of seeds of the wrong length or a bad reset mask.
        """
        if seed is None:
            seeds: list[int | None] = [None] * self.num_envs
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
        if len(seeds) != self.num_envs:
            raise ValueError(f"seed: {len(seeds)} seeds for {self.num_envs} games")
        mask = np.ones(self.num_envs, np.bool_)
        if options is not None and "reset_mask" in options:
            mask = np.asarray(options["reset_mask"])
            if mask.shape != (self.num_envs,) or mask.dtype != np.bool_ or not mask.any():
                raise ValueError(
                    f"options['reset_mask'] must be {self.num_envs} booleans, one True at least"
                )
        if self._batch is not None:
            self._batch.reset(
                [self._native_seed(i, seeds[i]) for i in range(self.num_envs)], mask=mask
            )
            self._seeded |= mask
            self._autoreset[mask] = False
            return self._native_observe()
        for i in np.flatnonzero(mask):
            self._restart(int(i), seeds[i])
        self._autoreset[mask] = False
        return self._observe()

    def step(
        self, actions: Any
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        """One action id per game; games whose episode ended last step are reset instead.

        Raises:
            ValueError: if ``actions`` does not hold one id per game.
            TypeError: naming ``action`` for an id that is not an integer.
        """
        ids = np.asarray(actions)
        if ids.shape != (self.num_envs,):
            raise ValueError(f"actions must hold {self.num_envs} ids, got shape {ids.shape}")
        if self._batch is not None:
            return self._native_step(ids)
        n = self.num_envs
        rewards = [0.0] * n
        terminated = [False] * n
        truncated = [False] * n
        illegal: list[int] = []
        paid: dict[int, tuple[float, ...]] = {}  # self-play: every seat's, where not all 0
        self_play = self.self_play
        autoreset = self._autoreset.tolist()
        masks = self._masks  # each game's mask as of the last observation
        size = self._num_ids
        for i, (game, action) in enumerate(zip(self.games, ids.tolist(), strict=True)):
            if autoreset[i]:
                self._restart(i, None)
                continue
            index = action if type(action) is int else action_index(action)
            actor = game.to_act
            if not (0 <= index < size and masks[i] >> index & 1):
                illegal.append(i)
                rewards[i] = -1.0
                terminated[i] = True
                if self_play:
                    paid[i] = game.fined()
                continue
            given, terminated[i], truncated[i] = game.play(index)
            if given is not None:
                rewards[i] = given[actor]
                if self_play:
                    paid[i] = given
        ended = np.array(terminated, np.bool_)
        cut = np.array(truncated, np.bool_)
        self._autoreset = ended | cut
        observations, infos = self._observe()
        if illegal:
            flags = np.zeros(n, np.bool_)
            flags[illegal] = True
            infos["illegal"] = flags
            infos["_illegal"] = flags.copy()
        if self_play and not all(autoreset):  # a reset pays nothing: no rewards
            every = np.zeros((n, self._players), np.float64)
            for i, given in paid.items():
                every[i] = given
            infos["rewards"] = every
            infos["_rewards"] = ~np.array(autoreset, np.bool_)
        return observations, np.array(rewards, np.float64), ended, cut, infos
