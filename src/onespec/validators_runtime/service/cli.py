"""``onespec serve``, ``onespec db ...`` and ``onespec policy ...``: running the service."""

from __future__ import annotations

import importlib.util
import json
import logging
import os
import signal
import sys
from pathlib import Path
from typing import Any

import click

from onespec.validators_runtime.cli_grammar import (
    FORMAT_OPTION,
    PROGRAM_FORMATS,
    GrammarCommand,
    GrammarGroup,
    InputFile,
    Invalid,
    InvalidInput,
    UnusableInput,
    echo_json,
    echo_report,
    format_option,
    listing,
)

_DATABASE_URL = click.option(
    "--database-url",
    envvar="ONESPEC_DATABASE_URL",
    metavar="URL",
    help=(
        "The database, as sqlite:///PATH or postgresql://USER:PASSWORD@HOST/NAME "
        "[env: ONESPEC_DATABASE_URL; default: a SQLite file in $XDG_STATE_HOME/onespec/]."
    ),
)


LOG = logging.getLogger(__name__)

#: ``serve``'s defaults, stated here so that ``--help`` needs no service dependency to show them.
CONNECTION_LIMIT = 100
CHANNEL_TIMEOUT = 30


class ConfigurationError(UnusableInput):
    """The service cannot start as configured; exit code 2, like a usage error."""


#: What the service's commands import, by module name: the ``[api]`` extra without its
#: PostgreSQL driver, which only a postgresql:// database needs (SQLAlchemy names it then).
API_MODULES = (
    "flask",
    "sqlalchemy",
    "alembic",
    "oslo_policy",
    "oslo_context",
    "microversion_parse",
    "waitress",
)


def require_api_extra(command: str) -> None:
    """Exit 2 naming the extra to install when the service's dependencies are missing.

    onespec's core install validates without them; a bare ``ModuleNotFoundError`` from deep
    inside the service would not tell an operator that installing the ``api`` extra is the fix.
    """
    missing = [name for name in API_MODULES if importlib.util.find_spec(name) is None]
    if missing:
        raise ConfigurationError(
            f"`onespec {command}` needs the service's dependencies, and "
            f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} not installed: "
            "install onespec with its 'api' extra: `pip install '.[api]'` in a clone of onespec, "
            "or `pip install 'onespec[api] @ file:///PATH/TO/THE.whl'` from a built wheel."
        )


def _url(database_url: str | None) -> Any:
    """The database URL, parsed; a URL onespec cannot use is a usage error."""
    from onespec.validators_runtime.service.db.engine import (
        StoreError,
        default_database_url,
        normalize_url,
    )

    try:
        return normalize_url(database_url or default_database_url())
    except StoreError as exc:
        raise ConfigurationError(str(exc)) from None


def _missing_sqlite_file(url: Any) -> Path | None:
    """The SQLite file ``url`` names when it does not exist yet (connecting would create it)."""
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        return None
    path = Path(url.database).expanduser()
    return None if path.exists() else path


