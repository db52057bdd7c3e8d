"""Speed of the encoding and of the learning environments, beside RLCard (4 players).

A script, not a test: ``python benchmarks/adapters.py [--repeats R] [--seconds S]``.
Needs the ``[openspiel]``, ``[pettingzoo]`` and ``[gymnasium]`` extras; RLCard
(``pip install rlcard==1.2.0``, a benchmark-only dependency) is measured when it is
installed and skipped with a note otherwise.  Each figure is the median of
``--repeats`` runs of about ``--seconds`` each, in this one process, so the ratios are
measured on the same machine at the same time:

* ``engine``: decisions of random play on :class:`GameState` alone, the ceiling of
  every environment (a Gymnasium step holds four decisions, the learner's and three
  bots');
* ``view encoding``: :func:`~bohmisch_watten.encoding.observation` plus
  :func:`~bohmisch_watten.encoding.action_mask` of one seat's view (view included);
* ``fast observation`` / ``fast mask``: :mod:`bohmisch_watten.adapters.fast` for one
  seat, a new array each, through 2,000 states of random games in the order they were
  played (as an environment meets them); ``fast batch 64``: observations and masks of
  64 states in one :class:`~bohmisch_watten.adapters.fast.Encoder` call (per state),
  row ``r`` reading the ``r``-th stretch of those states in order, as a vector env's
  row follows its game;
* ``openspiel``: applied actions (decisions and chance cards) of
  ``python_bohmisch_watten``, random play, one-deal mode;
* ``pettingzoo``: AEC steps of ``raw_env`` with masked random actions, ``last()``
  (observation and mask) included;
* ``gymnasium vs random`` / ``vs heuristic``: ``WattenEnv`` steps with masked random
  actions (the three bots' moves happen inside each step);
* ``vector N=64``: steps (games × calls) of ``make_vec(..., vectorization_mode=
  "vector_entry_point")`` against RandomBots; ``vector self-play N=64``: the same with
  ``opponents="self"``, every step a learner's decision of the seat to act (no bot moves
  in between); ``vector games only``: the same 64
  episodes stepped with random legal ids and reset when they end, without encoding any
  observation (the masks' integers only), the ceiling of ``vector N=64`` that no
  encoding could pass; ``async 2``: Gymnasium's
  ``AsyncVectorEnv`` (``vectorization_mode="async"``) of two ``WattenEnv`` in two
  processes;
* ``rlcard leduc`` / ``rlcard doudizhu``: ``env.step`` with a random legal action,
  the same loop, RLCard's observation included.

``--players 7 --rules pack=36`` measures another table (default: four players, the
32-card pack); the figures above say "4-player" for the default.
``--only "view encoding,pettingzoo"`` runs some cases; the fast cases import
:mod:`bohmisch_watten.adapters.fast` when they run, so the script also measures a
checkout from before it existed.

The random agent of ``pettingzoo`` and ``gymnasium`` picks a legal id uniformly from
the mask with :class:`random.Random` (``--picker python``, about 2 µs), as the RLCard
loop picks from its list; ``--picker numpy`` is the loop of earlier figures,
``Generator.choice`` over ``np.flatnonzero(mask)``, which alone costs about 20 µs a
step — more than the environment's own work — so compare figures of the same picker.
``--clock cpu`` times with the process's CPU clock instead of the wall clock: on a
machine shared with other jobs it is far less noisy for comparing two checkouts,
because time spent waiting for a core is not counted.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import pyspiel

import bohmisch_watten.adapters.openspiel  # noqa: F401  (registers the game)
from bohmisch_watten import GameState, Rules, new_game, parse_rules
from bohmisch_watten.adapters.gymnasium import ENV_ID, WattenEnv
from bohmisch_watten.adapters.pettingzoo import raw_env
from bohmisch_watten.encoding import action_mask, observation

Case = Callable[[float], float]
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}
SETTINGS = {"clock": "wall", "picker": "python"}
TABLE: dict[str, Any] = {"players": 4, "rules": Rules()}
"""The table every case plays (``--players``, ``--rules``)."""


def table_game() -> GameState:
    return new_game(TABLE["players"], rules=TABLE["rules"])


def pack_args() -> dict[str, Any]:
    """``rules=`` for the adapters; nothing for the default rules, so that the script
    also measures a checkout from before the adapters took rules."""
    return {"rules": TABLE["rules"]} if TABLE["rules"] != Rules() else {}


def timed(seconds: float, chunk: Callable[[], int]) -> float:
    """Run ``chunk`` (which returns how many units it did) for about ``seconds``."""
    clock = CLOCKS[SETTINGS["clock"]]
    done = 0
    start = clock()
    while True:
        done += chunk()
        elapsed = clock() - start
        if elapsed >= seconds:
            return done / elapsed


def masked_picker(seed: int) -> Callable[[np.ndarray], int]:
    """The random agent: a uniformly random legal id of a mask (see ``--picker``)."""
    if SETTINGS["picker"] == "numpy":
        generator = np.random.default_rng(seed)
        return lambda mask: int(generator.choice(np.flatnonzero(mask)))
    rng = random.Random(seed)

    def pick(mask: np.ndarray) -> int:
        legal = mask.nonzero()[0]
        return int(legal[int(rng.random() * len(legal))])

    return pick


def sample_states(count: int) -> list[GameState]:
    """Decision states of random games of the table (four players by default)."""
    rng = random.Random(1)
    states = []
    state = table_game()
    while len(states) < count:
        if state.is_terminal:
            state = table_game()
        elif state.is_chance_node:
            state = state.apply(state.sample_chance(rng))
        else:
            states.append(state)
            state = state.apply(rng.choice(state.legal_actions()))
    return states


STATES: list[GameState] = []
"""2,000 decision states of the table, drawn in ``main`` once the table is known."""


def engine_rate(seconds: float) -> float:
    """The ceiling: decisions of random play straight on GameState (no adapter)."""
    rng = random.Random(8)
    box = {"state": table_game()}

    def chunk() -> int:
        state = box["state"]
        done = 0
        while done < 500:
            if state.is_terminal:
                state = table_game()
            elif state.is_chance_node:
                state = state.apply(state.sample_chance(rng))
            else:
                state = state.apply(rng.choice(state.legal_actions()))
                done += 1
        box["state"] = state
        return done

    return timed(seconds, chunk)


def view_encoding(seconds: float) -> float:
    n = TABLE["players"]

    def chunk() -> int:
        for i, s in enumerate(STATES[:500]):
            view = s.view(i % n)
            observation(view)
            action_mask(view)
        return 500

    return timed(seconds, chunk)


def fast_observation(seconds: float) -> float:
    from bohmisch_watten.adapters import fast

    n = TABLE["players"]

    def chunk() -> int:
        # A new memo each pass: an environment meets each state once, so what a memo
        # kept from the pass before must not count.  (Older trees kept it at module
        # level and take no argument.)
        memo = [fast.Memo()] if hasattr(fast, "Memo") else []
        for i, s in enumerate(STATES):
            fast.encode_observation(s, i % n, *memo)
        return len(STATES)

    return timed(seconds, chunk)


def fast_mask(seconds: float) -> float:
    from bohmisch_watten.adapters import fast

    n = TABLE["players"]

    def chunk() -> int:
        memo = [fast.Memo()] if hasattr(fast, "Memo") else []  # as for fast_observation
        for i, s in enumerate(STATES):
            fast.encode_mask(s, i % n, *memo)
        return len(STATES)

    return timed(seconds, chunk)


def fast_batch(seconds: float) -> float:
    from bohmisch_watten.adapters.fast import Encoder

    n = TABLE["players"]
    seats = [i % n for i in range(64)]
    pack = [TABLE["rules"].pack] if TABLE["rules"].pack != 32 else []
    stretch = len(STATES) // 64
    # Call k encodes the k-th state of each row's stretch: each row meets the states of
    # its games in order, once each, as in a vector env.
    batches = [STATES[k::stretch][:64] for k in range(stretch)]

    def chunk() -> int:
        encoder = Encoder(n, 64, *pack)  # a new memo each pass, as for fast_observation
        for batch in batches:
            encoder.encode(batch, seats)
        return stretch * 64

    return timed(seconds, chunk)


def openspiel_rate(seconds: float) -> float:
    pack = ",pack=36" if TABLE["rules"].pack == 36 else ""
    game = pyspiel.load_game(f"python_bohmisch_watten(players={TABLE['players']},mode=deal{pack})")
    rng = np.random.default_rng(2)

    def chunk() -> int:
        done = 0
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.integers(len(legal)))])
            done += 1
        return done

    return timed(seconds, chunk)


def pettingzoo_rate(seconds: float) -> float:
    env = raw_env(players=TABLE["players"], **pack_args())
    env.reset(seed=3)
    pick = masked_picker(3)

    def chunk() -> int:
        done = 0
        while done < 500:
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.reset()
                continue
            env.step(pick(obs["action_mask"]))
            done += 1
        return done

    return timed(seconds, chunk)


def gymnasium_rate(opponents: str) -> Case:
    def case(seconds: float) -> float:
        env = WattenEnv(TABLE["players"], opponents=opponents, **pack_args())
        _, info = env.reset(seed=4)
        pick = masked_picker(4)
        state: dict[str, Any] = {"info": info}

        def chunk() -> int:
            info = state["info"]
            for _ in range(200):
                _, _, terminated, truncated, info = env.step(pick(info["action_mask"]))
                if terminated or truncated:
                    _, info = env.reset()
            state["info"] = info
            return 200

        return timed(seconds, chunk)

    return case


def random_ids(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One random legal id per row of ``masks`` (0 where a row has none)."""
    noise = rng.random(masks.shape) * masks
    return np.asarray(noise.argmax(axis=1))


