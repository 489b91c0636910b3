"""Reading exception text: error patterns for de-duplication, exception classes and the deepest cause."""

from __future__ import annotations

import re

UUID_RE = re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b", re.IGNORECASE)
TIMESTAMP_RE = re.compile(
    r"\b\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(?::\d{2})?(?:[.,]\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})?"
    r"|\b\d{2}:\d{2}:\d{2}[.,]\d{3}\b"
    r"|\b1[5-9]\d{11}\b")  # epoch milliseconds
PATH_RE = re.compile(
    r"\b[a-z][a-z0-9+.-]*://[^\s'\"<>),;]+"  # hdfs://, s3a://, file:/// and other URIs
    r"|(?<![\w.:/])(?:/[\w.@+=~-]+){2,}/?"  # unix paths with at least two segments
    r"|\b[a-z]:\\(?:[\w.@ -]+\\)*[\w.@-]+", re.IGNORECASE)
HEX_ID_RE = re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{16,}\b", re.IGNORECASE)
NUMBER_RE = re.compile(r"\d+(?:\.\d+)?")
SPACE_RE = re.compile(r"[ \t]+")
MAX_PATTERN_CHARS = 4000

# Exception classes, qualified or bare: "org.apache.kafka.common.errors.TimeoutException", "KryoException".
EXCEPTION_CLASS_RE = re.compile(r"\b((?:[a-z_$][\w$]*\.)+[A-Z][\w$]*(?:Exception|Error|Throwable|Failure))\b"
                                r"|\b([A-Z][\w$]*(?:Exception|Error))\b")
CAUSED_BY_RE = re.compile(r"caused by\s*:?", re.IGNORECASE)
# "2024-03-11 02:14:55,118 WARN  org.apache.flink.runtime.taskmanager.Task [] - " and similar prefixes.
LOG_PREFIX_RE = re.compile(r"^\s*\[?\d{4}-\d{2}-\d{2}[ T][\d:.,]+Z?\]?\s*(?:\[[^\]]*\]\s*)?"
                           r"(?:(?:TRACE|DEBUG|INFO|WARN|WARNING|ERROR|FATAL)\s+)?"
                           r"(?:[\w$.]+\s*(?:\[[^\]]*\]\s*)?-\s+)?")
FRAME_RE = re.compile(r"^\s*(at\s+[\w$.<>]+\(.*\)|\.\.\.\s*\d+\s+more)\s*$")
GENERIC_WRAPPERS = frozenset({
    "Exception", "RuntimeException", "IOException", "JobException", "FlinkRuntimeException", "FlinkException",
    "ExecutionException", "CompletionException", "JobExecutionException", "UncheckedIOException",
    "WrappingRuntimeException", "SerializedThrowable", "ProgramInvocationException", "Error", "Throwable",
})


def extract_error_pattern(message: str) -> str:
    """The stable part of an error message: UUIDs, timestamps and paths first, then the remaining numbers.

    The order matters: replacing numbers first would break every UUID and timestamp apart before their
    own rules could match, which is what the seed's original did.
    """
    text = UUID_RE.sub("<UUID>", message or "")
    text = TIMESTAMP_RE.sub("<TIMESTAMP>", text)
    text = PATH_RE.sub("<PATH>", text)
    text = HEX_ID_RE.sub("<ID>", text)
    text = NUMBER_RE.sub("<NUM>", text)
    lines = [SPACE_RE.sub(" ", line).strip() for line in text.splitlines()]
    return "\n".join(line for line in lines if line)[:MAX_PATTERN_CHARS]


def exception_classes(text: str) -> list[str]:
    """Exception class names in order of appearance, qualified where the text qualifies them."""
    seen: list[str] = []
    for match in EXCEPTION_CLASS_RE.finditer(text or ""):
        name = match.group(1) or match.group(2)
        if name not in seen:
            seen.append(name)
    return seen


def simple_name(error_type: str | None) -> str:
    """`org.apache.flink.runtime.JobException` → `JobException`; blank stays blank."""
    return (error_type or "").strip().rsplit(".", 1)[-1].rsplit("$", 1)[-1]


def is_generic_wrapper(error_type: str | None) -> bool:
    """A wrapper type says little about the root cause, so retrieval does not filter on it."""
    return simple_name(error_type) in GENERIC_WRAPPERS or not simple_name(error_type)


def deepest_cause(text: str) -> str:
    """The last `Caused by:` section without its stack frames: where the root cause usually is."""
    parts = CAUSED_BY_RE.split(text or "")
    tail = parts[-1] if len(parts) > 1 else ""
    lines = [line for line in tail.splitlines() if line.strip() and not FRAME_RE.match(line)]
    return "\n".join(lines[:6]).strip()


def root_exception(text: str, error_type: str | None = None) -> str:
    """The most specific exception class the text names: the deepest cause's, else the first one."""
    deepest = exception_classes(deepest_cause(text))
    if deepest:
        return deepest[0]
    named = exception_classes(text)
    specific = [name for name in named if not is_generic_wrapper(name)]
    return (specific or named or [error_type or ""])[0]


def headline(text: str, limit: int = 200) -> str:
    """The first meaningful line of an exception text without its log prefix, for tables and titles."""
    for line in (text or "").splitlines():
        line = LOG_PREFIX_RE.sub("", line, count=1).strip() if LOG_PREFIX_RE.match(line) else line.strip()
        if line and not FRAME_RE.match(line):
            return line if len(line) <= limit else line[: limit - 1] + "…"
    return ""
