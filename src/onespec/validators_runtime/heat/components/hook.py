"""The heat-config hook of group ``component``: run the config for the deployment's action.

heat-config runs the hook named by a derived config's ``group`` with the config as JSON on
standard input, and reads the result as JSON from standard output. For a software component the
config holds every ``configs`` entry; the hook picks the one whose ``actions`` list the
``deploy_action`` input and

* runs it itself when its tool is ``script``: the config is written to an executable file and
  run with each input as an environment variable (numbers and booleans as text, lists and maps as
  JSON) and ``heat_outputs_path`` set; each output is read from ``$heat_outputs_path.NAME``;
* otherwise hands it to the hook named by the tool, in the hooks directory, with the same JSON
  narrowed to that config (``config`` is the entry's text, ``group`` the tool) and to the tool's
  options.

The result holds each declared output that has a value, plus ``deploy_stdout``,
``deploy_stderr`` and ``deploy_status_code``. An output marked ``error_output`` that has a value
fails the run. Whatever goes wrong -- unreadable input, no such hook, a crash, a timeout -- the
answer is still that JSON, with a message in ``deploy_stderr`` and a non-zero status code, so
the deployment fails with a reason instead of hanging.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import signal
import subprocess
import tempfile
import time
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from onespec.validators_runtime._generated import components as facts
from onespec.validators_runtime.heat.components.model import (
    ComponentError,
)

LOG = logging.getLogger(__name__)

#: Where the ``script`` tool writes the programs it runs (``HEAT_COMPONENT_WORKING``).
WORKING_DIR = "/var/lib/heat-config/heat-config-component"
#: Where the programs write their outputs (``HEAT_COMPONENT_OUTPUTS``).
OUTPUTS_DIR = "/var/run/heat-config/heat-config-component"

#: Where heat-agents' ``script`` hook writes programs (``HEAT_SCRIPT_WORKING``); ``--as script``
#: uses it too, so onespec can replace that hook file for file.
SCRIPT_WORKING_DIR = "/var/lib/heat-config/heat-config-script"
#: Where heat-agents' ``script`` hook has programs write outputs (``HEAT_SCRIPT_OUTPUTS``).
SCRIPT_OUTPUTS_DIR = "/var/run/heat-config/heat-config-script"

#: The most bytes of one output file read into the result (heat-agents reads it whole: a 200 MB
#: output costs it 800 MB). A longer output is cut there, and the result says so.
MAX_OUTPUT_VALUE = 1024 * 1024
#: The most bytes of all output files together: past it, later outputs are not read (and the
#: result says which), so 200 outputs of 1 MiB cannot make a 200 MB answer.
MAX_OUTPUTS_TOTAL = 8 * 1024 * 1024
#: The most bytes of the config read from standard input: eight times Heat's
#: ``max_json_body_size``, the largest request that can have carried it to Heat.
MAX_REQUEST = 8 * 1024 * 1024

#: How long a timed-out process group has between SIGTERM and SIGKILL.
KILL_GRACE = 5.0
#: The most of each of standard output and error kept in the result (its end is kept).
MAX_OUTPUT = 1024 * 1024

#: ``deploy_status_code`` when the config could not run or wrote an error output.
FAILED: int = facts.HOOK_STATUS_CODES["failed"]
#: ``deploy_status_code`` when the hook was called with invalid options.
USAGE: int = facts.HOOK_STATUS_CODES["usage"]
#: ``deploy_status_code`` when the config ran out of time (as ``timeout(1)`` reports it).
TIMED_OUT: int = facts.HOOK_STATUS_CODES["timed-out"]

_ACTION = re.compile(facts.ACTION_PATTERN)
_TOOL = re.compile(facts.TOOL_PATTERN)
_CONFIG_ID = re.compile(facts.CONFIG_ID_PATTERN)
_PREFIX = "onespec component hook: "


class HookInputError(ComponentError):
    """The JSON given to the hook is not a derived config of a software component."""


@dataclass(frozen=True)
class HookSettings:
    """Where the hook finds other hooks and keeps its files, and how long a run may take."""

    hooks_dir: Path = Path(facts.HOOKS_DIR)
    working_dir: Path = Path(WORKING_DIR)
    outputs_dir: Path = Path(OUTPUTS_DIR)
    timeout: float | None = None
    kill_grace: float = KILL_GRACE
    #: ``script``: heat-agents' script-hook contract (notes go to the hook's own standard error,
    #: never into ``deploy_stderr``, which is the script's as written).
    mode: str = "component"


@dataclass(frozen=True)
class Entry:
    """One ``configs`` entry as the hook reads it."""

    index: int
    actions: tuple[str, ...]
    config: str
    tool: str


@dataclass(frozen=True)
class Request:
    """A derived config, read: what the hook needs from it, and the document itself."""

    document: Mapping[str, Any]
    config_id: str
    action: str
    entries: tuple[Entry, ...]
    inputs: tuple[tuple[str, Any], ...]
    outputs: tuple[tuple[str, bool], ...]
    options: Any = field(default_factory=dict)

    @property
    def tools(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(entry.tool for entry in self.entries))

    def select(self) -> Entry | None:
        """The entry for the action; None when no entry lists it."""
        matches = [entry for entry in self.entries if self.action in entry.actions]
        if len(matches) > 1:
            where = " and ".join(f"configs[{entry.index}]" for entry in matches)
            raise HookInputError(
                f"{where} all handle {self.action}; an action may appear in one config only, "
                "so the config to run is ambiguous."
            )
        return matches[0] if matches else None


# --- Reading the request -----------------------------------------------------------------------


def _list(document: Mapping[str, Any], key: str, where: str) -> list[Any]:
    value = document.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise HookInputError(f"{where} must be a list, not {type(value).__name__}.")
    return value


def _entry(index: int, raw: Any) -> Entry:
    where = f"config.configs[{index}]"
    if not isinstance(raw, Mapping):
        raise HookInputError(f"{where} must be a mapping, not {type(raw).__name__}.")
    actions = raw.get("actions")
    if actions is None:
        actions = list(facts.DEFAULT_ACTIONS)
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise HookInputError(f"{where}.actions must be a list of action names.")
    tool = raw.get("tool")
    if not isinstance(tool, str) or not _TOOL.fullmatch(tool) or tool == facts.GROUP:
        raise HookInputError(
            f"{where}.tool must name a tool (letters, digits, '_', '.' and '-', not "
            f"{facts.GROUP!r}), not {tool!r}."
        )
    config = raw.get("config")
    if config is None:
        config = ""
    if not isinstance(config, str):
        raise HookInputError(f"{where}.config must be a string, not {type(config).__name__}.")
    return Entry(index, tuple(actions), config, tool)


def parse_request(document: Any) -> Request:
    """Read a derived config; raise :class:`HookInputError` naming what is wrong with it."""
    if not isinstance(document, Mapping):
        raise HookInputError(
            f"The input must be a JSON object (a derived config), not {type(document).__name__}."
        )
    group = document.get("group", facts.GROUP)
    if group != facts.GROUP:
        raise HookInputError(
            f"This hook runs configs of group {facts.GROUP!r}, not {group!r}; heat-config "
            "passes each config to the hook its group names."
        )
    config_id = document.get("id")
    if config_id is None:
        config_id = str(uuid.uuid4())
    if not isinstance(config_id, str) or not _CONFIG_ID.fullmatch(config_id):
        raise HookInputError(
            f"id {config_id!r} cannot name a file: up to 128 letters, digits, '_', '.' and '-', "
            "starting with a letter or digit."
        )
    config = document.get("config")
    if not isinstance(config, Mapping) or not isinstance(config.get("configs"), list):
        raise HookInputError(
            "config must be a mapping holding the list configs, as a deployment of a software "
            "component delivers it."
        )
    entries = tuple(_entry(index, raw) for index, raw in enumerate(config["configs"]))
    inputs: dict[str, Any] = {}
    for index, item in enumerate(_list(document, "inputs", "inputs")):
        name = item.get("name") if isinstance(item, Mapping) else None
        if not isinstance(name, str) or not name:
            raise HookInputError(f"inputs[{index}] must be a mapping with a name.")
        inputs[name] = item["value"] if "value" in item else item.get("default")
    action = inputs.get("deploy_action")
    if not isinstance(action, str) or not _ACTION.fullmatch(action):
        raise HookInputError(
            f"The input deploy_action must name an action (an upper-case name such as CREATE), "
            f"not {action!r}; a software deployment always passes it."
        )
    outputs: list[tuple[str, bool]] = []
    for index, item in enumerate(_list(document, "outputs", "outputs")):
        name = item.get("name") if isinstance(item, Mapping) else None
        if not isinstance(name, str) or not name:
            raise HookInputError(f"outputs[{index}] must be a mapping with a name.")
        outputs.append((name, item.get("error_output") in (True, "true", "True")))
    options = document.get("options")
    return Request(
        document,
        config_id,
        action,
        entries,
        tuple(inputs.items()),
        tuple(outputs),
        {} if options is None else options,
    )


def environment_text(value: Any) -> str:
    """An input's value as an environment variable holds it.

    Strings as they are; numbers in decimal; booleans as ``true``/``false``; lists and maps as
    JSON; no value as the empty string.
    """
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, bool | int | float | list | dict):
        return json.dumps(value)
    return str(value)


# --- Running programs ------------------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    """How a program ran: its exit status (None: it could not start), output and notes."""

    returncode: int | None
    stdout: str = ""
    stderr: str = ""
    timed_out: bool = False
    error: str | None = None

    @property
    def status_code(self) -> int:
        if self.error is not None:
            return FAILED
        if self.timed_out:
            return TIMED_OUT
        code = self.returncode or 0
        return facts.SIGNAL_STATUS_BASE - code if code < 0 else code  # killed by signal -code


def _tail(stream: IO[bytes]) -> str:
    size = stream.seek(0, os.SEEK_END)
    start = max(0, size - MAX_OUTPUT)
    stream.seek(start)
    text = stream.read().decode("utf-8", errors="replace")
    return f"[{start} bytes cut]\n{text}" if start else text


def _exited(pid: int) -> bool:
    """Whether the child has exited, without reaping it (its group id stays reserved)."""
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT | os.WNOHANG) is not None
    except ChildProcessError:
        return True


def _kill_group(process: subprocess.Popen[bytes], grace: float) -> None:
    """SIGTERM the process group, give it ``grace`` seconds, then SIGKILL what is left."""
    group = process.pid  # a session leader's group id is its pid
    for signal_number, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, None)):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(group, signal_number)
        deadline = time.monotonic() + (wait or 0)
        while wait and time.monotonic() < deadline and not _exited(process.pid):
            time.sleep(0.05)
    process.wait()


def run_program(
    argv: Sequence[str],
    *,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    stdin: bytes = b"",
    timeout: float | None = None,
    kill_grace: float = KILL_GRACE,
) -> Run:
    """Run ``argv`` in a process group of its own, its output going to files, not pipes.

    Files, because a program may leave a background process behind that keeps its output open:
    the run ends when the program does. On timeout the whole group is killed, children too.
    """
    with (
        tempfile.TemporaryFile() as stdin_file,
        tempfile.TemporaryFile() as stdout_file,
        tempfile.TemporaryFile() as stderr_file,
    ):
        stdin_file.write(stdin)
        stdin_file.seek(0)
        try:
            process = subprocess.Popen(  # noqa: S603 - argv is a list; no shell is involved
                list(argv),
                stdin=stdin_file,
                stdout=stdout_file,
                stderr=stderr_file,
                env=dict(env) if env is not None else None,
                cwd=cwd,
                start_new_session=True,
            )
        except OSError as exc:
            return Run(None, error=f"cannot run {argv[0]}: {exc.strerror or exc}")
        timed_out = False
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            LOG.warning(
                "%s ran longer than %s seconds; killing its process group", argv[0], timeout
            )
            _kill_group(process, kill_grace)
        return Run(process.returncode, _tail(stdout_file), _tail(stderr_file), timed_out)


# --- The result --------------------------------------------------------------------------------


def result(
    stdout: str = "",
    stderr: str = "",
    status_code: int = 0,
    outputs: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A hook result: the outputs, then deploy_stdout, deploy_stderr and deploy_status_code."""
    return {
        **(outputs or {}),
        "deploy_stdout": stdout,
        "deploy_stderr": stderr,
        "deploy_status_code": status_code,
    }


