"""Run the coder agent's model-written Python over data files in a locked-down child process, with one-line reasons."""

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

DEFAULT_ALLOWED_IMPORTS: frozenset[str] = frozenset({
    "math", "statistics", "json", "csv", "re", "datetime", "collections", "itertools", "functools", "decimal",
    "fractions", "operator", "string", "textwrap", "pandas", "numpy", "openpyxl"})

KINDS = ("ok", "timeout", "memory", "forbidden_import", "forbidden_call", "network", "syntax", "error")


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


# Runs in the child before the user's code. It must do its own imports first: once the guards are in, the
# child can still read its interpreter's files but nothing it does reaches the network, other processes or
# files outside its two folders. An in-process guard is a fence for a careless model, not a jail for an attacker.
_BOOTSTRAP = r'''
import builtins, json, os, resource, sys, _posixsubprocess
job = json.load(open(sys.argv[1], encoding="utf-8"))
MB = 1024 * 1024
resource.setrlimit(resource.RLIMIT_AS, (job["memory_mb"] * MB,) * 2)
resource.setrlimit(resource.RLIMIT_CPU, (job["cpu_s"], job["cpu_s"] + 1))
resource.setrlimit(resource.RLIMIT_FSIZE, (job["file_mb"] * MB,) * 2)
resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
USER_FILE, ALLOWED = job["user_file"], frozenset(job["allowed"]) | {"__future__"}
WRITABLE = tuple(os.path.realpath(p) + os.sep for p in (job["workdir"], job["tmpdir"]))
READABLE = WRITABLE + tuple({os.path.realpath(p) + os.sep for p in (sys.prefix, sys.base_prefix, sys.exec_prefix,
    sys.base_exec_prefix, "/usr/share/zoneinfo", "/usr/lib/zoneinfo", "/usr/share/lib/zoneinfo", "/etc/zoneinfo")})
READABLE_FILES = ("/etc/localtime", "/etc/mime.types", "/dev/null", "/dev/urandom")
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC

def events(kind, what, names):
    return dict.fromkeys(names.split(), (kind, f"{what} is not allowed"))
REFUSED = {**events("network", "network access", "socket.connect socket.bind socket.getaddrinfo socket.gethostbyname "
    "socket.gethostbyname_ex socket.gethostbyaddr socket.getnameinfo socket.sendto socket.sendmsg"),
    **events("forbidden_call", "starting processes", "subprocess.Popen os.system os.exec os.posix_spawn os.spawn os.fork "
    "os.forkpty pty.spawn os.startfile"),
    **events("forbidden_call", "signalling processes", "os.kill os.killpg signal.pthread_kill"),
    **events("forbidden_call", "creating links", "os.link os.symlink"),
    **events("forbidden_call", "changing the working directory", "os.chdir"),
    **events("forbidden_call", "changing resource limits", "resource.setrlimit resource.prlimit"),
    **events("forbidden_call", "inspecting the interpreter", "gc.get_objects gc.get_referrers gc.get_referents")}
PATH_CHANGES = set("os.remove os.rmdir os.mkdir os.rename os.chmod os.chown os.utime os.truncate shutil.rmtree os.chflags "
    "os.setxattr os.removexattr".split())
refusals = []  # kept so that a refusal the program swallows still decides the outcome

class SandboxRefusal(PermissionError):
    kind = "forbidden_call"

def user_line(frame):
    while frame is not None and frame.f_code.co_filename != USER_FILE:
        frame = frame.f_back
    return frame.f_lineno if frame is not None else None

def refuse(kind, message, tail="", record=True):
    line = user_line(sys._getframe(1))
    exc = SandboxRefusal(message + (f" (line {line})" if line else "") + tail)
    exc.kind = kind
    if record:
        refusals.append(exc)
    raise exc

def inside(path, roots):
    return (path + os.sep).startswith(roots)

def made_by_an_import():
    frame = sys._getframe(2)
    while frame is not None:
        if frame.f_code.co_filename == USER_FILE:
            return False
        if frame.f_code.co_filename.startswith("<frozen importlib"):
            return True
        frame = frame.f_back
    return False

def check_open(path, mode, flags):
    if isinstance(path, int):
        return
    path = os.path.abspath(os.fsdecode(os.fspath(path)))
    flags = flags or 0
    writing = bool(flags & WRITE_FLAGS) or (isinstance(mode, str) and any(c in mode for c in "wax+"))
    # a directory descriptor would let dir_fd= calls resolve paths where this hook cannot see them
    if flags & getattr(os, "O_PATH", 0) or (os.path.isdir(path) and not (writing and inside(path, WRITABLE))):
        refuse("forbidden_call", f"opening the directory '{path}' is not allowed", record=writing)
    if writing and not (inside(path, WRITABLE) or path == "/dev/null"):
        refuse("forbidden_call", f"writing '{path}' is not allowed outside the working directory")
    if not writing and not (inside(path, READABLE) or path in READABLE_FILES):
        # not recorded: libraries probe optional files and cope with a PermissionError
        refuse("forbidden_call", f"reading '{path}' is not allowed outside the working directory", record=False)

def audit(event, args):
    if event == "open":
        check_open(*args[:3])
    elif event in REFUSED:
        refuse(*REFUSED[event])
    elif event in PATH_CHANGES:
        for arg in args:
            if isinstance(arg, (str, bytes, os.PathLike)):
                path = os.path.abspath(os.fsdecode(os.fspath(arg)))
                if not inside(path, WRITABLE):
                    refuse("forbidden_call", f"changing '{path}' is not allowed outside the working directory")
    elif event.startswith("ctypes.") and not made_by_an_import():
        refuse("forbidden_call", "ctypes is not allowed")
    elif event == "import" and args[0] == "_posixsubprocess":  # a fresh copy would bring back fork_exec
        refuse("forbidden_call", "starting processes is not allowed")

def refuse_fork_exec(*args, **kwargs):  # multiprocessing's spawn calls it directly, and it raises no audit event
    refuse("forbidden_call", "starting processes is not allowed")

user_globals = {"__name__": "__main__", "__builtins__": builtins}
real_import = builtins.__import__

def guarded_import(name, globals=None, locals=None, fromlist=(), level=0):
    # only the user's own imports are checked: pandas and numpy import their internals freely
    if (globals if globals is not None else sys._getframe(1).f_globals) is user_globals:
        top = name.partition(".")[0]
        if level:
            refuse("forbidden_import", "relative imports are not allowed")
        if top not in ALLOWED:
            refuse("forbidden_import", f"import of '{top}' is not allowed", "; allowed: " + ", ".join(job["allowed"]))
    return real_import(name, globals, locals, fromlist, level)

class CappedOutput:
    """Keeps one character past the cap, so the parent can tell a cut output from one that just fits."""
    def __init__(self, stream, cap):
        self.stream, self.room, self.dropped = stream, cap + 1, 0
    def write(self, text):
        kept = text[:max(self.room, 0)]
        if kept:
            self.stream.write(kept)
            self.room -= len(kept)
        self.dropped += len(text) - len(kept)
        return len(text)
    def __getattr__(self, name):
        return getattr(self.stream, name)

def describe(exc):
    line, tb = None, exc.__traceback__
    while tb is not None:
        line = tb.tb_lineno if tb.tb_frame.f_code.co_filename == USER_FILE else line
        tb = tb.tb_next
    try:
        text = ": ".join([type(exc).__name__] + str(exc).strip().splitlines()[:1])
    except Exception:
        text = type(exc).__name__
    return (text if len(text) <= 300 else text[:297] + "...") + (f" (line {line})" if line else "")

program = compile(job["code"], USER_FILE, "exec", dont_inherit=True)  # the parent compiled it already
sys.stdout.reconfigure(line_buffering=True)  # what was printed survives a kill at the time limit
sys.stdout = output = CappedOutput(sys.stdout, job["max_output_chars"])
_posixsubprocess.fork_exec = refuse_fork_exec
builtins.__import__ = guarded_import
sys.addaudithook(audit)
report = {"kind": "ok", "error": ""}
try:
    exec(program, user_globals)
except SystemExit as exc:
    if exc.code not in (None, 0):
        status = f"with status {exc.code}" if isinstance(exc.code, int) else f"saying {exc.code}"
        report = {"kind": "error", "error": f"the program exited {status}"}
except SandboxRefusal as exc:
    report = {"kind": exc.kind, "error": str(exc)}
except MemoryError:
    report = {"kind": "memory", "error": ""}
except BaseException as exc:
    report = {"kind": "error", "error": describe(exc)}
if refusals:
    report = {"kind": refusals[0].kind, "error": str(refusals[0])}
report["dropped"] = output.dropped
output.flush()
sys.__stderr__.write("\n" + job["marker"] + json.dumps(report) + "\n")
sys.__stderr__.flush()
os._exit(0)  # no interpreter shutdown: threads the program left running must not keep it alive
'''


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


