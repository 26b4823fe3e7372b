"""Pack images with the Sahara plugins' own code, on stock Sahara or on onespec's module.

Runs in the Sahara environment: ``argv[1]`` is ``stock`` (``sahara.plugins.images`` as Sahara
ships it) or ``onespec`` (the module swapped for ``onespec.validators_runtime.images.sahara``
before the plugins are imported; no file of Sahara or of the plugins changes), ``argv[2]`` a
folder for the throwaway roots, ``argv[3]`` the distribution the remote reports.

For each plugin version with a spec, the plugin's ``pack_image(version, remote, test_only=...,
image_arguments=<the defaults>)`` runs twice, each time in a fresh throwaway root: this machine,
each command chrooted into an overlay of ``/`` in a private mount namespace, its changes kept in
a folder of their own. The package tools (apt-get, dpkg, dpkg-query, rpm, yum, dnf), the
network (wget, curl, apt-key) and the service tools (update-rc.d, systemctl, service,
chkconfig) are played by one small script placed first on ``PATH``: installing records the
package, querying answers from that record, a download writes a file naming its URL, a service
change is written down. Everything else -- the shipped scripts, sed, ln, mkdir -- is real.

Prints one JSON object: per plugin version and mode (reconcile, check), the scripts that ran
(by their path in the plugin, with the ``test_only`` they were given) and every file the run
left in the root (its content's hash; a removed file as ``removed``), the staged script files
of either runner aside.
"""

import hashlib
import json
import re
import shlex
import sys
import traceback
import warnings
from pathlib import Path

warnings.simplefilter("ignore")
MODE = sys.argv[1]
if MODE == "onespec":
    sys.path.insert(
        0, str(Path(__file__).resolve().parents[2] / "src")
    )  # onespec, from this checkout
    import sahara.plugins

    from onespec.validators_runtime.images import sahara as compat

    sys.modules["sahara.plugins.images"] = compat
    sahara.plugins.images = compat

import overlay_root  # noqa: E402  (this folder: the script's own)
from sahara import exceptions as sahara_exceptions  # noqa: E402
from sahara.plugins import exceptions as sahara_plugin_exceptions  # noqa: E402

#: The tools the played script stands in for, each a copy of it first on PATH.
PLAYED = (
    "apt-get", "apt-key", "apt-cache", "dpkg", "dpkg-query", "rpm", "yum", "dnf", "wget", "curl",
    "update-rc.d", "systemctl", "service", "chkconfig",
)  # fmt: skip
STUB_DIR = "usr/local/sbin"
PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

