"""Model gateway: every model call of every workflow, offline engine or real chat model, with usage accounting."""

from __future__ import annotations

import contextvars
import json
import logging
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any, TypeVar

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from pydantic import BaseModel, ValidationError

from pipelines.core.models.parsing import MalformedOutput, parse_structured
from pipelines.core.settings import Settings

log = logging.getLogger(__name__)
T = TypeVar("T", bound=BaseModel)


class ModelCallError(RuntimeError):
    """A model call failed after its retries; the message says why in one line."""


@dataclass
class ModelCall:
    """What one gateway call cost, for the metrics and the step records."""

    task: str
    provider: str
    model: str
    started_at: float
    latency_ms: float
    attempts: int = 1
    input_tokens: int = 0
    output_tokens: int = 0
    ok: bool = True
    fallback: bool = False
    error: str | None = None
    node: str | None = None
    task_id: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class UsageLedger:
    """Thread-safe collection of model calls, keyed by the LangGraph task that made them."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_task: dict[str | None, list[ModelCall]] = defaultdict(list)

    def record(self, call: ModelCall) -> None:
        with self._lock:
            self._by_task[call.task_id].append(call)

    def pop(self, task_id: str | None) -> list[ModelCall]:
        with self._lock:
            return self._by_task.pop(task_id, [])

    def all(self) -> list[ModelCall]:
        with self._lock:
            return [c for calls in self._by_task.values() for c in calls]


def _current_task() -> tuple[str | None, str | None]:
    """The (node, task id) of the graph task we are running in, if any."""
    try:
        from langgraph.config import get_config

        metadata = get_config().get("metadata", {})
    except RuntimeError:
        return None, None
    namespace = str(metadata.get("langgraph_checkpoint_ns", ""))
    last = namespace.split("|")[-1]
    return metadata.get("langgraph_node"), (last.split(":", 1)[1] if ":" in last else None)


class AttemptTimedOut(TimeoutError):
    """An attempt had not answered when the call's time budget ran out."""


def _not_json(exc: BaseException) -> bool:
    """A reply that is not JSON at all (an HTML error page, bytes that are not UTF-8), at any depth of causes."""
    while exc is not None:
        if isinstance(exc, (json.JSONDecodeError, UnicodeDecodeError)) or type(exc).__name__ == "APIResponseValidationError":
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def _describe(exc: BaseException) -> str:
    name = type(exc).__name__
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    if _not_json(exc):
        return f"malformed response from the provider (not JSON: {name})"
    if "timeout" in name.lower() or "timed out" in text.lower():
        return f"timed out ({name})"
    status = getattr(exc, "status_code", None)
    prefix = f"HTTP {status} " if status else ""
    return f"{prefix}{name}: {text}"[:300]


def _retryable(exc: BaseException) -> bool:
    status = getattr(exc, "status_code", None)
    if status in (400, 401, 403, 404, 422):
        return False
    return not isinstance(exc, (TypeError, NotImplementedError))


def _within(seconds: float, attempt: Callable[[], Any]) -> Any:
    """`attempt()`, or AttemptTimedOut once `seconds` have passed without its answer. The attempt runs in a
    thread of its own (with the caller's context: the graph's config, its stream writer); one that is given up
    on ends with its HTTP client's own timeout, its late answer dropped."""
    if seconds <= 0:
        raise AttemptTimedOut()
    outcome: dict[str, Any] = {}
    done = threading.Event()
    context = contextvars.copy_context()

    def run() -> None:
        try:
            outcome["value"] = context.run(attempt)
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread as is
            outcome["error"] = exc
        finally:
            done.set()

    threading.Thread(target=run, name="stepwise-model-call", daemon=True).start()
    if not done.wait(seconds):
        raise AttemptTimedOut()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def make_chat_model(settings: Settings) -> BaseChatModel | None:
    """The LangChain chat model for the configured provider; None for the offline engine."""
    if settings.provider == "offline":
        return None
    if settings.provider == "openai":
        from langchain_openai import ChatOpenAI

        return ChatOpenAI(
            model=settings.effective_model,
            base_url=settings.effective_base_url,
            api_key=settings.api_key or "not-needed",
            timeout=settings.timeout_s,
            max_retries=0,  # the gateway retries with its own backoff and accounting
            temperature=0,
        )
    from langchain_ollama import ChatOllama

    return ChatOllama(
        model=settings.effective_model,
        base_url=settings.effective_base_url,
        temperature=0,
        client_kwargs={"timeout": settings.timeout_s},
    )


