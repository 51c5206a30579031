"""Training hyperparameters: declared once here, each with its meaning; set from TOML files and the command line.

A config file (``configs/train/<preset>.toml``) sets any of these fields;
``--set name=value`` on the command line overrides them. Unknown names and
values of the wrong type fail with a message naming the field.
"""

from __future__ import annotations

import dataclasses
import difflib
import math
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Any

from agents.card_features import CARD_FEATURE_SETS
from agents.match_odds import MATCH_MOON_PRESETS, MOON_MODELS
from smear_env.checks import options_by_name
from smear_env.house_rules import BASE_PRESETS, is_held_out
from smear_env.rules import Rules
from smear_env.schneider.game import GAME_NAME as SCHNEIDER
from training.rules_draw import RulesDraw
from training.teachers import MOVE_KINDS, TAUGHT_FROM_START, TEACHER_KINDS


@options_by_name('TrainConfig(preset="minnesota")', lambda fields: _check_field_names(fields))
@dataclass(frozen=True)
class TrainConfig:
    """Masked PPO self-play on hand rewards; see the README's Training section for the method."""

    # --- game and run
    preset: str = "ten_point"  # rules preset the agent learns (a name from smear_env.list_presets())
    seed: int = 0  # seeds the network, the games, the bots and every sampled action
    total_steps: int = 2_000_000  # learner decisions to train on (forced moves with one legal action not counted)
    time_limit_minutes: float = 0.0  # stop (and checkpoint) after this much training time; 0 = no limit
    device: str = "auto"  # "auto" (cuda when present, else cpu), "cpu" or "cuda"
    workers: int = 0  # Ray worker processes collecting experience (training.collection); 0 = in the learner's process
    torch_threads: int = 0  # CPU threads for torch; 0 = torch's default (all cores: use 1 when runs share them)
    init_from: str = ""  # checkpoint whose weights start the run (fine-tuning; same rules and hidden); "" = seed
    init_any_rules: bool = False  # init_from may be of other rules with as many players (a warm start across presets)
    # --- one agent for every rule set (the network reads the observation's rules block)
    universal: bool = False  # draw each match's rules from the presets and house rules below, not preset's alone
    house_share: float = 0.5  # universal: share of matches under a house-rule set (smear_env.house_rules), else presets
    train_presets: list[str] = field(default_factory=lambda: list(BASE_PRESETS))  # universal: presets drawn (uniformly)
    eval_presets: list[str] = field(default_factory=list)  # universal: presets each evaluation plays; [] = preset alone
    teacher: str = ""  # fit each move to a teacher's (DAgger), not PPO: a name of training.teachers.TEACHER_KINDS
    teacher_temperature: float = 1.0  # teacher: its logits are divided by this before the softmax the student fits
    teacher_coef: float = 0.0  # teacher: 0 = DAgger; > 0 = PPO plus the teacher's cross-entropy at this weight
    teacher_presets: list[str] = field(default_factory=list)  # teacher: specialists teach these presets only; [] = all
    teacher_moves: list[str] = field(default_factory=list)  # teacher: label these kinds of move only (MOVE_KINDS)
    teacher_hold: bool = False  # specialists_and_start: the start agent labels every move the specialists do not
    table_teacher: str = ""  # specialists_and_start: an agent's checkpoint that labels every move at table_rules' table
    table_rules: dict[str, Any] = field(default_factory=dict)  # table_teacher: its table, preset plus these ({}: none)
    table_share: float = 0.0  # table_teacher: the share of matches played at its table
    tables: list[dict[str, Any]] = field(default_factory=list)  # more table experts: {teacher, preset, rules, share}
    house_rules: dict[str, Any] = field(default_factory=dict)  # universal: every match is preset with these options
    house_options: dict[str, Any] = field(default_factory=dict)  # universal: drawn house-rule sets have these values
    fixed_house_rules: dict[str, Any] = field(default_factory=dict)  # universal: matches against fixed_agent play these
    focus_sets: int = 0  # universal: house-rule sets init_from is scored on, then drawn by its losses (training.focus)
    focus_games: int = 40  # focus_sets: games against the rule bot that score each set (even: deal pairs)
    focus_power: float = 2.0  # focus_sets: a set's weight is its smoothed share of games lost to this power
    # --- network
    hidden: list[int] = field(default_factory=lambda: [256, 256])  # widths of the MLP trunk's hidden layers
    card_head: int = 0  # train a card head reading this many card features (15 or 18; 0 = the plain MLP alone)
    # --- experience collection
    num_games: int = 64  # matches played at once; their decisions are batched into one forward pass
    rollout_steps: int = 8192  # learner decisions collected per PPO update
    reward_scale: float = 0.0  # hand reward is (my side's score change - best other side's) / this; 0 = max hand points
    match_reward: float = 0.0  # added to a match's last hand reward: +this to a sole winner, 0 shared, -this lost
    rival_weight: float = 1.0  # hand reward = my side's change - this x the best other side's; 0 = my side's alone
    match_moon: bool = False  # the moon is called by the match odds, not the network, at every policy seat (minnesota)
    moon_model: str = "rule"  # that call under match_moon: "rule" (the rule bot's) or "network" (the shipped agent's)
    late_start: float = 0.0  # share of matches begun with each side two hands or less from the target (--start late)
    # --- opponents: probabilities of each kind for the side facing the learner in a new match
    opp_self: float = 0.3  # the current policy (both sides learn)
    opp_pool: float = 0.2  # a past snapshot of the policy, uniform over the pool
    opp_rule: float = 0.5  # the rule-based bot
    opp_random: float = 0.0  # the uniform random bot
    opp_bold: float = 0.0  # the rule bot bidding its full estimate (contests every bid)
    opp_searchbid: float = 0.0  # search's rollout bids, rule play (0.1-0.2 s a bid: slows collection a lot)
    opp_fixed: float = 0.0  # the agent fixed_agent names, never updated (an exploiter trains against it alone)
    opp_neural: float = 0.0  # the agent shipped for each match's rules: its preset's specialist, else the universal one
    fixed_agent: str = ""  # agent spec for opp_fixed and the "fixed" eval opponent: a bot name or a checkpoint path
    snapshot_every: int = 10  # updates between snapshots added to the pool
    pool_size: int = 10  # snapshots kept (oldest dropped first)
    # --- imitation warm start (part of the run: the rule bot's moves, no outside data)
    bc_hands: int = 4000  # hands of rule bot self-play to imitate before PPO; 0 = start from a random policy
    bc_chunk_hands: int = 500  # hands collected per imitation chunk (bounds memory)
    bc_epochs: int = 2  # passes over each chunk
    bc_lr: float = 1e-3  # learning rate while imitating
    # --- PPO
    lr: float = 3e-4  # Adam learning rate
    epochs: int = 4  # passes over each rollout
    minibatch: int = 1024  # decisions per gradient step
    gamma: float = 1.0  # discount within a hand (the episode); 1 = points count the same whenever taken
    gae_lambda: float = 0.95  # GAE bias-variance trade-off
    clip: float = 0.2  # PPO ratio clip
    value_coef: float = 0.5  # weight of the value loss
    entropy_coef: float = 0.01  # weight of the entropy bonus
    max_grad_norm: float = 0.5  # gradient norm clip
    # --- evaluation, logging and checkpoints
    eval_every_minutes: float = 5.0  # training minutes between evaluations against the baselines; 0 = only at the end
    eval_matches: int = 200  # duplicate-format matches per baseline per evaluation (even)
    eval_opponents: list[str] = field(default_factory=lambda: ["rule", "random"])  # baselines evaluated against
    eval_at_start: bool = False  # evaluate once before PPO too (after imitation): the curve shows where it began
    final_eval_matches: int = 400  # matches per baseline in the evaluation at the end of the run
    checkpoint_every: int = 20  # updates between checkpoints (also written at the end)

    def __post_init__(self) -> None:
        _validate(self)

    def replace(self, **changes: Any) -> TrainConfig:
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def table_experts(self) -> list[TableExpert]:
        """Every table expert of the run: ``table_teacher``'s at ``preset`` with ``table_rules``, then ``tables``'."""
        one = [TableExpert(self.table_teacher, self.preset, self.table_rules, self.table_share)]
        return (one if self.table_teacher else []) + [TableExpert(**entry) for entry in self.tables]


