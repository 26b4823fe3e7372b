"""Write the facts of :mod:`onespec.definitions.template_capabilities` that the runtime checks with:
``src/onespec/validators_runtime/_generated/template_capabilities.py``.

The module holds plain literals only, so that
:mod:`onespec.validators_runtime.heat.template_capabilities` imports no definitions and services
pay nothing for the grammar's documentation.
"""

from __future__ import annotations

from collections.abc import Iterator

from onespec.definitions import template_capabilities as grammar
from onespec.generator.literals import assignment, module_header, module_text
from onespec.generator.outputs import Output, generated_module

#: Where the module is written: inside the runtime package, wherever it is installed.
OUTPUT = generated_module("template_capabilities")


def render_lines() -> Iterator[str]:
    """Yield the lines of the generated module."""
    yield from module_header(
        "template-capabilities",
        "src/onespec/definitions/template_capabilities.py",
        "The grammar of template capabilities and the Heat facts it relies on (data only).",
    )
    yield from assignment("CAPABILITIES", grammar.CAPABILITIES)
    yield from assignment("REQUIRES", grammar.REQUIRES)
    yield from assignment("RESOURCE_TYPE", grammar.RESOURCE_TYPE)
    yield from assignment("KEYS", {key.name: key.kind for key in grammar.KEYS})
    yield from assignment(
        "FORBIDDEN",
        {section.name: grammar.forbidden_in(section.name) for section in grammar.SECTIONS},
    )
    yield from assignment("TEMPLATE_VERSION_KEYS", grammar.TEMPLATE_VERSION_KEYS)
    yield from assignment("MAX_TEMPLATE_SIZE", grammar.MAX_TEMPLATE_SIZE)
    yield from assignment("ENVIRONMENT_SECTIONS", grammar.ENVIRONMENT_SECTIONS)
    yield from assignment("REGISTRY_LIST_KEYS", grammar.REGISTRY_LIST_KEYS)
    yield from assignment("REGISTRY_BASE_URL", grammar.REGISTRY_BASE_URL)
    yield from assignment("TEMPLATE_SUFFIXES", grammar.TEMPLATE_SUFFIXES)
    yield from assignment("HOT_VERSIONS", grammar.HOT_VERSIONS)
    yield from assignment("HOT_SECTIONS", grammar.HOT_SECTIONS)
    yield from assignment("CFN_SECTIONS", grammar.CFN_SECTIONS)


def render() -> str:
    """The whole generated module as text, ending with one newline."""
    return module_text(render_lines())


def output() -> Output:
    """The ``template-capabilities`` output: the runtime's copy of the grammar."""
    return Output("template-capabilities", lambda: {OUTPUT: render()})
