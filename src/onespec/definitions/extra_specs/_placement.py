"""What the ``resources`` and ``trait`` namespaces share: the granular request group suffix."""

from onespec.definitions.model import Parameter

#: ``resources1:VCPU``, ``trait_NET:CUSTOM_PHYSNET_A``: the optional suffix that puts a request
#: into a numbered or named granular group. The pattern allows any length so that an over-long
#: suffix is reported against ``max_length`` instead of silently leaving the namespace.
GROUP = Parameter(
    "group",
    str,
    "An optional suffix of up to 64 letters, digits, ``_`` or ``-`` that places the request in a "
    "granular request group, so that all of the group's resources and traits are satisfied by "
    "one resource provider. Without a suffix the request belongs to the unnumbered group, "
    "which may be spread over several providers.",
    pattern="[a-zA-Z0-9_-]*",
    max_length=64,
)

#: The spelling Placement allows after ``CUSTOM_`` in custom resource classes and traits.
CUSTOM_NAME = r"[A-Z0-9_]+"
