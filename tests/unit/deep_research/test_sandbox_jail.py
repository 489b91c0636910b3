"""The coder sandbox's OS layer (bubblewrap) under its audit hook: what model-written code that reaches for the
machine's files, processes or network gets, what the jail alone lets a program see, and what happens without it."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from pipelines.deep_research import sandbox_jail
from pipelines.deep_research.sandbox import DEFAULT_ALLOWED_IMPORTS, HOOK_ONLY, JAILED, SandboxLimits, run_python

SALES = b"region,amount\nnorth,10\nsouth,5\nnorth,7\n"
PANDAS_OS = "import pandas as pd\nos = pd.io.common.os\n"  # the os module, in reach past the static check
HOME = str(Path.home())


def outside(what: str) -> str:
    return f"{what} is not allowed outside the working directory"


# What a model writes when it goes looking around the machine, and the one line each run ends with.
@pytest.mark.parametrize("code, kind, error", [
    (PANDAS_OS + f"print(list(os.scandir({HOME!r})))", "forbidden_call", outside(f"listing '{HOME}'") + " (line 3)"),
    (PANDAS_OS + "print(os.listdir('/root/.ssh'))", "forbidden_call", outside("listing '/root/.ssh'") + " (line 3)"),
    ("import pandas as pd\nprint(pd.io.common.os.listdir('/etc'))", "forbidden_call",
     outside("listing '/etc'") + " (line 2)"),
    ("print(open('/etc/passwd').read())", "forbidden_call", outside("reading '/etc/passwd'") + " (line 1)"),
    ("import pandas as pd\nprint(list(pd.io.common.Path('/home').iterdir()))", "forbidden_call",
     outside("listing '/home'") + " (line 2)"),
    (PANDAS_OS + "for root, folders, names in os.walk('/'):\n    print(root, names)", "forbidden_call",
     outside("listing '/'") + " (line 3)"),
    (PANDAS_OS + "print(os.popen('cat /etc/passwd').read())", "forbidden_call", "starting processes is not allowed (line 3)"),
    ("import numpy as np\nlibc = np.ctypeslib.ctypes.CDLL(None)", "forbidden_call", "ctypes is not allowed (line 2)"),
    # a refusal the program swallows still decides the outcome
    (PANDAS_OS + "try:\n    print(os.listdir('/'))\nexcept Exception:\n    print('nothing to see')", "forbidden_call",
     outside("listing '/'") + " (line 4)"),
], ids=["scandir-home", "listdir-ssh", "pandas-os-listdir-etc", "open-passwd", "pathlib-iterdir-home", "walk-root",
        "popen", "ctypes", "swallowed"])
def test_code_that_reaches_outside_its_folder_is_stopped_with_one_clear_line(os_sandbox, code, kind, error):
    result = run_python(code, files={"sales.csv": SALES})
    assert (result.ok, result.kind, result.error, result.isolation) == (False, kind, error, JAILED)
    assert "root:" not in result.stdout and ".ssh" not in result.stdout


@pytest.mark.parametrize("code, module", [("import subprocess\nsubprocess.run(['id'])", "subprocess"),
                                          ("import ctypes", "ctypes"), ("import pathlib", "pathlib"),
                                          ("from os import listdir", "os")])
def test_the_modules_for_it_are_refused_before_anything_runs(code, module):
    result = run_python(code)
    assert (result.kind, result.isolation) == ("forbidden_import", "")
    assert result.error.startswith(f"import of '{module}' is not allowed (line 1)")


def test_a_connection_to_a_local_database_port_is_refused(os_sandbox):
    code = "import socket\nconnection = socket.socket()\nconnection.connect(('127.0.0.1', 5432))"
    result = run_python(code, limits=SandboxLimits(allowed_imports=DEFAULT_ALLOWED_IMPORTS | {"socket"}))
    assert (result.ok, result.kind, result.error) == (False, "network", "network access is not allowed (line 3)")


def test_the_home_of_a_program_is_its_working_folder(os_sandbox):
    result = run_python(PANDAS_OS + "home = os.path.expanduser('~')\nprint(home == os.getcwd(), sorted(os.listdir(home)))",
                        files={"sales.csv": SALES})
    assert (result.kind, result.stdout) == ("ok", "True ['sales.csv']\n"), result.error


def test_files_pandas_and_numpy_work_in_the_working_folder(os_sandbox):
    code = ("import numpy as np\nimport pandas as pd\nsales = pd.read_csv('sales.csv')\n"
            "sales.assign(share=sales.amount / sales.amount.sum()).to_csv('out.csv', index=False)\n"
            "with open('notes.txt', 'w') as notes:\n    notes.write('kept')\n"
            "print(round(float(np.mean(pd.read_csv('out.csv').amount)), 2), open('notes.txt').read())")
    result = run_python(code, files={"sales.csv": SALES})
    assert (result.kind, result.stdout, result.isolation) == ("ok", "7.33 kept\n", JAILED), result.error


def _jailed(program: str, folder: Path, **env: str) -> subprocess.CompletedProcess:
    """`program` in the jail with no audit hook: what the OS layer alone lets it see."""
    command = sandbox_jail.jail_command(sandbox_jail.find_bwrap(), [sys.executable, "-I", "-c", program],
                                        writable=[folder], readable_files=[], cwd=folder, env={"PATH": "/usr/bin", **env})
    return subprocess.run(command, capture_output=True, text=True, timeout=60, env={})


def test_the_jail_alone_shows_only_the_interpreter_the_libraries_and_the_folder(os_sandbox, tmp_path):
    program = """import json, os
