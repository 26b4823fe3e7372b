"""Heat's own parsers on files onespec writes (runs in the Heat environment).

Reads ``{"environments": [TEXT, ...], "templates": [TEXT, ...]}`` as JSON on standard input and
prints, for each text, ``null`` when Heat accepts it or Heat's error message: environments
through ``heat.common.environment_format.parse``, templates through
``heat.common.template_format.parse`` and then ``heat.engine.template.Template(...).validate()``,
which refuses any top-level section HOT does not define.
"""

import json
import sys
import warnings

warnings.simplefilter("ignore")

from heat.common import environment_format, template_format  # noqa: E402
from heat.engine import template  # noqa: E402


def verdict(check, text):
    try:
        check(text)
    except Exception as error:
        return f"{type(error).__name__}: {error}"
    return None


def check_template(text):
    template.Template(template_format.parse(text)).validate()


if __name__ == "__main__":
    request = json.load(sys.stdin)
    json.dump(
        {
            "environments": [
                verdict(environment_format.parse, t) for t in request.get("environments", [])
            ],
            "templates": [verdict(check_template, t) for t in request.get("templates", [])],
        },
        sys.stdout,
    )
