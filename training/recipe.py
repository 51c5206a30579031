"""Recipes: a whole training pipeline in one declarative file, run by one command that resumes anywhere.

An agent is rarely one run: it is imitation, then self-play, then a fit to a teacher, then
a stage against a frozen copy of itself. A recipe (``configs/recipes/<name>.toml``) states
them all, with their budgets::

    name = "six_point"
    description = "..."
    [defaults]                     # training config fields every train stage starts from
    preset = "six_point"
    [[stage]]
    name = "selfplay"
    kind = "train"                 # a smear-rl train run (PPO; a teacher's DAgger when teacher is set)
    total_steps = 5_836_679        # any field of training.config.TrainConfig
    [[stage]]
    name = "search"
    kind = "distill"               # smear-rl distill: search's card play fitted into the agent
    args = ["--teacher", "search", "--matches", "40", "--card-head"]

``smear-rl train --recipe FILE --out DIR`` runs the stages in order, each in ``DIR/<n>_<name>/``.
A train stage starts from the agent of the stage before it (``init_from``, unless the stage
sets its own or ``init_from = ""`` with ``fresh = true``); ``"{previous}"`` or ``"{stage:NAME}"``
in a stage's text fields stands for that stage's agent file (a frozen opponent:
``fixed_agent = "{previous}"``). What is done is kept in ``DIR/recipe.json``: run the command
again after a crash or a stop and finished stages are skipped, and the stage under way
resumes from its last checkpoint (a distill stage starts over). A finished stage whose
recipe entry has since changed (its own table, or a ``[defaults]`` field it takes) is refused,
naming it, rather than silently reused; so is a stage under way whose config the recipe now
gives otherwise (but for a longer or shorter budget and how it is evaluated, which it takes),
and a finished stage after one that is not (it was made from another agent than the recipe's
stage before it will make).

A recipe that extends another (the same first stages, then more) can take the finished stages of
that recipe's run instead of running them again: ``--start-from RUN_DIR`` copies them into a new
``DIR`` (:func:`start_from_run`), each checked entry for entry against this recipe's.

At the end ``DIR/agent.pt`` (and its torch-free export ``DIR/agent.npz``) is the last
stage's agent with a ``recipe`` record: the recipe's text, and for each stage its config,
training minutes, decisions, evaluations, code version and dates.
"""

from __future__ import annotations

import contextlib
import json
import re
import shutil
import time
import tomllib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from smear_env.version import code_version
from training.checkpoint import load_checkpoint, save_checkpoint, training_platform
from training.config import FIELDS, TrainConfig, check_fresh_start, config_from_dict
from training.stopping import StopRequested, StopSignals

STAGE_KINDS = ("train", "distill")  # what a stage may be
STATE_FILE = "recipe.json"
_STAGE_KEYS = {"name", "kind", "args", "fresh"}  # a stage's keys besides training config fields
_PLACEHOLDER = re.compile(r"\{(previous|stage:[A-Za-z0-9_-]+)\}")
#: config fields set by where the run is and how it is run (``--workers``), not by what the recipe says of a stage
_RUN_SPECIFIC = ("init_from", "workers")

_PACKAGED_RECIPES = Path(__file__).parent / "_recipes"  # configs/recipes, copied into the wheel
_REPO_RECIPES = Path(__file__).resolve().parent.parent / "configs" / "recipes"


def recipes_dir() -> Path:
    """Folder of the shipped recipes (the packaged copy, else the repository's configs/recipes)."""
    return _PACKAGED_RECIPES if _PACKAGED_RECIPES.is_dir() else _REPO_RECIPES


@dataclass(frozen=True)
class Stage:
    """One stage of a recipe: its name, kind and what it sets (training config fields, or distill's arguments)."""

    name: str
    kind: str
    settings: dict[str, Any] = field(default_factory=dict)
    args: tuple[str, ...] = ()
    fresh: bool = False  # a train stage that starts from its own seed, not the stage before

    def entry(self) -> dict[str, Any]:
        """The stage as the recipe states it (what a finished stage is checked against)."""
        return {"name": self.name, "kind": self.kind, "settings": self.settings, "args": list(self.args),
                "fresh": self.fresh}  # fmt: skip