#: One script for every played tool; it acts on its own name. State in /var/lib/played.
PLAYER = r"""#!/bin/bash
tool="$(basename "$0")"
state=/var/lib/played
mkdir -p "$state"
touch "$state/packages"
has() { grep -qx -- "$1" "$state/packages"; }
add() {  # a package is recorded, and leaves its directory as the hadoop packages do
  has "$1" || echo "$1" >> "$state/packages"; sort -o "$state/packages" "$state/packages"
  mkdir -p "/usr/lib/$1"
}
download() {  # URL TARGET ("-" is stdout); a tarball holds one folder, as a release does
  local name; name="$(basename "$1")"
  case "$name" in
    *.tgz|*.tar.gz)
      local top="${name%.tgz}"; top="${top%.tar.gz}"; local work; work="$(mktemp -d)"
      mkdir "$work/$top" && echo "played release of $1" > "$work/$top/RELEASE"
      if [ "$2" = - ]; then tar -C "$work" -cz "$top"; else tar -C "$work" -czf "$2" "$top"; fi
      rm -rf "$work" ;;
    *) if [ "$2" = - ]; then echo "played download of $1"
       else echo "played download of $1" > "$2"; fi ;;
  esac
}
case "$tool" in
  apt-get|yum|dnf)
    seen=0
    for word in "$@"; do
      if [ "$seen" = 1 ] && [ "${word#-}" = "$word" ]; then add "${word%%=*}"; fi
      [ "$word" = install ] && seen=1
    done
    exit 0 ;;
  apt-cache) exit 0 ;;
  apt-key) cat > /dev/null; echo "$*" >> "$state/apt-key"; exit 0 ;;
  dpkg)
    [ "$1" = -s ] || { echo "dpkg $*" >> "$state/dpkg"; exit 0; }
    shift; missing=0
    for name in "$@"; do
      if has "$name"; then printf 'Package: %s\nStatus: install ok installed\n\n' "$name"
      else echo "dpkg-query: package '$name' is not installed" >&2; missing=1; fi
    done
    exit $missing ;;
  dpkg-query)
    names=(); after=0
    for word in "$@"; do [ "$after" = 1 ] && names+=("$word"); [ "$word" = -- ] && after=1; done
    if [ ${#names[@]} = 0 ]; then cat "$state/packages"; exit 0; fi
    missing=0
    for name in "${names[@]}"; do
      if has "$name"; then printf '%s\tinstall ok installed\t1.0-1\n' "$name"; else missing=1; fi
    done
    exit $missing ;;
  rpm)
    [ "$1" = -qa ] && { cat "$state/packages"; exit 0; }
    [ "$1" = -q ] || { echo "rpm $*" >> "$state/rpm"; exit 0; }
    shift; format=0; missing=0
    [ "$1" = --queryformat ] && { format=1; shift 2; }
    for name in "$@"; do
      if has "$name"; then
        if [ $format = 1 ]; then printf '%s\t(none)\t1.0\t1\n' "$name"; else echo "$name-1.0-1"; fi
      else echo "package $name is not installed"; missing=$((missing + 1)); fi
    done
    exit $missing ;;
  wget)
    target=""; url=""; previous=""
    for word in "$@"; do
      case "$previous" in -O|-qO|-nvO) target="$word" ;; esac
      case "$word" in -O?*) target="${word#-O}" ;; -qO?*) target="${word#-qO}" ;; -*) ;; *)
        case "$previous" in -O|-qO|-nvO) ;; *) url="$word" ;; esac ;; esac
      previous="$word"
    done
    download "$url" "${target:-$(basename "$url")}"; exit 0 ;;
  curl)
    target=-; url=""; previous=""; code=""
    for word in "$@"; do
      case "$previous" in -o) target="$word" ;; -w) code=200 ;; esac
      case "$word" in -*) ;; *) case "$previous" in -o|-w) ;; *) url="$word" ;; esac ;; esac
      previous="$word"
    done
    if [ "$target" = /dev/null ]; then printf '%s' "$code"; else download "$url" "$target"; fi
    exit 0 ;;
  *) echo "$tool $*" >> "$state/services"; exit 0 ;;
esac
"""


class ThrowawayRoot:
    """A Sahara remote (``(code, stdout)``, ``write_file_to``, ``get_os_distrib``) on this
    machine, each command chrooted into an overlay of ``/`` whose changes land in ``folder``."""

    def __init__(self, folder, distro):
        self.folder = overlay_root.prepare(folder)
        self.distro = distro
        stubs = self.folder / "upper" / STUB_DIR
        stubs.mkdir(parents=True, exist_ok=True)
        for tool in PLAYED:
            (stubs / tool).write_text(PLAYER)
            (stubs / tool).chmod(0o755)
        # What every cloud image has and this machine may lack: the boot script Spark edits.
        (self.folder / "upper" / "etc").mkdir(exist_ok=True)
        (self.folder / "upper" / "etc" / "rc.local").write_text("#!/bin/sh\nexit 0\n")
        self.written = {}
        self.runs = []

    def _run(self, cmd, stdin=None, timeout=None):
        environment = {"PATH": PATH, "HOME": "/root", "LANG": "C"}
        return overlay_root.run(
            self.folder, cmd, stdin=stdin, timeout=timeout or 300, environment=environment
        )

    def execute_command(
        self, cmd, run_as_root=False, get_stderr=False, raise_when_error=True, timeout=None
    ):
        self._note_script(cmd)
        code, out, err = self._run(cmd, timeout=timeout)
        if code and raise_when_error:
            raise sahara_exceptions.RemoteCommandException(cmd, code, out, err)
        return (code, out, err) if get_stderr else (code, out)

    def write_file_to(self, path, data, run_as_root=False):
        payload = data.encode() if isinstance(data, str) else data
        self.written[path] = payload
        self._run(f"cat > {shlex.quote(path)}", stdin=payload)

    def get_os_distrib(self):
        return self.distro

    def _note_script(self, cmd):
        """Record a command that runs a written file: Sahara's ``PATH``, onespec's ``env ...
        bash PATH``; with the ``test_only`` it was given (Sahara's ``export`` line, onespec's
        environment)."""
        words = shlex.split(cmd)
        if len(words) == 1 and words[0] in self.written:
            body = self.written[words[0]].decode()
            exports = dict(re.findall(r"^export (\w+)=(.*)$", body, flags=re.M))
            text = re.sub(r"\A(export \w+=.*\n)*", "", body)
            self.runs.append((text, exports.get("test_only")))
        elif words[:1] == ["env"] and words[-2] == "bash" and words[-1] in self.written:
            given = dict(w.split("=", 1) for w in words[1:-2] if "=" in w)
            self.runs.append((self.written[words[-1]].decode(), given.get("test_only")))

    def left(self):
        """Every file the run left, by path: its hash, a link's target, or ``removed``."""
        upper = self.folder / "upper"
        found = {}
        for path in sorted(upper.rglob("*")):
            name = str(path.relative_to(upper))
            if name.startswith(STUB_DIR + "/") or re.fullmatch(r"tmp/[0-9a-f-]{36}\.sh", name):
                continue  # the played tools; Sahara's staged scripts (onespec removes its own)
            if path.is_symlink():
                found[name] = "-> " + str(path.readlink())
            elif path.is_char_device() and path.stat().st_rdev == 0:
                found[name] = "removed"
            elif path.is_file():
                found[name] = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
        return found


