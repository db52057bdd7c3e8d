"""Write the golden playthroughs: ``python tests/golden/regenerate.py`` (or ``make golden``).

Each game below is played from a new game with a seeded :class:`random.Random`: shuffles
come from ``sample_chance`` and every decision is a seeded choice among
``legal_actions()`` (folding and taking a Critical are chosen more often than the rest,
so that they show up).  Every step is written out: the state before it, every legal
action and the chosen one, all in the library's notation (``str(action)``).  The files
are reviewed like code: ``tests/test_golden.py`` regenerates them and fails on any
difference, so a change of behaviour shows up as a diff of these files.  After an
intended change, run this script and review and commit the new files.

With ``--check`` the script writes nothing and exits with 1 if a file would change.
"""

from __future__ import annotations

import random
import sys
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bohmisch_watten import Action, Fold, GameState, Rules, TakeCritical, new_game

HERE = Path(__file__).resolve().parent
WIDTH = 100


@dataclass(frozen=True)
class Game:
    """One golden game: who plays, under which rules, from which seed, for how long."""

    name: str
    num_players: int
    rules: Rules
    seed: int
    dealer: int = 0
    max_deals: int | None = None
    """Stop after this many deals (None: play to the end of the game)."""
    about: str = ""

    @property
    def path(self) -> Path:
        return HERE / f"{self.name}.txt"


GAMES = (
    Game(
        "2p_default", 2, Rules(), seed=75,
        about="Default rules, two players, the whole game.",
    ),
    Game(
        "3p_default", 3, Rules(), seed=216, dealer=1, max_deals=2,
        about="Default rules, three players, the first two deals.",
    ),
    Game(
        "4p_default", 4, Rules(), seed=395, dealer=3, max_deals=2,
        about="Default rules, four players, the first two deals.",
    ),
    Game(
        "2p_cutter_only_no_heading", 2,
        Rules(schleck="cutter_only", must_head=False, start_score=6), seed=4,
        about="Only the cutter takes Criticals (R14), heading not compulsory (R26).",
    ),
    Game(
        "3p_added_back_plus_fifty", 3,
        Rules(overshoot="added_back", plus_fifty=True, hearts_double=False,
              dealer_stock_limit=3, start_score=5, min_fold_score=2),
        seed=250,
        about="Overshoot added back (R32), 50 also wins (R33), Hearts not doubled, "
        "dealer exchanges 3 (R19).",
    ),
    Game(
        "4p_no_ritual_low_fold", 4,
        Rules(schleck="none", min_fold_score=-5, start_score=9), seed=318, dealer=2,
        about="No cutting ritual (R14); folding allowed at any score above -5 (R21.3).",
    ),
    Game(
        "7p_pack36", 7, Rules(pack=36), seed=262, dealer=262 % 7, max_deals=3,
        about="The 36-card pack, seven players (R1, R6): an empty stock, a Six turned up.",
    ),
)  # fmt: skip
"""The golden games; the seeds were picked so that rare events occur (see each file)."""


def choose(state: GameState, rng: random.Random) -> Action:
    """The seeded policy: a random legal action, folding and taking somewhat preferred."""
    if state.is_chance_node:
        return state.sample_chance(rng)
    legal = state.legal_actions()
    if Fold() in legal and rng.random() < 0.3:
        return Fold()
    if TakeCritical() in legal and rng.random() < 0.5:
        return TakeCritical()
    return rng.choice(legal)


def cards(items: object) -> str:
    return " ".join(str(c) for c in items) or "-"  # type: ignore[attr-defined]


def field(label: str, text: str) -> str:
    """``label`` in a 14-character column, ``text`` wrapped under it."""
    return textwrap.fill(
        text, WIDTH, initial_indent=f"{label:<14}", subsequent_indent=" " * 14,
        break_on_hyphens=False,
    )  # fmt: skip


def items(label: str, entries: list[str]) -> str:
    """Like :func:`field`, for a list separated by `` | ``, never breaking an entry."""
    lines: list[str] = []
    line = ""
    for entry in entries:
        if line and 14 + len(line) + 3 + len(entry) > WIDTH:
            lines.append(line + " |")
            line = entry
        else:
            line = f"{line} | {entry}" if line else entry
    lines.append(line)
    return "\n".join(
        f"{label if i == 0 else '':<14}{text}" for i, text in enumerate(lines)
    ).rstrip()


