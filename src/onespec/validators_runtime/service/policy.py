"""Who may do what: the API's policy rules, with defaults registered in code (oslo.policy).

Reads are allowed to any user of the project a request is scoped to; changing plugin labels and
writing flavor extra specs needs the ``admin`` role. An operator overrides any rule with a
policy file (YAML, or JSON, which YAML reads too), given to ``onespec serve --policy-file``;
``onespec policy sample`` prints every default, commented out, as a starting point.

The rules are plain data in :mod:`onespec.definitions.policy`, so that the documentation renders
them without oslo.policy; :func:`rule_defaults` turns them into oslo.policy objects, and the
``oslo.policy.policies`` entry point ``onespec`` publishes those to oslo.policy's own tools
(``oslopolicy-sample-generator --namespace onespec``).
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from onespec.definitions.policy import RULE_NAMES, RULES
from onespec.errors import OnespecError
from onespec.validators_runtime import yaml_limits
from onespec.validators_runtime.problems import closest
from onespec.validators_runtime.problems import shown as shown_value

if TYPE_CHECKING:
    from oslo_policy.policy import Enforcer, RuleDefault

LOG = logging.getLogger(__name__)


class PolicyFileError(OnespecError, ValueError):
    """The policy file cannot be used; the message names it and says why."""


class PolicyFileSyntaxError(PolicyFileError):
    """The policy file is not valid YAML; the message names the file and the line."""


class PolicyUndecided(OnespecError, RuntimeError):
    """A check of a rule could not be evaluated (an ``http:`` check whose server is down or
    slow): the request is refused, never let through and never a server error."""

    def __init__(self, rule: str, cause: BaseException) -> None:
        self.rule = rule
        self.cause = f"{type(cause).__name__}: {' '.join(str(cause).split())[:300]}"
        super().__init__(f"the policy rule {rule} could not be evaluated ({self.cause})")


#: The longest an ``http:`` or ``https:`` check of a policy file may take, in seconds: it runs
#: while the request waits (oslo.policy's own default is a minute).
REMOTE_CHECK_TIMEOUT = 3


def rule_defaults() -> list[RuleDefault]:
    """The rules as oslo.policy defaults (the ``oslo.policy.policies`` entry point)."""
    from oslo_policy import policy

    defaults: list[RuleDefault] = []
    for rule in RULES:
        if rule.operations:
            operations: list[policy.Operation] = [
                {"method": method, "path": path} for method, path in rule.operations
            ]
            defaults.append(
                policy.DocumentedRuleDefault(
                    rule.name, rule.check_str, rule.description, operations
                )
            )
        else:
            defaults.append(policy.RuleDefault(rule.name, rule.check_str, rule.description))
    return defaults


def build_enforcer(policy_file: str | Path | None = None) -> Enforcer:
    """An enforcer with the defaults registered and, when given, the policy file's overrides.

    The file is read now, so that a missing or malformed one stops the service at start-up
    with :class:`PolicyFileError` instead of failing requests. It is read here and only here,
    through the bounded reader: oslo.policy is handed the rules as data and never opens the
    file itself, since it would read whatever it found there, whole -- a named pipe swapped in
    would hang every request, ``/dev/zero`` would exhaust memory. A file that changes while the
    service runs is read again the same way (see :class:`PolicySource`).
    """
    from oslo_config import cfg
    from oslo_policy import policy

    conf = cfg.ConfigOpts()
    conf(args=[], project="onespec", default_config_files=[], default_config_dirs=[])
    policy.Enforcer(conf, use_conf=False)  # registers oslo.policy's options on conf
    conf.set_override("remote_timeout", REMOTE_CHECK_TIMEOUT, group="oslo_policy")
    # use_conf=False: oslo.policy would otherwise look for policy.yaml in ~ and /etc, and read
    # any file it found there (or later) itself.
    if policy_file is None:
        enforcer = policy.Enforcer(conf, use_conf=False)
        enforcer.register_defaults(rule_defaults())
        enforcer.set_rules(_with_defaults(enforcer, {}), use_conf=False)
        return enforcer
    source = PolicySource(policy_file)
    enforcer = _reloading_enforcer(conf, source)
    enforcer.register_defaults(rule_defaults())
    enforcer.set_rules(_with_defaults(enforcer, source.read(), source.shown), use_conf=False)
    return enforcer


#: The deepest a rule may nest -- ``not``, ``and``, ``or``, parentheses and ``rule:`` references
#: to other rules, counted together. oslo.policy evaluates a rule by recursion, so a deeper one
#: (``not not not ...`` a few hundred times, a chain of ``rule:`` references) would fail every
#: request it guards with a RecursionError; real rules nest a handful of levels.
MAX_RULE_DEPTH = 50


def _with_defaults(enforcer: Enforcer, overrides: dict[str, str], shown: str = "") -> Any:
    """oslo.policy's rules: the file's ``overrides`` (and its helper rules), and the registered
    default of every rule the file leaves alone.

    Refused with :class:`PolicyFileError`, naming the rule: one too deeply nested to parse or
    to evaluate (:data:`MAX_RULE_DEPTH`), and rules that refer to each other in a circle, which
    oslo.policy would evaluate until Python's recursion limit.
    """
    from oslo_policy import policy

    rules = policy.Rules(default_rule=enforcer.default_rule)
    for name, text in overrides.items():
        try:
            rules.update(policy.Rules.from_dict({name: text}))
        except RecursionError:
            raise PolicyFileError(
                f"The policy file {shown!r}: the rule {name!r} is nested too deeply to read."
            ) from None
    for name, default in enforcer.registered_rules.items():
        rules.setdefault(name, default.check)
    _check_depth(rules, shown)
    return rules


def _check_depth(rules: dict[str, Any], shown: str) -> None:
    """Refuse a rule nested deeper than :data:`MAX_RULE_DEPTH`, ``rule:`` references followed,
    and references in a circle. One walk per rule, without recursion; each rule's depth is
    computed once."""
    depths: dict[str, int] = {}
    for start in rules:
        _rule_depth(start, rules, depths, shown)


def _rule_depth(start: str, rules: dict[str, Any], depths: dict[str, int], shown: str) -> int:
    """The nesting depth of rule ``start`` (see :func:`_check_depth`), memoised in ``depths``."""
    path = [start]  # the rules being measured, each waiting for those it refers to
    while path and start not in depths:
        name = path[-1]
        references = _references(rules[name], rules)
        waiting = [match for match, _ in references if match is not None and match not in depths]
        circle = [match for match in waiting if match in path]
        if circle:
            loop = " -> ".join([*path[path.index(circle[0]) :], circle[0]])
            raise PolicyFileError(
                f"The policy file {shown!r}: the rules refer to each other in a circle "
                f"({loop}); no request could ever be decided."
            )
        if waiting:
            path.append(waiting[0])
            continue
        depth = max(level + (depths[match] if match else 0) for match, level in references)
        if depth > MAX_RULE_DEPTH:
            raise PolicyFileError(
                f"The policy file {shown!r}: the rule {name!r} nests {depth} levels deep "
                f"(rule: references followed); the limit is {MAX_RULE_DEPTH}."
            )
        depths[name] = depth
        path.pop()
    return depths[start]


def _references(check: Any, rules: Any) -> list[tuple[str | None, int]]:
    """Each (rule a ``rule:`` check leads to, level it is at) in ``check``, and (None, level)
    for every other leaf: the check's tree walked without recursion.

    A ``rule:`` check naming no rule leads where oslo.policy takes it: to the default rule when
    there is one (``Rules.__missing__``), else nowhere.

    The walk reads checks through oslo.policy's public names for them (``policy.RuleCheck``,
    ``policy.NotCheck``, and the ``rules`` of ``and`` and ``or``). oslo.policy's own
    ``Enforcer.check_rules`` is no substitute: it recurses (a chain deep enough to refuse here
    would stop it with a RecursionError), does not look under ``not``, counts no depth and names
    no loop, and takes a reference to a missing rule for an undefined one where evaluation goes
    to the default rule.
    """
    from oslo_policy import policy

    default = getattr(rules, "default_rule", None)
    found: list[tuple[str | None, int]] = []
    stack = [(check, 1)]
    while stack:
        node, level = stack.pop()
        if isinstance(node, policy.RuleCheck):
            match = node.match if node.match in rules else default
            found.append((match if isinstance(match, str) and match in rules else None, level))
        else:
            found.append((None, level))
        children = [node.rule] if isinstance(node, policy.NotCheck) else []
        stack.extend((child, level + 1) for child in getattr(node, "rules", None) or children)
    return found


def _reloading_enforcer(conf: Any, source: PolicySource) -> Enforcer:
    """An enforcer whose rules follow ``source``: oslo.policy calls ``load_rules`` before every
    check, and that is where a changed file is read again -- by :class:`PolicySource`."""
    from oslo_policy import policy

    class ReloadingEnforcer(policy.Enforcer):
        def load_rules(self, force_reload: bool = False) -> None:
            rules = source.changed(lambda data: _with_defaults(self, data, source.shown))
            if rules is not None:
                self.set_rules(rules, use_conf=False)

    return ReloadingEnforcer(conf, use_conf=False)


class PolicySource:
    """The policy file: read through the bounded reader, and read again when it changes.

    A change is noticed from the file's status (device, inode, size, modification time), taken
    before every check as oslo.policy did. A file that can no longer be used -- removed, swapped
    for a named pipe, a device or something too large, or edited into nonsense -- is not read
    (or not trusted) and the rules last read stay in force; the error is logged once per change.
    """

    def __init__(self, policy_file: str | Path) -> None:
        self.shown = str(policy_file)
        self.path = Path(policy_file).resolve()
        self._status: tuple[int, ...] | None = None
        self._lock = threading.Lock()

    def _current_status(self) -> tuple[int, ...] | None:
        try:
            status = os.stat(self.path)
        except OSError:
            return None
        return (status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns, status.st_mode)

    def read(self) -> dict[str, str]:
        """The file's rules; :class:`PolicyFileError` naming the file and what is wrong."""
        status = self._current_status()
        rules = _read_rules(self.path, self.shown)
        self._status = status
        return rules

    def changed(self, build: Callable[[dict[str, str]], Any]) -> Any:
        """The file's rules, made by ``build``, when it has changed since it was last read;
        None when it has not, or when it can no longer be used (the error is logged)."""
        if self._current_status() == self._status:
            return None
        with self._lock:
            status = self._current_status()
            if status == self._status:
                return None  # another request read it meanwhile
            self._status = status
            try:
                return build(_read_rules(self.path, self.shown))
            except PolicyFileError as exc:
                LOG.error("%s; the rules read before stay in force.", str(exc).rstrip("."))
                return None


