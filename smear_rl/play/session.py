"""A match between one person and bots, seen from the person's seat; no screen attached.

The session owns the engine game and the bots. It applies the bots' moves and
the person's, and reports each as :mod:`~smear_rl.play.events` built only from
what the person's seat may know: the person's view before and after the move
(``player_view``), the public move itself (another seat's discard becomes a
count), public counts (deals, draws) and, once a hand is over, the engine's
hand result. The terminal renders those events; a web table or the bot
service can drive the same session.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agents.base import Agent, Decision
from agents.registry import make_agent
from smear_env import actions as A
from smear_env.cards import SUITS, parse_card, suit_of
from smear_rl.play import events as ev
from smear_rl.play.breakdown import bid_label
from smear_rl.play.entry import why_illegal
from smear_rl.play.games import GameKind, SmearKind
from smear_rl.play.hand import sort_cards

HUMAN = "human"  # what a record calls the person's seat


def bot_seed(seed: int, seat: int) -> int:
    """The seed of the bot at ``seat`` in a match of ``seed`` (the hint bot takes seat -1)."""
    return seed * 1000 + (999 if seat < 0 else seat)


def _check_seat(kind: GameKind, seat: int) -> None:
    if not 0 <= seat < kind.num_players:
        raise ValueError(f"seat {seat} is not a seat of {kind.name}: expected 0..{kind.num_players - 1}")


class Session:
    """One match: the person at ``seat``, a bot at every other seat (``bots[seat]`` is None).

    ``specs`` name each seat's player in the record; ``game`` starts from an engine game
    already made (a scripted deal, a replayed record) instead of a fresh one from ``seed``.
    """

    def __init__(
        self,
        kind: GameKind,
        seat: int,
        bots: Sequence[Agent | None],
        seed: int,
        specs: Sequence[str] | None = None,
        game: Any | None = None,
    ) -> None:
        n = kind.num_players
        _check_seat(kind, seat)
        if len(bots) != n or bots[seat] is not None or any(b is None for s, b in enumerate(bots) if s != seat):
            raise ValueError(f"expected {n} players: None at the person's seat {seat} and a bot at every other")
        self.kind = kind
        self.seat = seat
        self.bots = list(bots)
        self.seed = seed
        self.specs = list(specs) if specs is not None else [HUMAN if b is None else b.name for b in bots]
        self.game = kind.new_game(seed) if game is None else game  # a given game: a fixed deal, a replayed record
        self.log: list[ev.Event] = []  # every event so far, in order
        self.last_trick: ev.TrickWon | None = None
        self.my_pickups: list[ev.PickedUp] = []  # the person's pickups in this hand

    @classmethod
    def create(cls, kind: GameKind, seat: int, bot_specs: Sequence[str], seed: int) -> Session:
        """A session whose bots are built by name or checkpoint (``agents.registry.make_agent``), one per other seat."""
        n = kind.num_players
        _check_seat(kind, seat)
        if len(bot_specs) == 1:
            bot_specs = list(bot_specs) * (n - 1)
        if len(bot_specs) != n - 1:
            raise ValueError(
                f"{len(bot_specs)} bots named for {n - 1} other seats: {kind.name} seats {n} players, "
                f"so name {n - 1} bots (or one for every seat)"
            )
        specs = list(bot_specs)
        specs.insert(seat, HUMAN)
        bots = [
            None if s == seat else make_agent(spec, kind.agent_rules(), bot_seed(seed, s))
            for s, spec in enumerate(specs)
        ]
        return cls(kind, seat, bots, seed, specs)

    # ------------------------------------------------------------------ what the person sees
    @property
    def view(self) -> dict[str, Any]:
        """Everything the person's seat may know now (``player_view``)."""
        return self.kind.view(self.game, self.seat)

    @property
    def over(self) -> bool:
        return self.game.is_over

    @property
    def my_turn(self) -> bool:
        return not self.over and self.game.current_player == self.seat

    @property
    def hands_played(self) -> int:
        """Hands (Schneider: rounds) scored so far."""
        return len(self.kind.results(self.game))

    def start(self) -> list[ev.Event]:
        """The first deal, as an event."""
        return self._note([self._dealt(self.view, "")])

    def hint(self, bot: Agent) -> Decision:
        """What ``bot`` would do in the person's place, from the person's view only."""
        return bot.decide(self.view)

    def record(self) -> dict[str, Any]:
        """The game record so far (``games.replay_record`` rebuilds it), naming each seat's player."""
        return {**self.game.record(), "players": list(self.specs)}

    # ------------------------------------------------------------------ moves
    def bot_turn(self) -> list[ev.Event]:
        """The bot on turn moves; in the discard phase it goes on until its discards are done."""
        seat = self.game.current_player
        bot = self.bots[seat]
        if self.over or bot is None:
            raise ValueError("no bot is on turn")
        events: list[ev.Event] = []
        while True:
            action = bot.act(self.kind.view(self.game, seat))
            events += self._apply(seat, action)
            if not self._discarding_on(seat, action):
                return self._note(ev.merge_discards(events))

    def play(self, actions: Sequence[int]) -> list[ev.Event]:
        """The person's moves, in order; all are checked first, so a bad one changes nothing."""
        self.check(actions)
        events: list[ev.Event] = []
        for action in actions:
            events += self._apply(self.seat, action)
        return self._note(ev.merge_discards(events))

    def check(self, actions: Sequence[int]) -> None:
        """``ValueError`` with a one-line reason unless the person may make these moves one after another now."""
        if not actions:
            raise ValueError("no move given")
        game = self.game.clone()
        for done, action in enumerate(actions):
            if game.is_over or game.current_player != self.seat:
                raise ValueError(f"your turn ends after {done} of those {len(actions)} moves")
            if action not in game.legal_actions():
                raise ValueError(why_illegal(self.kind, self.kind.view(game, self.seat), action))
            game.apply(action)

    def _discarding_on(self, seat: int, action: int) -> bool:
        """``seat`` discarded and is still on turn to discard: its turn goes on."""
        is_discard = isinstance(self.kind, SmearKind) and A.DISCARD_BASE <= action < A.DONE
        return is_discard and not self.over and self.game.current_player == seat and self.view["phase"] == "discard"

    # ------------------------------------------------------------------ events
    def _apply(self, seat: int, action: int) -> list[ev.Event]:
        game, kind = self.game, self.kind
        before = self.view
        deals, results = len(game.deals), self.hands_played
        game.apply(action)
        after = self.view
        events = self._move_events(seat, action, before)
        if self.hands_played > results:
            events.append(ev.HandScored(kind.last_breakdown(game)))
        if game.is_over:
            events.append(ev.MatchOver(tuple(sorted(game.winners)), tuple(game.scores)))
        elif len(game.deals) > deals:
            redeal = "" if self.hands_played > results else "misdeal" if action == A.MISDEAL else "all passed"
            events.append(self._dealt(after, redeal))
        else:
            events += self._pickups(seat, before, after)
        return events

    def _dealt(self, view: dict[str, Any], redeal: str) -> ev.HandDealt:
        return ev.HandDealt(self.hands_played + 1, view["dealer"], tuple(sort_cards(view["hand"])), redeal)

    def _move_events(self, seat: int, action: int, before: dict[str, Any]) -> list[ev.Event]:
        """The move itself as the person sees it, and the trick it completes."""
        label = self.kind.format_action(action)
        verb, _, arg = label.partition(" ")
        if verb == "play":
            return self._play_events(seat, arg, before)
        if verb == "pass":
            return [ev.Bid(seat, "pass")]
        if verb == "bid":
            return [ev.Bid(seat, bid_label(A.MOON_BID if arg == "moon" else int(arg), self.kind.rules))]
        if verb == "misdeal":
            return [ev.MisdealCalled(seat)]
        if verb == "trump":
            return [ev.TrumpNamed(seat, arg, False)]
        if verb == "call":
            return [ev.PartnerCalled(seat, arg, self.view["partner"])]
        if verb == "discard":
            return [ev.Discarded(seat, 1, (arg,) if seat == self.seat else ())]
        return [ev.StoppedExchanging(seat)]

    def _play_events(self, seat: int, card: str, before: dict[str, Any]) -> list[ev.Event]:
        events: list[ev.Event] = []
        trump = before.get("trump")
        if trump is None and isinstance(self.kind, SmearKind):
            trump = SUITS[suit_of(parse_card(card))]
            events.append(ev.TrumpNamed(seat, trump, True))
        trick = list(before["trick"]) + [(seat, card)]
        number = len(before["tricks"]) + 1
        events.append(ev.Played(seat, card, number, len(trick) == 1))
        if len(trick) == self.kind.num_players:
            events.append(ev.TrickWon(number, tuple(trick), self.kind.trick_winner(trick, trump)))
        return events

    def _pickups(self, actor: int, before: dict[str, Any], after: dict[str, Any]) -> list[ev.Event]:
        """Cards taken in this move: the kitty, stock or blinds (Smear), the pile (Schneider)."""
        mine = tuple(sort_cards(set(after["hand"]) - set(before["hand"])))
        if not isinstance(self.kind, SmearKind):
            drawn = before["pile_size"] - after["pile_size"]
            if not drawn:
                return []
            winner = after["tricks"][-1]["winner"]  # the pile is drawn after a trick, its winner first
            order = [winner, 1 - winner]
            counts = {self.seat: len(mine), 1 - self.seat: drawn - len(mine)}
            return [self._pickup(s, "pile", counts[s], mine) for s in order if counts[s]]
        rules = self.kind.rules
        source = (
            "kitty"
            if rules.kitty_size and before["phase"] == "bid"
            else "blinds"
            if rules.stock_use == "blinds"
            else "stock"
        )
        counts = [a - b for a, b in zip(after["drawn_counts"], before["drawn_counts"])]
        seats = [actor] + [s for s in range(len(counts)) if s != actor]
        return [self._pickup(s, source, counts[s], mine) for s in seats if counts[s] > 0]

    def _pickup(self, seat: int, source: str, count: int, mine: tuple[str, ...]) -> ev.PickedUp:
        return ev.PickedUp(seat, source, count, mine if seat == self.seat else ())

    def _note(self, events: list[ev.Event]) -> list[ev.Event]:
        """Keep what later questions need (the last trick, the person's pickups) and log the events."""
        for event in events:
            if isinstance(event, ev.TrickWon):
                self.last_trick = event
            elif isinstance(event, ev.HandDealt):
                self.my_pickups = []
            elif isinstance(event, ev.PickedUp) and event.seat == self.seat:
                self.my_pickups.append(event)
        self.log += events
        return events
