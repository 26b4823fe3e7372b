"""Nova's own code reading the adapter's registry: its docs extension, and a validator plugin.

Runs in the ``nova`` environment (Nova 34.0.0). Usage::

    python nova_docs_and_plugins.py docs ONESPEC_ROOT adapter|nova EXT_DIR SPHINX_SITE OUT
    python nova_docs_and_plugins.py plugin ONESPEC_ROOT adapter|nova PLUGIN_SITE KEY=VALUE...

``docs`` builds a small Sphinx project with Nova's ``doc/ext/extra_specs.py`` (from EXT_DIR; the
``nova`` environment has no Sphinx, so SPHINX_SITE, a site-packages folder that has it, is put
at the end of ``sys.path``) listing every group Nova documents, and prints the extra specs the
extension documented, each with the fields it wrote, and the warnings. ``plugin`` puts
PLUGIN_SITE (a folder holding a validator plugin's distribution) on ``sys.path`` before Nova's
registry loads, and prints whether ``validate`` accepts each KEY=VALUE.
"""

import io
import json
import os
import sys

#: The groups Nova's own reference (doc/source/configuration/extra-specs.rst) documents.
GROUPS = (
    "hw", "hw_rng", "hw_video", "os", "vmware", "quota", "resources", "trait",
    "accel", "aggregate_instance_extra_specs", "capabilities", "pci_passthrough", "",
)  # fmt: skip


def choose(root, which):
    if which == "adapter":
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from nova_adapter import swap_in_adapter

        swap_in_adapter(root)
    from nova.api.validation.extra_specs import validators

    return validators


def docs(root, which, ext_dir, sphinx_site, out):
    choose(root, which)
    sys.path.append(sphinx_site)
    sys.path.insert(0, ext_dir)
    from sphinx.application import Sphinx

    source = os.path.join(out, "source")
    os.makedirs(source, exist_ok=True)
    with open(os.path.join(source, "conf.py"), "w") as conf:
        conf.write("extensions = ['extra_specs']\n")
    with open(os.path.join(source, "index.rst"), "w") as index:
        index.write("Extra specs\n===========\n\n")
        for group in GROUPS:
            index.write(f".. extra-specs:: {group}\n\n" if group else ".. extra-specs::\n\n")
    warnings = io.StringIO()
    app = Sphinx(
        source, source, os.path.join(out, "build"), os.path.join(out, "doctrees"), "text",
        status=io.StringIO(), warning=warnings, freshenv=True,
    )  # fmt: skip
    app.build()
    with open(os.path.join(out, "build", "index.txt")) as built:
        text = built.read()
    return {
        "documented": sorted(app.env.domaindata["nova"]["extra_specs"]),
        "text": text,
        "warnings": [line for line in warnings.getvalue().splitlines() if line.strip()],
    }


def plugin(root, which, plugin_site, *specs):
    sys.path.insert(0, plugin_site)
    validators = choose(root, which)
    from nova import exception

    verdicts = {}
    for spec in specs:
        key, _, value = spec.partition("=")
        try:
            validators.validate(key, value)
            verdicts[spec] = "accepted"
        except exception.ValidationError as error:
            verdicts[spec] = f"refused: {error}"
    return {
        "verdicts": verdicts,
        "registered": sorted(n for n in validators.VALIDATORS if n.startswith("acme")),
    }


def main(argv):
    action, root, which, *rest = argv
    report_stream = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    report = docs(root, which, *rest) if action == "docs" else plugin(root, which, *rest)
    json.dump(report, report_stream)
    report_stream.flush()


if __name__ == "__main__":
    main(sys.argv[1:])
