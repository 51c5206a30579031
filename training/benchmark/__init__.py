"""The benchmark: named tasks, a rating any policy can get on a fixed scale, and approximate exploitability.

Why: to say "my algorithm plays Smear this well", two papers must measure the same
thing. A task (:mod:`~training.benchmark.tasks`, ``configs/tasks/<name>.toml``) fixes the
rules, the env id and the protocol; its scale (:mod:`~training.benchmark.scale`) is the
Bradley-Terry fit of a fixed panel (random, rule, search, the shipped agent) over its own
games, published once with random = 0 and rule = 1000; a rating
(:mod:`~training.benchmark.rate`) plays an agent against that panel under the protocol
and reads its strength on the scale; the exploiter (:mod:`~training.benchmark.exploit`)
trains PPO against the frozen agent for a fixed budget and plays it. Any agent the
registry builds can be rated: a bot, a checkpoint, an exported policy, or a policy from
any library or code (:mod:`agents.external`).

The modules, each depending only on those before it:

* :mod:`~training.benchmark.tasks`: the task files;
* :mod:`~training.benchmark.bradley_terry`: the strengths and their intervals over deal pairs;
* :mod:`~training.benchmark.scale`: a task's published scale and its fit;
* :mod:`~training.benchmark.rate`: one agent's rating;
* :mod:`~training.benchmark.exploit`: the exploiter measure;
* :mod:`~training.benchmark.rate_cli`, :mod:`~training.benchmark.exploit_cli`: ``smear-rl rate`` and ``exploit``.
"""
