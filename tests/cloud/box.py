"""The cloud in a box: real nova-api 34.0.0 and glance-api 33.0.0 on loopback, for tests and people.

What runs (each a process of its own, from the pinned peer environments of ``make peers``):

``nova``
    nova-api with onespec's server filter (``egg:onespec#onespec_servers``) in both ``keystone``
    pipelines, in ``refuse`` mode, and onespec's extra-spec validators in place of Nova's own;
    the same process serves a pipeline in ``warn`` mode under ``/warn/v2.1``.
``nova-plain``
    a second nova-api, stock: Nova's own validators, no onespec at all. Both share one set of
    databases, so a flavor created through one is seen by the other.
``glance``
    glance-api with onespec's image filter (``egg:onespec#onespec_images``) in ``refuse`` mode at
    ``/``, in ``warn`` mode under ``/warn``, and stock under ``/plain`` (where Nova reads images).

Everything else is the smallest real set-up: SQLite databases (migrated once per machine, under
the peers folder, and copied), oslo.messaging's in-memory ``fake:/`` transport (a server that is
created stays in BUILD: no conductor, scheduler or compute), Glance's file store, and in place
of Keystone the test-only token filter of :mod:`tests.cloud.auth`. The peer environments do not
have onespec installed: the box hands them this checkout's ``src/`` and a copy of the installed
distribution's metadata, so ``egg:onespec#...`` resolves through the entry points onespec
declares, as it would where onespec is installed.

Every process is started in a session of its own, stopped by its process id, and stops itself
when the process that owns the box is gone.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import importlib.metadata
import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from tests.peers import PROGRAMS, ROOT, peers_dir

HERE = Path(__file__).resolve().parent

#: The services of the box: name -> (peer environment, application served).
SERVICES = {"nova": "nova", "nova-plain": "nova", "glance": "glance"}
#: The paste filters onespec declares that the box puts in the pipelines.
FILTERS = ("onespec_servers", "onespec_images")
#: How long a start may take before the box gives up (the services' logs say why).
START_TIMEOUT = 240.0
#: The microversion the box's own helpers speak; 2.37 is the first with ``"networks": "none"``.
MICROVERSION = "2.90"

ADMIN_ROLES = ("admin", "member", "reader")
MEMBER_ROLES = ("member", "reader")


class BoxError(RuntimeError):
    """The box could not start or answer; the message carries the services' own words."""


@dataclass(frozen=True)
class Answer:
    """One HTTP answer: the status, the headers (lower-case names) and the body (JSON, if it is)."""

    status: int
    headers: Mapping[str, str]
    body: Any

    def __str__(self) -> str:
        return f"{self.status} {json.dumps(self.body)[:2000] if self.body != '' else ''}"


# --- Configuration ---------------------------------------------------------------------------


def _nova_conf(folder: Path, glance_url: str) -> str:
    return f"""\
[DEFAULT]
transport_url = fake:/
host = box
state_path = {folder}/state
debug = false

[api_database]
connection = sqlite:///nova_api.sqlite?timeout=60

[database]
connection = sqlite:///nova.sqlite?timeout=60

[glance]
endpoint_override = {glance_url}/plain
num_retries = 0

[oslo_concurrency]
lock_path = {folder}/locks
"""


def _nova_paste(onespec: bool) -> str:
    """Nova 34's stock ``api-paste.ini``, Keystone's ``authtoken`` replaced by the box's token
    filter and, with *onespec*, the server filter after ``keystonecontext``."""
    stock = (PROGRAMS["nova"].location / "etc" / "nova" / "api-paste.ini").read_text()
    text = stock.replace(" authtoken keystonecontext ", " boxauth keystonecontext ")
    if onespec:
        text = text.replace(" keystonecontext ", " keystonecontext onespec_servers ")
        warn_pipeline = (
            "keystone = cors http_proxy_to_wsgi compute_req_id faultwrap request_log sizelimit "
            "osprofiler boxauth keystonecontext onespec_servers_warn osapi_compute_app_v21"
        )
        text = text.replace(
            "/v2.1/+: openstack_compute_api_v21\n",
            "/v2.1/+: openstack_compute_api_v21\n"
            "/warn/v2.1: oscomputeversion_v2\n"
            "/warn/v2.1/+: openstack_compute_api_v21_warn\n",
        )
        text += f"""
[composite:openstack_compute_api_v21_warn]
use = call:nova.api.auth:pipeline_factory_v21
{warn_pipeline}

[filter:onespec_servers]
use = egg:onespec#onespec_servers
mode = refuse
extra_spec_validators = onespec

[filter:onespec_servers_warn]
use = egg:onespec#onespec_servers
mode = warn
"""
    if text.count(" boxauth keystonecontext ") < 2:
        raise BoxError("Nova's api-paste.ini no longer has the two keystone pipelines")
    return text + "\n[filter:boxauth]\npaste.filter_factory = tests.cloud.auth:filter_factory\n"


