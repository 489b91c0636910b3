"""Database failures as one-line messages that name the database and never show its password."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from sqlalchemy.exc import SQLAlchemyError


def redact_url(url: str) -> str:
    """`mysql+pymysql://root:pw@host/db` → `mysql+pymysql://***@host/db`: safe for messages and logs."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        return f"{scheme}://***@{rest.split('@', 1)[1]}"
    return url


def first_line(exc: BaseException, secret: str = "") -> str:
    """The first line of the driver's message, with `secret` cut out should a driver repeat it."""
    text = (str(getattr(exc, "orig", None) or exc).strip() or type(exc).__name__).splitlines()[0]
    return text.replace(secret, "***") if secret else text


def sql_errors_as(error: type[Exception], what: Callable[[Any], str]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """A method decorator: a SQLAlchemy error becomes `error("<what(self)> failed: <reason>")`, never a raw
    driver traceback."""
    def decorate(method: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(method)
        def call(self: Any, *args: Any, **kwargs: Any) -> Any:
            try:
                return method(self, *args, **kwargs)
            except SQLAlchemyError as exc:
                raise error(f"{what(self)} failed: {first_line(exc, getattr(self, 'secret', ''))}") from exc
        return call
    return decorate
