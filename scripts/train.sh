#!/usr/bin/env bash
# Set everything up, then run the main job: a short ten_point training run that ends with an evaluation table.
# Extra arguments go to smear-rl train (e.g. --set time_limit_minutes=10, or --config configs/train/ten_point.toml).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/smear-rl train --config ten_point_quick --out runs/quick "$@"