def plugins():
    from sahara_plugin_cdh.plugins.cdh.plugin import CDHPluginProvider
    from sahara_plugin_mapr.plugins.mapr.plugin import MapRPlugin
    from sahara_plugin_spark.plugins.spark.plugin import SparkProvider

    return {"cdh": CDHPluginProvider(), "mapr": MapRPlugin(), "spark": SparkProvider()}


def resources(plugin):
    """Every file under the plugin's image resources, by the hash of its text."""
    base = Path(sys.modules[type(plugin).__module__].__file__).parents[1]
    named = {}
    for path in sorted(base.rglob("resources/images/**/*")):
        if path.is_file():
            text = path.read_bytes().decode(errors="replace")
            named.setdefault(_key(text), str(path.relative_to(base)))
    return named


def _key(text):
    return hashlib.sha256(text.strip().encode()).hexdigest()


def pack(plugin, version, folder, distro, test_only):
    root = ThrowawayRoot(folder, distro)
    arguments = plugin.get_image_arguments(version)
    values = {a.name: a.default for a in arguments if a.default is not None}
    error = None
    sahara_class = False
    try:
        plugin.pack_image(version, root, test_only=test_only, image_arguments=values)
    except Exception as exc:  # reported, not hidden
        error = f"{type(exc).__name__}: {exc}"[:300]
        error += " @ " + traceback.extract_tb(exc.__traceback__)[-1].filename
        sahara_class = isinstance(exc, sahara_plugin_exceptions.ImageValidationError)
    named = resources(plugin)
    return {
        "error": error,
        "error_is_saharas_class": sahara_class,
        "scripts": [
            [named.get(_key(text), "<not a shipped file>"), given] for text, given in root.runs
        ],
        "left": root.left(),
    }


def main():
    folder, distro = Path(sys.argv[2]), sys.argv[3]
    found = {}
    for name, plugin in plugins().items():
        for version in plugin.get_versions():
            arguments = plugin.get_image_arguments(version)
            if arguments is NotImplemented or not arguments:
                continue
            key = f"{name} {version}"
            where = folder / MODE / distro / key.replace(" ", "_")
            found[key] = {
                "reconcile": pack(plugin, version, where / "reconcile", distro, False),
                "check": pack(plugin, version, where / "check", distro, True),
            }
    found["spec error"] = spec_error(folder)
    json.dump(found, sys.stdout, indent=1, sort_keys=True)


def spec_error(folder):
    """Which classes a wrong spec's error is, loaded through the module under test."""
    from sahara.plugins import images

    wrong = folder / "wrong.yaml"
    wrong.write_text("validators:\n  - package: 'no such; package'\n")
    try:
        images.SaharaImageValidator.from_yaml(str(wrong), resource_roots=[str(folder)])
    except Exception as exc:
        return {
            "class": type(exc).__name__,
            "saharas": isinstance(exc, sahara_plugin_exceptions.ImageValidationSpecificationError),
            "text": str(exc)[:300],
        }
    return None


if __name__ == "__main__":
    main()
