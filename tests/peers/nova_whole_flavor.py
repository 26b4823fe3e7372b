"""The Nova drop-in's opt-in whole-flavor check, called as a Nova developer would call it.

Runs in the ``nova`` environment (Nova 34.0.0). Usage::

    python nova_whole_flavor.py ONESPEC_ROOT < cases.json

For each ``{"flavor": {...}, "image": {...} | null}`` it builds Nova's own ``objects.Flavor``
and the image dict the compute API holds, calls
``onespec.validators_runtime.nova_validators.validate_whole_flavor`` on them and reports what
it did: the class and module of what it raised (Nova's ``ValidationError`` is expected), the
findings it carried, and, beside them, Nova's own verdict on the same objects
(``nova_flavor_checks.verdict``). ``"fields_set": [...]`` builds the ``Flavor`` with only
those fields set, as a flavor being created is.
"""

import json
import os
import sys
import warnings

warnings.simplefilter("ignore")


def main(root):
    from nova import objects
    from nova_flavor_checks import flavor_object, image_dict, verdict

    sys.path.insert(0, os.path.join(root, "src"))  # onespec, from this checkout
    from onespec.validators_runtime import nova_validators

    results = []
    for case in json.load(sys.stdin):
        flavor = flavor_object(case["flavor"])
        if case.get("fields_set") is not None:  # a Flavor being built: only these are set
            flavor = objects.Flavor(**{name: flavor[name] for name in case["fields_set"]})
        image = None if case.get("image") is None else image_dict(case["image"])
        result = {"nova": verdict(case), "raised": None}
        try:
            found = nova_validators.validate_whole_flavor(flavor, image)
        except Exception as error:
            found = getattr(error, "findings", ())
            result["raised"] = f"{type(error).__module__}.{type(error).__name__}"
            result["message"] = str(error)
        result["findings"] = [
            {
                "code": f.code,
                "severity": f.severity,
                "nova_exception": f.nova_exception,
                "phase": f.phase,
            }
            for f in found
        ]
        results.append(result)
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1])
