"""Reading an image spec: YAML to validators, every error with file, YAML path and line.

The grammar (which kinds exist, which keys each takes, what names and versions look like) comes
from the tables generated from ``definitions/image_validators.py``. YAML is read with PyYAML's
safe loader only, composing the node tree first so that every YAML path has a line number.
Everything that reaches a shell later is checked here, before anything runs: package names and
versions against the package managers' grammar, variable names against the shell's, script
paths against the resource roots.
"""

from __future__ import annotations

import logging
import os
import re
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from onespec.validators_runtime import inputs, yaml_limits
from onespec.validators_runtime._generated import image_validators as grammar
from onespec.validators_runtime.images.errors import ImageValidationSpecificationError
from onespec.validators_runtime.images.model import (
    ImageArgument,
    ImageValidator,
    SpecValidator,
    SpecWarning,
    Vocabulary,
)
from onespec.validators_runtime.images.packages import Package
from onespec.validators_runtime.problems import closest, shown

LOG = logging.getLogger(__name__)

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_PATTERNS = {name: re.compile(pattern) for name, pattern in grammar.PATTERNS.items()}
_KNOWN_OS_NAMES = frozenset(
    [*grammar.DISTRIBUTIONS, *grammar.DISTRIBUTIONS.values(), *grammar.FAMILIES.values()]
)

YamlPath = tuple[str | int, ...]


def format_path(path: YamlPath) -> str:
    """``("validators", 2, "script", "a/b")`` -> ``validators[2].script['a/b']``."""
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        elif _IDENTIFIER.fullmatch(part):
            text += f".{part}" if text else part
        else:
            text += f"[{shown(part)}]"
    return text


# --- YAML with line numbers ---------------------------------------------------------------------

#: The largest spec read, in characters. The specs plugins ship are a few kilobytes; one
#: mebibyte holds tens of thousands of packages and keeps a hostile file cheap to refuse.
MAX_SPEC_SIZE = 1 << 20
#: The largest script or copied file a spec may name, in bytes (the largest shipped: ~20 KB).
MAX_SCRIPT_SIZE = 16 << 20

#: The most nodes a spec may have once its aliases are expanded: what the loader (and every
#: report) walks. Real specs have hundreds; 40,000 packages are 40,000 nodes. A "billion
#: laughs" alias bomb passes it within a few levels and is refused without being expanded.
MAX_SPEC_NODES = 200_000

#: The deepest nesting of YAML collections. Real specs nest a dozen levels at most; the bound
#: keeps every walk of the spec (composing, loading, reporting) far from Python's recursion
#: limit, so deep nesting is an error naming its line, not a RecursionError.
MAX_SPEC_DEPTH = 64


class _Composer(yaml_limits.CountingComposer):
    """The project's counting composer (:mod:`onespec.validators_runtime.yaml_limits`) with the
    spec's
    limits and the spec's errors: depth, expanded size, aliases to themselves.

    Each node's expanded size (itself and everything under it, aliases counted in full) is
    computed once, from its children's, when it is complete; an alias reuses the size of the
    node it names. So an alias bomb is measured in linear time and refused as soon as a node
    passes :data:`MAX_SPEC_NODES`, and an alias to a node still being composed (a node that
    contains itself) is refused at once.
    """

    max_nodes = MAX_SPEC_NODES
    max_depth = MAX_SPEC_DEPTH

    def __init__(self, file: str) -> None:
        super().__init__()
        self._file = file

    def _refuse(self, code: str, reason: str, mark: Any) -> ImageValidationSpecificationError:
        return ImageValidationSpecificationError(reason, file=self._file, line=mark.line + 1)

    def _loop_reason(self, anchor: str) -> str:
        return (
            f"the alias *{anchor} refers to itself: the node anchored as &{anchor} contains it, "
            "which would make the spec infinite"
        )

    def _depth_reason(self) -> str:
        return (
            f"collections are nested more than {MAX_SPEC_DEPTH} deep here; a spec never needs "
            "that many levels"
        )

    def _size_reason(self) -> str:
        return (
            f"aliases expand the spec to more than {MAX_SPEC_NODES:,} nodes by this line "
            "(an alias bomb); refusing to load it"
        )


