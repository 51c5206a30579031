#!/usr/bin/env bash
# The benchmark's baselines on one task: each library trains for the same wall-clock budget, one run at a time,
# saving snapshots; then every run's curve against rule and its rating by the task's panel (docs/benchmark/baselines.md).
#   bash examples/benchmark_baselines.sh kitty_moon minnesota 15 runs/baselines
# Arguments: the task, its preset, the minutes each run trains, the folder of the runs. Needs the sb3, rllib and
# torchrl extras. OMP_NUM_THREADS=1 keeps every library to one torch thread a process, as the project's own runs.
set -euo pipefail
task=$1 preset=$2 minutes=$3 out=$4
snap=$(python3 -c "print($minutes / 10)")  # ten snapshots a run
export OMP_NUM_THREADS=1 MKL_NUM_THREADS=1
py=.venv/bin/python
$py examples/sb3_maskable_ppo.py --preset "$preset" --opponents rule --minutes "$minutes" --eval-hands 0 \
    --out "$out/sb3_$task" --snapshot-minutes "$snap"
for runners in 1 2; do
  $py examples/rllib_selfplay.py --preset "$preset" --env-runners "$runners" --iterations 1000000 \
      --minutes "$minutes" --out "$out/rllib${runners}_$task" --snapshot-minutes "$snap"
done
$py examples/torchrl_ppo.py --preset "$preset" --opponents rule --minutes "$minutes" \
    --out "$out/torchrl_$task" --snapshot-minutes "$snap"
.venv/bin/smear-rl train --config "$preset" --out "$out/own_$task" --no-progress --set time_limit_minutes="$minutes" \
    --set torch_threads=1 --set eval_every_minutes="$snap" --set 'eval_opponents=["rule"]' --set eval_matches=200 \
    --set final_eval_matches=200
for run in sb3 rllib1 rllib2 torchrl; do
  .venv/bin/smear-rl rate --curve "$out/${run}_$task/snapshots.csv" --task "$task" --games 200 --no-progress
done
for spec in "sb3:$out/sb3_$task/model.zip" "rllib:$out/rllib1_$task/module" "rllib:$out/rllib2_$task/module" \
            "torchrl:$out/torchrl_$task/policy.pt" "$out/own_$task/agent.pt"; do
  name=$(basename "$(dirname "${spec#*:}")")  # the run's folder: sb3_<task>, rllib1_<task>, ...
  .venv/bin/smear-rl rate "$spec" --task "$task" --name "$name" --no-progress --json "$out/rating_${name}.json"
done
