"""The Bohemian Schneider side of the rebuild: a seat sees its own draws from the pile, never the opponent's.

See :mod:`smear_rl.server.rebuild` for the method. There is no duty to follow, so
a play says nothing about the rest of a hand; what constrains the hidden cards is
time: a card the opponent plays was in its hand then, so it was dealt to it or
drawn by it after an earlier trick. After each trick both seats draw, the winner
first, while the pile lasts, so the pile position of every draw is public. The
placement puts each unseen card in the opponent's dealt hand, one of its draws, or
the rest of the pile.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from smear_env.cards import cards_of, format_card
from smear_env.schneider import game as sg
from smear_env.schneider.observation import player_view
from smear_rl.server.assign import assign
from smear_rl.server.errors import RequestError, history_error
from smear_rl.server.rebuild import (
    Event,
    Ledger,
    Rebuilt,
    SeatRequest,
    event_shape,
    finish_rebuild,
    hidden_take,
    index_of,
    parse_card_in,
    read_events,
    replay_moves,
)


class _Reader:
    """Events read in order with the checks that need no deal: shapes, notation, my cards, cards seen twice."""

    def __init__(self, req: SeatRequest) -> None:
        self.req = req
        self.deck = frozenset(sg.DECK)
        self.mine = set(req.hand)
        self.ledger = Ledger(req.seat, req.hand)

    def read(self) -> tuple[list[Event], RequestError | None]:
        """The events up to the first problem visible without a deal, and that problem (None if there is none)."""
        return read_events(self.req, self._event)

    def _event(self, i: int, raw: Any) -> Event:
        me = self.req.seat
        seat = event_shape(i, raw, sg.NUM_PLAYERS, {"seat", "move", "take"})
        if "take" in raw:
            if seat != me:
                return hidden_take(i, seat, me, raw["take"])
            if not isinstance(raw["take"], list):
                raise history_error(i, 'your own draw lists its card, e.g. ["9S"]', "take")
            cards = [parse_card_in(self.deck, c, f"events[{i}].take[{k}]") for k, c in enumerate(raw["take"])]
            for card in cards:
                self.ledger.place(i, card, "drawn", seat)
                self.mine.add(card)
            return Event(i, seat, take=cards)
        card = self._card_of(i, raw["move"])
        if seat == me:
            if card not in self.mine:
                raise history_error(i, f"you (seat {me}) do not hold {format_card(card)}", "move")
            self.mine.discard(card)
            self.ledger.move(i, card, "played")
        else:
            self.ledger.place(i, card, "played", seat)
        return Event(i, seat, card)

    def _card_of(self, i: int, move: Any) -> int:
        if isinstance(move, int) and not isinstance(move, bool):
            move = f"play {format_card(move)}" if 0 <= move < 52 else str(move)
        if not isinstance(move, str):
            raise history_error(i, f"{move!r} is not a move: expected 'play <card>', e.g. 'play 8S'", "move")
        try:
            card = sg.parse_action(move)
        except ValueError as err:
            raise history_error(i, str(err), "move") from None
        if card not in self.deck:
            raise history_error(i, f"{format_card(card)} is not in this deck (7..A of each suit)", "move")
        return card


@dataclass
class _Draw:
    trigger: int  # event index of the play that ended the trick
    trick: int  # tricks completed before it
    seat: int
    position: int  # place in the pile, top first
    card: int | None = None  # known for my own draws


@dataclass
class _Walk:
    draws: list[_Draw] = field(default_factory=list)
    plays: list[tuple[int, int, int, int]] = field(default_factory=list)  # (event index, trick, seat, card)
    problems: list[RequestError] = field(default_factory=list)


def walk(req: SeatRequest, events: list[Event], complete: bool) -> _Walk:
    """Tricks and their winners from the plays, so each draw's pile position; my draws paired with my take events."""
    w = _Walk()
    plays = [ev for ev in events if ev.is_move]
    for k in range(0, len(plays), 2):
        trick = plays[k : k + 2]
        for ev in trick:
            w.plays.append((ev.index, k // 2, ev.seat, ev.action))  # type: ignore[arg-type]
        if len(trick) < 2:
            break
        (leader, led), (follower, followed) = ((ev.seat, ev.action) for ev in trick)
        winner = follower if sg.follower_wins(led, followed) else leader  # type: ignore[arg-type]
        for j, seat in enumerate((winner, 1 - winner)):
            position = k + j
            if position < sg.PILE_SIZE:
                w.draws.append(_Draw(trick[1].index, k // 2 + 1, seat, position))
    _match_draws(req, events, w, complete)
    return w


def _match_draws(req: SeatRequest, events: list[Event], w: _Walk, complete: bool) -> None:
    me = req.seat
    for seat in range(sg.NUM_PLAYERS):
        given = [ev for ev in events if not ev.is_move and ev.seat == seat]
        due = [d for d in w.draws if d.seat == seat]
        pending: list[Event] = []
        for ev in given:
            cards = ev.take if isinstance(ev.take, list) else [None] * int(ev.take or 0)  # type: ignore[arg-type]
            pending += [Event(ev.index, seat, take=[c]) for c in cards]  # type: ignore[list-item]
        for k, ev in enumerate(pending):
            if k >= len(due) or ev.index < due[k].trigger:
                w.problems.append(history_error(ev.index, f"seat {seat} draws no card here", "take"))
                return
            if seat == me:
                due[k].card = ev.take[0]  # type: ignore[index]
        if seat == me and len(pending) < len(due):
            draw = due[len(pending)]
            late = next((ev.index for ev in events if ev.is_move and ev.seat == me and ev.index > draw.trigger), None)
            if late is not None or complete:
                where = f"events[{late}]" if late is not None else "the history ends"
                w.problems.append(
                    RequestError(
                        f"{where}: seat {me} draws a card after events[{draw.trigger}]: send "
                        f'{{"seat": {me}, "take": ["<card>"]}} right after that play',
                        where if late is not None else "events",
                        "invalid_history",
                    )
                )
                return


def place_hidden(req: SeatRequest, w: _Walk) -> dict[str, Any] | str:
    """Which unseen or opponent-played card lies where: the opponent's dealt hand, each of its draws, the pile."""
    me, opp = req.seat, 1 - req.seat
    known = set(req.hand) | {d.card for d in w.draws if d.seat == me and d.card is not None}
    opp_draws = [d for d in w.draws if d.seat == opp]
    unknown_mine = sum(1 for d in w.draws if d.seat == me and d.card is None)
    played_by_opp = {card: trick for _, trick, seat, card in w.plays if seat == opp}
    # slots: 0 the opponent's dealt hand, 1..D its draws, then my unreported draws, then the rest of the pile
    capacities = [sg.HAND_SIZE, *([1] * len(opp_draws)), unknown_mine, sg.PILE_SIZE - len(w.draws)]
    everywhere = (1 << len(capacities)) - 1
    groups: dict[int, int] = {}
    for card in sg.DECK:
        if card in known:
            continue
        allowed = everywhere
        if card in played_by_opp:  # in its hand when played: dealt, or drawn after an earlier trick
            trick = played_by_opp[card]
            allowed = 1 | sum(1 << (1 + j) for j, d in enumerate(opp_draws) if d.trick <= trick)
        groups[allowed] = groups.get(allowed, 0) | 1 << card
    placed = assign(groups, capacities)
    if placed is None:
        return "the opponent cannot have held every card it played: some were still in the pile then"
    return {"placed": placed, "opp_draws": opp_draws}


def build_deal(req: SeatRequest, w: _Walk, placed: dict[str, Any]) -> sg.Deal:
    me, opp = req.seat, 1 - req.seat
    slots, opp_draws = placed["placed"], placed["opp_draws"]
    mine_slot, rest_slot = len(opp_draws) + 1, len(opp_draws) + 2
    by_slot = [cards_of(mask) for mask in slots]
    hands: list[list[int]] = [[], []]
    hands[me], hands[opp] = list(req.hand), by_slot[0]
    pile: list[int | None] = [None] * sg.PILE_SIZE
    mine_unknown = by_slot[mine_slot]
    for draw in w.draws:
        if draw.seat == opp:
            pile[draw.position] = by_slot[1 + opp_draws.index(draw)][0]
        else:
            pile[draw.position] = draw.card if draw.card is not None else mine_unknown.pop()
    rest = iter(by_slot[rest_slot])
    return sg.Deal(hands, [c if c is not None else next(rest) for c in pile])


def _refusal(game: sg.Game, ev: Event) -> str:
    return f"seat {ev.seat} cannot hold {format_card(ev.action)} here"  # type: ignore[arg-type]


class SchneiderHistory:
    """A Bohemian Schneider seat's history (the :class:`~smear_rl.server.rebuild.History` protocol)."""

    def __init__(self, req: SeatRequest) -> None:
        self.req = req

    def read(self) -> tuple[list[Event], RequestError | None]:
        return _Reader(self.req).read()

    def attempt(self, events: list[Event], complete: bool) -> tuple[sg.Deal] | RequestError | str:
        w = walk(self.req, events, complete)
        if w.problems:
            return min(w.problems, key=index_of)
        placed = place_hidden(self.req, w)
        return placed if isinstance(placed, str) else (build_deal(self.req, w, placed),)

    def replay(self, events: list[Event], fitting: Any, keep_views: bool) -> tuple[sg.Game, list, RequestError | None]:
        game = sg.Game(self.req.rules, seed=0, dealer=self.req.dealer, deals=[fitting[0]])
        game.scores = list(self.req.scores)
        game.rounds_played = self.req.hands_played
        views, problem = replay_moves(
            game, events, self.req.seat, keep_views, player_view, lambda _, ev: ev.action, _refusal
        )
        return game, views, problem

    def finish(self, game: sg.Game, views: list[dict[str, Any]]) -> Rebuilt:
        return finish_rebuild(game, self.req.seat, views, player_view)

    @staticmethod
    def describe(ev: Event) -> str:
        if ev.action is None:
            return f"seat {ev.seat}'s draw"
        return f"'play {format_card(ev.action)}' by seat {ev.seat}"
