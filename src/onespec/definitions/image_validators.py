"""The grammar of image validation specs, stated once as data.

An image spec is a YAML file a plugin ships next to its code: the ``arguments`` it takes and the
``validators`` an image must satisfy, each validator a one-key mapping whose key names its kind
(``package``, ``script``, ``os_case``, ...). Everything a person or a program learns about that
grammar is derived from this module: the runtime's loader reads the tables generated from it
(``src/onespec/validators_runtime/_generated/image_validators.py``), the JSON Schema
``outputs/schemas/image-validation-spec.schema.json`` is built from it, and so is the reference
page. Changing a kind here changes all three, so they cannot disagree.

Standard library only, like :mod:`onespec.definitions.model`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# --- Names and values that reach a shell ---------------------------------------------------

#: A package name both package managers can hold: Debian's names (lower-case letters, digits,
#: ``+``, ``-``, ``.``) and RPM's (which also allow upper case and ``_``). It starts with a letter
#: or digit, so it can never be read as a command-line option.
PACKAGE_NAME_PATTERN = r"[A-Za-z0-9][A-Za-z0-9+._-]{0,127}"
PACKAGE_NAME_HINT = (
    "a package name: a letter or digit, then letters, digits, '+', '.', '_' or '-' "
    "(at most 128 characters)"
)

#: An exact version: an optional numeric epoch and a colon, then what dpkg and RPM allow in a
#: version (letters, digits, ``.``, ``+``, ``~``, ``_`` and ``-`` between upstream version and
#: revision or release).
PACKAGE_VERSION_PATTERN = r"([0-9]{1,9}:)?[A-Za-z0-9][A-Za-z0-9.+~_-]{0,127}"
PACKAGE_VERSION_HINT = (
    "an exact version such as 1.2.3-1 or 1:2.0~rc1: an optional numeric epoch and colon, then a "
    "letter or digit followed by letters, digits, '.', '+', '~', '_' or '-'"
)

#: A shell variable name: what scripts receive in their environment.
ENV_NAME_PATTERN = r"[A-Za-z_][A-Za-z0-9_]{0,127}"
ENV_NAME_HINT = "a shell variable name: a letter or '_', then letters, digits or '_'"

#: Variables every script receives. The first two are the names scripts are asked to read; the
#: others are the names the scripts shipped with existing plugins read, set to the same facts.
RESERVED_VARIABLES: tuple[tuple[str, str], ...] = (
    ("SIV_DISTRO", "The distribution of the image, by its image-builder name (ubuntu, centos...)."),
    (
        "SIV_RECONCILE",
        "1 when the script may change the image to fix it, 0 when it must only check.",
    ),
    ("distro", "The same as SIV_DISTRO, for scripts written for earlier image-spec runners."),
    ("test_only", "The opposite of SIV_RECONCILE (1 to check only), for earlier scripts."),
    ("reconcile", "The same as SIV_RECONCILE, for earlier scripts."),
)

#: Where ``copy_script`` puts a file: the scripts that use such files read them from there.
COPY_DESTINATION = "/tmp"  # noqa: S108 - the directory existing plugin scripts read from


# --- Distributions ------------------------------------------------------------------------------

#: ``/etc/os-release`` IDs and the image-builder distribution name each stands for. An ID that is
#: not listed is looked up through ``ID_LIKE``, in order.
DISTRIBUTIONS: tuple[tuple[str, str], ...] = (
    ("ubuntu", "ubuntu"),
    ("debian", "debian"),
    ("centos", "centos"),
    ("rhel", "rhel"),
    ("fedora", "fedora"),
    ("rocky", "rocky"),
    ("almalinux", "almalinux"),
    ("ol", "ol"),
)

#: Image-builder distribution name -> the family an ``os_case`` may name instead.
FAMILIES: tuple[tuple[str, str], ...] = (
    ("ubuntu", "debian"),
    ("debian", "debian"),
    ("centos", "redhat"),
    ("rhel", "redhat"),
    ("fedora", "redhat"),
    ("rocky", "redhat"),
    ("almalinux", "redhat"),
    ("ol", "redhat"),
)

#: The families, with the package tools each uses.
FAMILY_TOOLS: tuple[tuple[str, str, str], ...] = (
    ("debian", "dpkg-query", "apt-get"),
    ("redhat", "rpm", "dnf, or yum where dnf is missing"),
)


# --- The grammar --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Form:
    """One shape a value may take, with a YAML example of it."""

    name: str
    description: str
    example: str


@dataclass(frozen=True)
class Key:
    """A named key inside a mapping: an argument's fields, a script's options, ``cases``...

    ``type`` is one of the names in :data:`VALUE_TYPES`; ``pattern`` restricts strings (the
    name of one of the patterns above).
    """

    name: str
    type: str
    description: str
    required: bool = False
    pattern: str | None = None


#: The value types a :class:`Key` may have, and how each is described.
VALUE_TYPES: dict[str, str] = {
    "string": "a string",
    "text": "a non-empty string",
    "boolean": "true or false",
    "scalar": "a string (a number is accepted and read as its text, with a warning)",
    "scalars": "a list of strings (numbers are read as their text, with a warning)",
    "env-names": "a list of shell variable names",
    "env-name": "a shell variable name",
    "validators": "a list of validators",
    "cases": "a mapping of argument value to a list of validators",
}


@dataclass(frozen=True)
class ValidatorKind:
    """One kind of validator: the key that selects it and everything about its value."""

    key: str
    title: str
    summary: str
    forms: tuple[Form, ...]
    reconcile: str
    check_only: str
    keys: tuple[Key, ...] = ()
    notes: tuple[str, ...] = ()
    implementation: str = ""

    def __post_init__(self) -> None:
        if not self.forms:
            raise ValueError(f"validator kind {self.key!r} must accept at least one form")
        names = [key.name for key in self.keys]
        if len(names) != len(set(names)):
            raise ValueError(f"validator kind {self.key!r} lists a key twice")
        for key in self.keys:
            if key.type not in VALUE_TYPES:
                raise ValueError(f"key {key.name!r} of {self.key!r} has unknown type {key.type!r}")


_VALIDATORS_FORM = Form(
    "list",
    "A list of validators, each a mapping with one key naming its kind.",
    "- package: curl\n- script: common/setup",
)

#: Options of a script given as a mapping ``{PATH: {options}}``.
SCRIPT_OPTIONS: tuple[Key, ...] = (
    Key(
        "env_vars",
        "env-names",
        "Variables passed to the script, each from the validation's environment: a declared "
        "argument, the output of an earlier script, or a value the caller supplies. A name "
        "with no value is not set, and the report says so.",
        pattern="env-name",
    ),
    Key(
        "output",
        "env-name",
        "A variable that receives what the script prints (without the final newline), for "
        "later scripts to name in their env_vars.",
        pattern="env-name",
    ),
    Key(
        "inline",
        "text",
        "The script's text itself; the mapping's key is then only the script's label.",
    ),
)

COPY_OPTIONS: tuple[Key, ...] = (
    Key("inline", "text", "The file's text itself; the mapping's key names the copy."),
)

KINDS: tuple[ValidatorKind, ...] = (
    ValidatorKind(
        key="package",
        title="Packages are installed",
        summary=(
            "Checks that one or more packages are installed, with an exact version where one "
            "is given. A list is checked in one query and installed in one command."
        ),
        forms=(
            Form("name", "One package, any version.", "package: curl"),
            Form(
                "pinned",
                "One package at an exact version (quote versions: YAML reads 1.10 as 1.1).",
                'package:\n  lzo:\n    version: "2.10-2"',
            ),
            Form(
                "list",
                "Several packages, each a name or a pinned mapping, installed together.",
                'package:\n  - hadoop\n  - lzo:\n      version: "2.10-2"',
            ),
        ),
        reconcile=(
            "Queries the package database first (dpkg-query on Debian and Ubuntu, rpm on the "
            "Red Hat family) and passes if everything is there. Otherwise installs what is "
            "missing in one command (apt-get -y install with DEBIAN_FRONTEND=noninteractive; "
            "dnf install -y, or yum where dnf is missing) and queries again: reconciled if "
            "everything is now there, failed if not."
        ),
        check_only=(
            "Queries the package database and fails naming every package that is missing or "
            "at another version. Installs nothing."
        ),
        keys=(
            Key(
                "version",
                "text",
                "The exact version required: the whole version as dpkg or rpm report it "
                "(Debian: epoch:upstream-revision; RPM: version or version-release). There are "
                "no ranges: comparing versions offline and across epochs is not reliable. "
                "Quote it: YAML reads an unquoted 1.10 as the number 1.1, which is refused.",
                pattern="package-version",
            ),
        ),
        notes=(
            "Names and versions are checked against the package managers' grammar when the spec "
            "is loaded, so a name such as ``foo; touch /tmp/x`` is refused before anything runs.",
            "Every package named anywhere in the spec is queried at once, and the answer is "
            "reused until a script or an installation may have changed it: checking a spec of "
            "fifty packages costs the same single query as checking one.",
        ),
        implementation="PackageValidator",
    ),
    ValidatorKind(
        key="script",
        title="A script succeeds",
        summary=(
            "Runs a bash script from the resource roots (or given inline) on the instance, as "
            "root; exit status 0 means the image is as the script expects."
        ),
        forms=(
            Form("path", "A path relative to a resource root.", "script: common/setup_java"),
            Form(
                "mapping",
                "A path (or a label, with inline) mapped to options.",
                "script:\n  common/find_java:\n    env_vars: [java_distro]\n    output: JAVA_HOME",
            ),
            Form(
                "inline",
                "The script's text in the spec itself.",
                "script:\n  apt_update:\n    inline: apt-get update",
            ),
        ),
        reconcile=(
            "Runs the script once with SIV_RECONCILE=1 (test_only=0), as Sahara's runner did: "
            "reconciled if it exits 0, failed if not. It is never asked to check first: most "
            "scripts written for Sahara exit 0 when only asked to check because they cannot, "
            "and their fix would never run. A script therefore tests before it acts."
        ),
        check_only=(
            "Runs the script once with SIV_RECONCILE=0 (test_only=1); it must change nothing and "
            "exit 0 when the image is as it should be. After a validator of the same list has "
            "failed, it is not run (as on Sahara, which stopped at the first failure)."
        ),
        keys=SCRIPT_OPTIONS,
        notes=(
            "The script is read when the spec is loaded. Its path must stay inside a resource "
            "root: absolute paths, '..' that leaves the root and symbolic links that point out "
            "of it are refused.",
            "Its text is written to a file in a private directory on the instance and run with "
            "bash; values reach it as quoted environment variables, never pasted into shell "
            "text.",
            "Scripts must be idempotent: when SIV_RECONCILE is 1 they test whether their work "
            "is already done before doing it.",
        ),
        implementation="ScriptValidator",
    ),
    ValidatorKind(
        key="copy_script",
        title="A file is copied to the instance",
        summary=(
            "Copies a file from the resource roots to /tmp on the instance under its base "
            "name, for later scripts that read it from there."
        ),
        forms=(
            Form("path", "A path relative to a resource root.", "copy_script: common/utils.sh"),
            Form(
                "inline",
                "A name mapped to the file's text.",
                "copy_script:\n  settings.env:\n    inline: LEVEL=3",
            ),
        ),
        reconcile=(
            "Passes if the file is already there with the same content; otherwise writes it "
            "(mode 0644) and reports it reconciled."
        ),
        check_only=(
            "Writes nothing: passes if the file is already there with the same content, "
            "fails naming the destination if it is missing or differs."
        ),
        keys=COPY_OPTIONS,
        notes=("Paths obey the same rules as script paths.",),
        implementation="CopyScriptValidator",
    ),
    ValidatorKind(
        key="all",
        title="Every validator passes",
        summary="Runs a list of validators in order; all of them must pass.",
        forms=(_VALIDATORS_FORM,),
        reconcile=(
            "Reconciles each in turn and stops at the first failure: later validators may "
            "depend on what the failed one should have done. Those not run are reported "
            "skipped."
        ),
        check_only="Checks every validator, even after a failure, so one run reports them all.",
        implementation="AllValidator",
    ),
    ValidatorKind(
        key="any",
        title="One of several validators passes",
        summary="Passes as soon as one of a list of validators passes.",
        forms=(_VALIDATORS_FORM,),
        reconcile=(
            "First checks each validator in order without reconciling, and passes at the first "
            "that passes. If none does, reconciles each in turn until one succeeds, logging a "
            "warning: an alternative that fails half-way may leave changes behind, so order "
            "the alternatives from the least to the most intrusive."
        ),
        check_only="Checks each validator in order and passes at the first that passes.",
        implementation="AnyValidator",
    ),
    ValidatorKind(
        key="os_case",
        title="Validators for a distribution",
        summary=(
            "Chooses validators by the instance's distribution: a list of one-key mappings, "
            "each naming a distribution (ubuntu, centos, ...) or a family (debian, redhat)."
        ),
        forms=(
            Form(
                "list",
                "A list of one-key mappings from a distribution or family to validators.",
                "os_case:\n  - redhat:\n      - package: nfs-utils\n"
                "  - debian:\n      - package: nfs-common",
            ),
        ),
        reconcile=(
            "Runs the validators of the first case that names the instance's distribution, its "
            "/etc/os-release ID, a versioned name such as centos7, or its family. With no "
            "matching case it does nothing and is reported skipped."
        ),
        check_only="Chooses the case the same way and checks its validators.",
        notes=(
            "The distribution is read from /etc/os-release: ID, or the first entry of ID_LIKE "
            "that names a known distribution.",
        ),
        implementation="OSCaseValidator",
    ),
    ValidatorKind(
        key="argument_case",
        title="Validators for an argument's value",
        summary="Chooses validators by the value of one of the spec's arguments.",
        forms=(
            Form(
                "mapping",
                "The argument's name and a mapping of value to validators.",
                "argument_case:\n  argument_name: java_distro\n  cases:\n"
                "    openjdk:\n      - package: openjdk-17-jdk",
            ),
        ),
        reconcile=(
            "Runs the validators of the case equal to the argument's value; with no such case "
            "it does nothing and is reported skipped."
        ),
        check_only="Chooses the case the same way and checks its validators.",
        keys=(
            Key("argument_name", "text", "A declared argument.", required=True),
            Key("cases", "cases", "Argument value -> the validators to run.", required=True),
        ),
        notes=(
            "A case for a value the argument's choices do not allow can never run, and a "
            "choice without a case does nothing: both are reported as warnings.",
        ),
        implementation="ArgumentCaseValidator",
    ),
    ValidatorKind(
        key="argument_set",
        title="An argument takes a value",
        summary="Sets one of the spec's arguments for the validators that follow.",
        forms=(
            Form(
                "mapping",
                "The argument's name and its new value.",
                "argument_set:\n  argument_name: java_distro\n  value: openjdk",
            ),
        ),
        reconcile="Sets the value; changes nothing on the instance.",
        check_only="The same.",
        keys=(
            Key("argument_name", "text", "A declared argument.", required=True),
            Key("value", "scalar", "Its new value.", required=True),
        ),
        implementation="ArgumentSetterValidator",
    ),
)

#: The fields of one entry of the top-level ``arguments`` mapping.
ARGUMENT_KEYS: tuple[Key, ...] = (
    Key("description", "string", "What the argument chooses, for the people who set it."),
    Key(
        "default",
        "scalar",
        "The value used when the caller gives none. An argument that is not required needs one.",
    ),
    Key(
        "required",
        "boolean",
        "Whether the caller must give a value; false by default.",
    ),
    Key(
        "choices",
        "scalars",
        "The values allowed; any value is allowed when there is no list.",
    ),
)


@dataclass(frozen=True)
class Section:
    """A top-level key of a spec."""

    name: str
    required: bool
    description: str
    example: str
    keys: tuple[Key, ...] = field(default=())


SECTIONS: tuple[Section, ...] = (
    Section(
        "arguments",
        False,
        "The values a caller may set, by name (a shell variable name). Each reaches the "
        "scripts that list it in env_vars, and argument_case chooses validators by it.",
        "arguments:\n  java_distro:\n    description: The Java to install.\n"
        "    default: openjdk\n    choices: [openjdk, oracle-java]",
        ARGUMENT_KEYS,
    ),
    Section(
        "validators",
        True,
        "What the image must satisfy: a list of validators, all of which must pass.",
        "validators:\n  - package: curl",
    ),
)

#: Named patterns that keys refer to, with the hint shown when a value does not match.
PATTERNS: dict[str, tuple[str, str]] = {
    "package-name": (PACKAGE_NAME_PATTERN, PACKAGE_NAME_HINT),
    "package-version": (PACKAGE_VERSION_PATTERN, PACKAGE_VERSION_HINT),
    "env-name": (ENV_NAME_PATTERN, ENV_NAME_HINT),
}


def kind(key: str) -> ValidatorKind:
    """The validator kind selected by ``key``."""
    for candidate in KINDS:
        if candidate.key == key:
            return candidate
    raise KeyError(key)


def _key_table(keys: tuple[Key, ...]) -> dict[str, tuple[str, bool, str | None]]:
    return {key.name: (key.type, key.required, key.pattern) for key in keys}


def tables() -> dict[str, object]:
    """The grammar as plain literals: what the runtime's loader reads.

    Kept here, next to the data, so that the generated module is a faithful copy of it.
    """
    return {
        "KINDS": tuple(kind.key for kind in KINDS),
        "KIND_KEYS": {kind.key: _key_table(kind.keys) for kind in KINDS},
        "SECTIONS": {section.name: section.required for section in SECTIONS},
        "ARGUMENT_KEYS": _key_table(ARGUMENT_KEYS),
        "PATTERNS": {name: pattern for name, (pattern, _) in PATTERNS.items()},
        "PATTERN_HINTS": {name: hint for name, (_, hint) in PATTERNS.items()},
        "RESERVED_VARIABLES": tuple(name for name, _ in RESERVED_VARIABLES),
        "COPY_DESTINATION": COPY_DESTINATION,
        "DISTRIBUTIONS": dict(DISTRIBUTIONS),
        "FAMILIES": dict(FAMILIES),
    }