#: The largest policy file read, in bytes: every rule of the API, commented, is about 4 KB.
MAX_POLICY_FILE_SIZE = 1 << 20


#: libyaml's events, fast on any input; the pure-Python parser's, whose lines name a syntax
#: error where a reader looks for it, only to describe a file already found not to be YAML.
_POLICY_LOADERS = (
    yaml_limits.counting_loader("PolicyLoader"),
    yaml_limits.counting_loader("PolicyLoaderPython", python=True),
)


def _python_error(text: str) -> BaseException | None:
    """The pure-Python parser's error for ``text``, which libyaml refused; None when libyaml
    refused it for its own nesting limit (the Python parser would take long to say so)."""
    if text.count("[") + text.count("{") > 1000:
        return None
    try:
        yaml.load(text, Loader=_POLICY_LOADERS[1])  # noqa: S506 - a counting safe loader
    except (yaml.YAMLError, ValueError, yaml_limits.YAMLLimitError) as exc:
        return exc if isinstance(exc, yaml.YAMLError) else None
    return None


def _read_rules(path: Path, shown: str) -> dict[str, str]:
    """The rules of the policy file at ``path``, read once through the bounded reader.

    Read as YAML here, so that a syntax error names its line in one sentence (oslo.policy would
    pass on PyYAML's multi-line dump), and checked: rule names and rules are strings, and no
    rule in onespec's namespace is unknown.
    """
    from onespec.validators_runtime import inputs
    from onespec.validators_runtime.cli_grammar import yaml_message

    try:
        text = inputs.read_text(path, limit=MAX_POLICY_FILE_SIZE)
    except inputs.InputError as exc:
        if exc.code == "missing":
            raise PolicyFileError(f"The policy file {shown!r} does not exist.") from None
        raise PolicyFileError(f"The policy file {shown}: {exc.reason}") from None
    try:
        data = yaml.load(text, Loader=_POLICY_LOADERS[0])  # noqa: S506 - a counting safe loader
    except yaml.YAMLError as exc:
        raise PolicyFileSyntaxError(yaml_message(_python_error(text) or exc, shown)) from None
    except yaml_limits.YAMLLimitError as exc:
        raise PolicyFileSyntaxError(f"{shown}:{exc.line}: {exc.reason}") from None
    except ValueError as exc:  # an integer past Python's digit limit, a bad timestamp
        reason = str(exc).split(":")[0]
        raise PolicyFileSyntaxError(f"{shown}: not a policy file: {reason}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise PolicyFileSyntaxError(
            f"{shown}:1: not a policy file: a policy file is a mapping of rule names to rules"
        )
    for name, rule in data.items():
        if not isinstance(name, str):
            raise PolicyFileError(
                f"The policy file {shown!r}: the rule name {shown_value(name)} is not a string."
            )
        if not isinstance(rule, str):
            what = "empty (null)" if rule is None else shown_value(rule)
            raise PolicyFileError(
                f"The policy file {shown!r}: the rule {name!r} is {what}, not a "
                'string; write a check such as "role:admin" ("" allows everyone, "!" no one).'
            )
    _refuse_unknown(data, shown)
    return data


