"""The one SQLAlchemy engine factory of the SQL stores (runs, the Flink queue): SQLite, MariaDB/MySQL, PostgreSQL."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from sqlalchemy import MetaData, Table, create_engine, event, inspect, text
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.pool import StaticPool

from pipelines.core.jsonable import to_jsonable
from pipelines.core.storage.sqlite_wal import waiting_on_connect

CONNECT_TIMEOUT_S = 10
CREATE_ATTEMPTS = 4


def dumps(value: Any) -> str:
    """JSON for the JSON columns: values go in as written; only objects JSON does not know (messages, pydantic
    models, dates) are converted, by the default hook."""
    return json.dumps(value, ensure_ascii=False, default=to_jsonable)


def driver_url(url: str) -> str:
    """A plain `postgresql://` URL names psycopg 3, which is installed (SQLAlchemy's default, psycopg2, is not)."""
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


def make_engine(url: str, busy_timeout_s: float = 30.0) -> Engine:
    """An engine for a database URL.

    SQLite in memory: one shared connection, or each thread would see its own empty database. A SQLite file:
    its folder is created, and every connection gets WAL and a busy timeout (30 s: processes share the file).
    MariaDB/MySQL: READ COMMITTED, since REPEATABLE READ takes gap locks on indexes that concurrent claims of a
    queue then deadlock on. Servers: a connect timeout unless the URL sets one. Always: pre-ping pooled
    connections (not a SQLite file's), and JSON columns written with `dumps`."""
    url = driver_url(url)
    parsed = make_url(url)
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        if parsed.database in (None, "", ":memory:"):
            return create_engine(url, poolclass=StaticPool, json_serializer=dumps,
                                 connect_args={"check_same_thread": False})
        Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        # No pre-ping: a SQLite file's connection cannot be dropped by a server, and a ping before every
        # transaction (a claim, a step record) would cost as much as the transaction.
        engine = create_engine(url, json_serializer=dumps)
        event.listen(engine, "connect", waiting_on_connect(busy_timeout_s))
        return engine
    options: dict[str, Any] = {}
    if backend in ("mysql", "mariadb"):
        options["isolation_level"] = "READ COMMITTED"
    if backend in ("mysql", "mariadb", "postgresql") and "connect_timeout" not in parsed.query:
        options["connect_args"] = {"connect_timeout": CONNECT_TIMEOUT_S}
    engine = create_engine(url, pool_pre_ping=True, json_serializer=dumps, **options)
    if backend == "postgresql":
        event.listen(engine, "handle_error", _failed_ping_is_a_disconnect)
    return engine


def _failed_ping_is_a_disconnect(context: Any) -> None:
    """A pre-ping on a psycopg connection whose socket was reset can fail twice over: the SELECT 1 with an
    OperationalError, then SQLAlchemy's putting autocommit back with "can't change 'autocommit' now", which hides
    the first and is not taken for a disconnect. The ping failed all the same: the pool should reconnect."""
    if not context.is_pre_ping:
        return
    error: BaseException | None = context.original_exception
    while error is not None:
        if type(error).__module__.startswith("psycopg") and type(error).__name__ == "OperationalError":
            context.is_disconnect = True
            return
        error = error.__cause__ or error.__context__


def create_tables(engine: Engine, metadata: MetaData) -> None:
    """Create the tables that are missing. Processes starting together all see no table and all create it: the
    losers of that race get "already exists" (PostgreSQL: a duplicate pg_type row), and a second look finds
    the tables. Any other error is raised at once."""
    for attempt in range(CREATE_ATTEMPTS):
        try:
            metadata.create_all(engine)
            return
        except SQLAlchemyError as exc:
            raced = isinstance(exc, IntegrityError) or any(
                word in str(exc).lower() for word in ("already exists", "duplicate"))
            if not raced or attempt == CREATE_ATTEMPTS - 1:
                raise
            time.sleep(0.1 * (attempt + 1))


def add_missing_columns(engine: Engine, table: Table) -> list[str]:
    """Add the columns a table created by an earlier Stepwise lacks (a nullable column, or one with a server
    default), so its rows stay readable; returns their names. Processes migrating together: a column another one
    just added is taken as added."""
    stored = {c["name"] for c in inspect(engine).get_columns(table.name)}
    added = []
    for column in table.columns:
        if column.name in stored:
            continue
        ddl = f"ALTER TABLE {table.name} ADD COLUMN {column.name} {column.type.compile(engine.dialect)}"
        if column.server_default is not None:
            ddl += f" DEFAULT {column.server_default.arg.text} NOT NULL"
        try:
            with engine.begin() as conn:
                conn.execute(text(ddl))
        except SQLAlchemyError:
            if column.name not in {c["name"] for c in inspect(engine).get_columns(table.name)}:
                raise
        added.append(column.name)
    return added
