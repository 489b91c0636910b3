"""Optional web search: SearxNG and Tavily against a real HTTP stub on 127.0.0.1, and every failure as one clean line."""

import json
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import pytest

from pipelines.deep_research.web_search import WebResult, WebSearchError, WebSearchSettings, describe, web_search

KEY = "tvly-SECRET-key-123"

SEARX_REPLY = {"query": "q", "results": [
    {"title": "<b>Flink</b> checkpoints", "url": "https://flink.apache.org/docs/checkpoints",
     "content": "Checkpoints make <em>state</em>\n\n   fault tolerant &amp; consistent.", "engines": ["ddg"],
     "category": "general"},
    {"title": "Same page again", "url": "https://flink.apache.org/docs/checkpoints", "content": "duplicate",
     "engines": ["bing"], "category": "general"},
    {"title": "No snippet", "url": "https://example.org/empty", "content": "", "engines": ["ddg"], "category": "general"},
    {"title": "Not the web", "url": "ftp://example.org/file", "content": "ftp text", "engines": ["ddg"], "category": "general"},
    {"title": "Script", "url": "https://example.org/x", "content": "<script>alert(1)</script><p>Plain words</p>",
     "engines": ["ddg"], "category": "general"},
]}

TAVILY_REPLY = {"query": "q", "results": [
    {"title": "Tavily one", "url": "https://a.example/1", "content": "First  snippet", "score": 0.9},
    {"title": "Tavily dup", "url": "https://a.example/1", "content": "again", "score": 0.8},
    {"title": "No url", "url": "", "content": "orphan", "score": 0.7},
    {"title": "Long", "url": "https://b.example/2", "content": "word " * 1000, "score": 0.5},
]}


class _Stub(BaseHTTPRequestHandler):
    """Behaviour chosen by the first path segment: ok, tavily, error, badjson, slow."""

    seen: list[dict] = []

    def log_message(self, *args):  # keep pytest output quiet
        pass

    def _reply(self, status: int, body: bytes, content_type: str = "application/json") -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (the timeout test)
            pass

    def _handle(self, method: str) -> None:
        parts = urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode() if length else ""
        type(self).seen.append({"method": method, "path": parts.path, "query": parse_qs(parts.query),
                                "headers": dict(self.headers), "body": body})
        mode = parts.path.strip("/").split("/")[0]
        if mode == "slow":
            time.sleep(1.5)
            self._reply(200, json.dumps(SEARX_REPLY).encode())
        elif mode == "error":
            self._reply(500, b"internal error with secret " + KEY.encode(), "text/plain")
        elif mode == "badjson":
            self._reply(200, b"<html>not json</html>", "text/html")
        elif mode == "tavily":
            self._reply(200, json.dumps(TAVILY_REPLY).encode())
        else:
            self._reply(200, json.dumps(SEARX_REPLY).encode())

    def do_GET(self):
        self._handle("GET")

    def do_POST(self):
        self._handle("POST")


@pytest.fixture
def stub():
    _Stub.seen = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Stub)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", _Stub.seen
    server.shutdown()
    server.server_close()


@pytest.fixture
def closed_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def searx(url: str, **kw) -> WebSearchSettings:
    return WebSearchSettings(provider="searxng", searxng_url=url, **kw)


def tavily(url: str, **kw) -> WebSearchSettings:
    return WebSearchSettings(provider="tavily", tavily_api_key=KEY, tavily_url=url, **kw)


def test_searxng_results_are_mapped_cleaned_and_deduplicated(stub):
    base, seen = stub
    results = web_search("flink checkpoints", searx(base + "/ok"))
    assert results == [
        WebResult("Flink checkpoints", "https://flink.apache.org/docs/checkpoints",
                  "Checkpoints make state fault tolerant & consistent.", "searxng"),
        WebResult("Script", "https://example.org/x", "Plain words", "searxng"),
    ]
    (request,) = seen
    assert request["path"] == "/ok/search"  # the instance URL gets the JSON API path
    assert request["query"]["format"] == ["json"] and request["query"]["q"] == ["flink checkpoints"]


def test_searxng_url_already_ending_in_search_is_used_as_is(stub):
    base, seen = stub
    assert len(web_search("q", searx(base + "/ok/search/"))) == 2
    assert seen[0]["path"] == "/ok/search"


