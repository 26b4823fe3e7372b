"""Each extra spec's entry says where else the documentation mentions it, and how to check it.

A reader who lands on ``hw:cpu_policy`` from a search wants the guide that explains it in
context, and the function that validates it. While reading, every document's literals (````hw:
cpu_policy````) and ``onespec`` references are noted; when a page is written, each
``onespec:extra-spec`` entry gets a "Mentioned in" line linking those documents; the page says
once, before its first key, that ``onespec.validators_runtime.extra_specs.validate`` checks
them, where the project documents that function.

``onespec_mentions_exclude`` (glob patterns of document names, default none) leaves out the
documents that list keys rather than discuss them, such as a project's generated reference.
"""

from __future__ import annotations

import fnmatch
from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.environment import BuildEnvironment
from sphinx.errors import ConfigError

from onespec.sphinxext.domain import onespec_domain
from onespec.validators_runtime.problems import shown

#: The function every entry links to, when the project documents it.
VALIDATE = "onespec.validators_runtime.extra_specs.validate"


def _mentions(env: BuildEnvironment) -> dict[str, set[str]]:
    # Sphinx keeps an extension's data on the environment, as attributes it does not declare.
    if not hasattr(env, "onespec_mentions"):
        env.onespec_mentions = {}  # type: ignore[attr-defined]
    return env.onespec_mentions  # type: ignore[attr-defined]


def _collect(app: Sphinx, doctree: nodes.document) -> None:
    texts: set[str] = set()
    for literal in doctree.findall(nodes.literal):
        text = literal.astext()
        if 0 < len(text) <= 255 and not any(c.isspace() for c in text):
            texts.add(text)
    for reference in doctree.findall(addnodes.pending_xref):
        if reference.get("refdomain") in ("onespec", "std", "") and reference.get("reftarget"):
            texts.add(str(reference["reftarget"]))
    _mentions(app.env)[app.env.docname] = texts


def _purge(_app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    _mentions(env).pop(docname, None)


def _merge(_app: Sphinx, env: BuildEnvironment, docnames: set[str], other: Any) -> None:
    theirs = getattr(other, "onespec_mentions", {})
    _mentions(env).update({name: texts for name, texts in theirs.items() if name in docnames})


def _excluded(app: Sphinx, docname: str) -> bool:
    return any(fnmatch.fnmatch(docname, p) for p in app.config.onespec_mentions_exclude)


def _rewrite_changed(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """Pages whose entries are now mentioned by other documents than when last written.

    The links are added when a page is written, so a page whose own source did not change is
    written again (not read again) when a guide starts or stops mentioning one of its keys.
    """
    domain = onespec_domain(env)
    pages = {
        name: entry.docname
        for (objtype, name), entry in domain.objects.items()
        if objtype == "extra-spec"
    }
    mentions = {doc: texts for doc, texts in _mentions(env).items() if not _excluded(app, doc)}
    index = {
        name: tuple(sorted(doc for doc, texts in mentions.items() if doc != page and name in texts))
        for name, page in pages.items()
    }
    before: dict[str, tuple[str, ...]] = getattr(env, "onespec_mention_index", {})
    env.onespec_mention_index = index  # type: ignore[attr-defined]  # an extension's data
    return sorted({page for name, page in pages.items() if index[name] != before.get(name)})


def _link(app: Sphinx, fromdoc: str, todoc: str, anchor: str, text: str) -> nodes.reference:
    uri = app.builder.get_relative_uri(fromdoc, todoc) + (f"#{anchor}" if anchor else "")
    return nodes.reference("", text, internal=True, refuri=uri)


def _add_links(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    domain = onespec_domain(app.env)
    names = {
        entry.node_id: name
        for (objtype, name), entry in domain.objects.items()
        if objtype == "extra-spec" and entry.docname == docname
    }
    if not names:
        return
    mentions = {
        doc: texts
        for doc, texts in sorted(_mentions(app.env).items())
        if doc != docname and not _excluded(app, doc)
    }
    validate = app.env.domains["py"].objects.get(VALIDATE)
    first = True
    for description in list(doctree.findall(addnodes.desc)):
        if description.get("domain") != "onespec" or description.get("objtype") != "extra-spec":
            continue
        signature = next(iter(description.findall(addnodes.desc_signature)), None)
        ids: list[str] = signature.get("ids", []) if signature else []
        name = next((names[i] for i in ids if i in names), None)
        content = next(iter(description.findall(addnodes.desc_content)), None)
        if name is None or content is None:
            continue
        if first and validate is not None:
            # Once per page, before its first key: the same line under every key is noise.
            description.parent.insert(
                description.parent.index(description), _checked_by(app, docname, validate)
            )
        first = False
        where = [doc for doc, texts in mentions.items() if name in texts]
        paragraph = nodes.paragraph(classes=["onespec-mentions"])
        if where:
            paragraph += nodes.strong("", "Mentioned in: ")
            for position, doc in enumerate(where):
                if position:
                    paragraph += nodes.Text(", ")
                title = app.env.titles[doc].astext() if doc in app.env.titles else doc
                paragraph += _link(app, docname, doc, "", title)
            paragraph += nodes.Text(".")
            content += paragraph


def _checked_by(app: Sphinx, docname: str, validate: Any) -> nodes.paragraph:
    """ "Every key on this page is checked by validate()", linked to the function."""
    paragraph = nodes.paragraph(classes=["onespec-checked-by"])
    paragraph += nodes.Text("Every key on this page is checked by ")
    reference = _link(app, docname, validate.docname, validate.node_id, "")
    reference += nodes.literal("", "validate()")
    paragraph += reference
    paragraph += nodes.Text(".")
    return paragraph


def _check_config(app: Sphinx, config: Config) -> None:
    """A consumer's ``conf.py`` sets the option by hand: anything but a list of patterns is a
    configuration error naming the option, not an "Extension error" from deep in a build."""
    value = config.onespec_mentions_exclude
    if not isinstance(value, list | tuple) or not all(isinstance(p, str) for p in value):
        raise ConfigError(
            "onespec_mentions_exclude must be a list of glob patterns of document names "
            f"(strings), such as ['reference/*'], not {shown(value)}"
        )


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_config_value("onespec_mentions_exclude", [], "env", [list, tuple])
    app.connect("config-inited", _check_config)
    app.connect("doctree-read", _collect)
    app.connect("env-purge-doc", _purge)
    app.connect("env-merge-info", _merge)
    app.connect("env-updated", _rewrite_changed)
    app.connect("doctree-resolved", _add_links)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
