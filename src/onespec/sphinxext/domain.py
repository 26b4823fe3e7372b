"""The ``onespec`` Sphinx domain: objects described once, referenced anywhere, indexed.

Every object type (``extra-spec``, ``image-property``, ``flavor-rule``, ``plugin-label``,
``policy-rule``, ...) is one :class:`ObjectType`
registration: the domain gets a directive and a role of that name, index entries, an entry in the
domain index grouped by the object's group (the namespace, for extra specs), and an entry in
``objects.inv`` so other projects can link to it through intersphinx. An unknown reference target
is a warning with its location and the closest known name, never a crash.

Extra specs are described once per definition, and a patterned definition
(``hw:numa_cpus.{id}``, ``trait{group}:HW_CPU_X86_AVX2``) stands for many keys. Prose names the
keys people write (``hw:numa_cpus.0``, ``trait:HW_CPU_X86_AVX2``), so a reference to a concrete
key links to the entry of the definition that governs it, found by the runtime's own lookup.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Set
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple, cast

from docutils import nodes
from docutils.nodes import Element
from docutils.parsers.rst import directives
from sphinx import addnodes
from sphinx.addnodes import desc_signature, pending_xref
from sphinx.application import Sphinx
from sphinx.builders import Builder
from sphinx.directives import ObjectDescription
from sphinx.domains import Domain, Index, IndexEntry, ObjType
from sphinx.environment import BuildEnvironment
from sphinx.roles import XRefRole
from sphinx.util import logging
from sphinx.util.docutils import SphinxRole
from sphinx.util.nodes import make_id, make_refnode

from onespec.validators_runtime.problems import closest

LOGGER = logging.getLogger(__name__)


@dataclass(frozen=True)
class ObjectType:
    """How one kind of object is called, indexed and grouped."""

    name: str  # directive and role name, e.g. "extra-spec"
    label: str  # human label, e.g. "extra spec"
    group_option: str  # the directive option that names the object's index group
    group_label: str  # how a group is called in the index, e.g. "namespace"


#: Every object type the domain knows. Adding one is one entry here.
OBJECT_TYPES: tuple[ObjectType, ...] = (
    ObjectType("extra-spec", "extra spec", "namespace", "namespace"),
    ObjectType("component-action", "component action", "resource", "resource type"),
    ObjectType("capability", "template capability", "topic", "topic"),
    ObjectType("plugin-label", "plugin label", "scope", "applies to"),
    ObjectType("policy-rule", "policy rule", "area", "policy area"),
    ObjectType("image-validator", "image-spec key", "group", "image-spec group"),
    ObjectType("image-property", "image property", "prefix", "image property prefix"),
    ObjectType("flavor-rule", "flavor rule", "phase", "phase of a flavor rule"),
)


class Entry(NamedTuple):
    """What the domain remembers about one described object (plain data, so it pickles)."""

    docname: str
    node_id: str
    group: str
    deprecated: bool


class OnespecObject(ObjectDescription[str]):
    """Describe one object; the subclass made by :func:`_directive_for` sets the type."""

    object_type: ClassVar[ObjectType]
    has_content = True
    required_arguments = 1
    option_spec: ClassVar[dict[str, Any]] = {
        "no-index": directives.flag,
        "no-index-entry": directives.flag,
        "no-contents-entry": directives.flag,
        "deprecated": directives.flag,
    }

    def handle_signature(self, sig: str, signode: desc_signature) -> str:
        name = sig.strip()
        signode += addnodes.desc_name(name, name)
        if "deprecated" in self.options:
            signode += addnodes.desc_annotation(" (deprecated)", " (deprecated)")
        return name

    def add_target_and_index(self, name: str, sig: str, signode: desc_signature) -> None:
        kind = self.object_type
        node_id = make_id(self.env, self.state.document, f"onespec-{kind.name}", name)
        signode["ids"].append(node_id)
        self.state.document.note_explicit_target(signode)
        group = self.options.get(kind.group_option) or ""
        domain = onespec_domain(self.env)
        domain.note_object(
            kind.name, name, node_id, group, "deprecated" in self.options, location=signode
        )
        if "no-index-entry" not in self.options:
            self.indexnode["entries"].append(
                ("single", f"{name} ({kind.label})", node_id, "", None)
            )
            if group:
                self.indexnode["entries"].append(
                    ("single", f"{group} ({kind.group_label}); {name}", node_id, "", None)
                )

    def _object_hierarchy_parts(self, sig_node: desc_signature) -> tuple[str, ...]:
        return (sig_node.get("fullname") or sig_node.astext(),)

    def _toc_entry_name(self, sig_node: desc_signature) -> str:
        parts = sig_node.get("_toc_parts")
        return parts[-1] if parts else ""


def entry_name_and_group(text: str) -> tuple[str, str]:
    """``NAME <GROUP>`` -> (NAME, GROUP); text without a trailing ``<GROUP>`` -> (text, "").

    The group is what follows the last ``<`` up to a final ``>``, holding neither bracket; the
    name is what stands before it, without the white space between. Read by position rather
    than with a backtracking pattern, so a long run of spaces costs linear time.
    """
    text = text.strip()
    if text.endswith(">"):
        opening = text.rfind("<")
        group = text[opening + 1 : -1]
        name = text[:opening].rstrip()
        if opening > 0 and ">" not in group and name and "\n" not in name:
            return name, group
    return text, ""


class ObjectEntryRole(SphinxRole):
    """``:onespec:KIND-entry:`NAME <GROUP>```: describe an object in one line, such as a table row.

    For families of hundreds of objects that differ only by name (the standard traits), where
    a directive per object would bury the page: the role's text is the object's description, a
    link target registered, indexed and listed in ``objects.inv`` like a directive's.
    """

    def __init__(self, kind: ObjectType) -> None:
        super().__init__()
        self.kind = kind

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        name, group = entry_name_and_group(self.text)
        document = self.inliner.document
        node_id = make_id(self.env, document, f"onespec-{self.kind.name}", name)
        literal = nodes.literal(name, name, ids=[node_id], classes=["onespec-entry"])
        document.note_explicit_target(literal)
        domain = onespec_domain(self.env)
        domain.note_object(
            self.kind.name, name, node_id, group, False, location=self.get_location()
        )
        index = addnodes.index(
            entries=[("single", f"{name} ({self.kind.label})", node_id, "", None)]
        )
        if group:
            index["entries"].append(
                ("single", f"{group} ({self.kind.group_label}); {name}", node_id, "", None)
            )
        return [index, literal], []


def _directive_for(kind: ObjectType) -> type[OnespecObject]:
    options = dict(OnespecObject.option_spec)
    options[kind.group_option] = directives.unchanged
    return type(
        f"Onespec{kind.name.title().replace('-', '')}",
        (OnespecObject,),
        {"object_type": kind, "option_spec": options},
    )


class OnespecIndex(Index):
    """The domain index: objects grouped by namespace (or area, topic, ...), deprecated marked."""

    name = "index"
    localname = "onespec reference index"
    shortname = "onespec"

    def generate(
        self, docnames: Iterable[str] | None = None
    ) -> tuple[list[tuple[str, list[IndexEntry]]], bool]:
        domain = cast(OnespecDomain, self.domain)  # the index of this extension's domain
        wanted = set(docnames) if docnames is not None else None
        order = {kind.name: position for position, kind in enumerate(OBJECT_TYPES)}
        groups: dict[tuple[int, str], list[IndexEntry]] = {}
        for (objtype, name), entry in sorted(domain.objects.items(), key=lambda i: i[0][1]):
            if wanted is not None and entry.docname not in wanted:
                continue
            kind = domain.object_type(objtype)
            heading = entry.group or "(unnamespaced)"
            extra = f"{kind.label}, deprecated" if entry.deprecated else kind.label
            groups.setdefault((order[objtype], heading), []).append(
                IndexEntry(name, 0, entry.docname, entry.node_id, extra, "", "")
            )
        # Groups follow OBJECT_TYPES (extra-spec namespaces first), then their names: the
        # groups of one kind of object stay together instead of mixing alphabetically.
        merged: dict[str, list[IndexEntry]] = {}
        for (_, heading), entries in sorted(groups.items()):
            merged.setdefault(heading, []).extend(entries)
        return list(merged.items()), False


class OnespecDomain(Domain):
    """Objects of onespec's definitions and service: one kind per entry of OBJECT_TYPES."""

    name = "onespec"
    label = "onespec"
    object_types: ClassVar[dict[str, ObjType]] = {
        kind.name: ObjType(kind.label, kind.name) for kind in OBJECT_TYPES
    }
    directives: ClassVar[dict[str, Any]] = {
        kind.name: _directive_for(kind) for kind in OBJECT_TYPES
    }
    roles: ClassVar[dict[str, Any]] = {
        **{kind.name: XRefRole(warn_dangling=True) for kind in OBJECT_TYPES},
        **{f"{kind.name}-entry": ObjectEntryRole(kind) for kind in OBJECT_TYPES},
    }
    indices: ClassVar[list[type[Index]]] = [OnespecIndex]
    initial_data: ClassVar[dict[str, Any]] = {"objects": {}, "firsts": {}}
    data_version = 2

    @property
    def objects(self) -> dict[tuple[str, str], Entry]:
        """(object type, name) -> where it is described."""
        return self.data.setdefault("objects", {})

    @staticmethod
    def object_type(name: str) -> ObjectType:
        return next(kind for kind in OBJECT_TYPES if kind.name == name)

    def note_object(
        self,
        objtype: str,
        name: str,
        node_id: str,
        group: str,
        deprecated: bool,
        location: Any = None,
    ) -> None:
        """Remember an object; a second description of it is a warning naming the first."""
        existing = self.objects.get((objtype, name))
        docname = self.env.current_document.docname
        if existing is None:
            # The first description this reader saw: a parallel reader cannot know whether
            # another one saw an earlier, so merging decides (every later one is warned here).
            self.data.setdefault("firsts", {})[objtype, name] = docname
        else:
            LOGGER.warning(
                "duplicate description of %s %s, other instance in %s",
                self.object_type(objtype).label,
                name,
                existing.docname,
                location=location,
                type="onespec",
                subtype="duplicate",
            )
        self.objects[objtype, name] = Entry(docname, node_id, group, deprecated)

    def clear_doc(self, docname: str) -> None:
        for key, entry in list(self.objects.items()):
            if entry.docname == docname:
                del self.objects[key]
        firsts = self.data.get("firsts")
        if firsts:
            self.data["firsts"] = {key: doc for key, doc in firsts.items() if doc != docname}

    def merge_domaindata(self, docnames: Set[str], otherdata: dict[str, Any]) -> None:
        """Combine the results of parallel readers, warning about duplicates between them.

        A reader warned about every description of a key but the first it saw; that first one
        is a duplicate too when the key is already known here, and is warned about now -- so a
        parallel build counts as many duplicates as a serial one.
        """
        firsts = otherdata.get("firsts", {})
        for key, entry in otherdata["objects"].items():
            if entry.docname not in docnames:
                continue
            existing = self.objects.get(key)
            first = firsts.get(key)
            if existing is not None and first in docnames:
                LOGGER.warning(
                    "duplicate description of %s %s, other instance in %s",
                    self.object_type(key[0]).label,
                    key[1],
                    existing.docname,
                    location=first,
                    type="onespec",
                    subtype="duplicate",
                )
            elif first in docnames:
                self.data.setdefault("firsts", {})[key] = first
            self.objects[key] = entry

    def _reference(
        self, builder: Builder, fromdocname: str, objtype: str, target: str, contnode: Element
    ) -> nodes.reference | None:
        entry = self.objects.get((objtype, target))
        if entry is None and objtype == EXTRA_SPEC:
            target = governing_definition(target) or target
            entry = self.objects.get((objtype, target))
        if entry is None:
            return None
        title = f"{target} ({self.object_type(objtype).label})"
        return make_refnode(builder, fromdocname, entry.docname, entry.node_id, contnode, title)

    def resolve_xref(
        self,
        env: BuildEnvironment,
        fromdocname: str,
        builder: Builder,
        typ: str,
        target: str,
        node: pending_xref,
        contnode: Element,
    ) -> nodes.reference | None:
        return self._reference(builder, fromdocname, typ, target, contnode)

    def resolve_any_xref(
        self,
        env: BuildEnvironment,
        fromdocname: str,
        builder: Builder,
        target: str,
        node: pending_xref,
        contnode: Element,
    ) -> list[tuple[str, nodes.reference]]:
        found = []
        for kind in OBJECT_TYPES:
            reference = self._reference(builder, fromdocname, kind.name, target, contnode)
            if reference is not None:
                found.append((f"onespec:{kind.name}", reference))
        return found

    def get_objects(self) -> Iterator[tuple[str, str, str, str, str, int]]:
        for (objtype, name), entry in self.objects.items():
            yield name, name, objtype, entry.docname, entry.node_id, 1

    def closest(self, objtype: str, target: str) -> str | None:
        """The known name a misspelt reference most probably meant: among this project's
        objects and those of the inventories intersphinx loaded, which a project that only
        links to onespec's keys relies on."""
        names = [name for (kind, name) in self.objects if kind == objtype]
        names.extend(_published_names(self.env, objtype))
        return closest(target, names)


