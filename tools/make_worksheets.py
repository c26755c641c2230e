"""Turn the teachers' worksheets (Markdown) into printable HTML, and PDF when Chromium is installed.

::

    python tools/make_worksheets.py --out build/worksheets docs/teachers/*-worksheet.md
    make worksheets                       # the same

Each ``NAME.md`` becomes ``NAME.html``: the Markdown is converted by nbconvert's
own converter (the one that renders notebook Markdown cells) and wrapped in a
small print stylesheet (A4, answer boxes).  Then, when a Chromium is found
(``$CHROMIUM``, ``chromium``, ``chromium-browser`` or ``google-chrome``; ``make
browser`` installs Debian's), it prints each page to ``NAME.pdf``, offline.
Without Chromium only the HTML is written, and the script says so: open it in
a browser and print it.  nbconvert's own PDF exporters need LaTeX (``--to
pdf``) or a Chromium downloaded by Playwright (``--to webpdf``), neither of
which a fresh checkout has.

In a worksheet, ``<div class="answer"></div>`` leaves a box to write in
(``<div class="answer tall"></div>`` a bigger one).
"""

from __future__ import annotations

import argparse
import html
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from nbconvert.filters.markdown import markdown2html

from ttr_lab.io.safeio import atomic_write

STYLE = """
@page { size: A4; margin: 16mm 16mm 18mm 16mm; }
body { font-family: "DejaVu Sans", "Helvetica Neue", Arial, sans-serif; font-size: 11pt;
       line-height: 1.4; color: #111; max-width: 46em; margin: 1em auto; }
h1 { font-size: 17pt; margin: 0 0 0.3em; }
h2 { font-size: 13pt; margin: 1.1em 0 0.3em; border-bottom: 1px solid #999; }
h3 { font-size: 11.5pt; margin: 0.9em 0 0.2em; }
a.anchor-link { display: none; }
code { font-family: "DejaVu Sans Mono", Menlo, monospace; font-size: 0.92em; }
pre { background: #f4f4f4; padding: 0.4em 0.6em; }
table { border-collapse: collapse; margin: 0.4em 0; }
th, td { border: 1px solid #888; padding: 3px 8px; text-align: left; height: 1.5em; }
td:empty { min-width: 7em; }
.answer { border: 1px solid #888; border-radius: 3px; min-height: 4.2em; margin: 0.3em 0 0.8em; }
.answer.tall { min-height: 9em; }
.footer { margin-top: 2em; font-size: 8.5pt; color: #555; }
h2, h3 { break-after: avoid; }
.answer, table, pre { break-inside: avoid; }
"""

PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title><style>{style}</style></head>
<body>
{body}
<p class="footer">ttr_lab: an unofficial teaching aid for <i>Ticket to Ride</i>, not affiliated with its publishers.</p>
</body></html>
"""

BROWSERS = ("chromium", "chromium-browser", "google-chrome")


def to_html(markdown: str, title: str) -> str:
    """A printable HTML page of a worksheet."""
    return PAGE.format(title=html.escape(title), style=STYLE, body=markdown2html(markdown))


def find_chromium() -> str | None:
    """A Chromium to print with, or None."""
    named = os.environ.get("CHROMIUM")
    if named:
        return named if Path(named).exists() else None
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    return None


def print_pdf(chromium: str, page: Path, pdf: Path) -> None:
    """Print an HTML file to PDF with headless Chromium (no network needed)."""
    with tempfile.TemporaryDirectory(prefix="worksheet-chromium-") as profile:
        args = [
            chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            f"--user-data-dir={profile}",
            "--no-pdf-header-footer",
            f"--print-to-pdf={pdf}",
            page.resolve().as_uri(),
        ]
        done = subprocess.run(args, capture_output=True, text=True, timeout=120)
    if done.returncode != 0 or not pdf.is_file():
        raise RuntimeError(f"{chromium} could not print {page}: {done.stderr.strip()[-500:]}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("worksheets", nargs="+", type=Path, help="Markdown files")
    parser.add_argument("--out", type=Path, default=Path("build/worksheets"), help="output folder")
    parser.add_argument("--html-only", action="store_true", help="do not make PDFs")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    chromium = None if args.html_only else find_chromium()
    for source in args.worksheets:
        text = source.read_text(encoding="utf-8")
        title = next((line.lstrip("# ").strip() for line in text.splitlines() if line.startswith("#")), source.stem)
        page = args.out / f"{source.stem}.html"
        atomic_write(page, to_html(text, title))  # an existing page is replaced only by a whole one
        made = [page]
        if chromium:
            pdf = page.with_suffix(".pdf")
            print_pdf(chromium, page, pdf)
            made.append(pdf)
        print("wrote", ", ".join(str(p) for p in made))
    if chromium is None and not args.html_only:
        print("no Chromium found (make browser installs it): HTML only; open the pages in a browser to print them")
    return 0


if __name__ == "__main__":
    sys.exit(main())
