#!/usr/bin/env bash
# Create .venv and install the project editable with its extras (idempotent; torch pinned to the CPU wheel).
# SMEAR_EXTRAS picks the extras (default: dev, train, eval, serve); scripts/test.sh adds docs and the RL libraries.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
EXTRAS=${SMEAR_EXTRAS:-dev,train,eval,serve}
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -c constraints.txt -e ".[$EXTRAS]"