def vector_rate(seconds: float, opponents: str | None = None) -> float:
    """Steps of the vector env (64 games) with masked random ids, against
    ``opponents`` (RandomBots by default; ``"self"``: self-play)."""
    envs = gymnasium.make_vec(
        ENV_ID,
        num_envs=64,
        vectorization_mode="vector_entry_point",
        opponents=opponents,
        players=TABLE["players"],
        **pack_args(),
    )
    _, infos = envs.reset(seed=5)
    rng = np.random.default_rng(5)
    box: dict[str, Any] = {"infos": infos}

    def chunk() -> int:
        infos = box["infos"]
        for _ in range(20):
            _, _, _, _, infos = envs.step(random_ids(infos["action_mask"], rng))
        box["infos"] = infos
        return 20 * 64

    return timed(seconds, chunk)


def vector_games_rate(seconds: float) -> float:
    from bohmisch_watten.adapters.fast import mask_bits

    envs = gymnasium.make_vec(
        ENV_ID,
        num_envs=64,
        vectorization_mode="vector_entry_point",
        players=TABLE["players"],
        **pack_args(),
    )
    envs.reset(seed=5)
    games = envs.unwrapped.games  # type: ignore[attr-defined]
    seat = games[0].seat
    rng = random.Random(5)

    def chunk() -> int:
        for _ in range(20):
            for game in games:
                mask = mask_bits(game.state, seat)
                ids = []
                while mask:
                    low = mask & -mask
                    ids.append(low.bit_length() - 1)
                    mask ^= low
                _, terminated, truncated = game.play(ids[rng.randrange(len(ids))])
                if terminated or truncated:
                    try:  # as the env's autoreset: on from the episode's generator
                        game.reset()
                    except TypeError:  # older trees: a new generator every episode
                        game.reset(random.Random(rng.getrandbits(62)))
        return 20 * len(games)

    return timed(seconds, chunk)


