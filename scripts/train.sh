#!/usr/bin/env bash
# The main job: set up .venv (the train and eval extras), then train a ten_point agent from nothing and say what it
# made and how it plays (configs/train/ten_point_quick.toml: about 7 minutes on a free machine, after the
# first set-up's few minutes). It writes runs/quick/, replacing the folder of an earlier main job.
# Extra arguments go to smear-rl train (e.g. --set total_steps=3000000, or --config ten_point for the full run).
set -euo pipefail
cd "$(dirname "$0")/.."
SMEAR_EXTRAS=${SMEAR_EXTRAS:-train,eval} bash scripts/setup.sh
if [ -d runs/quick ]; then
  echo "[train.sh] replacing runs/quick, the last main job's run"
  rm -rf runs/quick
fi
.venv/bin/smear-rl train --config ten_point_quick --out runs/quick "$@"
