"""Glance metadata definitions ("metadefs") generated from the extra-spec catalogue.

Glance's ``glance-manage db_load_metadefs`` reads namespace files without validating them, and
Glance's API later reads the stored rows back through strict WSME models: an attribute the models
do not know breaks every read of the namespace. So this module does three things, all pure:

* turns definitions into one dict per namespace file, and each dict into JSON text;
* checks that text against :data:`METADEF_SCHEMA` (what the WSME models accept) and
  :func:`problems` (what a schema cannot say), raising :class:`MetadefError` naming the file and
  the key, so a bad file is never written;
* applies a generated property to a value (:func:`check_value`, :func:`find_property`), so the
  shared case file can hold the metadefs to the same verdicts as the runtime.

The decisions (file split, prefixes, which keys are shared with images, how patterned keys are
expanded, how deprecation is shown) are explained in ``doc/source/guides/glance.rst``; the tables
below are where they are made.

"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from onespec.definitions.key_templates import anchored
from onespec.definitions.model import (
    MAX_LENGTH,
    ExtraSpec,
    LiteralText,
    Namespace,
    Parameter,
    deprecation_sentence,
)
from onespec.generator.extra_specs.glance_rules import (
    FLAVOR,
    IMAGE,
    NAMESPACE_DESCRIPTION_LIMIT,
    VOLUME,
    MetadefError,
    check_document,
    cross_file_problems,
)
from onespec.generator.outputs import ROOT
from onespec.generator.text import plain_text

#: Where the files are written; the directory holds nothing else, so it can be loaded whole.
OUTPUT_DIR = ROOT / "outputs" / "glance-metadefs"

#: Every file is named ``onespec-compute-<slug>.json``.
FILE_PREFIX = "onespec-compute-"

#: Every namespace is named ``OS::Compute::Onespec::<Name>``. The ``Onespec`` segment keeps the
#: names apart from Glance's own ``OS::Compute::*`` namespaces: loading a file whose namespace
#: already exists is skipped (or, with ``--merge``, mixed into the old one).
NAMESPACE_PREFIX = "OS::Compute::Onespec::"

#: Guest NUMA nodes for which the per-node keys are listed (Nova accepts any node number).
NUMA_NODES: tuple[str, ...] = tuple(str(node) for node in range(8))


# The ``hw:`` keys whose image property (``hw_`` + the same name) is the same setting with the
# same values, so one property can serve flavors, images and volume image metadata. Each is a
# field of Nova's ImageMetaProps read by the same code path as the flavor key; Glance's own
# files already pair most of them (compute-cpu-pinning, -vcputopology, -libvirt, -vtpm-hw,
# -watchdog, -guest-memory-backing). Left out on purpose:
#   hw:cpu_realtime, hw:cpu_dedicated_mask, hw:emulator_threads_policy, hw:pmem
#       Nova reads these from the flavor only.
#   hw:hide_hypervisor_id
#       the image property is ``img_hide_hypervisor_id``: another prefix.
#   hw:tpm_secret_security, hw:sound_model, hw:usb_model, hw:redirected_usb_ports
#       recent additions whose image side could not be confirmed; flavor only until it is.
#: Flavor keys exported for images too (as ``hw_`` + the name after ``hw:``).
IMAGE_KEYS: frozenset[str] = frozenset(
    {
        "hw:cpu_policy",
        "hw:cpu_thread_policy",
        "hw:cpu_realtime_mask",
        "hw:mem_page_size",
        "hw:locked_memory",
        "hw:numa_nodes",
        "hw:numa_cpus.{id}",
        "hw:numa_mem.{id}",
        "hw:pci_numa_affinity_policy",
        "hw:cpu_sockets",
        "hw:cpu_cores",
        "hw:cpu_threads",
        "hw:cpu_max_sockets",
        "hw:cpu_max_cores",
        "hw:cpu_max_threads",
        "hw:boot_menu",
        "hw:vif_multiqueue_enabled",
        "hw:mem_encryption",
        "hw:mem_encryption_model",
        "hw:pmu",
        "hw:serial_port_count",
        "hw:tpm_model",
        "hw:tpm_version",
        "hw:watchdog_action",
        "hw:viommu_model",
        "hw:virtio_packed_ring",
        "hw:ephemeral_encryption",
        "hw:ephemeral_encryption_format",
        "hw:maxphysaddr_mode",
        "hw:maxphysaddr_bits",
    }
)


class Expansion(NamedTuple):
    """The values a key parameter is listed with, and what the namespace says about the rest.

    ``object_name``, when set, groups the keys that share a value into one metadef object (a
    sub-tree in Horizon) named by formatting it with the value.
    """

    values: tuple[str, ...]
    note: str
    object_name: str | None = None
    object_description: str | None = None


#: Patterned definitions are exported as concrete keys when every parameter has an entry here,
#: keyed by (catalogue namespace, parameter name). Glance has no patterned property names.
EXPANSIONS: dict[tuple[str, str], Expansion] = {
    ("hw", "id"): Expansion(
        NUMA_NODES,
        f"Per-node NUMA keys are listed for guest nodes 0 to {len(NUMA_NODES) - 1}; "
        "higher node numbers are valid too, as custom keys.",
        object_name="NUMA node {}",
        object_description=(
            "The vCPUs and memory of guest NUMA node {}. Set both keys for every node from 0 up "
            "to the number of nodes minus one, or neither for any node."
        ),
    ),
    ("trait", "group"): Expansion(
        ("",),
        "Standard traits are listed ungrouped; granular forms (trait1:NAME) are custom keys.",
    ),
    ("resources", "group"): Expansion(
        ("",),
        "Standard classes are listed ungrouped; granular forms (resources1:NAME) are custom keys.",
    ),
    ("capabilities", "filter"): Expansion(
        ("",),
        "Structured capabilities are listed whole; a narrower key adds :name steps "
        "(capabilities:cpu_info:arch) and is entered as a custom key.",
    ),
}

#: Patterned definitions that are not exported, with what the namespace description says instead
#: (empty when the whole namespace is left out, so there is no description to say it in).
LEFT_OUT: dict[str, str] = {
    "trait{group}:CUSTOM_{trait}": "So are custom traits (trait:CUSTOM_NAME).",
    "resources{group}:CUSTOM_{resource}": "So are custom classes (resources:CUSTOM_NAME).",
    # The part after the colon is any aggregate metadata key, so there is nothing to list: the
    # namespace would be empty, and no file is written for it.
    "aggregate_instance_extra_specs:{key}": "",
}

#: Title prefix of a deprecated key (Glance has no deprecation attribute).
DEPRECATED_TITLE = "DEPRECATED: "


# Words a humanised title spells differently from the key.
_WORDS = {
    "addr": "address",
    "cpu": "CPU",
    "cpus": "CPUs",
    "gb": "GB",
    "hv": "HV",
    "hw": "HW",
    "id": "ID",
    "io": "I/O",
    "iops": "I/O operations",
    "ip": "IP",
    "maxphysaddr": "max physical address",
    "mb": "MB",
    "mem": "memory",
    "num": "number of",
    "numa": "NUMA",
    "pci": "PCI",
    "phys": "physical",
    "pmem": "PMEM",
    "pmu": "PMU",
    "ram": "RAM",
    "sec": "per second",
    "tpm": "TPM",
    "usb": "USB",
    "uuid": "UUID",
    "vcpus": "vCPUs",
    "vif": "VIF",
    "viommu": "vIOMMU",
    "vms": "VMs",
}


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"(])")


def fit(text: str, limit: int) -> tuple[str, str]:
    """Split ``text`` into the leading part that fits in ``limit`` characters and the rest.

    Whole paragraphs are kept while they fit, then as many whole sentences of the next one as
    fit. The paragraphs after that one are returned as the rest, for the caller to show
    elsewhere; the unused sentences of the cut paragraph are dropped (the reference keeps them).
    A first sentence longer than the limit is cut at a word and ends with "...".
    """
    paragraphs = text.split("\n\n")
    kept: list[str] = []
    for index, paragraph in enumerate(paragraphs):
        if len("\n\n".join([*kept, paragraph])) <= limit:
            kept.append(paragraph)
            continue
        ends = [match.start() for match in _SENTENCE_END.finditer(paragraph)]
        room = limit - len("\n\n".join([*kept, ""])) if kept else limit
        fitting = [end for end in ends if end <= room]
        if fitting:
            kept.append(paragraph[: fitting[-1]])
        elif not kept:
            kept.append(paragraph[: max(limit - 3, 0)].rsplit(" ", 1)[0] + "...")
        return "\n\n".join(kept), "\n\n".join(paragraphs[index + 1 :])
    return "\n\n".join(kept), ""


def title(rest: str) -> str:
    """A label for a key from the part after its prefix: ``cpu_policy`` -> "CPU policy".

    Identifiers written in capitals (traits, resource classes) are names already and are kept.
    """
    if re.fullmatch(r"[A-Z0-9_]+", rest):
        return rest
    words = [word for word in re.split(r"[_.:]+", rest) if word]
    text = " ".join(_WORDS.get(word, word) for word in words)
    if words and words[0] not in _WORDS:  # "vCPUs" and "vIOMMU" keep their first letter
        text = text[:1].upper() + text[1:]
    return text


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_")) or "Unprefixed"


def _slug(name: str) -> str:
    return name.replace("_", "-") or "unprefixed"


@dataclass(frozen=True)
class Key:
    """One concrete flavor key a definition is exported as, with its parameter values."""

    definition: ExtraSpec
    key: str
    values: tuple[tuple[str, str], ...] = ()

    def substitute(self, text: str) -> str:
        """``text`` with each ``{parameter}`` replaced by this key's value for it."""
        for name, value in self.values:
            text = text.replace(f"{{{name}}}", value)
        return text


