"""Ray, started once for a run: the collection's actors and a focused run's scoring tasks share it.

Embedded on this machine by default (one command, no cluster: ``workers`` CPUs, the learner's own
process not among them), or joining a running cluster at ``address`` (``ray start --head``).

A recipe's stages run in one process and may ask for different numbers of workers: the Ray this
module started here is started again, larger, for a stage that asks for more CPUs than it has (each
worker holds one CPU, so the extra workers would otherwise wait for ever). Ray is one per process,
so what this module started is kept as module state beside it.
"""

from __future__ import annotations

import socket
from typing import Any

#: what a cluster that refuses the learner most often wants: Ray 2.59 and later start a cluster with token
#: authentication, and every node and driver must run in that mode and hold the cluster's token
TOKEN_HINT = (
    "a cluster started with token authentication (Ray's default since 2.59) takes only processes run with "
    "RAY_AUTH_MODE=token and its token (~/.ray/auth_token of the head node, or RAY_AUTH_TOKEN) on every "
    "machine, this one included"
)


_STARTED_HERE: dict[str, Any] = {}  # {"cpus": n, "gcs": address} of the Ray this module started on this machine


class RayClusterError(ValueError):
    """The cluster at ``--address`` could not be joined: said in one line, where Ray raises a chain of tracebacks."""


def start_ray(workers: int, address: str = "") -> Any:
    """The ``ray`` module, started if it is not: joining the cluster at ``address``, else on this machine with
    ``workers`` CPUs (one per worker: the learner's own process is not one of them).

    Without an address Ray would join a cluster that ``ray start`` left running on this machine, and then
    refuse the CPU count; ``address="local"`` starts Ray's own instance whatever runs beside it."""
    import ray

    if ray.is_initialized() and not address:
        _fit_local_ray(ray, workers)
    if not ray.is_initialized():
        options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, "logging_level": "ERROR"}
        if address:
            check_reachable(address)
            try:
                ray.init(address=address, **options)
            except Exception as err:  # Ray raises ConnectionError, RuntimeError or ValueError, by what went wrong
                raise RayClusterError(cluster_error(address, err)) from err
        else:
            ray.init(address="local", num_cpus=workers, **options)  # not a cluster `ray start` left running here
            _STARTED_HERE.update(cpus=workers, gcs=_gcs_address(ray))
    return ray


def _fit_local_ray(ray: Any, workers: int) -> None:
    """Make room for ``workers`` in the Ray already running in this process: ours is started again with more CPUs
    (a run's actors are gone when it ends), one started by the caller is theirs, so too few CPUs is refused."""
    if _STARTED_HERE.get("gcs") is not None and _STARTED_HERE.get("gcs") != _gcs_address(ray):
        _STARTED_HERE.clear()  # ours was shut down by someone else, and this Ray is theirs
    if "cpus" in _STARTED_HERE:
        if _STARTED_HERE["cpus"] < workers:
            ray.shutdown()
            _STARTED_HERE.clear()
        return
    cpus = int(ray.cluster_resources().get("CPU", 0))
    if cpus < workers:
        raise ValueError(
            f"Ray, started in this process before the run, has {cpus} CPU{'s' * (cpus != 1)} and the run asks for "
            f"{workers} workers (one CPU each): start Ray with num_cpus of at least that, or let the run start it"
        )


def _gcs_address(ray: Any) -> str | None:
    """The address of the running Ray's control store: which Ray instance this is."""
    try:
        return str(ray.get_runtime_context().gcs_address)
    except Exception:  # an older Ray without it: every instance looks alike
        return None


def check_reachable(address: str, timeout: float = 5.0) -> None:
    """Refuse at once an ``address`` of ``host:port`` where nothing answers: Ray itself retries for minutes."""
    host, _, port = address.rpartition(":")
    host = host.strip("[]")  # an IPv6 address is written [::1]:6379
    if "://" in address or not host or not port.isdigit():
        return  # "auto", or a ray:// client address: Ray's own to resolve
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as err:
        raise RayClusterError(
            f"--address {address}: nothing answers there ({err.strerror or err}): is `ray start --head` running "
            "on that machine, with that port, and reachable from here?"
        ) from None


def cluster_error(address: str, err: BaseException) -> str:
    """Why joining ``address`` failed, in a line: Ray's own first line, and what to do about it."""
    chain, seen = [], err
    while seen is not None and len(chain) < 5:
        chain.append(str(seen))
        seen = seen.__cause__ or seen.__context__
    first = chain[0].strip().splitlines()[0] if chain[0].strip() else type(err).__name__
    refused = any("authenticat" in text.lower() for text in chain)  # Ray says so deep in its chain's tracebacks
    hint = TOKEN_HINT if refused else "is `ray start --head` running there, and is its port reachable from here?"
    return f"--address {address}: could not join the Ray cluster ({first}): {hint}"
