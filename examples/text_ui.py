"""A small text UI: you play seat 0 against greedy bots, from your player view only.

Run it after ``make demo`` (which creates ``.venv`` and installs the package there):
``make example NAME=text_ui`` or ``.venv/bin/python examples/text_ui.py [--seed N]
[--players 2|3|4]`` and type commands, or pipe them in (``printf '1\\n1\\nquit\\n' |
.venv/bin/python examples/text_ui.py``); ``--auto`` lets a bot play your seat too and
prints the whole game without asking.

The :class:`Table` class is the part a GUI would reuse: it owns the game state, runs
chance and the bots (:meth:`Table.advance`), shows only the human seat's
:class:`~bohmisch_watten.views.PlayerView` (:meth:`Table.render`), and turns a click
or a typed command into an action (:meth:`Table.handle`), reporting an
:class:`~bohmisch_watten.IllegalActionError` as a message instead of crashing.  A GUI
calls the same three methods from its event handlers.

Commands: a number picks that entry of the short list of choices (the "click"): take
or leave an offered Critical, keep the hand or fold in the exchange, a card in trick
play.  To exchange, name the cards to give away (``G8 H7``, or ``exchange G8 H7``;
the dealer adds ``+trump`` to take the trump card).  Action notation such as ``play HK``
or ``fold`` is applied as typed, and during trick play a bare card (``HK``) plays it;
``save FILE`` / ``load FILE`` write and read the game (a ``.json`` file holds the state
document, any other name the text record); ``help``; ``quit``.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterable
from pathlib import Path

from bohmisch_watten import (
    CRITICALS,
    Action,
    Exchange,
    Fold,
    FormatError,
    GameState,
    IllegalActionError,
    LeaveCritical,
    Phase,
    PlayCard,
    Shuffle,
    TakeCritical,
    load_record,
    new_game,
    parse_action,
    replay,
)
from bohmisch_watten.tricks import winning_play
from bohmisch_watten.views import PlayerView

sys.path.insert(0, str(Path(__file__).parent))
from greedy_bot import GREEDY

CRITICAL_NAMES = dict(zip(CRITICALS, ("Maxi", "Belli", "Spitz"), strict=True))


def name(seat: int | None, human: int, capital: bool = True) -> str:
    """How the table calls a seat: "You" for the human (R1 seat numbers for the others)."""
    if seat == human:
        return "You" if capital else "you"
    return f"Seat {seat}" if capital else f"seat {seat}"


def describe(seat: int | None, action: Action, human: int) -> str:
    """One line of the table's log, showing only what the human seat may know (R23)."""
    if isinstance(action, Shuffle):
        return "The cards are shuffled and cut."
    who = name(seat, human)
    you = seat == human
    if isinstance(action, Exchange) and not you:
        taken = " and takes the trump card" if action.take_trump_card else ""
        count = len(action.discard)
        cards = "no cards" if count == 0 else "1 card" if count == 1 else f"{count} cards"
        return f"{who} plays and exchanges {cards}{taken}."
    if isinstance(action, Exchange):
        given = " ".join(str(c) for c in sorted(action.discard)) or "nothing"
        taken = " and take the trump card" if action.take_trump_card else ""
        return f"You play and exchange {given}{taken}."
    if isinstance(action, PlayCard):
        return f"{who} play{'' if you else 's'} {action.card}."
    if isinstance(action, TakeCritical):
        return f"{who} take{'' if you else 's'} the Critical."
    if isinstance(action, LeaveCritical):
        return f"{who} leave{'' if you else 's'} the Critical at the bottom."
    return f"{who} fold{'' if you else 's'}."