def _accepts(parameter: Parameter, value: str) -> bool:
    """Whether Nova would read ``value`` as this parameter (its pattern, bounds and length)."""
    if re.fullmatch(parameter.regex, value) is None:
        return False
    if parameter.max_length is not None and len(value) > parameter.max_length:
        return False
    if parameter.type is int:
        number = int(value)
        low, high = parameter.min, parameter.max
        return (low is None or number >= low) and (high is None or number <= high)
    return True


def _expansions(definition: ExtraSpec) -> list[tuple[Parameter, Expansion]] | None:
    found = []
    for parameter in definition.parameters:
        expansion = EXPANSIONS.get((definition.namespace or "", parameter.name))
        if expansion is None:
            return None
        refused = [value for value in expansion.values if not _accepts(parameter, value)]
        if refused:
            raise MetadefError(
                f"definition {definition.name!r}: {{{parameter.name}}} does not accept the "
                f"listed values {refused}; correct EXPANSIONS in "
                "src/onespec/generator/extra_specs/metadefs.py"
            )
        found.append((parameter, expansion))
    return found


def keys_of(definition: ExtraSpec) -> tuple[Key, ...]:
    """The concrete keys a definition is exported as: itself, its expansions, or none.

    Raises :class:`MetadefError` for a patterned definition that neither :data:`EXPANSIONS` nor
    :data:`LEFT_OUT` covers, so a new pattern in the catalogue forces a decision here.
    """
    if not definition.is_patterned:
        return (Key(definition, definition.name),)
    if definition.name in LEFT_OUT:
        return ()
    expansions = _expansions(definition)
    if expansions is None:
        raise MetadefError(
            f"definition {definition.name!r} is patterned, and "
            "src/onespec/generator/extra_specs/metadefs.py "
            "neither expands it (EXPANSIONS) nor leaves it out (LEFT_OUT); add it to one of them"
        )
    combinations: list[dict[str, str]] = [{}]
    for parameter, expansion in expansions:
        combinations = [{**c, parameter.name: v} for c in combinations for v in expansion.values]
    keys = []
    for combination in combinations:
        text = "".join(
            s.text if isinstance(s, LiteralText) else combination[s.name]
            for s in definition.segments
        )
        keys.append(Key(definition, text, tuple(combination.items())))
    return tuple(keys)


