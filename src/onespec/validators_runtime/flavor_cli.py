"""``onespec validate flavor``, ``validate image-properties``, ``validate fleet`` and
``validate cloud``.

They read what the OpenStack client prints (``openstack flavor show -f json``, ``openstack
image show -f json``) or what Nova's and Glance's APIs return, and follow the one command-line
grammar: exit 0 when Nova would accept, 1 when it would refuse (or the input is not a flavor or
an image), 2 on a usage error; ``--format json`` for machines, where every error carries
``nova_exception`` and ``phase``.

A module of its own, outside ``validators_runtime/flavors/``, so that loading the command line
imports none of the rules: each command imports the runtime when it runs.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import click
import yaml

from onespec.validators_runtime import inputs, repeated_keys, yaml_limits
from onespec.validators_runtime.cli_grammar import (
    FORMAT_OPTION,
    GrammarCommand,
    InputFile,
    Invalid,
    InvalidInput,
    SuggestingChoice,
    UnusableInput,
    counted,
    echo_report,
    input_error,
    listing,
    progress,
    progress_bar,
    warn_repeated,
    warning,
    with_content,
    yaml_message,
)
from onespec.validators_runtime.flavor_parts.image_props import glance_fields
from onespec.validators_runtime.problems import shown

if TYPE_CHECKING:
    from onespec.validators_runtime.flavors.fleet import FleetReport

#: The largest flavor or image file read (a flavor's JSON is a few kilobytes).
MAX_BYTES = 1024 * 1024


#: ``--mode``, as ``validate extra-specs`` takes it: how each extra spec is checked on its own.
MODE_OPTION = click.option(
    "--mode",
    type=SuggestingChoice(["strict", "permissive", "off"]),
    default="strict",
    show_default=True,
    help="How each extra spec is checked on its own (as `validate extra-specs`).",
)


#: A safe YAML loader that counts what it composes (alias bombs and deep nesting refused with a
#: line), for what the client prints with ``-f yaml``.
_YamlLoader: type = yaml_limits.counting_loader("_FlavorYamlLoader")


def _read_document(path: str, what: str, limit: int = MAX_BYTES) -> Any:
    """The JSON or YAML document of ``path`` (``-``: standard input), read through the one
    bounded reader: a regular file of at most ``limit`` bytes (exit 2 otherwise), then JSON when
    it starts as JSON does, else YAML (what ``openstack ... -f yaml`` prints); exit 1 when it
    is neither."""
    try:
        text = with_content(inputs.read_text(path, limit=limit), path)
    except inputs.InputError as exc:
        raise input_error(exc) from None
    name = inputs.STDIN_NAME if path == "-" else path
    if text.lstrip()[:1] in ("{", "["):
        try:
            document, repeats = repeated_keys.load_json(text)
        except (ValueError, RecursionError) as exc:
            raise InvalidInput(f"{name}: not valid JSON: {shown(str(exc))}") from None
        warn_repeated(name, repeats)
        return document
    try:
        document, repeats = repeated_keys.load_yaml(text, _YamlLoader)
        warn_repeated(name, repeats)
        return document
    except yaml_limits.YAMLLimitError as exc:
        raise UnusableInput(f"{name}:{exc.line}: {exc.reason}") from None
    except yaml.YAMLError as exc:
        raise InvalidInput(yaml_message(exc, name)) from None
    except RecursionError:
        raise UnusableInput(f"{name}: is nested too deeply to be a flavor or an image") from None


#: What only a flavor has, as the client and the APIs print it (an image's: Glance's own
#: fields, :func:`~onespec.validators_runtime.flavor_parts.image_props.glance_fields`).
_FLAVOR_FIELDS = ("vcpus", "ram", "swap", "rxtx_factor", "OS-FLV-EXT-DATA:ephemeral")


def _kind_of(document: Any) -> tuple[str, list[str]] | None:
    """("flavor" or "image", the fields that show it) when ``document`` is plainly one."""
    for kind in ("flavor", "image"):
        if isinstance(document, dict) and isinstance(document.get(kind), dict):
            document = document[kind]
    if not isinstance(document, dict):
        return None
    flavor = [name for name in _FLAVOR_FIELDS if name in document]
    image = glance_fields(document)
    if flavor and not image:
        return "flavor", flavor
    if image and not flavor:
        return "image", image
    return None


def _expect(document: Any, wanted: str, given_as: str) -> None:
    """A usage error (exit 2) when ``document``, given where a ``wanted`` goes, is plainly the
    other kind: a flavor checked as an image was "accepted by Nova's checks"."""
    found = _kind_of(document)
    if found is not None and found[0] != wanted:
        kind, fields = found
        hint = "give it as FLAVOR_FILE" if kind == "flavor" else "give it with --image"
        raise click.UsageError(
            f"{given_as} holds {'an image' if kind == 'image' else 'a flavor'} (it has "
            f"{', '.join(fields[:3])}), not {'an image' if wanted == 'image' else 'a flavor'}: "
            f"{hint}"
        )


def _name_of(document: Any, kind: str) -> str | None:
    """The ``name`` of a flavor or an image as the client prints it, or inside Nova's or
    Glance's wrapper (``{"flavor": {...}}``); None when it has none."""
    if isinstance(document, dict) and isinstance(document.get(kind), dict):
        document = document[kind]
    name = document.get("name") if isinstance(document, dict) else None
    return name if isinstance(name, str) and name else None


