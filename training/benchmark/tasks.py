"""The benchmark's tasks: each a fixed rule set, env id and protocol, read from ``configs/tasks/<name>.toml``.

Why files: a task is data that two papers must read alike. Its file fixes the rules (a
preset and house rules on top), the env id and version it was defined on, and the
protocol: how many duplicate games the rated agent plays against each panel member, on
which deals (the seed), when a match stops (``max_hands``, counted a draw), the time a
decision may take, and the exploiter's budget. A rating names the task and its version;
anything that changes what a rating means bumps the version.

A task is refused, with the file and field named, when a field is unknown, missing or of
the wrong kind, when its rules cannot be built, and when its panel lacks ``random`` or
``rule`` (the two ends of the scale: random = 0, rule = 1000). :meth:`Task.check_env`
refuses to play a task whose env id is not the one this smear-rl registers: the game or
its observation changed under it, and its ratings would not compare.
"""

from __future__ import annotations

import difflib
import importlib
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import smear_env
from smear_env.checks import as_int, as_real

#: the panel members that fix the scale: a rating of 0 is random's, of 1000 the rule bot's
ANCHORS = ("random", "rule")
#: the agent shipped for the task's rules (``make_agent("neural", rules)``): absent where none plays them
NEURAL = "neural"

_PACKAGED_TASKS = Path(__file__).parent / "_tasks"  # configs/tasks, copied into the wheel
_REPO_TASKS = Path(__file__).resolve().parents[2] / "configs" / "tasks"


@dataclass(frozen=True)
class Exploit:
    """The standard exploiter: PPO from a shipped training config, against the frozen agent, for a fixed budget."""

    config: str  # shipped training config it starts from (configs/train/<config>.toml): weights, network, settings
    decisions: int  # learner decisions it trains for: the budget, the same on every machine
    games: int  # duplicate games of the exploiter against the agent, after training (even)


@dataclass(frozen=True)
class Task:
    """One benchmark task: rules, env id and the protocol of a rating (see the module doc)."""

    name: str
    version: int  # bumped whenever a change alters what a rating means
    description: str  # one line: what the task is
    preset: str
    rules: dict[str, Any]  # house rules on top of the preset ({} = the preset as shipped)
    env_id: str  # the PettingZoo env id (and version) the task was defined on
    seed: int  # the deals: duplicate pairs of this seed (training.evaluate.seeds)
    max_hands: int  # deals after which a match stops, counted as a draw
    max_decision_ms: float  # mean milliseconds a decision of the rated agent may take (measured, flagged if over)
    panel: dict[str, int]  # panel member's agent spec -> duplicate games the rated agent plays against it
    exploit: Exploit | None = None  # the exploiter's budget; None: no standard exploiter for this task
    path: Path = field(default=Path(), compare=False)

    @property
    def scale_path(self) -> Path:
        """The published scale beside the task file (``<name>.scale.json``)."""
        return self.path.with_name(f"{self.name}.scale.json")

    def installed_env_id(self) -> str:
        """The env id this smear-rl registers for the task's preset."""
        module = importlib.import_module(smear_env.OTHER_GAMES.get(self.preset, "smear_env.aec"))
        return f"smear/{self.preset}-v{module.ENV_VERSION}"

    def check_env(self) -> None:
        """``ValueError`` when this smear-rl's env is not the one the task was defined on."""
        installed = self.installed_env_id()
        if installed != self.env_id:
            raise ValueError(
                f"task {self.name!r} (version {self.version}) is defined on {self.env_id} but this smear-rl has "
                f"{installed}: its ratings would not compare; the task needs a new version and a new scale"
            )

    def game_rules(self) -> Any:
        """The rules the task's games are played under (a preset with its house rules)."""
        return smear_env.raw_env(preset=self.preset, **self.rules).rules

    def title(self) -> str:
        """``partnership v1 (smear/ten_point-v4)``: how results name the task."""
        return f"{self.name} v{self.version} ({self.env_id})"


def tasks_dir() -> Path:
    """Folder of the shipped task files (the packaged copy, else the repository's configs/tasks)."""
    return _PACKAGED_TASKS if _PACKAGED_TASKS.is_dir() else _REPO_TASKS


