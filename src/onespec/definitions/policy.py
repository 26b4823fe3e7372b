"""Who may do what in the onespec API: the policy rules and their defaults, as plain facts.

Reads are allowed to any user of the project a request is scoped to; changing plugin labels and
writing flavor extra specs needs the ``admin`` role. The rules are data here so that the
documentation renders them, and the service registers them with oslo.policy
(:mod:`onespec.validators_runtime.service.policy`), from one statement of each.
"""

from __future__ import annotations

from dataclasses import dataclass

ADMIN = "onespec:admin"
PROJECT = "onespec:project"


@dataclass(frozen=True)
class Rule:
    """A policy rule and its default. ``operations`` are (method, path) pairs; a rule without
    operations is a base rule that others refer to (``rule:NAME``)."""

    name: str
    check_str: str
    description: str
    operations: tuple[tuple[str, str], ...] = ()


#: Every rule, base rules first, in the order the sample and the documentation list them.
RULES: tuple[Rule, ...] = (
    Rule(ADMIN, "role:admin", "An administrator: a user with the admin role."),
    Rule(
        PROJECT,
        "project_id:%(project_id)s",
        "Any user of the project the request is scoped to.",
    ),
    Rule(
        "onespec:plugins:list",
        f"rule:{PROJECT}",
        "List the plugins with their labels, as they are for the caller's project.",
        (("GET", "/plugins"),),
    ),
    Rule(
        "onespec:plugins:show",
        f"rule:{PROJECT}",
        "Show a plugin, or one of its versions, with its labels.",
        (("GET", "/plugins/{name}"), ("GET", "/plugins/{name}/{version}")),
    ),
    Rule(
        "onespec:plugins:update",
        f"rule:{ADMIN}",
        "Change the mutable labels of a plugin and of its versions, for the caller's project.",
        (("PATCH", "/plugins/{name}"),),
    ),
    Rule(
        "onespec:flavor_extra_specs:index",
        f"rule:{PROJECT}",
        "List the extra specs of a flavor.",
        (("GET", "/flavors/{flavor_id}/os-extra_specs"),),
    ),
    Rule(
        "onespec:flavor_extra_specs:show",
        f"rule:{PROJECT}",
        "Show one extra spec of a flavor.",
        (("GET", "/flavors/{flavor_id}/os-extra_specs/{key}"),),
    ),
    Rule(
        "onespec:flavor_extra_specs:create",
        f"rule:{ADMIN}",
        "Add extra specs to a flavor, or change them, keeping the others.",
        (("POST", "/flavors/{flavor_id}/os-extra_specs"),),
    ),
    Rule(
        "onespec:flavor_extra_specs:replace",
        f"rule:{ADMIN}",
        "Replace the whole set of a flavor's extra specs.",
        (("PUT", "/flavors/{flavor_id}/os-extra_specs"),),
    ),
    Rule(
        "onespec:flavor_extra_specs:update",
        f"rule:{ADMIN}",
        "Set one extra spec of a flavor.",
        (("PUT", "/flavors/{flavor_id}/os-extra_specs/{key}"),),
    ),
    Rule(
        "onespec:flavor_extra_specs:delete",
        f"rule:{ADMIN}",
        "Delete one extra spec of a flavor.",
        (("DELETE", "/flavors/{flavor_id}/os-extra_specs/{key}"),),
    ),
)

RULE_NAMES = frozenset(rule.name for rule in RULES)
