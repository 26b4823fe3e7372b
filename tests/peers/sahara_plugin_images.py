"""Each Sahara plugin's own image-validation path, run on onespec's compatibility module.

Runs in the Sahara environment. ``sahara.plugins.images`` is pointed at
``onespec.validators_runtime.images.sahara`` (a ``sys.modules`` swap: no file of Sahara or of its
plugins changes) before the plugins are imported, so the specs they ship load through onespec.
For each plugin and version with a spec, the plugin's own methods are called:

* ``get_image_arguments(version)``;
* ``validate_images(cluster, test_only=False)`` against a remote that plays rpm (CentOS) and
  dpkg (Ubuntu): packages install, scripts succeed; every command is recorded;
* ``validate_images(cluster, test_only=True)``, which the shipped plugins break themselves
  (they iterate over the first instance instead of a list of instances);
* ``pack_image(version, remote, test_only=True, image_arguments=...)`` against this machine
  in a throwaway root: each command runs as root in a private mount namespace, chrooted into
  an overlay of ``/`` whose changes land in a temporary directory and are dropped.

Prints one JSON object; ``argv[1]`` names the folder for the throwaway root.
"""

import contextlib
import json
import shlex
import sys
import traceback
import warnings
from pathlib import Path

warnings.simplefilter("ignore")
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))  # onespec, from this checkout

import overlay_root  # noqa: E402  (this folder: the script's own)
import sahara.plugins  # noqa: E402

from onespec.validators_runtime.images import sahara as compat  # noqa: E402
from onespec.validators_runtime.images.remote import RemoteBase  # noqa: E402

sys.modules["sahara.plugins.images"] = compat
sahara.plugins.images = compat


class PlayingRemote:
    """A Sahara remote that plays a package manager: ``(code, stdout)``, ``write_file_to``."""

    def __init__(self, distro):
        self.distro = distro
        self.installed = set()
        self.commands = []
        self.files = []

    def execute_command(
        self, cmd, run_as_root=False, get_stderr=False, raise_when_error=True, timeout=None
    ):
        self.commands.append(cmd)
        code, out = self._answer(cmd)
        if code and raise_when_error:
            raise RuntimeError(f"{cmd} exited {code}")
        return (code, out, "") if get_stderr else (code, out)

    def _answer(self, cmd):
        words = shlex.split(cmd)
        if words[0] == "mktemp":
            return 0, "/tmp/onespec-siv.played\n"
        if words[0] == "dpkg-query" and "--" in words:
            names = words[words.index("--") + 1 :]
            found = [n for n in names if n in self.installed]
            return (0 if len(found) == len(names) else 1), "".join(
                f"{n}\tinstall ok installed\t1.0-1\n" for n in found
            )
        if words[0] == "rpm" and words[1] == "-q":
            names = words[4:]
            missing = [n for n in names if n not in self.installed]
            return len(missing), "".join(
                f"{n}\t(none)\t1.0\t1\n" for n in names if n in self.installed
            )
        if "apt-get -y install" in cmd or "dnf install -y" in cmd:
            part = (
                cmd.split("install -y ", 1)[1].split(";")[0]
                if "dnf" in cmd
                else cmd.split("install ", 1)[1]
            )
            self.installed.update(w.split("=")[0] for w in shlex.split(part))
            return 0, ""
        if words[0] == "sha256sum":
            return 1, ""
        return 0, ""  # scripts (env ... bash FILE), chmod, rm: they succeed here

    def write_file_to(self, path, data, run_as_root=False):
        self.files.append(path)

    def get_os_distrib(self):
        return self.distro


