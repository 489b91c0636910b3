"""The coder sandbox's OS layer: bubblewrap (`bwrap`) runs the child in namespaces of its own, where only the
interpreter's files, the system libraries and the run's folders are mounted, with no network and no environment
of the parent's. What the audit hook inside refuses politely, this layer makes impossible."""

from __future__ import annotations

import contextlib
import functools
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

INSTALL_HINT = "install it (apt-get install bubblewrap)"
NOT_INSTALLED = f"the sandbox needs bubblewrap (bwrap) to run code: {INSTALL_HINT}"
# Where a distribution puts it; PATH first, but a service's PATH is often short.
_USUAL_PLACES = ("/usr/bin/bwrap", "/usr/local/bin/bwrap", "/bin/bwrap")
# What the interpreter and numpy/pandas need besides its own installation: the shared libraries, the loader's cache
# and the time zone database. Nothing else of /etc, no /proc, no /sys, no /home.
_SYSTEM_LIBRARIES = ("/usr/lib", "/usr/lib64", "/usr/lib32", "/lib", "/lib64", "/lib32")
_SYSTEM_FILES = ("/etc/ld.so.cache", "/usr/share/zoneinfo", "/etc/localtime")
_DEVICES = ("/dev/null", "/dev/urandom")
_NOBODY = "65534"  # the child's uid and gid inside its namespace: not root there either


def find_bwrap() -> str | None:
    found = shutil.which("bwrap")
    return found or next((place for place in _USUAL_PLACES if os.access(place, os.X_OK)), None)


def interpreter_roots() -> list[str]:
    """The Python installation and the virtualenv running it (as given and resolved: a venv's python is a link)."""
    places = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    places |= {os.path.realpath(place) for place in list(places)}
    places.add(os.path.dirname(os.path.dirname(os.path.realpath(sys.executable))))
    return sorted(place for place in places if place and place != "/" and os.path.isdir(place))


def _outermost(paths: Iterable[str]) -> list[str]:
    """The paths, parents before children and a path inside another one left out (its parent mounts it already)."""
    kept: list[str] = []
    for path in sorted(set(paths), key=lambda p: (p.count("/"), p)):
        if not any(path == parent or path.startswith(parent.rstrip("/") + "/") for parent in kept):
            kept.append(path)
    return kept


def _read_only_mounts() -> list[str]:
    arguments: list[str] = []
    for path in _SYSTEM_LIBRARIES + _SYSTEM_FILES:
        if os.path.islink(path):  # /lib -> usr/lib on a merged /usr; /etc/localtime -> the zone's file
            arguments += ["--symlink", os.readlink(path), path]
    real = [p for p in (*_SYSTEM_LIBRARIES, *_SYSTEM_FILES) if os.path.exists(p) and not os.path.islink(p)]
    for path in _outermost(real + interpreter_roots()):
        arguments += ["--ro-bind", path, path]
    for device in _DEVICES:
        if os.path.exists(device):
            arguments += ["--dev-bind", device, device]
    return arguments


@functools.cache
def _supports(bwrap: str, option: str) -> bool:
    """Older bubblewraps (before 0.8) lack --disable-userns: use it where it exists."""
    try:
        shown = subprocess.run([bwrap, "--help"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return False
    return option in shown.stdout + shown.stderr


def jail_command(bwrap: str, command: Sequence[str], *, writable: Sequence[Path], readable_files: Sequence[Path],
                 cwd: Path, env: Mapping[str, str], info_fd: int | None = None) -> list[str]:
    """`command` wrapped in bwrap: the interpreter and the system libraries read-only, `writable` folders read-write
    at the same paths, `readable_files` read-only, a fresh empty /tmp, no network, its own user, pid, ipc, uts and
    cgroup namespaces, no capabilities, and only `env` as its environment. It dies with its parent. bwrap writes
    the child's pid to `info_fd` (see `child_pid`)."""
    arguments = [bwrap, "--unshare-all", "--unshare-user", "--uid", _NOBODY, "--gid", _NOBODY, "--die-with-parent",
                 "--new-session", "--cap-drop", "ALL", "--hostname", "sandbox", "--clearenv",
                 # the program is pid 1 of its namespace: bwrap waits for it itself, and leaves no zombie for the
                 # host's init to reap (which, in a container where the app is pid 1, nobody would)
                 "--as-pid-1"]
    if info_fd is not None:
        arguments += ["--info-fd", str(info_fd)]
    if _supports(bwrap, "--disable-userns"):
        arguments.append("--disable-userns")  # the child cannot make namespaces of its own to rearrange its mounts
    for name, value in env.items():
        arguments += ["--setenv", name, value]
    arguments += ["--tmpfs", "/tmp"]  # first: a venv or a folder under /tmp is mounted on top of it, not hidden by it
    arguments += _read_only_mounts()
    for folder in writable:
        arguments += ["--bind", str(folder), str(folder)]
    for file in readable_files:
        arguments += ["--ro-bind", str(file), str(file)]
    # the root and /tmp hold only mount points: read-only, so nothing is written (or kept in memory) outside the folders
    arguments += ["--remount-ro", "/tmp", "--remount-ro", "/", "--chdir", str(cwd), "--", *command]
    return arguments


def child_pid(info_file: Path) -> int | None:
    """The jailed program's pid (as the parent sees it), from what bwrap wrote to its --info-fd."""
    with contextlib.suppress(OSError, ValueError, TypeError):
        return int(json.loads(info_file.read_text(encoding="utf-8"))["child-pid"])
    return None


def exit_status(returncode: int) -> int:
    """bwrap reports a child killed by signal N as 128 + N: turn that back into -N, as subprocess gives it."""
    return -(returncode - 128) if 128 < returncode < 128 + 65 else returncode


def _probe(bwrap: str) -> str:
    """'' when bwrap can start the interpreter in the jail here, else the last line bwrap wrote."""
    with tempfile.TemporaryDirectory(prefix="sandbox-probe-") as folder:
        command = jail_command(bwrap, [sys.executable, "-I", "-c", "pass"], writable=[Path(folder)], readable_files=[],
                               cwd=Path(folder), env={"PATH": "/usr/bin:/bin"})
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
        except (OSError, subprocess.SubprocessError) as exc:
            return str(exc)
    lines = [line.strip() for line in (done.stderr or "").splitlines() if line.strip()]
    return "" if done.returncode == 0 else (lines[-1][:300] if lines else f"exit status {done.returncode}")


_working: set[str] = set()  # the bwraps that started the interpreter here once


def locate() -> tuple[str | None, str]:
    """(bwrap, '') when the OS layer works on this machine, else (None, the one line that says why the coder cannot
    run code). A working bwrap is remembered for the process; a missing or failing one is looked at again next time."""
    bwrap = find_bwrap()
    if bwrap is None:
        return None, NOT_INSTALLED
    if bwrap in _working:
        return bwrap, ""
    problem = _probe(bwrap)
    if not problem:
        _working.add(bwrap)
        return bwrap, ""
    return None, (f"the sandbox needs bubblewrap (bwrap) to run code, and it cannot start here ({problem}): user "
                  "namespaces may be disabled (sysctl kernel.unprivileged_userns_clone, or an AppArmor profile that "
                  "restricts them)")
