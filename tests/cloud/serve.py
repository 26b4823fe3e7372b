"""Serve one OpenStack API of the cloud in a box: run inside that service's peer environment.

Usage (the box starts it; nothing else should)::

    python serve.py nova|glance NAME FD WATCHED_PID

The box binds the listening socket itself (127.0.0.1, a free port) and hands it down as file
descriptor ``FD``, so the port is known before any service starts and no two services can race
for it. The service's configuration directory is ``etc/NAME`` under the working directory
(``OS_NOVA_CONFIG_DIR`` / ``OS_GLANCE_CONFIG_DIR``, set by the box); ``NAME.ready`` is written
there once requests are answered. The process serves until it
is sent SIGTERM or SIGINT, or until ``WATCHED_PID`` (the process that owns the box) is gone, so
a test run that is killed leaves no service behind.

Nova and Glance ship their APIs as WSGI applications and no server of their own; the peer
environments have no waitress, so the standard library's threaded ``wsgiref`` server runs them.
It answers one request per thread, which is what a test needs.
"""

import os
import signal
import socket
import socketserver
import sys
import threading
import time
from wsgiref import simple_server


class _Server(socketserver.ThreadingMixIn, simple_server.WSGIServer):
    daemon_threads = True
    allow_reuse_address = True


class _Quiet(simple_server.WSGIRequestHandler):
    """Log requests in one line on stderr (the service's log), without reverse DNS lookups."""

    def address_string(self):
        return self.client_address[0]


def _application(service):
    # Each service parses sys.argv with oslo.config while it loads: give it its own name only.
    sys.argv = [sys.argv[0]]
    if service == "nova":
        from nova.wsgi.osapi_compute import application
    elif service == "glance":
        from glance.wsgi.api import application
    else:
        raise SystemExit(f"serve.py: unknown service {service!r}")
    return application


def _watch(pid, server):
    """Stop serving when the box's owner is gone (its test run ended without stopping us)."""
    while True:
        time.sleep(1.0)
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            threading.Thread(target=server.shutdown, daemon=True).start()
            return
        except PermissionError:
            continue


def main(service, name, fd, watched):
    listener = socket.socket(fileno=int(fd))
    application = _application(service)
    server = _Server(listener.getsockname(), _Quiet, bind_and_activate=False)
    server.socket.close()
    server.socket = listener
    server.server_address = listener.getsockname()
    server.server_name, server.server_port = server.server_address[:2]
    server.setup_environ()
    server.set_app(application)

    def stop(signum, frame):
        threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    threading.Thread(target=_watch, args=(int(watched), server), daemon=True).start()
    print(f"serve.py: {name} ready on {listener.getsockname()}", file=sys.stderr, flush=True)
    # The box waits for this file: the application is loaded and requests are answered.
    with open(f"{name}.ready", "w") as ready:
        ready.write(str(os.getpid()))
    server.serve_forever(poll_interval=0.2)
    server.server_close()


if __name__ == "__main__":
    main(*sys.argv[1:5])