def look(path):
    try:
        return sorted(os.listdir(path))
    except OSError as exc:
        return type(exc).__name__
print(json.dumps({path: look(path) for path in ('/', '/etc', '/home', '/proc', '/tmp', '/dev', HOME)}))""".replace(
        "HOME", repr(HOME))
    done = _jailed(program, tmp_path)
    seen = json.loads(done.stdout)
    assert seen["/etc"] == sorted(name for name in ("ld.so.cache", "localtime") if os.path.lexists(f"/etc/{name}"))
    assert seen["/home"] == seen["/proc"] == "FileNotFoundError"
    assert seen["/dev"] == ["null", "urandom"]
    assert set(seen["/"]) <= {"dev", "etc", "tmp", "usr", "lib", "lib64", "lib32", *(p.split("/")[1] for p in
                                                                                    sandbox_jail.interpreter_roots())}
    # the home directory holds at most the way to the interpreter (a pyenv there), never .ssh or anything else
    roots = sandbox_jail.interpreter_roots()
    home = seen[HOME] if isinstance(seen[HOME], list) else []
    assert all(any(root.startswith(os.path.join(HOME, name)) for root in roots) for name in home), home


def test_the_jail_alone_keeps_files_the_environment_and_the_network_out_of_reach(os_sandbox, tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "secret")
    with socket.create_server(("127.0.0.1", 0)) as server:
        program = f"""import os, socket, subprocess
def attempt(action):
    try:
        action()
        return 'done'
    except Exception as exc:
        return type(exc).__name__
print(attempt(lambda: open('/etc/passwd').read()))
print(attempt(lambda: socket.create_connection(('127.0.0.1', {server.getsockname()[1]}), timeout=2)))
print(attempt(lambda: socket.getaddrinfo('pypi.org', 443)))
print(attempt(lambda: open({str(tmp_path.parent / 'escaped.txt')!r}, 'w')))
print(attempt(lambda: open('/tmp/x', 'w')))
print(attempt(lambda: subprocess.run(['/bin/sh', '-c', 'true'])))
print(attempt(lambda: open('inside.txt', 'w').write('kept')))
print(sorted(os.environ), os.getuid())"""
        done = _jailed(program, tmp_path)
        server.settimeout(0.2)
        with pytest.raises(TimeoutError):
            server.accept()
    assert done.stdout.splitlines() == ["FileNotFoundError", "ConnectionRefusedError", "gaierror", "OSError", "OSError",
                                        "FileNotFoundError", "done", "['LC_CTYPE', 'PATH', 'PWD'] 65534"], done.stderr
    assert (tmp_path / "inside.txt").read_text() == "kept" and not (tmp_path.parent / "escaped.txt").exists()


def test_the_jail_mounts_nothing_but_what_it_names(tmp_path):
    command = sandbox_jail.jail_command("/usr/bin/bwrap", ["python"], writable=[tmp_path], readable_files=[],
                                        cwd=tmp_path, env={"PATH": "/usr/bin"})
    mounted = {command[i + 1] for i, word in enumerate(command) if word in ("--ro-bind", "--bind", "--dev-bind")}
    allowed = {*sandbox_jail.interpreter_roots(), "/usr/lib", "/usr/lib64", "/usr/lib32", "/lib", "/lib64", "/lib32",
               "/etc/ld.so.cache", "/usr/share/zoneinfo", "/etc/localtime", "/dev/null", "/dev/urandom", str(tmp_path)}
    assert mounted <= allowed and not {"/", "/etc", HOME, "/proc", "/sys"} & mounted
    assert {"--unshare-all", "--unshare-user", "--die-with-parent", "--clearenv", "--cap-drop"} <= set(command)
    assert "--share-net" not in command and "--proc" not in command


def test_without_bubblewrap_the_coder_refuses_to_run_code(monkeypatch, tmp_path):
    marker = tmp_path / "ran"
    monkeypatch.setattr(sandbox_jail, "find_bwrap", lambda: None)
    result = run_python(f"with open({str(marker)!r}, 'w') as out:\n    out.write('x')")
    assert (result.ok, result.kind, result.isolation) == (False, "unavailable", "")
    assert result.error == "the sandbox needs bubblewrap (bwrap) to run code: install it (apt-get install bubblewrap)"
    assert not marker.exists()


def test_a_bubblewrap_that_cannot_start_is_no_sandbox_either(monkeypatch, tmp_path):
    fake = tmp_path / "bwrap"
    fake.write_text("#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n")
    fake.chmod(0o755)
    monkeypatch.setattr(sandbox_jail, "find_bwrap", lambda: str(fake))
    result = run_python("print(1)")
    assert (result.kind, result.stdout) == ("unavailable", "")
    assert result.error.startswith("the sandbox needs bubblewrap (bwrap) to run code, and it cannot start here "
                                   "(bwrap: No permissions to create new namespace): user namespaces may be disabled")


def test_the_development_mode_runs_under_the_audit_hook_alone_and_says_so(monkeypatch):
    monkeypatch.setattr(sandbox_jail, "find_bwrap", lambda: None)
    ran = run_python("print(6 * 7)", allow_hook_only=True)
    assert (ran.kind, ran.stdout, ran.isolation) == ("ok", "42\n", HOOK_ONLY)
    listed = run_python(PANDAS_OS + f"print(os.listdir({HOME!r}))", allow_hook_only=True)
    assert (listed.kind, listed.error) == ("forbidden_call", outside(f"listing '{HOME}'") + " (line 3)")