def async_rate(seconds: float) -> float:
    envs = gymnasium.make_vec(
        ENV_ID, num_envs=2, vectorization_mode="async", players=TABLE["players"], **pack_args()
    )
    try:
        _, infos = envs.reset(seed=6)
        rng = np.random.default_rng(6)
        box: dict[str, Any] = {"infos": infos}

        def chunk() -> int:
            infos = box["infos"]
            for _ in range(50):
                _, _, _, _, infos = envs.step(random_ids(infos["action_mask"], rng))
            box["infos"] = infos
            return 50 * 2

        return timed(seconds, chunk)
    finally:
        envs.close()


def rlcard_rate(name: str) -> Case:
    def case(seconds: float) -> float:
        import rlcard

        env = rlcard.make(name, config={"seed": 7})
        rng = random.Random(7)
        box: dict[str, Any] = {"state": env.reset()[0]}

        def chunk() -> int:
            state = box["state"]
            for _ in range(200):
                if env.is_over():
                    state, _ = env.reset()
                state, _ = env.step(rng.choice(list(state["legal_actions"])))
            box["state"] = state
            return 200

        return timed(seconds, chunk)

    return case


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--only", default="", help="comma-separated case names to run")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall")
    parser.add_argument("--picker", choices=["python", "numpy"], default="python")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rules", default="", help="rules notation, e.g. pack=36")
    args = parser.parse_args()
    SETTINGS.update(clock=args.clock, picker=args.picker)
    TABLE.update(players=args.players, rules=parse_rules(args.rules))
    STATES[:] = sample_states(2000)
    cases: list[tuple[str, str, Case]] = [
        ("engine", "decisions/s", engine_rate),
        ("view encoding", "obs+mask/s", view_encoding),
        ("fast observation", "obs/s", fast_observation),
        ("fast mask", "masks/s", fast_mask),
        ("fast batch 64", "obs+mask/s", fast_batch),
        ("openspiel", "actions/s", openspiel_rate),
        ("pettingzoo", "steps/s", pettingzoo_rate),
        ("gymnasium vs random", "steps/s", gymnasium_rate("random")),
        ("gymnasium vs heuristic", "steps/s", gymnasium_rate("heuristic")),
        ("vector N=64", "steps/s", vector_rate),
        ("vector self-play N=64", "steps/s", lambda seconds: vector_rate(seconds, "self")),
        ("vector games only", "steps/s", vector_games_rate),
        ("async 2", "steps/s", async_rate),
    ]
    try:
        import rlcard  # noqa: F401
    except ImportError:
        print("rlcard is not installed: its figures are skipped (pip install rlcard==1.2.0)")
    else:
        cases += [
            ("rlcard leduc", "steps/s", rlcard_rate("leduc-holdem")),
            ("rlcard doudizhu", "steps/s", rlcard_rate("doudizhu")),
        ]
    only = {name.strip() for name in args.only.split(",") if name.strip()}
    for name, unit, run in cases:
        if only and name not in only:
            continue
        rates = [run(args.seconds) for _ in range(args.repeats)]
        print(
            f"{name:23} median {statistics.median(rates):10,.0f} {unit:11} "
            f"(min {min(rates):,.0f}, max {max(rates):,.0f})",
            flush=True,
        )


if __name__ == "__main__":
    main()
