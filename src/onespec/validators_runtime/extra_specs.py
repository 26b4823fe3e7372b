"""Validate flavor extra specs against the catalogue, fast, reporting every problem at once.

::

    from onespec.validators_runtime.extra_specs import validate, ExtraSpecValidationError

    warnings = validate({"hw:cpu_policy": "dedicated"}, mode="strict")

Modes:

``strict``
    Unknown keys and invalid values are errors.
``permissive``
    Invalid values are errors; unknown keys are warnings.
``off``
    No definition is consulted.

Warnings are returned; each is also logged once per process, at INFO.

Extra specs can also be wrong together: Nova refuses a real-time flavor whose CPUs are not
pinned when a server is created. In ``strict`` and ``permissive`` mode :func:`validate` also
applies the rules between keys whose verdict needs neither the flavor's sizes nor an image
(:mod:`onespec.validators_runtime.spec_rules`); each broken rule is a :class:`RuleFinding`.
``onespec validate flavor`` applies the rest, with the sizes and the image.
``between_keys=False`` checks each extra spec on its own only, as Nova's validators do.

In every mode, ``off`` included, what Nova could not store is an error, for every key: a key
that is not a string, is empty or is longer than 255 characters, and a value that is not a
string (a JSON number is read as its decimal text, as Nova's API reads it). Otherwise a key whose
namespace no definition claims (``foo:bar``), and a key without a namespace that no definition
claims (``foo``), is accepted: it belongs to another service.

The module-level :func:`validate` uses the generated in-tree tables plus the out-of-tree
definitions published in the ``onespec.extra_specs`` entry-point group, loaded once, on first use.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from operator import contains
from typing import TYPE_CHECKING, Any, Literal, cast

from onespec.definitions.key_templates import template_text
from onespec.errors import OnespecError
from onespec.validators_runtime._generated import extra_specs as _generated
from onespec.validators_runtime.extra_spec_values import (
    FALSE_STRINGS,
    MAX_LENGTH,
    TRUE_STRINGS,
    ValueRule,
)
from onespec.validators_runtime.problems import (
    Location,
    Problem,
    Severity,
    Suggestions,
    shown,
)
from onespec.validators_runtime.tables import (
    HeadIndex,
    ParameterRecord,
    Pattern,
    SpecRecord,
    Tables,
)

if TYPE_CHECKING:
    from onespec.definitions.entry_points import PluginProblem
    from onespec.definitions.model import ExtraSpec
    from onespec.validators_runtime.flavor_parts.findings import FlavorFinding

# Importing this module stays cheap (services import it at startup): the vocabulary, the
# compiler, the rules between keys and difflib (through problems.closest) are imported only by
# the paths that need them.

LOG = logging.getLogger(__name__)

#: The entry-point group out-of-tree definitions are published in.
ENTRY_POINT_GROUP: str = _generated.ENTRY_POINT_GROUP
#: Namespace -> (template, reason): what a key the namespace does not list probably meant.
UNLISTED_KEY_HINTS: dict[str, tuple[str, str]] = _generated.UNLISTED_KEY_HINTS

Mode = Literal["strict", "permissive", "off"]
MODES: tuple[str, ...] = ("strict", "permissive", "off")

Code = Literal["unknown-key", "invalid-key", "invalid-value", "deprecated"]

#: How many unknown keys of one call get a did-you-mean search; the others get only what an
#: index answers at once (the same key in another case). A call's cost then does not grow with
#: how many unknown keys it holds beyond these.
MAX_SUGGESTIONS = 20

#: How many keys governed by a pattern a registry remembers with their rule; past this, the
#: memory starts afresh.
GOVERNED_LIMIT = 4096

#: How many sets of extra specs a registry remembers the rules' verdict on; past this, the
#: memory starts afresh.
VERDICTS_LIMIT = 1024

#: The most extra specs a flavor may have for the rules' verdict on it to be remembered: real
#: flavors have a few dozen at most, and a request of thousands would fill the memory.
VERDICT_SPECS_LIMIT = 64

#: Integers this large have more digits than any value may have characters, so they are refused
#: without being turned into text (which Python refuses past 4,300 digits).
_INT_LIMIT = 10**MAX_LENGTH


@dataclass(frozen=True, init=False)
class Finding(Problem):
    """One problem with one extra spec: a :class:`~onespec.validators_runtime.problems.Problem`
    whose location's ``path`` is the key.

    ``code`` is ``unknown-key`` (a key in a known namespace that no definition matches),
    ``invalid-key`` (something that cannot be an extra-spec key at all: not a string, empty, or
    longer than 255 characters), ``invalid-value`` or ``deprecated``. ``suggestion`` is the
    closest valid key or value, where one is close enough to be what was meant.
    """

    key: Any = None

    def __init__(
        self,
        key: Any,
        code: Code,
        severity: Severity,
        message: str,
        suggestion: str | None = None,
        value: Any = None,
    ) -> None:
        # One finding per bad key, and a hostile request may hold 100,000 of them: the fields
        # are set in one step rather than through the frozen dataclass's per-field setattr,
        # and the location is built only when it is read.
        self.__dict__.update(
            code=code,
            message=message,
            severity=severity,
            value=value,
            suggestion=suggestion,
            key=key,
            keys=(key if isinstance(key, str) else shown(key),),
        )

    # Problem's location field, computed here when read (see __init__): a dataclass field may
    # not become a property in the checker's model.
    @property  # type: ignore[misc]
    def location(self) -> Location:
        """Where the finding is: the key, as ``path``."""
        return Location(path=self.key_text)

    @property
    def key_text(self) -> str:
        """The key as a report shows it: itself, or bounded when it is not a string."""
        return self.key if isinstance(self.key, str) else shown(self.key)

    def to_dict(self) -> dict[str, Any]:
        """The one JSON shape of a finding (code, severity, message, file, line, path, value,
        suggestion), with the key as ``keys`` (the name every report uses) and as ``key`` (the
        name clients read first), for every report and API error bodies."""
        return {**super().to_dict(), "key": self.key_text}

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True, init=False)
class RuleFinding(Finding):
    """A rule between keys that the extra specs break together (or, as a warning, what they ask
    of the image a server boots), as :func:`validate` reports it beside the per-key findings.

    It is a :class:`Finding`, so a caller that reads ``key``, ``code``, ``severity``,
    ``message`` and ``suggestion`` of every finding reads these too: ``key`` is the first key
    involved and ``code`` the rule's name (``realtime-needs-pinning``). It adds what a whole
    flavor's finding says: ``keys`` (every key involved), ``nova_exception`` (the exception class
    Nova raises) and ``phase`` (``api``, ``scheduler`` or ``spawn``: when Nova refuses).
    """

    keys: tuple[str, ...] = ()
    nova_exception: str | None = None
    phase: str | None = None

    def __init__(
        self,
        code: str,
        severity: Severity,
        message: str,
        keys: tuple[str, ...],
        nova_exception: str | None = None,
        phase: str | None = None,
    ) -> None:
        self.__dict__.update(
            code=code,
            message=message,
            severity=severity,
            value=None,
            suggestion=None,
            key=keys[0] if keys else None,
            keys=keys,
            nova_exception=nova_exception,
            phase=phase,
        )

    @property  # type: ignore[misc]
    def location(self) -> Location:
        """Where the finding is: the first key involved, as ``path``."""
        return Location(path=self.key)

    @classmethod
    def of(cls, finding: FlavorFinding) -> RuleFinding:
        """The finding of a rule, as the whole-flavor check words it."""
        return cls(
            finding.code,
            finding.severity,
            finding.message,
            finding.keys,
            finding.nova_exception,
            finding.phase,
        )

    def to_dict(self) -> dict[str, Any]:
        """A finding's JSON shape, with ``keys``, ``nova_exception`` and ``phase`` (as
        ``onespec validate flavor`` gives them)."""
        return {
            **super().to_dict(),
            "keys": list(self.keys),
            "nova_exception": self.nova_exception,
            "phase": self.phase,
        }


class ExtraSpecValidationError(OnespecError, ValueError):
    """Some extra specs are invalid, on their own or together. ``findings`` lists every
    problem, warnings included; those of rules between keys are :class:`RuleFinding`."""

    def __init__(self, findings: Iterable[Finding]) -> None:
        self.findings: tuple[Finding, ...] = tuple(findings)
        errors = self.errors
        broken = sum(isinstance(finding, RuleFinding) for finding in errors)
        invalid = len(errors) - broken
        parts = []
        if invalid or not broken:
            parts.append(f"{invalid} invalid extra spec{'s' if invalid != 1 else ''}")
        if broken:
            parts.append(f"{broken} rule{'s' if broken != 1 else ''} between keys broken")
        summary = " and ".join(parts) + ": "
        super().__init__(summary + " ".join(finding.message for finding in errors))

    @property
    def errors(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity == "error")

    @property
    def warnings(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity == "warning")


_FOREIGN = object()  # the key's namespace is claimed by no definition

#: How many distinct warnings are remembered as logged; past this, the memory starts afresh, so
#: a stream of different unknown keys cannot grow it without bound.
_LOGGED_LIMIT = 4096
_logged: set[str] = set()


def _log_once(warnings: Iterable[Finding]) -> None:
    """Log each warning the first time this process meets it, at INFO.

    The warnings are returned to the caller, who decides what to show; the log is a trace for
    operators. INFO keeps library use quiet (Python prints WARNING and above when logging is not
    configured) and lets a service silence it with its logger level; once per message keeps a
    service that validates the same flavor on every request from repeating itself.
    """
    for finding in warnings:
        message = finding.message
        if message in _logged:
            continue
        if len(_logged) >= _LOGGED_LIMIT:
            _logged.clear()
        _logged.add(message)
        LOG.info("%s", message)


def stored_text(value: Any) -> str | None:
    """The text Nova stores for an extra-spec value: a string as it is, a JSON number as its
    decimal text; None for anything else, and for an integer too long to be a value (refused
    without being turned into text, which Python refuses past 4,300 digits)."""
    if type(value) is str:
        return value
    if isinstance(value, bool) or not isinstance(value, int | float):
        return value if isinstance(value, str) else None
    if isinstance(value, int) and abs(value) >= _INT_LIMIT:
        return None
    return str(value)


class _Findings(list):
    """The findings of one call, and how many did-you-mean searches it may still run."""

    def __init__(self) -> None:
        super().__init__()
        self.searches_left = MAX_SUGGESTIONS


class _Accepted(dict):
    """Each key's values accepted outright; a key a pattern governs is looked up in the
    registry's memory of such keys, and any other key accepts nothing here."""

    __slots__ = ("governed",)

    def __init__(self, plain: dict[str, frozenset[str]], governed: dict[str, Any]) -> None:
        super().__init__(plain)
        self.governed = governed

    def __missing__(self, key: Any) -> frozenset[str] | tuple[()]:
        rule = self.governed.get(key)
        return () if rule is None else rule.accepted