def _engine(database_url: str | None) -> Any:
    """An engine for a command that writes: a SQLite file's directory is created."""
    from onespec.validators_runtime.service.db.engine import create_engine

    parsed = _url(database_url)
    if parsed.get_backend_name() == "sqlite" and parsed.database:
        Path(parsed.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    return create_engine(parsed, pool_size=1)


def _create_embedded_database() -> None:
    """On the embedded default (a SQLite file nobody named), create and migrate it on first start.

    So that ``onespec serve`` alone works for a first try. A database someone named, and any
    PostgreSQL database, is upgraded only by ``onespec db upgrade``; so is the default file once
    it exists, so that upgrading onespec never changes a schema behind the operator's back.
    """
    from onespec.validators_runtime.service.db import migrate as database

    try:
        engine = _engine(None)
    except OSError as exc:
        raise ConfigurationError(f"Cannot create the default database: {exc}.") from None
    path = Path(engine.url.database or "")
    try:
        if path.exists() and database.current_revision(engine) is not None:
            return
        revision = database.upgrade(engine)
        LOG.info("Created the database %s at revision %s.", path, revision)
    except Exception as exc:
        raise ConfigurationError(f"Cannot create the database {path}: {exc}") from None
    finally:
        engine.dispose()


def _configure_logging(level: str) -> None:
    root = logging.getLogger()
    for handler in list(root.handlers):
        root.removeHandler(handler)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root.addHandler(handler)
    root.setLevel(level.upper())
    logging.getLogger("onespec.validators_runtime.extra_specs").setLevel(logging.WARNING)
    logging.getLogger("alembic").setLevel(logging.WARNING)
    if level != "debug":
        # "Task queue depth is N" for every request that waits for a thread: noise under load.
        logging.getLogger("waitress.queue").setLevel(logging.ERROR)


def _stop(signum: int, _frame: Any) -> None:
    raise SystemExit(0)  # waitress closes its sockets and finishes the requests under way


@click.command(cls=GrammarCommand)
@_DATABASE_URL
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    envvar="ONESPEC_HOST",
    help="The address to listen on [env: ONESPEC_HOST].",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8386,
    show_default=True,
    envvar="ONESPEC_PORT",
    help="The port to listen on; 0 picks a free one [env: ONESPEC_PORT].",
)
@click.option(
    "--policy-file",
    type=InputFile(allow_dash=False, path_type=Path),
    envvar="ONESPEC_POLICY_FILE",
    help="A policy file overriding the default rules [env: ONESPEC_POLICY_FILE].",
)
@click.option(
    "--threads",
    type=click.IntRange(1, 256),
    default=8,
    show_default=True,
    help="Requests handled at once.",
)
@click.option(
    "--connection-limit",
    type=click.IntRange(1, 10_000),
    default=CONNECTION_LIMIT,
    show_default=True,
    help="Connections open at once. Past it, the connection that has waited longest without a "
    "request to serve is closed to make room, so slow clients cannot lock others out.",
)
@click.option(
    "--channel-timeout",
    type=click.IntRange(1, 3600),
    default=CHANNEL_TIMEOUT,
    show_default=True,
    metavar="SECONDS",
    help="Close a connection idle this long.",
)
@click.option(
    "--flavor-check",
    type=click.Choice(["refuse", "warn", "per-key"]),
    default="refuse",
    show_default=True,
    envvar="ONESPEC_FLAVOR_CHECK",
    help="How a write of extra specs checks the flavor's extra specs together: refuse what it "
    "breaks (400), warn (Warning headers), or per-key only, as Nova does "
    "[env: ONESPEC_FLAVOR_CHECK].",
)
@click.option(
    "--log-level",
    type=click.Choice(["debug", "info", "warning", "error"]),
    default="info",
    show_default=True,
    help="info logs every request (the access log).",
)
@format_option(choices=PROGRAM_FORMATS)  # the address, for the program that started it
def serve(
    database_url: str | None,
    host: str,
    port: int,
    policy_file: Path | None,
    threads: int,
    connection_limit: int,
    channel_timeout: int,
    flavor_check: str,
    log_level: str,
    output_format: str,
) -> None:
    """Run the plugin admin API and the flavor extra-specs API under waitress.

    The database must be at the latest migration (`onespec db upgrade`); the embedded default
    (no --database-url, no $ONESPEC_DATABASE_URL) is created and migrated on first start. The
    service trusts the identity headers keystonemiddleware sets (X-Project-Id, X-Roles, ...): run
    it behind keystonemiddleware, or on an address only trusted clients reach. Stops on SIGINT or
    SIGTERM. Once listening, it says where on standard error; with --format json, as one JSON
    object on standard output (its port, when --port 0 picked one).
    """
    require_api_extra("serve")
    from onespec.validators_runtime.service import serving
    from onespec.validators_runtime.service.app import create_app
    from onespec.validators_runtime.service.db.engine import (
        DATABASE_URL_VARIABLE,
        StoreError,
        default_database_url,
        display_url,
    )
    from onespec.validators_runtime.service.policy import PolicyFileError, PolicyFileSyntaxError

    _configure_logging(log_level)
    if policy_file is not None:
        from onespec.validators_runtime.service.policy import build_enforcer

        try:  # before anything is created: a bad policy file changes nothing
            build_enforcer(policy_file)
        except PolicyFileSyntaxError as exc:
            raise InvalidInput(str(exc)) from None
        except PolicyFileError as exc:
            raise ConfigurationError(str(exc)) from None
    url = database_url or default_database_url()
    if database_url is None and not os.environ.get(DATABASE_URL_VARIABLE):
        _create_embedded_database()
    try:
        app = create_app(
            {
                "DATABASE_URL": url,
                "POLICY_FILE": policy_file,
                "POOL_SIZE": threads,
                "FLAVOR_CHECK": flavor_check,
            }
        )
    except PolicyFileSyntaxError as exc:
        raise InvalidInput(str(exc)) from None
    except (StoreError, PolicyFileError) as exc:
        raise ConfigurationError(str(exc)) from None
    services = app.extensions["onespec"]
    try:
        server = serving.create_server(
            app,
            host=host,
            port=port,
            threads=threads,
            connection_limit=connection_limit,
            channel_timeout=channel_timeout,
        )
    except OSError as exc:
        raise ConfigurationError(f"Cannot listen on {host}:{port}: {exc.strerror}.") from None
    shown_host = f"[{host}]" if ":" in host else host
    names = ", ".join(sorted(services.manager.plugins)) or "none"
    address = f"http://{shown_host}:{server.effective_port}/"
    if output_format == "json":
        started = {
            "url": address,
            "database": display_url(url),
            "plugins": sorted(services.manager.plugins),
        }
        echo_json(json.dumps(started))
        sys.stdout.flush()
    else:
        click.echo(
            f"onespec API on {address} (database {display_url(url)}; plugins: {names})", err=True
        )
    signal.signal(signal.SIGTERM, _stop)
    try:
        server.run()
    finally:
        server.close()