@dataclass(frozen=True)
class TableExpert:
    """An agent that labels every move at one table (a preset with house-rule options, or none) in a share of the
    matches: a stage teaches several presets' or tables' experts at once, each where it plays best."""

    teacher: str  # the expert's checkpoint or exported agent
    preset: str  # the table's preset
    rules: dict[str, Any] = field(default_factory=dict)  # options on top of the preset ({}: the preset itself)
    share: float = 0.0  # the share of the matches played at the table

    def table(self) -> Rules:
        from smear_env import get_rules

        return get_rules(self.preset, **self.rules)


FIELDS = {f.name: f for f in dataclasses.fields(TrainConfig)}
#: baselines a run may be evaluated against: "fixed" is the config's fixed_agent, "neural" the preset's shipped agent
EVAL_OPPONENTS = ("rule", "random", "bold", "searchbid", "search", "fixed", "neural")


def opponent_mix(c: TrainConfig) -> dict[str, float]:
    """Opponent kind -> probability weight, from the ``opp_*`` fields."""
    return {name.removeprefix("opp_"): getattr(c, name) for name in FIELDS if name.startswith("opp_")}


def _validate(c: TrainConfig) -> None:
    from smear_env import list_presets

    def need(ok: bool, name: str, what: str) -> None:
        if not ok:
            raise ValueError(f"training config: {name} = {getattr(c, name)!r}: {what}")

    for name in FIELDS:
        _coerce(name, getattr(c, name))  # the type of every field, however the config was built
    need(c.preset in list_presets(), "preset", f"expected one of {', '.join(list_presets())}")
    for name, f in FIELDS.items():
        if f.type in (float, "float"):
            need(math.isfinite(getattr(c, name)), name, "expected a finite number")
    need(c.seed >= 0, "seed", "expected zero or more")
    need(0 <= c.workers <= c.num_games, "workers", f"expected 0 to num_games ({c.num_games}) Ray worker processes")
    for name in ("total_steps", "num_games", "rollout_steps", "epochs", "minibatch", "snapshot_every", "pool_size",
                 "checkpoint_every", "bc_chunk_hands", "bc_epochs"):  # fmt: skip
        need(getattr(c, name) >= 1, name, "expected a positive integer")
    for name in ("bc_hands", "torch_threads", "time_limit_minutes", "eval_every_minutes", "reward_scale",
                 "match_reward", "rival_weight"):  # fmt: skip
        need(getattr(c, name) >= 0, name, "expected zero or more")
    for name in ("eval_matches", "final_eval_matches"):
        need(getattr(c, name) >= 2 and getattr(c, name) % 2 == 0, name, "expected an even number >= 2 (deal pairs)")
    need(0 <= c.late_start <= 1, "late_start", "expected a share from 0 to 1")
    if c.late_start > 0:
        _check_late_start(c)
    need(c.universal or not c.house_rules, "house_rules", "house rules for every match need universal = true")
    need(c.universal or not c.focus_sets, "focus_sets", "focused house-rule sets need universal = true")
    need(c.universal or not c.fixed_house_rules, "fixed_house_rules", "rules drawn per match need universal = true")
    need(c.universal or not c.house_options, "house_options", "drawn house-rule sets need universal = true")
    need(c.opp_fixed > 0 or not c.fixed_house_rules, "fixed_house_rules", "they are the rules of opp_fixed's matches: "
         "expected opp_fixed > 0")  # fmt: skip
    for name in ("teacher_coef", "teacher_presets", "teacher_moves", "teacher_hold", "table_teacher", "table_rules",
                 "table_share", "tables"):  # fmt: skip
        need(bool(c.teacher) or not getattr(c, name), name, "it shapes a teacher's labels: set teacher")
    if c.universal or c.teacher:
        _validate_universal(c)
    if c.match_moon and not c.universal:
        need(
            c.preset in MATCH_MOON_PRESETS,
            "match_moon",
            f"the match odds are fitted for {', '.join(sorted(MATCH_MOON_PRESETS))} only (expected false)",
        )
    need(c.moon_model in MOON_MODELS, "moon_model", f"expected one of {', '.join(MOON_MODELS)}")
    need(c.moon_model == "rule" or c.match_moon, "moon_model", "the call match_moon makes: expected match_moon = true")
    mix = list(opponent_mix(c).values())
    need(min(mix) >= 0 and sum(mix) > 0, "opp_self", "opponent probabilities must be >= 0 and not all 0")
    need(c.device in ("auto", "cpu", "cuda"), "device", "expected 'auto', 'cpu' or 'cuda'")
    need(bool(c.hidden) and all(isinstance(h, int) and h > 0 for h in c.hidden), "hidden", "expected positive ints")
    need(c.card_head in (0, *CARD_FEATURE_SETS), "card_head", f"expected 0 or one of {CARD_FEATURE_SETS}")
    need(0 < c.gamma <= 1 and 0 <= c.gae_lambda <= 1, "gamma", "gamma in (0, 1] and gae_lambda in [0, 1]")
    for name in ("lr", "bc_lr", "clip", "max_grad_norm"):
        need(getattr(c, name) > 0, name, "expected a positive number")
    for name in c.eval_opponents:
        need(name in EVAL_OPPONENTS, "eval_opponents", f"expected names among {', '.join(EVAL_OPPONENTS)}")
    if "neural" in c.eval_opponents:
        need(_neural_plays(c.preset), "eval_opponents", f"no agent ships for {c.preset} to be 'neural'")
    if c.preset == SCHNEIDER:
        _validate_schneider(c)
    if c.opp_fixed > 0 or "fixed" in c.eval_opponents:
        need(bool(c.fixed_agent), "fixed_agent", "opp_fixed or the 'fixed' eval opponent needs an agent to face")
    if c.fixed_agent:
        _check_fixed_agent(c)


