"""Demo: a match among agents on any preset, printed hand by hand as text.

``python -m agents.demo --preset ten_point --seed 1``
"""

from __future__ import annotations

import argparse

import smear_env
from agents.base import Agent
from agents.random_agent import RandomAgent


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
                print(f"stopping after {max_hands} hands without a winner (random players rarely make bids)")
                break
    return env.unwrapped.record()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--preset", default="ten_point", choices=smear_env.list_presets())
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-hands", type=int, default=20)
    args = parser.parse_args(argv)
    players = smear_env.raw_env(preset=args.preset).possible_agents
    play_match(args.preset, args.seed, [RandomAgent() for _ in players], args.max_hands)


if __name__ == "__main__":
    main()