def _glance_conf(folder: Path) -> str:
    return f"""\
[DEFAULT]
debug = false

[database]
connection = sqlite:///glance.sqlite?timeout=60

[paste_deploy]
flavor = box
config_file = {folder}/etc/glance/glance-api-paste.ini

[glance_store]
stores = file
default_store = file
filesystem_store_datadir = {folder}/images

[oslo_concurrency]
lock_path = {folder}/locks
"""


def _glance_paste() -> str:
    """Glance 33's stock ``glance-api-paste.ini`` with the box's flavor: three pipelines on one
    database, mapped by path (refuse at ``/``, warn at ``/warn``, stock at ``/plain``)."""
    stock = (PROGRAMS["glance"].location / "etc" / "glance" / "glance-api-paste.ini").read_text()
    head = "cors http_proxy_to_wsgi versionnegotiation osprofiler boxauth context"
    return f"""{stock}
[composite:glance-api-box]
use = egg:Paste#urlmap
/ = box-refuse
/warn = box-warn
/plain = box-plain
/healthcheck = healthcheck

[pipeline:box-refuse]
pipeline = {head} onespec_images rootapp

[pipeline:box-warn]
pipeline = {head} onespec_images_warn rootapp

[pipeline:box-plain]
pipeline = {head} rootapp

[filter:onespec_images]
use = egg:onespec#onespec_images
mode = refuse

[filter:onespec_images_warn]
use = egg:onespec#onespec_images
mode = warn

[filter:boxauth]
paste.filter_factory = tests.cloud.auth:filter_factory
"""


def _write_configs(folder: Path, glance_url: str, filters: frozenset[str] = frozenset()) -> None:
    """The services' configuration; a filter onespec does not declare (*filters* lacks it) is
    left out of the pipelines, and the box's ``filters`` says so."""
    missing = frozenset(FILTERS) - filters
    for name in ("nova", "nova-plain"):
        etc = folder / "etc" / name
        etc.mkdir(parents=True, exist_ok=True)
        (etc / "nova.conf").write_text(_nova_conf(folder, glance_url))
        paste = _without(_nova_paste(onespec=name == "nova"), missing)
        (etc / "api-paste.ini").write_text(paste)
    etc = folder / "etc" / "glance"
    etc.mkdir(parents=True, exist_ok=True)
    (etc / "glance-api.conf").write_text(_glance_conf(folder))
    (etc / "glance-api-paste.ini").write_text(_without(_glance_paste(), missing))
    for sub in ("state", "locks", "images", "logs"):
        (folder / sub).mkdir(exist_ok=True)


def _onespec_metadata(folder: Path) -> tuple[Path, frozenset[str]]:
    """A folder holding a copy of the installed onespec distribution's metadata (its entry
    points among it), for the peer environments' ``sys.path``; and the paste filters of
    :data:`FILTERS` that onespec declares."""
    installed = importlib.metadata.distribution("onespec")
    source = Path(str(installed.locate_file(""))) / f"onespec-{installed.version}.dist-info"
    if not (source / "entry_points.txt").is_file():
        raise BoxError(f"no entry points in {source}: reinstall onespec (make venv)")
    declared = {ep.name for ep in installed.entry_points if ep.group == "paste.filter_factory"}
    site = folder / "site"
    target = site / source.name
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    for name in ("METADATA", "entry_points.txt"):
        shutil.copy(source / name, target / name)
    return site, frozenset(name for name in FILTERS if name in declared)


def _without(text: str, missing: frozenset[str]) -> str:
    """*text* with the filters of *missing* left out of every pipeline line."""
    for name in missing:
        for suffix in ("_warn", ""):
            text = text.replace(f" {name}{suffix} ", " ")
    return text


