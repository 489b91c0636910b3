"""Run the coder agent's model-written Python over data files in a locked-down child process, with one-line reasons.

Two layers: bubblewrap's namespaces (sandbox_jail.py) mount only the interpreter, the system libraries and the run's
folders, with no network; inside, an audit hook (sandbox_guard.py) refuses what the jail would let fail obscurely and
names the line that tried. Without a working bubblewrap the code does not run, unless the caller allows the audit
hook alone (a development mode, weaker: the program can then read what the app's user can)."""

from __future__ import annotations

import ast
import contextlib
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from pipelines.deep_research import sandbox_jail
from pipelines.deep_research.sandbox_guard import GUARD

DEFAULT_ALLOWED_IMPORTS: frozenset[str] = frozenset({
    "math", "statistics", "json", "csv", "re", "datetime", "collections", "itertools", "functools", "decimal",
    "fractions", "operator", "string", "textwrap", "pandas", "numpy", "openpyxl"})

KINDS = ("ok", "timeout", "memory", "forbidden_import", "forbidden_call", "network", "syntax", "error", "unavailable")
JAILED, HOOK_ONLY = "bubblewrap + audit hook", "audit hook only"  # how a program ran: SandboxResult.isolation


@dataclass(frozen=True)
class SandboxLimits:
    """Wall-clock seconds, the child's address space (RLIMIT_AS), the stdout kept, and the modules user code may import."""

    timeout_s: float = 10.0
    memory_mb: int = 512
    max_output_chars: int = 20_000
    allowed_imports: frozenset[str] = DEFAULT_ALLOWED_IMPORTS


@dataclass(frozen=True)
class SandboxResult:
    """`kind` is one of KINDS; `error` is '' when ok, else one line a user (or the model) can act on."""

    ok: bool
    stdout: str
    kind: str
    error: str
    duration_ms: float
    isolation: str = ""  # JAILED or HOOK_ONLY; '' when nothing ran


_USER_FILE = "<code>"  # the file name tracebacks give the user's code, so errors point at its lines
_MARKER = "@@sandbox-result@@ "  # starts the child's one-line JSON report on stderr
_FILE_SIZE_LIMIT_MB = 64  # a runaway writer fills at most this much of the disk per file
_STDERR_TAIL_BYTES = 65_536

_NAMES_REFUSED = {**{name: f"{name}() is not allowed" for name in (
    "__import__", "eval", "exec", "compile", "globals", "locals", "vars", "breakpoint")},
    **{name: f"'{name}' is not allowed" for name in ("__builtins__", "__loader__", "__spec__")}}
# Dunders that lead nowhere: the others (__class__, __subclasses__, __globals__...) walk to the interpreter's insides.
_HARMLESS_DUNDERS = frozenset({"__name__", "__qualname__", "__doc__", "__module__", "__version__", "__init__",
                               "__len__", "__str__", "__repr__"})
_FRAME_ATTRIBUTES = frozenset({"tb_frame", "f_back", "f_globals", "f_locals", "f_builtins", "f_code", "gi_frame",
                               "gi_code", "cr_frame", "ag_frame", "co_code"})


def _refused(kind: str, error: str, duration_ms: float = 0.0) -> SandboxResult:
    return SandboxResult(ok=False, stdout="", kind=kind, error=error, duration_ms=duration_ms)


def _static_refusals(tree: ast.AST, allowed_imports: frozenset[str]) -> Iterator[tuple[int, int, str, str]]:
    """(line, end column, kind, message) for each thing in the code the sandbox would refuse."""
    for node in ast.walk(tree):
        where, modules, attributes = (getattr(node, "lineno", 0), getattr(node, "end_col_offset", 0)), [], []
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level:
            yield *where, "forbidden_import", "relative imports are not allowed"
        elif isinstance(node, ast.ImportFrom):
            modules = [node.module or ""]
        elif isinstance(node, ast.Attribute):
            attributes = [node.attr]
        elif isinstance(node, ast.Name) and node.id in _NAMES_REFUSED:
            yield *where, "forbidden_call", _NAMES_REFUSED[node.id]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            texts = [arg.value for arg in node.args if isinstance(arg, ast.Constant) and isinstance(arg.value, str)]
            if node.func.id == "__import__":
                modules = texts[:1]  # "import of 'os'" tells the model more than "__import__()"
            elif node.func.id in ("getattr", "setattr", "delattr", "hasattr"):
                attributes = texts
        for top in (module.partition(".")[0] for module in modules):
            if top not in allowed_imports and top != "__future__":
                yield *where, "forbidden_import", f"import of '{top}' is not allowed"
        for name in attributes:
            if name in _FRAME_ATTRIBUTES or (name.startswith("__") and name.endswith("__") and name not in _HARMLESS_DUNDERS):
                yield *where, "forbidden_call", f"access to '{name}' is not allowed"


