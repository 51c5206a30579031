#!/usr/bin/env bash
# Create .venv and install the project editable with its extras (idempotent; torch pinned to the CPU wheel).
# SMEAR_EXTRAS picks the extras (default: dev, train, eval, serve); scripts/test.sh adds docs and the RL libraries.
# As root, it also installs Debian's Chromium when /usr/bin/chromium is missing: the web table's browser tests drive
# it through playwright (never `playwright install`: nothing downloads a browser). Not root: skipped quietly.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
EXTRAS=${SMEAR_EXTRAS:-dev,train,eval,serve}
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -c constraints.txt -e ".[$EXTRAS]"
if [ ! -x /usr/bin/chromium ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