def check_fresh_start(c: TrainConfig) -> None:
    """``ValueError`` for a new run that would imitate the rule bot over the weights it starts from.

    Checked where a run starts (and where a recipe is read), not on every config: a run begun before
    this check, with init_from and the default bc_hands, has imitated already and still resumes.
    """
    if c.init_from and c.bc_hands:
        raise ValueError(
            f"training config: bc_hands = {c.bc_hands}: a run that starts from an agent's weights (init_from) "
            "would first imitate the rule bot over them: expected 0 with init_from"
        )


TEACHERS = ("", *TEACHER_KINDS)  # what a run may learn its moves from instead of PPO ("": PPO itself)


def _validate_universal(c: TrainConfig) -> None:
    """One agent for many rule sets: Smear presets to draw from and evaluate on, a share, a known teacher."""

    def need(ok: bool, name: str, what: str) -> None:
        if not ok:
            raise ValueError(f"training config: {name} = {getattr(c, name)!r}: {what}")

    need(c.teacher in TEACHERS, "teacher", f"expected one of {', '.join(map(repr, TEACHERS))}")
    need(c.universal or not c.teacher, "teacher", "a teacher per rules' preset needs universal = true")
    if c.teacher == TAUGHT_FROM_START:
        need(bool(c.init_from), "teacher", "it teaches the house rules by the agent the run starts from: set init_from")
    need(not c.teacher_hold or c.teacher == TAUGHT_FROM_START, "teacher_hold",
         f"the start agent labels the rest: expected teacher = {TAUGHT_FROM_START!r}")  # fmt: skip
    need(c.preset in BASE_PRESETS, "preset", f"a universal run is of Smear: expected one of {', '.join(BASE_PRESETS)}")
    need(0 <= c.house_share <= 1, "house_share", "expected a share from 0 to 1")
    need(c.teacher_temperature > 0, "teacher_temperature", "expected a positive number")
    need(c.teacher_coef >= 0, "teacher_coef", "expected 0 (DAgger) or a positive weight (PPO with the teacher)")
    unknown = [m for m in c.teacher_moves if m not in MOVE_KINDS]
    need(not unknown, "teacher_moves", f"{unknown} are not kinds of move: expected names among {', '.join(MOVE_KINDS)}")
    for name in ("train_presets", "eval_presets", "teacher_presets"):
        unknown = [p for p in getattr(c, name) if p not in BASE_PRESETS]
        need(not unknown, name, f"{unknown} are not Smear presets: expected names among {', '.join(BASE_PRESETS)}")
    need(bool(c.train_presets), "train_presets", "expected at least one preset to draw from")
    need(c.late_start == 0, "late_start", "a universal run draws its rules per match: expected 0")
    need(c.focus_sets >= 0, "focus_sets", "expected zero or more house-rule sets")
    if c.focus_sets:
        need(c.focus_games >= 2 and c.focus_games % 2 == 0, "focus_games", "expected an even number >= 2 (deal pairs)")
        need(c.focus_power >= 0, "focus_power", "expected zero (every set alike) or more")
        need(bool(c.init_from), "focus_sets", "the sets are scored by the agent the run starts from: set init_from")
        need(c.house_share > 0, "focus_sets", "focused sets are drawn for house-rule matches: expected house_share > 0")
        need(not c.house_rules, "focus_sets", "every match plays house_rules already: expected 0 with house_rules")
        need(not c.house_options, "house_options", "focused sets are scored already: expected {} with focus_sets")
    if c.house_options:
        need(c.house_share > 0 and not c.house_rules, "house_options",
             "they choose the drawn house-rule sets: expected house_share > 0 and no house_rules")  # fmt: skip
        unknown = sorted(set(c.house_options) - {f.name for f in dataclasses.fields(Rules)})
        need(not unknown, "house_options", f"{unknown} are not rule options (smear_env.rules.Rules)")
        try:
            RulesDraw(c.train_presets, c.house_share, only=c.house_options)
        except ValueError as err:
            need(False, "house_options", str(err))
    one_table = bool(c.table_teacher or c.table_rules or c.table_share)  # an agent, its training table, a share
    if one_table or c.tables:
        need(c.teacher == TAUGHT_FROM_START, "teacher", f"a table expert teaches beside the start agent: expected "
             f"{TAUGHT_FROM_START!r} with table_teacher or tables")  # fmt: skip
    if one_table:
        need(bool(c.table_teacher), "table_teacher", "table_rules and table_share need an agent to teach at the table")
        need(0 < c.table_share <= 1, "table_share", "expected a share of the matches above 0, at most 1")
        need(not c.house_rules, "table_rules", "every match plays house_rules already: expected no table_teacher")
    if c.tables:
        _check_tables(c, need)
    need(not (c.house_rules and c.fixed_house_rules), "fixed_house_rules",
         "every match plays house_rules already: expected {} with house_rules")  # fmt: skip
    for name in ("house_rules", "fixed_house_rules", "table_rules"):
        if getattr(c, name):
            from smear_env import get_rules

            try:
                rules = get_rules(c.preset, **getattr(c, name))
            except (ValueError, TypeError) as err:
                need(False, name, f"not rule options {c.preset} can play: {err}")
            need(rules != get_rules(c.preset), name, f"{c.preset} plays these already: expected a change to its rules")
            need(name == "house_rules" or not is_held_out(rules), name,
                 "a held-out house-rule set (smear_env.house_rules), which training never plays")  # fmt: skip


