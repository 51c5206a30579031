#!/usr/bin/env bash
# Create .venv and install the project into it, editable, with its extras (idempotent; torch pinned to the CPU wheel
# by constraints.txt). Nothing outside .venv changes unless asked (below). Each step says what it does first.
#
# SMEAR_EXTRAS picks the extras (default: dev, train, eval, serve and docs: everything to develop, test and build the
# docs, without the RL libraries, which scripts/test.sh adds). scripts/train.sh asks for train and eval only.
#
# System packages: the web table's browser tests drive Debian's Chromium (/usr/bin/chromium) through playwright
# (never `playwright install`: nothing downloads a browser). With SMEAR_SYSTEM_PACKAGES=1, and as root on a machine
# with apt-get, this installs it with apt-get when it is missing, saying so first; scripts/test.sh (CI) asks for
# that unless SMEAR_SYSTEM_PACKAGES=0. Otherwise nothing is installed outside .venv, and those tests skip.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
EXTRAS=${SMEAR_EXTRAS:-dev,train,eval,serve,docs}
say() { echo "[setup.sh] $*"; }
if [ ! -x .venv/bin/python ]; then
  say "creating .venv with $("$PYTHON" --version 2>&1)"
  "$PYTHON" -m venv .venv
fi
say "installing smear-rl into .venv with the extras $EXTRAS (torch as the CPU wheel; the first time takes a few minutes)"
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -c constraints.txt -e ".[$EXTRAS]"
if [ -x /usr/bin/chromium ] || [[ ",$EXTRAS," != *",dev,"* ]]; then
  exit 0  # the browser is there, or no tests will look for it
fi
if [ "${SMEAR_SYSTEM_PACKAGES:-0}" = 1 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  say "installing the system package chromium with apt-get (as root), for the web table's browser tests;"
  say "SMEAR_SYSTEM_PACKAGES=0 skips this, and those tests then skip"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
else
  say "no /usr/bin/chromium: the web table's browser tests will skip (install Debian's chromium, or run"
  say "SMEAR_SYSTEM_PACKAGES=1 bash scripts/setup.sh as root to let this script install it with apt-get)"
fi