class _RuleTables:
    """The per-key tables less every key a rule between keys reads, and the rules: what
    :meth:`Registry.validate` reads when it applies them. A flavor whose keys are all in these
    tables, with values their keys accept outright, breaks no rule; that is found in the one
    pass that checks its values, so such a flavor costs what it costs without the rules. Built
    on first use: importing the rules costs time a per-key caller (Nova's validators) never
    spends."""

    __slots__ = ("accepted", "findings", "governed", "plain", "readers", "reads_a_rule", "verdicts")

    def __init__(self, plain: Mapping[str, ValueRule]) -> None:
        from onespec.validators_runtime.spec_rules import reads_a_rule, spec_rule_findings

        self.reads_a_rule = reads_a_rule
        self.findings = spec_rule_findings
        self.plain = {key: rule for key, rule in plain.items() if not reads_a_rule(key)}
        #: Keys a pattern governs, found so far, that no rule reads, and those a rule reads:
        #: bounded as the registry's.
        self.governed: dict[str, ValueRule] = {}
        self.readers: set[str] = set()
        self.accepted = _Accepted(
            {key: rule.accepted for key, rule in self.plain.items()}, self.governed
        )
        #: The rules' verdict on each set of extra specs met lately: a service checks the same
        #: flavors again and again, and the rules are a pure function of the extra specs.
        self.verdicts: dict[frozenset[tuple[Any, Any]], tuple[RuleFinding, ...]] = {}

    def learn(self, key: str, rule: ValueRule) -> None:
        """Remember ``key``, which ``rule`` governs, as a key some rule reads or none does."""
        if key in self.governed or key in self.readers:
            return
        if len(self.governed) >= GOVERNED_LIMIT or len(self.readers) >= GOVERNED_LIMIT:
            self.governed.clear()
            self.readers.clear()
        if self.reads_a_rule(key):
            self.readers.add(key)
        else:
            self.governed[key] = rule

    def broken(self, specs: Mapping[Any, Any]) -> tuple[RuleFinding, ...]:
        """The rules ``specs`` break, from the verdicts remembered when they are there."""
        seen: frozenset[tuple[Any, Any]] | None = None
        # A value that cannot be hashed (a list) leaves nothing to remember.
        if len(specs) <= VERDICT_SPECS_LIMIT:
            with contextlib.suppress(TypeError):
                seen = frozenset(specs.items())
        found = self.verdicts.get(seen) if seen is not None else None
        if found is None:
            found = tuple(map(RuleFinding.of, self.findings(_stored(specs))))
            if seen is not None:
                if len(self.verdicts) >= VERDICTS_LIMIT:
                    self.verdicts.clear()
                self.verdicts[seen] = found
        return found


