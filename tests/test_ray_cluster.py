"""A run that joins a Ray cluster (``--address``): its workers spread over the cluster's nodes, and it learns what the
same run learns with Ray embedded on this machine (each worker's matches depend on its seed, not on where it runs).

The cluster is two Ray nodes of one CPU each on this machine (``ray.cluster_utils.Cluster``, what ``ray start --head``
and ``ray start --address`` make): a head and a second node with its own raylet, which the learner reaches only by
the address, as it would another machine's. A wrong address or a refused token ends the command in one line.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
ray = pytest.importorskip("ray")

from ray.cluster_utils import Cluster  # noqa: E402

from tests.ports import free_port  # noqa: E402
from training.checkpoint import load_checkpoint  # noqa: E402
from training.config import config_from_dict  # noqa: E402
from training.ppo import Trainer  # noqa: E402
from training.ray_start import check_reachable, cluster_error  # noqa: E402
from training.recipe import Recipe, RecipeRun, Stage  # noqa: E402

RUN = {
    "preset": "ten_point", "universal": True, "train_presets": ["ten_point", "four_point"], "hidden": [16],
    "card_head": 18, "num_games": 4, "rollout_steps": 96, "minibatch": 64, "epochs": 1, "bc_hands": 0,
    "total_steps": 192, "eval_every_minutes": 0, "final_eval_matches": 2, "eval_opponents": ["random"],
    "device": "cpu", "workers": 2, "opp_self": 0.5, "opp_rule": 0.5,
}  # fmt: skip


@pytest.fixture
def two_node_cluster():
    """A head node and a worker node, one CPU each: two workers can only run one on each."""
    if ray.is_initialized():
        ray.shutdown()
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
    try:
        cluster.add_node(num_cpus=1)
        cluster.wait_for_nodes()
        yield cluster
    finally:
        ray.shutdown()
        cluster.shutdown()


def test_a_run_on_a_two_node_cluster_spreads_its_workers_and_learns_what_an_embedded_run_does(
    tmp_path: Path, two_node_cluster: Cluster, capfd: pytest.CaptureFixture[str]
) -> None:
    recipe = Recipe("on_cluster", "", RUN, (Stage("only", "train"),), "")
    RecipeRun(recipe, tmp_path / "cluster", address=two_node_cluster.address).run(progress=False)
    assert "collecting in 2 Ray workers on 2 node(s) of the cluster at" in capfd.readouterr().err
    record = json.loads((tmp_path / "cluster" / "recipe.json").read_text())["stages"]["only"]
    assert record["ray_nodes"] == 2  # one worker on each node, and the agent's record says so
    ray.shutdown()
    embedded = Trainer(config_from_dict(RUN), tmp_path / "embedded")
    embedded.run(progress=False)
    assert len(set(embedded.collector.nodes)) == 1
    ray.shutdown()
    a, b = (
        load_checkpoint(path)["model"]
        for path in (tmp_path / "cluster" / "agent.pt", tmp_path / "embedded" / "agent.pt")
    )
    assert all(torch.equal(a[k], b[k]) for k in a)


def test_an_address_where_nothing_answers_is_refused_at_once_in_one_line_and_leaves_no_folder(tmp_path: Path) -> None:
    recipe = tmp_path / "tiny.toml"
    recipe.write_text('name = "tiny"\n[defaults]\npreset = "ten_point"\n[[stage]]\nname = "only"\ntotal_steps = 96\n')
    port = free_port()
    started = time.perf_counter()
    run = subprocess.run(
        [sys.executable, "-m", "smear_rl.cli", "train", "--recipe", str(recipe), "--workers", "1",
         "--address", f"127.0.0.1:{port}", "--out", str(tmp_path / "run"), "--no-progress"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 2 and time.perf_counter() - started < 60  # Ray alone would retry for minutes
    assert f"--address 127.0.0.1:{port}: nothing answers there" in run.stderr.splitlines()[-1]
    assert "Traceback" not in run.stderr and not (tmp_path / "run").exists()


def test_a_cluster_that_refuses_the_token_is_told_how_to_join() -> None:
    refusal = RuntimeError("Failed to connect to GCS.\nray.exceptions.AuthenticationError: InvalidAuthToken")
    try:
        raise ConnectionError("Failed to connect to Ray cluster at 10.0.0.1:6379") from refusal
    except ConnectionError as err:
        message = cluster_error("10.0.0.1:6379", err)
    assert message.startswith("--address 10.0.0.1:6379: could not join the Ray cluster (Failed to connect to Ray")
    assert "RAY_AUTH_MODE=token" in message and "\n" not in message
    assert "RAY_AUTH_MODE" not in cluster_error("h:1", ConnectionError("Failed to connect to Ray cluster at h:1"))


def test_addresses_ray_resolves_itself_are_not_probed() -> None:
    for address in ("auto", "ray://head:10001"):
        check_reachable(address)  # no host:port to try: nothing raised


def test_an_ipv6_address_that_answers_is_let_through() -> None:
    try:
        server = socket.create_server(("::1", 0), family=socket.AF_INET6)
    except OSError:
        pytest.skip("no IPv6 loopback on this machine")
    with server:
        check_reachable(f"[::1]:{server.getsockname()[1]}")  # probed as ::1, not "[::1]": nothing raised
