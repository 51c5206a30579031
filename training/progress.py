"""The progress bar of a training run: how much of the run is done, by whichever limit it will stop at.

A run stops at ``total_steps`` decisions or after ``time_limit_minutes`` of training, whichever
comes first, and which one that is depends on the machine. A bar counting decisions alone stops
short of its end when the time runs out first (at 23%, say, with minutes "left"), so this bar
shows the larger of the two shares and says beside it both counts and their limits: what it
stops at is always what fills it. Imitating the rule bot counts as training time, so it moves
the bar by the clock, and says so.
"""

from __future__ import annotations

from tqdm import tqdm

#: the bar's resolution: thousandths of the run
STEPS = 1000


class _Bar(tqdm):
    """tqdm with one more field for its format, ``where``: the counts (tqdm's own postfix starts with a comma)."""

    where = ""

    @property
    def format_dict(self) -> dict:
        return {**super().format_dict, "where": self.where}


class RunProgress:
    """A tqdm bar over the share of the run done; ``show`` moves it to where the run stands."""

    def __init__(self, total_steps: int, time_limit_minutes: float, enabled: bool = True) -> None:
        self.total_steps, self.limit_seconds = total_steps, 60 * time_limit_minutes
        self.bar = _Bar(total=STEPS, desc="starting", disable=not enabled, dynamic_ncols=True,
                        bar_format="{desc} {percentage:3.0f}%|{bar}| {where} [{elapsed} so far]")  # fmt: skip

    def share(self, step: int, seconds: float) -> float:
        """The share of the run done: of its decisions, or of its training time where that is further along."""
        done = step / self.total_steps
        if self.limit_seconds:
            done = max(done, seconds / self.limit_seconds)
        return min(done, 1.0)

    def counts(self, step: int, seconds: float) -> str:
        """``412,660/1,200,000 decisions, 5.3/20 min``: where the run stands against each of its limits."""
        text = f"{step:,}/{self.total_steps:,} decisions"
        minutes = f"{seconds / 60:.1f}"
        return f"{text}, {minutes}/{self.limit_seconds / 60:g} min" if self.limit_seconds else f"{text}, {minutes} min"

    def show(self, phase: str, step: int, seconds: float, figures: dict[str, str] | None = None) -> None:
        """Move the bar to ``step`` decisions and ``seconds`` of training, in ``phase``, with ``figures`` after."""
        self.bar.n = round(STEPS * self.share(step, seconds))
        self.bar.set_description_str(phase, refresh=False)
        extra = "".join(f", {name} {value}" for name, value in (figures or {}).items())
        self.bar.where = self.counts(step, seconds) + extra
        self.bar.refresh()

    def close(self) -> None:
        self.bar.close()
