"""Optional web search for deep research: off by default, SearxNG or Tavily when the user turns it on."""

from __future__ import annotations

import functools
import warnings
from dataclasses import dataclass
from urllib.parse import urlsplit

import httpx
import requests
from bs4 import BeautifulSoup, MarkupResemblesLocatorWarning

MAX_CONTENT_CHARS = 2000
MAX_TITLE_CHARS = 300
_MAX_RESULTS_CAP = 20  # Tavily refuses more than 20; SearxNG returns about 10 a page anyway


@dataclass(frozen=True)
class WebSearchSettings:
    provider: str = "off"  # "off" | "searxng" | "tavily"
    searxng_url: str = ""
    tavily_api_key: str = ""  # never logged, never in an error message or a result
    tavily_url: str = "https://api.tavily.com"
    max_results: int = 5
    timeout_s: float = 10.0

    def __repr__(self) -> str:
        # the dataclass repr would print the key wherever settings end up in a log or a traceback
        return (f"WebSearchSettings(provider={self.provider!r}, searxng_url={_origin(self.searxng_url) or ''!r}, "
                f"tavily_api_key={'***' if self.tavily_api_key else ''!r}, tavily_url={_origin(self.tavily_url) or ''!r}, "
                f"max_results={self.max_results!r}, timeout_s={self.timeout_s!r})")


@dataclass(frozen=True)
class WebResult:
    title: str
    url: str
    content: str  # the snippet text, whitespace-normalised, cut to MAX_CONTENT_CHARS
    engine: str  # "searxng" | "tavily"


class WebSearchError(RuntimeError):
    """One line a user can act on: which provider, which host (no key, no user:password@ in URLs), why."""


def _origin(url: str) -> str | None:
    """scheme://host[:port] of an http(s) URL, without credentials or path; None when the URL is not usable."""
    try:
        parts = urlsplit((url or "").strip())
        port = parts.port  # raises on a non-numeric or out-of-range port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return f"{parts.scheme}://{host}" + (f":{port}" if port is not None else "")


def _provider(settings: WebSearchSettings) -> str:
    return (settings.provider or "off").strip().lower()


def describe(settings: WebSearchSettings) -> str:
    """What the settings page shows: "off", "SearxNG at http://host:port" or "Tavily"."""
    provider = _provider(settings)
    if provider == "off":
        return "off"
    if provider == "searxng":
        origin = _origin(settings.searxng_url)
        return f"SearxNG at {origin}" if origin else "SearxNG (no valid URL set)"
    if provider == "tavily":
        if not settings.tavily_api_key.strip():
            return "Tavily (no API key set)"
        origin = _origin(settings.tavily_url)
        return "Tavily" if origin == "https://api.tavily.com" else f"Tavily at {origin or '(no valid URL set)'}"
    return f"unknown provider {provider!r}"


def _fail(where: str, why: str) -> WebSearchError:
    # only the origin, a status code and our own words go in: never the key, a full URL or the server's reply text
    return WebSearchError(f"{where}: {why}")


def _plain(text: object, limit: int) -> str:
    """Untrusted engine text as one plain line: tags and entities resolved, whitespace collapsed, cut to limit."""
    value = text if isinstance(text, str) else ""
    if "<" in value or "&" in value:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", MarkupResemblesLocatorWarning)  # a snippet that looks like a URL is fine
            soup = BeautifulSoup(value, "html.parser")
        for tag in soup(["script", "style"]):
            tag.decompose()
        value = soup.get_text(" ")
    return " ".join(value.split())[:limit]


def _clean(raw: list[tuple[object, object, object]], engine: str, limit: int) -> list[WebResult]:
    """Keep http(s) results that have a URL and some content, first occurrence of each URL, at most limit."""
    results: list[WebResult] = []
    seen: set[str] = set()
    for title, url, content in raw:
        url = url.strip() if isinstance(url, str) else ""
        if not _origin(url):
            continue
        key = urlsplit(url)._replace(fragment="").geturl().rstrip("/")
        text = _plain(content, MAX_CONTENT_CHARS)
        if not text or key in seen:
            continue
        seen.add(key)
        results.append(WebResult(_plain(title, MAX_TITLE_CHARS) or url, url, text, engine))
    return results[:limit]


@functools.cache
def _searx_class() -> type:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # langchain-community announces its sunset on import
        from langchain_community.utilities.searx_search import SearxResults, SearxSearchWrapper

    class TimedSearx(SearxSearchWrapper):
        # the wrapper's own request has no timeout, so a stalled instance would hang the research run
        timeout_s: float = 10.0

        def _searx_api_query(self, params: dict) -> SearxResults:
            response = requests.get(self.searx_host, headers=self.headers, params=params,
                                    verify=not self.unsecure, timeout=self.timeout_s)
            response.raise_for_status()
            self._result = SearxResults(response.text)
            return self._result

    return TimedSearx


