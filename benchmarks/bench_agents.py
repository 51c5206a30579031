"""Time per decision of each agent: ``smear-rl bench agents`` (the code is :mod:`smear_rl.bench`).

python benchmarks/bench_agents.py --preset ten_point --agents rule random agents/shipped/ten_point.npz --decisions 2000
"""

from smear_rl.bench import agents_main

if __name__ == "__main__":
    agents_main()
