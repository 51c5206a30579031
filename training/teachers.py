"""Teachers a rules-conditioned student learns its moves from: the specialist of each rules' preset.

Why: each specialist (shipped, or retired once the universal agent beat it: ``agents.shipped``)
was the strongest player of its preset that this project had when the recipe began, made by hours
of hand-tuned stages. A student that plays every rule set starts far
sooner from their moves than from the rule bot's: it plays (DAgger: the positions are
its own, so it learns to recover from its own mistakes) and each of its moves is fitted
to the specialist's policy there. On a house-rule set the teacher is its base preset's
specialist (``rules.name``), played on the real rules: its inputs are the real game's
vector, and its card features are read under the real rules, so it sees what the table
plays, though it was never trained on it. What it gets wrong there is PPO's to fix later.

``specialists_and_start`` is for a later stage, once PPO has fixed it: the specialist still
teaches its own preset's exact rules, but on every other rule set the teacher is the agent
the stage starts from, frozen. The student moves toward the specialists where they are the
stronger players and is held to what it had learned on the house rules, where its base
preset's specialist would pull it back to play that PPO had already corrected.

A teacher may label only some moves (``moves``: the bids, say), and the specialists only some
presets' exact rules (``presets``: where they still play better; elsewhere the start agent, if the
teacher has one, or nobody), and the run may keep PPO and add the teacher's cross-entropy as a
second loss (kickstarting, ``teacher_coef``): the student's bids then move toward the specialists'
where they bid better, are held to its own start's elsewhere, and PPO keeps what it taught the
rest. A row the teacher does not label holds NaN logits (:data:`NO_LABEL`).

``hold``: the start agent labels every move the specialists do not, their presets' other kinds of
move included, so a kickstarted stage changes what the specialists teach and is held to its start
everywhere else. Every stage after the shipped one that left the card play to PPO lost the lead it
had over the specialists of ``six_point`` and ``four_point`` (research log, 2026-12-06), and one
whose every move was held kept it.

``tables``: tables (training house-rule sets or presets), each with an agent that labels every move
there: a table expert, such as a 30-minute exploiter of the start agent trained at that table, which
can play it far better than the start (research log, 2026-12-07), or a preset's agent trained from
the start against that preset's specialist. Elsewhere the teacher is as above.

A move's kind is its block of the action space, but for one: where the bidder's first lead sets
trump (``trump_by = "first_lead"``: ``pitch_smudge``, ``four_point``, ``six_point``) that lead is a
``trump`` move, the choice the other presets make in their trump phase. Counted as card play, a
teacher of the bids and trumps would leave those presets' trump choice untaught.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from agents.neural_agent import Policy, load_policy
from agents.shipped import specialist_policy_path, specialist_presets
from smear_env import actions as A
from smear_env.cards import NUM_CARDS
from smear_env.observation import block_slices, observation_size
from smear_env.rules import Rules

#: the teacher that needs the agent a run starts from (``init_from``): it teaches every rule set but the presets'
TAUGHT_FROM_START = "specialists_and_start"
#: teacher names a training config may give (``teacher``), and what each one is
TEACHER_KINDS = {
    "specialists": "the specialist of each rules' preset (agents.shipped.specialist_policy_path)",
    TAUGHT_FROM_START: "each preset's specialist on its preset's own rules, elsewhere the agent started from",
}
START = "start"  # what SpecialistTeacher.who names the start agent
TABLE = "table"  # what SpecialistTeacher.who names the table expert
NOBODY = "nobody"  # what SpecialistTeacher.who names the teacher of rules it does not label
NO_LABEL = np.nan  # the logits of a row the teacher does not label
#: the kinds of move a teacher may be limited to, each the first action id of its block of the action space
MOVE_KINDS = {"bid": A.PASS, "trump": A.TRUMP_BASE, "call": A.CALL_BASE, "discard": A.DISCARD_BASE,
              "play": A.PLAY_BASE}  # fmt: skip


def move_kinds(masks: np.ndarray, rules: Rules | None = None, obs: np.ndarray | None = None) -> list[str]:
    """The kind of each decision ``[B, A]`` (its legal moves lie in one block of the action space); with the
    ``rules`` and observation vectors ``obs`` ``[B, ...]``, a lead that sets trump is a ``trump`` move."""
    starts = np.array(list(MOVE_KINDS.values()))
    first = masks.argmax(1)
    names = list(MOVE_KINDS)
    kinds = [names[k] for k in np.searchsorted(starts, first, side="right") - 1]
    if rules is None or obs is None or rules.trump_by != "first_lead":
        return kinds
    no_trump = ~obs[:, block_slices(rules.num_players)["trump"]].any(1)  # no trump yet: this card sets it
    return ["trump" if kind == "play" and unset else kind for kind, unset in zip(kinds, no_trump)]


def labelled(targets: np.ndarray) -> np.ndarray:
    """Which rows ``[B, A]`` of a teacher's logits hold a label (the others are :data:`NO_LABEL`)."""
    return ~np.isnan(targets).any(1)


