#!/usr/bin/env bash
# Set everything up (docs and RL-library extras included), then: lint, build the docs site with warnings as
# errors, build and smoke-test the wheel outside the checkout, and run the test suite (last, so its summary
# closes the output). Prints how long each step took. SMEAR_REQUIRE_EXTRAS=1 makes tests that would skip for a
# missing extra fail instead: the web table's browser tests (tests/test_web_browser.py) need playwright and
# /usr/bin/chromium, which scripts/setup.sh installs as root.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { local start=$SECONDS; "$@"; echo "[test.sh] $* : $((SECONDS - start)) s"; }
step env SMEAR_EXTRAS=dev,train,eval,serve,docs,sb3,rllib,torchrl bash scripts/setup.sh
step .venv/bin/ruff check .
step .venv/bin/ruff format --check .
site=$(mktemp -d)
trap 'rm -rf "$site"' EXIT
step env NO_MKDOCS_2_WARNING=1 .venv/bin/mkdocs build --strict --quiet --site-dir "$site"
step bash scripts/wheel_smoke.sh
SMEAR_REQUIRE_EXTRAS=1 .venv/bin/python -m pytest tests  # last and unwrapped: its own summary line (with its time) closes the output