def _stored(specs: Mapping[Any, Any]) -> dict[str, str]:
    """The extra specs as Nova would store them, for the rules between keys: string keys, and
    values as text (a number as Nova's API reads it); what Nova could not store is left out
    (the per-key check reports it)."""
    stored = {}
    for key, value in specs.items():
        text = stored_text(value) if type(key) is str else None
        if text is not None:
            stored[key] = text
    return stored


class _Miss:
    """Why a key in a known namespace matched nothing, for the message and the suggestion."""

    __slots__ = ("groups", "parameter", "prefix")

    def __init__(self, prefix: str | None, groups: list[int]) -> None:
        self.prefix = prefix
        self.groups = groups
        self.parameter: tuple[str, ParameterRecord, str, str] | None = None


class Registry:
    """Compiled definitions that can validate extra specs.

    Build one with :func:`compile_registry`; the module-level :func:`validate` uses the default
    one. ``sources`` maps each out-of-tree definition name to the entry point it came from, and
    ``problems`` lists what could not be loaded.
    """

    def __init__(
        self,
        tables: Tables,
        *,
        sources: Mapping[str, str] | None = None,
        problems: Iterable[PluginProblem] = (),
    ) -> None:
        self.tables = tables
        self.sources: dict[str, str] = dict(sources or {})
        self.problems: tuple[PluginProblem, ...] = tuple(problems)
        records = [SpecRecord._make(record) for record in tables.specs]
        self._records = records
        self._specs = [ValueRule(record) for record in records]
        self._exact = tables.exact
        #: The rule of each key a definition names exactly, where checking the value is all
        #: there is to do (not deprecated): most keys of most flavors, checked in one look-up.
        self._plain: dict[str, ValueRule] = {
            key: self._specs[index]
            for key, index in self._exact.items()
            if self._specs[index].status != "deprecated"
        }
        self._prefixes = tables.prefixes
        first_in_group: dict[int, SpecRecord] = {}
        for exact_rests, patterns in tables.groups:
            members = [*exact_rests.values(), *(entry[2] for entry in patterns)]
            first_in_group[len(first_in_group)] = records[min(members)]
        self._group_namespace = {group: spec.namespace for group, spec in first_in_group.items()}
        self._prefix_index = HeadIndex(
            Pattern(entry, template_text(first_in_group[entry[2]].prefix))
            for entry in tables.patterned_prefixes
        )
        self._groups = [
            (
                exact_rests,
                HeadIndex(Pattern(entry, records[entry[2]].name) for entry in patterns),
            )
            for exact_rests, patterns in tables.groups
        ]
        self._suggestions: dict[int, Suggestions] = {}
        self._lock = threading.Lock()
        #: Keys a pattern governs (``trait:HW_CPU_X86_AVX2``), each with its rule once found:
        #: the same keys come back on every flavor. Derived from the definitions, so it never
        #: goes stale; bounded (:data:`GOVERNED_LIMIT`), so keys from requests cannot grow it.
        self._governed: dict[str, ValueRule] = {}
        #: The values each key accepts outright (:attr:`ValueRule.accepted`), for the keys above:
        #: a flavor whose every value is among them is valid, which one pass in C finds.
        self._accepted = _Accepted(
            {key: rule.accepted for key, rule in self._plain.items()}, self._governed
        )
        self._rules: _RuleTables | None = None

    def __len__(self) -> int:
        return len(self._specs)

    @property
    def names(self) -> tuple[str, ...]:
        """Every definition name, in precedence order."""
        return tuple(spec.name for spec in self._specs)

    # -- lookup -------------------------------------------------------------------------------

    def _find(self, key: str, *, patterned_only: bool = False) -> ValueRule | _Miss | object:
        """The spec for ``key``, or a :class:`_Miss` (known namespace), or ``_FOREIGN``.

        ``patterned_only`` skips parameter-free definitions: it answers whether a pattern
        already governs a key.
        """
        if not patterned_only:
            index = self._exact.get(key)
            if index is not None:
                return self._specs[index]
        prefix, colon, rest = key.partition(":")
        if not colon:
            prefix, rest = "", key
        elif not prefix:
            return _FOREIGN  # ":x" has an empty namespace, which no definition can claim
        groups: list[int] = []
        literal_group = self._prefixes.get(prefix)
        if literal_group is not None:
            groups.append(literal_group)
        miss: _Miss | None = None
        if self._prefix_index:
            for pattern in self._prefix_index.candidates(prefix):
                broken = pattern.match(prefix)
                if broken is None:
                    continue
                if broken:
                    miss = miss or _Miss(prefix, groups)
                    miss.parameter = (pattern.template, *broken)
                    continue
                groups.append(pattern.index)
        if not groups:
            return miss if miss is not None else _FOREIGN
        for group in groups:
            exact_rests, patterns = self._groups[group]
            # Under a patterned prefix (trait{group}) a literal rest still belongs to a pattern.
            skip_exact = patterned_only and group == literal_group
            index = None if skip_exact else exact_rests.get(rest)
            if index is not None:
                return self._specs[index]
            for pattern in patterns.candidates(rest):
                broken = pattern.match(rest)
                if broken is None:
                    continue
                if broken:
                    miss = miss or _Miss(prefix if colon else None, groups)
                    miss.parameter = (pattern.template, *broken)
                    continue
                return self._specs[pattern.index]
        if not colon and miss is None:
            return _FOREIGN  # a key without a namespace belongs to whoever reads it
        if miss is None:
            miss = _Miss(prefix if colon else None, groups)
        return miss

    def lookup(self, key: str) -> str | None:
        """The name of the definition that governs ``key`` (``hw:numa_cpus.{id}`` for
        ``hw:numa_cpus.0``), or None."""
        found = self._find(key)
        return found.name if isinstance(found, ValueRule) else None

    # -- validation ---------------------------------------------------------------------------

    def _rule_tables(self) -> _RuleTables:
        tables = self._rules
        if tables is None:
            # Two threads may both build them; either result is the same.
            tables = self._rules = _RuleTables(self._plain)
        return tables

    def validate(
        self,
        specs: Mapping[Any, Any],
        *,
        mode: Mode | str = "strict",
        between_keys: bool = True,
    ) -> list[Finding]:
        """Check every extra spec and, unless ``between_keys`` is false or ``mode`` is
        ``off``, the rules between keys that extra specs alone can break; return the warnings,
        or raise with every finding.

        Raises :class:`ExtraSpecValidationError` when any finding is an error, ``ValueError`` for
        an unknown mode (any string is taken, as commands and requests give it, and checked
        here) and ``TypeError`` when ``specs`` is not a mapping.
        """
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        if type(specs) is not dict and not isinstance(specs, Mapping):
            raise TypeError(f"extra specs must be a mapping of keys to values, not {specs!r}")
        rules = (self._rules or self._rule_tables()) if between_keys and mode != "off" else None
        if rules is None:
            accepted, plain, governed = self._accepted, self._plain, self._governed
        else:
            accepted, plain, governed = rules.accepted, rules.plain, rules.governed
        try:
            if all(map(contains, map(accepted.__getitem__, specs), specs.values())):
                return []  # every value is one its key accepts outright: the usual flavor
        except TypeError:
            pass  # a value that cannot be looked up (a list): the check below reports it
        findings: _Findings | None = None
        known = False  # whether a key some rule between keys may read is present
        for key, value in specs.items():
            # A string value of a key named exactly by a current definition: valid when it is
            # one its rule accepts outright or its rule finds no problem, which is what the
            # full check below would also conclude.
            if type(value) is str and type(key) is str:
                rule = plain.get(key) or governed.get(key)
                if rule is not None and (value in rule.accepted or rule.problem(value) is None):
                    continue
                if rules is not None:
                    # A key some rule may read (or not yet known not to): valid on its own
                    # as above, and the rules are applied below.
                    rule = self._plain.get(key) or self._governed.get(key)
                    if rule is not None and (value in rule.accepted or rule.problem(value) is None):
                        if key not in self._plain:
                            rules.learn(key, rule)
                        known = known or key not in rules.governed
                        continue
            if findings is None:
                findings = _Findings()
            if self._check(key, value, mode, findings) and rules is not None:
                rule = self._governed.get(key)
                if rule is not None:
                    rules.learn(key, rule)
                known = known or not (key in rules.plain or key in rules.governed)
        if rules is not None and known:
            # The rules read the extra specs valid on their own, as Nova's, which refuses the
            # others when they are written: a value refused on its own is reported once.
            if findings:
                refused = {f.key for f in findings if f.severity == "error" and type(f.key) is str}
                if refused:
                    specs = {k: v for k, v in specs.items() if k not in refused}
            broken = rules.broken(specs)
            if broken:
                findings = findings if findings is not None else _Findings()
                findings.extend(broken)
        if not findings:
            return []
        _log_once(finding for finding in findings if finding.severity == "warning")
        if any(finding.severity == "error" for finding in findings):
            raise ExtraSpecValidationError(findings)
        return findings

    def _check(self, key: Any, value: Any, mode: str, findings: _Findings) -> bool:
        """Add what is wrong with one extra spec to ``findings``; whether a definition governs
        its key (a key a rule between keys may read)."""
        if type(key) is not str:
            findings.append(
                Finding(
                    key=key,
                    code="invalid-key",
                    severity="error",
                    message=f"Extra spec key {shown(key)} is not a string.",
                    value=value,
                )
            )
            return False
        if not key or len(key) > MAX_LENGTH:
            reason = "is empty" if not key else f"is longer than {MAX_LENGTH} characters"
            findings.append(
                Finding(
                    key=key,
                    code="invalid-key",
                    severity="error",
                    message=f"Extra spec key {shown(key)} {reason}.",
                    value=value,
                )
            )
            return False
        text = value if type(value) is str else self._as_text(key, value, findings)
        if mode == "off":
            return False
        found = self._find(key)
        if found is _FOREIGN:
            return False
        if isinstance(found, _Miss):
            search = findings.searches_left > 0
            findings.searches_left -= search
            findings.append(self._unknown(key, value, found, mode, search=search))
            return False
        if text is None:
            return False  # not a string: reported above, and no rule can apply to it
        value = text
        spec = cast(ValueRule, found)  # neither _FOREIGN nor a miss: a rule
        if spec.status != "deprecated" and key not in self._plain:
            governed = self._governed
            if len(governed) >= GOVERNED_LIMIT:
                governed.clear()
            governed[key] = spec
        problem = spec.problem(value)
        if problem is not None:
            reason, suggestion = problem
            message = f"Extra spec {key!r} has the value {shown(value)}, which {reason}."
            if suggestion is not None:
                message += f" Did you mean {suggestion!r}?"
            findings.append(
                Finding(
                    key=key,
                    code="invalid-value",
                    severity="error",
                    message=message,
                    suggestion=suggestion,
                    value=value,
                )
            )
        if spec.status == "deprecated":
            findings.append(self._deprecated(key, value, spec))
        return True

    @staticmethod
    def _as_text(key: str, value: Any, findings: _Findings) -> str | None:
        """A JSON number as the text Nova reads it as; None (and a finding) for anything else.

        Nova's API refuses any other value for every key, foreign or not, so no mode accepts
        one: it could not be stored.
        """
        if isinstance(value, int | float) and not isinstance(value, bool):
            text = stored_text(value)
            if text is not None:
                return text
            message = (
                f"Extra spec {key!r} has an integer value of more than {MAX_LENGTH} digits, "
                f"which is longer than {MAX_LENGTH} characters."
            )
            findings.append(Finding(key, "invalid-value", "error", message, value=value))
            return None
        message = f"Extra spec {key!r} has the value {shown(value)}, which is not a string."
        findings.append(Finding(key, "invalid-value", "error", message, value=value))
        return None

    def _deprecated(self, key: str, value: Any, spec: ValueRule) -> Finding:
        # Imported on the first deprecated key only: most validations never meet one.
        from onespec.definitions.model import deprecation_sentence

        replacement = repr(spec.replacement) if spec.replacement else None
        message = deprecation_sentence(f"Extra spec {key!r}", spec.since, spec.removal, replacement)
        return Finding(
            key=key,
            code="deprecated",
            severity="warning",
            message=message,
            suggestion=spec.replacement,
            value=value,
        )

    def _unknown(self, key: str, value: Any, miss: _Miss, mode: str, *, search: bool) -> Finding:
        severity: Severity = "error" if mode == "strict" else "warning"
        if miss.parameter is not None:
            template, parameter, text, reason = miss.parameter
            message = (
                f"Extra spec {key!r} matches {template!r}, but its {{{parameter[0]}}} part "
                f"{text!r} {reason}."
            )
            return Finding(
                key=key, code="unknown-key", severity=severity, message=message, value=value
            )
        namespace = self._group_namespace[miss.groups[0]]
        if namespace:
            message = f"Extra spec {key!r} is not a known key of the {namespace!r} namespace."
        else:
            message = f"Extra spec {key!r} is not a known key."
        suggestion = self._suggest_key(key, miss, search=search)
        if suggestion is None and namespace:
            suggestion, reason = self._unlisted_hint(namespace, key)
            if reason:
                message += f" {reason}"
        if suggestion is not None:
            message += f" Did you mean {suggestion!r}?"
        return Finding(
            key=key,
            code="unknown-key",
            severity=severity,
            message=message,
            suggestion=suggestion,
            value=value,
        )

    def _unlisted_hint(self, namespace: str, key: str) -> tuple[str | None, str]:
        """The key a namespace's hint proposes for one it does not list, and the hint's
        reason, when a definition governs the proposed key (``capabilities:stats:boot_option``
        for ``capabilities:boot_option``); else ``(None, "")``."""
        hint = UNLISTED_KEY_HINTS.get(namespace)
        if hint is None:
            return None, ""
        template, reason = hint
        proposed = template.replace("{name}", key.partition(":")[2])
        if not isinstance(self._find(proposed), ValueRule):
            return None, ""
        return proposed, reason

    def _suggestions_for(self, group: int) -> Suggestions:
        """Every key template of a group, after its prefix: what a typo is compared with.

        Built on the first typo in the group, not at startup, because most services never
        see one.
        """
        suggestions = self._suggestions.get(group)
        if suggestions is None:
            exact_rests, patterns = self.tables.groups[group]
            choices = (
                *exact_rests,
                *(template_text(self._records[entry[2]].rest) for entry in patterns),
            )
            suggestions = Suggestions(choices)
            with self._lock:
                self._suggestions[group] = suggestions
        return suggestions

    def _suggest_key(self, key: str, miss: _Miss, *, search: bool = True) -> str | None:
        """The key probably meant: searched among the group's keys, or (without ``search``)
        only the same key in another case, which an index answers at once."""
        rest = key.partition(":")[2] if miss.prefix is not None else key
        for group in miss.groups:
            suggestions = self._suggestions_for(group)
            best = suggestions.closest(rest) if search else suggestions.same_folded(rest)
            if best is not None:
                return f"{miss.prefix}:{best}" if miss.prefix is not None else best
        return None


