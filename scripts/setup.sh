#!/usr/bin/env bash
# Create .venv and install the project with its dev and training extras (idempotent; torch pinned to the CPU wheel).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -c constraints.txt -e ".[dev,train]"
