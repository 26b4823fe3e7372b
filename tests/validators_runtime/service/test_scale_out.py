"""Scale-out as operators run it: several `onespec serve` processes on one PostgreSQL database.

The processes share nothing but the database. Fifty writers spread over them must lose no
update, and every read, by any reader through any process, must be consistent with some serial
order of the writes: a reader never sees a write disappear, and never sees a value nobody wrote.
"""

from __future__ import annotations

import threading

import pytest
import requests

from tests.commands import onespec
from tests.validators_runtime.service.conftest import ADMIN, MEMBER
from tests.validators_runtime.service.test_cli import Served

WRITERS = 50
V286 = {**ADMIN, "OpenStack-API-Version": "compute 2.86"}
SPECS = "/flavors/m1/os-extra_specs"

#: Each test runs `onespec serve` twice, in processes of their own.
pytestmark = pytest.mark.process


@pytest.fixture
def two_processes(postgres):
    url = postgres.create_database()
    done = onespec("db", "upgrade", "--database-url", url)
    assert done.returncode == 0, done.stderr
    servers = [Served("--database-url", url, "--threads", "16") for _ in range(2)]
    yield [server.url for server in servers]
    for server in servers:
        assert server.stop() == 0
    postgres.drop_database(url)


def test_fifty_writers_over_two_processes_lose_no_update(two_processes):
    barrier = threading.Barrier(WRITERS + 2)
    failures: list[str] = []
    reads: list[list[dict[str, str]]] = [[], []]
    writing = threading.Event()
    writing.set()

    def writer(number: int) -> None:
        url = two_processes[number % 2]
        session = requests.Session()
        barrier.wait()
        for round_ in range(4):
            body = {"extra_specs": {f"hw:key_{number:02d}": f"{number}.{round_}"}}
            response = session.post(url + SPECS + "?validation=off", json=body, headers=V286)
            if response.status_code != 200:
                failures.append(f"writer {number}: {response.status_code} {response.text}")

    def reader(number: int) -> None:
        url = two_processes[number]
        session = requests.Session()
        barrier.wait()
        while writing.is_set():
            response = session.get(url + SPECS, headers=MEMBER)
            if response.status_code != 200:
                failures.append(f"reader {number}: {response.status_code}")
                return
            reads[number].append(response.json()["extra_specs"])

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(WRITERS)]
    threads += [threading.Thread(target=reader, args=(n,)) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads[:WRITERS]:
        thread.join()
    writing.clear()
    for thread in threads[WRITERS:]:
        thread.join()
    assert failures == []

    expected = {f"hw:key_{n:02d}": f"{n}.3" for n in range(WRITERS)}
    for url in two_processes:
        final = requests.get(url + SPECS, headers=MEMBER, timeout=30).json()["extra_specs"]
        assert final == expected  # every writer's last update, through either process

    # Each writer's rounds are sequential, so a serial order exists exactly when every reader
    # sees each key's round never go backwards and only values that were written.
    for seen in reads:
        assert seen, "a reader read nothing"
        latest: dict[str, int] = {}
        for specs in seen:
            for key, value in specs.items():
                number, round_ = (int(part) for part in value.split("."))
                assert key == f"hw:key_{number:02d}" and 0 <= round_ < 4
                assert round_ >= latest.get(key, 0), (key, value, latest)
                latest[key] = round_
            assert set(latest) <= set(specs), "a key once read has disappeared"


#: The fake plugin's mutable labels, each changed from its default by one writer.
LABEL_CHANGES = (
    {"plugin_labels": {"enabled": {"status": False}}},
    {"plugin_labels": {"hidden": {"status": False}}},
    {"version_labels": {"0.1": {"enabled": {"status": False}}}},
    {"version_labels": {"0.2": {"enabled": {"status": False}}}},
)


def test_fifty_label_changes_of_shared_rows_over_two_processes_lose_none(two_processes):
    # Writer n changes label n % 4 of project n // 4: four writers, through both processes,
    # read-modify-write the same stored row at once.
    barrier = threading.Barrier(WRITERS)
    failures: list[str] = []

    def writer(number: int) -> None:
        headers = {**ADMIN, "X-Project-Id": f"project-{number // 4}"}
        url = two_processes[number % 2] + "/plugins/fake"
        session = requests.Session()
        barrier.wait()
        response = session.patch(url, json=LABEL_CHANGES[number % 4], headers=headers)
        if response.status_code != 200:
            failures.append(f"writer {number}: {response.status_code} {response.text}")

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    for project in range((WRITERS + 3) // 4):
        changed = [n % 4 for n in range(WRITERS) if n // 4 == project]
        headers = {**MEMBER, "X-Project-Id": f"project-{project}"}
        url = two_processes[project % 2] + "/plugins/fake"
        plugin = requests.get(url, headers=headers, timeout=30)
        labels = plugin.json()["plugin"]
        states = (
            labels["plugin_labels"]["enabled"]["status"],
            labels["plugin_labels"]["hidden"]["status"],
            labels["version_labels"]["0.1"]["enabled"]["status"],
            labels["version_labels"]["0.2"]["enabled"]["status"],
        )
        assert [i for i, state in enumerate(states) if state is False] == changed, project
