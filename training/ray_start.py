"""Ray, started once for a run: the collection's actors and a focused run's scoring tasks share it.

Embedded on this machine by default (one command, no cluster: ``workers`` CPUs, the learner's own
process not among them), or joining a running cluster at ``address`` (``ray start --head``).
"""

from __future__ import annotations

from typing import Any


def start_ray(workers: int, address: str = "") -> Any:
    """The ``ray`` module, started if it is not: joining the cluster at ``address``, else on this machine with
    ``workers`` CPUs (one per worker: the learner's own process is not one of them)."""
    import ray

    if not ray.is_initialized():
        options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, "logging_level": "ERROR"}
        if address:
            ray.init(address=address, **options)
        else:
            ray.init(num_cpus=workers, **options)
    return ray