def _searxng(query: str, settings: WebSearchSettings, limit: int, timeout: float) -> list[WebResult]:
    origin = _origin(settings.searxng_url)
    if not origin:
        raise _fail("SearxNG", "the instance URL must start with http:// or https:// and name a host")
    where = f"SearxNG at {origin}"
    # the JSON API lives at /search; the wrapper requests its host URL as given
    endpoint = settings.searxng_url.strip().rstrip("/")
    endpoint = endpoint if endpoint.endswith("/search") else endpoint + "/search"
    try:
        raw = _searx_class()(searx_host=endpoint, timeout_s=timeout).results(query, num_results=limit)
    except requests.Timeout:
        raise _fail(where, f"no answer within {timeout:g} s; check the instance or raise the timeout") from None
    except requests.ConnectionError:
        raise _fail(where, "connection refused or host unreachable; is the instance running?") from None
    except requests.HTTPError as exc:
        status = exc.response.status_code if exc.response is not None else "?"
        hint = "; enable the json format under search.formats in its settings.yml" if status == 403 else ""
        raise _fail(where, f"HTTP {status}{hint}") from None
    except requests.RequestException:
        raise _fail(where, "the request failed; check the instance URL") from None
    except ValueError:
        raise _fail(where, "the reply is not JSON; enable the json format in its settings.yml") from None
    except (KeyError, TypeError, AttributeError):
        raise _fail(where, "the JSON reply does not have the SearxNG results shape") from None
    rows = [(r.get("title"), r.get("link"), r.get("snippet")) for r in raw if isinstance(r, dict)]
    return _clean(rows, "searxng", limit)


def _tavily(query: str, settings: WebSearchSettings, limit: int, timeout: float) -> list[WebResult]:
    key = settings.tavily_api_key.strip()
    if not key:
        raise _fail("Tavily", "no API key set; add one on the settings page")
    origin = _origin(settings.tavily_url)
    if not origin:
        raise _fail("Tavily", "the API URL must start with http:// or https:// and name a host")
    where = f"Tavily at {origin}"
    try:
        # the key goes in a header, never in the URL, so no httpx message can quote it
        response = httpx.post(settings.tavily_url.strip().rstrip("/") + "/search", timeout=timeout,
                              json={"query": query, "max_results": limit},
                              headers={"Authorization": f"Bearer {key}", "Accept": "application/json"})
        response.raise_for_status()
        payload = response.json()
    except httpx.TimeoutException:
        raise _fail(where, f"no answer within {timeout:g} s; try again or raise the timeout") from None
    except (httpx.ConnectError, httpx.NetworkError):
        raise _fail(where, "connection refused or host unreachable; check the network or the API URL") from None
    except httpx.HTTPStatusError as exc:
        status = exc.response.status_code
        hint = {401: "; the API key was rejected", 403: "; the API key was rejected",
                429: "; rate limited, try again later", 432: "; plan limit reached", 433: "; plan limit reached"}
        raise _fail(where, f"HTTP {status}{hint.get(status, '')}") from None
    except httpx.HTTPError:
        raise _fail(where, "the request failed; check the API URL") from None
    except ValueError:
        raise _fail(where, "the reply is not JSON") from None
    items = payload.get("results") if isinstance(payload, dict) else None
    if not isinstance(items, list):
        raise _fail(where, "the JSON reply has no results list")
    rows = [(r.get("title"), r.get("url"), r.get("content")) for r in items if isinstance(r, dict)]
    return _clean(rows, "tavily", limit)


def web_search(query: str, settings: WebSearchSettings) -> list[WebResult]:
    """Search the web with the configured provider; [] when search is off or the query is blank.

    Raises WebSearchError (one actionable line, no secrets) when the provider cannot answer.
    """
    provider = _provider(settings)
    query = " ".join((query or "").split())
    if provider == "off" or not query:
        return []
    limit = max(1, min(int(settings.max_results), _MAX_RESULTS_CAP))
    timeout = settings.timeout_s if settings.timeout_s > 0 else 10.0
    if provider == "searxng":
        return _searxng(query, settings, limit, timeout)
    if provider == "tavily":
        return _tavily(query, settings, limit, timeout)
    raise _fail("Web search", f"unknown provider {provider!r}; use off, searxng or tavily")
