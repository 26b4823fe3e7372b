"""Building validators from an image spec: the grammar of sections and kinds, every error with
file, YAML path and line.

The grammar (which kinds exist, which keys each takes) comes from the tables generated from
``src/onespec/definitions/image_validators.py``. The text is read by
:mod:`onespec.validators_runtime.images.reading` and each value checked through
:class:`~onespec.validators_runtime.images.checks.SpecChecks`; this module knows what a spec is
made of -- its arguments, its validators, each built-in kind -- and builds it from the classes
it is handed (:class:`~onespec.validators_runtime.images.model.Vocabulary`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Generic, cast

from onespec.validators_runtime import inputs
from onespec.validators_runtime._generated import image_validators as grammar
from onespec.validators_runtime.images.checks import SpecChecks, _kind_of
from onespec.validators_runtime.images.errors import ImageValidationSpecificationError
from onespec.validators_runtime.images.model import (
    ImageArgument,
    ImageValidator,
    SpecT,
    SpecValidator,
    Vocabulary,
)
from onespec.validators_runtime.images.packages import Package
from onespec.validators_runtime.images.reading import read_spec_text, read_yaml
from onespec.validators_runtime.problems import closest, key_path_text, shown
from onespec.validators_runtime.yaml_lines import LineIndex, YamlPath

#: The keys each kind takes: (value's form, required, pattern) by key. The generated table's
#: literals are too mixed for the checker to infer more than ``object`` for a kind's keys.
_KIND_KEYS = cast("Mapping[str, Mapping[str, tuple[str, bool, str | None]]]", grammar.KIND_KEYS)
_KNOWN_OS_NAMES = frozenset(
    [*grammar.DISTRIBUTIONS, *grammar.DISTRIBUTIONS.values(), *grammar.FAMILIES.values()]
)


class SpecLoader(SpecChecks, Generic[SpecT]):
    """Builds validators from parsed YAML, collecting warnings and raising on errors."""

    def __init__(
        self,
        file: str | None,
        *,
        vocabulary: Vocabulary[SpecT],
        validator_map: Mapping[str, type[ImageValidator]] | None = None,
        resource_roots: Sequence[str | Path] = (),
        lines: LineIndex | None = None,
    ) -> None:
        super().__init__(file, resource_roots=resource_roots, lines=lines)
        self.vocabulary = vocabulary
        self.kinds = vocabulary.kinds
        self.custom = dict(validator_map or {})
        self.arguments: dict[str, ImageArgument] = {}
        self.declared_arguments = False
        self._env_uses: list[tuple[YamlPath, str]] = []
        self._outputs: set[str] = set()

    # The spec ----------------------------------------------------------------------------------

    def spec(self, data: Any) -> SpecT:
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
        root = self._build("all", validators)
        root.path, root.line = "validators", self._line(("validators",))
        self._check_env_uses()
        if self.vocabulary.spec is None:
            raise self.error((), "a whole spec cannot be built here")
        # Each spec class takes the spec's own arguments: not the base class's (none).
        build_spec: Callable[..., SpecT] = self.vocabulary.spec
        return build_spec(root, self.arguments, file=self.file or "", warnings=self.warnings)

    def _build(self, kind: str, *arguments: Any, **options: Any) -> SpecValidator:
        """A validator of a built-in ``kind``, from its class's constructor arguments: each
        kind takes its own, which a mapping of validator classes cannot say."""
        build: Callable[..., SpecValidator] = self.kinds[kind]
        return build(*arguments, **options)

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
                # A custom validator is any ImageValidator: given its place if it can hold one.
                validator.path = key_path_text(where)  # type: ignore[attr-defined]
                validator.line = self._line(where)  # type: ignore[attr-defined]
            except AttributeError:  # pragma: no cover - a validator with slots
                pass
        return validator

    def _custom(self, cls: type[ImageValidator], value: Any, path: YamlPath) -> ImageValidator:
        """A kind from ``validator_map``: built by its own ``from_spec``."""
        roots = [str(root) for root in self.roots]
        try:
            # A validator_map class is built by its own from_spec, which the SPI leaves out (a
            # validator need not be loadable from a spec); one without it is refused below.
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
            self._known_keys(fields, _KIND_KEYS["package"], where, f"package {name}")
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
        return self._build("package", packages)

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
        self._known_keys(fields, _KIND_KEYS[kind], where, f"{kind} {name}")
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
        return self._build("script", body, env_vars, output, name=name, source=source)

    def _copy_script(self, value: Any, path: YamlPath) -> SpecValidator:
        name, fields, where = self._script_options(value, path, "copy_script")
        base = name.rstrip("/").rsplit("/", 1)[-1]
        if base in {"", ".", ".."}:
            raise self.error(where, f"copy_script {shown(name)} does not end in a file name")
        if "inline" in fields:
            body = self._text(fields["inline"], (*where, "inline"), "inline").encode("utf-8")
        else:
            _, body = self.resource(name, where, "copy_script")
        return self._build("copy_script", body, base)

    def _all(self, value: Any, path: YamlPath) -> SpecValidator:
        return self._build("all", self.validator_list(value, path))

    def _any(self, value: Any, path: YamlPath) -> SpecValidator:
        validators = self.validator_list(value, path)
        if not validators:
            raise self.error(path, "any needs at least one alternative: an empty any always fails")
        return self._build("any", validators)

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
        return self._build("os_case", cases)

    def _argument(self, value: Any, path: YamlPath) -> str:
        name = self._text(value, path, "argument_name")
        if name not in self.arguments:
            declared = ", ".join(self.arguments) or "none"
            raise self.error(path, f"argument {shown(name)} is not declared (declared: {declared})")
        return name

    def _argument_case(self, value: Any, path: YamlPath) -> SpecValidator:
        fields = self._mapping(value, path, "argument_case")
        self._known_keys(fields, _KIND_KEYS["argument_case"], path, "argument_case")
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
        return self._build("argument_case", name, cases)

    def _argument_set(self, value: Any, path: YamlPath) -> SpecValidator:
        fields = self._mapping(value, path, "argument_set")
        self._known_keys(fields, _KIND_KEYS["argument_set"], path, "argument_set")
        name = self._argument(fields["argument_name"], (*path, "argument_name"))
        text = self._scalar(fields["value"], (*path, "value"), "value")
        choices = self.arguments[name].choices
        if choices and text not in choices:
            raise self.error(
                (*path, "value"),
                f"{shown(text)} is not a choice of argument {name} ({', '.join(choices)})",
            )
        return self._build("argument_set", name, text)

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


def default_roots(yaml_path: Path, resource_roots: Sequence[str | Path] | None) -> list[Path]:
    """The resource roots: as given, or the spec's own directory."""
    if resource_roots is None:
        return [yaml_path.parent]
    return [Path(root) for root in resource_roots]


def load(
    yaml_path: str | Path,
    *,
    vocabulary: Vocabulary[SpecT],
    validator_map: Mapping[str, type[ImageValidator]] | None = None,
    resource_roots: Sequence[str | Path] | None = None,
) -> SpecT:
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
    vocabulary: Vocabulary[SpecT],
    validator_map: Mapping[str, type[ImageValidator]] | None = None,
    resource_roots: Sequence[str | Path] = (),
) -> SpecT:
    """Load a spec from its text, built from ``vocabulary``."""
    data, lines = read_yaml(text, file)
    loader = SpecLoader(
        file,
        vocabulary=vocabulary,
        validator_map=validator_map,
        resource_roots=resource_roots,
        lines=lines,
    )
    loader.warnings.extend(loader.duplicate_keys())
    return loader.spec(data)


def build_one(
    kind: str,
    value: Any,
    *,
    vocabulary: Vocabulary[SpecT],
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