def _shadowed(registry: Registry, definitions: Iterable[ExtraSpec]) -> list[tuple[ExtraSpec, str]]:
    """Parameter-free definitions that a patterned definition of ``registry`` already governs.

    An exact name is looked up before any pattern, so without this check a plugin could change
    the rules for a key that an in-tree pattern owns (``hw:numa_cpus.0``, ``trait:HW_CPU_X86_AVX``).
    """
    found = []
    for definition in definitions:
        if definition.parameters:
            continue
        owner = registry._find(definition.name, patterned_only=True)
        if isinstance(owner, ValueRule):
            found.append((definition, owner.name))
    return found


def compile_registry(definitions: Iterable[Any]) -> Registry:
    """Compile definitions (in precedence order) into a :class:`Registry`.

    Accepts :class:`~onespec.definitions.model.ExtraSpec` objects and anything
    :func:`~onespec.definitions.nova_shape.coerce_definition` accepts. Raises
    :class:`~onespec.definitions.model.DefinitionError` for a malformed definition, a name given
    twice, or a key that an earlier patterned definition already governs.
    """
    from onespec.definitions.model import DefinitionError
    from onespec.definitions.nova_shape import coerce_definition
    from onespec.validators_runtime.compiler import compile_definitions

    typed = [coerce_definition(definition) for definition in definitions]
    counts = Counter(d.name for d in typed)
    duplicates = sorted(name for name, count in counts.items() if count > 1)
    if duplicates:
        raise DefinitionError(f"names defined more than once: {', '.join(duplicates)}")
    registry = Registry(compile_definitions(typed))
    shadowed = _shadowed(registry, typed)
    if shadowed:
        raise DefinitionError(
            "; ".join(f"{d.name!r} is already governed by {owner!r}" for d, owner in shadowed)
        )
    return registry