class SpecialistTeacher:
    """Logits of the specialist of each rules' preset, from the student's own inputs (see the module docstring).

    ``card_features``: the features per card appended to the student's inputs (0: none; the
    teachers' card heads then read them off the vector themselves, under the real rules).
    """

    def __init__(
        self, card_features: int = 0, start: Policy | None = None, presets: tuple[str, ...] = (),
        moves: tuple[str, ...] = (), hold: bool = False, tables: Mapping[Rules, Policy] | None = None,
    ) -> None:  # fmt: skip
        if hold and start is None:
            raise ValueError("hold: the start agent labels the moves the specialists do not: expected a start agent")
        self.card_features = card_features
        self.start = start  # teaches every rule set that is not exactly a specialist's preset (specialists_and_start)
        self.hold = hold  # the start also labels every move the specialists do not, of every kind
        self.presets = frozenset(presets)  # label only these presets' exact rules; empty: every rule set
        self.moves = frozenset(moves or MOVE_KINDS)  # label only these kinds of move
        self.tables = dict(tables or {})  # each table's expert, who labels every move there
        self.policies: dict[str, Policy] = {}
        for preset in specialist_presets():  # retired specialists teach too
            policy = load_policy(specialist_policy_path(preset))
            if policy.layout.get("game", "smear") == "smear":
                self.policies[preset] = policy
        self._exact: dict[Rules, bool] = {}

    def who(self, rules: Rules) -> str:
        """Which agent teaches ``rules``: its preset's name, :data:`START` or :data:`NOBODY`. Rows with one teacher
        share a batch."""
        if rules in self.tables:
            return TABLE
        if self.start is None and not self.presets:
            return rules.name
        if rules not in self._exact:
            specialist = self.policies.get(rules.name)
            self._exact[rules] = specialist is not None and not specialist.differences(rules)
        if self._exact[rules] and (not self.presets or rules.name in self.presets):
            return rules.name
        return START if self.start is not None else NOBODY

    def __call__(self, rules: Rules, inputs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Masked logits ``[B, A]`` of the teacher of ``rules`` for the student inputs ``[B, I]`` of one rule set;
        :data:`NO_LABEL` in the rows of moves or rules it does not teach."""
        name = self.who(rules)
        out = np.full(masks.shape, NO_LABEL, dtype=np.float32)
        kinds = move_kinds(masks, rules, inputs[:, : observation_size(rules.num_players)])
        taught = [(kind in self.moves or name == TABLE) and name != NOBODY for kind in kinds]
        rows = [k for k, label in enumerate(taught) if label]
        if rows:
            out[rows] = self._logits(name, rules, inputs[rows], masks[rows])
        held = [k for k, label in enumerate(taught) if not label] if self.hold else []
        if held:
            out[held] = self._logits(START, rules, inputs[held], masks[held])
        return out

    def _logits(self, name: str, rules: Rules, inputs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        if name == TABLE:
            policy: Policy | None = self.tables[rules]
        else:
            policy = self.start if name == START else self.policies.get(name)
        if policy is None:
            raise ValueError(
                f"no specialist teaches {rules.name!r} rules: the presets with one are {', '.join(self.policies)}"
            )
        size = observation_size(rules.num_players)
        obs = inputs[:, :size]
        features = None
        if self.card_features and self.card_features >= card_head_reads(policy):  # a head reads the first 15 of 18
            features = inputs[:, size:].reshape(len(inputs), NUM_CARDS, self.card_features)
        return policy.logits(obs, masks, features, rules=rules)  # else a card head reads them under the real rules


def card_head_reads(policy: Policy) -> int:
    """How many features a card the policy's card head reads (0 without one)."""
    return len(policy.card_head[0][0]) if policy.card_head else 0


def make_teacher(
    kind: str, card_features: int, start: Policy | None = None, presets: tuple[str, ...] = (),
    moves: tuple[str, ...] = (), hold: bool = False, tables: Mapping[Rules, Policy] | None = None,
) -> SpecialistTeacher:  # fmt: skip
    """The teacher a config names (:data:`TEACHER_KINDS`); ``start``: the agent a run starts from, frozen;
    ``presets`` and ``moves``: the rules and kinds of move it labels; ``hold``: the start labels the rest (see the
    module docstring); ``tables``: tables' rules and the expert that labels every move at each."""
    if kind not in TEACHER_KINDS:
        raise ValueError(f"teacher {kind!r} is unknown: expected one of {', '.join(TEACHER_KINDS)}")
    if kind == TAUGHT_FROM_START and start is None:
        raise ValueError(f"teacher {kind!r} teaches house rules by the agent the run starts from: set init_from")
    unknown = sorted(set(moves) - set(MOVE_KINDS))
    if unknown:
        raise ValueError(f"moves {unknown} are not kinds of move: expected names among {', '.join(MOVE_KINDS)}")
    if hold and kind != TAUGHT_FROM_START:
        raise ValueError(f"hold: the start agent labels the rest, and only {TAUGHT_FROM_START!r} has one")
    if tables and kind != TAUGHT_FROM_START:
        raise ValueError(f"tables: their experts teach beside the start agent, and only {TAUGHT_FROM_START!r} has one")
    return SpecialistTeacher(card_features, start if kind == TAUGHT_FROM_START else None, presets, moves, hold, tables)