@dataclass(frozen=True)
class Recipe:
    """A parsed recipe file."""

    name: str
    description: str
    defaults: dict[str, Any]
    stages: tuple[Stage, ...]
    text: str


def resolve_recipe(path: str | Path) -> Path:
    """A recipe file's path: an existing file as given, else a shipped recipe's name (``universal``)."""
    given = Path(path)
    if given.is_file() or given.suffix or len(given.parts) > 1:
        return given
    return recipes_dir() / f"{given}.toml"


def load_recipe(path: str | Path) -> Recipe:
    """Read and check a recipe: ``ValueError`` naming the stage and field that is wrong, before anything runs."""
    where = resolve_recipe(path)
    try:
        text = where.read_text()
        data = tomllib.loads(text)
    except FileNotFoundError:
        shipped = ", ".join(sorted(p.stem for p in recipes_dir().glob("*.toml")))
        raise ValueError(f"recipe {str(path)!r} is neither a file nor a shipped recipe (one of {shipped})") from None
    except (OSError, UnicodeDecodeError) as err:
        raise ValueError(f"recipe {str(where)!r} cannot be read: {err}") from None
    except tomllib.TOMLDecodeError as err:
        raise ValueError(f"recipe {str(where)!r} is not valid TOML: {err}") from None
    unknown = set(data) - {"name", "description", "defaults", "stage"}
    if unknown:
        raise ValueError(f"recipe {str(where)!r}: unknown keys {sorted(unknown)} (expected name, description, "
                         "defaults and [[stage]] tables)")  # fmt: skip
    name = data.get("name", where.stem)
    defaults = data.get("defaults", {})
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_-]+", name):
        raise ValueError(f"recipe {str(where)!r}: name {name!r} is not a plain name (letters, digits, _ and -)")
    if not isinstance(defaults, dict):
        raise ValueError(f"recipe {str(where)!r}: [defaults] must be a table of training config fields")
    stages = data.get("stage")
    if not isinstance(stages, list) or not stages or not all(isinstance(s, dict) for s in stages):
        raise ValueError(f"recipe {str(where)!r} has no stages: expected one or more [[stage]] tables")
    recipe = Recipe(name, str(data.get("description", "")), defaults,
                    tuple(_stage(s, i, where) for i, s in enumerate(stages)), text)  # fmt: skip
    _check(recipe, where)
    return recipe


def _stage(data: dict[str, Any], index: int, where: Path) -> Stage:
    label = f"recipe {str(where)!r}, stage {index + 1}"
    name = data.get("name", f"stage{index + 1}")
    kind = data.get("kind", "train")
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_-]+", name):
        raise ValueError(f"{label}: name {name!r} is not a plain name (letters, digits, _ and -)")
    if kind not in STAGE_KINDS:
        raise ValueError(f"{label} ({name}): kind {kind!r} is not one of {', '.join(STAGE_KINDS)}")
    args = data.get("args", [])
    if kind == "distill" and (not isinstance(args, list) or not all(isinstance(a, str) for a in args)):
        raise ValueError(f"{label} ({name}): args must be a list of strings (smear-rl distill's options)")
    settings = {k: v for k, v in data.items() if k not in _STAGE_KEYS}
    if kind == "distill" and settings:
        raise ValueError(f"{label} ({name}): a distill stage takes args, not config fields ({sorted(settings)})")
    unknown = [k for k in settings if k not in FIELDS]
    if unknown:
        raise ValueError(f"{label} ({name}): {unknown} are not training config fields (training/config.py)")
    fresh = data.get("fresh", False)
    if not isinstance(fresh, bool):
        raise ValueError(f"{label} ({name}): fresh must be true or false")
    if kind == "distill":
        _check_distill_args(args, f"{label} ({name})")
    return Stage(name, kind, settings, tuple(args), fresh)


def _check_distill_args(args: list[str], label: str) -> None:
    """A distill stage's options as ``smear-rl distill`` will read them, checked now, not hours later at the stage.

    Only what the options say is checked here (names, types, fit settings); the agents they name are read at the
    stage, when the stages before it have made them.
    """
    from training import distill

    parser = distill.build_parser()

    def refuse(message: str) -> None:
        raise ValueError(f"{label}: args: {message}")

    parser.error = refuse  # type: ignore[method-assign]  # argparse's refusals, raised instead of exiting
    parsed = parser.parse_args(["student.pt", "--out", "out", *args])
    try:
        distill.FitConfig(**{name: getattr(parsed, name) for name in asdict(distill.FitConfig())})
    except ValueError as err:
        refuse(str(err))


