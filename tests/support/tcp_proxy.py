"""A TCP proxy on 127.0.0.1 in front of a database server, which a test takes down and brings back: a real outage.

`cut()` resets every open connection and, until `restore()`, resets each new one as soon as it is accepted, so
clients see what a dropped network or a restarting server gives them (connection reset, lost connection). It
counts those refused attempts, so a test can wait until clients have noticed the outage and retried."""

from __future__ import annotations

import socket
import struct
import threading
import time
from collections.abc import Callable
from typing import Any

_RESET = struct.pack("ii", 1, 0)  # SO_LINGER on, 0 s: close() sends RST instead of FIN


def _reset(sock: socket.socket) -> None:
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, _RESET)
    except OSError:
        pass
    sock.close()


class TcpProxy:
    def __init__(self, target_port: int, target_host: str = "127.0.0.1") -> None:
        self.target = (target_host, target_port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.up = True
        self.refused = 0  # connections reset on arrival while the proxy was down
        self.accepted = 0  # connections passed through to the server
        self._pairs: list[tuple[socket.socket, socket.socket]] = []
        self._lock = threading.Lock()
        self._closed = False
        self._thread = threading.Thread(target=self._accept, daemon=True, name="tcp-proxy")

    def url(self, server_url: str) -> str:
        """`server_url` with its host and port replaced by the proxy's."""
        scheme, rest = server_url.split("://", 1)
        credentials, _, location = rest.rpartition("@")
        path = location.split("/", 1)[1] if "/" in location else ""
        return f"{scheme}://{credentials + '@' if credentials else ''}127.0.0.1:{self.port}/{path}"

    def __enter__(self) -> TcpProxy:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._closed = True
        self.listener.close()
        self.cut()

    def cut(self) -> None:
        """The outage starts: every open connection is reset, and new ones are until restore()."""
        with self._lock:
            self.up = False
            pairs, self._pairs = self._pairs, []
        for client, server in pairs:
            _reset(client)
            _reset(server)

    def restore(self) -> None:
        with self._lock:
            self.up = True

    def wait_until(self, condition: Callable[[TcpProxy], bool], timeout: float = 120.0, what: str = "") -> None:
        end = time.monotonic() + timeout
        while not condition(self):
            if time.monotonic() > end:
                raise AssertionError(f"the proxy did not see {what or 'the condition'} in {timeout} s "
                                     f"(refused {self.refused}, accepted {self.accepted})")
            time.sleep(0.02)

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            with self._lock:
                up = self.up
                if not up:
                    self.refused += 1
            if not up:
                _reset(client)
                continue
            try:
                server = socket.create_connection(self.target, timeout=10)
            except OSError:
                _reset(client)
                continue
            server.settimeout(None)
            with self._lock:
                if not self.up:  # cut while connecting
                    _reset(client)
                    _reset(server)
                    continue
                self.accepted += 1
                self._pairs.append((client, server))
            pair = (client, server)
            ended = threading.Semaphore(0)
            for source, sink in (pair, pair[::-1]):
                threading.Thread(target=self._pump, args=(source, sink, pair, ended), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket, pair: tuple[socket.socket, socket.socket],
              ended: threading.Semaphore) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for sock in pair:  # one side hung up: so does the other, and the other pump ends too
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        ended.release()
        if ended.acquire(blocking=False):  # the second pump to end closes the pair
            with self._lock:
                if pair in self._pairs:
                    self._pairs.remove(pair)
            for sock in pair:
                sock.close()