def _check_tables(c: TrainConfig, need: Callable[[bool, str, str], None]) -> None:
    """Each of ``tables`` names an agent, a Smear table training plays and a share; the shares leave room for the
    other matches and no table is taught twice."""
    from smear_env import get_rules

    need(not c.house_rules, "tables", "every match plays house_rules already: expected no tables")
    keys = {f.name for f in dataclasses.fields(TableExpert)}
    for entry in c.tables:
        form = "{teacher = FILE, preset = NAME, rules = {...}, share = S}"
        need(isinstance(entry, dict) and set(entry) <= keys and {"teacher", "preset", "share"} <= set(entry),
             "tables", f"each is {form}: not {entry!r}")  # fmt: skip
        need(isinstance(entry["teacher"], str) and bool(entry["teacher"]), "tables", f"{entry!r}: expected a teacher")
        need(entry["preset"] in BASE_PRESETS, "tables", f"{entry!r}: expected a preset among {', '.join(BASE_PRESETS)}")
        share = entry["share"]
        need(isinstance(share, int | float) and 0 < share <= 1, "tables", f"{entry!r}: expected a share in (0, 1]")
        rules = entry.get("rules", {})
        need(isinstance(rules, dict), "tables", f"{entry!r}: expected rules as options by name")
        try:
            table = get_rules(entry["preset"], **rules)
        except (ValueError, TypeError) as err:
            need(False, "tables", f"{entry!r}: not rule options {entry['preset']} can play: {err}")
        need(not is_held_out(table), "tables", f"{entry!r}: a held-out house-rule set, which training never plays")
    experts = c.table_experts()
    tables = [expert.table() for expert in experts]
    need(len(set(tables)) == len(tables), "tables", "two experts teach the same table: expected one each")
    need(sum(expert.share for expert in experts) <= 1, "tables", "the tables' shares add up past 1")


