"""``onespec plugins ...``: a client of the plugin admin API.

The service is reached in one of two ways. Directly, at ``--url`` (``$ONESPEC_URL``): behind
keystonemiddleware with a token the caller already has (``--token``, ``$ONESPEC_TOKEN``), or,
for a service without it (a test, a trusted network), with the identity in ``--project-id``
and ``--roles``. Or through a cloud, as the ``openstack`` client reaches its services: the cloud
named by ``--os-cloud`` (``$OS_CLOUD``, ``clouds.yaml``, else the ``OS_*`` variables) gives a
keystoneauth session, whose token comes from Keystone and whose endpoint comes from the
catalogue (service type ``data-processing``, see :data:`SERVICE_TYPE`), ``--url`` overriding
it. Warnings about deprecated plugins and versions go to standard error, so JSON on standard
output stays clean.
"""

from __future__ import annotations

import json
import os
import re
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import click

from onespec.errors import OnespecError
from onespec.validators_runtime.cli_grammar import (
    FORMAT_OPTION,
    GrammarGroup,
    echo_report,
    listing,
)
from onespec.validators_runtime.plugin_labels.labels import (
    PLUGIN,
    VERSION,
    hidden,
    labels_in,
    warnings_for,
)
from onespec.validators_runtime.problems import shown

if TYPE_CHECKING:
    from onespec.validators_runtime.cloud import CloudConnection

DEFAULT_URL = "http://127.0.0.1:8386"
#: The service type the plugin admin API is found under in a Keystone catalogue: Sahara's.
#: The API is Sahara's plugin API (its plugins and their labels, on Sahara's port), and a
#: cloud that moves from Sahara keeps the catalogue entry and the clients that look it up.
#: ``--service-type`` names another for a cloud that registers the service under its own.
SERVICE_TYPE = "data-processing"
#: The largest answer read from the API, in bytes: the whole plugin list fits many times.
MAX_ANSWER_BYTES = 16 * 1024 * 1024


class ApiClientError(OnespecError, click.ClickException):
    """The API refused the request, or answered what is not JSON; exit code 1."""

    exit_code = 1


class ApiUnreachable(ApiClientError):
    """The API could not be reached: a command that cannot run as asked, exit code 2, as a
    remote that cannot be reached is everywhere in the command line."""

    exit_code = 2


class Transport(Protocol):
    """What the commands send their requests through: :class:`Client` or :class:`CloudClient`."""

    def request(self, method: str, path: str, body: Any = None) -> Any: ...


