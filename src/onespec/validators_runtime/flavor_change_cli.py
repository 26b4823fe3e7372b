"""``onespec validate resize`` and ``validate rebuild``: a server's flavor or image changes.

They read flavors and images as ``validate flavor`` does (JSON or YAML, ``-`` for standard
input, what ``openstack flavor show`` and ``openstack image show`` print) and follow the same
grammar: exit 0 when Nova would carry the change out, 1 when it would refuse it, 2 on a usage
error; ``--format json`` for machines. A module of its own, so that loading the command line
imports no rules: each command imports the runtime when it runs.
"""

from __future__ import annotations

from typing import Any

import click

from onespec.validators_runtime import inputs
from onespec.validators_runtime.cli_grammar import (
    FORMAT_OPTION,
    GrammarCommand,
    InputFile,
    InvalidInput,
)
from onespec.validators_runtime.flavor_cli import (
    MODE_OPTION,
    _called,
    _expect,
    _name_of,
    _read_document,
    _report,
)


def _documents(wanted: list[tuple[str, str, str]]) -> dict[str, Any]:
    """Each (path, what, kind) read, named files before standard input (so that a missing file
    is reported before anything is read), and checked to hold its kind."""
    read = {}
    for path, what, kind in sorted(wanted, key=lambda item: item[0] == "-"):
        document = _read_document(path, what)
        _expect(document, kind, f"{what} {path}")
        read[what] = document
    return read


@click.command("resize", cls=GrammarCommand)
@click.argument("old_flavor_file", metavar="OLD_FLAVOR", type=InputFile())
@click.argument("new_flavor_file", metavar="NEW_FLAVOR", type=InputFile())
@click.option(
    "--image",
    "image_file",
    metavar="IMAGE_FILE",
    type=InputFile(),
    help="The image the server was booted from (`openstack image show -f json`).",
)
@click.option(
    "--volume-backed",
    is_flag=True,
    help="The server boots from a volume: its root disk is not the flavor's.",
)
@MODE_OPTION
@FORMAT_OPTION
def validate_resize_command(
    old_flavor_file: str,
    new_flavor_file: str,
    image_file: str | None,
    volume_backed: bool,
    mode: str,
    output_format: str,
) -> None:
    """Check resizing a server from OLD_FLAVOR to NEW_FLAVOR, as Nova would.

    Reports the refusals of the resize itself (phase `resize`: the same or a disabled flavor,
    a root or ephemeral disk that shrinks, accelerators, vTPM secret ownership...), then what
    the create-time check finds in NEW_FLAVOR with the image, which Nova checks again.

    \b
    Example:
      onespec validate resize m1.small.json m1.large.json --image centos.json
    """
    from onespec.validators_runtime.flavors import validate_resize

    wanted = [
        (old_flavor_file, "OLD_FLAVOR", "flavor"),
        (new_flavor_file, "NEW_FLAVOR", "flavor"),
    ]
    if image_file is not None:
        wanted.append((image_file, "--image", "image"))
    read = _documents(wanted)
    image = read.get("--image")
    try:
        findings = validate_resize(
            read["OLD_FLAVOR"], read["NEW_FLAVOR"], image, volume_backed=volume_backed, mode=mode
        )
    except inputs.InputError as exc:
        raise InvalidInput(str(exc)) from None
    names = {
        "old_flavor": _name_of(read["OLD_FLAVOR"], "flavor"),
        "new_flavor": _name_of(read["NEW_FLAVOR"], "flavor"),
    }
    checked = (
        f"resize from {_called('flavor', names['old_flavor'])} "
        f"to {_called('flavor', names['new_flavor'])}"
    )
    if image is not None:
        names["image"] = _name_of(image, "image")
        checked += " with " + _called("image", names["image"])
    _report(findings, output_format, checked, names)


@click.command("rebuild", cls=GrammarCommand)
@click.argument("flavor_file", metavar="FLAVOR", type=InputFile())
@click.option(
    "--from-image",
    "old_image_file",
    required=True,
    metavar="OLD_IMAGE",
    type=InputFile(),
    help="The image the server runs now.",
)
@click.option(
    "--image",
    "new_image_file",
    required=True,
    metavar="NEW_IMAGE",
    type=InputFile(),
    help="The image to rebuild it with.",
)
@MODE_OPTION
@FORMAT_OPTION
def validate_rebuild_command(
    flavor_file: str, old_image_file: str, new_image_file: str, mode: str, output_format: str
) -> None:
    """Check rebuilding a server of FLAVOR from OLD_IMAGE with NEW_IMAGE, as Nova would.

    Reports the refusals of the rebuild itself (phase `rebuild`: a vTPM, an unknown
    architecture, a NUMA topology or required traits the new image changes), then what the
    create-time check finds in FLAVOR with NEW_IMAGE, which Nova checks again. The image
    changes unless both carry the same id.

    \b
    Example:
      onespec validate rebuild m1.rt.json --from-image centos.json --image rocky.json
    """
    from onespec.validators_runtime.flavors import validate_rebuild

    read = _documents(
        [
            (flavor_file, "FLAVOR", "flavor"),
            (old_image_file, "--from-image", "image"),
            (new_image_file, "--image", "image"),
        ]
    )
    try:
        findings = validate_rebuild(
            read["FLAVOR"], read["--from-image"], read["--image"], mode=mode
        )
    except inputs.InputError as exc:
        raise InvalidInput(str(exc)) from None
    names = {
        "flavor": _name_of(read["FLAVOR"], "flavor"),
        "old_image": _name_of(read["--from-image"], "image"),
        "new_image": _name_of(read["--image"], "image"),
    }
    checked = (
        f"rebuild of {_called('flavor', names['flavor'])} from "
        f"{_called('image', names['old_image'])} to {_called('image', names['new_image'])}"
    )
    _report(findings, output_format, checked, names)


COMMANDS = (validate_resize_command, validate_rebuild_command)
