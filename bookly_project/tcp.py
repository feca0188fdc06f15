"""TCP_NODELAY on the web's connections, which uvicorn's `--workers N` leaves off.

With `--workers N` (as `make run`, the compose file and the bench start the web) uvicorn binds
the listening socket itself with `proto` 0; accepted sockets inherit it, and asyncio turns on
TCP_NODELAY only for sockets reporting IPPROTO_TCP (uvicorn issue #3149, open). Nagle's
algorithm then holds a response's body, written after its headers, until the client acknowledges
the headers, which Linux clients delay by ~40 ms: every keep-alive response (the 202 of a
message POST, the long-poll's answer) arrived ~40 ms late at any load (docs/performance.md §10.2).

`connection_nodelay_install()` wraps the `connection_made` of uvicorn's HTTP protocol classes to
set the option on each accepted TCP connection. Called when the ASGI application is imported,
which every uvicorn worker process does before it serves; harmless where the option is
already on. Remove once uvicorn sets `proto` on the sockets it binds.
"""

import contextlib
import importlib
import socket

# uvicorn's HTTP protocol implementations, by module and class; those not installed are skipped.
_PROTOCOLS = (
    ("uvicorn.protocols.http.h11_impl", "H11Protocol"),
    ("uvicorn.protocols.http.httptools_impl", "HttpToolsProtocol"),
)


def transport_nodelay(transport) -> None:
    """Turn Nagle's algorithm off on the transport's socket, if it is a TCP socket."""
    sock = transport.get_extra_info("socket")
    if sock is None or sock.family not in (socket.AF_INET, socket.AF_INET6) or sock.type != socket.SOCK_STREAM:
        return
    with contextlib.suppress(OSError):  # the peer may already have gone; the request then fails anyway
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def connection_nodelay_install() -> None:
    """Make each installed uvicorn HTTP protocol class set TCP_NODELAY when a connection is made (idempotent)."""
    for module_name, class_name in _PROTOCOLS:
        try:
            protocol = getattr(importlib.import_module(module_name), class_name)
        except ImportError:
            continue
        original = protocol.connection_made
        if getattr(original, "sets_nodelay", False):
            continue

        def connection_made(self, transport, _original=original) -> None:
            transport_nodelay(transport)
            _original(self, transport)

        connection_made.sets_nodelay = True
        protocol.connection_made = connection_made
