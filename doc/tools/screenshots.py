"""Screenshots of the built documentation in headless Chromium, for a person to look at, and
a check of what runs past its box.

``make docs-check`` builds the HTML and runs this: each page of :data:`PAGES` at a desktop
and a narrow (phone) width, into ``doc/build/screenshots/``. What a theme does with long code
lines, wide tables, diagrams and the navigation on a phone only shows in a real browser.

Then each page is measured at each width (:func:`overflowing`): any element that runs past the
right edge of the page's text column without a scrolling box around it, a page wider than the
window, and a console session or plain output whose lines must be scrolled sideways to be read
(the stylesheet wraps them) fail the check, each named with its page, width and first words.
Code and configuration may scroll inside their box.
"""

from __future__ import annotations

import argparse
import html
import json
import re
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
    "guide-flavors": "guides/flavors.html",
    "guide-cloud": "guides/cloud.html",
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


#: Measures the page once it has loaded and writes what overflows into the page itself, where
#: Chromium's ``--dump-dom`` returns it.
_MEASURE = """<script>
window.addEventListener('load', () => {
  const found = [];
  const column = document.querySelector('article') || document.body;
  const edge = column.getBoundingClientRect().right;
  const scrolled = (el) => {
    for (let up = el.parentElement; up && up !== column; up = up.parentElement) {
      if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(up).overflowX)) return true;
    }
    return false;
  };
  const words = (el) => (el.textContent || '').trim().slice(0, 60);
  if (document.documentElement.scrollWidth > window.innerWidth) {
    found.push(`the page is ${document.documentElement.scrollWidth} px wide`);
  }
  column.querySelectorAll('*').forEach((el) => {
    const box = el.getBoundingClientRect();
    // The permalink sign of a heading or an entry's signature sits in the margin by design.
    const permalinked = /^H[1-6]$/.test(el.tagName) || el.classList.contains('sig');
    if (box.width && box.right > edge + 1 && !permalinked && !scrolled(el)) {
      const past = Math.round(box.right - edge);
      found.push(`${el.tagName} runs ${past} px past the column: ${words(el)}`);
    }
  });
  const output = ['console', 'text', 'none'].map((kind) => `div.highlight-${kind} pre`);
  column.querySelectorAll(output.join(', ')).forEach((el) => {
    if (el.scrollWidth > el.clientWidth + 1) {
      found.push(`output scrolls ${el.scrollWidth - el.clientWidth} px sideways: ${words(el)}`);
    }
  });
  const report = document.createElement('pre');
  report.id = 'onespec-overflow';
  report.textContent = JSON.stringify(found);
  document.body.appendChild(report);
});
</script>"""

_REPORT = re.compile(r'<pre id="onespec-overflow">(.*?)</pre>', re.DOTALL)


def overflowing(chromium: str, page: Path, width: int, height: int) -> list[str]:
    """What runs past its box on ``page`` in a window ``width`` pixels wide (see the module's
    docstring). The page is copied beside itself with the measuring script added, so that its
    stylesheets load as they do for a reader, and the copy is removed."""
    measured = page.with_name(f"{page.stem}.measured.html")
    text = page.read_text(encoding="utf-8")
    measured.write_text(text.replace("</body>", _MEASURE + "</body>"), encoding="utf-8")
    try:
        with tempfile.TemporaryDirectory(prefix="onespec-chromium-") as profile:
            done = subprocess.run(  # noqa: S603 -- a browser found on PATH, our own arguments
                [
                    chromium,
                    *FLAGS,
                    f"--user-data-dir={profile}",
                    f"--window-size={width},{height}",
                    "--virtual-time-budget=5000",
                    "--dump-dom",
                    measured.as_uri(),
                ],
                capture_output=True,
                text=True,
                timeout=120,
                check=False,
            )
    finally:
        measured.unlink(missing_ok=True)
    found = _REPORT.search(done.stdout)
    if found is None:
        return ["Chromium returned no measurement"]
    return list(json.loads(html.unescape(found.group(1))))


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
            for problem in overflowing(chromium, path, width, height):
                failed.append(f"{page} at {width} px: {problem}")
    for problem in failed:
        print(f"error: {problem}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
