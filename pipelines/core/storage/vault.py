"""The personal-data vault in a database: placeholder ↔ value per scope (a run, a chat session), kept apart from
runs, traces and exports, and written safely by several writers at once."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sqlalchemy import Column, MetaData, String, Table, insert, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from pipelines.core.guardrails.pii import PiiVault

VALUE_MAX_CHARS = 500
WRITE_ATTEMPTS = 20  # tries to add placeholders while parallel writers add theirs (each try follows someone's write)


def vault_table(name: str, metadata: MetaData, scope_column: str, scope_chars: int = 64) -> Table:
    """A vault's table: one row per (scope, placeholder)."""
    return Table(name, metadata,
                 Column(scope_column, String(scope_chars), primary_key=True),
                 Column("placeholder", String(64), primary_key=True),
                 Column("value", String(VALUE_MAX_CHARS), nullable=False),
                 mysql_charset="utf8mb4")


class VaultTable:
    """The vault rows of one table; every scope's placeholders are numbered on their own."""

    def __init__(self, engine: Engine, table: Table) -> None:
        self.engine, self.table = engine, table
        self._scope = next(iter(table.primary_key.columns))

    def entries(self, scope: str) -> dict[str, str]:
        with self.engine.connect() as conn:
            return {row.placeholder: row.value for row in conn.execute(
                select(self.table.c.placeholder, self.table.c.value).where(self._scope == scope))}

    def vault(self, scope: str) -> PiiVault:
        """The scope's vault as it stands (for restoring placeholders where the user must read the value)."""
        return PiiVault.from_entries(self.entries(scope))

    def mask(self, scope: str, texts: Sequence[str], regions: Iterable[str] | None = None) -> list[str]:
        """The texts masked with the scope's vault, the placeholders they add written in the same go. Writers that
        mask at the same time would each number a new value [EMAIL_3]: whoever writes first keeps it, and the others
        mask again with the vault as it is then, so one placeholder never stands for two values. `regions`: the
        user's, for national phone numbers (Settings.phone_regions)."""
        for _ in range(WRITE_ATTEMPTS):
            known = self.entries(scope)
            vault = PiiVault.from_entries(known, regions)
            masked = [vault.mask(text) for text in texts]
            new = [{self._scope.name: scope, "placeholder": k, "value": v[:VALUE_MAX_CHARS]}
                   for k, v in vault.entries().items() if k not in known]
            if not new:
                return masked
            try:
                with self.engine.begin() as conn:
                    conn.execute(insert(self.table), new)
                return masked
            except IntegrityError:  # another writer took one of these placeholders first
                continue
        raise RuntimeError(f"the personal-data vault of {scope} changed {WRITE_ATTEMPTS} times while masking; "
                           "try again")

    def forget(self, conn, scope: str) -> None:
        """Drop a scope's values (its run was deleted), inside the caller's transaction."""
        conn.execute(self.table.delete().where(self._scope == scope))
