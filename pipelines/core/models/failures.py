"""The one way a node handles a failed model call.

The gateway has already done what is generic: it retried the call (`max_retries`, with backoff) and, when the
settings allow (`fallback_to_offline`), answered with the node's offline implementation instead. A call that still
fails raises ModelCallError. What is left is the node's own, seed-given policy, which it states in one place:

    answer = answer_or(lambda: gateway.structured(task, Schema, messages, offline=...), on_failure)

where `on_failure(failure)` returns what the node returns instead. The policies the workflows use:
  - `offline_instead(answer)`: answer as the offline engine would (iCan: the seed's fixed phrases), the run goes on;
  - a state update that records the failure, for a route to act on: CareerNavigator appends it to `error_log`
    (seed §4.1, in its `tracked` decorator), the Flink diagnosis sets `error` and its route retries (seed §3.3/§5).
A node never lets ModelCallError escape unless its seed says the run must fail there.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from pipelines.core.models.gateway import ModelCallError

Answer = TypeVar("Answer")


@dataclass(frozen=True)
class ModelFailure:
    """A model call that failed after the gateway's retries (or another error the node's policy also covers)."""

    error: BaseException

    @property
    def message(self) -> str:
        """One line: the gateway's own message, or the error's type and text."""
        if isinstance(self.error, ModelCallError):
            return str(self.error)
        return f"{type(self.error).__name__}: {self.error}".strip().rstrip(":")

    def __str__(self) -> str:
        return self.message


def answer_or(call: Callable[[], Answer], on_failure: Callable[[ModelFailure], Answer],
              also: tuple[type[BaseException], ...] = ()) -> Answer:
    """`call()`, or `on_failure(...)` when it raises ModelCallError (or one of `also`, the node's other failures
    its policy covers the same way, such as a data provider's)."""
    try:
        return call()
    except (ModelCallError, *also) as exc:
        return on_failure(ModelFailure(exc))


def offline_instead(answer: Callable[[], Answer]) -> Callable[[ModelFailure], Answer]:
    """The policy that answers as the offline engine would, whatever the failure."""
    return lambda _failure: answer()
