"""Compare two agents game by game on the same deals: the paired difference their evaluations show.

Two evaluations of different agents against one opponent, run with the same
seeds, play the same deals: game ``i`` of seed ``s`` deals the same cards in both
(the deal seed depends only on the seed and the deal pair). Matching the games
that way and averaging the differences removes most of the card luck that two
separate win rates carry, so a small change shows up in far fewer games (the
``pass_bias`` and stage comparisons on the results page are of this kind).

Each side may be several runs (one seed each, as ``smear-rl pool`` takes them).
Only games present on both sides count; the interval is over deal pairs (the
two games of a pair share their deals, so they are not independent).

    smear-rl compare runs/new_seed*.json --baseline research/evals/old.json.gz
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from training.cli import ArgumentParser
from training.evaluate import EvalResult
from training.evaluate.tally import GameOutcome
from training.pool import PooledResult, load_results, pool, same_match_up_but_agent_a
from training.stats import Estimate, mean_interval

#: a game's place in a set of runs: (the run's seed, the game's index)
GameKey = tuple[int, int]


@dataclass(frozen=True)
class Comparison:
    """How ``new`` did against ``baseline`` on the games both played (each against the same opponent)."""

    new: PooledResult  # the new agent's runs, pooled over all their games
    baseline: PooledResult  # the baseline's, likewise
    games: int  # games both sides played
    new_better: int  # games whose match score was higher for the new agent
    baseline_better: int  # games whose match score was higher for the baseline
    score_difference: Estimate  # new's match score less the baseline's per game, a 95% interval over deal pairs
    score_pairs: tuple[float, ...]  # that difference deal pair by deal pair (its two games averaged), to pool
    reward_difference: Estimate | None  # likewise for the hand reward per hand; None if a run lacks it
    new_score: float  # the new agent's match score over the common games
    baseline_score: float  # the baseline's over the same games

    def markdown(self) -> str:
        """One paragraph: the common games, each side's match score on them, the paired differences, the runs."""
        reward = self.reward_difference
        reward_text = "" if reward is None else f"; hand reward {signed(reward, 2)} points a hand"
        return (
            f"**{self.new.agent_a}** against **{self.baseline.agent_a}**, each playing {self.new.agent_b} on "
            f"`{self.new.preset}`: {self.games} games on the same deals ({self.score_difference.n} deal pairs), "
            f"match score {self.new_score:.3f} against {self.baseline_score:.3f}, better in {self.new_better} games "
            f"and worse in {self.baseline_better}. Paired difference a game (new less baseline, 95% interval over "
            f"deal pairs): match score {signed(self.score_difference, 3)}{reward_text}.\n\n"
            f"New: {self.new.markdown()}\n\nBaseline: {self.baseline.markdown()}"
        )


def signed(estimate: Estimate, digits: int) -> str:
    """``+0.017 [+0.002, +0.032]``: a difference and its interval, signs shown."""
    return f"{estimate.value:+.{digits}f} [{estimate.low:+.{digits}f}, {estimate.high:+.{digits}f}]"


def compare(new: Sequence[EvalResult], baseline: Sequence[EvalResult]) -> Comparison:
    """The new agent's runs against the baseline's, matched game by game; ``ValueError`` if they cannot be."""
    pooled_new, pooled_baseline = pool(new), pool(baseline)  # each side one match-up, no seed twice
    difference = same_match_up_but_agent_a(new[0], baseline[0])
    if difference is not None:
        name, mine, theirs = difference
        raise ValueError(
            f"not the same opponent and rules: {name} is {mine!r} for the new agent and {theirs!r} for the baseline"
        )
    new_games, baseline_games = _games_by_key(new), _games_by_key(baseline)
    common = sorted(new_games.keys() & baseline_games.keys())
    if not common:
        raise ValueError(
            f"no game in common: the new agent's runs have seeds {pooled_new.seeds}, "
            f"the baseline's {pooled_baseline.seeds} (run both with the same --seed)"
        )
    for key in common:
        mine, theirs = new_games[key], baseline_games[key]
        if (mine.deal_seed, mine.a_seats) != (theirs.deal_seed, theirs.a_seats):
            raise ValueError(
                f"game {key[1]} of seed {key[0]} was dealt differently in the two runs: not the same deals"
            )
    scores = [(new_games[k].score_a, baseline_games[k].score_a) for k in common]
    score_pairs = _pair_means([new - old for new, old in scores], common)
    return Comparison(
        new=pooled_new,
        baseline=pooled_baseline,
        games=len(common),
        new_better=sum(a > b for a, b in scores),
        baseline_better=sum(a < b for a, b in scores),
        score_difference=_paired(score_pairs),
        score_pairs=tuple(score_pairs),
        reward_difference=_reward_difference(new_games, baseline_games, common),
        new_score=sum(a for a, _ in scores) / len(scores),
        baseline_score=sum(b for _, b in scores) / len(scores),
    )


def _games_by_key(results: Sequence[EvalResult]) -> dict[GameKey, GameOutcome]:
    return {(result.seed, game.index): game for result in results for game in result.games}


def _reward_difference(
    new_games: dict[GameKey, GameOutcome], baseline_games: dict[GameKey, GameOutcome], common: list[GameKey]
) -> Estimate | None:
    """The hand reward's paired difference, or None when some common game has no hand reward recorded."""
    if any(new_games[k].reward_a is None or baseline_games[k].reward_a is None for k in common):
        return None
    return _paired(_pair_means([new_games[k].reward_a - baseline_games[k].reward_a for k in common], common))  # type: ignore[operator]


def _pair_means(differences: list[float], keys: list[GameKey]) -> list[float]:
    """Per-game differences averaged over each deal pair: the two games of a pair share their cards."""
    by_pair: dict[tuple[int, int], list[float]] = {}
    for (seed, index), difference in zip(keys, differences, strict=True):
        by_pair.setdefault((seed, index // 2), []).append(difference)
    return [sum(d) / len(d) for d in by_pair.values()]


def _paired(pair_means: list[float]) -> Estimate:
    """The mean difference with its 95% interval over deal pairs."""
    estimate = mean_interval(pair_means)
    assert estimate is not None  # there is always a game in common here
    return estimate


def main(argv: list[str] | None = None) -> None:
    parser = ArgumentParser(prog="smear-rl compare", description=__doc__)
    parser.add_argument("results", nargs="+", type=Path, help="the new agent's JSON files (smear-rl evaluate --json)")
    parser.add_argument(
        "--baseline", nargs="+", type=Path, required=True,
        help="the baseline agent's JSON files: the same opponent and rules, run with the same seeds",
    )  # fmt: skip
    args = parser.parse_args(argv)
    try:
        new = load_results(args.results)
        baseline = load_results(args.baseline)
        print(compare(new, baseline).markdown())
    except ValueError as err:
        parser.error(str(err))


if __name__ == "__main__":
    main()