def _check_late_start(c: TrainConfig) -> None:
    """A late start needs a target score to be near: not a game of fixed length, not Bohemian Schneider."""
    from smear_env import get_rules

    if c.preset == SCHNEIDER or get_rules(c.preset).match_end != "target":
        raise ValueError(
            f"training config: late_start = {c.late_start!r}: {c.preset}'s matches are not played to a target "
            "score, so none can start near it (expected 0)"
        )


def _validate_schneider(c: TrainConfig) -> None:
    """Bohemian Schneider has no bidding, so no bidding bots to train or be evaluated against."""
    from agents.registry import agent_names
    from training.schneider_selfplay import SCHNEIDER_OPPONENT_KINDS

    evaluable = [name for name in EVAL_OPPONENTS if name == "fixed" or name in agent_names(SCHNEIDER)]
    if c.card_head:
        raise ValueError(
            f"training config: card_head = {c.card_head!r}: the card features read Smear's observation; "
            f"{SCHNEIDER} has none (expected 0)"
        )
    if c.rival_weight != 1.0:
        raise ValueError(
            f"training config: rival_weight = {c.rival_weight!r}: {SCHNEIDER}'s round reward is its two players' "
            "difference, with no weight to set (expected 1.0)"
        )

    for kind, weight in opponent_mix(c).items():
        if weight > 0 and kind not in SCHNEIDER_OPPONENT_KINDS:
            raise ValueError(
                f"training config: opp_{kind} = {weight!r}: {SCHNEIDER} has no {kind!r} opponent "
                f"(expected opponents among {', '.join(SCHNEIDER_OPPONENT_KINDS)})"
            )
    for name in c.eval_opponents:
        if name not in evaluable:
            raise ValueError(
                f"training config: eval_opponents = {c.eval_opponents!r}: {SCHNEIDER} has no {name!r} bot "
                f"(expected names among {', '.join(evaluable)})"
            )