def _check(recipe: Recipe, where: Path) -> None:
    names = [s.name for s in recipe.stages]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise ValueError(f"recipe {str(where)!r}: stage names {repeated} are used twice")
    if recipe.stages[0].kind == "distill":
        raise ValueError(f"recipe {str(where)!r}: the first stage is a distill stage, which needs an agent to fit")
    for index, stage in enumerate(recipe.stages):
        for text in _texts(stage):
            for token in _PLACEHOLDER.findall(text):
                target = "" if token == "previous" else token.removeprefix("stage:")
                if (token == "previous" and index == 0) or (target and target not in names[:index]):
                    raise ValueError(f"recipe {str(where)!r}, stage {stage.name}: {{{token}}} names no earlier stage")
        if stage.kind == "train":
            try:
                check_fresh_start(stage_config(recipe, stage, None))  # every field checked now
            except ValueError as err:
                raise ValueError(f"recipe {str(where)!r}, stage {stage.name}: {err}") from None


def _texts(stage: Stage) -> list[str]:
    return _strings(list(stage.settings.values())) + list(stage.args)


def _strings(value: Any) -> list[str]:
    """Every string in a setting's value, in its lists and tables too (``tables``' teachers)."""
    if isinstance(value, list | tuple):
        return [text for v in value for text in _strings(v)]
    if isinstance(value, dict):
        return _strings(list(value.values()))
    return [value] if isinstance(value, str) else []


def _substitute(value: Any, agents: dict[str, Path] | None, previous: Path | None) -> Any:
    """``value`` with each placeholder replaced by its agent's path; without ``agents`` (checking a recipe before
    anything runs), by a stand-in name."""
    if isinstance(value, list):
        return [_substitute(v, agents, previous) for v in value]
    if isinstance(value, dict):
        return {k: _substitute(v, agents, previous) for k, v in value.items()}
    if not isinstance(value, str):
        return value

    def agent(match: re.Match[str]) -> str:
        token = match.group(1)
        if agents is None:
            return "<agent>"
        return str(previous if token == "previous" else agents[token.removeprefix("stage:")])

    return _PLACEHOLDER.sub(agent, value)


def stage_config(recipe: Recipe, stage: Stage, previous: Path | None, agents: dict[str, Path] | None = None) -> Any:
    """The training config of a train stage: the recipe's defaults, the stage's fields, its start and placeholders.

    Without ``agents`` (checking a recipe before anything runs) the agents that earlier stages will make do not
    exist yet: ``init_from`` and the table experts are checked as a name standing for one, and a ``fixed_agent``
    naming one as the rule bot would be.
    """
    fields = {**recipe.defaults, **stage.settings}
    if agents is None:
        named = {k for k, v in fields.items() if isinstance(v, str) and _PLACEHOLDER.search(v)}
        starts_from_agent = bool(fields.get("init_from")) or (stage is not recipe.stages[0] and not stage.fresh)
        fields = {k: v for k, v in fields.items() if k not in named | {"init_from"}}
        stand_ins = {"fixed_agent": "rule"} if "fixed_agent" in named else {}
        stand_ins |= {"table_teacher": "<agent>"} if "table_teacher" in named else {}
        stand_ins |= {"tables": _substitute(fields["tables"], None, None)} if "tables" in fields else {}
        return config_from_dict(fields | stand_ins | ({"init_from": "<agent>"} if starts_from_agent else {}))
    fields = {k: _substitute(v, agents, previous) for k, v in fields.items()}
    if previous is not None and not stage.fresh and "init_from" not in stage.settings:
        fields["init_from"] = str(previous)
    return config_from_dict(fields)


