"""Demo: a match among bots on any preset, printed hand by hand as text.

Each hand's deal, bids, trump, tricks and score are printed as the match goes.
Random players rarely make their bids, so a match among them can run long:
the --max-hands option stops it.

Examples::

    smear-rl demo --preset ten_point --seed 1
    smear-rl demo --preset minnesota --bots rule,random,rule,random --max-hands 5
"""

from __future__ import annotations

import argparse

import smear_env
from agents.base import Agent
from agents.registry import make_agent, split_agent_specs
from training.cli import ArgumentParser, int_at_least


def play_match(preset: str, seed: int, agents: list[Agent], max_hands: int, verbose: bool = True) -> dict:
    """Play one match through the AEC env; returns the final record."""
    env = smear_env.env(preset=preset, render_mode="ansi")
    env.reset(seed=seed)
    for i, agent in enumerate(agents):
        agent.reset(seed * 1000 + i)
    hands_seen = 0
    for name in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        seat = env.unwrapped.agent_name_mapping[name]
        env.step(agents[seat].act(env.unwrapped.view(name), observation))
        game = env.unwrapped.game
        results = getattr(game, "hand_results", None) or getattr(game, "round_results", [])
        if len(results) > hands_seen:
            hands_seen = len(results)
            if verbose:
                print(env.render(), end="\n\n")
            if hands_seen >= max_hands and not game.is_over:
                if verbose:
                    print(f"stopping after {max_hands} hands without a winner")
                break
    return env.unwrapped.record()


def main(argv: list[str] | None = None) -> None:
    parser = ArgumentParser(
        prog="smear-rl demo",
        description=__doc__.split("Examples::")[0],
        epilog="examples:" + __doc__.split("Examples::")[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--preset", default="ten_point", choices=smear_env.list_presets(), help="game to play")
    parser.add_argument("--seed", type=int_at_least(0), default=0, help="seeds the deals and the bots")
    parser.add_argument("--max-hands", type=int_at_least(1), default=20, help="stop after this many hands (default 20)")
    parser.add_argument(
        "--bots",
        default="random",
        help="bot names, one for every seat or one per seat: rule,random,rule,random; options after a colon "
        "(search:samples=4,time_budget=0.05)",
    )
    args = parser.parse_args(argv)
    players = smear_env.raw_env(preset=args.preset).possible_agents
    names = split_agent_specs(args.bots)
    if len(names) == 1:
        names *= len(players)
    if len(names) != len(players):
        parser.error(f"--bots: {len(names)} names for {len(players)} seats; give one, or one per seat")
    try:
        bots = [make_agent(name, args.preset) for name in names]
    except ValueError as err:
        parser.error(f"--bots: {err}")
    play_match(args.preset, args.seed, bots, args.max_hands)


if __name__ == "__main__":
    main()
