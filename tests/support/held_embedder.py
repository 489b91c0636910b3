"""An embedding model that holds each batch of an add until the test lets it through, so a test can look at an add
while it is under way and stop it at a chosen batch, whatever the machine's speed."""

from __future__ import annotations

import threading
from typing import Any

TIMEOUT_S = 120  # a test that never lets a batch through fails instead of hanging


class HeldEmbedder:
    """Holds a library embedder's `embed`: batch n waits until `allow` has let n batches through (or `release_all`).
    The embedder itself stays in place (Chroma checks its type)."""

    def __init__(self, embed: Any) -> None:
        self._embed = embed
        self._changed = threading.Condition()
        self.arrived = 0
        self.allowed = 0
        self._all = False

    def embed(self, texts: list[str]) -> Any:
        with self._changed:
            self.arrived += 1
            number = self.arrived
            self._changed.notify_all()
            if not self._changed.wait_for(lambda: self._all or self.allowed >= number, TIMEOUT_S):
                raise TimeoutError("the test never let this batch through")
        return self._embed(texts)

    def wait_arrived(self, count: int, timeout: float = TIMEOUT_S) -> bool:
        """True once `count` batches have reached the model (and wait there unless allowed)."""
        with self._changed:
            return self._changed.wait_for(lambda: self.arrived >= count, timeout)

    def allow(self, count: int = 1) -> None:
        with self._changed:
            self.allowed += count
            self._changed.notify_all()

    def release_all(self) -> None:
        with self._changed:
            self._all = True
            self._changed.notify_all()


def hold(library: Any) -> HeldEmbedder:
    """Hold the library's indexing at every batch from now on, until the test allows it."""
    held = HeldEmbedder(library.kb.embedder.embed)
    library.kb.embedder.embed = held.embed
    return held