def _load_default() -> Registry:
    from onespec.definitions.entry_points import (
        PluginProblem,
        load_entry_points,
        log_problems,
        merge_out_of_tree,
    )
    from onespec.validators_runtime.compiler import build_tables, spec_record

    generated = _generated
    in_tree = Tables(
        specs=generated.SPECS,
        exact=generated.EXACT,
        prefixes=generated.PREFIXES,
        patterned_prefixes=generated.PATTERNED_PREFIXES,
        groups=generated.GROUPS,
    )
    sources, problems = load_entry_points(ENTRY_POINT_GROUP)
    if not sources:
        log_problems(problems)
        return Registry(in_tree, problems=problems)
    in_tree_names = [SpecRecord._make(record).name for record in generated.SPECS]
    accepted, clashes = merge_out_of_tree(in_tree_names, sources)
    problems = (*problems, *clashes)
    shadowed = dict(_shadowed(Registry(in_tree), (d for d, _ in accepted)))
    kept = [(d, label) for d, label in accepted if d not in shadowed]
    problems = (
        *problems,
        *(
            PluginProblem(
                label,
                "clash",
                f"defines {d.name!r}, which the in-tree {shadowed[d]!r} already governs; "
                "the in-tree definition is kept",
                d.name,
            )
            for d, label in accepted
            if d in shadowed
        ),
    )
    log_problems(problems)
    tables = build_tables((*generated.SPECS, *(spec_record(definition) for definition, _ in kept)))
    return Registry(
        tables,
        sources={definition.name: label for definition, label in kept},
        problems=problems,
    )