def _called(kind: str, name: str | None) -> str:
    """``flavor 'm1.rt'``, or the kind alone for a document without a name."""
    return f"{kind} {shown(name)}" if name is not None else kind


#: ``-f table|csv|value``: one row a finding, with the keys involved and Nova's exception.
FLAVOR_ROWS = listing(
    "findings", columns=("severity", "code", "keys", "nova_exception", "phase", "message")
)
#: One row a finding: about a flavor alone, then about a flavor with some images.
FLEET_ROWS = listing(
    "flavor_findings",
    "pair_findings",
    columns=("flavor", "pairs", "severity", "code", "nova_exception", "phase", "message"),
)
#: One row a finding: about an image alone, a flavor alone, then a flavor with some images.
CLOUD_ROWS = listing(
    "image_findings",
    "flavor_findings",
    "pair_findings",
    columns=("image", "flavor", "pairs", "severity", "code", "nova_exception", "message"),
)


def _report(
    findings: list[Any], output_format: str, checked: str, names: dict[str, str | None]
) -> None:
    errors = [f for f in findings if f.severity == "error"]
    if output_format != "text":
        report = {"valid": not errors, **names, "findings": [f.to_dict() for f in findings]}
        echo_report(report, FLAVOR_ROWS)
    else:
        for finding in findings:
            where = f" ({finding.nova_exception}, {finding.phase})" if finding.phase else ""
            click.echo(f"{finding.severity}: [{finding.code}]{where} {finding.message}")
        warnings = len(findings) - len(errors)
        verdict = "Nova would refuse it" if errors else "Nova's checks accept it"
        click.echo(
            f"{checked}: {verdict} ({len(errors)} error{'s' if len(errors) != 1 else ''}, "
            f"{warnings} warning{'s' if warnings != 1 else ''})."
        )
    if errors:
        raise Invalid()


#: Checks as an admin: what a policy of Nova's API refuses only non-admin users is left out.
AS_ADMIN_OPTION = click.option(
    "--as-admin",
    is_flag=True,
    help="Check as an admin would boot: leave out what Nova's default policy refuses only "
    "non-admin users (a flavor whose root disk is 0).",
)

MAX_CHECKS_OPTION = click.option(
    "--max-checks",
    type=click.IntRange(min=1),
    default=inputs.MAX_FLEET_CHECKS,
    show_default=True,
    metavar="N",
    help="Refuse, before any work, a fleet that needs more (flavor, image group) checks: images "
    "Nova's checks cannot tell apart are one group.",
)