def test_tavily_results_are_mapped_and_the_key_is_sent(stub):
    base, seen = stub
    results = web_search("  what is   flink ", tavily(base + "/tavily", max_results=3))
    assert [(r.title, r.url, r.engine) for r in results] == [("Tavily one", "https://a.example/1", "tavily"),
                                                            ("Long", "https://b.example/2", "tavily")]
    assert results[0].content == "First snippet"
    assert len(results[1].content) == 2000 and "  " not in results[1].content
    (request,) = seen
    assert request["method"] == "POST" and request["path"] == "/tavily/search"
    assert request["headers"]["Authorization"] == f"Bearer {KEY}"
    assert json.loads(request["body"]) == {"query": "what is flink", "max_results": 3}
    assert all(KEY not in repr(r) for r in results)


@pytest.mark.parametrize("make,name", [(searx, "SearxNG"), (tavily, "Tavily")])
@pytest.mark.parametrize("mode,why", [("error", "HTTP 500"), ("badjson", "not JSON")])
def test_http_error_and_bad_json_name_provider_and_host(stub, make, name, mode, why):
    base, _ = stub
    with pytest.raises(WebSearchError) as err:
        web_search("q", make(f"{base}/{mode}"))
    message = str(err.value)
    assert message.startswith(f"{name} at {base}:") and why in message
    assert KEY not in message and "\n" not in message


@pytest.mark.parametrize("make,name", [(searx, "SearxNG"), (tavily, "Tavily")])
def test_connection_refused_names_provider_and_host(closed_port, make, name):
    with pytest.raises(WebSearchError, match=rf"^{name} at http://127\.0\.0\.1:{closed_port}: connection refused") as err:
        web_search("q", make(f"http://127.0.0.1:{closed_port}"))
    assert KEY not in str(err.value)


@pytest.mark.parametrize("make,name", [(searx, "SearxNG"), (tavily, "Tavily")])
def test_slow_server_times_out(stub, make, name):
    base, _ = stub
    started = time.monotonic()
    with pytest.raises(WebSearchError, match=rf"^{name} at {base}: no answer within 0\.5 s") as err:
        web_search("q", make(base + "/slow", timeout_s=0.5))
    assert time.monotonic() - started < 1.4
    assert KEY not in str(err.value)


@pytest.mark.parametrize("make,name", [(searx, "SearxNG"), (tavily, "Tavily")])
def test_credentials_in_url_are_not_echoed(closed_port, make, name):
    with pytest.raises(WebSearchError) as err:
        web_search("q", make(f"http://alice:hunter2@127.0.0.1:{closed_port}/x"))
    message = str(err.value)
    assert message.startswith(f"{name} at http://127.0.0.1:{closed_port}:")
    assert "alice" not in message and "hunter2" not in message and KEY not in message


def test_off_makes_no_request_and_blank_query_returns_nothing(stub):
    base, seen = stub
    assert web_search("flink", WebSearchSettings()) == []
    assert web_search("flink", WebSearchSettings(provider="off", searxng_url=base, tavily_api_key=KEY)) == []
    assert web_search("   \n", searx(base + "/ok")) == []
    assert web_search("", tavily(base + "/tavily")) == []
    assert seen == []


@pytest.mark.parametrize("settings,fragment", [
    (WebSearchSettings(provider="searxng", searxng_url=""), "SearxNG: the instance URL must start with http"),
    (WebSearchSettings(provider="searxng", searxng_url="ftp://host"), "SearxNG: the instance URL must start with http"),
    (WebSearchSettings(provider="searxng", searxng_url="http://"), "SearxNG: the instance URL must start with http"),
    (WebSearchSettings(provider="tavily", tavily_api_key=""), "Tavily: no API key set"),
    (WebSearchSettings(provider="tavily", tavily_api_key=KEY, tavily_url="api.tavily.com"), "Tavily: the API URL must start"),
    (WebSearchSettings(provider="bing"), "unknown provider 'bing'"),
])
def test_invalid_settings_raise_a_clear_error_without_network(settings, fragment):
    with pytest.raises(WebSearchError) as err:
        web_search("q", settings)
    assert fragment in str(err.value) and KEY not in str(err.value)


def test_describe_and_repr_hide_secrets():
    assert describe(WebSearchSettings()) == "off"
    assert describe(searx("http://bob:pw@search.local:8888/searx/")) == "SearxNG at http://search.local:8888"
    assert describe(searx("nonsense")) == "SearxNG (no valid URL set)"
    assert describe(WebSearchSettings(provider="tavily", tavily_api_key=KEY)) == "Tavily"
    assert describe(WebSearchSettings(provider="tavily")) == "Tavily (no API key set)"
    text = repr(tavily("http://bob:pw@127.0.0.1:1"))
    assert KEY not in text and "pw@" not in text
