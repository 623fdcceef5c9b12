"""The store's tests run on SQLite and on PostgreSQL (a throwaway cluster, see pgcluster)."""

from __future__ import annotations

import pytest
from pgcluster import Cluster, cluster_or_skip


@pytest.fixture(scope="session")
def pg():
    with cluster_or_skip() as cluster:
        yield cluster


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path) -> str | None:
    """None: the data folder's own SQLite file; else a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return None
    cluster: Cluster = request.getfixturevalue("pg")
    return cluster.fresh_database()
