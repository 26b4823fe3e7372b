"""The HTTP server the service runs under: waitress, holding up against slow clients.

waitress stops accepting connections once ``connection_limit`` are open, and closes a
connection only after ``channel_timeout`` seconds *without activity*. A client that opens
connections and sends one header line every few seconds is never idle: with as many such
connections as the limit, every other client waits in the listen queue for as long as the attack
lasts. So the server here never stops accepting: when a new connection passes the limit, the
connection that has waited longest without a complete request to serve -- a slow or idle
client, never one whose request is being handled or whose answer is being sent -- is closed to
make room. A legitimate client loses at most a keep-alive connection it was not using, and
reconnects.
"""

from __future__ import annotations

from typing import Any

from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.server import MultiSocketServer, TcpWSGIServer
from waitress.task import ThreadedTaskDispatcher


class SheddingServer(TcpWSGIServer):
    """A waitress TCP server that makes room for new connections instead of refusing them."""

    # Set by waitress's __init__: its stub leaves out the bound address and types the map of
    # open channels (by file descriptor) as one channel.
    effective_host: str
    effective_port: int
    active_channels: dict[int, HTTPChannel]  # type: ignore[assignment]

    def readable(self) -> bool:
        super().readable()  # idle connections closed, and the limit logged, as waitress does
        return bool(self.accepting)

    def handle_accept(self) -> None:
        super().handle_accept()
        if len(self.active_channels) > self.adj.connection_limit:
            self._shed()

    def _shed(self) -> None:
        """Close the oldest connection that has nothing to serve and nothing to send."""
        waiting = [
            channel
            for channel in self.active_channels.values()
            if not channel.requests and not channel.total_outbufs_len and not channel.will_close
        ]
        if waiting:
            oldest = min(waiting, key=lambda channel: channel.creation_time)
            oldest.will_close = True  # closed by the loop's next pass, as waitress closes


def create_server(
    application: Any,
    *,
    host: str,
    port: int,
    threads: int,
    connection_limit: int,
    channel_timeout: int,
) -> Any:
    """A server for ``application`` on ``host:port`` (every address ``host`` names), as
    ``waitress.create_server`` builds one, with :class:`SheddingServer` for each socket."""
    adj = Adjustments(
        host=host,
        port=port,
        threads=threads,
        connection_limit=connection_limit,
        channel_timeout=channel_timeout,
        # Idle connections are looked for at least this often, so the timeout holds.
        cleanup_interval=max(1, min(30, channel_timeout // 2)),
        ident="onespec",
        expose_tracebacks=False,
    )
    dispatcher = ThreadedTaskDispatcher()
    dispatcher.set_thread_count(adj.threads)
    sockets: dict[int, Any] = {}
    servers = [
        # Adjustments parses each listen address into a socket's (family, type, protocol,
        # address); its stub keeps the type of the unparsed option, str.
        SheddingServer(
            application,
            sockets,
            dispatcher=dispatcher,
            adj=adj,
            sockinfo=sockinfo,  # type: ignore[arg-type]
        )
        for sockinfo in adj.listen
    ]
    if len(servers) == 1:
        return servers[0]
    listening = [(server.effective_host, server.effective_port) for server in servers]
    return MultiSocketServer(sockets, adj, listening, dispatcher)
