"""bookly_project/tcp.py: the web's accepted connections get TCP_NODELAY even from a listener bound with proto 0."""

import socket
import sys
import types

import pytest
from uvicorn.protocols.http.h11_impl import H11Protocol

from bookly_project import tcp
from bookly_project.tcp import connection_nodelay_install, transport_nodelay


class FakeTransport:
    def __init__(self, sock: socket.socket | None) -> None:
        self.sock = sock

    def get_extra_info(self, name: str):
        return self.sock if name == "socket" else None


@pytest.fixture
def accepted():
    """A connection accepted from a listener bound the way uvicorn's --workers binds it (proto 0)."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    client = socket.create_connection(listener.getsockname())
    server, _ = listener.accept()
    yield server
    for sock in (server, client, listener):
        sock.close()


def nodelay(sock: socket.socket) -> int:
    return sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)


def test_a_socket_accepted_from_a_proto_0_listener_has_nagle_on(accepted):
    # The defect this works around: asyncio sets TCP_NODELAY only when proto is IPPROTO_TCP.
    assert accepted.proto == 0
    assert nodelay(accepted) == 0


def test_transport_nodelay_turns_nagle_off(accepted):
    transport_nodelay(FakeTransport(accepted))
    assert nodelay(accepted) != 0


def test_transports_without_a_tcp_socket_are_left_alone():
    transport_nodelay(FakeTransport(None))
    left, right = socket.socketpair()  # AF_UNIX
    try:
        transport_nodelay(FakeTransport(left))
    finally:
        left.close()
        right.close()


def test_the_web_application_installs_it_on_uvicorns_protocol():
    import bookly_project.asgi  # noqa: F401 - importing the application installs it

    assert H11Protocol.connection_made.sets_nodelay


def test_the_wrapper_sets_the_option_then_runs_uvicorns_own_once(accepted, monkeypatch):
    class Protocol:
        def connection_made(self, transport) -> None:
            self.made = transport

    module = types.ModuleType("fake_protocol_module")
    module.Protocol = Protocol
    monkeypatch.setitem(sys.modules, module.__name__, module)
    monkeypatch.setattr(tcp, "_PROTOCOLS", ((module.__name__, "Protocol"),))
    connection_nodelay_install()
    installed = Protocol.connection_made
    connection_nodelay_install()  # idempotent: not wrapped twice
    assert Protocol.connection_made is installed

    protocol, transport = Protocol(), FakeTransport(accepted)
    protocol.connection_made(transport)
    assert protocol.made is transport
    assert nodelay(accepted) != 0
