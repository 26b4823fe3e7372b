"""Template capabilities: the grammar of the HOT ``capabilities`` section and of the environment
``requires`` section, the well-known keys, and the facts of Heat that both must respect.

A HOT template may declare what it provides::

    heat_template_version: 2015-10-15
    capabilities:
      deployment: puppet

and an environment may say what it requires, and offer a list of templates for a resource type::

    requires:
      deployment: puppet
    resource_registry:
      OS::TripleO::Controller: [puppet/controller.yaml, docker/controller.yaml]

Heat itself rejects all three constructs, so onespec resolves them into an environment Heat
accepts. Everything a person or a tool reads about them -- the reference, the JSON Schemas, the
tables the runtime checks with -- is generated from this module. It uses the standard library and
the vocabulary of :mod:`onespec.definitions.model` only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from onespec.definitions.model import DefinitionError

#: The optional top-level section of a HOT template that declares its capabilities.
CAPABILITIES = "capabilities"

#: The optional top-level section of an environment that states what its templates must provide.
REQUIRES = "requires"

#: The key of a type-based annotation.
RESOURCE_TYPE = "resource_type"

#: The keys whose presence makes a file a template, as Heat's ``template_format.parse`` decides.
TEMPLATE_VERSION_KEYS: tuple[str, ...] = (
    "heat_template_version",
    "HeatTemplateFormatVersion",
    "AWSTemplateFormatVersion",
)

#: Heat's default ``max_template_size``: the most characters a template may have.
MAX_TEMPLATE_SIZE = 524_288

#: The sections Heat accepts in an environment (``heat.common.environment_format.SECTIONS``).
ENVIRONMENT_SECTIONS: tuple[str, ...] = (
    "parameters",
    "resource_registry",
    "parameter_defaults",
    "encrypted_param_names",
    "event_sinks",
    "parameter_merge_strategies",
)

#: The registry keys whose value Heat accepts as a list (breakpoint hooks and restricted
#: actions); a list anywhere else in a registry is a list of candidate templates.
REGISTRY_LIST_KEYS: tuple[str, ...] = ("hooks", "restricted_actions")

#: Registry keys that are not resource types: the client's base for relative paths.
REGISTRY_BASE_URL = "base_url"

#: The file name endings by which Heat's registry recognises a template implementation.
TEMPLATE_SUFFIXES: tuple[str, ...] = (".yaml", ".template")

#: Heat's HOT versions: the version date, and the release that introduced it.
HOT_VERSIONS: dict[str, str] = {
    "2013-05-23": "icehouse",
    "2014-10-16": "juno",
    "2015-04-30": "kilo",
    "2015-10-15": "liberty",
    "2016-04-08": "mitaka",
    "2016-10-14": "newton",
    "2017-02-24": "ocata",
    "2017-09-01": "pike",
    "2018-03-02": "queens",
    "2018-08-31": "rocky",
    "2021-04-16": "wallaby",
}

#: The top-level sections of a HOT template, with the first version that accepts each (None:
#: every version). Heat rejects any other section: "The template section is invalid: ...".
HOT_SECTIONS: dict[str, str | None] = {
    "heat_template_version": None,
    "description": None,
    "parameter_groups": None,
    "parameters": None,
    "resources": None,
    "outputs": None,
    "conditions": "2016-10-14",
}

#: The top-level sections of a CloudFormation-compatible template (``Conditions`` since Newton).
CFN_SECTIONS: tuple[str, ...] = (
    "AWSTemplateFormatVersion",
    "HeatTemplateFormatVersion",
    "Description",
    "Mappings",
    "Parameters",
    "Resources",
    "Outputs",
    "Conditions",
)

KeyKind = Literal["type", "label"]
FileKind = Literal["template", "environment"]

_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_.:-]*")


@dataclass(frozen=True)
class Section:
    """A top-level section that capabilities add to a Heat file.

    ``example`` is a YAML snippet of a whole file that uses the section.
    """

    name: str
    file_kind: FileKind
    summary: str
    description: str
    example: str

    def __post_init__(self) -> None:
        for label in ("name", "summary", "description", "example"):
            if not isinstance(getattr(self, label), str) or not getattr(self, label):
                raise DefinitionError(f"{label} must be a non-empty string", name=self.name)
        if self.file_kind not in ("template", "environment"):
            raise DefinitionError(
                f"file_kind must be template or environment, not {self.file_kind!r}",
                name=self.name,
                field="file_kind",
            )


@dataclass(frozen=True)
class CapabilityKey:
    """A key whose meaning is agreed on, so that templates and environments can share it.

    Any other key is allowed too (templates stay portable); these are the ones with a documented
    meaning. A ``type`` key selects templates by the resource types they implement; a ``label``
    key is matched against the environment's ``requires``. ``sections`` lists where the key may
    appear; ``examples`` are values it takes.
    """

    name: str
    kind: KeyKind
    summary: str
    description: str
    sections: tuple[str, ...]
    examples: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not _KEY.fullmatch(self.name):
            raise DefinitionError(f"a capability key needs a plain name, not {self.name!r}")
        if self.kind not in ("type", "label"):
            raise DefinitionError(
                f"kind must be type or label, not {self.kind!r}", name=self.name, field="kind"
            )
        for label in ("summary", "description"):
            if not isinstance(getattr(self, label), str) or not getattr(self, label):
                raise DefinitionError(
                    f"{label} must be a non-empty string", name=self.name, field=label
                )
        object.__setattr__(self, "sections", tuple(self.sections))
        object.__setattr__(self, "examples", tuple(self.examples))
        unknown = sorted(set(self.sections) - {CAPABILITIES, REQUIRES})
        if unknown or not self.sections:
            raise DefinitionError(
                f"sections must name {CAPABILITIES!r} and/or {REQUIRES!r}, not {unknown}",
                name=self.name,
                field="sections",
            )
        for example in self.examples:
            if not isinstance(example, str) or not example:
                raise DefinitionError(
                    "every example must be a non-empty string", name=self.name, field="examples"
                )


@dataclass(frozen=True)
class Rule:
    """One rule of the grammar or of resolution, stated once for the reference and the schemas."""

    name: str
    text: str


SECTIONS: tuple[Section, ...] = (
    Section(
        CAPABILITIES,
        "template",
        "What a template provides: labels, and the resource types it implements.",
        "An optional top-level mapping in a HOT template. Each key names a capability and its "
        "value is a string or a list of strings. The section is not strictly validated: keys "
        "that no environment asks for are allowed, so that one template can serve several "
        "projects. A template without the section provides no labels and may implement any "
        "resource type. Heat itself rejects the section (``The template section is invalid: "
        "capabilities``), so ``onespec template-capabilities resolve`` hands Heat copies "
        "without it.",
        "heat_template_version: 2015-10-15\n"
        "capabilities:\n"
        "  deployment: puppet\n"
        "  resource_type: OS::TripleO::Controller\n",
    ),
    Section(
        REQUIRES,
        "environment",
        "What the templates an environment chooses from must provide.",
        "An optional top-level mapping in an environment, beside ``resource_registry``. Each "
        "key names a label capability and its value is a string or a list of strings. When a "
        "``resource_registry`` entry lists several templates, the one template whose "
        "capabilities satisfy every key is chosen. Environments given together are merged in "
        "order, as Heat merges them: a later file's key replaces an earlier file's. Heat "
        'itself rejects the section (``environment has wrong section "requires"``), so '
        "``onespec template-capabilities resolve`` writes an environment without it.",
        "requires:\n"
        "  deployment: puppet\n"
        "resource_registry:\n"
        "  OS::TripleO::Controller: [puppet/controller.yaml, docker/controller.yaml]\n",
    ),
)

KEYS: tuple[CapabilityKey, ...] = (
    CapabilityKey(
        RESOURCE_TYPE,
        "type",
        "The resource types a template implements.",
        "A type-based annotation: the resource type names (``OS::TripleO::Controller``) that "
        "the template can implement through the ``resource_registry``. A list names several "
        "types, for templates that serve more than one hook. A template that names types is a "
        "candidate only for registry entries of those types; one that names none is a "
        "candidate for any type. It is what ``onespec template-capabilities find -c "
        "resource_type=TYPE`` looks for, and it is not allowed in ``requires``: the "
        "registry entry's own type already selects by it.",
        (CAPABILITIES,),
        (
            "OS::TripleO::Controller",
            "[OS::TripleO::ControllerPostDeployment, OS::TripleO::ComputePostDeployment]",
        ),
    ),
    CapabilityKey(
        "deployment",
        "label",
        "The tool that deploys and configures the servers the template describes.",
        "A label-based annotation: templates that implement the same resource types with "
        "different configuration tools declare which one they use, and an environment "
        "chooses by requiring it. It is the example of the specification this feature comes "
        "from: ``puppet/controller.yaml`` declares ``deployment: puppet``, "
        "``docker/controller.yaml`` declares ``deployment: docker``, and an environment that "
        "requires ``deployment: puppet`` gets the first.",
        (CAPABILITIES, REQUIRES),
        ("puppet", "docker"),
    ),
)

#: The rules of the grammar and of resolution, in the order the reference states them.
RULES: tuple[Rule, ...] = (
    Rule(
        "values",
        "A value is a non-empty string or a non-empty list of non-empty strings. Quote values "
        "that YAML 1.1 would read as something else (``'yes'``, ``'1.0'``, ``'2015-10-15'``).",
    ),
    Rule(
        "extra-keys",
        "Any key is allowed in ``capabilities``; keys that no environment requires are ignored.",
    ),
    Rule(
        "match",
        "A template satisfies a ``requires`` key when it declares the key and the two values "
        "share a member: a string is a list of one, so ``deployment: puppet`` satisfies "
        "``deployment: [puppet, ansible]`` and ``deployment: [puppet, docker]`` satisfies "
        "``deployment: puppet``. A template satisfies ``requires`` when it satisfies every key.",
    ),
    Rule(
        "type",
        "A template whose ``resource_type`` names types is a candidate only for registry "
        "entries of those types.",
    ),
    Rule(
        "lists",
        "In ``resource_registry``, a list of templates (paths relative to the environment "
        "file) is resolved to the one candidate that satisfies ``requires``. No candidate, or "
        "more than one, is an error that lists every candidate, its capabilities, and why it "
        "did or did not match. The lists of ``hooks`` and ``restricted_actions`` are Heat's "
        "own and are kept.",
    ),
)


def key(name: str) -> CapabilityKey | None:
    """The well-known key called ``name``, if there is one."""
    return next((k for k in KEYS if k.name == name), None)


def section(name: str) -> Section:
    """The section called ``name`` (``capabilities`` or ``requires``)."""
    return next(s for s in SECTIONS if s.name == name)


def forbidden_in(section_name: str) -> tuple[str, ...]:
    """The well-known keys that may not appear in ``section_name``."""
    return tuple(k.name for k in KEYS if section_name not in k.sections)
