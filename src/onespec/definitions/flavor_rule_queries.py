"""Questions asked of the flavor rules, kept apart from the rules themselves.

:mod:`onespec.definitions.flavor_rule_catalogue` declares what Nova refuses and warns about;
the functions here answer what the generator and the reference need to know about those
declarations: which names can make a rule apply (the generated code tests them before looking
at a rule), which rules depend on the flavor's sizes (a check that has no sizes leaves them
out), and which rules a key takes part in (the extra-spec reference links them). Reading the
rules through the facts they name is why this sits beside :mod:`.flavor_facts`, not in the
catalogue, which needs only the vocabulary.

Standard library only, like the catalogue.
"""

from __future__ import annotations

from onespec.definitions.flavor_facts import FACTS_BY_NAME
from onespec.definitions.flavor_rule_catalogue import RULES, WARNINGS
from onespec.definitions.flavor_rules import FLAVOR_FIELDS, Fact, Field, MaskWithinVcpus, Rule


def names_read(rule: Rule) -> frozenset[str]:
    """The keys, image properties and image fields whose presence can make ``rule`` apply: a
    fact stands for the keys it is read from; the flavor's own fields, always there, are left
    out. Names as the rules spell them (``hw:numa_cpus.N``, ``resources:PCPU``)."""
    names: set[str] = set()
    for source in rule.sources():
        if isinstance(source, Fact):
            names.update(FACTS_BY_NAME[source.name].reads)
            names.difference_update(FLAVOR_FIELDS)
        elif isinstance(source, Field):
            if source.name.startswith("image."):
                names.add(source.name)
        else:
            names.add(str(source))
    return frozenset(names)


#: The CPU masks (the facts a mask rule checks). They read the vCPUs only to resolve a mask
#: written ``^N``, which any flavor's vCPUs settle alike as long as the mask selects some; whether
#: a mask fits the real vCPUs is the verdict of its mask rule, which reads the vCPUs itself.
_MASKS = frozenset(rule.mask.name for rule in RULES if isinstance(rule, MaskWithinVcpus))


def reads_a_size(rule: Rule) -> bool:
    """Whether the verdict of ``rule`` depends on the flavor's sizes (``vcpus``, ``ram``...):
    it reads one itself, or through a fact other than a CPU mask. A check that does not know
    the sizes (the reference service keeps extra specs, not flavors) leaves such rules out."""
    for source in rule.sources():
        if isinstance(source, Field) and source.name in FLAVOR_FIELDS:
            return True
        if (
            isinstance(source, Fact)
            and source.name not in _MASKS
            and set(FLAVOR_FIELDS) & set(FACTS_BY_NAME[source.name].reads)
        ):
            return True
    return False


def rules_reading(key: str) -> tuple[Rule, ...]:
    """The rules (refusals, then warnings) that ``key`` can make apply."""
    return tuple(rule for rule in (*RULES, *WARNINGS) if key in names_read(rule))
