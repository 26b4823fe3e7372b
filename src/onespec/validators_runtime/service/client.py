"""``onespec plugins ...``: a client of the plugin admin API.

It talks HTTP to the service at ``--url`` (``$ONESPEC_URL``). Behind keystonemiddleware it
sends a token (``--token``, ``$ONESPEC_TOKEN``); a service reached directly (a test, a trusted
network) reads the identity from ``--project-id`` and ``--roles`` instead. Warnings about
deprecated plugins and versions go to standard error, so JSON on standard output stays clean.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

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

DEFAULT_URL = "http://127.0.0.1:8386"


class ApiClientError(OnespecError, click.ClickException):
    """The API refused the request, or answered what is not JSON; exit code 1."""

    exit_code = 1


class ApiUnreachable(ApiClientError):
    """The API could not be reached: a command that cannot run as asked, exit code 2, as a
    remote that cannot be reached is everywhere in the command line."""

    exit_code = 2


@dataclass
class Client:
    """Sends requests to the API with the caller's identity headers."""

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
                return json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            raise ApiClientError(_error_message(error)) from None
        except (urllib.error.URLError, TimeoutError, ConnectionError) as error:
            reason = getattr(error, "reason", error)
            raise ApiUnreachable(f"Cannot reach the onespec API at {self.url}: {reason}.") from None
        except ValueError:
            raise ApiClientError(
                f"The onespec API at {self.url} answered with something that is not JSON."
            ) from None


def _error_message(error: urllib.error.HTTPError) -> str:
    try:
        body = json.loads(error.read())
        message = body["error"]["message"]
    except (ValueError, KeyError, TypeError):
        message = None
    answer = (
        f"The API answered {error.code}: {message}"
        if message
        else (f"The API answered {error.code} {error.reason}.")
    )
    if error.code == 401:
        answer += (
            " Give a Keystone token ('--token', ONESPEC_TOKEN) or, for a service without "
            "keystonemiddleware, a project ('--project-id', ONESPEC_PROJECT_ID)."
        )
    return answer


def _segment(text: str) -> str:
    return urllib.parse.quote(text, safe="")


@click.group(cls=GrammarGroup)
@click.option(
    "--url",
    envvar="ONESPEC_URL",
    default=DEFAULT_URL,
    show_default=True,
    help="The onespec API [env: ONESPEC_URL].",
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
    token: str | None,
    project_id: str | None,
    user_id: str | None,
    roles: str | None,
    timeout: float,
) -> None:
    """List, show, enable and disable service plugins through the plugin admin API."""
    scheme = urllib.parse.urlsplit(url).scheme
    if scheme not in {"http", "https"}:
        raise click.BadParameter(f"{url!r} is not an http:// or https:// URL", param_hint="--url")
    headers = {}
    for name, value in (
        ("X-Auth-Token", token),
        ("X-Project-Id", project_id),
        ("X-User-Id", user_id),
        ("X-Roles", roles),
    ):
        if value:
            headers[name] = value
    ctx.obj = Client(url, headers, timeout)


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
def list_plugins(client: Client, show_all: bool, output_format: str) -> None:
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
def show_plugin(client: Client, name: str, output_format: str) -> None:
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
    client: Client, name: str, enable: bool | None, versions: tuple[str, ...], output_format: str
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