@click.command("flavor", cls=GrammarCommand)
@click.argument("flavor_file", metavar="FLAVOR_FILE", type=InputFile())
@click.option(
    "--image",
    "image_file",
    metavar="IMAGE_FILE",
    type=InputFile(),
    help="The image to boot it with: `openstack image show -f json` (or -f yaml), or "
    "Glance's v2 JSON.",
)
@MODE_OPTION
@AS_ADMIN_OPTION
@FORMAT_OPTION
def validate_flavor_command(
    flavor_file: str, image_file: str | None, mode: str, as_admin: bool, output_format: str
) -> None:
    """Check a whole flavor, and the flavor with an image, as Nova would at boot.

    FLAVOR_FILE is what `openstack flavor show -f json` (or -f yaml) prints, or Nova's
    {"flavor": {..., "extra_specs": {...}}}. Every problem is reported at once, with the
    exception Nova raises and the phase (api, scheduler, spawn) in which it does. Exits 0 when
    the pair boots as far as Nova's pure checks can tell, 1 when Nova would refuse it or a file
    holds no flavor or image it can read (empty, not UTF-8, not JSON or YAML), 2 on a usage
    error (a file that cannot be opened, a flavor given as the image...).

    \b
    Example:
      onespec validate flavor m1.rt.json --image centos.json --format json
    """
    from onespec.validators_runtime.flavors import validate_flavor

    # The image first: a usage error in --image is reported before standard input is read.
    image = _read_document(image_file, "--image") if image_file is not None else None
    if image is not None:
        _expect(image, "image", f"--image {image_file}")
    flavor = _read_document(flavor_file, "FLAVOR_FILE")
    _expect(flavor, "flavor", f"FLAVOR_FILE {flavor_file}")
    try:
        findings = validate_flavor(flavor, image, mode=mode, as_admin=as_admin)
    except inputs.InputError as exc:
        raise InvalidInput(str(exc)) from None
    names = {"flavor": _name_of(flavor, "flavor")}
    checked = _called("flavor", names["flavor"])
    if image is not None:
        names["image"] = _name_of(image, "image")
        checked += " with " + _called("image", names["image"])
    _report(findings, output_format, checked, names)


@click.command("image-properties", cls=GrammarCommand)
@click.argument("image_file", metavar="IMAGE_FILE", type=InputFile())
@FORMAT_OPTION
def validate_image_properties_command(image_file: str, output_format: str) -> None:
    """Check an image's properties on their own: values Nova cannot read are errors, names
    that look like Nova's but are not are warnings.

    IMAGE_FILE is what `openstack image show -f json` prints, or Glance's v2 image JSON.
    """
    from onespec.validators_runtime.flavors import validate_image_properties

    image = _read_document(image_file, "IMAGE_FILE")
    _expect(image, "image", f"IMAGE_FILE {image_file}")
    try:
        findings = validate_image_properties(image)
    except inputs.InputError as exc:
        raise InvalidInput(str(exc)) from None
    name = _name_of(image, "image")
    checked = "image properties" + (f" of {shown(name)}" if name is not None else "")
    _report(findings, output_format, checked, {"image": name})


#: The largest flavor or image list read: `openstack image list --long -f json` of 10,000 images
#: is a few tens of megabytes.
MAX_LIST_BYTES = 64 * 1024 * 1024


def _items(data: Any, plural: str, name: str) -> list[Any]:
    """The items of a list file: a JSON list (`openstack ... list --long -f json`), the API's
    ``{"flavors": [...]}``/``{"images": [...]}``, or one item (the show shape)."""
    if isinstance(data, dict) and set(data) == {plural}:
        data = data[plural]
    if isinstance(data, list):
        return data
    if isinstance(data, dict):
        return [data]
    raise InvalidInput(f"{name}: holds the value {shown(data)}; expected a list of {plural}")


def echo_fleet(report: FleetReport, marks: Mapping[str, str] | None = None) -> None:
    """The fleet report as text, for ``validate fleet`` and ``validate cloud``: each flavor
    refused on its own, each (flavor, rule) with the images it refuses, the flavors no image
    can boot, and a summary. ``marks`` adds words after a flavor's name (``private``)."""
    marks = marks or {}

    def flavor(name: str) -> str:
        return f"{name} ({marks[name]})" if marks.get(name) else name

    for name, finding in report.alone:
        click.echo(f"flavor {flavor(name)}: error: [{finding.code}] {finding.message}")
    for cause in report.causes:
        finding = cause.finding
        more = cause.pairs - len(cause.images)
        listed = ", ".join(cause.images) + (f" and {more} more" if more > 0 else "")
        click.echo(
            f"flavor {flavor(cause.flavor)} with {cause.pairs} "
            f"image{'s' if cause.pairs != 1 else ''} ({listed}): [{finding.code}] "
            f"({finding.nova_exception}, {finding.phase}) {finding.message}"
        )
    for name in report.unbootable:
        click.echo(f"flavor {flavor(name)}: no image can boot it (each is refused above).")
    refused = report.refused_pairs
    alone = len({name for name, _ in report.alone})
    click.echo(
        f"{counted(report.flavors, 'flavor')}, {counted(report.images, 'image')} "
        f"({report.image_groups} distinct to Nova's checks): {counted(alone, 'flavor')} refused "
        f"on {'their' if alone != 1 else 'its'} own, {refused} of "
        f"{counted(report.flavors * report.images, 'pair')} refused, in "
        f"{counted(len(report.causes), 'cause')}."
    )