@dataclass
class Client:
    """Sends requests to the API at a URL with the caller's identity headers."""

    url: str
    headers: dict[str, str]
    timeout: float

    def request(self, method: str, path: str, body: Any = None) -> Any:
        data = None
        headers = {"Accept": "application/json", **self.headers}
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            headers["Content-Type"] = "application/json"
        # The group checked that the URL is http(s), so no file: or custom scheme is opened.
        request = urllib.request.Request(  # noqa: S310
            self.url.rstrip("/") + path, data=data, headers=headers, method=method
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:  # noqa: S310
                raw = _bounded(iter(lambda: response.read(64 * 1024), b""), self.url)
                return _decoded(raw, self.url)
        except urllib.error.HTTPError as error:
            raw = error.read(MAX_ANSWER_BYTES)
            raise ApiClientError(
                _error_message(error.code, error.reason, raw, UNAUTHORIZED_HINT)
            ) from None
        except (urllib.error.URLError, TimeoutError, ConnectionError) as error:
            reason = getattr(error, "reason", error)
            raise ApiUnreachable(f"Cannot reach the onespec API at {self.url}: {reason}.") from None


class CloudClient:
    """Sends requests to the API through a cloud's keystoneauth session: the token from
    Keystone, the endpoint from the catalogue (or ``endpoint``), the identity headers given
    (for a service without keystonemiddleware) beside them."""

    def __init__(
        self,
        cloud: CloudConnection,
        service_type: str,
        endpoint: str | None,
        headers: dict[str, str],
        timeout: float,
    ) -> None:
        self.cloud, self.service_type, self.headers, self.timeout = (
            cloud,
            service_type,
            headers,
            timeout,
        )
        self.adapter = cloud.adapter(service_type, endpoint)
        self.url: str | None = None

    def endpoint(self) -> str:
        """The API's URL: asking for it authenticates, so a cloud whose credentials, Keystone
        or catalogue fail says so here, before any request to the API."""
        from keystoneauth1 import exceptions as ks

        from onespec.validators_runtime.cloud import CloudError

        if self.url is None:
            try:
                with self.cloud.plainly(
                    f"find the {self.service_type!r} service (get a token and read the catalogue)"
                ):
                    try:
                        found = self.adapter.get_endpoint()
                    except (ks.EndpointNotFound, ks.EmptyCatalog):
                        found = None
            except CloudError as exc:
                raise ApiUnreachable(_sentence(str(exc))) from None
            if not found:
                raise ApiUnreachable(
                    f"{self.cloud.where()}: the service catalogue has no {self.service_type!r} "
                    "endpoint for its interface and region; give the API's URL with '--url', "
                    "or the service type it is registered under with '--service-type'."
                )
            self.url = str(found)
        return self.url

    def request(self, method: str, path: str, body: Any = None) -> Any:
        from keystoneauth1 import exceptions as ks

        from onespec.validators_runtime.cloud import CloudError

        url = self.endpoint()
        options: dict[str, Any] = {"headers": {"Accept": "application/json", **self.headers}}
        if body is not None:
            options["json"] = body
        try:
            with self.cloud.plainly(f"send {method} {path} to the onespec API at {url}"):
                try:
                    response = self.adapter.request(
                        path, method, raise_exc=False, stream=True, timeout=self.timeout, **options
                    )
                except (ks.ConnectFailure, ks.ConnectTimeout) as error:
                    raise ApiUnreachable(
                        f"Cannot reach the onespec API at {url}: {_first_line(error)}."
                    ) from None
                try:
                    raw = _bounded(response.iter_content(64 * 1024), url)
                finally:
                    response.close()
        except CloudError as exc:
            raise ApiUnreachable(_sentence(str(exc))) from None
        if response.status_code >= 400:
            hint = CLOUD_UNAUTHORIZED_HINT.format(where=self.cloud.where())
            raise ApiClientError(
                _error_message(response.status_code, response.reason or "", raw, hint)
            )
        return _decoded(raw, url)


def _sentence(text: str) -> str:
    return text if text.endswith(".") else text + "."


def _first_line(error: BaseException) -> str:
    said = (str(error).strip().splitlines() or [type(error).__name__])[0]
    return said if len(said) <= 300 else said[:297] + "..."


def _bounded(chunks: Any, url: str) -> bytes:
    """The answer's bytes, read up to :data:`MAX_ANSWER_BYTES`."""
    body = bytearray()
    for chunk in chunks:
        body += chunk
        if len(body) > MAX_ANSWER_BYTES:
            raise ApiClientError(
                f"The onespec API at {url} answered more than {MAX_ANSWER_BYTES:,} bytes, more "
                "than onespec reads."
            )
    return bytes(body)


def _decoded(raw: bytes, url: str) -> Any:
    try:
        return json.loads(raw or b"null")
    except (ValueError, RecursionError):
        raise ApiClientError(
            f"The onespec API at {url} answered with something that is not JSON."
        ) from None


#: What a 401 adds, said to a caller who gave a token or none.
UNAUTHORIZED_HINT = (
    " Give a Keystone token ('--token', ONESPEC_TOKEN), a cloud whose Keystone gives one "
    "('--os-cloud', OS_CLOUD) or, for a service without keystonemiddleware, a project "
    "('--project-id', ONESPEC_PROJECT_ID)."
)
#: What a 401 adds, said to a caller whose token came from a cloud.
CLOUD_UNAUTHORIZED_HINT = (
    " The service did not accept the token of {where}: is it behind keystonemiddleware of "
    "the cloud's Keystone? For a service without keystonemiddleware, give a project "
    "('--project-id', ONESPEC_PROJECT_ID)."
)


def _error_message(code: int, reason: str, raw: bytes, hint: str) -> str:
    try:
        body = json.loads(raw)
        message = body["error"]["message"]
    except (ValueError, KeyError, TypeError, RecursionError):
        message = None
    answer = (
        f"The API answered {code}: {message}" if message else (f"The API answered {code} {reason}.")
    )
    if code == 401:
        answer += hint
    return answer


def _segment(text: str) -> str:
    return urllib.parse.quote(text, safe="")


@click.group(cls=GrammarGroup)
@click.option(
    "--url",
    envvar="ONESPEC_URL",
    default=DEFAULT_URL,
    show_default=True,
    help=(
        "The onespec API [env: ONESPEC_URL]. With a cloud, the endpoint to use instead of the "
        "catalogue's (used only when given)."
    ),
)
@click.option(
    "--os-cloud",
    "os_cloud",
    envvar="OS_CLOUD",
    metavar="NAME",
    help=(
        "Reach the API through this cloud of clouds.yaml: a token from its Keystone, the "
        "endpoint from its catalogue [env: OS_CLOUD; without either, the OS_* variables "
        "when OS_AUTH_URL is set]."
    ),
)
@click.option(
    "--service-type",
    envvar="ONESPEC_SERVICE_TYPE",
    default=SERVICE_TYPE,
    show_default=True,
    callback=lambda _ctx, _param, value: _service_type(value),
    help="With a cloud, the catalogue's type of the API [env: ONESPEC_SERVICE_TYPE].",
)
@click.option(
    "--token",
    envvar="ONESPEC_TOKEN",
    help="A Keystone token, sent as X-Auth-Token [env: ONESPEC_TOKEN].",
)
@click.option(
    "--project-id",
    envvar="ONESPEC_PROJECT_ID",
    help=(
        "Sent as X-Project-Id, for a service without keystonemiddleware [env: ONESPEC_PROJECT_ID]."
    ),
)
@click.option(
    "--user-id",
    envvar="ONESPEC_USER_ID",
    help="Sent as X-User-Id [env: ONESPEC_USER_ID].",
)
@click.option(
    "--roles",
    envvar="ONESPEC_ROLES",
    help="Comma-separated roles, sent as X-Roles [env: ONESPEC_ROLES].",
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=0.1),
    default=30.0,
    show_default=True,
    help="Seconds to wait for the API.",
)
@click.pass_context
def plugins(
    ctx: click.Context,
    url: str,
    os_cloud: str | None,
    service_type: str,
    token: str | None,
    project_id: str | None,
    user_id: str | None,
    roles: str | None,
    timeout: float,
) -> None:
    """List, show, enable and disable service plugins through the plugin admin API.

    The API is reached directly at --url, with --token (behind keystonemiddleware) or
    --project-id and --roles (a service without it); or, as the openstack client reaches a
    service, through a cloud: --os-cloud NAME, else OS_CLOUD, in clouds.yaml
    (OS_CLIENT_CONFIG_FILE, the current directory, ~/.config/openstack, /etc/openstack), else
    the OS_* variables when OS_AUTH_URL is set. A cloud's Keystone gives the token and its
    catalogue the endpoint (service type data-processing, or --service-type); --url, when
    given, is the endpoint instead. A cloud needs openstacksdk: pip install 'onespec[cloud]'.

    A cloud and a token are two ways to authenticate: given both, the command line's wins
    over the environment's, and both on the command line (or both only in the environment)
    is a usage error. --project-id, --user-id and --roles are sent with either; given without
    --os-cloud on the command line, they mean a service reached directly, and OS_CLOUD and
    the OS_* variables are not read. Exits 2 when the API or the cloud cannot be found,
    reached or authenticated with.
    """
    scheme = urllib.parse.urlsplit(url).scheme
    if scheme not in {"http", "https"}:
        raise click.BadParameter(f"{url!r} is not an http:// or https:// URL", param_hint="--url")
    headers = {}
    for name, value in (
        ("X-Project-Id", project_id),
        ("X-User-Id", user_id),
        ("X-Roles", roles),
    ):
        if value:
            headers[name] = value
    cloud = _cloud_asked(ctx, os_cloud, token, identity=bool(headers))
    if cloud is None:
        if token:
            headers["X-Auth-Token"] = token
        ctx.obj = Client(url, headers, timeout)
        return
    from onespec.validators_runtime.cloud import CloudConnection, CloudError

    given_url = ctx.get_parameter_source("url") is not click.core.ParameterSource.DEFAULT
    try:
        connection = CloudConnection(cloud or None)
        ctx.obj = CloudClient(
            connection, service_type, url if given_url else None, headers, timeout
        )
    except CloudError as exc:
        raise ApiUnreachable(_sentence(str(exc))) from None


