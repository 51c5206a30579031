"""Which smear-rl this is: the package version, and the code version that results and checkpoints record.

An installed package records its version (``0.1.0``): a wheel knows nothing of the
repository it was built from, and whatever git repository surrounds the place it is
installed in says nothing about it. Run from a source checkout of smear-rl (an
editable install, or the repository on ``sys.path``), it adds the commit, and
``.changes`` when tracked files were edited (``0.1.0+g19de050abc12.changes``), so results
pooled over several runs (:mod:`training.pool`) can tell apart bots that changed under
the same version number.

A run that stops and resumes (an evaluation's journal, a scale's kept pairs) must not mix
games of two different codes, yet need not refuse a commit that touched no code (a page of
docs, a results file): :func:`code_digest` names the code itself, whatever the commit.
"""

from __future__ import annotations

import functools
import hashlib
import subprocess
from importlib import metadata
from pathlib import Path

DISTRIBUTION = "smear-rl"
SOURCE_ROOT = Path(__file__).resolve().parent.parent  # the repository, when run from a checkout
PACKAGES = ("smear_env", "agents", "training", "smear_rl")  # the code that plays and trains (pyproject's packages)


def package_version() -> str:
    """The installed distribution's version; ``0+unknown`` when smear-rl is not installed (bare source tree)."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "0+unknown"


@functools.cache
def code_version() -> str:
    """``package_version()``, plus ``+g<commit>`` (and ``.changes``) when running from a smear-rl git checkout.

    Worked out once per process: a process runs the code it imported, so a run that
    outlives a commit must record the checkout as it was when it started, not as it is
    when it ends. The harness and the trainer ask when they start.
    """
    version = package_version()
    commit = _checkout_commit(SOURCE_ROOT)
    return f"{version}+{commit}" if commit else version


def _checkout_commit(root: Path) -> str | None:
    """``g<commit>[.changes]`` when ``root`` is the top of a git checkout of smear-rl, else None."""
    pyproject = root / "pyproject.toml"
    ours = pyproject.is_file() and f'name = "{DISTRIBUTION}"' in pyproject.read_text()
    if not ours or not (root / ".git").exists():
        return None

    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, timeout=10, check=True)
        return done.stdout.strip()

    try:
        commit = git("rev-parse", "--short=12", "HEAD")
        edited = git("status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.SubprocessError):
        return None
    return f"g{commit}" + (".changes" if edited else "")


#: what decides play besides the Python sources: rule presets (configs/rules in a checkout, smear_env/_presets when
#: installed) and data files read by bots (agents/schneider_eval.json); a network's weights are recorded apart
SOURCE_SUFFIXES = (".py", ".toml", ".json")
PRESETS_IN_CHECKOUT = Path("configs") / "rules"


@functools.cache
def code_digest() -> str:
    """A digest of smear-rl's code and play data as this process found them when it first asked.

    Equal for two checkouts (or installs) whose code and presets are the same, whatever their
    commits: a docs-only commit leaves it, a changed preset moves it. A network's weights are
    not in it; their own digests are recorded beside it (``training.evaluate.run.weights_of``).
    Asked once per process, like ``code_version``.
    """
    return sources_digest(SOURCE_ROOT)


def sources_digest(root: Path) -> str:
    """A digest of the packages' ``.py``, ``.toml`` and ``.json`` files under ``root`` and of the checkout's rule
    presets: their paths and their bytes."""
    files = [p for package in PACKAGES for p in (root / package).rglob("*") if p.suffix in SOURCE_SUFFIXES]
    files += list((root / PRESETS_IN_CHECKOUT).glob("*.toml"))
    digest = hashlib.sha256()
    for path in sorted(p for p in files if p.is_file()):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]
