"""A scripted chat model for tests: it answers each structured call from a responder, never the network."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import ConfigDict, PrivateAttr

# responder(schema_name, messages) -> dict of tool arguments, a plain text reply (str), or raises
Responder = Callable[[str | None, list[BaseMessage]], Any]


class ScriptedChatModel(BaseChatModel):
    """Answers tool-bound calls with `responder`; counts calls; reports token usage like a real provider."""

    model_config = ConfigDict(arbitrary_types_allowed=True)
    responder: Responder
    tool_name: str | None = None
    model_name: str = "scripted-fake"
    _log: list = PrivateAttr(default_factory=list)
    _lock: Any = PrivateAttr(default_factory=threading.Lock)

    @property
    def _llm_type(self) -> str:
        return "scripted-fake"

    @property
    def calls(self) -> list[str | None]:
        return self._log

    def bind_tools(self, tools: list[Any], **kwargs: Any):  # noqa: ARG002 - tool_choice is implied
        name = convert_to_openai_tool(tools[0])["function"]["name"]
        clone = self.model_copy(update={"tool_name": name})
        clone._log = self._log
        clone._lock = self._lock
        return clone

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                  run_manager: CallbackManagerForLLMRun | None = None, **kwargs: Any) -> ChatResult:
        with self._lock:
            self._log.append(self.tool_name)
        answer = self.responder(self.tool_name, messages)
        usage = {"input_tokens": 100, "output_tokens": 40, "total_tokens": 140}
        if isinstance(answer, dict) and self.tool_name:
            message = AIMessage(content="", tool_calls=[{"name": self.tool_name, "args": answer, "id": "call-1"}],
                                usage_metadata=usage)
        else:
            message = AIMessage(content=str(answer), usage_metadata=usage)
        return ChatResult(generations=[ChatGeneration(message=message)])
