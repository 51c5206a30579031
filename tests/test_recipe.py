"""Recipes: one command runs a pipeline's stages in order, resumes after a stop, and records how the agent was made."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from agents.registry import make_agent  # noqa: E402
from smear_env.house_rules import evaluation_rule_sets  # noqa: E402
from tests.cli_helpers import assert_refused  # noqa: E402
from training import train  # noqa: E402
from training.checkpoint import load_checkpoint  # noqa: E402
from training.config import config_from_dict  # noqa: E402
from training.ppo import Trainer  # noqa: E402
from training.recipe import RecipeRun, load_recipe, recipes_dir, stage_config, start_from_run  # noqa: E402

DEFAULTS = """
[defaults]
preset = "ten_point"
universal = true
train_presets = ["ten_point", "minnesota"]
hidden = [16]
card_head = 18
num_games = 4
rollout_steps = 128
minibatch = 64
epochs = 1
bc_hands = 0
eval_every_minutes = 0
final_eval_matches = 2
eval_opponents = ["random"]
device = "cpu"
"""
TEACH = """
[[stage]]
name = "teach"
teacher = "specialists"
total_steps = 128
"""
PPO = """
[[stage]]
name = "ppo"
total_steps = 256
"""
FROZEN = """
[[stage]]
name = "frozen"
opp_fixed = 1.0
opp_self = 0.0
opp_pool = 0.0
opp_rule = 0.0
fixed_agent = "{stage:teach}"
total_steps = 128
"""


def write(tmp_path: Path, body: str, name: str = "tiny") -> Path:
    path = tmp_path / f"{name}.toml"
    path.write_text(f'name = "{name}"\ndescription = "a test pipeline"\n' + DEFAULTS + body)
    return path


def test_a_recipe_runs_its_stages_in_order_and_the_agent_records_them(tmp_path: Path) -> None:
    out = tmp_path / "run"
    agent = RecipeRun(load_recipe(write(tmp_path, TEACH + PPO + FROZEN)), out).run(progress=False)
    record = load_checkpoint(agent)["recipe"]
    assert [s["name"] for s in record["stages"]] == ["teach", "ppo", "frozen"]
    teach, ppo, frozen = record["stages"]
    assert teach["config"]["teacher"] == "specialists" and ppo["config"]["teacher"] == ""
    assert ppo["config"]["init_from"] == str(out / "1_teach" / "agent.pt")  # each stage starts from the one before
    assert frozen["config"]["fixed_agent"] == str(out / "1_teach" / "agent.pt")
    assert all(s["decisions"] > 0 and s["code_version"] and s["finished"] for s in record["stages"])
    assert all(s["platform"]["torch"] == torch.__version__ and s["platform"]["cpu_kernels"] for s in record["stages"])
    assert record["decisions"] == sum(s["decisions"] for s in record["stages"])
    assert 'teacher = "specialists"' in record["text"]
    house = evaluation_rule_sets(1, seed=2)[0]  # the torch-free export plays a rule set it never saw
    npz = make_agent(str(out / "agent.npz"), house, 0)
    assert npz.policy.layout["recipe"]["name"] == "tiny" and npz.policy.layout["universal"]


def test_a_rerun_skips_finished_stages_and_resumes_the_one_under_way(tmp_path: Path) -> None:
    out = tmp_path / "run"
    recipe = load_recipe(write(tmp_path, TEACH + PPO))
    RecipeRun(load_recipe(write(tmp_path, TEACH, "tiny")), out).run(progress=False)  # the first stage alone
    first = (out / "1_teach" / "agent.pt").stat().st_mtime_ns
    # the second stage stopped after one update, as a crash would leave it: a checkpoint and no entry in recipe.json
    config = config_from_dict({**tomlish(DEFAULTS), "total_steps": 256, "init_from": str(out / "1_teach" / "agent.pt")})
    stopped = Trainer(config, out / "2_ppo")
    stopped.run(progress=False, max_updates=1)
    assert 0 < stopped.step < 256
    agent = RecipeRun(recipe, out).run(progress=False)
    assert (out / "1_teach" / "agent.pt").stat().st_mtime_ns == first  # not run again
    assert load_checkpoint(out / "2_ppo" / "agent.pt")["step"] >= 256  # went on to its budget
    assert [s["name"] for s in load_checkpoint(agent)["recipe"]["stages"]] == ["teach", "ppo"]


def test_a_recipe_that_extends_another_takes_its_finished_stages_and_runs_only_its_own(tmp_path: Path, capsys) -> None:
    RecipeRun(load_recipe(write(tmp_path, TEACH + PPO, "base")), tmp_path / "base").run(progress=False)
    longer = write(tmp_path, TEACH + PPO.replace("total_steps = 256", "total_steps = 128") + FROZEN, "longer")
    train.main(["--recipe", str(longer), "--out", str(tmp_path / "longer"), "--start-from", str(tmp_path / "base"),
                "--no-progress"])  # fmt: skip
    assert "stages teach taken from" in capsys.readouterr().out  # ppo differs: run again, and all after it
    teach = load_checkpoint(tmp_path / "longer" / "1_teach" / "agent.pt")["model"]
    base = load_checkpoint(tmp_path / "base" / "1_teach" / "agent.pt")["model"]
    assert all(torch.equal(teach[k], base[k]) for k in base)
    record = load_checkpoint(tmp_path / "longer" / "agent.pt")["recipe"]
    assert [s["name"] for s in record["stages"]] == ["teach", "ppo", "frozen"] and record["name"] == "longer"
    assert record["stages"][1]["config"]["init_from"] == str(tmp_path / "longer" / "1_teach" / "agent.pt")
    with pytest.raises(ValueError, match="holds a run already"):
        start_from_run(load_recipe(longer), tmp_path / "longer", tmp_path / "base")
    other = load_recipe(write(tmp_path, PPO, "other"))
    with pytest.raises(ValueError, match="did not finish this recipe's first stage 'ppo'"):
        start_from_run(other, tmp_path / "other", tmp_path / "base")
    with pytest.raises(ValueError, match="not a recipe run folder"):
        start_from_run(other, tmp_path / "other", tmp_path / "nowhere")
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "recipe.json").write_text('{"stages": ["teach"]}')
    with pytest.raises(ValueError, match="not a recipe run folder .*its stages are not a table"):
        start_from_run(other, tmp_path / "other", tmp_path / "broken")
    assert_refused(train.main, ["--start-from", str(tmp_path / "base")], capsys, "it goes with --recipe")


def tomlish(text: str) -> dict:
    import tomllib

    return tomllib.loads(text)["defaults"]


def test_a_finished_stage_whose_recipe_entry_changed_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "run"
    RecipeRun(load_recipe(write(tmp_path, TEACH)), out).run(progress=False)
    changed = load_recipe(write(tmp_path, TEACH.replace("total_steps = 128", "total_steps = 512")))
    with pytest.raises(ValueError, match="stage 'teach' of .* was run as .* and the recipe now says"):
        RecipeRun(changed, out)
    state = json.loads((out / "recipe.json").read_text())
    assert list(state["stages"]) == ["teach"]


def test_a_finished_stage_whose_defaults_changed_is_refused_and_not_taken_by_an_extending_recipe(
    tmp_path: Path,
) -> None:
    """[defaults] is part of what a stage is: a rerun under other defaults once reused the stage and recorded them."""
    out = tmp_path / "run"
    RecipeRun(load_recipe(write(tmp_path, TEACH)), out).run(progress=False)
    other = write(tmp_path, TEACH).read_text().replace("num_games = 4", "num_games = 6")
    (tmp_path / "tiny.toml").write_text(other)
    with pytest.raises(
        ValueError, match=r"stage 'teach' of .* was run with num_games 4 \(now 6\): the recipe's \[defaults\]"
    ):
        RecipeRun(load_recipe(tmp_path / "tiny.toml"), out)
    (tmp_path / "longer.toml").write_text(other.replace('name = "tiny"', 'name = "longer"') + PPO)
    with pytest.raises(ValueError, match="did not finish this recipe's first stage 'teach'"):
        start_from_run(load_recipe(tmp_path / "longer.toml"), tmp_path / "longer", out)


def test_a_stage_under_way_takes_a_new_budget_and_refuses_any_other_change(tmp_path: Path) -> None:
    """An edit to a stage under way was once ignored while the record said it was applied."""
    out = tmp_path / "run"
    config = config_from_dict({**tomlish(DEFAULTS), "teacher": "specialists", "total_steps": 128})
    Trainer(config, out / "1_teach").run(progress=False, max_updates=1)  # stopped after one update
    changed = load_recipe(write(tmp_path, TEACH.replace("total_steps = 128", "total_steps = 128\nlr = 0.05")))
    with pytest.raises(ValueError, match=r"stage 'teach' is under way in .* with lr 0.0003 \(now 0.05\)"):
        RecipeRun(changed, out).run(progress=False)
    with pytest.raises(ValueError, match="with 0 workers: --workers 2 would make it another run"):
        RecipeRun(load_recipe(write(tmp_path, TEACH)), out, workers=2).run(progress=False)
    longer = load_recipe(write(tmp_path, TEACH.replace("total_steps = 128", "total_steps = 256")))
    agent = RecipeRun(longer, out).run(progress=False)
    stage = load_checkpoint(agent)["recipe"]["stages"][0]
    assert stage["config"]["total_steps"] == 256 and stage["decisions"] >= 256 and stage["folder"] == "1_teach"


def test_finished_stages_after_one_that_is_not_are_refused(tmp_path: Path) -> None:
    """Rerunning an earlier stage, or inserting one, once kept the later stages made from the old agent."""
    out = tmp_path / "run"
    RecipeRun(load_recipe(write(tmp_path, TEACH + PPO)), out).run(progress=False)
    inserted = TEACH + FROZEN.replace('fixed_agent = "{stage:teach}"', 'fixed_agent = "rule"') + PPO
    with pytest.raises(ValueError, match="stage 'ppo' of .* was run as '2_ppo', and the recipe now puts it at '3_ppo'"):
        RecipeRun(load_recipe(write(tmp_path, inserted)), out)
    state = json.loads((out / "recipe.json").read_text())
    del state["stages"]["teach"]  # as its refusal says to run it again, leaving ppo
    (out / "recipe.json").write_text(json.dumps(state))
    with pytest.raises(ValueError, match=r"stages \['ppo'\] of .* are done, but stage 'teach' before them is not"):
        RecipeRun(load_recipe(write(tmp_path, TEACH + PPO)), out)
    with pytest.raises(ValueError, match="stage 'ppo' of .* was run as '2_ppo', and the recipe now puts it at '1_ppo'"):
        RecipeRun(load_recipe(write(tmp_path, PPO)), out)


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ("", "has no stages"),
        ('[[stage]]\nname = "x"\nkind = "distill"\nargs = []\n', "the first stage is a distill stage"),
        ('[[stage]]\nname = "x"\nlearning_rate = 1.0\n', r"\['learning_rate'\] are not training config fields"),
        ('[[stage]]\nname = "x"\nkind = "dance"\n', "kind 'dance' is not one of train, distill"),
        ('[[stage]]\nname = "x"\nfixed_agent = "{stage:later}"\nopp_fixed = 1.0\n', "names no earlier stage"),
        ('[[stage]]\nname = "x"\n[[stage]]\nname = "x"\n', r"stage names \['x'\] are used twice"),
        ('[[stage]]\nname = "x"\nlr = "fast"\n', "lr = 'fast': expected a float"),
        ('extra = 1\n[[stage]]\nname = "x"\n', "stage x: training config: unknown field 'extra'"),  # in [defaults]
        ('[[stage]]\nname = "x"\nfocus_sets = 4\n', "focus_sets = 4: the sets are scored by the agent the run starts"),
        # a distill stage's options, checked when the recipe is read (they once failed hours in, at that stage)
        (
            '[[stage]]\nname = "x"\n[[stage]]\nname = "d"\nkind = "distill"\nargs = ["--bogus"]\n',
            r"stage 2 \(d\): args: unrecognized arguments: --bogus",
        ),
        (
            '[[stage]]\nname = "x"\n[[stage]]\nname = "d"\nkind = "distill"\nargs = ["--epochs", "many"]\n',
            r"stage 2 \(d\): args: argument --epochs: invalid int value: 'many'",
        ),
        (
            '[[stage]]\nname = "x"\n[[stage]]\nname = "d"\nkind = "distill"\nargs = ["--lr", "inf"]\n',
            r"stage 2 \(d\): args: fit option lr = inf: expected",
        ),
    ],
)
def test_a_recipe_that_cannot_run_is_refused_before_anything_runs(tmp_path: Path, body: str, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        load_recipe(write(tmp_path, body))


def test_a_later_stage_may_focus_where_the_agent_before_it_loses(tmp_path: Path) -> None:
    recipe = load_recipe(write(tmp_path, TEACH + PPO.replace('name = "ppo"', 'name = "ppo"\nfocus_sets = 4')))
    config = stage_config(recipe, recipe.stages[1], tmp_path / "teach" / "agent.pt", {})
    assert config.focus_sets == 4 and config.init_from == str(tmp_path / "teach" / "agent.pt")


TABLES = """
[[stage]]
name = "tables"
teacher = "specialists_and_start"
teacher_hold = true
tables = [{teacher = "{stage:teach}", preset = "minnesota", share = 0.2},
          {teacher = "{previous}", preset = "ten_point", rules = {joker_rank = "not_trump"}, share = 0.3}]
