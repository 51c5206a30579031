#!/usr/bin/env bash
# What CI runs (.ci/run), about 10 minutes on a 2-core machine with the packages cached: set everything up (the docs
# and RL-library extras included, and Chromium for the web table's browser tests: see scripts/setup.sh), then lint,
# build the docs site with warnings as errors, build and smoke-test the wheel outside the checkout, and run the test
# suite (last, so its summary closes the output). Prints how long each step took. SMEAR_REQUIRE_EXTRAS=1 makes tests
# that would skip for a missing extra or browser fail instead. SMEAR_SYSTEM_PACKAGES=0 keeps setup.sh from
# installing Chromium with apt-get (as root); the browser tests then fail, as a missing extra would.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { local start=$SECONDS; "$@"; echo "[test.sh] $* : $((SECONDS - start)) s"; }
step env SMEAR_EXTRAS=dev,train,eval,serve,docs,sb3,rllib,torchrl SMEAR_SYSTEM_PACKAGES="${SMEAR_SYSTEM_PACKAGES:-1}" \
  bash scripts/setup.sh
step .venv/bin/ruff check .
step .venv/bin/ruff format --check .
site=$(mktemp -d)
trap 'rm -rf "$site"' EXIT
step env NO_MKDOCS_2_WARNING=1 .venv/bin/mkdocs build --strict --quiet --site-dir "$site"
step bash scripts/wheel_smoke.sh
echo "[test.sh] the test suite: about 7 minutes on 2 cores; [done/total] at each line's end, a dot per test passed"
# last and unwrapped: its own summary line (with its time) closes the output
SMEAR_REQUIRE_EXTRAS=1 .venv/bin/python -m pytest tests -o console_output_style=count