try:  # libyaml's event parser, when PyYAML was built with it
    from yaml._yaml import CParser as _CParser
except ImportError:  # pragma: no cover - a PyYAML without libyaml
    _CParser = None
_Parser: type = _CParser if _CParser is not None else yaml.parser.Parser
_Reader: tuple[type, ...] = (
    () if _CParser is not None else (yaml.reader.Reader, yaml.scanner.Scanner)
)


class _SpecLoader(
    *_Reader, _Parser, _Composer, yaml.constructor.SafeConstructor, yaml.resolver.Resolver
):  # type: ignore[misc]
    """The safe loader, composing through :class:`_Composer`.

    Events come from libyaml when it is available (it parses without recursing), and nodes are
    composed here in Python, so the counting above sees every one.
    """

    def __init__(self, text: str, file: str) -> None:
        if _CParser is not None:
            _CParser.__init__(self, text)
        else:
            yaml.reader.Reader.__init__(self, text)
            yaml.scanner.Scanner.__init__(self)
            yaml.parser.Parser.__init__(self)
        _Composer.__init__(self, file)
        yaml.constructor.SafeConstructor.__init__(self)
        yaml.resolver.Resolver.__init__(self)

    def check_node(self) -> bool:
        return _Composer.check_node(self)

    def get_node(self) -> yaml.Node | None:
        return _Composer.get_node(self)

    def get_single_node(self) -> yaml.Node | None:
        return _Composer.get_single_node(self)


def _index(root: yaml.Node, file: str) -> tuple[dict[YamlPath, int], list]:
    """The line of each YAML path, and the keys given twice, in one walk of the node graph.

    A node reached again through an alias is not walked again: paths under it find the line
    of the alias, the nearest indexed ancestor. So the walk is linear in the composed nodes,
    however far aliases would expand them, and iterative, however deep they nest. A NUL
    character in any value is refused here, where its path is known.
    """
    lines: dict[YamlPath, int] = {}
    dupes: list = []
    seen_nodes: set[int] = set()
    pending: list[tuple[yaml.Node, YamlPath]] = [(root, ())]
    while pending:
        node, path = pending.pop()
        lines.setdefault(path, node.start_mark.line + 1)
        if id(node) in seen_nodes:
            continue
        seen_nodes.add(id(node))
        if isinstance(node, yaml.MappingNode):
            seen: set[Any] = set()
            for key_node, value_node in node.value:
                key = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
                if key is None:
                    continue
                if key in seen:
                    dupes.append(((*path, key), key_node.start_mark.line + 1))
                seen.add(key)
                lines[(*path, key)] = key_node.start_mark.line + 1
                pending.append((value_node, (*path, key)))
        elif isinstance(node, yaml.SequenceNode):
            pending.extend((item, (*path, i)) for i, item in enumerate(node.value))
        elif "\0" in node.value:
            raise ImageValidationSpecificationError(
                "this value contains a NUL character, which no command line or environment "
                "variable can carry",
                file=file,
                path=format_path(path) or None,
                line=node.start_mark.line + 1,
            )
    return lines, dupes


def read_yaml(text: str, file: str) -> tuple[Any, dict[YamlPath, int], list]:
    """Parse with the safe loader; return the data, the line of each path, duplicate keys.

    Refuses, naming the file and line: a text over :data:`MAX_SPEC_SIZE`, nesting deeper than
    :data:`MAX_SPEC_DEPTH`, aliases expanding past :data:`MAX_SPEC_NODES` or referring to
    themselves, and NUL characters.
    """
    if len(text) > MAX_SPEC_SIZE:
        raise ImageValidationSpecificationError(
            f"the spec is {len(text):,} characters; the size limit is {MAX_SPEC_SIZE:,}",
            file=file,
            line=text.count("\n", 0, MAX_SPEC_SIZE) + 1,
        )
    loader = _SpecLoader(text, file)
    node = None
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise ImageValidationSpecificationError(
            f"not valid YAML: {getattr(exc, 'problem', None) or exc}",
            file=file,
            line=mark.line + 1 if mark is not None else None,
        ) from None
    except ImageValidationSpecificationError:
        raise  # the composer's own limits, already located
    except ValueError as exc:  # an integer longer than Python converts (4,300 digits)
        raise ImageValidationSpecificationError(
            f"a number is too long to read ({str(exc).split(':')[0]}); quote it to keep it as text",
            file=file,
            line=_first_long_integer_line(node),
        ) from None
    finally:
        loader.dispose()
    lines: dict[YamlPath, int] = {}
    dupes: list = []
    if node is not None:
        lines, dupes = _index(node, file)
    # YAML reads `2.6` as a number: keys are looked up as the loader constructed them.
    return data, lines, dupes


