"""A real local Dask cluster (two worker processes on 127.0.0.1): same rows as in process, and a
worker killed mid-run loses no game.  The test starts the cluster and stops it; nothing leaves localhost."""

from __future__ import annotations

import os

import pandas as pd
import pytest

distributed = pytest.importorskip("distributed")

from ttr_lab.simulate import run_games, tournament  # noqa: E402

LINEUP = ["one_step", "long_route"]


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as lc:
        assert lc.scheduler_address.startswith("tcp://127.0.0.1:")
        yield lc


@pytest.fixture(scope="module")
def reference():
    return run_games("usa", LINEUP, games=8, seed=21, progress=False)


def test_same_rows_on_the_cluster_by_client_executor_and_address(cluster, reference):
    with distributed.Client(cluster, set_as_default=False) as client:
        by_executor = run_games(
            "usa", LINEUP, games=8, seed=21, executor=client.get_executor(), batch_size=2, progress=False
        )
        by_client = run_games("usa", LINEUP, games=8, seed=21, executor=client, batch_size=3, progress=False)
    by_address = run_games("usa", LINEUP, games=8, seed=21, executor=cluster.scheduler_address, progress=False)
    for df in (by_executor, by_client, by_address):
        pd.testing.assert_frame_equal(df, reference)


def test_a_small_tournament_on_the_cluster(cluster):
    local = tournament(["greedy", "route_focus"], "europe", players=2, games=4, seed=3, progress=False)
    with distributed.Client(cluster, set_as_default=False) as client:
        remote = tournament(
            ["greedy", "route_focus"], "europe", players=2, games=4, seed=3, executor=client, progress=False
        )
    pd.testing.assert_frame_equal(remote.games, local.games)
    pd.testing.assert_frame_equal(remote.table, local.table)


def test_a_killed_worker_loses_no_game(cluster, reference):
    with distributed.Client(cluster, set_as_default=False) as client:
        state = {"killed": False}
        before = set(client.scheduler_info()["workers"])

        def kill_one(chunk):
            if not state["killed"]:
                state["killed"] = True
                victim = sorted(client.scheduler_info()["workers"])[0]
                try:  # the worker dies before it can answer
                    client.run(os._exit, 1, workers=[victim])
                except Exception:
                    pass

        df = run_games(
            "usa", LINEUP, games=8, seed=21, executor=client, batch_size=1, progress=False, on_chunk=kill_one
        )
        assert state["killed"]
        client.wait_for_workers(2, timeout=60)  # the nanny restarts it
        assert set(client.scheduler_info()["workers"]) != before  # a new worker took the dead one's place
    pd.testing.assert_frame_equal(df, reference)
