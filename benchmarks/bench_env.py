"""Simulation speed per preset: ``smear-rl bench env`` (the code is :mod:`smear_rl.bench`).

python benchmarks/bench_env.py [--seconds 2] [--repeats 3] [--slices 10] [--presets ten_point minnesota]
"""

from smear_rl.bench import env_main

if __name__ == "__main__":
    env_main()