@click.command("fleet", cls=GrammarCommand)
@click.option(
    "--flavors",
    "flavors_file",
    required=True,
    metavar="FILE",
    type=InputFile(),
    help='`openstack flavor list --long -f json` (or Nova\'s {"flavors": [...]}).',
)
@click.option(
    "--images",
    "images_file",
    required=True,
    metavar="FILE",
    type=InputFile(),
    help='`openstack image list --long -f json` (or Glance\'s {"images": [...]}).',
)
@MODE_OPTION
@AS_ADMIN_OPTION
@MAX_CHECKS_OPTION
@FORMAT_OPTION
def validate_fleet_command(
    flavors_file: str,
    images_file: str,
    mode: str,
    as_admin: bool,
    max_checks: int,
    output_format: str,
) -> None:
    """Check every flavor, and every flavor with every image, as Nova would at boot.

    Reports each flavor that cannot boot on its own, then each (flavor, rule) that refuses
    some images, once, with the number of images and a few of their names. Exits 0 when
    nothing is refused, 1 otherwise, 2 on a usage error.
    """
    from onespec.validators_runtime.flavors import read_flavor, read_image
    from onespec.validators_runtime.flavors.fleet import FleetTooLarge, check_fleet

    # Named files before standard input, so that a missing file is reported before a read.
    wanted = sorted(
        [(flavors_file, "--flavors"), (images_file, "--images")], key=lambda w: w[0] == "-"
    )
    read = {what: _read_document(path, what, MAX_LIST_BYTES) for path, what in wanted}
    flavors_data, images_data = read["--flavors"], read["--images"]
    try:
        flavors = [
            read_flavor(item, f"flavors[{i}]")
            for i, item in enumerate(_items(flavors_data, "flavors", flavors_file))
        ]
        images = [
            read_image(item, f"images[{i}]")
            for i, item in enumerate(_items(images_data, "images", images_file))
        ]
    except inputs.InputError as exc:
        raise InvalidInput(str(exc)) from None
    del flavors_data, images_data, read
    if images and not any(image.properties for image in images):
        # `openstack image list --long -f json` prints no properties: said, or the report's
        # silence about every rule that reads one would pass for a verdict.
        warning(
            f"--images {images_file}: "
            + (
                "the image carries no"
                if len(images) == 1
                else f"none of the {len(images)} images carries"
            )
            + " properties, so no rule that reads an image's properties was checked; "
            "`openstack image list` prints none: give each `openstack image show IMAGE -f json` "
            "(in a JSON list), `onespec validate cloud`, or Glance's own GET /v2/images, which "
            "carries them"
        )
    try:
        with progress_bar("checking flavors", flavors, output_format=output_format) as checked:
            report = check_fleet(
                checked,
                images,
                mode,
                as_admin=as_admin,
                max_checks=max_checks,
                flavor_count=len(flavors),
            )
    except FleetTooLarge as exc:
        raise click.UsageError(str(exc)) from None
    if output_format != "text":
        echo_report(report.to_dict(), FLEET_ROWS)
    else:
        echo_fleet(report)
    if not report.valid:
        raise Invalid()


#: The most --flavor or --image names taken: each is a call to the cloud.
MAX_NAMED = 256


