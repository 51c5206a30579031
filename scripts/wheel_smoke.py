"""What a user gets from the wheel alone, run from a folder outside the repository.

Checks that the installed package (not a checkout) is the one imported, then: make an
env and play it to the end, play a match between bots, run a tiny evaluation, and check
that the presets, the training configs and the version come from the package.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

import smear_env
from agents.demo import play_match
from agents.registry import make_agent
from agents.shipped import retired_presets, shipped_presets, specialist_policy_path, universal_policy_path
from smear_env.version import code_version, package_version
from training.config import list_configs, load_config

site = Path(smear_env.__file__).resolve().parent.parent
assert "site-packages" in site.parts, f"smear_env imported from {site}, not from the installed wheel"

assert len(smear_env.list_presets()) == 11, smear_env.list_presets()
assert {"ten_point", "minnesota", "ten_point_quick"} <= set(list_configs()), list_configs()
assert load_config("minnesota").preset == "minnesota"
assert code_version() == package_version() != "0+unknown", (code_version(), package_version())

env = smear_env.env(preset="minnesota", max_hands=3)
env.reset(seed=1)
rng = np.random.default_rng(1)
for agent in env.agent_iter():
    _, _, terminated, truncated, _ = env.last()
    if terminated or truncated:
        env.step(None)
        continue
    env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))
print(f"env: minnesota played to its end after {len(env.unwrapped.game.deals)} deals")

record = play_match("ten_point", 2, [make_agent(n, "ten_point", seed=i) for i, n in enumerate(["rule", "random"] * 2)],
                    max_hands=50, verbose=False)  # fmt: skip
print(f"match: rule and random bots, {len(record['deals'])} deals, {len(record['moves'])} moves")

presets = (
    "bohemian_schneider",
    "four_point",
    "minnesota",
    "pitch_smudge",
    "schmier",
    "six_point",
    "smear",
    "ten_point",
    "ten_point_5p",
    "ten_point_6p",
    "ten_point_midwest",
)
installed = Path(smear_env.__file__).resolve().parent.parent / "agents" / "shipped"
assert all(specialist_policy_path(p).is_relative_to(installed) for p in presets), "a specialist's file did not ship"
assert universal_policy_path() is not None, "the universal agent did not ship"
neural = make_agent("neural", "ten_point", seed=0)
record = play_match("ten_point", 3, [neural, make_agent("rule", "ten_point", seed=1)] * 2, max_hands=2, verbose=False)
retired = retired_presets()
universal = make_agent("neural", retired[0], seed=0)  # a retired specialist's preset: the universal agent plays it
assert Path(universal.path) == universal_policy_path(), universal.path
assert "torch" not in sys.modules, "the shipped neural agent imported torch"
print(f"shipped agents {shipped_presets()} and the universal one, retired {retired}: "
      f"the ten_point one played {len(record['moves'])} moves without torch")  # fmt: skip

learner = smear_env.single_agent_env("ten_point", opponents="rule")
obs, _ = learner.reset(seed=0)
print(f"single-seat env: observation {obs.shape}, {int(learner.action_masks().sum())} legal moves")

with tempfile.TemporaryDirectory() as tmp:
    out = Path(tmp) / "eval.json"
    command = ["smear-rl", "evaluate", "rule", "random", "--preset", "minnesota", "--matches", "4",
               "--workers", "1", "--no-progress", "--json", str(out)]  # fmt: skip
    subprocess.run([str(Path(sys.executable).parent / command[0]), *command[1:]], check=True, cwd=tmp)
    result = json.loads(out.read_text())
assert result["code_version"] == package_version(), result["code_version"]
print(f"evaluation: {result['matches']} games recorded with code version {result['code_version']}")
web = Path(smear_env.__file__).resolve().parent.parent / "smear_rl" / "web"  # the web table smear-rl serve shows
page = (web / "index.html").read_text()
modules = sorted(p.name for p in (web / "js").glob("*.js"))
assert 'src="js/app.js"' in page and "app.js" in modules and (web / "style.css").is_file(), modules
print(f"web table: index.html, style.css and {len(modules)} script modules ship")
print("wheel smoke test passed")