def _first_long_integer_line(root: yaml.Node | None) -> int | None:
    """The 1-based line of the first integer scalar Python refuses to convert, if any."""
    limit = sys.get_int_max_str_digits() or None
    seen: set[int] = set()
    stack = [root] if root is not None else []
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.ScalarNode):
            if node.tag.endswith(":int") and limit and len(node.value) > limit:
                return node.start_mark.line + 1
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(reversed(node.value))
        elif isinstance(node, yaml.MappingNode):
            stack.extend(item for pair in reversed(node.value) for item in reversed(pair))
    return None


# --- The loader ---------------------------------------------------------------------------------


class SpecLoader:
    """Builds validators from parsed YAML, collecting warnings and raising on errors."""

    def __init__(
        self,
        file: str | None,
        *,
        vocabulary: Vocabulary,
        validator_map: Mapping[str, type[ImageValidator]] | None = None,
        resource_roots: Sequence[str | Path] = (),
        lines: Mapping[YamlPath, int] | None = None,
    ) -> None:
        self.file = file
        self.vocabulary = vocabulary
        self.kinds = vocabulary.kinds
        self.custom = dict(validator_map or {})
        self.roots = [Path(root) for root in resource_roots]
        self.lines = dict(lines or {})
        self.warnings: list[SpecWarning] = []
        self.arguments: dict[str, ImageArgument] = {}
        self.declared_arguments = False
        self._env_uses: list[tuple[YamlPath, str]] = []
        self._outputs: set[str] = set()

    # Reporting ---------------------------------------------------------------------------------

    def _line(self, path: YamlPath) -> int | None:
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return self.lines.get(())

    def error(self, path: YamlPath, reason: str) -> ImageValidationSpecificationError:
        """An error at ``path``, to raise."""
        return ImageValidationSpecificationError(
            reason, file=self.file, path=format_path(path) or None, line=self._line(path)
        )

    def warn(self, path: YamlPath, message: str) -> None:
        """Note an oddity at ``path``."""
        warning = SpecWarning(self.file or "", format_path(path), self._line(path), message)
        self.warnings.append(warning)
        LOG.warning("%s", warning)

    # Values ------------------------------------------------------------------------------------

    def _mapping(self, value: Any, path: YamlPath, what: str) -> dict[Any, Any]:
        if value is None:
            return {}
        if not isinstance(value, dict):
            raise self.error(path, f"{what} must be a mapping, not {_kind_of(value)}")
        return value

    def _single(self, value: Any, path: YamlPath, what: str) -> tuple[Any, Any]:
        if not isinstance(value, dict) or len(value) != 1:
            found = f"{len(value)} keys" if isinstance(value, dict) else _kind_of(value)
            raise self.error(path, f"{what} must be a mapping with exactly one key, not {found}")
        ((key, item),) = value.items()
        return key, item

    def _known_keys(
        self, mapping: Mapping[Any, Any], keys: Mapping[str, Any], path: YamlPath, what: str
    ) -> None:
        for key in mapping:
            if key not in keys:
                close = closest(key, keys)
                hint = f"; did you mean {shown(close)}?" if close else ""
                self.warn(
                    (*path, key),
                    f"{what} takes {', '.join(keys)}; {shown(key)} is not one of them and is "
                    f"ignored{hint}",
                )
        for key, (_, required, _) in keys.items():
            if required and key not in mapping:
                raise self.error(path, f"{what} needs {shown(key)}")

    def _text(self, value: Any, path: YamlPath, what: str) -> str:
        if not isinstance(value, str) or not value:
            raise self.error(path, f"{what} must be a non-empty string, not {_kind_of(value)}")
        return value

    def _scalar(self, value: Any, path: YamlPath, what: str) -> str:
        """A string; a number is read as its text, with a warning (YAML may have changed it)."""
        if isinstance(value, str):
            return value
        if isinstance(value, bool) or value is None:
            raise self.error(path, f"{what} must be a string, not {_kind_of(value)}; quote it")
        if isinstance(value, int | float):
            self.warn(
                path,
                f"{what} is the number {shown(value)}, read as the string {shown(str(value))}; "
                "quote it so that YAML keeps it as written",
            )
            return str(value)
        raise self.error(path, f"{what} must be a string, not {_kind_of(value)}")

    def _matches(self, value: str, pattern: str, path: YamlPath, what: str) -> str:
        if not _PATTERNS[pattern].fullmatch(value):
            raise self.error(path, f"{what} {shown(value)} is not {grammar.PATTERN_HINTS[pattern]}")
        return value

    def _env_name(self, value: Any, path: YamlPath, what: str, *, reserved: bool = True) -> str:
        name = self._matches(self._text(value, path, what), "env-name", path, what)
        if reserved and name in grammar.RESERVED_VARIABLES:
            raise self.error(
                path, f"{what} {shown(name)} is reserved: the validation sets it for every script"
            )
        return name

    # Resources ---------------------------------------------------------------------------------

    def resource(self, relative: Any, path: YamlPath, what: str) -> tuple[Path, bytes]:
        """Find ``relative`` in the resource roots and read it, refusing any way out of them."""
        name = self._text(relative, path, what)
        if "\0" in name:
            raise self.error(path, f"{what} {shown(name)} contains a NUL character")
        if os.path.isabs(name) or name.startswith("~"):
            raise self.error(
                path, f"{what} {shown(name)} is absolute; it must be relative to a resource root"
            )
        if not self.roots:
            raise self.error(
                path, f"{what} {shown(name)} cannot be found: there are no resource roots"
            )
        for root in self.roots:
            base = Path(os.path.realpath(root))
            candidate = Path(os.path.realpath(base / name))
            if candidate != base and base not in candidate.parents:
                raise self.error(
                    path,
                    f"{what} {shown(name)} leads out of the resource root {str(root)!r} (to "
                    f"{str(candidate)!r}, through '..' or a symbolic link); it must stay inside",
                )
            if candidate.is_file():
                try:
                    return candidate, inputs.read_bytes(candidate, limit=MAX_SCRIPT_SIZE)
                except inputs.InputError as exc:
                    raise self.error(path, f"{what} {shown(name)} {exc.reason}") from None
        roots = ", ".join(repr(str(root)) for root in self.roots)
        raise self.error(path, f"{what} {shown(name)} is not a file in any resource root ({roots})")

    # The spec ----------------------------------------------------------------------------------

    def spec(self, data: Any) -> SpecValidator:
        """A whole spec."""
        if not isinstance(data, dict):
            raise self.error(
                (), f"a spec must be a mapping with 'validators', not {_kind_of(data)}"
            )
        sections = grammar.SECTIONS
        self._known_keys(data, {k: (None, r, None) for k, r in sections.items()}, (), "a spec")
        self.declared_arguments = "arguments" in data
        self.arguments = self.argument_section(data.get("arguments"), ("arguments",))
        items = data["validators"]
        if not isinstance(items, list):
            raise self.error(("validators",), f"validators must be a list, not {_kind_of(items)}")
        validators = self.validator_list(items, ("validators",))
        root = self.kinds["all"](validators)  # type: ignore[call-arg]
        root.path, root.line = "validators", self._line(("validators",))
        self._check_env_uses()
        if self.vocabulary.spec is None:
            raise self.error((), "a whole spec cannot be built here")
        return self.vocabulary.spec(  # type: ignore[call-arg]
            root, self.arguments, file=self.file or "", warnings=self.warnings
        )

    def argument_section(self, value: Any, path: YamlPath) -> dict[str, ImageArgument]:
        """The ``arguments`` mapping."""
        arguments: dict[str, ImageArgument] = {}
        for name, raw in self._mapping(value, path, "arguments").items():
            where = (*path, name)
            name = self._env_name(name, where, "an argument name")
            fields = self._mapping(raw, where, f"argument {name}")
            self._known_keys(fields, grammar.ARGUMENT_KEYS, where, f"argument {name}")
            description = fields.get("description") or ""
            if not isinstance(description, str):
                raise self.error((*where, "description"), "description must be a string")
            required = fields.get("required", False)
            if not isinstance(required, bool):
                raise self.error(
                    (*where, "required"), f"required must be true or false, not {shown(required)}"
                )
            default = None
            if fields.get("default") is not None:
                default = self._scalar(fields["default"], (*where, "default"), "default")
            choices: list[str] = []
            raw_choices = fields.get("choices")
            if raw_choices is not None:
                if not isinstance(raw_choices, list) or not raw_choices:
                    raise self.error((*where, "choices"), "choices must be a non-empty list")
                choices = [
                    self._scalar(choice, (*where, "choices", i), "a choice")
                    for i, choice in enumerate(raw_choices)
                ]
            if default is not None and choices and default not in choices:
                raise self.error(
                    (*where, "default"),
                    f"default {shown(default)} is not one of the choices ({', '.join(choices)})",
                )
            if not required and default is None:
                raise self.error(where, f"argument {name} is not required, so it needs a default")
            if required and default is not None:
                self.warn((*where, "default"), "a required argument's default is never used")
            arguments[name] = self.vocabulary.argument(
                name, description, default, required, tuple(choices)
            )
        return arguments

    def validator_list(self, items: Any, path: YamlPath) -> list[ImageValidator]:
        """A list of validators."""
        if not isinstance(items, list):
            raise self.error(path, f"a list of validators is expected, not {_kind_of(items)}")
        return [self.validator(item, (*path, i)) for i, item in enumerate(items)]

    def validator(self, item: Any, path: YamlPath) -> ImageValidator:
        """One ``{kind: value}`` item."""
        kind, value = self._single(item, path, "a validator")
        where = (*path, kind)
        if kind in self.custom and not _builds_as_builtin(self.custom[kind], self.kinds.get(kind)):
            validator = self._custom(self.custom[kind], value, where)
        elif kind in self.kinds:
            validator = getattr(self, f"_{kind}")(value, where)
        else:
            known = sorted({*self.kinds, *self.custom})
            close = closest(kind, known)
            hint = f"; did you mean {shown(close)}?" if close else ""
            raise self.error(
                where, f"unknown validator kind {shown(kind)} (known: {', '.join(known)}){hint}"
            )
        if isinstance(validator, SpecValidator) or hasattr(validator, "__dict__"):
            try:
                validator.path = format_path(where)  # type: ignore[attr-defined]
                validator.line = self._line(where)  # type: ignore[attr-defined]
            except AttributeError:  # pragma: no cover - a validator with slots
                pass
        return validator

    def _custom(self, cls: type[ImageValidator], value: Any, path: YamlPath) -> ImageValidator:
        """A kind from ``validator_map``: built by its own ``from_spec``."""
        roots = [str(root) for root in self.roots]
        try:
            validator = cls.from_spec(value, self.custom, roots)  # type: ignore[attr-defined]
        except ImageValidationSpecificationError as exc:
            if exc.file is None:  # built without a file: this file's, at this path, says where
                inner = f"{exc.path}: " if exc.path else ""
                raise self.error(path, f"{inner}{exc.reason}") from None
            raise
        except (ValueError, TypeError, KeyError) as exc:
            raise self.error(path, f"{cls.__name__} refused its spec: {exc}") from None
        if not isinstance(validator, ImageValidator):
            raise self.error(path, f"{cls.__name__}.from_spec returned {_kind_of(validator)}")
        return validator

    # Built-in kinds ----------------------------------------------------------------------------

    def _package_entry(self, entry: Any, path: YamlPath) -> Package:
        if isinstance(entry, str):
            return Package(self._matches(entry, "package-name", path, "package name"))
        if isinstance(entry, dict):
            name, options = self._single(entry, path, "a pinned package")
            where = (*path, name)
            if not isinstance(name, str):
                raise self.error(where, f"a package name must be a string, not {_kind_of(name)}")
            self._matches(name, "package-name", where, "package name")
            fields = self._mapping(options, where, f"the options of package {name}")
            self._known_keys(fields, grammar.KIND_KEYS["package"], where, f"package {name}")
            version = fields.get("version")
            if version is None:
                return Package(name)
            if not isinstance(version, str):
                raise self.error(
                    (*where, "version"),
                    f"version {shown(version)} must be a string: YAML has read it as "
                    f"{_kind_of(version)}, which may not be what was written (1.10 becomes 1.1); "
                    "quote it",
                )
            self._matches(version, "package-version", (*where, "version"), "version")
            return Package(name, version)
        raise self.error(
            path, f"a package is a name or {{name: {{version: V}}}}, not {_kind_of(entry)}"
        )

    def _package(self, value: Any, path: YamlPath) -> SpecValidator:
        if isinstance(value, list):
            if not value:
                raise self.error(path, "a package list must not be empty")
            packages = [self._package_entry(entry, (*path, i)) for i, entry in enumerate(value)]
        else:
            packages = [self._package_entry(value, path)]
        counts = Counter(p.name for p in packages)
        for name in sorted(name for name, count in counts.items() if count > 1):
            self.warn(path, f"package {name} is listed more than once")
        return self.kinds["package"](packages)  # type: ignore[call-arg]

    def _script_options(
        self, value: Any, path: YamlPath, kind: str
    ) -> tuple[str, dict[str, Any], YamlPath]:
        if isinstance(value, str):
            return value, {}, path
        name, options = self._single(value, path, f"a {kind.replace('_', ' ')}")
        if not isinstance(name, str) or not name:
            raise self.error(path, f"a {kind} is named by a non-empty string, not {shown(name)}")
        where = (*path, name)
        fields = self._mapping(options, where, f"the options of {name}")
        self._known_keys(fields, grammar.KIND_KEYS[kind], where, f"{kind} {name}")
        return name, fields, where

    def _script(self, value: Any, path: YamlPath) -> SpecValidator:
        name, fields, where = self._script_options(value, path, "script")
        env_vars: list[str] = []
        raw_env = fields.get("env_vars")
        if raw_env is not None:
            if not isinstance(raw_env, list):
                raise self.error((*where, "env_vars"), "env_vars must be a list of variable names")
            for i, variable in enumerate(raw_env):
                env_path = (*where, "env_vars", i)
                env_vars.append(self._env_name(variable, env_path, "a variable name"))
                self._env_uses.append((env_path, env_vars[-1]))
        output = None
        if fields.get("output") is not None:
            output = self._env_name(fields["output"], (*where, "output"), "output")
            self._outputs.add(output)
        if "inline" in fields:
            body = self._text(fields["inline"], (*where, "inline"), "inline").encode("utf-8")
            source = None
        else:
            found, body = self.resource(name, where, "script")
            source = str(found)
        return self.kinds["script"](  # type: ignore[call-arg]
            body, env_vars, output, name=name, source=source
        )

    def _copy_script(self, value: Any, path: YamlPath) -> SpecValidator:
        name, fields, where = self._script_options(value, path, "copy_script")
        base = name.rstrip("/").rsplit("/", 1)[-1]
        if base in {"", ".", ".."}:
            raise self.error(where, f"copy_script {shown(name)} does not end in a file name")
        if "inline" in fields:
            body = self._text(fields["inline"], (*where, "inline"), "inline").encode("utf-8")
        else:
            _, body = self.resource(name, where, "copy_script")
        return self.kinds["copy_script"](body, base)  # type: ignore[call-arg]

    def _all(self, value: Any, path: YamlPath) -> SpecValidator:
        return self.kinds["all"](self.validator_list(value, path))  # type: ignore[call-arg]

    def _any(self, value: Any, path: YamlPath) -> SpecValidator:
        validators = self.validator_list(value, path)
        if not validators:
            raise self.error(path, "any needs at least one alternative: an empty any always fails")
        return self.kinds["any"](validators)  # type: ignore[call-arg]

    def _os_case(self, value: Any, path: YamlPath) -> SpecValidator:
        if not isinstance(value, list) or not value:
            raise self.error(
                path, "os_case must be a non-empty list of {distribution: [validators]}"
            )
        cases = []
        for i, item in enumerate(value):
            name, validators = self._single(item, (*path, i), "an os_case case")
            where = (*path, i, name)
            name = self._text(name, where, "a case name")
            base = name.rstrip("0123456789").lower()
            if base not in _KNOWN_OS_NAMES:
                self.warn(
                    where,
                    f"case {shown(name)} names no known distribution or family "
                    f"({', '.join(sorted(_KNOWN_OS_NAMES))}); it applies only where "
                    f"os-release says ID={name}",
                )
            cases.append((name, self.validator_list(validators, where)))
        return self.kinds["os_case"](cases)  # type: ignore[call-arg]

    def _argument(self, value: Any, path: YamlPath) -> str:
        name = self._text(value, path, "argument_name")
        if name not in self.arguments:
            declared = ", ".join(self.arguments) or "none"
            raise self.error(path, f"argument {shown(name)} is not declared (declared: {declared})")
        return name

    def _argument_case(self, value: Any, path: YamlPath) -> SpecValidator:
        fields = self._mapping(value, path, "argument_case")
        self._known_keys(fields, grammar.KIND_KEYS["argument_case"], path, "argument_case")
        name = self._argument(fields["argument_name"], (*path, "argument_name"))
        raw_cases = self._mapping(fields["cases"], (*path, "cases"), "cases")
        if not raw_cases:
            raise self.error((*path, "cases"), "cases must name at least one value")
        cases: dict[str, list[ImageValidator]] = {}
        choices = self.arguments[name].choices
        for key, validators in raw_cases.items():
            where = (*path, "cases", key)
            text = self._scalar(key, where, "a case value")
            if choices and text not in choices:
                self.warn(
                    where,
                    f"case {shown(text)} is not a choice of argument {name} ({', '.join(choices)}) "
                    "and can never run",
                )
            cases[text] = self.validator_list(validators, where)
        uncovered = [choice for choice in choices if choice not in cases]
        if uncovered:
            self.warn(
                (*path, "cases"),
                f"no case for {', '.join(uncovered)} (choices of {name}): with "
                f"{'that value' if len(uncovered) == 1 else 'those values'} it does nothing",
            )
        return self.kinds["argument_case"](name, cases)  # type: ignore[call-arg]

    def _argument_set(self, value: Any, path: YamlPath) -> SpecValidator:
        fields = self._mapping(value, path, "argument_set")
        self._known_keys(fields, grammar.KIND_KEYS["argument_set"], path, "argument_set")
        name = self._argument(fields["argument_name"], (*path, "argument_name"))
        text = self._scalar(fields["value"], (*path, "value"), "value")
        choices = self.arguments[name].choices
        if choices and text not in choices:
            raise self.error(
                (*path, "value"),
                f"{shown(text)} is not a choice of argument {name} ({', '.join(choices)})",
            )
        return self.kinds["argument_set"](name, text)  # type: ignore[call-arg]

    def _check_env_uses(self) -> None:
        known = {*self.arguments, *self._outputs}
        for path, name in self._env_uses:
            if name not in known:
                self.warn(
                    path,
                    f"{name} is neither a declared argument nor a script's output: the script "
                    "gets it only when the caller supplies a value",
                )