def _wait_or_kill(proc: subprocess.Popen, timeout_s: float) -> bool:
    """Waits for the child; True when it ran out of time. Either way nothing of its session survives."""
    try:
        proc.wait(timeout=timeout_s)
        return False
    except subprocess.TimeoutExpired:
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


def _outcome(returncode: int, timed_out: bool, root: Path, limits: SandboxLimits, started: float) -> SandboxResult:
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
                         duration_ms=duration_ms)


def run_python(code: str, *, files: Mapping[str, Path | bytes] | None = None,
               limits: SandboxLimits = SandboxLimits()) -> SandboxResult:  # noqa: B008 - frozen, so sharing it is safe
    """Run `code` in a fresh temporary working directory holding copies of `files` (plain file name -> path or
    bytes) and return what it printed. Never raises for anything the code does, and never outlives the time limit."""
    started = time.monotonic()
    refused = check_code(code, limits.allowed_imports)
    if refused is not None:
        return refused
    with tempfile.TemporaryDirectory(prefix="sandbox-", ignore_cleanup_errors=True) as root_name:
        root = Path(root_name)
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
        # stdout and stderr go to files, not pipes: nothing to drain, and a flood of output costs no parent memory
        with open(root / "stdout", "wb") as stdout, open(root / "stderr", "wb") as stderr:
            try:
                # rlimits are set by the bootstrap, not preexec_fn, which is unsafe in a threaded parent (Streamlit)
                proc = subprocess.Popen([sys.executable, "-I", "-B", "-X", "utf8", "-c", _BOOTSTRAP, str(root / "job.json")],
                                        cwd=workdir, env=_child_env(workdir, tmpdir), stdin=subprocess.DEVNULL,
                                        stdout=stdout, stderr=stderr, start_new_session=True, close_fds=True)
            except OSError as exc:
                return _refused("error", f"could not start Python: {exc.strerror or exc}", (time.monotonic() - started) * 1000)
            timed_out = _wait_or_kill(proc, limits.timeout_s)
        return _outcome(proc.returncode, timed_out, root, limits, started)