class Table:
    """A game at the table as one seat sees it: the controller behind any UI."""

    def __init__(self, players: int = 4, seed: int = 1, human: int = 0) -> None:
        self.rng = random.Random(seed)
        self.human = human
        self.state = new_game(players)

    @property
    def view(self) -> PlayerView:
        """What the human seat may see now."""
        return self.state.view(self.human)

    def _apply(self, action: Action) -> list[str]:
        """Apply one action and describe it, and the end of a trick or deal it caused."""
        before = self.state
        self.state = before.apply(action)
        lines = [describe(before.current_player, action, self.human)]
        if isinstance(action, Exchange) and before.current_player == self.human:
            drawn = " ".join(str(c) for c in self.view.draws)  # R23: only you see them
            lines += [f"You draw {drawn}."] if drawn else []
        if isinstance(action, PlayCard):
            done = self.state.last_deal  # the fifth trick ends the deal
            tricks = done.tricks if self.state.phase is not Phase.PLAY and done else ()
            tricks = tricks or self.state.tricks
            if len(tricks) > len(before.tricks):
                winner = name(tricks[-1].winner, self.human)
                lines.append(f"{winner} win{'' if winner == 'You' else 's'} the trick.")
        if self.state.last_deal is not before.last_deal:
            deal = self.state.last_deal
            assert deal is not None
            points = ", ".join(
                f"{name(s, self.human, False)} {p:+d}" for s, p in enumerate(deal.points)
            )
            lines.append(f"Deal {deal.deal_number} over. Points: {points}.")
        if self.state.phase is Phase.EXCHANGE and before.phase in (Phase.DEAL, Phase.CUT):
            for seat, card, taken, critical in self.view.cut_looks:
                if seat == self.human and card is not None and not taken and not critical:
                    lines.append(f"You saw the cut card {card}: no Critical, it stays below.")
        return lines

    def advance(self) -> list[str]:
        """Run chance and the bots until the human seat must act or the game is over."""
        lines: list[str] = []
        while not self.state.is_terminal:
            if self.state.is_chance_node:
                lines += self._apply(self.state.sample_chance(self.rng))
            elif self.state.current_player == self.human:
                break
            else:
                seat = self.state.current_player
                assert seat is not None
                lines += self._apply(GREEDY.choose(self.state.view(seat), self.rng))
        return lines

    def choices(self) -> list[tuple[str, Action]]:
        """The short numbered list a person picks from (the exchange itself is typed)."""
        view = self.view
        out: list[tuple[str, Action]] = []
        for action in view.legal_actions():
            if isinstance(action, TakeCritical):
                out.append(("take the Critical into your hand", action))
            elif isinstance(action, LeaveCritical):
                out.append(("leave it at the bottom", action))
            elif isinstance(action, Exchange) and not action.discard and not action.take_trump_card:
                out.append(("play, keep your hand (exchange nothing)", action))
            elif isinstance(action, Fold):
                out.append(("fold this deal", action))
            elif isinstance(action, PlayCard):
                out.append((f"play {action.card}", action))
        return out

    def _exchange_help(self) -> str:
        """One line instead of 41 numbered exchanges: how many, and the trump option."""
        legal = [a for a in self.view.legal_actions() if isinstance(a, Exchange)]
        most = max(len(a.discard) for a in legal if not a.take_trump_card)
        cards = "1 card" if most == 1 else f"{most} cards"
        line = f"Or name up to {cards} to exchange with the stock, e.g. 'G8 H7'"
        with_trump = [len(a.discard) for a in legal if a.take_trump_card]
        if with_trump:  # R19: the dealer may take the trump card for one of his cards
            line += (
                f"; add '+trump' to take the trump card {self.view.trump_card} for one of"
                f" them (up to {max(with_trump)} cards in all)"
            )
        return line + "."

    def render(self) -> str:
        """The human seat's view as text, with the choices numbered."""
        view = self.view
        if self.state.is_terminal:
            return f"Game over. Scores {list(view.scores)}; winners {list(view.winners)}."
        dealer = "you deal" if view.dealer == self.human else f"seat {view.dealer} deals"
        lines = [
            f"--- Deal {view.deal_number}, {view.phase.name}; {dealer}; scores {list(view.scores)}",
        ]
        if view.trump_card is not None:
            taken = " (taken by the dealer)" if view.trump_card_taken else ""
            lines.append(f"Trump card: {view.trump_card}{taken}")
        if view.trick and view.trump_suit is not None:
            plays = ", ".join(f"{name(s, self.human, False)} {c}" for s, c in view.trick)
            leader = name(winning_play(view.trick, view.trump_suit)[0], self.human)
            verb = "are" if leader == "You" else "is"
            lines.append(
                f"Trick: {plays} ({leader.lower() if leader == 'You' else leader} {verb} winning)"
            )
        lines.append("Your hand: " + (" ".join(str(c) for c in view.hand) or "-"))
        actions = view.legal_actions()
        if TakeCritical() in actions:  # R12: the human looked at the cut card
            card = view.cut_looks[-1].card
            assert card is not None
            lines.append(f"The cut card is {card} ({CRITICAL_NAMES[card]}), a Critical.")
        for number, (label, _) in enumerate(self.choices(), 1):
            lines.append(f"  {number:2d}. {label}")
        if any(isinstance(a, Exchange) for a in actions):
            lines.append(self._exchange_help())
        return "\n".join(lines)

    def handle(self, command: str) -> list[str]:
        """Turn one click or typed command into an action; errors become messages."""
        word, _, argument = command.strip().partition(" ")
        if word in ("save", "load"):
            return self._save(argument) if word == "save" else self._load(argument)
        if word == "help":
            return [__doc__.split("Commands: ")[1].strip() if __doc__ else ""]
        try:
            action = self._parse(command.strip())
            lines = self._apply(action)
        except IllegalActionError as error:  # the message names the rule (R-ID)
            return [f"Not allowed: {error}"]
        except (FormatError, IndexError) as error:
            return [f"Not understood: {error}"]
        return lines + self.advance()

    def _parse(self, text: str) -> Action:
        choices = self.choices()
        if text.isdigit():
            number = int(text)
            if not 1 <= number <= len(choices):
                raise IndexError(f"pick a number from 1 to {len(choices)}")
            return choices[number - 1][1]
        verbs = ("take", "leave", "fold", "exchange", "play")
        first = text.split()[0].lower() if text.split() else ""
        if first not in verbs and self.view.phase is Phase.PLAY:
            text = f"play {text}"  # a bare card, as a click on it
        elif first not in verbs and self.view.phase is Phase.EXCHANGE:
            text = f"exchange {text}"  # the cards to give away
        return parse_action(text)

    def _save(self, name: str) -> list[str]:
        path = Path(name)
        if path.suffix == ".json":
            path.write_text(self.state.to_json(indent=1), encoding="utf-8")
        else:
            path.write_text(self.state.record().to_text(), encoding="utf-8")
        return [f"Saved to {path}."]

    def _load(self, name: str) -> list[str]:
        try:
            text = Path(name).read_text(encoding="utf-8")
            if name.endswith(".json"):
                state = GameState.from_json(text)
            else:
                state = replay(load_record(text))
        except (OSError, FormatError) as error:
            return [f"Could not load {name}: {error}"]
        self.state = state
        return [f"Loaded {name}.", *self.advance()]


def run(
    table: Table, commands: Iterable[str], auto: bool, echo: bool = False, max_deals: int = 200
) -> None:
    """The event loop: show the view, read a command, apply it, until the game ends."""
    for line in table.advance():
        print(line)
    inputs = iter(commands)
    while not table.state.is_terminal:
        if table.state.deal_number > max_deals:
            print(f"Stopped after {max_deals} deal{'' if max_deals == 1 else 's'}.")
            return
        print(table.render())
        if auto:
            command = str(GREEDY.choose(table.view, table.rng))
            print(f"> {command}")
        else:
            print("> ", end="", flush=True)
            command = next(inputs, "quit").strip()
            if echo:  # piped input: show it, so the transcript reads like a session
                print(command)
            if not command:
                continue
        if command == "quit":
            print("Bye.")
            return
        for line in table.handle(command):
            print(line)
    print(table.render())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Play Böhmisch Watten against greedy bots.")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=4)
    parser.add_argument("--auto", action="store_true", help="a bot plays your seat too")
    args = parser.parse_args(argv)
    run(Table(args.players, args.seed), sys.stdin, args.auto, echo=not sys.stdin.isatty())
    return 0


if __name__ == "__main__":
    sys.exit(main())