def _builds_as_builtin(cls: type[ImageValidator], builtin: type | None) -> bool:
    """Whether ``validator_map``'s class for ``kind`` is the built-in kind under another name.

    A class that subclasses the built-in class of its kind and says ``loaded_as_builtin``
    (as :mod:`onespec.validators_runtime.images.sahara`'s do) is loaded by this loader, so that it
    sees the spec's declared arguments and its errors keep file, line and path; its
    ``from_spec`` is for callers building one validator on their own.
    """
    return (
        builtin is not None
        and isinstance(cls, type)
        and issubclass(cls, builtin)
        and bool(getattr(cls, "loaded_as_builtin", False))
    )


def _kind_of(value: Any) -> str:
    names = {
        dict: "a mapping",
        list: "a list",
        str: "a string",
        bool: "a boolean",
        int: "an integer",
        float: "a number",
        type(None): "nothing (null)",
    }
    return names.get(type(value), type(value).__name__)


def default_roots(yaml_path: Path, resource_roots: Sequence[str | Path] | None) -> list[Path]:
    """The resource roots: as given, or the spec's own directory."""
    if resource_roots is None:
        return [yaml_path.parent]
    return [Path(root) for root in resource_roots]


def read_spec_text(file: str) -> str:
    """The text of a spec file, read through :mod:`onespec.validators_runtime.inputs`: a regular
    file of at most :data:`MAX_SPEC_SIZE` bytes, never read past that (a larger one is refused
    from its size, before it is read, as input that cannot be read: exit 2)."""
    return inputs.read_text(file, limit=MAX_SPEC_SIZE)