def _neural_plays(preset: str) -> bool:
    """Whether a shipped agent plays ``preset`` as ``neural``: asked of the lookup ``make_agent("neural")`` uses."""
    from agents.shipped import neural_policy_path
    from smear_env.signature import rules_for_preset

    try:
        neural_policy_path(rules_for_preset(preset))
    except ValueError:
        return False
    return True


def _check_fixed_agent(c: TrainConfig) -> None:
    """Build ``fixed_agent`` once, so a missing checkpoint or one for other rules fails before any training."""
    from agents.registry import make_agent

    try:
        make_agent(c.fixed_agent, c.preset, 0)
    except ValueError as err:
        raise ValueError(f"training config: fixed_agent = {c.fixed_agent!r}: {err}") from None


def _coerce(name: str, value: Any) -> Any:
    """``value`` as the type of field ``name`` (ints accepted for floats); a clear error otherwise."""
    f = FIELDS[name]
    default = f.default_factory() if f.default is dataclasses.MISSING else f.default  # type: ignore[misc]
    if isinstance(default, bool) or isinstance(value, bool):
        ok = isinstance(value, bool) and isinstance(default, bool)
    elif isinstance(default, float):
        ok = isinstance(value, int | float)
        value = float(value) if ok else value
    else:
        ok = isinstance(value, type(default))
    if isinstance(default, list) and ok:
        element = type(default[0]) if default else dict if str(f.type).startswith("list[dict") else str
        if not all(isinstance(v, element) for v in value):
            raise ValueError(f"training config: {name} = {value!r}: expected a list of {element.__name__}")
    if not ok:
        raise ValueError(f"training config: {name} = {value!r}: expected a {type(default).__name__} like {default!r}")
    return value