# --- db ------------------------------------------------------------------------------------------


@click.group(cls=GrammarGroup)
def db() -> None:
    """Create and upgrade the service's database."""


@db.command()
@_DATABASE_URL
@click.option(
    "--revision",
    default="head",
    show_default=True,
    help="The revision to upgrade to.",
)
@FORMAT_OPTION
def upgrade(database_url: str | None, revision: str, output_format: str) -> None:
    """Create the tables, or bring them to the latest revision, in one transaction."""
    require_api_extra("db upgrade")
    from onespec.validators_runtime.service.db import migrate as database
    from onespec.validators_runtime.service.db.engine import display_url

    engine = _engine(database_url)
    where = display_url(engine.url)
    try:
        before = database.current_revision(engine)
        after = database.upgrade(engine, revision)
    except Exception as exc:
        raise click.ClickException(f"Cannot upgrade the database {where}: {exc}") from None
    finally:
        engine.dispose()
    if output_format != "text":
        echo_report({"database": where, "before": before, "revision": after})
    elif before == after:
        click.echo(f"The database {where} is already at revision {after}.")
    else:
        click.echo(f"Upgraded the database {where} from {before or 'empty'} to revision {after}.")


@db.command()
@_DATABASE_URL
@FORMAT_OPTION
def current(database_url: str | None, output_format: str) -> None:
    """Show the database's revision; exit 1 unless it is the latest. Creates nothing."""
    require_api_extra("db current")
    from onespec.validators_runtime.service.db import migrate as database
    from onespec.validators_runtime.service.db.engine import create_engine, display_url

    parsed = _url(database_url)
    where = display_url(parsed)
    missing = _missing_sqlite_file(parsed)
    revision = None
    if missing is None:
        engine = create_engine(parsed, pool_size=1)
        try:
            revision = database.current_revision(engine)
        except Exception as exc:
            raise click.ClickException(f"Cannot read the database {where}: {exc}") from None
        finally:
            engine.dispose()
    head = database.head_revision()
    if output_format != "text":
        echo_report({"database": where, "revision": revision, "latest": head})
    elif missing is not None:
        click.echo(
            f"The database {where} does not exist, so it has no onespec tables; the latest "
            f"revision is {head}."
        )
    elif revision is None:
        click.echo(f"The database {where} has no onespec tables; the latest revision is {head}.")
    elif revision == head:
        click.echo(f"The database {where} is at revision {revision}, the latest.")
    else:
        click.echo(f"The database {where} is at revision {revision}; the latest is {head}.")
    if revision != head:
        raise Invalid() from None


# --- policy --------------------------------------------------------------------------------------


@click.group(cls=GrammarGroup)
def policy() -> None:
    """The API's policy rules."""


@policy.command()
@FORMAT_OPTION
def sample(output_format: str) -> None:
    """Print every rule with its default, commented out: a policy file to start from.

    With --format json, the rules as data: name, default, description, operations.
    """
    require_api_extra("policy sample")
    if output_format != "text":
        from onespec.definitions.policy import RULES

        rules = [
            {
                "name": rule.name,
                "default": rule.check_str,
                "description": rule.description,
                "operations": [{"method": m, "path": p} for m, p in rule.operations],
            }
            for rule in RULES
        ]
        echo_report({"rules": rules}, listing("rules", columns=("name", "default")))
        return
    from onespec.validators_runtime.service.policy import sample as text

    click.echo(text(), nl=False)