def _environment(folder: Path, site: Path | None) -> dict[str, str]:
    path = [str(ROOT / "src"), str(ROOT)]
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(folder),
        "LANG": "C.UTF-8",
        "PYTHONPATH": os.pathsep.join([str(site), *path] if site else path),
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONWARNINGS": "ignore",
        "OS_NOVA_CONFIG_DIR": "",
        "OS_GLANCE_CONFIG_DIR": str(folder / "etc" / "glance"),
    }


# --- The databases, migrated once per machine --------------------------------------------------

DATABASES = ("nova_api.sqlite", "nova_cell0.sqlite", "nova.sqlite", "glance.sqlite")


def _template_key() -> str:
    digest = hashlib.sha256()
    for name in ("nova", "glance"):
        digest.update(PROGRAMS[name].fingerprint().encode())
    digest.update((HERE / "prepare.py").read_bytes())
    # What the migrations read of the configuration: the databases' connections.
    digest.update(_nova_conf(Path("/box"), "http://box").encode())
    digest.update(_glance_conf(Path("/box")).encode())
    return digest.hexdigest()[:16]


def migrated_databases() -> Path:
    """The folder of migrated, empty databases for this machine's peers (made on first use)."""
    folder = peers_dir() / "cloud" / _template_key()
    if all((folder / name).is_file() for name in DATABASES):
        return folder
    folder.parent.mkdir(parents=True, exist_ok=True)
    with (folder.parent / ".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if all((folder / name).is_file() for name in DATABASES):
            return folder
        building = folder.with_name(folder.name + ".building")
        shutil.rmtree(building, ignore_errors=True)
        building.mkdir()
        _write_configs(building, "http://127.0.0.1:9")
        steps = {}
        for service in ("nova", "glance"):
            env = _environment(building, None)
            env["OS_NOVA_CONFIG_DIR"] = str(building / "etc" / "nova")
            steps[service] = subprocess.Popen(
                [str(PROGRAMS[service].python), str(HERE / "prepare.py"), service],
                cwd=building,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )
        for service, process in steps.items():
            output, _ = process.communicate(timeout=600)
            if process.returncode != 0:
                raise BoxError(f"migrating {service}'s databases failed:\n{output[-4000:]}")
        missing = [name for name in DATABASES if not (building / name).is_file()]
        if missing:
            raise BoxError(f"migrating left no {missing} in {building}")
        # Several test processes share one box: with write-ahead logging, readers never wait
        # for a writer, and writers wait their turn (the connections' timeout) instead of
        # failing with "database is locked". The mode is kept in each database file.
        for name in DATABASES:
            database = sqlite3.connect(building / name)
            with contextlib.closing(database):
                database.execute("PRAGMA journal_mode=WAL")
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
        for name in DATABASES:
            shutil.copy(building / name, folder / name)
        shutil.rmtree(building, ignore_errors=True)
        # Databases migrated for other pins are not used again.
        for other in folder.parent.iterdir():
            if other.is_dir() and other != folder:
                shutil.rmtree(other, ignore_errors=True)
    return folder


# --- The box -----------------------------------------------------------------------------------


def _listener() -> socket.socket:
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    listener.set_inheritable(True)
    return listener


@dataclass
class Box:
    """A running box: where its services answer, and helpers to use and seed it."""

    folder: Path
    ports: dict[str, int]
    pids: dict[str, int] = field(default_factory=dict)
    #: Seconds from the first process started to every service answering.
    started_in: float = 0.0
    #: The onespec paste filters in the pipelines (those the installed onespec declares).
    filters: list[str] = field(default_factory=list)

    # -- where things are

    @property
    def nova(self) -> str:
        return f"http://127.0.0.1:{self.ports['nova']}/v2.1"

    @property
    def nova_warn(self) -> str:
        return f"http://127.0.0.1:{self.ports['nova']}/warn/v2.1"

    @property
    def nova_plain(self) -> str:
        return f"http://127.0.0.1:{self.ports['nova-plain']}/v2.1"

    @property
    def glance(self) -> str:
        return f"http://127.0.0.1:{self.ports['glance']}"

    @property
    def glance_warn(self) -> str:
        return f"{self.glance}/warn"

    @property
    def glance_plain(self) -> str:
        return f"{self.glance}/plain"

    def log_text(self, service: str) -> str:
        """What *service* (``nova``, ``nova-plain``, ``glance``) has logged so far."""
        return (self.folder / "logs" / f"{service}.log").read_text(errors="replace")

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "folder": str(self.folder)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Box:
        return cls(**{**data, "folder": Path(data["folder"])})

    # -- credentials

    def token(self, admin: bool = True, *, user: str | None = None, project: str = "demo") -> str:
        roles = ADMIN_ROLES if admin else MEMBER_ROLES
        return f"box:{user or ('admin' if admin else 'alice')}:{project}:{','.join(roles)}"

    def headers(self, admin: bool = True, microversion: str | None = None) -> dict[str, str]:
        headers = {"X-Auth-Token": self.token(admin), "Accept": "application/json"}
        if microversion:
            headers["OpenStack-API-Version"] = f"compute {microversion}"
            headers["X-OpenStack-Nova-API-Version"] = microversion
        return headers

    def clouds_yaml(self, name: str = "box") -> dict[str, Any]:
        """An openstacksdk ``clouds.yaml`` document naming this box *name* (as the admin)."""
        return {
            "clouds": {
                name: {
                    "auth_type": "admin_token",
                    "auth": {"token": self.token(True), "endpoint": self.nova},
                    "region_name": "RegionOne",
                    "compute_endpoint_override": self.nova,
                    "image_endpoint_override": self.glance,
                }
            }
        }

    # -- HTTP

    def call(
        self,
        method: str,
        url: str,
        body: Any = None,
        *,
        admin: bool = True,
        microversion: str | None = None,
        headers: Mapping[str, str] | None = None,
        content_type: str = "application/json",
    ) -> Answer:
        """One request; *body* is sent as JSON unless it is already bytes."""
        sent = {**self.headers(admin, microversion), **(headers or {})}
        data = None
        if body is not None:
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            sent.setdefault("Content-Type", content_type)
        if not url.startswith("http://127.0.0.1:"):
            raise BoxError(f"the box only calls its own services, not {url!r}")
        request = urllib.request.Request(url, data=data, method=method, headers=sent)  # noqa: S310
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        try:
            with opener.open(request, timeout=120) as response:
                status, got, raw = response.status, response.headers, response.read()
        except urllib.error.HTTPError as error:
            status, got, raw = error.code, error.headers, error.read()
        text = raw.decode("utf-8", "replace")
        try:
            parsed: Any = json.loads(text) if text else ""
        except ValueError:
            parsed = text
        return Answer(status, {k.lower(): v for k, v in got.items()}, parsed)

    def _ok(self, answer: Answer, what: str) -> Any:
        if answer.status >= 300:
            raise BoxError(f"{what}: {answer}")
        return answer.body

    # -- seeding

    def create_flavor(
        self,
        vcpus: int,
        ram: int,
        disk: int,
        extra_specs: Mapping[str, str] | None = None,
        *,
        name: str | None = None,
        is_public: bool = True,
    ) -> dict[str, Any]:
        """A new flavor, its extra specs written at 2.85 (stored as given, unchecked)."""
        flavor = {
            "name": name or f"box-{uuid.uuid4().hex[:12]}",
            "vcpus": vcpus,
            "ram": ram,
            "disk": disk,
            "os-flavor-access:is_public": is_public,
        }
        created = self._ok(
            self.call("POST", f"{self.nova_plain}/flavors", {"flavor": flavor}), "create flavor"
        )["flavor"]
        if extra_specs:
            self._ok(
                self.call(
                    "POST",
                    f"{self.nova_plain}/flavors/{created['id']}/os-extra_specs",
                    {"extra_specs": dict(extra_specs)},
                    microversion="2.85",
                ),
                "write extra specs",
            )
        shown = self.call("GET", f"{self.nova_plain}/flavors/{created['id']}", microversion="2.75")
        return self._ok(shown, "show flavor")["flavor"]

    def disable_flavor(self, flavor_id: str) -> None:
        """Mark a flavor disabled, as only the database can (Nova's API has no way to)."""
        database = sqlite3.connect(self.folder / "nova_api.sqlite", timeout=30)
        with contextlib.closing(database), database:
            changed = database.execute(
                "UPDATE flavors SET disabled = 1 WHERE flavorid = ?", (flavor_id,)
            ).rowcount
        if changed != 1:
            raise BoxError(f"no flavor {flavor_id!r} to disable")

    def create_image(
        self,
        properties: Mapping[str, Any] | None = None,
        *,
        min_ram: int = 0,
        min_disk: int = 0,
        name: str | None = None,
        active: bool = True,
        visibility: str = "public",
    ) -> dict[str, Any]:
        """A new image written through the stock pipeline (any property stored); with *active*,
        a few bytes uploaded so that its status is ``active``."""
        image = {
            "name": name or f"box-{uuid.uuid4().hex[:12]}",
            "disk_format": "raw",
            "container_format": "bare",
            "visibility": visibility,
            "min_ram": min_ram,
            "min_disk": min_disk,
            **dict(properties or {}),
        }
        created = self._ok(
            self.call("POST", f"{self.glance_plain}/v2/images", image), "create image"
        )
        if active:
            self._ok(
                self.call(
                    "PUT",
                    f"{self.glance_plain}/v2/images/{created['id']}/file",
                    b"onespec box image\n",
                    content_type="application/octet-stream",
                ),
                "upload image data",
            )
        return self._ok(
            self.call("GET", f"{self.glance_plain}/v2/images/{created['id']}"), "show image"
        )

    def boot(
        self, flavor_id: str, image_id: str | None, url: str | None = None, *, admin: bool = True
    ) -> Answer:
        """``POST /servers`` of the pair, with no network: 400 if refused, 202 if accepted;
        as a member of the project rather than an admin with ``admin=False``."""
        server: dict[str, Any] = {
            "name": f"box-{uuid.uuid4().hex[:12]}",
            "flavorRef": flavor_id,
            "networks": "none",
        }
        if image_id is not None:
            server["imageRef"] = image_id
        return self.call(
            "POST",
            f"{url or self.nova}/servers",
            {"server": server},
            admin=admin,
            microversion=MICROVERSION,
        )

    # -- life

    def stop(self) -> None:
        """Stop every service by its process id (its whole session)."""
        for pid in self.pids.values():
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pid, signal.SIGTERM)
        deadline = time.monotonic() + 15
        for pid in self.pids.values():
            while _alive(pid) and time.monotonic() < deadline:
                time.sleep(0.1)
            if _alive(pid):
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(pid, signal.SIGKILL)
        self.pids = {}

    def alive(self) -> bool:
        return bool(self.pids) and all(_alive(pid) for pid in self.pids.values())


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A child that has exited but not been waited for is a zombie: not alive.
    with contextlib.suppress(ChildProcessError):
        if os.waitpid(pid, os.WNOHANG) != (0, 0):
            return False
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(") ", 1)[1][:1] != "Z"
    except OSError:
        return False


