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
    ("text", content) | ("slow", seconds) | ("error", status) | ("garbage", raw_bytes) | ("hold", then): "hold"
    keeps the request waiting until the test lets it go (`let_go`), then answers as the behaviour `then` (a tuple)
    would: a model exactly as slow as the test wants, whatever the machine's speed. The last behaviour repeats when
    the script ends."""

    def __init__(self, script: list[tuple[str, Any]]) -> None:
        self.script = deque(script)
        self.requests: list[dict] = []
        self._arrived = threading.Condition()
        self._gate = threading.Semaphore(0)
        self._open = threading.Event()  # once set, held requests are answered at once
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # keep test output clean
                pass

            def do_POST(self) -> None:  # noqa: N802 - the http.server naming
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                with stub._arrived:
                    stub.requests.append({"path": self.path, "body": body, "auth": self.headers.get("Authorization")})
                    stub._arrived.notify_all()
                kind, value = stub.script.popleft() if len(stub.script) > 1 else stub.script[0]
                tools = body.get("tools") or [{"function": {"name": "unknown"}}]
                name = tools[0]["function"]["name"]
                if kind == "hold":
                    while not stub._open.is_set() and not stub._gate.acquire(timeout=0.05):
                        pass
                    kind, value = value or ("valid", {})
                if kind == "garbage":
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(value)))
                    self.end_headers()
                    self.wfile.write(value)
                    return
                if kind == "slow":
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

    def wait_for_requests(self, count: int, timeout: float = 60.0) -> None:
        """Wait until `count` requests have arrived (held ones included)."""
        with self._arrived:
            assert self._arrived.wait_for(lambda: len(self.requests) >= count, timeout), \
                f"{len(self.requests)} of {count} requests arrived"

    def let_go(self, count: int = 1) -> None:
        """Let `count` held requests be answered."""
        self._gate.release(count)

    def open(self) -> None:
        """Answer every held request, now and from now on."""
        self._open.set()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self) -> OpenAIStub:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.open()  # nothing stays held behind a test that ended
        self.server.shutdown()
        self.server.server_close()
