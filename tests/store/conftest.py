"""The store's tests run on SQLite and on PostgreSQL (a throwaway cluster, see pgcluster)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from pgcluster import Cluster, find_bin


@pytest.fixture(scope="session")
def pg() -> Iterator[Cluster]:
    if find_bin() is None:
        if os.environ.get("COLOSSEUM_REQUIRE_PG"):
            pytest.fail("PostgreSQL is required (COLOSSEUM_REQUIRE_PG) but initdb/pg_ctl are not installed")
        pytest.skip("PostgreSQL is not installed")
    with Cluster() as cluster:
        yield cluster


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path) -> str | None:
    """None: the data folder's own SQLite file; else a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return None
    cluster: Cluster = request.getfixturevalue("pg")
    return cluster.fresh_database()
