"""The checkpoints of a thread as a tree of branches: which checkpoint each fork left from."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from pipelines.core.runtime.outcomes import CheckpointInfo


@dataclass
class Branch:
    """A chain of checkpoints, each the parent of the next; a fork starts a new branch."""

    number: int
    checkpoints: list[CheckpointInfo] = field(default_factory=list)  # oldest first
    parent_branch: int | None = None
    fork_from: CheckpointInfo | None = None  # the checkpoint this branch left from

    @property
    def leaf(self) -> CheckpointInfo:
        return self.checkpoints[-1]

    @property
    def first(self) -> CheckpointInfo:
        return self.checkpoints[0]

    @property
    def edited(self) -> bool:
        """Whether the branch began with an edit of the state (a fork with edits) rather than a step."""
        return self.first.source == "update"

    def holds(self, checkpoint_id: str | None) -> bool:
        return any(c.checkpoint_id == checkpoint_id for c in self.checkpoints)

    def describe(self) -> str:
        ends = "END" if not self.leaf.next else "next " + ", ".join(self.leaf.next)
        span = f"step {self.first.step}" if len(self.checkpoints) == 1 else \
            f"steps {self.first.step}–{self.leaf.step}"
        origin = "" if self.fork_from is None else \
            f" · {'edited' if self.edited else 'forked'} at step {self.fork_from.step} of branch {self.parent_branch}"
        return f"branch {self.number} · {span} · {ends}{origin}"


def checkpoint_branches(infos: Sequence[CheckpointInfo]) -> list[Branch]:
    """Split the checkpoints into branches. At a checkpoint with several children, the oldest child goes on
    with the parent's branch and each later child starts a branch of its own, numbered in the order made."""
    by_id = {c.checkpoint_id: c for c in infos}
    order = sorted(infos, key=lambda c: (c.created_at, c.step))
    children: dict[str | None, list[CheckpointInfo]] = {}
    for info in order:
        parent = info.parent_id if info.parent_id in by_id else None
        children.setdefault(parent, []).append(info)
    starts: list[tuple[CheckpointInfo, int | None, CheckpointInfo | None]] = \
        [(root, None, None) for root in children.get(None, [])]
    branches: list[Branch] = []
    while starts:
        starts.sort(key=lambda item: (item[0].created_at, item[0].step))
        start, parent_branch, fork_from = starts.pop(0)
        branch = Branch(number=len(branches) + 1, parent_branch=parent_branch, fork_from=fork_from)
        branches.append(branch)
        current: CheckpointInfo | None = start
        while current is not None:
            branch.checkpoints.append(current)
            kids = children.get(current.checkpoint_id, [])
            starts.extend((kid, branch.number, current) for kid in kids[1:])
            current = kids[0] if kids else None
    return branches


def branch_numbers(branches: Sequence[Branch]) -> dict[str, int]:
    """The branch of each checkpoint."""
    return {c.checkpoint_id: b.number for b in branches for c in b.checkpoints}
