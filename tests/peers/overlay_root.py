"""A throwaway root: this machine, each command chrooted into an overlay of ``/``.

Each command runs as root in a private mount namespace, in an overlay whose changes land in
``FOLDER/upper`` and never reach the machine. The peer scripts that let real plugins change an
image (``sahara_plugin_images.py``, ``sahara_reconcile.py``) run their commands through it;
standard library only, as they run in the peers' environments.
"""

import shlex
import subprocess
from pathlib import Path


def prepare(folder):
    """Make the overlay's folders under ``folder``; return it as a Path."""
    folder = Path(folder)
    for name in ("upper", "work", "merged"):
        (folder / name).mkdir(parents=True, exist_ok=True)
    return folder


def run(folder, cmd, *, stdin=None, timeout=None, environment=None):
    """``cmd`` with bash inside the overlay of ``folder``: ``(code, stdout, stderr)``, text.

    ``environment``, when given, replaces the environment the command sees (``env -i``).
    """
    f = Path(folder)
    shell = f"bash -c {shlex.quote(cmd)}"
    if environment is not None:
        pairs = " ".join(f"{name}={shlex.quote(value)}" for name, value in environment.items())
        shell = f"env -i {pairs} {shell}"
    setup = (
        "mount --make-rprivate / && "
        f"mount -t overlay overlay -o lowerdir=/,upperdir={f}/upper,workdir={f}/work "
        f"{f}/merged && mount --bind /proc {f}/merged/proc && mount --bind /dev "
        f"{f}/merged/dev && exec chroot {f}/merged {shell}"
    )
    done = subprocess.run(
        ["unshare", "-m", "bash", "-c", setup],
        input=stdin,
        capture_output=True,
        timeout=timeout or 600,
        check=False,
    )
    out, err = (stream.decode(errors="replace") for stream in (done.stdout, done.stderr))
    return done.returncode, out, err