def _value_schema(definition: ExtraSpec) -> dict[str, Any]:
    value = definition.value
    if value.type is int:
        schema: dict[str, Any] = {"type": "integer"}
        if value.min is not None:
            schema["minimum"] = value.min
        if value.max is not None:
            schema["maximum"] = value.max
        return schema
    if value.type is bool:
        return {"type": "boolean"}
    schema = {"type": "string"}
    if value.enum:
        schema["enum"] = list(value.enum_values)
    else:
        schema["maxLength"] = min(value.max_length or MAX_LENGTH, MAX_LENGTH)
    if value.pattern is not None:
        # Nova full-matches; a JSON Schema pattern is a search, so anchor it.
        schema["pattern"] = anchored(value.pattern)
    # Glance hands a default back as text: only a string survives the round trip unchanged.
    if isinstance(value.default, str):
        schema["default"] = value.default
    return schema


def _deprecation(definition: ExtraSpec) -> str:
    status = definition.status
    replacement = f'"{status.replacement}"' if status.replacement else None
    return deprecation_sentence("This extra spec", status.since, status.removal, replacement)


def _shown(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _relations(key: Key) -> Iterator[str]:
    drivers = key.definition.virt_drivers
    if drivers:
        yield "Virt drivers: " + ", ".join(key.substitute(item) for item in drivers) + "."


def property_description(key: Key, carried: str = "") -> str:
    """Everything a person choosing the key needs: why to set it, what the value means, the
    allowed values with their meanings, the format, the default, the virt drivers and related
    keys, and any deprecation.

    ``carried`` is namespace text that did not fit in Glance's namespace description.
    """
    definition = key.definition
    value = definition.value
    parts = []
    if definition.deprecated:
        parts.append(_deprecation(definition))
    parts.append(plain_text(key.substitute(definition.description), paragraphs=True))
    if value.description:
        parts.append("Value: " + plain_text(key.substitute(value.description), paragraphs=True))
    if value.enum:
        items = [
            f'* "{member.value}"'
            + (f": {plain_text(member.description, paragraphs=True)}" if member.description else "")
            for member in value.enum
        ]
        parts.append("Allowed values:\n" + "\n".join(items))
    if value.pattern_hint:
        parts.append(f"Format: {plain_text(value.pattern_hint, paragraphs=True)}.")
    if value.default is not None:
        parts.append(f'Default: "{_shown(value.default)}".')
    parts.extend(_relations(key))
    if carried:
        parts.append(carried)
    return "\n\n".join(part for part in parts if part)


def property_schema(key: Key, carried: str = "") -> dict[str, Any]:
    """The metadef property for one concrete key (its name is the key minus the prefix)."""
    definition = key.definition
    rest = key.key.split(":", 1)[1] if definition.namespace else key.key
    label = title(rest)
    if definition.deprecated:
        label = DEPRECATED_TITLE + label
    return {
        "title": label,
        "description": property_description(key, carried),
        **_value_schema(definition),
    }


@dataclass(frozen=True)
class Plan:
    """One namespace file: its names, prefixes and the keys it holds, in catalogue order."""

    slug: str
    name: str
    display_name: str
    source: Namespace
    prefix: str
    image_prefix: str | None
    keys: tuple[Key, ...]

    @property
    def filename(self) -> str:
        return f"{FILE_PREFIX}{self.slug}.json"


def plan(definitions: Iterable[ExtraSpec], namespaces: Iterable[Namespace]) -> tuple[Plan, ...]:
    """Split the catalogue into namespace files, in catalogue order.

    One file per catalogue namespace, with the flavor prefix ``<namespace>:`` (none for keys
    without a namespace). Because a namespace has one prefix per resource type, the keys listed
    in :data:`IMAGE_KEYS` go to a second file, ``<slug>-shared``, that images and volumes use
    with the prefix ``<namespace>_``. A namespace with nothing to export gets no file.
    """
    definitions = tuple(definitions)
    plans = []
    for namespace in namespaces:
        keys = [k for d in definitions if d.namespace == namespace.name for k in keys_of(d)]
        prefix = f"{namespace.name}:" if namespace.name else ""
        own = tuple(k for k in keys if k.definition.name not in IMAGE_KEYS or not prefix)
        shared = tuple(k for k in keys if k.definition.name in IMAGE_KEYS and prefix)
        if own:
            plans.append(
                Plan(
                    _slug(namespace.name),
                    NAMESPACE_PREFIX + _camel(namespace.name),
                    namespace.title + (" (flavors only)" if shared else ""),
                    namespace,
                    prefix,
                    None,
                    own,
                )
            )
        if shared:
            plans.append(
                Plan(
                    _slug(namespace.name) + "-shared",
                    NAMESPACE_PREFIX + _camel(namespace.name) + "Shared",
                    f"{namespace.title} (flavors and images)",
                    namespace,
                    prefix,
                    f"{namespace.name}_",
                    shared,
                )
            )
    return tuple(plans)


def _notes(item: Plan, definitions: Sequence[ExtraSpec]) -> str:
    """What the namespace says about keys it does not list."""
    notes: list[str] = []
    for key in item.keys:
        for parameter in key.definition.parameters:
            expansion = EXPANSIONS[(item.source.name, parameter.name)]
            if expansion.note not in notes:
                notes.append(expansion.note)
    if item.image_prefix is None:
        for definition in definitions:
            note = LEFT_OUT.get(definition.name, "")
            if definition.namespace == item.source.name and note and note not in notes:
                notes.append(note)
    return " ".join(notes)


def _associations(item: Plan) -> list[dict[str, str]]:
    flavor = {"name": FLAVOR, **({"prefix": item.prefix} if item.prefix else {})}
    if item.image_prefix is None:
        return [flavor]
    return [
        {"name": VOLUME, "prefix": item.image_prefix, "properties_target": "image"},
        {"name": IMAGE, "prefix": item.image_prefix},
        flavor,
    ]


def _properties_and_objects(
    item: Plan, carried: str
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Namespace-level properties, and the objects that group keys sharing an expanded value."""
    properties: dict[str, Any] = {}
    objects: dict[str, dict[str, Any]] = {}
    for key in item.keys:
        if not key.key.startswith(item.prefix):
            raise MetadefError(f"{item.filename}: key {key.key!r} lacks the prefix {item.prefix!r}")
        name = key.key[len(item.prefix) :]
        schema = property_schema(key, carried)
        grouping = [
            (EXPANSIONS[(item.source.name, p)], v)
            for p, v in key.values
            if EXPANSIONS[(item.source.name, p)].object_name
        ]
        if not grouping:
            properties[name] = schema
            continue
        expansion, value = grouping[0]
        object_name = (expansion.object_name or "").format(value)
        entry = objects.setdefault(
            object_name,
            {
                "name": object_name,
                "description": (expansion.object_description or "").format(value),
                "properties": {},
            },
        )
        entry["properties"][name] = schema
    return properties, list(objects.values())


def namespace_document(item: Plan, definitions: Sequence[ExtraSpec] = ()) -> dict[str, Any]:
    """The whole namespace file for one plan, as plain data."""
    notes = _notes(item, definitions)
    budget = NAMESPACE_DESCRIPTION_LIMIT - (len(notes) + 1 if notes else 0)
    if budget < 0:
        raise MetadefError(
            f"{item.filename}: the notes on unlisted keys alone are longer than Glance's "
            f"{NAMESPACE_DESCRIPTION_LIMIT}-character namespace description; shorten them"
        )
    summary, carried = fit(plain_text(item.source.description, paragraphs=True), budget)
    description = " ".join(part for part in (summary, notes) if part)
    properties, objects = _properties_and_objects(item, carried)
    document: dict[str, Any] = {
        "namespace": item.name,
        "display_name": item.display_name,
        "description": description,
        "visibility": "public",
        "protected": True,
        "resource_type_associations": _associations(item),
        "properties": properties,
    }
    if objects:
        document["objects"] = objects
    return document


def documents(
    definitions: Iterable[ExtraSpec], namespaces: Iterable[Namespace]
) -> dict[str, dict[str, Any]]:
    """Every namespace file as plain data, by file name, in catalogue order."""
    definitions = tuple(definitions)
    return {
        item.filename: namespace_document(item, definitions)
        for item in plan(definitions, namespaces)
    }


def _ordered(value: Any, *, keep: bool = False) -> Any:
    """Keys sorted everywhere except a ``properties`` map, which keeps catalogue order."""
    if isinstance(value, Mapping):
        items = value.items() if keep else sorted(value.items())
        return {k: _ordered(v, keep=(k == "properties" and not keep)) for k, v in items}
    if isinstance(value, list):
        return [_ordered(item) for item in value]
    return value


def dumps(document: Mapping[str, Any]) -> str:
    """One namespace file as text: 2-space indent, UTF-8 (not escaped), a final newline."""
    return json.dumps(_ordered(document), indent=2, ensure_ascii=False) + "\n"


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            # Python's json keeps the last duplicate silently, and so does Glance's loader.
            raise MetadefError(f"the key {key!r} appears twice in one object")
        seen[key] = value
    return seen


def loads(text: str) -> dict[str, Any]:
    """Parse a metadef file, refusing duplicate keys that ``json.loads`` would drop silently."""
    return json.loads(text, object_pairs_hook=_no_duplicates)


def checked_documents(
    definitions: Iterable[ExtraSpec], namespaces: Iterable[Namespace]
) -> dict[str, dict[str, Any]]:
    """Every namespace file as plain data, by file name, each checked as Glance would read it
    back and all of them together for a key offered twice, so a bad file is never written.

    The documents hold JSON's own types only (objects with text keys, lists, text, numbers,
    booleans), so :func:`dumps` writes each exactly and reading its text back gives the document
    again: what is checked here is what is written, without parsing the text a second time.
    """
    found = documents(definitions, namespaces)
    for name, document in found.items():
        check_document(name, document)
    problems = cross_file_problems(found)
    if problems:
        raise MetadefError("\n".join(problems))
    return found


def render_texts(
    definitions: Iterable[ExtraSpec], namespaces: Iterable[Namespace]
) -> dict[str, str]:
    """Every file's text by file name, each checked as Glance would read it back."""
    return {
        name: dumps(document)
        for name, document in checked_documents(definitions, namespaces).items()
    }
