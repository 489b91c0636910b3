"""A local stand-in for the LangSmith API on 127.0.0.1: accepts every request and records it."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class RecordedRequest:
    method: str
    path: str
    api_key: str | None
    body: bytes


class LangSmithStub:
    """GET /info answers an empty info object (the client's defaults); every POST or PATCH (runs, batches,
    multipart uploads) gets 202 and is kept in `requests`."""

    def __init__(self) -> None:
        self.requests: list[RecordedRequest] = []
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # keep test output clean
                pass

            def _record_and_answer(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                stub.requests.append(RecordedRequest(self.command, self.path, self.headers.get("x-api-key"), body))
                data = json.dumps({}).encode()
                self.send_response(200 if self.command == "GET" else 202)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_PATCH = _record_and_answer  # noqa: N815 - the http.server naming

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def run_uploads(self) -> list[RecordedRequest]:
        """The requests that carried run data (not the client's GET /info)."""
        return [r for r in self.requests if r.method in ("POST", "PATCH") and r.path.startswith("/runs")]

    def __enter__(self) -> LangSmithStub:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.shutdown()
        self.server.server_close()