def failure(message: str, status_code: int = FAILED) -> dict[str, Any]:
    """The result of a run that could not happen, with the reason on standard error."""
    return result(stderr=f"{_PREFIX}{message}\n", status_code=status_code)


def _note(answer: dict[str, Any], message: str, settings: HookSettings | None = None) -> None:
    stderr = answer["deploy_stderr"]
    if stderr and not stderr.endswith("\n"):
        stderr += "\n"
    answer["deploy_stderr"] = f"{stderr}{_PREFIX}{message}\n"


def _prepare(directory: Path) -> None:
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)


def _write_executable(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` as a program only its owner may run, atomically."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            os.fchmod(stream.fileno(), 0o700)
            stream.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def run_script(request: Request, entry: Entry, settings: HookSettings) -> dict[str, Any]:
    """The built-in ``script`` tool."""
    environment = dict(os.environ)
    for name, value in request.inputs:
        text = environment_text(value)
        if "=" in name or "\0" in name or "\0" in text:
            raise HookInputError(
                f"The input {name!r} cannot be an environment variable: its name holds '=' or "
                "a NUL character, or its value holds a NUL character."
            )
        environment[name] = text
    program = settings.working_dir / request.config_id
    outputs_path = settings.outputs_dir / request.config_id
    environment[facts.OUTPUTS_PATH_VARIABLE] = str(outputs_path)
    names = [name for name, _ in request.outputs if "/" not in name and "\0" not in name]
    try:
        _prepare(settings.working_dir)
        _prepare(settings.outputs_dir)
        for name in names:  # a value left by an earlier run must not pass for this run's
            Path(f"{outputs_path}.{name}").unlink(missing_ok=True)
        _write_executable(program, entry.config)
    except OSError as exc:
        return failure(f"cannot write {program}: {exc.strerror or exc}.")
    LOG.info("running configs[%d] for %s: %s", entry.index, request.action, program)
    run = run_program(
        [str(program)],
        env=environment,
        cwd=settings.working_dir,
        timeout=settings.timeout,
        kill_grace=settings.kill_grace,
    )
    values: dict[str, str] = {}
    unreadable: list[str] = []
    budget = MAX_OUTPUTS_TOTAL
    for name in names:
        if budget <= 0:
            unreadable.append(
                f"the output {name!r} was not read: the outputs before it reached "
                f"{MAX_OUTPUTS_TOTAL} bytes together."
            )
            continue
        try:
            values[name], cut = read_output(Path(f"{outputs_path}.{name}"), budget)
        except FileNotFoundError:
            continue
        except OSError as exc:
            unreadable.append(f"the output {name!r} cannot be read: {exc.strerror or exc}.")
            continue
        budget -= len(values[name].encode("utf-8", errors="replace"))
        if cut:
            unreadable.append(
                f"the output {name!r} has more than {MAX_OUTPUT_VALUE} bytes; its value is the "
                "first of them."
            )
    answer = result(run.stdout, run.stderr, run.status_code, values)
    _explain(answer, run, f"configs[{entry.index}]", settings)
    for note in unreadable:
        _note(answer, note, settings)
    return answer


def read_output(path: Path, budget: int = MAX_OUTPUT_VALUE) -> tuple[str, bool]:
    """An output file's text, at most :data:`MAX_OUTPUT_VALUE` bytes of it (and at most
    ``budget``); and whether it was cut. Never follows the file past the cap, whatever its
    size."""
    cap = min(MAX_OUTPUT_VALUE, budget)
    with path.open("rb") as stream:
        data = stream.read(cap + 1)
    cut = len(data) > cap
    return data[:cap].decode("utf-8", errors="replace"), cut


def _explain(
    answer: dict[str, Any], run: Run, what: str, settings: HookSettings | None = None
) -> None:
    if run.error is not None:
        _note(answer, f"{what}: {run.error}", settings)
    elif run.timed_out:
        _note(answer, f"{what} did not finish in time; its process group was killed.")
    elif run.returncode and settings is not None and settings.mode == "script":
        # heat-agents' contract: deploy_stderr is the script's, as written; the status code
        # says it failed. The note goes to the hook's own standard error, which heat-config logs.
        LOG.warning("%s exited with status %s", what, run.status_code)
    elif run.returncode:
        _note(answer, f"{what} exited with status {run.status_code}.")


def _status(value: Any, fallback: int) -> int:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    try:
        return int(str(value).strip())
    except ValueError:
        return fallback


def dispatch(request: Request, entry: Entry, settings: HookSettings) -> dict[str, Any]:
    """Hand the entry to the heat-config hook named by its tool."""
    hook = settings.hooks_dir / entry.tool  # the tool is a plain file name: checked on reading
    if not hook.is_file():
        return failure(
            f"no hook for the tool {entry.tool!r}: {hook} does not exist. Install the "
            f"heat-config hook {entry.tool!r} in {settings.hooks_dir}, or use the script tool."
        )
    if not os.access(hook, os.X_OK):
        return failure(f"the hook {hook} for the tool {entry.tool!r} is not executable.")
    narrowed = dict(request.document)
    narrowed["id"] = request.config_id
    narrowed["group"] = entry.tool
    narrowed["config"] = entry.config
    narrowed["options"] = request.options  # whole, as Heat and heat-agents pass them
    LOG.info("handing configs[%d] for %s to %s", entry.index, request.action, hook)
    run = run_program(
        [str(hook)],
        stdin=json.dumps(narrowed).encode("utf-8"),
        timeout=settings.timeout,
        kill_grace=settings.kill_grace,
    )
    declared = {name for name, _ in request.outputs}
    try:
        answer = json.loads(run.stdout) if run.error is None and not run.timed_out else None
    except ValueError:
        answer = None
    if not isinstance(answer, dict):
        reply = result(run.stdout, run.stderr, run.status_code or FAILED)
        _explain(reply, run, f"the hook {entry.tool!r}")
        if run.error is None and not run.timed_out:
            _note(reply, f"the hook {entry.tool!r} did not answer with a JSON object.")
        return reply
    stdout, stderr = (
        value if isinstance(value, str) else json.dumps(value)
        for value in (answer.get("deploy_stdout", ""), answer.get("deploy_stderr", run.stderr))
    )
    reply = result(
        stdout,
        stderr,
        _status(answer.get("deploy_status_code", 0), FAILED),
        {key: value for key, value in answer.items() if key in declared},
    )
    if run.returncode and not reply["deploy_status_code"]:
        reply["deploy_status_code"] = run.status_code
        _note(reply, f"the hook {entry.tool!r} exited with status {run.status_code}.")
    return reply


def _check_error_outputs(request: Request, answer: dict[str, Any]) -> None:
    for name, error_output in request.outputs:
        if error_output and name in answer:
            if not answer["deploy_status_code"]:
                answer["deploy_status_code"] = FAILED
            _note(answer, f"the error output {name!r} has a value, so the run failed.")


def handle(document: Any, settings: HookSettings) -> dict[str, Any]:
    """The result for a parsed JSON document; raises :class:`HookInputError` on bad input."""
    request = parse_request(document)
    entry = request.select()
    if entry is None:
        named = {a for e in request.entries for a in e.actions}
        handled = [a for a in facts.STANDARD_ACTIONS if a in named]
        handled += sorted(named.difference(facts.STANDARD_ACTIONS))
        return result(
            f"No config of this component handles {request.action} (they handle "
            f"{', '.join(handled) or 'nothing'}); nothing to do.\n"
        )
    if entry.tool in facts.TOOLS and facts.TOOLS[entry.tool]["builtin"]:
        answer = run_script(request, entry, settings)
    else:
        answer = dispatch(request, entry, settings)
    _check_error_outputs(request, answer)
    return answer


def parse_script_request(document: Any) -> tuple[Request, Entry]:
    """Read a config as heat-agents' ``script`` hook does (``id``, ``config`` text, ``inputs``,
    ``outputs``); raise :class:`HookInputError` naming what is wrong with it."""
    if not isinstance(document, Mapping):
        raise HookInputError(
            f"The input must be a JSON object (a derived config), not {type(document).__name__}."
        )
    config_id = document.get("id")
    if not isinstance(config_id, str) or not _CONFIG_ID.fullmatch(config_id):
        raise HookInputError(
            f"id {config_id!r} cannot name a file: up to 128 letters, digits, '_', '.' and '-', "
            "starting with a letter or digit."
        )
    config = document.get("config")
    if config is None:
        config = ""
    if not isinstance(config, str):
        raise HookInputError(
            f"config must be the script's text, not {type(config).__name__}; a config of group "
            f"{facts.GROUP!r} goes to the component hook (onespec component hook)."
        )
    inputs: dict[str, Any] = {}
    for index, item in enumerate(_list(document, "inputs", "inputs")):
        name = item.get("name") if isinstance(item, Mapping) else None
        if not isinstance(name, str) or not name:
            raise HookInputError(f"inputs[{index}] must be a mapping with a name.")
        inputs[name] = item.get("value", "")
    outputs: list[tuple[str, bool]] = []
    for index, item in enumerate(_list(document, "outputs", "outputs")):
        name = item.get("name") if isinstance(item, Mapping) else None
        if not isinstance(name, str) or not name:
            raise HookInputError(f"outputs[{index}] must be a mapping with a name.")
        outputs.append((name, False))  # Heat itself acts on error_output
    action = inputs.get("deploy_action")
    entry = Entry(0, (), config, "script")
    request = Request(
        document,
        config_id,
        action if isinstance(action, str) else "",
        (entry,),
        tuple(inputs.items()),
        tuple(outputs),
        document.get("options") or {},
    )
    return request, entry


def run_script_hook(stdin: bytes | str, settings: HookSettings | None = None) -> dict[str, Any]:
    """heat-agents' ``script`` hook, without its crashes: the answer to ``stdin``; never raises.

    The same contract as ``hook-script.py``: the config's text is written to
    ``WORKING/ID`` and run there with each input as an environment variable and
    ``heat_outputs_path`` set to ``OUTPUTS/ID``; the answer holds each output found in
    ``OUTPUTS/ID.NAME``, and ``deploy_stdout``, ``deploy_stderr`` (the script's, as written) and
    ``deploy_status_code``.
    """
    settings = settings or HookSettings(mode="script")
    try:
        text = stdin.decode("utf-8") if isinstance(stdin, bytes) else stdin
        try:
            document = json.loads(text)
        except ValueError as exc:
            raise HookInputError(f"The input is not JSON: {exc}.") from None
        except RecursionError:
            raise HookInputError("The input is JSON nested too deeply to read.") from None
        request, entry = parse_script_request(document)
        return run_script(request, entry, settings)
    except UnicodeDecodeError:
        return failure("The input is not UTF-8 text.")
    except HookInputError as exc:
        return failure(str(exc))
    except Exception as exc:  # the deployment must get an answer, whatever happened
        LOG.exception("the script hook failed")
        return failure(f"internal error: {type(exc).__name__}: {exc}")


def run_hook(stdin: bytes | str, settings: HookSettings | None = None) -> dict[str, Any]:
    """The hook's answer to ``stdin``; never raises for bad input or a failing config."""
    settings = settings or HookSettings()
    try:
        text = stdin.decode("utf-8") if isinstance(stdin, bytes) else stdin
        try:
            document = json.loads(text)
        except ValueError as exc:
            raise HookInputError(f"The input is not JSON: {exc}.") from None
        except RecursionError:
            raise HookInputError("The input is JSON nested too deeply to read.") from None
        return handle(document, settings)
    except UnicodeDecodeError:
        return failure("The input is not UTF-8 text.")
    except HookInputError as exc:
        return failure(str(exc))
    except Exception as exc:  # the deployment must get an answer, whatever happened
        LOG.exception("the component hook failed")
        return failure(f"internal error: {type(exc).__name__}: {exc}")


def dumps(answer: Mapping[str, Any]) -> str:
    """The result as JSON text (ASCII, so any reader can take it)."""
    return json.dumps(answer, indent=2, default=str)
