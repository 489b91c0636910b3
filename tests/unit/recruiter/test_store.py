"""The recruiting store's personal-data vault: agents that mask at the same moment never put two values under one
placeholder."""

from __future__ import annotations

import threading

from pipelines.core.guardrails.pii import PiiVault
from pipelines.recruiter.store import RecruitingStore


class LockstepStore(RecruitingStore):
    """Each of `parties` maskers reads the vault before any of them writes (the fan-out's worst interleaving)."""

    def __init__(self, url: str, parties: int) -> None:
        super().__init__(url)
        self.first_reads: threading.Barrier | None = threading.Barrier(parties, timeout=30)
        self.seen: set[int] = set()

    def vault_entries(self, session_id: str) -> dict[str, str]:
        entries = super().vault_entries(session_id)
        me = threading.get_ident()
        if self.first_reads is not None and me not in self.seen:
            self.seen.add(me)
            self.first_reads.wait()
        return entries


def test_maskers_reading_the_same_vault_get_one_placeholder_per_address(tmp_path):
    addresses = [f"person{i}@example.com" for i in range(4)]
    store = LockstepStore(f"sqlite:///{tmp_path}/r.db", parties=len(addresses))
    masked: dict[str, str] = {}

    def mask(address: str) -> None:
        [masked[address]] = store.mask_pii("s1", address)

    workers = [threading.Thread(target=mask, args=(a,)) for a in addresses]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
    store.first_reads = None

    assert sorted(masked) == addresses and len(set(masked.values())) == len(addresses)
    vault = PiiVault.from_entries(store.vault_entries("s1"))
    assert {a: vault.restore(p) for a, p in masked.items()} == {a: a for a in addresses}
    assert store.mask_pii("s1", f"write to {addresses[2]}") == [f"write to {masked[addresses[2]]}"]  # known: reused
    store.dispose()