class ThrowawayRoot(RemoteBase):
    """This machine, each command chrooted into an overlay of / in a private mount namespace."""

    target = "throwaway-root"

    def __init__(self, folder):
        self.folder = overlay_root.prepare(folder)
        self.commands = []

    def _run(self, cmd, stdin=None, timeout=None):
        return overlay_root.run(self.folder, cmd, stdin=stdin, timeout=timeout)

    def execute_command(self, cmd, run_as_root=False, raise_when_error=True, timeout=None):
        self.commands.append(cmd)
        code, out, err = self._run(cmd, timeout=timeout)
        if code and raise_when_error:
            from onespec.validators_runtime.images.errors import RemoteCommandError

            raise RemoteCommandError(cmd, code, out, err, target=self.target)
        return code, out, err

    def write_file(self, path, data, mode=0o644):
        payload = data.encode() if isinstance(data, str) else data
        self._run(f"cat > {shlex.quote(path)} && chmod {mode:o} {shlex.quote(path)}", stdin=payload)

    def changed(self):
        """Every path the commands created or changed, files and directories alike."""
        upper = self.folder / "upper"
        return sorted(str(p.relative_to(upper)) for p in upper.rglob("*"))


class Instance:
    def __init__(self, remote):
        self._remote = remote
        self.instance_name = "node-0"

    @contextlib.contextmanager
    def remote(self):
        yield self._remote


class Cluster(dict):
    """A cluster as plugins read it: as attributes and as a mapping (``cluster['...']``)."""

    def __init__(self, version, remotes):
        super().__init__(hadoop_version=version)
        self.hadoop_version = version
        self.node_groups = [type("NodeGroup", (), {"instances": [Instance(r) for r in remotes]})()]


def plugins():
    from sahara_plugin_ambari.plugins.ambari.plugin import AmbariPluginProvider
    from sahara_plugin_cdh.plugins.cdh.plugin import CDHPluginProvider
    from sahara_plugin_mapr.plugins.mapr.plugin import MapRPlugin
    from sahara_plugin_spark.plugins.spark.plugin import SparkProvider

    return {
        "ambari": AmbariPluginProvider(),
        "cdh": CDHPluginProvider(),
        "mapr": MapRPlugin(),
        "spark": SparkProvider(),
    }


def attempt(call, *args, **kwargs):
    try:
        result = call(*args, **kwargs)
    except Exception as error:  # reported, not hidden
        frames = traceback.extract_tb(error.__traceback__)
        return {
            "error": f"{type(error).__name__}: {error}"[:400],
            "raised_in": frames[-1].filename if frames else "",
        }
    return {"error": None, "result": repr(result)[:200]}


def main():
    folder = Path(sys.argv[1])
    found = {}
    for name, plugin in plugins().items():
        for version in plugin.get_versions():
            arguments = compat.get_image_arguments(plugin, version)
            if arguments is None:
                continue
            key = f"{name} {version}"
            entry = found[key] = {"arguments": {a.name: a.default for a in arguments}}
            for distro in ("centos", "ubuntu"):
                played = PlayingRemote(distro)
                outcome = attempt(
                    compat.call_validate_images,
                    plugin,
                    Cluster(version, [played, played]),
                    test_only=False,
                )
                outcome["installed"] = sorted(played.installed)
                outcome["commands"] = len(played.commands)
                outcome["scripts"] = sum(c.startswith("env ") for c in played.commands)
                outcome["quoted"] = all(shlex.split(c) is not None for c in played.commands)
                entry[f"reconcile on played {distro}"] = outcome
            played = PlayingRemote("centos")
            outcome = attempt(plugin.validate_images, Cluster(version, [played]), test_only=True)
            outcome["commands"] = len(played.commands)
            entry["validate_images test_only"] = outcome
            root = ThrowawayRoot(folder / key.replace(" ", "_"))
            values = {a.name: a.default for a in arguments if a.default is not None}
            remote = compat.SaharaFacingRemote(root, timeout=120)
            outcome = attempt(
                plugin.pack_image, version, remote, test_only=True, image_arguments=dict(values)
            )
            outcome["installing"] = [
                c for c in root.commands if "apt-get -y install" in c or "dnf install" in c
            ]
            outcome["commands"] = len(root.commands)
            outcome["changed_in_root"] = root.changed()
            # What the check created in the throwaway root that this machine itself lacks.
            outcome["not_on_this_machine"] = [
                path for path in outcome["changed_in_root"] if not (Path("/") / path).exists()
            ]
            entry["check on throwaway root"] = outcome
    json.dump(found, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