def _refuse_unknown(rules: dict[str, str], shown: str) -> None:
    """A file may define helper rules of its own; an unknown rule in onespec's namespace,
    though, is a typo that would leave the default in force unnoticed."""
    unknown = sorted(
        name for name in rules if name.startswith("onespec:") and name not in RULE_NAMES
    )
    if unknown:
        hints = []
        for name in unknown:
            close = closest(name, sorted(RULE_NAMES))
            hints.append(f"{name!r} (did you mean {close!r}?)" if close else repr(name))
        raise PolicyFileError(
            f"The policy file {shown!r} sets rules that do not exist: "
            f"{', '.join(hints)}. `onespec policy sample` lists the rules."
        )


def authorize(enforcer: Enforcer, rule: str, context: Any) -> bool:
    """Whether the request's ``context`` (an oslo.context RequestContext) passes ``rule``;
    :class:`PolicyUndecided` when a check of the rule fails to evaluate.

    The target is the caller's own project: plugin labels are per project, and flavors are
    shared by all.
    """
    try:
        return bool(enforcer.enforce(rule, {"project_id": context.project_id}, context))
    except Exception as error:  # any check that fails to evaluate refuses the request
        raise PolicyUndecided(rule, error) from error


def _yaml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def sample_lines() -> Iterator[str]:
    """A policy file that sets every rule to its default, each commented out and described."""
    yield "# The policy rules of the onespec API, with their defaults. Uncomment a rule and"
    yield "# change it to override the default; pass the file to `onespec serve --policy-file`."
    for rule in RULES:
        yield ""
        yield f"# {rule.description}"
        for method, path in rule.operations:
            yield f"# {method}  {path}"
        yield f"#{_yaml_string(rule.name)}: {_yaml_string(rule.check_str)}"


def sample() -> str:
    """The text of :func:`sample_lines`, ending with one newline."""
    return "\n".join(sample_lines()) + "\n"