def describe(state: GameState) -> Iterator[str]:
    """The state before a step: what a person needs to follow the game."""
    n = state.num_players
    yield field("scores", " ".join(f"{s}" for s in state.scores))
    trump = state.trump_card
    line = f"dealer {state.dealer}"
    if trump is not None:
        line += f", trump card {trump} ({state.trump_suit.label} trumps)"  # type: ignore[union-attr]
        if state.trump_card_taken:
            line += ", taken by the dealer"
    yield field("deal", line)
    if state.is_chance_node:
        return
    if state.cut_looks:
        looks = [
            f"seat {s} {'took' if taken else 'looks at'} {c}" for s, c, taken, _ in state.cut_looks
        ]
        yield field("cut ritual", ", ".join(looks))
    for seat in range(n):
        notes = []
        if state.folded[seat]:
            notes.append("folded")
        if state.exchanged[seat] is not None:
            notes.append(f"exchanged {state.exchanged[seat]}: {cards(state.discards[seat])}")
        if state.tricks:
            notes.append(f"tricks {state.tricks_won[seat]}")
        mark = ">" if seat == state.current_player else " "
        text = cards(state.hands[seat]) + ("   (" + "; ".join(notes) + ")" if notes else "")
        yield field(f"{mark} seat {seat}", text)
    yield field(f"stock ({len(state.stock)})", cards(state.stock))
    if state.tricks:
        done = [f"{t.winner}:{cards(c for _, c in t.plays)}" for t in state.tricks]
        yield field("tricks", "  ".join(done))
    if state.trick:
        yield field("trick", "  ".join(f"{s}:{c}" for s, c in state.trick))


def summarise_deal(state: GameState) -> Iterator[str]:
    deal = state.last_deal
    assert deal is not None
    yield ""
    yield f"=== deal {deal.deal_number} scored" + (
        " (doubled: Hearts trumps)" if deal.doubled else ""
    )
    for i, trick in enumerate(deal.tricks, 1):
        plays = "  ".join(f"{s}:{c}" for s, c in trick.plays)
        yield field(f"trick {i}", f"{plays}   -> seat {trick.winner}")
    yield field("tricks won", " ".join(map(str, deal.tricks_won)))
    yield field("points", " ".join(f"{p:+d}" for p in deal.points))
    yield field("scores", " ".join(map(str, deal.scores)))
    if state.is_terminal:
        yield ""
        yield f"=== game over: winners {list(state.winners)}, losers {list(state.losers)}"


def render(game: Game) -> str:
    """The whole golden file of ``game``."""
    rules = str(game.rules) or "default"
    lines = [
        f"# Golden playthrough {game.name}: {game.num_players} players, rules {rules},",
        f"# first dealer {game.dealer}, seed {game.seed}"
        + (f", first {game.max_deals} deals" if game.max_deals else ", whole game")
        + ".",
        f"# {game.about}",
        "# Generated by tests/golden/regenerate.py (make golden); checked by tests/test_golden.py.",
        "# Each step: the state before it, every legal action, the chosen action.",
        "# Seats are 0..N-1 clockwise; '>' marks the player to act; cards as in RULES.md.",
    ]
    rng = random.Random(game.seed)
    state = new_game(game.num_players, rules=game.rules, dealer=game.dealer)
    step = 0
    while not state.is_terminal:
        if game.max_deals is not None and state.deal_number > game.max_deals:
            break
        step += 1
        who = "chance" if state.is_chance_node else f"seat {state.current_player} to act"
        lines.append("")
        lines.append(f"--- step {step} · deal {state.deal_number} · {state.phase.name} · {who}")
        lines.extend(describe(state))
        action = choose(state, rng)
        if not state.is_chance_node:
            legal = state.legal_actions()
            lines.append(items(f"legal ({len(legal)})", [str(a) for a in legal]))
        lines.append(field("chosen", str(action)))
        after = state.apply(action)
        if after.last_deal is not state.last_deal:
            lines.extend(summarise_deal(after))
        state = after
    if not state.is_terminal:
        lines.append("")
        lines.append(f"=== stopped after {game.max_deals} deals")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    check = "--check" in argv
    changed = []
    for game in GAMES:
        text = render(game)
        old = game.path.read_text(encoding="utf-8") if game.path.exists() else None
        if text != old:
            changed.append(game.path.name)
            if not check:
                game.path.write_text(text, encoding="utf-8")
    verb = "would change" if check else "rewritten"
    print(f"{len(GAMES)} golden games, {len(changed)} {verb}: {' '.join(changed) or '-'}")
    return 1 if check and changed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
