"""atheris: the public loaders and ``GameState.apply`` fed arbitrary bytes.

Run by tests/test_fuzz.py (a bounded run in CI, on whichever core the environment
selects: the compiled one by default) or by hand for longer::

    python tests/fuzz/fuzz_public.py -atheris_runs=1000000

Each input is split by its first byte into one of the targets.  A target may raise
only the library's documented errors for bad input (``FormatError``,
``IllegalActionError``, ``TypeError``, ``ValueError``); anything else -- another
exception, a crash of the compiled core, a hang -- is a finding.  The game target
plays a seeded game in which the fuzzer picks each action, legal or not, by id or by
text, and checks that a refused action leaves the state as it was.
"""

from __future__ import annotations

import contextlib
import random
import sys

import atheris

with atheris.instrument_imports():
    import bohmisch_watten as bw
    from bohmisch_watten.position import Position

EXPECTED = (bw.FormatError, bw.IllegalActionError, TypeError, ValueError)
LOADERS = (
    bw.load_record,
    bw.from_json,
    Position.parse,
    bw.parse_action,
    bw.parse_rules,
    bw.parse_card,
)


def _play(data: atheris.FuzzedDataProvider) -> None:
    players = 2 + data.ConsumeIntInRange(0, 5)
    pack = 36 if players > 4 or data.ConsumeBool() else 32
    rules = bw.Rules(pack=pack, plus_fifty=data.ConsumeBool())
    rng = random.Random(data.ConsumeIntInRange(0, 2**32))
    state = bw.new_game(players, rules=rules)
    while not state.is_terminal and data.remaining_bytes() > 0:
        if state.is_chance_node:
            state = state.apply(state.sample_chance(rng))
            continue
        before = state
        choice = data.ConsumeIntInRange(0, 3)
        try:
            if choice == 0:
                action = bw.id_to_action(state, data.ConsumeIntInRange(-2, 110))
            elif choice == 1:
                action = bw.parse_action(data.ConsumeUnicodeNoSurrogates(12))
            else:
                legal = state.legal_actions()
                action = legal[data.ConsumeIntInRange(0, len(legal) - 1)]
            state = state.apply(action)
        except EXPECTED:
            if state is not before or state.legal_actions() != before.legal_actions():
                raise AssertionError("a refused action changed the state") from None


def test_one_input(raw: bytes) -> None:
    data = atheris.FuzzedDataProvider(raw)
    target = data.ConsumeIntInRange(0, len(LOADERS))
    if target == len(LOADERS):
        _play(data)
        return
    text: str | bytes = (
        data.ConsumeUnicodeNoSurrogates(4096) if data.ConsumeBool() else data.ConsumeBytes(4096)
    )
    with contextlib.suppress(EXPECTED):
        LOADERS[target](text)


def main() -> None:
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
