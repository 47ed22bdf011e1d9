"""A hostile "PostgreSQL server" on a loopback port, standing in for whoever listens there on a
shared machine (or for a book's remote host): it speaks just enough of the protocol to ask the
client for its password in clear, and records every connection and every password sent.

    with HostileServer() as server:
        url = f"postgresql://u@127.0.0.1:{server.port}/db"
        ...
        assert server.connections == 0 and server.passwords == []
"""

from __future__ import annotations

import socket
import struct
import threading
from contextlib import suppress
from types import TracebackType

SSL_REQUEST = 80877103
GSSENC_REQUEST = 80877104
CLEARTEXT_PASSWORD = 3
MD5_PASSWORD = 5
REFUSED = b"SFATAL\0C28P01\0Mpassword authentication failed\0\0"


class HostileServer:
    def __init__(self, ask: str = "cleartext") -> None:
        """`ask`: "cleartext" (the password itself comes back) or "md5" (its salted hash)."""
        self._ask = ask
        self._socket = socket.create_server(("127.0.0.1", 0))
        self._socket.settimeout(0.2)
        self.port: int = self._socket.getsockname()[1]
        self.connections = 0
        self.passwords: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)

    def __enter__(self) -> HostileServer:
        self._thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._stop.set()
        self._thread.join(5)
        self._socket.close()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                client, _ = self._socket.accept()
            except TimeoutError:
                continue
            self.connections += 1
            with client:
                client.settimeout(5)
                with suppress(OSError, struct.error):  # the client hung up: it refused to answer
                    self._ask_for_the_password(client)

    def _ask_for_the_password(self, client: socket.socket) -> None:
        while True:
            length, code = struct.unpack("!ii", _read(client, 8))
            _read(client, length - 8)
            if code not in (SSL_REQUEST, GSSENC_REQUEST):
                break  # the startup message: user, database
            client.sendall(b"N")  # no TLS, no GSS: go on in clear
        if self._ask == "md5":
            client.sendall(b"R" + struct.pack("!ii", 12, MD5_PASSWORD) + b"salt")
        else:
            client.sendall(b"R" + struct.pack("!ii", 8, CLEARTEXT_PASSWORD))
        kind = _read(client, 1)
        (length,) = struct.unpack("!i", _read(client, 4))
        body = _read(client, length - 4)
        if kind == b"p":
            self.passwords.append(body.rstrip(b"\0").decode("utf-8", "replace"))
        client.sendall(b"E" + struct.pack("!i", len(REFUSED) + 4) + REFUSED)


def _read(client: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = client.recv(size - len(data))
        if not chunk:
            raise OSError("closed")
        data += chunk
    return data