def config_differences(recipe: Recipe, stage: Stage, recorded: dict[str, Any]) -> dict[str, tuple[Any, Any]]:
    """The config fields of a train stage that the recipe now gives otherwise than ``recorded`` (the config it ran
    with): ``{field: (then, now)}``, as JSON values.

    Its own table and ``[defaults]`` alike, so an edited default reaches every stage that does not set the field.
    Left out: where the run starts and how many workers it ran on, and fields naming an earlier stage's agent
    (``"{previous}"``): those follow from the stage's place in the run, which is checked apart.
    """
    named = {k for k, v in {**recipe.defaults, **stage.settings}.items() if _names_agent(v)}
    now = _as_json(stage_config(recipe, stage, None).to_dict())
    then = {**_as_json(TrainConfig().to_dict()), **recorded}  # a field added to the code since: its default
    skip = set(_RUN_SPECIFIC) | named
    return {k: (then.get(k), v) for k, v in now.items() if k not in skip and then.get(k) != v}


def _names_agent(value: Any) -> bool:
    values = value if isinstance(value, list) else [value]
    return any(isinstance(v, str) and _PLACEHOLDER.search(v) for v in values)


def _as_json(data: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(data))


def _shown_differences(differences: dict[str, tuple[Any, Any]]) -> str:
    return ", ".join(f"{k} {then!r} (now {now!r})" for k, (then, now) in differences.items())


