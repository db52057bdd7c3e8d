"""The exact solver's time from the first card of a deal, and a brute force to compare.

A script, not a test: ``python benchmarks/solver.py [--deals 200 100 50] [--seed S]
[--brute 2] [--selfish] [--pack36 N]``.  For 2, 3 and 4 players and with ``must_head`` on and off it
builds random deals with a fixed seed (random actions through the cut and the exchange
of the first deal, so nobody folds and every active hand holds five cards), times
``solve(state)`` at the first card of each and prints the median, the 90th percentile
and the maximum, of the wall clock and of the process's CPU time (which a machine
shared with other processes does not inflate).  ``--brute N`` also times, on the
first N deals of each row, a plain recursive minimax through ``legal_actions()`` and
``apply()`` (and checks that it agrees; for four players that takes seconds to a
minute a deal).
``--selfish`` adds the same rows for ``others="selfish"`` (max^n, no cuts: slow).
``--pack36 N`` instead times N deals each of the 36-card pack (R6) with 5, 6 and 7
players, and of the 32-card pack with 4 for reference (default rules, paranoid).
``--cores N`` instead times both cores side by side on the same N deals of four
players (default rules, paranoid, first card): ``solve_masks`` with the compiled
search and the pure-Python one (``solver._solve_masks_python``), checking that they agree.
Wall-clock times on a shared machine are noisy: compare with the CPU times.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bohmisch_watten import GameState, Phase, PlayCard, Rules, new_game, solver
from bohmisch_watten.cards import SUIT_OF
from bohmisch_watten.solver import point_table, solve


def first_card(num_players: int, rng: random.Random, rules: Rules) -> GameState:
    """A random deal at its first PLAY decision."""
    state = new_game(num_players, rules=rules, dealer=rng.randrange(num_players))
    while state.phase is not Phase.PLAY:
        if state.is_chance_node:
            state = state.apply(state.sample_chance(rng))
        else:
            state = state.apply(rng.choice(state.legal_actions()))
    return state


def _brute(state: GameState, mover: int, deal_number: int) -> int:
    if state.deal_number != deal_number or state.phase is not Phase.PLAY:
        summary = state.last_deal
        assert summary is not None
        return summary.points[mover]
    values = [_brute(state.apply(a), mover, deal_number) for a in state.legal_actions()]
    return min(values) if state.current_player == mover else max(values)


def brute_force(state: GameState) -> dict[PlayCard, int]:
    """Paranoid minimax through ``apply()``: the reference the tests use."""
    mover = state.current_player
    assert mover is not None
    out = {}
    for action in state.legal_actions():
        assert isinstance(action, PlayCard)
        out[action] = _brute(state.apply(action), mover, state.deal_number)
    return out


def _ms(values: list[float], digits: int = 2) -> str:
    values = sorted(values)
    p90 = values[min(len(values) - 1, int(0.9 * len(values)))]
    return (
        f"median {statistics.median(values) * 1e3:7.{digits}f} ms"
        f"   p90 {p90 * 1e3:7.{digits}f} ms   max {values[-1] * 1e3:7.{digits}f} ms"
    )


def pack36(deals: int, seed: int) -> None:
    """The first-card times of ``deals`` seeded deals per table size of the 36-card pack."""
    print("solve(state) from the first card of random deals, default rules")
    for num_players, pack in ((4, 32), (5, 36), (6, 36), (7, 36)):
        rng = random.Random(seed + num_players)
        rules = Rules(pack=pack)
        states = [first_card(num_players, rng, rules) for _ in range(deals)]
        solve(states[0])  # warm up: imports, the move cache
        wall, cpu = [], []
        for state in states:
            start, start_cpu = time.perf_counter(), time.process_time()
            solve(state)
            cpu.append(time.process_time() - start_cpu)
            wall.append(time.perf_counter() - start)
        label = f"{num_players} players pack={pack}  {deals:3} deals"
        print(f"{label}  wall {_ms(wall)}")
        print(f"{'':29}  cpu  {_ms(cpu)}")


def cores(deals: int, seed: int) -> None:
    """Python and compiled ``solve_masks`` on the same first cards of four players."""
    if solver._NATIVE_SOLVE is None:
        raise SystemExit("no compiled core runs: python setup.py build_ext --inplace")
    rng = random.Random(seed + 40 + True)  # the deals of the 4-player must_head=True row
    states = [first_card(4, rng, Rules()) for _ in range(deals)]
    calls = []
    for state in states:
        trump = SUIT_OF[state.trump_index]
        args = (state.hand_masks, state.trick_plays, state.tricks_won, trump)
        keywords = {
            "player": state.current_player,
            "folded": state.folded,
            "points": point_table(trump, state.rules, state.scores),
        }
        calls.append((args, keywords))
    medians = {}
    for name, search in (("python", solver._solve_masks_python), ("native", solver.solve_masks)):
        search(*calls[0][0], **calls[0][1])  # warm up
        wall, cpu = [], []
        for args, keywords in calls:
            start, start_cpu = time.perf_counter(), time.process_time()
            search(*args, **keywords)
            cpu.append(time.process_time() - start_cpu)
            wall.append(time.perf_counter() - start)
        medians[name] = statistics.median(wall)
        print(f"solve_masks {name:6}  4 players  {deals:3} deals  wall {_ms(wall, 3)}")
        print(f"{'':35}  cpu  {_ms(cpu, 3)}")
    for args, keywords in calls:
        assert solver.solve_masks(*args, **keywords) == solver._solve_masks_python(
            *args, **keywords
        ), "the cores disagree"
    print(f"median wall time, python / native: {medians['python'] / medians['native']:.0f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, nargs=3, default=[200, 100, 50])
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--brute", type=int, default=2)
    parser.add_argument("--selfish", action="store_true")
    parser.add_argument("--pack36", type=int, default=0, metavar="N")
    parser.add_argument("--cores", type=int, default=0, metavar="N")
    args = parser.parse_args()
    if args.cores:
        cores(args.cores, args.seed)
        return
    if args.pack36:
        pack36(args.pack36, args.seed)
        return
    modes = ["paranoid", "selfish"] if args.selfish else ["paranoid"]
    print("solve(state) from the first card of random deals")
    for others in modes:
        for num_players, deals in zip((2, 3, 4), args.deals, strict=True):
            for must_head in (True, False):
                rng = random.Random(args.seed + 10 * num_players + must_head)
                rules = Rules(must_head=must_head)
                states = [first_card(num_players, rng, rules) for _ in range(deals)]
                solve(states[0], others=others)  # warm up: imports, the move cache
                wall, cpu = [], []
                for state in states:
                    start, start_cpu = time.perf_counter(), time.process_time()
                    solve(state, others=others)
                    cpu.append(time.process_time() - start_cpu)
                    wall.append(time.perf_counter() - start)
                label = f"{others:8} {num_players} players must_head={must_head!s:5}"
                print(f"{label}  {deals:3} deals  wall {_ms(wall)}")
                print(f"{'':40}  {deals:3} deals  cpu  {_ms(cpu)}")
                if others == "paranoid" and args.brute:
                    brute = []
                    for state in states[: args.brute]:
                        start = time.perf_counter()
                        expected = brute_force(state)
                        brute.append(time.perf_counter() - start)
                        assert expected == solve(state), "solver and brute force disagree"
                    print(f"{'':8} brute force through apply(), {len(brute)} deals  {_ms(brute)}")


if __name__ == "__main__":
    main()
