"""A local OpenAI-compatible chat-completions server on 127.0.0.1 that answers from a script of behaviours."""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def tool_call_response(name: str, arguments: str, prompt_tokens: int = 42, completion_tokens: int = 17) -> dict:
    return {
        "id": "chatcmpl-stub", "object": "chat.completion", "created": int(time.time()), "model": "stub-model",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
            "role": "assistant", "content": None,
            "tool_calls": [{"id": "call_stub", "type": "function", "function": {"name": name, "arguments": arguments}}]}}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens},
    }


def text_response(content: str) -> dict:
    return {"id": "chatcmpl-stub", "object": "chat.completion", "created": int(time.time()), "model": "stub-model",
            "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}


class OpenAIStub:
    """Each request takes the next behaviour: ("valid", args_dict) | ("malformed", raw_arguments_text) |
    ("text", content) | ("slow", seconds) | ("error", status) | ("held", args_dict): answered like "valid" once
    the test calls release(); `held` counts the requests waiting. The last behaviour repeats when the script ends."""

    def __init__(self, script: list[tuple[str, Any]]) -> None:
        self.script = deque(script)
        self.requests: list[dict] = []
        self.held = 0
        self.gate = threading.Event()
        self._count = threading.Lock()
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # keep test output clean
                pass

            def do_POST(self) -> None:  # noqa: N802 - the http.server naming
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                stub.requests.append({"path": self.path, "body": body, "auth": self.headers.get("Authorization")})
                kind, value = stub.script.popleft() if len(stub.script) > 1 else stub.script[0]
                tools = body.get("tools") or [{"function": {"name": "unknown"}}]
                name = tools[0]["function"]["name"]
                if kind == "held":
                    with stub._count:
                        stub.held += 1
                    stub.gate.wait()
                    self._send(200, tool_call_response(name, json.dumps(value)))
                elif kind == "slow":
                    time.sleep(value)
                    self._send(200, tool_call_response(name, "{}"))
                elif kind == "error":
                    self._send(value, {"error": {"message": "stub failure", "type": "server_error"}})
                elif kind == "malformed":
                    self._send(200, tool_call_response(name, value))
                elif kind == "text":
                    self._send(200, text_response(value))
                else:
                    self._send(200, tool_call_response(name, json.dumps(value)))

            def _send(self, status: int, payload: dict) -> None:
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (its timeout): that is the point of the slow case

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def wait_for_held(self, count: int, timeout: float = 120.0) -> None:
        """Until `count` requests wait at the gate (a worker process is in the middle of a model call)."""
        end = time.monotonic() + timeout
        while self.held < count:
            if time.monotonic() > end:
                raise AssertionError(f"only {self.held} of {count} model calls arrived in {timeout} s")
            time.sleep(0.02)

    def release(self) -> None:
        """Answer the held requests, and every later one at once."""
        self.gate.set()

    def __enter__(self) -> OpenAIStub:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.gate.set()
        self.server.shutdown()
        self.server.server_close()