class RecipeRun:
    """A recipe's stages in ``out``, resumable (see the module docstring)."""

    def __init__(self, recipe: Recipe, out: str | Path, workers: int | None = None, address: str = "") -> None:
        """``workers``: the Ray workers of every train stage (else each stage's own ``workers``); ``address``:
        the Ray cluster they join (default: Ray on this machine)."""
        self.recipe, self.out = recipe, Path(out)
        self.workers, self.address = workers, address
        self.state = self._read_state()

    def _read_state(self) -> dict[str, Any]:
        path = self.out / STATE_FILE
        if not path.is_file():
            return {"recipe": self.recipe.name, "stages": {}}
        try:
            state = json.loads(path.read_text())
        except (OSError, json.JSONDecodeError) as err:
            raise ValueError(f"{str(path)!r} cannot be read ({err}): remove it to start the recipe over") from None
        if state.get("recipe") != self.recipe.name:
            raise ValueError(
                f"{str(self.out)!r} holds a run of recipe {state.get('recipe')!r}, not {self.recipe.name!r}: "
                "choose another --out folder"
            )
        for index, stage in enumerate(self.recipe.stages):
            done = state["stages"].get(stage.name)
            if done:
                self._check_finished(stage, index, done)
        self._check_chain(state)
        return state

    def _check_finished(self, stage: Stage, index: int, done: dict[str, Any]) -> None:
        """Refuse a finished stage that the recipe now states otherwise, or that now sits at another place."""
        folder = self.out / stage_dir_name(stage, index)
        again = f"restore the recipe, or remove {str(folder)!r} and the stage's entry in {STATE_FILE} to run it again"
        if done.get("entry") != stage.entry():
            raise ValueError(f"stage {stage.name!r} of {str(self.out)!r} was run as {done.get('entry')}, and the "
                             f"recipe now says {stage.entry()}: {again}")  # fmt: skip
        if done.get("kind") == "train" and isinstance(done.get("config"), dict):
            changed = config_differences(self.recipe, stage, done["config"])
            if changed:
                raise ValueError(f"stage {stage.name!r} of {str(self.out)!r} was run with "
                                 f"{_shown_differences(changed)}: the recipe's [defaults] (or the code's) give it "
                                 f"otherwise now; {again}")  # fmt: skip
        if done.get("folder", folder.name) != folder.name:
            raise ValueError(
                f"stage {stage.name!r} of {str(self.out)!r} was run as {done['folder']!r}, and the recipe now puts it "
                f"at {folder.name!r} (stages were added, removed or moved before it): restore the recipe's order, "
                "or run the recipe into a new folder"
            )

    def _check_chain(self, state: dict[str, Any]) -> None:
        """Refuse finished stages after one that is not: they were made from another agent than it will make."""
        names = [stage.name for stage in self.recipe.stages]
        missing = next((n for n in names if not state["stages"].get(n)), None)
        later = [n for n in names[names.index(missing) + 1 :] if state["stages"].get(n)] if missing else []
        if later:
            raise ValueError(
                f"stages {later} of {str(self.out)!r} are done, but stage {missing!r} before them is not: they "
                f"started from another agent than {missing!r} will make. Remove their folders and entries in "
                f"{STATE_FILE} too, to run them again after it"
            )

    def _save_state(self) -> None:
        _write_state(self.out, self.state)

    def run(self, progress: bool = True, stop: StopSignals | None = None) -> Path:
        """Run every stage not yet done; returns the final agent's path.

        ``stop``: a training stage stops after its update when asked (saved, as :meth:`Trainer.run` does), and a
        stage that is done is not followed by the next; a distill stage cannot stop there and is left to the signals.
        """
        agents: dict[str, Path] = {}
        previous: Path | None = None
        for index, stage in enumerate(self.recipe.stages):
            done = self.state["stages"].get(stage.name)
            folder = self.out / stage_dir_name(stage, index)
            if done:
                print(f"[recipe {self.recipe.name}] stage {index + 1}/{len(self.recipe.stages)} {stage.name}: done")
            else:
                if stop is not None and stop():
                    raise StopRequested(f"stopped before stage {stage.name}")
                print(f"[recipe {self.recipe.name}] stage {index + 1}/{len(self.recipe.stages)} {stage.name}: "
                      f"{'resuming' if (folder / 'checkpoint.pt').is_file() else 'starting'} in {folder}")  # fmt: skip
                started = time.time()
                record = self._run_stage(stage, folder, previous, agents, progress, stop)
                record |= {"entry": stage.entry(), "folder": folder.name,
                           "started": _stamp(started), "finished": _stamp(time.time()),
                           "wall_minutes": round((time.time() - started) / 60, 2),
                           "code_version": code_version(), "platform": training_platform()}  # fmt: skip
                self.state["stages"][stage.name] = record
                self._save_state()
            previous = agents[stage.name] = folder / "agent.pt"
        assert previous is not None
        return self._finish(previous)

    def _run_stage(
        self, stage: Stage, folder: Path, previous: Path | None, agents: dict[str, Path], progress: bool,
        stop: StopSignals | None = None,
    ) -> dict[str, Any]:  # fmt: skip
        if stage.kind == "distill":
            with stop.suspended() if stop is not None else contextlib.nullcontext():
                return _run_distill(stage, folder, previous, agents)
        from training.ppo import Trainer

        config = stage_config(self.recipe, stage, previous, agents)
        if self.workers is not None:
            config = config.replace(workers=self.workers)
        checkpoint = folder / "checkpoint.pt"
        if checkpoint.is_file():  # under way: it goes on as it started, its workers included
            extend = self._resumable(stage, checkpoint, config)
            trainer = Trainer(None, folder, resume=checkpoint, extend=extend, address=self.address)
        else:
            trainer = Trainer(config, folder, address=self.address)
        trainer.run(progress=progress, stop=stop)
        data = load_checkpoint(folder / "agent.pt")
        # the nodes its workers ran on in the session that finished it (a resumed stage may have run elsewhere)
        where = {"ray_nodes": len(set(trainer.collector.nodes))} if trainer.remote else {}
        return {"kind": "train", "config": data["config"], "train_minutes": round(float(data["train_minutes"]), 2),
                "decisions": int(data["step"]), "evaluation": dict(data.get("evaluation", {})), **where}  # fmt: skip

    def _resumable(self, stage: Stage, checkpoint: Path, config: TrainConfig) -> dict[str, Any]:
        """What a stage under way takes from the recipe as it is now: a changed budget or evaluation (the
        fields a resumed run may change); ``ValueError`` naming any other field the recipe now gives otherwise."""
        from training.ppo import RESUME_OVERRIDES

        saved = load_checkpoint(checkpoint).get("config", {})
        if self.workers is not None and saved.get("workers") != self.workers:
            raise ValueError(f"stage {stage.name!r} is under way in {str(checkpoint.parent)!r} with "
                             f"{saved.get('workers')} workers: --workers {self.workers} would make it another run; "
                             "resume it without --workers")  # fmt: skip
        changed = config_differences(self.recipe, stage, saved)
        refused = {k: v for k, v in changed.items() if k not in RESUME_OVERRIDES}
        if refused:
            raise ValueError(f"stage {stage.name!r} is under way in {str(checkpoint.parent)!r} with "
                             f"{_shown_differences(refused)}: restore the recipe, or remove that folder to start "
                             "the stage over")  # fmt: skip
        return {k: getattr(config, k) for k in changed}

    def _finish(self, last: Path) -> Path:
        """The final agent: the last stage's, with the recipe's record; and its torch-free export beside it."""
        from training.export import export_checkpoint

        data = load_checkpoint(last)
        keep = {k: v for k, v in data.items() if k not in ("format", "format_version", "code_version")}
        stages = [{"name": s.name, **self.state["stages"][s.name]} for s in self.recipe.stages]
        keep["recipe"] = {"name": self.recipe.name, "description": self.recipe.description,
                          "text": self.recipe.text, "stages": stages,
                          "train_minutes": round(sum(s.get("train_minutes", s["wall_minutes"]) for s in stages), 2),
                          "decisions": sum(s.get("decisions", 0) for s in stages)}  # fmt: skip
        agent = save_checkpoint(self.out / "agent.pt", keep)
        export_checkpoint(agent, self.out / "agent.npz")
        return agent