def onespec_domain(env: BuildEnvironment) -> OnespecDomain:
    """This extension's domain in ``env``: Sphinx's registry types each as the base class."""
    return cast(OnespecDomain, env.domains["onespec"])


def _published_names(env: BuildEnvironment, objtype: str) -> list[str]:
    """The names of the objects of this type in the intersphinx inventories.

    A project that links to onespec's keys through intersphinx describes none of them itself;
    without these, a misspelt key would get no suggestion there.
    """
    inventory = getattr(env, "intersphinx_inventory", None)
    if not isinstance(inventory, Mapping):
        return []
    linked = inventory.get(f"onespec:{objtype}")
    if not isinstance(linked, Mapping):
        return []
    return [name for name in linked if isinstance(name, str)]


#: The object type whose concrete names resolve to the patterned definition that governs them.
EXTRA_SPEC = "extra-spec"


def governing_definition(key: str) -> str | None:
    """The name of the definition that governs a concrete key, when that is another name.

    ``trait:HW_CPU_X86_AVX2`` -> ``trait{group}:HW_CPU_X86_AVX2``, ``hw:numa_cpus.0`` ->
    ``hw:numa_cpus.{id}``: the lookup services validate with, so a reference follows exactly
    the keys the validator accepts. None for a key no definition governs (a typo) and for a
    name that is already a definition's.
    """
    from onespec.validators_runtime.extra_specs import default_registry

    name = default_registry().lookup(key)
    return name if name is not None and name != key else None