class ModelGateway:
    """One door for model calls: runs the offline implementation or asks the chat model."""

    def __init__(
        self,
        settings: Settings,
        chat_model: BaseChatModel | None = None,
        ledger: UsageLedger | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.settings = settings
        self.chat_model = chat_model if chat_model is not None else make_chat_model(settings)
        self.ledger = ledger or UsageLedger()
        self._sleep = sleep

    @property
    def provider(self) -> str:
        return "offline" if self.chat_model is None else self.settings.provider

    @property
    def model_name(self) -> str:
        if self.chat_model is None:
            return "offline-engine"
        return str(getattr(self.chat_model, "model_name", None) or getattr(self.chat_model, "model", None)
                   or self.settings.effective_model)

    @property
    def is_offline(self) -> bool:
        return self.chat_model is None

    def structured(self, task: str, schema: type[T], messages: Sequence[BaseMessage],
                   offline: Callable[[], T], *, max_retries: int | None = None, fallback: bool | None = None) -> T:
        """A schema-valid answer for `task`: from the offline engine, or the chat model.

        `max_retries` and `fallback` override the settings for workflows that retry in the graph itself.
        """
        if self.chat_model is None:
            return self._offline(task, offline)
        runnable = self.chat_model.with_structured_output(
            schema, method=self.settings.structured_method, include_raw=True)

        def attempt() -> tuple[T, AIMessage | None]:
            out = runnable.invoke(list(messages))
            raw = out.get("raw") if isinstance(out, dict) else None
            parsed = out.get("parsed") if isinstance(out, dict) else out
            if isinstance(parsed, schema):
                return parsed, raw
            return parse_structured(raw, schema), raw

        return self._with_retries(task, attempt, offline, max_retries, fallback)

    def text(self, task: str, messages: Sequence[BaseMessage], offline: Callable[[], str],
             on_token: Callable[[str], None] | None = None) -> str:
        """Free text for `task`. With `on_token`, the chat model's reply is streamed and each piece handed to it
        as it comes (a retried attempt streams again from the start)."""
        if self.chat_model is None:
            return self._offline(task, offline)

        def attempt() -> tuple[str, AIMessage | None]:
            if on_token is not None:
                return self._streamed(messages, on_token)
            reply = self.chat_model.invoke(list(messages))
            content = reply.content if isinstance(reply.content, str) else str(reply.content)
            if not content.strip():
                raise MalformedOutput("the model returned an empty answer")
            return content, reply

        return self._with_retries(task, attempt, offline)

    def _streamed(self, messages: Sequence[BaseMessage], on_token: Callable[[str], None]) -> tuple[str, AIMessage]:
        whole = None
        for chunk in self.chat_model.stream(list(messages)):
            piece = chunk.content if isinstance(chunk.content, str) else str(chunk.content)
            if piece:
                on_token(piece)
            whole = chunk if whole is None else whole + chunk
        content = "" if whole is None else whole.content if isinstance(whole.content, str) else str(whole.content)
        if not content.strip():
            raise MalformedOutput("the model returned an empty answer")
        return content, AIMessage(content=content, usage_metadata=getattr(whole, "usage_metadata", None))

    def _offline(self, task: str, offline: Callable[[], Any]) -> Any:
        node, task_id = _current_task()
        start = time.time()
        t0 = time.perf_counter()
        result = offline()
        self.ledger.record(ModelCall(task=task, provider="offline", model="offline-engine", started_at=start,
                                     latency_ms=(time.perf_counter() - t0) * 1000, node=node, task_id=task_id))
        return result

    def _with_retries(self, task: str, attempt: Callable[[], tuple[Any, AIMessage | None]],
                      offline: Callable[[], Any], max_retries: int | None = None,
                      fallback: bool | None = None) -> Any:
        retries = self.settings.max_retries if max_retries is None else max_retries
        fallback = self.settings.fallback_to_offline if fallback is None else fallback
        node, task_id = _current_task()
        start = time.time()
        t0 = time.perf_counter()
        # The timeout is the budget of the whole call: its attempts and the pauses between them share it.
        budget = self.settings.timeout_s
        deadline = t0 + budget
        call = ModelCall(task=task, provider=self.provider, model=self.model_name, started_at=start,
                         latency_ms=0.0, attempts=0, node=node, task_id=task_id)
        last_error = "no attempt made"
        for number in range(retries + 1):
            remaining = deadline - time.perf_counter()
            if remaining <= 0:  # the last attempt used the budget up (its client timed out at the same moment)
                last_error = f"timed out: no answer within the call's {budget:g} s budget (retries included)"
                break
            call.attempts = number + 1
            try:
                result, raw = _within(remaining, attempt)
            except AttemptTimedOut:
                last_error = f"timed out: no answer within the call's {budget:g} s budget (retries included)"
                break
            except (MalformedOutput, ValidationError) as exc:
                last_error = f"malformed output: {str(exc).splitlines()[0][:240]}"
            except Exception as exc:  # noqa: BLE001 - any provider failure is reported, never raised raw
                last_error = _describe(exc)
                if not _retryable(exc):
                    break
            else:
                usage = getattr(raw, "usage_metadata", None) or {}
                call.input_tokens = int(usage.get("input_tokens") or 0)
                call.output_tokens = int(usage.get("output_tokens") or 0)
                call.latency_ms = (time.perf_counter() - t0) * 1000
                self.ledger.record(call)
                return result
            log.warning("model call %s attempt %d failed: %s", task, number + 1, last_error)
            pause = self.settings.backoff_s * (2 ** number)
            if number < retries and time.perf_counter() + pause >= deadline:
                last_error += f" (no time left in the call's {budget:g} s budget for another attempt)"
                break
            if number < retries:
                self._sleep(pause)
        call.ok = False
        call.error = last_error
        call.latency_ms = (time.perf_counter() - t0) * 1000
        if fallback:
            call.fallback = True
            self.ledger.record(call)
            return self._offline(task, offline)
        self.ledger.record(call)
        raise ModelCallError(f"{task}: {self.provider} model failed after {call.attempts} attempt(s): {last_error}")

    def ping(self) -> tuple[float, str]:
        """Ask the model for a one-word answer: (seconds taken, answer). Raises ModelCallError."""
        from langchain_core.messages import HumanMessage

        t0 = time.perf_counter()
        if self.chat_model is None:
            return 0.0, "offline engine ready"
        try:
            reply = self.chat_model.invoke([HumanMessage("Reply with the single word: ready")])
        except Exception as exc:  # noqa: BLE001
            raise ModelCallError(_describe(exc)) from exc
        return time.perf_counter() - t0, str(reply.content)[:200]
