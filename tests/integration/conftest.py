"""The MariaDB and PostgreSQL servers on 127.0.0.1: skipped locally when absent, required in CI."""

import os
import socket

import pytest

POSTGRES_URL = os.environ.get("STEPWISE_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")
MARIADB_URL = os.environ.get("STEPWISE_TEST_MARIADB_URL", "mysql+pymysql://root@127.0.0.1:3306/test")


def _reachable(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2):
            return True
    except OSError:
        return False


def require(port: int, name: str) -> None:
    if _reachable(port):
        return
    if os.environ.get("STEPWISE_REQUIRE_SERVICES") == "1":
        pytest.fail(f"{name} is not reachable on 127.0.0.1:{port}, and CI requires it")
    pytest.skip(f"{name} is not running on 127.0.0.1:{port}")


@pytest.fixture
def postgres_url():
    require(5432, "PostgreSQL")
    return POSTGRES_URL


@pytest.fixture
def mariadb_url():
    require(3306, "MariaDB")
    return MARIADB_URL
