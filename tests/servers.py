"""Real servers for the tests: a throwaway PostgreSQL cluster, and the API under waitress.

PostgreSQL comes from the Debian packages (``.ci/run`` installs them): a cluster is initialised in
a temporary directory and run on a free port of 127.0.0.1, as the ``postgres`` user when the
tests run as root (PostgreSQL refuses to run as root), and removed afterwards. Set
``ONESPEC_TEST_POSTGRES=skip`` to skip the PostgreSQL half of the tests on a machine without it;
otherwise its absence fails them, so that CI never passes without it.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

SKIP_VARIABLE = "ONESPEC_TEST_POSTGRES"


def free_port() -> int:
    """A port of 127.0.0.1 that was free a moment ago."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def postgres_bindir() -> Path | None:
    """The directory of the newest installed PostgreSQL server's programs."""
    candidates = [Path(p) for p in glob.glob("/usr/lib/postgresql/*/bin")]
    candidates.sort(key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0)
    for directory in (os.environ.get("PG_BINDIR"), *reversed([str(c) for c in candidates])):
        if (
            directory
            and (Path(directory) / "initdb").exists()
            and (Path(directory) / "postgres").exists()
        ):
            return Path(directory)
    found = shutil.which("initdb")
    if found and (Path(found).resolve().parent / "postgres").exists():
        return Path(found).resolve().parent
    return None


class PostgresCluster:
    """A PostgreSQL cluster in a temporary directory, listening on 127.0.0.1 only."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.base = Path(tempfile.mkdtemp(prefix="onespec-pg-"))
        self.data = self.base / "data"
        self.sockets = self.base / "sockets"
        self.sockets.mkdir()
        self.log = self.base / "postgres.log"
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self._run_as: dict[str, Any] = {}
        if os.geteuid() == 0:
            try:
                account = pwd.getpwnam("postgres")
            except KeyError:
                pytest.fail(
                    "The tests run as root, and there is no postgres user to run PostgreSQL as."
                )
            for path in (self.base, self.sockets):
                os.chown(path, account.pw_uid, account.pw_gid)
            self._run_as = {"user": account.pw_uid, "group": account.pw_gid, "extra_groups": []}

    @property
    def admin_url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def start(self) -> None:
        subprocess.run(
            [str(self.bindir / "initdb"), "-D", str(self.data), "-U", "postgres", "-A", "trust",
             "-E", "UTF8", "--locale=C", "--no-sync"],
            cwd=self.base, capture_output=True, check=True, **self._run_as,
        )  # fmt: skip
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                [str(self.bindir / "postgres"), "-D", str(self.data), "-p", str(self.port),
                 "-h", "127.0.0.1", "-k", str(self.sockets), "-c", "fsync=off",
                 "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
                 "-c", "max_connections=300"],
                cwd=self.base, stdout=log, stderr=subprocess.STDOUT, **self._run_as,
            )  # fmt: skip
        import psycopg

        deadline = time.monotonic() + 60
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"PostgreSQL did not start:\n{self.log.read_text()}")
            try:
                psycopg.connect(self.dsn("postgres"), connect_timeout=2).close()
                return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def dsn(self, database: str) -> str:
        return f"host=127.0.0.1 port={self.port} user=postgres dbname={database}"

    def create_database(self, template: str | None = None) -> str:
        """A new database, empty or a copy of ``template`` (a URL); its SQLAlchemy URL."""
        import psycopg

        name = f"onespec_{uuid.uuid4().hex[:12]}"
        statement = f'CREATE DATABASE "{name}"'
        if template is not None:
            statement += f' TEMPLATE "{template.rsplit("/", 1)[1]}"'
        with psycopg.connect(self.dsn("postgres"), autocommit=True) as connection:
            connection.execute(statement)
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{name}"

    def empty_tables(self, url: str) -> None:
        """Delete every row of onespec's tables (the schema and its revision stay)."""
        import psycopg

        name = url.rsplit("/", 1)[1]
        with psycopg.connect(self.dsn(name), autocommit=True) as connection:
            connection.execute("SET lock_timeout = '10s'")  # a leaked transaction fails, not hangs
            connection.execute("TRUNCATE plugins, flavor_extra_specs RESTART IDENTITY")

    def drop_database(self, url: str) -> None:
        import psycopg

        name = url.rsplit("/", 1)[1]
        with psycopg.connect(self.dsn("postgres"), autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)  # fast shutdown
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.base, ignore_errors=True)


@contextlib.contextmanager
def postgres_cluster() -> Iterator[PostgresCluster]:
    bindir = postgres_bindir()
    if bindir is None:
        if os.environ.get(SKIP_VARIABLE) == "skip":
            pytest.skip(f"PostgreSQL is not installed ({SKIP_VARIABLE}=skip)")
        pytest.fail(
            "PostgreSQL is not installed: the store and API tests run against SQLite and "
            "PostgreSQL (apt-get install postgresql, as .ci/run does; or set "
            f"{SKIP_VARIABLE}=skip to skip that half)."
        )
    cluster = PostgresCluster(bindir)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()


class LiveServer:
    """The API under waitress, in a thread of this process, on a free port of 127.0.0.1.

    The thread runs waitress's event loop in short turns and closes the sockets itself when
    asked to stop. (Closing them from a trigger thunk, as waitress's own ``close()`` does from
    the loop, races with the write that pulls the trigger: the thunk may run, and close the
    trigger's pipe, before that write, which then fails or lands in a reused descriptor.)
    """

    def __init__(self, app: Any, threads: int = 8) -> None:
        import waitress

        self.app = app
        self.server = waitress.create_server(
            app, host="127.0.0.1", port=0, threads=threads, ident="onespec-test"
        )
        self.url = f"http://127.0.0.1:{self.server.effective_port}"
        self._stopping = threading.Event()
        self.thread = threading.Thread(target=self._serve, name="waitress", daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        from waitress import wasyncore

        sockets = self.server._map
        while not self._stopping.is_set():
            wasyncore.loop(timeout=0.05, map=sockets, use_poll=True, count=1)
        wasyncore.close_all(sockets)

    def stop(self) -> None:
        if self._stopping.is_set():
            return
        self._stopping.set()
        self.thread.join(timeout=10)
        self.server.task_dispatcher.shutdown(timeout=10)
        self.app.extensions["onespec"].engine.dispose()