def config_from_dict(data: dict[str, Any], base: TrainConfig | None = None) -> TrainConfig:
    """``base`` (default: the defaults) with the fields in ``data`` replaced, checked by name and type."""
    if not isinstance(data, dict):
        raise ValueError(f"training config {data!r} is not a dict: expected fields by name, e.g. {{'preset': ...}}")
    _check_field_names(data)
    return (base or TrainConfig()).replace(**{k: _coerce(k, v) for k, v in data.items()})


def _check_field_names(data: dict[Any, Any]) -> None:
    for name in data:
        if name not in FIELDS:
            close = difflib.get_close_matches(name, FIELDS, n=1) if isinstance(name, str) else []
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise ValueError(f"training config: unknown field {name!r}{hint}")


_PACKAGED_CONFIGS = Path(__file__).parent / "_configs"  # configs/train, copied into the wheel
_REPO_CONFIGS = Path(__file__).resolve().parent.parent / "configs" / "train"


def configs_dir() -> Path:
    """Folder of the shipped training configs (the packaged copy, else the repository's configs/train)."""
    return _PACKAGED_CONFIGS if _PACKAGED_CONFIGS.is_dir() else _REPO_CONFIGS


def list_configs() -> list[str]:
    """Names of the shipped training configs (``ten_point``, ``minnesota``, ...)."""
    return sorted(p.stem for p in configs_dir().glob("*.toml"))


def resolve_config(path: str | Path) -> Path:
    """A config file's path: an existing file as given, else a shipped config's name (``ten_point``)."""
    given = Path(path)
    if given.is_file() or given.suffix or len(given.parts) > 1:
        return given
    return configs_dir() / f"{given}.toml"


def load_config(path: str | Path, overrides: list[str] | None = None) -> TrainConfig:
    """A config file (or a shipped config's name) plus ``name=value`` overrides (TOML values; bare words strings)."""
    if not isinstance(path, str | PathLike):
        raise ValueError(f"training config {path!r} is not a path: expected a TOML file's path or a shipped config")
    given, path = path, resolve_config(path)
    if path.is_dir():
        raise ValueError(f"training config {str(path)!r} is a folder: expected a TOML file (configs/train/*.toml)")
    try:
        with path.open("rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError:
        shipped = ", ".join(list_configs())
        raise ValueError(
            f"training config {str(given)!r} is neither a file nor a shipped config: expected a TOML file "
            f"or one of {shipped}"
        ) from None
    except OSError as err:
        raise ValueError(f"training config file {str(path)!r} cannot be read: {err.strerror}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
        raise ValueError(f"training config file {str(path)!r} is not valid TOML: {err}") from None
    from smear_env import list_presets

    given_fields = {**data, **parse_overrides([] if overrides is None else overrides)}
    config = config_from_dict(given_fields)
    if "preset" not in given_fields:  # the default would train ten_point, which a file that forgot it never meant
        raise ValueError(
            f'training config file {str(path)!r} names no preset: expected preset = "<name>" in it, or '
            f"--set preset=<name> (one of {', '.join(list_presets())})"
        )
    return config


def parse_overrides(items: list[str]) -> dict[str, Any]:
    """``["lr=1e-4", "preset=minnesota"]`` -> typed values."""
    if not isinstance(items, list | tuple) or not all(isinstance(item, str) for item in items):
        raise ValueError(f"overrides {items!r} are not a list of name=value texts, e.g. ['lr=1e-4']")
    out: dict[str, Any] = {}
    for item in items:
        name, sep, text = item.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"override {item!r}: expected name=value, e.g. lr=1e-4")
        try:
            out[name.strip()] = tomllib.loads(f"v = {text}")["v"]
        except tomllib.TOMLDecodeError:
            out[name.strip()] = text
    return out