def start_from_run(recipe: Recipe, out: str | Path, source: str | Path) -> list[str]:
    """Copy into a new run folder ``out`` the finished stages of another recipe's run ``source`` that are this
    recipe's first stages, entry for entry (a recipe that extends another need not run its stages again).

    Returns the names of the stages taken, in order; a stage after one that differs is never taken (it
    started from the stage before it). ``ValueError`` when ``out`` holds a run already, or none is taken.
    """
    out, source = Path(out), Path(source)
    if (out / STATE_FILE).exists():
        raise ValueError(f"--start-from fills a new run folder: {str(out)!r} holds a run already")
    try:
        done = json.loads((source / STATE_FILE).read_text())["stages"]
        if not isinstance(done, dict):
            raise TypeError("its stages are not a table")
    except (OSError, json.JSONDecodeError, KeyError, TypeError) as err:
        raise ValueError(f"--start-from {str(source)!r}: not a recipe run folder ({STATE_FILE}: {err})") from None
    taken: dict[str, Any] = {}
    for index, stage in enumerate(recipe.stages):
        record, folder = done.get(stage.name), source / stage_dir_name(stage, index)
        if not isinstance(record, dict) or record.get("entry") != stage.entry() or not folder.is_dir():
            break
        if record.get("kind") == "train" and config_differences(recipe, stage, record.get("config") or {}):
            break  # run under other [defaults]
        taken[stage.name] = record
    if not taken:
        first = recipe.stages[0]
        raise ValueError(f"--start-from {str(source)!r}: its run did not finish this recipe's first stage "
                         f"{first.name!r} as the recipe states it ({first.entry()})")  # fmt: skip
    names = [stage_dir_name(stage, index) for index, stage in enumerate(recipe.stages[: len(taken)])]
    if any((out / name).exists() for name in names):
        raise ValueError(f"--start-from fills a new run folder: {str(out)!r} holds stage folders already")
    for name in names:
        shutil.copytree(source / name, out / name)
    _write_state(out, {"recipe": recipe.name, "stages": taken, "started_from": str(source)})
    return list(taken)


def _write_state(out: Path, state: dict[str, Any]) -> None:
    """``recipe.json``, replaced whole: a stop while writing leaves the old one, never half a file."""
    out.mkdir(parents=True, exist_ok=True)
    partial = out / (STATE_FILE + ".partial")
    partial.write_text(json.dumps(state, indent=2, sort_keys=True))
    partial.replace(out / STATE_FILE)


def stage_dir_name(stage: Stage, index: int) -> str:
    """The folder of a stage in the run: its place and name (``1_distill``)."""
    return f"{index + 1}_{stage.name}"


def _run_distill(stage: Stage, folder: Path, previous: Path | None, agents: dict[str, Path]) -> dict[str, Any]:
    from training import distill

    assert previous is not None  # load_recipe refuses a distill stage first
    if folder.exists():
        shutil.rmtree(folder)  # a distill stage does not resume: its labels start over
    args = [str(_substitute(a, agents, previous)) for a in stage.args]
    distill.main([str(previous), "--out", str(folder), *args])
    data = load_checkpoint(folder / "agent.pt")
    return {"kind": "distill", "args": args, "distill": data.get("distill", {}), "decisions": 0}


def _stamp(seconds: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds))
