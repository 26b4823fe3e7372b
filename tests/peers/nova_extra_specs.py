"""Nova's extra-spec validators, as Nova's own code loads them (runs in the Nova environment).

``dump`` prints every registered validator -- name, module, value rules, parameters -- as JSON.
``validate`` reads ``[[key, value], ...]`` as JSON on standard input and prints Nova's verdict
for each: ``accepted``, ``invalid-value`` or ``unknown-key`` (the three things Nova's
``validators.validate`` can say), with Nova's message.
"""

import json
import sys
import warnings

warnings.simplefilter("ignore")

from nova import exception  # noqa: E402
from nova.api.validation.extra_specs import validators  # noqa: E402

UNKNOWN = "does not appear to be a valid extra spec"


def dump():
    entries = []
    for name, validator in sorted(validators.VALIDATORS.items()):
        value = validator.value
        entries.append(
            {
                "name": name,
                "module": type(validator).__module__ and validator_module(validator),
                "type": value["type"].__name__,
                "min": value.get("min"),
                "max": value.get("max"),
                "enum": [str(member) for member in value["enum"]] if "enum" in value else None,
                "pattern": value.get("pattern"),
                "deprecated": bool(validator.deprecated),
                "parameters": [
                    {"name": p["name"], "pattern": p["pattern"]} for p in validator.parameters
                ],
            }
        )
    return {"validators": entries, "namespaces": sorted(validators.NAMESPACES)}


_MODULE_OF = {}


def validator_module(validator):
    """The file of nova/api/validation/extra_specs/ that registered *validator*."""
    if not _MODULE_OF:
        from stevedore import extension

        manager = extension.ExtensionManager("nova.api.extra_spec_validators")
        for ext in manager:
            module = ext.plugin.__name__.rsplit(".", 1)[-1] + ".py"
            for registered in ext.plugin.register():
                _MODULE_OF[registered.name] = module
    return _MODULE_OF[validator.name]


def validate(pairs):
    verdicts = []
    for key, value in pairs:
        try:
            validators.validate(key, value)
        except exception.ValidationError as error:
            message = str(error)
            verdict = "unknown-key" if UNKNOWN in message else "invalid-value"
            verdicts.append({"verdict": verdict, "message": message})
        else:
            verdicts.append({"verdict": "accepted", "message": ""})
    return verdicts


if __name__ == "__main__":
    action = sys.argv[1]
    result = dump() if action == "dump" else validate(json.load(sys.stdin))
    json.dump(result, sys.stdout)
