"""Ray started by the trainer fits each run's workers: a recipe's later stage may ask for more than an earlier one."""

from __future__ import annotations

import pytest

ray = pytest.importorskip("ray")

from training import ray_start  # noqa: E402


@pytest.fixture
def no_ray():
    if ray.is_initialized():
        pytest.skip("Ray is already running in this process")
    yield
    ray.shutdown()
    ray_start._STARTED_HERE.clear()


def test_a_later_run_with_more_workers_gets_a_ray_with_their_cpus(no_ray: None) -> None:
    """Before, the second stage's extra actors waited for ever for CPUs the first stage's Ray did not have."""
    ray_start.start_ray(1)
    assert ray.cluster_resources()["CPU"] == 1
    ray_start.start_ray(1)  # the same: kept
    ray_start.start_ray(2)
    assert ray.cluster_resources()["CPU"] == 2
    ray_start.start_ray(1)  # fewer: fits as it is
    assert ray.cluster_resources()["CPU"] == 2


def test_a_ray_started_here_then_replaced_by_the_callers_own_is_theirs(no_ray: None) -> None:
    ray_start.start_ray(2)
    ray.shutdown()  # by someone else, who then starts their own
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    with pytest.raises(ValueError, match="has 1 CPU and the run asks for 2 workers"):
        ray_start.start_ray(2)
    assert ray.is_initialized()  # theirs, left running


def test_a_ray_the_caller_started_with_too_few_cpus_is_refused_not_waited_on(no_ray: None) -> None:
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    with pytest.raises(ValueError, match="has 1 CPU and the run asks for 2 workers"):
        ray_start.start_ray(2)
    assert ray.is_initialized() and ray_start.start_ray(1) is ray