def _service_type(value: str) -> str:
    """A service type as the service-types authority writes them: lowercase words joined by
    hyphens, at most 64 characters."""
    if not (0 < len(value) <= 64 and re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", value)):
        raise click.BadParameter(
            f"{shown(value)} is not a service type (lowercase letters, digits and hyphens, "
            "such as 'data-processing'; at most 64 characters)",
            param_hint="--service-type",
        )
    return value


def _cloud_asked(
    ctx: click.Context, os_cloud: str | None, token: str | None, identity: bool
) -> str | None:
    """The cloud to reach the API through: its name, ``""`` for the cloud of the ``OS_*``
    variables, None to reach the API directly.

    ``--os-cloud`` on the command line always names the cloud. A cloud only in the environment
    (``OS_CLOUD``, ``OS_AUTH_URL``) yields to onespec's own identity settings (``identity``:
    a project, user or roles for a service reached directly), so that a shell set up for the
    ``openstack`` client reaches a service directly as it did. A cloud and a token are two ways
    to authenticate: the command line's wins over the environment's, and two of the same rank
    are a usage error."""
    from_line = click.core.ParameterSource.COMMANDLINE
    cloud_on_line = ctx.get_parameter_source("os_cloud") is from_line
    token_on_line = ctx.get_parameter_source("token") is from_line
    if os_cloud is None and os.environ.get("OS_AUTH_URL"):
        os_cloud = ""  # the OS_* variables name a cloud, as they do for the openstack client
    if os_cloud is None or (identity and not cloud_on_line and not token):
        return None
    if not token:
        return os_cloud
    if cloud_on_line and token_on_line:
        raise click.UsageError(
            "'--os-cloud' gets a token from the cloud's Keystone and '--token' gives one: "
            "give one of them"
        )
    if cloud_on_line or token_on_line:
        return os_cloud if cloud_on_line else None
    settings = "OS_CLOUD" if os.environ.get("OS_CLOUD") else "OS_AUTH_URL (the OS_* variables)"
    raise click.UsageError(
        f"both {settings} and ONESPEC_TOKEN are set, two ways to authenticate: unset one, or "
        "choose on the command line with '--os-cloud NAME' or '--token TOKEN'"
    )


def _warn(plugin: Mapping[str, Any]) -> None:
    for warning in warnings_for(plugin):
        click.echo(f"warning: {warning}", err=True)


def _state(labels: Mapping[str, Any], scope: str) -> list[str]:
    """The words that describe a plugin's or a version's labels: ``disabled``, ``hidden``, ..."""
    words = []
    for label in labels_in(scope):
        entry = labels.get(label.name)
        if entry is None:
            continue
        on = bool(entry["status"])
        if label.effect == "gate":
            words.append(label.name if on else "disabled")
        elif on:
            words.append(label.name)
    return words


def _version_text(plugin: Mapping[str, Any], version: str) -> str:
    words = [w for w in _state(plugin["version_labels"][version], VERSION) if w != "enabled"]
    return f"{version} ({', '.join(words)})" if words else version


def _table(rows: list[list[str]]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in rows
    ]


@plugins.command("list")
@click.option("--all", "show_all", is_flag=True, help="Include hidden plugins.")
@FORMAT_OPTION
@click.pass_obj
def list_plugins(client: Transport, show_all: bool, output_format: str) -> None:
    """List the plugins, with their versions and labels; hidden ones only with --all."""
    everything = client.request("GET", "/plugins")["plugins"]
    shown = [plugin for plugin in everything if show_all or not hidden(plugin)]
    if output_format != "text":
        echo_report({"plugins": shown}, _PLUGIN_ROWS)
    elif shown:
        rows = [["NAME", "TITLE", "VERSIONS", "LABELS"]]
        for plugin in shown:
            rows.append(
                [
                    plugin["name"],
                    plugin["title"],
                    ", ".join(_version_text(plugin, v) for v in plugin["version_labels"]),
                    ", ".join(_state(plugin["plugin_labels"], PLUGIN)),
                ]
            )
        for line in _table(rows):
            click.echo(line)
    else:
        click.echo("No plugins.")
    left_out = len(everything) - len(shown)
    if left_out and output_format == "text":
        click.echo(
            f"{left_out} hidden plugin{'s' if left_out != 1 else ''} not shown; '--all' shows "
            f"{'them' if left_out != 1 else 'it'}.",
            err=True,
        )
    # No warnings here: the table says "deprecated" beside each deprecated version.


#: ``-f table|csv|value``: one row a plugin (``-c name`` for their names alone).
_PLUGIN_ROWS = listing("plugins", columns=("name", "title", "version_labels", "plugin_labels"))


def _show_text(plugin: Mapping[str, Any]) -> None:
    click.echo(f"{plugin['name']}: {plugin['title']}")
    if plugin["description"]:
        click.echo(f"  {plugin['description']}")
    scopes = [("Plugin labels", plugin["plugin_labels"])] + [
        (f"Version {version} labels", labels)
        for version, labels in plugin["version_labels"].items()
    ]
    for title, labels in scopes:
        click.echo(f"{title}:")
        rows = [
            [
                f"  {name}",
                "yes" if entry["status"] else "no",
                "mutable" if entry["mutable"] else "immutable",
                entry["description"],
            ]
            for name, entry in labels.items()
        ]
        for line in _table(rows):
            click.echo(line)


@plugins.command("show")
@click.argument("name")
@FORMAT_OPTION
@click.pass_obj
def show_plugin(client: Transport, name: str, output_format: str) -> None:
    """Show a plugin with the status of each of its labels and of its versions' labels."""
    plugin = client.request("GET", f"/plugins/{_segment(name)}")["plugin"]
    if output_format != "text":
        echo_report(plugin)
    else:
        _show_text(plugin)
    _warn(plugin)


@plugins.command("update")
@click.argument("name")
@click.option("--enable/--disable", "enable", default=None, help="Enable or disable.")
@click.option(
    "--plugin-version",
    "versions",
    multiple=True,
    metavar="VERSION",
    help="Enable or disable this version (repeatable) instead of the whole plugin.",
)
@FORMAT_OPTION
@click.pass_obj
def update_plugin(
    client: Transport, name: str, enable: bool | None, versions: tuple[str, ...], output_format: str
) -> None:
    """Enable or disable a plugin, or some of its versions, for your project (admin only).

    \b
    Examples:
      onespec plugins update ambari --disable
      onespec plugins update ambari --enable --plugin-version 2.3 --plugin-version 2.4
    """
    if enable is None:
        raise click.UsageError("give '--enable' or '--disable'")
    change = {"enabled": {"status": enable}}
    if versions:
        body: dict[str, Any] = {"version_labels": {version: change for version in versions}}
    else:
        body = {"plugin_labels": change}
    plugin = client.request("PATCH", f"/plugins/{_segment(name)}", body)["plugin"]
    if output_format != "text":
        echo_report(plugin)
    else:
        state = "enabled" if enable else "disabled"
        if versions:
            listed = ", ".join(versions)
            click.echo(
                f"Plugin {name!r}: version{'s' if len(versions) > 1 else ''} {listed} {state}."
            )
        else:
            click.echo(f"Plugin {name!r} {state}.")
        _show_text(plugin)
    _warn(plugin)
