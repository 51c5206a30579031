"""What a page shows besides the engine's view: the hand grouped, the categories scored.

A web table renders states and must not re-derive rules in JavaScript: the Jick and
the jokers join the trump suit in trick order, and which scoring categories exist (and
what each is worth) depends on a dozen options. The table state carries these, computed
here by the engine's own code (:mod:`smear_rl.play.hand`, :mod:`smear_rl.play.breakdown`,
shared with the terminal), so the browser only draws them. (The teams' seats, which
the page needs too, are the table's own ``teams``: :attr:`smear_rl.server.tables.Table.teams`.)
"""

from __future__ import annotations

from typing import Any

from smear_env.schneider.game import SchneiderRules
from smear_rl.play.breakdown import categories_in_play
from smear_rl.play.hand import hand_groups


def grouped_hand(rules: Any, view: dict[str, Any]) -> list[dict[str, Any]]:
    """The view's hand by effective suit, trumps first and in trick order: ``[{suit, trump, cards}]``."""
    if "hand" not in view:  # a spectator's view
        return []
    smear_rules = None if isinstance(rules, SchneiderRules) else rules
    groups = hand_groups(view["hand"], smear_rules, view.get("trump"))
    return [{"suit": group.suit, "trump": group.trump, "cards": list(group.cards)} for group in groups]


def categories(rules: Any) -> list[dict[str, Any]]:
    """The categories a hand awards under these rules, as players name them, with their worth (Schneider: none)."""
    if isinstance(rules, SchneiderRules):
        return []
    return [{"key": key, "label": label, "points": points} for key, label, points in categories_in_play(rules)]


def display_fields(rules: Any, view: dict[str, Any]) -> dict[str, Any]:
    """The table state's display fields for a seat with this view: ``hand_groups`` and ``categories``."""
    return {"hand_groups": grouped_hand(rules, view), "categories": categories(rules)}
