"""research/scripts/hand_roles.py: the split by role of an agent's hand scores behind the ten_point_5p reading."""

import pytest

from tests.file_modules import ROOT, load_module
from training.evaluate.games import MatchConfig, Runner
from training.evaluate.lineups import A, lineup
from training.evaluate.tally import Tally

hand_roles = load_module(ROOT / "research" / "scripts" / "hand_roles.py")


def _a_totals(preset: str, games: int, max_hands: int) -> dict[int, list[float]]:
    """Seats A holds -> [seat-hands, total score change of A's seats], from the harness's own games."""
    runner = Runner(MatchConfig("rule", "random", preset, 1, max_hands, {}))
    totals: dict[int, list[float]] = {}
    for index in range(games):
        runner.play(index, [Tally(), Tally()])
        seats = [s for s, role in enumerate(lineup(index, runner.teams)) if role == A]
        results = runner.env.unwrapped.game.hand_results
        entry = totals.setdefault(len(seats), [0, 0.0])
        entry[0] += len(results) * len(seats)
        entry[1] += sum(r.deltas[r.side_of_seat[s]] for r in results for s in seats)
    return totals


def test_the_roles_split_every_seat_hand_of_a_and_add_up_to_its_score_changes():
    totals = hand_roles.role_deltas("rule", "random", "ten_point_5p", games=4, max_hands=6)
    assert {n for n, _ in totals} == {2, 3}  # five seats: A holds three seats, then two
    assert {role for _, role in totals} <= set(hand_roles.ROLES)
    for n_seats, (seat_hands, change) in _a_totals("ten_point_5p", games=4, max_hands=6).items():
        assert sum(count for (n, _), (count, _) in totals.items() if n == n_seats) == seat_hands > 0
        assert sum(total for (n, _), (_, total) in totals.items() if n == n_seats) == pytest.approx(change)


def test_the_split_by_bid_adds_up_to_the_split_by_role():
    by_role = hand_roles.role_deltas("rule", "random", "ten_point_5p", games=4, max_hands=6)
    by_bid = hand_roles.bid_deltas("rule", "random", "ten_point_5p", games=4, max_hands=6)
    assert {bid for _, _, bid in by_bid} <= set(range(4, 11))  # the preset's bids
    for (n_seats, role), (seat_hands, change) in by_role.items():
        cells = [cell for (n, r, _), cell in by_bid.items() if (n, r) == (n_seats, role)]
        assert sum(count for count, _, _ in cells) == seat_hands
        assert sum(total for _, total, _ in cells) == pytest.approx(change)
        assert all(0 <= made <= count for count, _, made in cells)


def test_with_two_fixed_teams_a_seat_of_a_bids_backs_its_partner_or_defends_against_b():
    totals = hand_roles.role_deltas("rule", "random", "ten_point", games=4, max_hands=4)
    assert {role for _, role in totals} <= {"bids", "partner of A", "defends against B"}
    assert {n for n, _ in totals} == {2}


def test_bohemian_schneider_has_no_bid_hands_to_split():
    with pytest.raises(ValueError, match="bohemian_schneider has rounds, not bid hands: expected a Smear preset"):
        hand_roles.role_deltas("rule", "random", "bohemian_schneider", games=1)