def suggested_key(key: str) -> str | None:
    """The key a misspelt concrete key probably meant, as the validator suggests it."""
    from onespec.validators_runtime.extra_specs import ExtraSpecValidationError, default_registry

    try:
        default_registry().validate({key: ""}, mode="strict", between_keys=False)
    except ExtraSpecValidationError as error:
        return next(
            (f.suggestion for f in error.findings if f.code == "unknown-key" and f.suggestion),
            None,
        )
    return None


def resolve_concrete_key(
    app: Sphinx, env: BuildEnvironment, node: pending_xref, contnode: Element
) -> None:
    """Let intersphinx find a concrete key's definition in another project's inventory.

    Runs before intersphinx: a reference to ``hw:numa_cpus.0`` is handed on as one to
    ``hw:numa_cpus.{id}`` when the inventories publish that name; the text shown stays the
    key the writer wrote.
    """
    if node.get("refdomain") != "onespec" or node.get("reftype") != EXTRA_SPEC:
        return None
    target = node["reftarget"]
    governing = governing_definition(target)
    if governing is not None and governing in _published_names(env, EXTRA_SPEC):
        node["onespec_written"] = target
        node["reftarget"] = governing
    return None


def warn_missing_reference(app: Sphinx, domain: Domain | None, node: pending_xref) -> bool | None:
    """Say which reference is unknown, where, and what was probably meant.

    Sphinx calls this for every unresolved reference of every project that loads the extension,
    with no domain at all for ``:any:`` and for references of unknown domains.
    """
    if domain is None or getattr(domain, "name", None) != "onespec":
        return None
    if node.get("onespec_optional"):
        return True  # generated link to a spec this project does not document: stay silent
    objtype = node["reftype"]
    target = node.get("onespec_written") or node["reftarget"]
    label = OnespecDomain.object_type(objtype).label if objtype in domain.object_types else objtype
    message = f"unknown {label} {target!r} in :onespec:{objtype}: reference"
    suggestion = suggested_key(target) if objtype == EXTRA_SPEC else None
    # Named onespec: this extension's domain, though the hook is typed for any.
    suggestion = suggestion or domain.closest(objtype, target)  # type: ignore[attr-defined]
    if suggestion is not None:
        message += f"; did you mean {suggestion!r}?"
    LOGGER.warning(message, location=node, type="ref", subtype="onespec")
    return True
