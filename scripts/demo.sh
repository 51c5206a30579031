#!/usr/bin/env bash
# Set everything up, then run the main job: a demo match among random players, printed as text.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/smear-rl demo "$@"