total_steps = 128
"""


def test_a_stage_names_earlier_stages_as_its_table_experts(tmp_path: Path) -> None:
    recipe = load_recipe(write(tmp_path, TEACH + PPO + TABLES))
    teach, ppo = tmp_path / "1_teach" / "agent.pt", tmp_path / "2_ppo" / "agent.pt"
    config = stage_config(recipe, recipe.stages[2], ppo, {"teach": teach, "ppo": ppo})
    assert [(e.teacher, e.preset, e.share) for e in config.table_experts()] == [
        (str(teach), "minnesota", 0.2), (str(ppo), "ten_point", 0.3)]  # fmt: skip
    with pytest.raises(ValueError, match="stage tables: {stage:later} names no earlier stage"):
        load_recipe(write(tmp_path, TEACH + TABLES.replace("{stage:teach}", "{stage:later}")))
    with pytest.raises(ValueError, match="stage tables: training config: tables = .*expected a share in"):
        load_recipe(write(tmp_path, TEACH + TABLES.replace("share = 0.2", "share = 2")))


def test_the_command_line_runs_a_recipe_and_refuses_options_of_a_single_run(tmp_path: Path, capsys) -> None:
    path = write(tmp_path, TEACH)
    assert_refused(train.main, ["--recipe", str(path), "--set", "lr=1"], capsys, "--recipe runs the recipe's own")
    assert_refused(train.main, ["--recipe", str(tmp_path / "none.toml")], capsys, "is neither a file nor a shipped")
    train.main(["--recipe", str(path), "--out", str(tmp_path / "cli"), "--no-progress"])
    assert "agent:" in capsys.readouterr().out and (tmp_path / "cli" / "agent.npz").is_file()


@pytest.mark.parametrize("recipe", sorted(p.stem for p in recipes_dir().glob("*.toml")))
def test_every_shipped_recipe_loads(recipe: str) -> None:
    assert load_recipe(recipe).stages


@pytest.mark.parametrize("path", sorted(Path("research/recipes").glob("*.toml")), ids=lambda p: p.stem)
def test_every_recipe_kept_as_a_research_record_loads(path: Path) -> None:
    assert load_recipe(str(path)).stages
