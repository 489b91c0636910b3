"""The coder sandbox's inner layer: the script the child runs before the user's code, which sets its resource limits
and installs a Python audit hook that refuses imports, processes, network and files outside its folders."""

# Runs in the child before the user's code. It must do its own imports first: once the guards are in, the
# child can still read its interpreter's files but nothing it does reaches the network, other processes or
# files outside its two folders. An in-process guard is a fence for a careless model, not a jail for an attacker:
# the jail is the OS layer under it (sandbox_jail.py), which mounts nothing else. The guard stays to give the model
# one clear line about what it tried, where the jail alone would only say "No such file or directory".
GUARD = r'''
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

def check_listing(path):
    if isinstance(path, int):  # a directory descriptor: check_open never hands one out outside the two folders
        return
    path = os.path.abspath(os.fsdecode(os.fspath(path if path is not None else ".")))
    if not inside(path, READABLE):
        refuse("forbidden_call", f"listing '{path}' is not allowed outside the working directory")

def audit(event, args):
    if event == "open":
        check_open(*args[:3])
    elif event in ("os.listdir", "os.scandir"):
        check_listing(args[0])
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
