"""Screenshots of the built documentation in headless Chromium, for a person to look at.

``make docs-check`` builds the HTML and runs this: each page of :data:`PAGES` at a desktop
and a narrow (phone) width, into ``doc/build/screenshots/``. What a theme does with long code
lines, wide tables, diagrams and the navigation on a phone only shows in a real browser.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

DOC = Path(__file__).resolve().parents[1]

#: Screenshot name -> page, relative to the HTML directory.
PAGES = {
    "front": "index.html",
    "overview": "overview.html",
    "architecture": "contributor/architecture.html",
    "hw": "reference/extra-specs/hw.html",
    "trait": "reference/extra-specs/trait.html",
    "by-purpose": "reference/extra-specs-by-purpose.html",
    "image-properties": "reference/image-properties.html",
    "flavor-rules": "reference/flavor-rules.html",
    "cli": "cli.html",
    "guide-sphinx": "guides/sphinx.html",
}

#: Width name -> (width, height) in CSS pixels.
WIDTHS = {"desktop": (1366, 1800), "narrow": (390, 1600)}

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)


def browser() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    raise SystemExit("docs-check needs Chromium: apt-get install -y chromium")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--html", type=Path, default=DOC / "build" / "html")
    parser.add_argument("--out", type=Path, default=DOC / "build" / "screenshots")
    args = parser.parse_args()
    chromium = browser()
    args.out.mkdir(parents=True, exist_ok=True)
    failed = []
    for name, page in PAGES.items():
        path = args.html / page
        if not path.is_file():
            failed.append(f"{page}: not built")
            continue
        for width_name, (width, height) in WIDTHS.items():
            target = args.out / f"{name}-{width_name}.png"
            target.unlink(missing_ok=True)
            with tempfile.TemporaryDirectory(prefix="onespec-chromium-") as profile:
                subprocess.run(  # noqa: S603 -- a browser found on PATH, our own arguments
                    [
                        chromium,
                        *FLAGS,
                        f"--user-data-dir={profile}",
                        f"--window-size={width},{height}",
                        f"--screenshot={target}",
                        path.as_uri(),
                    ],
                    capture_output=True,
                    timeout=120,
                    check=False,
                )
            if not target.is_file() or target.stat().st_size == 0:
                failed.append(f"{target.name}: Chromium wrote no screenshot")
            else:
                print(target)
    for problem in failed:
        print(f"error: {problem}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