_default: Registry | None = None
_default_lock = threading.Lock()


def default_registry() -> Registry:
    """The in-tree catalogue plus installed out-of-tree definitions, built once, on first use."""
    global _default
    registry = _default
    if registry is None:
        with _default_lock:
            registry = _default
            if registry is None:
                registry = _default = _load_default()
    return registry


def validate(
    specs: Mapping[Any, Any], *, mode: Mode | str = "strict", between_keys: bool = True
) -> list[Finding]:
    """Guard a write of flavor extra specs: check each key and value against the catalogue
    (with the out-of-tree definitions installed), as Nova's API does, and the rules between
    keys that extra specs alone can break, which Nova finds only when a server boots; return
    the warnings, or raise :class:`ExtraSpecValidationError` carrying every finding.

    ``mode`` is ``strict`` (an unknown key in a namespace onespec defines is an error),
    ``permissive`` (a warning) or ``off`` (nothing is checked); ``between_keys=False`` checks
    each key on its own, as Nova's own validators do.

    What needs the flavor's sizes or an image (a NUMA split of the vCPUs, the image's
    ``min_ram``...) is checked by :func:`~onespec.validators_runtime.flavors.validate_flavor`,
    which reports every finding and raises only for a document it cannot read.

    >>> validate({"hw:cpu_policy": "dedicated"})
    []

    See :meth:`Registry.validate` for the errors it raises.
    """
    return default_registry().validate(specs, mode=mode, between_keys=between_keys)


__all__ = [
    "FALSE_STRINGS",
    "MAX_LENGTH",
    "MODES",
    "TRUE_STRINGS",
    "ExtraSpecValidationError",
    "Finding",
    "Registry",
    "RuleFinding",
    "compile_registry",
    "default_registry",
    "stored_text",
    "validate",
]