def list_tasks() -> list[str]:
    """Names of the shipped tasks."""
    return sorted(p.stem for p in tasks_dir().glob("*.toml"))


def load_task(name_or_path: str | Path) -> Task:
    """A shipped task by name, or a task file by path; ``ValueError`` naming the file and what is wrong in it."""
    given = Path(name_or_path)
    path = given if given.suffix == ".toml" or len(given.parts) > 1 else tasks_dir() / f"{given}.toml"
    if not path.is_file():
        raise ValueError(
            f"task {str(name_or_path)!r} is neither a task file nor a shipped task: expected one of "
            f"{', '.join(list_tasks())} or a path to a .toml file"
        )
    try:
        with path.open("rb") as f:
            data = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
        raise ValueError(f"task file {str(path)!r} cannot be read as TOML: {err}") from None
    return _task_from(data, path)


#: a task file's fields, in Task's order
_FIELDS = ("version", "description", "preset", "rules", "env_id", "seed", "max_hands", "max_decision_ms", "panel",
           "exploit")  # fmt: skip
_OPTIONAL = {"rules": {}, "exploit": None}  # fields a file may leave out, and what that means


def _task_from(data: dict[str, Any], path: Path) -> Task:
    where = f"task file {str(path)!r}"
    for key in data:
        if key not in _FIELDS:
            close = difflib.get_close_matches(key, _FIELDS, n=1)
            raise ValueError(f"{where}: unknown field {key!r}" + (f" (did you mean {close[0]!r}?)" if close else ""))
    missing = [key for key in _FIELDS if key not in data and key not in _OPTIONAL]
    if missing:
        raise ValueError(f"{where}: missing {', '.join(missing)}")
    values = {key: data.get(key, _OPTIONAL.get(key)) for key in _FIELDS}
    for key in ("description", "preset", "env_id"):
        if not isinstance(values[key], str) or not values[key]:
            raise ValueError(f"{where}: {key} = {values[key]!r}: expected a non-empty string")
    for key in ("rules", "panel"):
        if not isinstance(values[key], dict):
            raise ValueError(f"{where}: {key} = {values[key]!r}: expected a table")
    try:
        version = as_int(values["version"], "version", 1)
        seed = as_int(values["seed"], "seed", 0)
        max_hands = as_int(values["max_hands"], "max_hands", 1)
        max_ms = as_real(values["max_decision_ms"], "max_decision_ms", 0, low_open=True)
        if values["preset"] not in smear_env.list_presets():
            raise ValueError(f"preset {values['preset']!r} is unknown: expected one of {smear_env.list_presets()}")
        smear_env.raw_env(preset=values["preset"], **values["rules"])  # unknown or impossible options raise here
        panel = {spec: _even_games(games, f"panel {spec!r}") for spec, games in values["panel"].items()}
        missing_anchors = [a for a in ANCHORS if a not in panel]
        if missing_anchors:
            raise ValueError(f"panel lacks {', '.join(missing_anchors)}: the scale's ends (random = 0, rule = 1000)")
        exploit = None if values["exploit"] is None else _exploit_from(values["exploit"])
    except ValueError as err:
        raise ValueError(f"{where}: {err}") from None
    return Task(path.stem, version, values["description"], values["preset"], dict(values["rules"]),
                values["env_id"], seed, max_hands, max_ms, panel, exploit, path)  # fmt: skip


def _even_games(value: Any, what: str) -> int:
    games = as_int(value, f"{what}: games", 2)
    if games % 2:
        raise ValueError(f"{what}: games {games} is odd: expected an even number (each deal is played twice)")
    return games


def _exploit_from(data: Any) -> Exploit:
    if not isinstance(data, dict) or set(data) != {"config", "decisions", "games"}:
        raise ValueError(f"exploit = {data!r}: expected a table of config, decisions and games")
    if not isinstance(data["config"], str) or not data["config"]:
        raise ValueError(f"exploit config {data['config']!r}: expected a shipped training config's name")
    decisions = as_int(data["decisions"], "exploit decisions", 1)
    return Exploit(data["config"], decisions, _even_games(data["games"], "exploit"))
