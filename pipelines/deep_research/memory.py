"""The central agent's memory stack (Stack-Planner): bounded, serialised into `memory_stack` after every update."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from pipelines.deep_research.state import MEMORY_LIMIT


@dataclass
class MemoryStack:
    entries: list[dict[str, Any]] = field(default_factory=list)
    limit: int = MEMORY_LIMIT
    dropped: int = 0  # entries pushed out at the bottom since the run began

    @classmethod
    def load(cls, text: str | None, limit: int = MEMORY_LIMIT) -> MemoryStack:
        """The stack `memory_stack` holds; a missing, empty or damaged value (an edit) is an empty stack."""
        try:
            data = json.loads(text) if text else {}
        except (TypeError, ValueError):
            data = {}
        data = data if isinstance(data, dict) else {}
        entries = data.get("entries") if isinstance(data.get("entries"), list) else []
        dropped = str(data.get("dropped", 0))
        stack = cls([e for e in entries if isinstance(e, dict)], limit, int(dropped) if dropped.isdigit() else 0)
        stack._trim()
        return stack

    def dumps(self) -> str:
        return json.dumps({"entries": self.entries, "dropped": self.dropped}, ensure_ascii=False)

    def push(self, action: str, content: str, **extra: Any) -> None:
        self.entries.append({"action": action, "content": content, **extra})
        self._trim()

    def pop(self, count: int) -> list[dict[str, Any]]:
        """Exactly `count` entries off the top (fewer only when the stack holds fewer), the top one first."""
        count = max(0, min(count, len(self.entries)))
        popped = self.entries[len(self.entries) - count:][::-1]
        del self.entries[len(self.entries) - count:]
        return popped

    def summarize(self, keep: int, summary: str) -> int:
        """Fold all but the `keep` most recent entries into one summary entry; how many were folded."""
        folded = max(0, len(self.entries) - keep)
        if folded:
            self.entries[:folded] = [{"action": "summary", "content": summary, "folded": folded}]
        return folded

    def _trim(self) -> None:
        excess = len(self.entries) - self.limit
        if excess > 0:
            del self.entries[:excess]
            self.dropped += excess

    def __len__(self) -> int:
        return len(self.entries)

    def as_prompt(self, last: int = 12) -> str:
        """The top of the stack as lines for a prompt (deserialised first, as the seed's template does)."""
        lines = [f"{i + 1}. [{e.get('action')}] {str(e.get('content') or '')[:300]}"
                 for i, e in enumerate(self.entries[-last:], start=max(0, len(self.entries) - last))]
        return "\n".join(lines) or "(empty)"