@click.command("cloud", cls=GrammarCommand)
@click.option(
    "--os-cloud",
    "os_cloud",
    metavar="NAME",
    help="The cloud of clouds.yaml to read (default: OS_CLOUD, else the OS_* variables).",
)
@click.option(
    "--flavor",
    "flavor_names",
    multiple=True,
    metavar="NAME_OR_ID",
    help="Check only this flavor (repeatable).",
)
@click.option(
    "--image",
    "image_names",
    multiple=True,
    metavar="NAME_OR_ID",
    help="Check only this image (repeatable).",
)
@click.option(
    "-v", "--verbose", is_flag=True, help="Also print the time spent listing and checking."
)
@MODE_OPTION
@MAX_CHECKS_OPTION
@FORMAT_OPTION
def validate_cloud_command(
    os_cloud: str | None,
    flavor_names: tuple[str, ...],
    image_names: tuple[str, ...],
    verbose: bool,
    mode: str,
    max_checks: int,
    output_format: str,
) -> None:
    """Check every flavor and image of a live cloud, and every flavor with every image.

    The cloud is found as the openstack client finds it: --os-cloud NAME, else OS_CLOUD, in
    clouds.yaml (OS_CLIENT_CONFIG_FILE, the current directory, ~/.config/openstack,
    /etc/openstack), else the OS_* variables. Needs openstacksdk: pip install
    'onespec[cloud]'. Every flavor is read with its extra specs (private and disabled ones
    too, as an admin sees them) and every image of every visibility with its properties,
    page by page.

    Reports each flavor's extra specs Nova refuses and each flavor it refuses as a whole,
    each image's properties Nova cannot read, then each (flavor, rule) that refuses some
    active images, once, with their number and a few names (as `validate fleet`), and the
    flavors no image can boot. Images that are not active are checked on their own but not
    paired: Nova boots none of them. Exits 0 when nothing is refused, 1 otherwise, 2 on a
    usage error or when the cloud cannot be found, reached or read.

    \b
    Example:
      onespec validate cloud --os-cloud prod --flavor m1.rt -f json
    """
    import time

    from onespec.validators_runtime.cloud import Cloud, CloudError, check_cloud
    from onespec.validators_runtime.flavors.fleet import FleetTooLarge

    for option, names in (("--flavor", flavor_names), ("--image", image_names)):
        if len(names) > MAX_NAMED:
            raise click.UsageError(f"{option} is given {len(names)} times; at most {MAX_NAMED}")
    started = time.perf_counter()
    try:
        cloud = Cloud(os_cloud)
        with progress_bar("listing flavors", output_format=output_format) as bar:
            flavors = cloud.flavors(flavor_names, seen=lambda: bar.update(1))
        with progress_bar("listing images", output_format=output_format) as bar:
            images = cloud.images(image_names, seen=lambda: bar.update(1))
    except CloudError as exc:
        raise click.UsageError(str(exc)) from None
    listed = time.perf_counter()

    def checked(items: list[Any]) -> Any:
        return progress_bar("checking flavors", items, output_format=output_format)

    try:
        with contextlib.ExitStack() as stack:
            report = check_cloud(
                cloud.name,
                flavors,
                images,
                mode,
                lambda items: stack.enter_context(checked(items)),
                max_checks=max_checks,
            )
    except FleetTooLarge as exc:
        raise click.UsageError(str(exc)) from None
    done = time.perf_counter()
    seconds = {"listing": round(listed - started, 3), "checking": round(done - listed, 3)}
    if verbose:
        share = seconds["checking"] / seconds["listing"] if seconds["listing"] else 0.0
        progress(
            f"listed {counted(len(flavors), 'flavor')} and {counted(len(images), 'image')} in "
            f"{seconds['listing']:.2f} s, checked them in {seconds['checking']:.2f} s "
            f"({share:.0%} of the listing)",
            force=True,
        )
    if output_format != "text":
        echo_report({**report.to_dict(), **({"seconds": seconds} if verbose else {})}, CLOUD_ROWS)
    else:
        for name, finding in report.image_findings:
            click.echo(f"image {name}: {finding.severity}: [{finding.code}] {finding.message}")
        echo_fleet(report.fleet, {flavor.label: flavor.marks for flavor in flavors})
        private = sum(not flavor.is_public for flavor in flavors)
        disabled = sum(flavor.disabled for flavor in flavors)
        problems = len(report.image_findings)
        click.echo(
            f"{cloud.where()}: {counted(len(flavors), 'flavor')} listed ({private} private, "
            f"{disabled} disabled), {counted(len(images), 'image')} "
            f"({len(report.not_active)} not active, checked on their own only), "
            f"{counted(problems, 'image problem')}."
        )
    if not report.valid:
        raise Invalid()


COMMANDS = (
    validate_flavor_command,
    validate_image_properties_command,
    validate_fleet_command,
    validate_cloud_command,
)
