"""Who may do what: the API's policy rules, with defaults registered in code (oslo.policy).

Reads are allowed to any user of the project a request is scoped to; changing plugin labels and
writing flavor extra specs needs the ``admin`` role. An operator overrides any rule with a
policy file (YAML or JSON, as oslo.policy reads it), given to ``onespec serve --policy-file``;
``onespec policy sample`` prints every default, commented out, as a starting point.

The rules are plain data in :mod:`onespec.definitions.policy`, so that the documentation renders
them without oslo.policy; :func:`rule_defaults` turns them into oslo.policy objects, and the
``oslo.policy.policies`` entry point ``onespec`` publishes those to oslo.policy's own tools
(``oslopolicy-sample-generator --namespace onespec``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from onespec.definitions.policy import RULE_NAMES, RULES
from onespec.validators_runtime import yaml_limits
from onespec.validators_runtime.problems import closest

if TYPE_CHECKING:
    from oslo_policy.policy import Enforcer, RuleDefault


class PolicyFileError(ValueError):
    """The policy file cannot be used; the message names it and says why."""


class PolicyFileSyntaxError(PolicyFileError):
    """The policy file is not valid YAML; the message names the file and the line."""


def rule_defaults() -> list[RuleDefault]:
    """The rules as oslo.policy defaults (the ``oslo.policy.policies`` entry point)."""
    from oslo_policy import policy

    defaults: list[RuleDefault] = []
    for rule in RULES:
        if rule.operations:
            operations = [{"method": method, "path": path} for method, path in rule.operations]
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
    with :class:`PolicyFileError` instead of failing requests; oslo.policy re-reads it when it
    changes.
    """
    from oslo_config import cfg
    from oslo_policy import policy

    conf = cfg.ConfigOpts()
    conf(args=[], project="onespec", default_config_files=[], default_config_dirs=[])
    path = None
    if policy_file is not None:
        path = Path(policy_file).resolve()
        if not path.exists():
            raise PolicyFileError(f"The policy file {str(policy_file)!r} does not exist.")
    defaults = rule_defaults()
    if path is None:
        # Defaults only: oslo.policy would otherwise look for policy.yaml in ~ and /etc.
        enforcer = policy.Enforcer(conf, use_conf=False)
        enforcer.register_defaults(defaults)
        enforcer.set_rules(
            policy.Rules({rule.name: rule.check for rule in defaults}), use_conf=False
        )
        return enforcer
    _check_yaml(path, str(policy_file))
    enforcer = policy.Enforcer(conf, policy_file=str(path))
    conf.set_override("policy_dirs", [], group="oslo_policy")
    enforcer.register_defaults(defaults)
    try:
        enforcer.load_rules()
    except Exception as exc:
        raise PolicyFileError(
            f"The policy file {str(policy_file)!r} cannot be read: {exc}"
        ) from None
    # A file may define helper rules of its own; an unknown rule in onespec's namespace,
    # though, is a typo that would leave the default in force unnoticed.
    unknown = sorted(
        name
        for name in enforcer.file_rules
        if name.startswith("onespec:") and name not in RULE_NAMES
    )
    if unknown:
        hints = []
        for name in unknown:
            close = closest(name, sorted(RULE_NAMES))
            hints.append(f"{name!r} (did you mean {close!r}?)" if close else repr(name))
        raise PolicyFileError(
            f"The policy file {str(policy_file)!r} sets rules that do not exist: "
            f"{', '.join(hints)}. `onespec policy sample` lists the rules."
        )
    return enforcer


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


def _check_yaml(path: Path, shown: str) -> None:
    """Read the file as YAML first, so that a syntax error names its line in one sentence
    (oslo.policy would pass on PyYAML's multi-line dump)."""
    from onespec.validators_runtime import inputs
    from onespec.validators_runtime.cli_grammar import yaml_message

    try:
        text = inputs.read_text(path, limit=MAX_POLICY_FILE_SIZE)
    except inputs.InputError as exc:
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
    if data is not None and not isinstance(data, dict):
        raise PolicyFileSyntaxError(
            f"{shown}:1: not a policy file: a policy file is a mapping of rule names to rules"
        )


def authorize(enforcer: Enforcer, rule: str, context: Any) -> bool:
    """Whether the request's ``context`` (an oslo.context RequestContext) passes ``rule``.

    The target is the caller's own project: plugin labels are per project, and flavors are
    shared by all.
    """
    return bool(enforcer.enforce(rule, {"project_id": context.project_id}, context))


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
