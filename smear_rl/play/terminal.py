"""The game loop in a terminal: bots' moves one at a time, the person's prompt, the commands.

Input and output are injected (``read(prompt) -> str`` and a rich ``Console``),
and so is ``sleep``, so tests drive whole matches with scripted answers and no
waiting. A bad entry gets one line saying why and the prompt again; end of input
(Ctrl-D) or Ctrl-C leaves the game as ``quit`` does, never with a traceback.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.text import Text

from agents.base import Agent
from smear_rl.play.entry import read_entry
from smear_rl.play.events import Event, HandDealt, HandScored
from smear_rl.play.render import Presenter
from smear_rl.play.session import Session

Reader = Callable[[str], str]
PROMPT = "> "
SAVE_PROMPT = "Save the game record? A file name, or Enter to skip: "
SKIP_ANSWERS = ("n", "no", "skip", "q", "quit")  # answers to SAVE_PROMPT that mean "do not save"


class TerminalGame:
    """One match in the terminal: the person at ``session.seat``, bots elsewhere."""

    def __init__(
        self,
        session: Session,
        presenter: Presenter,
        console: Console,
        read: Reader,
        *,
        hint_bot: Agent | None = None,
        hint_name: str = "",
        delay: float = 0.0,
        sleep: Callable[[float], None] = time.sleep,
        max_hands: int | None = None,
        record_path: Path | None = None,
    ) -> None:
        self.session = session
        self.presenter = presenter
        self.console = console
        self.read = read
        self.hint_bot = hint_bot
        self.hint_name = hint_name
        self.delay = delay
        self.sleep = sleep
        self.max_hands = max_hands
        self.record_path = record_path
        self.quit = False

    def run(self) -> None:
        """Play the match to its end, to ``max_hands``, or until the person quits; then offer the record."""
        self.console.print(self.presenter.seating(self.session.seed))
        self.show(self.session.start())
        try:
            while not self.session.over and not self.quit and not self._hands_done():
                if self.session.my_turn:
                    self.person_turn()
                else:
                    self.show(self.bot_turn())
        except KeyboardInterrupt:
            self.quit = True
            self.console.print()
        self.finish()

    def bot_turn(self) -> list[Event]:
        """The bot on turn moves after the delay, with a spinner naming it meanwhile (terminals only)."""
        seat = self.session.game.current_player
        ascii_only = self.presenter.glyphs.ascii
        waiting = self.presenter.name(seat) + Text(" is thinking" + ("..." if ascii_only else "…"))
        with self.console.status(waiting, spinner="line" if ascii_only else "dots"):
            self.sleep(self.delay)
            return self.session.bot_turn()

    def _hands_done(self) -> bool:
        return self.max_hands is not None and self.session.hands_played >= self.max_hands

    def show(self, events: list[Event]) -> None:
        for event in events:
            if isinstance(event, HandDealt) and self._hands_done():
                continue  # the match stops here: the next deal is not played
            self.console.print(self.presenter.event(event))
            if isinstance(event, HandScored) and self.record_path is not None:
                self.save(self.record_path, quiet=True)  # kept hand by hand, so a lost terminal loses little

    # ------------------------------------------------------------------ the person's turn
    def person_turn(self) -> None:
        """Show the table, then read entries until one is a move (or quit)."""
        self.show_table()
        while not self.quit:
            try:
                text = self.read(PROMPT)
            except (EOFError, KeyboardInterrupt):
                self.console.print()
                self.quit = True
                return
            try:
                entry = read_entry(text, self.session.view, self.session.kind)
                if entry.command:
                    self.command(entry.command, entry.argument)
                    continue
                events = self.session.play(entry.actions)
            except ValueError as err:
                self.console.print(Text(f"  {err}", style="bold red"))
                continue
            self.show(events)
            return

    def show_table(self) -> None:
        view = self.session.view
        self.console.print(self.presenter.status(view, self.session.my_pickups))
        self.console.print(self.presenter.prompt_line(view))
        self.console.print(self.presenter.moves(view))

    def command(self, name: str, argument: str) -> None:
        """Answer a command; the prompt comes back after it (``quit`` ends the loop)."""
        view = self.session.view
        if name == "quit":
            self.quit = True
        elif name == "hint":
            if self.hint_bot is None:
                self.console.print(Text("  no hint bot here"))
            else:
                self.console.print(self.presenter.hint(self.session.hint(self.hint_bot), self.hint_name, view))
        elif name == "help":
            self.console.print(self.presenter.help(view))
        elif name == "score":
            self.console.print(self.presenter.score(view))
        elif name == "last":
            self.console.print(self.presenter.last_trick(self.session.last_trick))
        elif name == "save":
            self.save(Path(argument).expanduser())
        else:  # show
            self.show_table()
            return
        if name not in ("quit", "save"):
            self.console.print(self.presenter.moves(view))

    # ------------------------------------------------------------------ the end
    def finish(self) -> None:
        """Say how the match ended and keep the record (``--record``, or a file name asked for)."""
        session = self.session
        if not session.over:
            done = session.hands_played
            word = session.kind.hand_word + ("" if done == 1 else "s")
            why = "You left the game" if self.quit else f"Stopped after {done} {word} (--max-hands)"
            self.console.print(Text(f"{why}. Score: ") + self.presenter.scores(session.game.scores))
        if self.record_path is not None:
            self.save(self.record_path)
            return
        try:
            answer = self.read(SAVE_PROMPT).strip()
        except (EOFError, KeyboardInterrupt):
            return
        if answer and answer.lower() not in SKIP_ANSWERS:
            self.save(Path(answer).expanduser())

    def save(self, path: Path, quiet: bool = False) -> bool:
        """Write the record as JSON; a path that cannot be written gets a one-line reason, not a traceback."""
        try:
            path.write_text(json.dumps(self.session.record(), indent=1) + "\n")
        except OSError as err:
            self.console.print(Text(f"  could not save the record to {str(path)!r}: {err.strerror}", style="bold red"))
            return False
        if not quiet:
            self.console.print(Text(f"Game record saved to {path}."))
        return True
