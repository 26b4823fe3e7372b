"""Extra specs of the ``aggregate_instance_extra_specs`` namespace: host aggregate metadata."""

from onespec.definitions.extra_specs.capabilities import OPERATOR_SYNTAX
from onespec.definitions.model import ExtraSpec, Namespace, Parameter, Value

NAMESPACE = Namespace(
    name="aggregate_instance_extra_specs",
    title="Host aggregate metadata (AggregateInstanceExtraSpecsFilter)",
    description=(
        "Requirements on the metadata of the host aggregates a host belongs to, enforced by the "
        "``AggregateInstanceExtraSpecsFilter`` scheduler filter, which must be enabled in "
        "``[filter_scheduler] enabled_filters``. The part of the key after the colon is the "
        "metadata key to look for. The filter gathers that key's values from every aggregate "
        "the host is in, splitting comma-separated values into separate items; a host with no "
        "such value is rejected, and otherwise it passes when at least one item satisfies the "
        'requirement (below, "the host\'s value" is each of those items). This is a common '
        "way to steer flavors to a set of hosts, e.g. "
        "``aggregate_instance_extra_specs:ssd=true`` with ``ssd=true`` set on an aggregate. The "
        "filter also reads keys that have no namespace at all, an old form that is best avoided."
        "\n\n" + OPERATOR_SYNTAX
    ),
)

EXTRA_SPECS: tuple[ExtraSpec, ...] = (
    ExtraSpec(
        name="aggregate_instance_extra_specs:{key}",
        description=(
            "Requires that an aggregate of the host has the metadata key ``{key}`` with a value "
            "satisfying this requirement. Hosts outside every aggregate that carries the key are "
            "rejected."
        ),
        value=Value(
            type=str,
            description=(
                "A requirement: a literal value, or an operator followed by its operands (see "
                "the namespace description)."
            ),
        ),
        parameters=(
            Parameter(
                "key",
                str,
                "The aggregate metadata key to match; any non-empty text, colons included.",
                pattern=r".+",
            ),
        ),
    ),
)