def start(folder: Path, watched: int | None = None) -> Box:
    """Start a box in *folder* (created; emptied first); it stops when *watched* is gone."""
    began = time.monotonic()
    templates = migrated_databases()
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    listeners = {name: _listener() for name in SERVICES}
    ports = {name: listener.getsockname()[1] for name, listener in listeners.items()}
    site, filters = _onespec_metadata(folder)
    box = Box(folder=folder, ports=ports, filters=sorted(filters))
    _write_configs(folder, box.glance, filters)
    for name in DATABASES:
        shutil.copy(templates / name, folder / name)
    try:
        for name, program in SERVICES.items():
            env = _environment(folder, site)
            env["OS_NOVA_CONFIG_DIR"] = str(folder / "etc" / name)
            listener = listeners[name]
            with (folder / "logs" / f"{name}.log").open("w") as log:
                process = subprocess.Popen(
                    [
                        str(PROGRAMS[program].python),
                        str(HERE / "serve.py"),
                        program,
                        name,
                        str(listener.fileno()),
                        str(watched or os.getpid()),
                    ],
                    cwd=folder,
                    env=env,
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    pass_fds=(listener.fileno(),),
                    start_new_session=True,
                )
            box.pids[name] = process.pid
        for listener in listeners.values():
            listener.close()
        _wait_ready(box)
    except BaseException:
        box.stop()
        raise
    box.started_in = time.monotonic() - began
    return box


def _wait_ready(box: Box) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    waiting = set(SERVICES)
    while waiting:
        for name in sorted(waiting):
            if (box.folder / f"{name}.ready").is_file():
                waiting.discard(name)
            elif not _alive(box.pids[name]):
                raise BoxError(f"{name} stopped while starting:\n{box.log_text(name)[-6000:]}")
        if waiting and time.monotonic() > deadline:
            tails = "\n".join(f"--- {name}\n{box.log_text(name)[-3000:]}" for name in waiting)
            raise BoxError(f"{sorted(waiting)} did not start in {START_TIMEOUT:.0f} s:\n{tails}")
        time.sleep(0.1)