def check_code(code: str, allowed_imports: frozenset[str] = DEFAULT_ALLOWED_IMPORTS) -> SandboxResult | None:
    """Static check before running: syntax, imports outside `allowed_imports`, and the usual escape hatches
    (eval/exec/compile/__import__, dunder and frame attributes). None when the code may run."""
    try:
        tree = ast.parse(code, filename=_USER_FILE)
        compile(tree, _USER_FILE, "exec", dont_inherit=True)  # the parser lets `return` outside a function through
    except SyntaxError as exc:
        return _refused("syntax", f"SyntaxError: {exc.msg} (line {exc.lineno})")
    except ValueError as exc:  # null bytes in the source
        return _refused("syntax", f"SyntaxError: {exc}")
    refusals = list(_static_refusals(tree, allowed_imports))
    if not refusals:
        return None
    # the first on the first line; of `__import__('os')`'s two refusals, the one that names the module
    line, _, kind, message = min(refusals, key=lambda refusal: (refusal[0], refusal[2] != "forbidden_import", refusal[1]))
    allowed = "; allowed: " + ", ".join(sorted(allowed_imports)) if message.startswith("import of") else ""
    return _refused(kind, f"{message} (line {line}){allowed}")


def _child_env(workdir: Path, tmpdir: Path) -> dict[str, str]:
    """The child's whole environment: nothing of the parent's (API keys, proxies) gets through."""
    return {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(workdir), "LANG": "C.UTF-8", "TMPDIR": str(tmpdir),
            # one BLAS thread: fewer address-space reservations under RLIMIT_AS, no oversubscribed cores
            "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def _copy_files(files: Mapping[str, Path | bytes], workdir: Path) -> str:
    """Copies the files into the working directory; returns what went wrong, or ''."""
    for name, source in files.items():
        if name in ("", ".", "..") or any(c in name for c in ("/", "\\", "\0")):
            return f"file name {name!r} is not allowed: use a plain file name without folders"
        try:
            if isinstance(source, (bytes, bytearray, memoryview)):
                (workdir / name).write_bytes(source)
            else:
                shutil.copyfile(source, workdir / name)
        except OSError as exc:
            return f"could not copy {name!r} into the sandbox: {exc.strerror or exc}"
    return ""


def _wait_or_kill(proc: subprocess.Popen, timeout_s: float, jail_info: Path | None) -> bool:
    """Waits for the child; True when it ran out of time. Either way nothing of its session survives."""
    try:
        proc.wait(timeout=timeout_s)
        return False
    except subprocess.TimeoutExpired:
        jailed = sandbox_jail.child_pid(jail_info) if jail_info is not None else None
        if jailed is not None:  # the jailed program first, so that bwrap reaps it and leaves no zombie behind
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(jailed, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=1)
        return True
    finally:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def _read_stdout(path: Path, cap: int, dropped: int | None) -> str:
    with open(path, "rb") as stream:
        raw = stream.read((cap + 1) * 4 + 1)  # enough bytes for cap + 1 characters of any UTF-8
        whole = not stream.read(1)
    text = raw.decode("utf-8", errors="replace")
    if len(text) <= cap:
        return text
    total = f" of {len(text) + dropped:,}" if whole and dropped is not None else ""
    return text[:cap] + f"\n[output cut: showing the first {cap:,}{total} characters]"


def _read_stderr_tail(path: Path) -> tuple[dict | None, str]:
    """The child's report, and the last other line it wrote to stderr."""
    with open(path, "rb") as stream:
        stream.seek(max(0, path.stat().st_size - _STDERR_TAIL_BYTES))
        lines = [line for line in stream.read().decode("utf-8", errors="replace").splitlines() if line.strip()]
    for line in reversed(lines):
        if line.startswith(_MARKER):
            with contextlib.suppress(ValueError):
                return json.loads(line[len(_MARKER):]), ""
    return None, lines[-1].strip()[:300] if lines else ""


def _outcome(returncode: int, timed_out: bool, root: Path, limits: SandboxLimits, started: float,
             isolation: str) -> SandboxResult:
    report, last_line = _read_stderr_tail(root / "stderr")
    stdout = _read_stdout(root / "stdout", limits.max_output_chars, report.get("dropped", 0) if report else None)
    duration_ms = (time.monotonic() - started) * 1000
    out_of_memory = f"ran out of memory (limit {limits.memory_mb} MB)"
    out_of_time = f"stopped after {limits.timeout_s:g} s (time limit)"
    if timed_out:
        kind, error = "timeout", out_of_time
    elif report is not None:
        kind = report.get("kind") if report.get("kind") in KINDS else "error"
        error = out_of_memory if kind == "memory" else str(report.get("error", ""))
    elif returncode == -signal.SIGXCPU:  # the CPU limit, a little above the wall-clock one
        kind, error = "timeout", out_of_time
    elif returncode in (-signal.SIGKILL, -signal.SIGSEGV, -signal.SIGABRT, -signal.SIGBUS) or "MemoryError" in last_line:
        kind, error = "memory", out_of_memory  # native code that cannot allocate under RLIMIT_AS dies this way
    elif returncode < 0:
        kind, error = "error", f"the program was stopped by signal {signal.Signals(-returncode).name}"
    else:
        kind, error = "error", f"the program stopped unexpectedly (exit status {returncode})" + (
            f": {last_line}" if last_line else "")
    return SandboxResult(ok=kind == "ok", stdout=stdout, kind=kind, error="" if kind == "ok" else error,
                         duration_ms=duration_ms, isolation=isolation)


def run_python(code: str, *, files: Mapping[str, Path | bytes] | None = None,
               limits: SandboxLimits = SandboxLimits(),  # noqa: B008 - frozen, so sharing it is safe
               allow_hook_only: bool = False) -> SandboxResult:
    """Run `code` in a fresh temporary working directory holding copies of `files` (plain file name -> path or
    bytes) and return what it printed. Never raises for anything the code does, and never outlives the time limit.
    Runs inside bubblewrap; where that is missing or cannot start, refuses (kind 'unavailable') unless
    `allow_hook_only`, which runs the program under the audit hook alone."""
    started = time.monotonic()
    refused = check_code(code, limits.allowed_imports)
    if refused is not None:
        return refused
    bwrap, missing = sandbox_jail.locate()
    if missing and not allow_hook_only:
        return _refused("unavailable", missing, (time.monotonic() - started) * 1000)
    with tempfile.TemporaryDirectory(prefix="sandbox-", ignore_cleanup_errors=True) as root_name:
        root = Path(root_name).resolve()  # the jail mounts real paths: the guard must see the same ones
        workdir, tmpdir = root / "work", root / "tmp"
        workdir.mkdir()
        tmpdir.mkdir()
        problem = _copy_files(files or {}, workdir)
        if problem:
            return _refused("error", problem, (time.monotonic() - started) * 1000)
        job = {"code": code, "workdir": str(workdir), "tmpdir": str(tmpdir), "allowed": sorted(limits.allowed_imports),
               "memory_mb": limits.memory_mb, "cpu_s": math.ceil(limits.timeout_s) + 1, "file_mb": _FILE_SIZE_LIMIT_MB,
               "max_output_chars": limits.max_output_chars, "user_file": _USER_FILE, "marker": _MARKER}
        (root / "job.json").write_text(json.dumps(job), encoding="utf-8")
        env = _child_env(workdir, tmpdir)
        # rlimits are set by the guard, not preexec_fn, which is unsafe in a threaded parent (Streamlit)
        command = [sys.executable, "-I", "-B", "-X", "utf8", "-c", GUARD, str(root / "job.json")]
        # stdout and stderr go to files, not pipes: nothing to drain, and a flood of output costs no parent memory
        with open(root / "stdout", "wb") as stdout, open(root / "stderr", "wb") as stderr, \
                open(root / "jail.json", "wb") as info:
            if bwrap is not None:
                command = sandbox_jail.jail_command(bwrap, command, writable=[workdir, tmpdir], cwd=workdir, env=env,
                                                    readable_files=[root / "job.json"], info_fd=info.fileno())
            try:
                proc = subprocess.Popen(command, cwd=workdir, env=env, stdin=subprocess.DEVNULL, stdout=stdout,
                                        stderr=stderr, start_new_session=True, close_fds=True,
                                        pass_fds=(info.fileno(),) if bwrap is not None else ())
            except OSError as exc:
                return _refused("error", f"could not start Python: {exc.strerror or exc}", (time.monotonic() - started) * 1000)
            timed_out = _wait_or_kill(proc, limits.timeout_s, root / "jail.json" if bwrap is not None else None)
        returncode = proc.returncode if bwrap is None else sandbox_jail.exit_status(proc.returncode)
        return _outcome(returncode, timed_out, root, limits, started, JAILED if bwrap is not None else HOOK_ONLY)
