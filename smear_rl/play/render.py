"""How the table looks in a terminal: cards, hands, tricks, events and breakdowns as rich renderables.

Every suit has its symbol and its own colour (a four-colour deck: spades plain,
hearts red, diamonds orange, clubs green), so suits are told apart without
colour too; ``ascii=True`` writes suit letters instead (``AS``, ``10H``) and
draws boxes with plain characters. The ten shows as ``10``, which the move
reader accepts as typed. Everything here renders the person's view and the
session's events; nothing reads the game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rich import box
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from agents.base import Decision
from smear_env.cards import format_card, parse_card
from smear_env.schneider.game import card_above
from smear_rl.play.breakdown import HandBreakdown, RoundBreakdown, bid_label
from smear_rl.play.entry import COMMANDS, SUIT_NAMES, ordered_moves
from smear_rl.play.events import (
    Bid,
    Discarded,
    Event,
    HandDealt,
    HandScored,
    MatchOver,
    MisdealCalled,
    PartnerCalled,
    PickedUp,
    Played,
    StoppedExchanging,
    TrickWon,
    TrumpNamed,
)
from smear_rl.play.games import GameKind, SmearKind
from smear_rl.play.hand import hand_groups

SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_STYLES = {"C": "bold green", "D": "bold dark_orange", "H": "bold red", "S": "bold"}
JOKER_STYLE = "bold magenta"
MY_TEAM_STYLE = "bold cyan"
OTHER_TEAM_STYLE = "bold yellow"


@dataclass(frozen=True)
class Glyphs:
    """The characters the terminal can show: Unicode suit symbols, or letters for ``--ascii``."""

    ascii: bool = False

    def suit(self, letter: str) -> str:
        return letter if self.ascii else SUIT_SYMBOLS[letter]

    @property
    def arrow(self) -> str:
        return "->" if self.ascii else "→"

    @property
    def dot(self) -> str:
        return "|" if self.ascii else "·"

    @property
    def box(self) -> box.Box:
        return box.ASCII if self.ascii else box.ROUNDED


class Presenter:
    """Renders one person's table: the view, the events and the answers to commands."""

    def __init__(self, kind: GameKind, seat: int, specs: Sequence[str], glyphs: Glyphs | None = None) -> None:
        self.kind = kind
        self.seat = seat
        self.specs = list(specs)
        self.glyphs = glyphs or Glyphs()
        self.names = ["You" if s == seat else f"Seat {s}" for s in range(kind.num_players)]
        self.partnership: set[int] = set()  # the bidder and a called partner, for this hand
        self._renderers: dict[type, Callable[[Any], RenderableType]] = {
            HandDealt: self._dealt,
            Bid: self._bid,
            MisdealCalled: lambda e: self.does(e.seat, "call", " a misdeal: the cards are thrown in"),
            TrumpNamed: self._trump,
            PartnerCalled: self._call,
            PickedUp: self._pickup,
            Discarded: self._discard,
            StoppedExchanging: lambda e: self.does(e.seat, "stop", " exchanging"),
            Played: self._played,
            TrickWon: self._trick_won,
            HandScored: lambda e: self.breakdown(e.breakdown),
            MatchOver: self._match_over,
        }

    # ------------------------------------------------------------------ pieces
    def card(self, name: str) -> Text:
        """A card as ``A♠`` (``AS`` in ASCII) in its suit's colour; the ten as ``10``."""
        if name.startswith("JK"):
            return Text(name, style=JOKER_STYLE)
        rank, suit = name[:-1], name[-1]
        return Text(("10" if rank == "T" else rank) + self.glyphs.suit(suit), style=SUIT_STYLES[suit])

    def cards(self, names: Sequence[str]) -> Text:
        return Text(" ").join(self.card(c) for c in names)

    def suit(self, letter: str) -> Text:
        return Text(self.glyphs.suit(letter), style=SUIT_STYLES[letter])

    def name(self, seat: int) -> Text:
        """A seat's name in its side's colour: the person's team (or called partnership) in cyan."""
        mine = self.kind.team_of(seat) == self.kind.team_of(self.seat) or {seat, self.seat} <= self.partnership
        return Text(self.names[seat], style=MY_TEAM_STYLE if mine else OTHER_TEAM_STYLE)

    def group_name(self, seats: Sequence[int]) -> Text:
        """Seats played together (a team, a side) as ``You & Seat 2``."""
        names = [self.name(s) for s in seats]
        if len(names) == 1:
            return names[0]
        return Text(", ").join(names[:-1]) + Text(" & ") + names[-1]

    def team_seats(self, team: int) -> list[int]:
        return [s for s in range(self.kind.num_players) if self.kind.team_of(s) == team]

    def hand(self, cards: Sequence[str], trump: str | None) -> Text:
        """The hand grouped by suit, trumps first and marked (the Jick and jokers among them once trump is set)."""
        rules = self.kind.rules if isinstance(self.kind, SmearKind) else None
        parts = []
        for group in hand_groups(cards, rules, trump):
            label = Text("jokers" if group.suit is None else self.glyphs.suit(group.suit))
            if group.suit is not None:
                label.stylize(SUIT_STYLES[group.suit])
            if group.trump:
                label = Text("trump ", style="bold reverse") + label
            parts.append(label + Text(": ") + self.cards(group.cards))
        return Text(f"  {self.glyphs.dot}  ").join(parts) if parts else Text("(no cards)", style="dim")

    def plays(self, plays: Sequence[tuple[int, str]]) -> Text:
        """Cards on the table with who played each: ``Seat 1 A♥ · You 5♥``."""
        return Text(f" {self.glyphs.dot} ").join(self.name(s) + Text(" ") + self.card(c) for s, c in plays)

    def scores(self, scores: Sequence[int]) -> Text:
        """Each team's match score: ``You & Seat 2 14 · Seat 1 & Seat 3 9``."""
        return Text("   ").join(
            self.group_name(self.team_seats(team)) + Text(f" {score}", style="bold")
            for team, score in enumerate(scores)
        )

    # ------------------------------------------------------------------ the table
    def seating(self, seed: int) -> RenderableType:
        """Who sits where, the rules and the seed: shown once before the first deal."""
        title = Text(f"{self.kind.name} {self.glyphs.dot} {self.kind.target_text()}", style="bold")
        table = Table(box=self.glyphs.box)
        table.add_column("seat", justify="right")
        table.add_column("player")
        teams = self.kind.num_teams < self.kind.num_players
        if teams:
            table.add_column("team")
        for s in range(self.kind.num_players):
            row = [Text(str(s)), self.name(s) + Text("" if s == self.seat else f"  {self.specs[s]}")]
            if teams:
                team = self.kind.team_of(s)
                label = "yours" if team == self.kind.team_of(self.seat) else f"team {team + 1}"
                mates = ", ".join(self.names[x] for x in self.team_seats(team) if x != s)
                row.append(Text(f"{label} (with {mates})"))
            table.add_row(*row)
        note = Text(f"seed {seed}: the same seed, seat and bots deal the same cards again. Type help for commands.")
        return Group(title, table, Padding(note, (0, 0, 1, 0)))

    def status(self, view: dict[str, Any], pickups: Sequence[PickedUp] = ()) -> RenderableType:
        """The table as the person sees it when on turn: scores, bids, trump, the trick, the hand."""
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="dim", justify="right")
        grid.add_column()
        grid.add_row("score", self.scores(view["scores"]))
        if isinstance(self.kind, SmearKind):
            self._smear_status(grid, view, pickups)
        else:
            grid.add_row("round points", self._round_points(view))
            grid.add_row("pile", Text(f"{view['pile_size']} cards"))
        trick = view["trick"]
        number = len(view["tricks"]) + 1
        if trick or view["phase"] == "play":
            grid.add_row(f"trick {number}", self._trick(trick))
        grid.add_row("your hand", self.hand(view["hand"], view.get("trump")))
        title = f"{self.kind.name} {self.glyphs.dot} {self._number_text(view)} {self.glyphs.dot} "
        title += f"{self.names[view['dealer']]} dealt"
        return Panel(grid, title=title, title_align="left", box=self.glyphs.box, expand=False)

    def _trick(self, trick: Sequence[tuple[int, str]]) -> Text:
        """The cards on the table; in Schneider, which card alone would beat the lead."""
        if not trick:
            return Text("you lead", style="dim")
        shown = self.plays(trick)
        if not isinstance(self.kind, SmearKind):
            above = card_above(parse_card(trick[0][1]))
            if above < 0:
                shown += Text("   (nothing beats an Ace)", style="dim")
            else:
                rank, suit = self.card(format_card(above)).plain[:-1], SUIT_NAMES[trick[0][1][-1]]
                shown += Text(f"   (only the {rank} of {suit} beats it)", style="dim")  # a rule, not a card's place
        return shown

    def _number(self, view: dict[str, Any]) -> int:
        return view.get("hands_played", view.get("rounds_played", 0)) + 1

    def _number_text(self, view: dict[str, Any]) -> str:
        """``hand 3`` or, in a match of a fixed number of hands, ``hand 3 of 10``."""
        total = self.kind.hands_in_match()
        return f"{self.kind.hand_word} {self._number(view)}" + (f" of {total}" if total else "")

    def _smear_status(self, grid: Table, view: dict[str, Any], pickups: Sequence[PickedUp]) -> None:
        n = self.kind.num_players
        order = [(view["dealer"] + i) % n for i in range(1, n + 1)]
        bids = [self.name(s) + Text(" " + (view["bids"][s] or "-")) for s in order]
        grid.add_row("bids", Text(f" {self.glyphs.dot} ").join(bids))
        if view["trump"]:
            trump = Text.assemble(self.suit(view["trump"]), f" {SUIT_NAMES[view['trump']]}")
            if view["bidder"] >= 0:
                trump += Text.assemble(f"   bid {self._high_bid(view)} by ", self.name(view["bidder"]))
            grid.add_row("trump", trump)
        if view["called_card"]:
            partner = self.name(view["partner"]) if view["partner"] >= 0 else Text("nobody: the bidder plays alone")
            grid.add_row("called", Text.assemble(self.card(view["called_card"]), " held by ", partner))
        for pickup in pickups:
            grid.add_row(f"you took ({pickup.source})", self.cards(pickup.cards))
        if view["tricks"]:
            grid.add_row("tricks won", self._tricks_won(view))

    def _high_bid(self, view: dict[str, Any]) -> str:
        return bid_label(view["high_bid"], self.kind.rules)

    def _tricks_won(self, view: dict[str, Any]) -> Text:
        wins = [trick["winner"] for trick in view["tricks"]]
        return Text(f" {self.glyphs.dot} ").join(
            self.name(s) + Text(f" {wins.count(s)}") for s in range(self.kind.num_players) if wins.count(s)
        )

    def _round_points(self, view: dict[str, Any]) -> Text:
        return Text(f" {self.glyphs.dot} ").join(
            self.name(s) + Text(f" {p}") for s, p in enumerate(view["round_points"])
        )

    def moves(self, view: dict[str, Any]) -> RenderableType:
        """The numbered legal moves, cards shown with their symbols (``1 play A♠   2 play 10♥``), never split."""
        actions = ordered_moves(view, self.kind)
        items = [
            Text(f"{number} ", style="dim") + self.move(self.kind.format_action(action))
            for number, action in enumerate(actions, 1)
        ]
        return Columns(items, padding=(0, 3))

    def prompt_line(self, view: dict[str, Any]) -> Text:
        """Whose turn it is and what the phase asks for."""
        asked = Text(f" {self._asked(view)}  ") + Text("(a number, a move or a card; help)", style="dim")
        return Text("Your turn", style="bold reverse") + asked

    def _asked(self, view: dict[str, Any]) -> str:
        phase = view["phase"]
        if phase == "play":
            return f"to play to {self.names[view['trick'][0][0]]}'s lead" if view["trick"] else "to lead"
        if phase != "discard" or not isinstance(self.kind, SmearKind):
            return {"bid": "to bid", "trump": "to name trump", "call": "to call a trump you do not hold"}[phase]
        rules = self.kind.rules
        if rules.stock_use == "redraw" and view["seat"] != view["dealer"]:
            return f"to exchange up to {rules.redraw_limit} cards that are not trumps, then done"
        more = len(view["hand"]) - rules.play_hand_size
        return f"to discard {more} more card{'s' if more > 1 else ''} (you play with {rules.play_hand_size})"

    # ------------------------------------------------------------------ events
    def event(self, event: Event) -> RenderableType:
        if isinstance(event, HandDealt):
            self.partnership = set()
        elif isinstance(event, PartnerCalled) and event.partner >= 0:
            self.partnership = {event.seat, event.partner}
        return self._renderers[type(event)](event)

    def does(self, seat: int, verb: str, *rest: Text | str) -> Text:
        """``You pass`` / ``Seat 1 passes``: a seat's name and the verb agreeing with it, then ``rest``."""
        if seat != self.seat:
            verb += "es" if verb.endswith(("s", "sh", "ch", "x")) else "s"
        return Text.assemble(self.name(seat), f" {verb}", *rest)

    def _dealt(self, e: HandDealt) -> RenderableType:
        why = {"all passed": "everyone passed", "misdeal": "a misdeal"}.get(e.redeal)
        title = Text(f"{self.kind.hand_word.capitalize()} {e.number}" + (f" (redealt: {why})" if why else "") + ": ")
        rule = Rule(title + self.does(e.dealer, "deal"), characters="-" if self.glyphs.ascii else "─")
        return Group(rule, Text("Your cards: ") + self.hand(e.hand, None))

    def _bid(self, e: Bid) -> Text:
        if e.bid == "pass":
            return self.does(e.seat, "pass")
        what = {"moon": "the moon", "smudge": f"smudge ({self.kind.rules.top_bid})"}.get(e.bid, e.bid)
        return self.does(e.seat, "bid", f" {what}")

    def _trump(self, e: TrumpNamed) -> Text:
        suit = Text.assemble(self.suit(e.suit), f" {SUIT_NAMES[e.suit]}")
        if e.by_lead:
            return self.does(e.seat, "lead", " first: ", suit, " are trump")
        return self.does(e.seat, "name", " ", suit, " trump")

    def _call(self, e: PartnerCalled) -> Text:
        line = self.does(e.seat, "call", " ", self.card(e.card), ", ")
        if e.partner < 0:
            return line + Text("which nobody holds: the bidder plays alone")
        if e.partner == self.seat:
            return line + Text("which you hold: you are partners this hand")
        return line + Text("held by ") + self.name(e.partner) + Text(": they are partners this hand")

    def _pickup(self, e: PickedUp) -> Text:
        verb = "draw" if e.source == "pile" else "take"
        cards = "a card" if e.count == 1 else f"{e.count} cards"
        what = f" the {e.source}" if e.source in ("kitty", "blinds") else f" {cards} from the {e.source}"
        if e.seat == self.seat:
            return self.does(e.seat, verb, what + ": ", self.cards(e.cards))
        return self.does(e.seat, verb, what + (f" ({cards})" if e.source in ("kitty", "blinds") else ""))

    def _discard(self, e: Discarded) -> Text:
        if e.seat == self.seat:
            return self.does(e.seat, "discard", " ", self.cards(e.cards))
        return self.does(e.seat, "discard", " a card" if e.count == 1 else f" {e.count} cards")

    def _played(self, e: Played) -> Text:
        return Text("  ") + self.does(e.seat, "lead" if e.lead else "play", " ", self.card(e.card))

    def _trick_won(self, e: TrickWon) -> Text:
        won = self.does(e.winner, "win", f" trick {e.number} with ", self.card(e.winning_card))
        return Text(f"  {self.glyphs.arrow} ") + won

    def _match_over(self, e: MatchOver) -> RenderableType:
        if e.draw:
            head = Text("The match is a draw", style="bold")
        else:
            seats = [s for team in e.winners for s in self.team_seats(team)]
            mine = self.kind.team_of(self.seat) in e.winners
            head = self.group_name(seats) + Text(" win the match" if len(seats) > 1 or mine else " wins the match")
            if mine:
                head += Text("  Well played!", style="bold green")
        body = Group(head, Text("Final score: ") + self.scores(e.scores))
        return Panel(body, box=self.glyphs.box, expand=False)

    # ------------------------------------------------------------------ breakdowns
    def breakdown(self, b: HandBreakdown | RoundBreakdown) -> RenderableType:
        if isinstance(b, RoundBreakdown):
            return self._round_breakdown(b)
        return self._hand_breakdown(b)

    def _hand_breakdown(self, b: HandBreakdown) -> RenderableType:
        outcome = Text(" made it", style="bold green") if b.made else Text(" was set", style="bold red")
        bid = {"moon": "the moon", "smudge": "smudge"}.get(b.bid, b.bid)
        title = Text.assemble(
            f"Hand {b.number}: ", self.name(b.bidder), f" bid {bid}, ", self.suit(b.trump), " trump, and", outcome
        )
        table = Table(box=self.glyphs.box)
        table.add_column("")
        table.add_column("worth", justify="right")
        for side in b.sides:
            table.add_column(
                self.group_name(side.seats) + (Text(" (bid)") if side.bidding else Text("")), justify="right"
            )
        check = "x" if self.glyphs.ascii else "✓"
        for category in b.categories:
            cells = [check if category.side == side.side else "" for side in b.sides]
            label = Text(category.label)
            if category.side is None:
                label += Text(" (tied: nobody)" if category.note == "tie" else f" ({category.note})", style="dim")
            table.add_row(label, str(category.points), *cells)
        table.add_section()
        table.add_row("card points", "", *[str(side.card_points) for side in b.sides])
        table.add_row("points taken", "", *[str(side.points) for side in b.sides])
        table.add_row("score change", "", *[Text(f"{side.delta:+d}", style="bold") for side in b.sides])
        return Group(title, table, Text("Score: ") + self.scores(b.scores), Text(""))

    def _round_breakdown(self, b: RoundBreakdown) -> RenderableType:
        title = Text(f"Round {b.number}: counters are A K Q J 10, a point each; 16 or more doubles, all 20 triples")
        table = Table(box=self.glyphs.box)
        table.add_column("")
        for s in range(len(b.points)):
            table.add_column(self.name(s), justify="right")
        table.add_row("counters taken", *[str(p) for p in b.points])
        table.add_row("multiplier", *[f"x{m}" for m in b.multipliers])
        table.add_row("round score", *[Text(str(p), style="bold") for p in b.round_scores])
        return Group(title, table, Text("Score: ") + self.scores(b.scores), Text(""))

    # ------------------------------------------------------------------ answers to commands
    def hint(self, decision: Decision, bot_name: str, view: dict[str, Any] | None = None) -> RenderableType:
        """The hint bot's move, and its probability or value for each legal move where it has them.

        With the ``view`` the moves carry their numbers in the list of legal moves, so the
        hinted move can be typed as the number shown beside it.
        """
        numbers = {} if view is None else {a: n for n, a in enumerate(ordered_moves(view, self.kind), 1)}
        move = self.move(self.kind.format_action(decision.action))
        head = Text.assemble(f"{bot_name} would ", move)
        if decision.action in numbers:
            head += Text(f" (move {numbers[decision.action]})", style="dim")
        if not decision.scores:
            return head
        table = Table(box=None, show_header=False, padding=(0, 2, 0, 2))
        ranked = sorted(decision.scores.items(), key=lambda item: item[1], reverse=True)
        for action, score in ranked:
            shown = f"{score:.0%}" if decision.kind == "probability" else f"{score:+.2f} points"
            mark = "  <-" if action == decision.action else ""
            number = Text(f"{numbers[action]} ", style="dim") if action in numbers else Text("")
            table.add_row(number + self.move(self.kind.format_action(action)), shown + mark)
        what = "chance of each move" if decision.kind == "probability" else "mean points for your side by each move"
        return Group(head, Text(f"  {what}:", style="dim"), table)

    def move(self, label: str) -> Text:
        """A move label with its card or suit drawn: ``play A♠``."""
        verb, _, arg = label.partition(" ")
        if verb in ("play", "discard", "call"):
            return Text(verb + " ") + self.card(arg)
        if verb == "trump":
            return Text("trump ") + self.suit(arg)
        return Text(label)

    def help(self, view: dict[str, Any]) -> RenderableType:
        """How to answer the prompt now (with this turn's own moves as examples), and every command."""
        legal = view["legal_moves"]
        example = legal[-1]
        card = example.partition(" ")[2] if example.split()[0] in ("play", "discard", "call") else ""
        how = f"Answer with a move from the list: its number (1 to {len(legal)}), the move in notation ({example})"
        how += f", or just the card ({card}) to play, discard or call it as the phase implies." if card else "."
        paragraphs = [
            how,
            "Cards are rank then suit: A K Q J 10 (or T) 9 .. 2 and C D H S or their symbols; jokers JK and JK2."
            " To name trump a suit will do (H, hearts).",
        ]
        if not isinstance(self.kind, SmearKind):
            paragraphs.append(
                "Bohemian Schneider: no trumps and no need to follow; the second card wins the trick only if it is"
                " the card one rank above the led card in its suit (9 on 8, A on K)."
            )
        if view["phase"] == "discard" and isinstance(self.kind, SmearKind):
            paragraphs.append(
                "Discarding: several cards at once (discard C1 C2 ..., or just C1 C2 ...), or name the"
                f" {self.kind.rules.play_hand_size} cards to play with (keep C1 C2 ...) and the rest are discarded."
            )
        table = Table(box=None, show_header=False, padding=(0, 2, 0, 2))
        for command, text in COMMANDS.items():
            table.add_row(command, text)
        return Group(*(Text(p) for p in paragraphs), Text("Commands:"), table)

    def score(self, view: dict[str, Any]) -> RenderableType:
        """The match score, and this hand's bid and tricks so far."""
        lines = [Text("Score: ") + self.scores(view["scores"]) + Text(f"   ({self.kind.target_text()})", style="dim")]
        lines.append(Text(f"{self._number_text(view).capitalize()}, {len(view['tricks'])} tricks played"))
        if isinstance(self.kind, SmearKind) and view["bidder"] >= 0 and view["phase"] != "bid":
            lines.append(Text.assemble(f"Bid {self._high_bid(view)} by ", self.name(view["bidder"])))
        if isinstance(self.kind, SmearKind) and view["tricks"]:
            lines.append(Text("Tricks won: ") + self._tricks_won(view))
        elif not isinstance(self.kind, SmearKind):
            lines.append(Text("Counters taken this round: ") + self._round_points(view))
        return Group(*lines)

    def last_trick(self, trick: TrickWon | None) -> RenderableType:
        if trick is None:
            return Text("No trick has been played yet.")
        return Text.assemble(
            f"Last trick ({trick.number}): ", self.plays(trick.plays), f" {self.glyphs.arrow} ", self.name(trick.winner)
        )
