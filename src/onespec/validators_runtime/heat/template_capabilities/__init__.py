"""Template capabilities: annotate HOT templates, resolve environments, introspect template trees.

A template declares what it provides in an optional ``capabilities`` section; an environment
states what it requires in an optional ``requires`` section and may map a resource type to a
*list* of templates. Heat rejects all three, so :func:`resolve` turns such environments into
one Heat accepts, and :func:`write_resolution` writes it beside copies of the templates without
their ``capabilities`` section. :func:`find`, :func:`summary` and :func:`choices` answer the
questions a user interface asks of a tree of templates and environments::

    from onespec.validators_runtime.heat.template_capabilities import (
        choices, find, resolve, summary,
    )

    find(["templates/"], {"resource_type": "OS::TripleO::Controller"}, recursive=True).matches
    summary(["templates/"], recursive=True).labels        # {"deployment": ["docker", "puppet"]}
    resolve(["env.yaml"]).environment                     # single-valued registry, no requires

Every problem is a :class:`~onespec.validators_runtime.heat.hot_loader.HeatFileError` (a
``ValueError``) that names the file and the line. The grammar comes from
``src/onespec/definitions/template_capabilities.py``, through
``onespec.validators_runtime._generated.template_capabilities``.
"""

from __future__ import annotations

from onespec.validators_runtime.heat.template_capabilities.model import (
    CAPABILITIES,
    ENVIRONMENT_FILE,
    ENVIRONMENT_SECTIONS,
    HOT_SECTIONS,
    REQUIRES,
    RESOURCE_TYPE,
    SCAN_SUFFIXES,
    Candidate,
    CapabilitiesError,
    Decision,
    OutputError,
    ResolutionError,
    Severity,
    Values,
    show,
    show_mapping,
)
from onespec.validators_runtime.heat.template_capabilities.paths import (
    display_path,
    implementation,
)
from onespec.validators_runtime.heat.template_capabilities.query import (
    Choices,
    Constraints,
    FindResult,
    Summary,
    choices,
    find,
    summary,
)
from onespec.validators_runtime.heat.template_capabilities.registry import (
    RegistryEntry,
    deep_update,
)
from onespec.validators_runtime.heat.template_capabilities.resolve import (
    Resolution,
    check_heat_environment,
    read_environment,
    resolve,
)
from onespec.validators_runtime.heat.template_capabilities.scan import (
    FileRecord,
    Scan,
    facts_of,
    iter_files,
    scan,
)
from onespec.validators_runtime.heat.template_capabilities.sections import (
    evaluate,
    parse_section,
    template_capabilities,
)
from onespec.validators_runtime.heat.template_capabilities.write import (
    Written,
    json_dumps,
    strip_capabilities,
    write_resolution,
)
from onespec.validators_runtime.problems import Problem

__all__ = [
    "CAPABILITIES",
    "ENVIRONMENT_FILE",
    "ENVIRONMENT_SECTIONS",
    "HOT_SECTIONS",
    "REQUIRES",
    "RESOURCE_TYPE",
    "SCAN_SUFFIXES",
    "Candidate",
    "CapabilitiesError",
    "Choices",
    "Constraints",
    "Decision",
    "FileRecord",
    "FindResult",
    "OutputError",
    "Problem",
    "RegistryEntry",
    "Resolution",
    "ResolutionError",
    "Scan",
    "Severity",
    "Summary",
    "Values",
    "Written",
    "check_heat_environment",
    "choices",
    "deep_update",
    "display_path",
    "evaluate",
    "facts_of",
    "find",
    "implementation",
    "iter_files",
    "json_dumps",
    "parse_section",
    "read_environment",
    "resolve",
    "scan",
    "show",
    "show_mapping",
    "strip_capabilities",
    "summary",
    "template_capabilities",
    "write_resolution",
]