def load(
    yaml_path: str | Path,
    *,
    vocabulary: Vocabulary,
    validator_map: Mapping[str, type[ImageValidator]] | None = None,
    resource_roots: Sequence[str | Path] | None = None,
) -> SpecValidator:
    """Load a spec file, built from ``vocabulary``; see :meth:`ImageSpec.from_yaml
    <onespec.validators_runtime.images.root.ImageSpec.from_yaml>`."""
    path = Path(yaml_path)
    file = str(yaml_path)
    try:
        text = read_spec_text(file)
    except inputs.InputError as exc:
        raise ImageValidationSpecificationError(
            f"the spec {exc.reason}", file=file, line=exc.line
        ) from None
    return loads(
        text,
        file=file,
        vocabulary=vocabulary,
        validator_map=validator_map,
        resource_roots=default_roots(path, resource_roots),
    )


def loads(
    text: str,
    *,
    file: str = "<spec>",
    vocabulary: Vocabulary,
    validator_map: Mapping[str, type[ImageValidator]] | None = None,
    resource_roots: Sequence[str | Path] = (),
) -> SpecValidator:
    """Load a spec from its text, built from ``vocabulary``."""
    data, lines, dupes = read_yaml(text, file)
    loader = SpecLoader(
        file,
        vocabulary=vocabulary,
        validator_map=validator_map,
        resource_roots=resource_roots,
        lines=lines,
    )
    for dupe_path, line in dupes:
        loader.warnings.append(
            SpecWarning(
                file, format_path(dupe_path), line, "this key is given twice; the last wins"
            )
        )
    return loader.spec(data)


def build_one(
    kind: str,
    value: Any,
    *,
    vocabulary: Vocabulary,
    validator_map: Mapping[str, type[ImageValidator]] | None = None,
    resource_roots: Sequence[str | Path] | None = None,
) -> SpecValidator:
    """One validator of a built-in ``kind`` from its parsed YAML value (no arguments declared).

    ``kind`` ``spec`` is a whole spec (``ImageSpec.from_spec``). Errors
    name no file (there is none here) but the YAML path from ``kind``; when a custom kind's
    ``from_spec`` calls this while a file loads, the file's loader adds file, line and path.
    """
    loader = SpecLoader(
        None,
        vocabulary=vocabulary,
        validator_map=validator_map,
        resource_roots=resource_roots or (),
    )
    if vocabulary.spec is not None and kind == vocabulary.spec.kind:
        return loader.spec(value)
    if kind not in vocabulary.kinds:
        raise ImageValidationSpecificationError(f"{shown(kind)} is not a built-in validator kind")
    validator = getattr(loader, f"_{kind}")(value, (kind,))
    validator.path = kind
    return validator
