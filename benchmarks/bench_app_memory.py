"""Classroom app (``make app``): memory per open page, and kernels left when pages go.

    python benchmarks/bench_app_memory.py              # 4 pages
    python benchmarks/bench_app_memory.py --pages 8 --reloads 10

Prints figures, asserts nothing.  Starts ``make app`` itself (this Python's
environment, a free port, a fresh key), then opens ``--pages`` pages one
after another in headless Chromium at 1366x768; each page waits until the
guided game's board is drawn.  After each page it reads, on the server, each
kernel's resident memory (RSS) and the memory that kernel alone holds (USS,
psutil's ``memory_full_info``), and Voila's own RSS; in the browser, the
page's JavaScript heap (Chrome DevTools ``Performance.getMetrics``).  Then
it reloads the last page ``--reloads`` times and counts the kernels (each
page's kernel stops when the page unloads: at most 2 should be alive), and
closes every page and counts them again.

Needs the ``[app]`` and ``[test]`` extras (voila, playwright, psutil) and
Debian's Chromium (``make browser``; ``$CHROMIUM`` elsewhere).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROME_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
READY = "choose which tickets to keep"  # the guided game's first decision
MB = 1024 * 1024


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_app(tmp: Path) -> tuple[subprocess.Popen[bytes], str]:
    """``make app`` on a free port; returns the process and the page's address with its token."""
    port = free_port()
    venv = Path(sys.prefix)
    args = ["make", "--no-print-directory", "-o", str(venv / ".app-installed"), "app"]
    args += [f"VENV={venv}", f"PY={sys.executable}", f"APP_PORT={port}", f"APP_FILES={tmp / 'files'}"]
    env = dict(os.environ, JUPYTER_RUNTIME_DIR=str(tmp / "runtime"), JUPYTER_CONFIG_DIR=str(tmp / "config"))
    log = tmp / "app.log"
    proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        said = re.search(r"The app: (http://127\.0\.0\.1:\d+/\?token=[0-9a-f]+)", log.read_text(errors="replace"))
        if said:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return proc, said.group(1)
            except OSError:
                pass
        if proc.poll() is not None:
            break
        time.sleep(0.3)
    stop(proc)
    sys.exit(f"make app did not start: {log.read_text(errors='replace')[-2000:]}")


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Stop Voila (make's child: it shuts its kernels down), then make."""
    import psutil

    children = psutil.Process(proc.pid).children()
    for child in children:
        child.terminate()
    psutil.wait_procs(children, timeout=20)
    proc.terminate()
    proc.wait(timeout=20)


def kernels(proc: subprocess.Popen[bytes]) -> list:  # type: ignore[type-arg]
    import psutil

    found = []
    for p in psutil.Process(proc.pid).children(recursive=True):
        try:
            if "ipykernel" in " ".join(p.cmdline()):
                found.append(p)
        except psutil.NoSuchProcess:
            pass
    return found


def voila(proc: subprocess.Popen[bytes]):  # type: ignore[no-untyped-def]
    import psutil

    return next(p for p in psutil.Process(proc.pid).children() if "voila" in " ".join(p.cmdline()))


def js_heap(page) -> float:  # type: ignore[no-untyped-def]
    """The page's used JavaScript heap, MB (Chrome DevTools)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Performance.enable")
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    cdp.detach()
    return float(metrics["JSHeapUsedSize"]) / MB


def wait_for_kernels(proc: subprocess.Popen[bytes], at_most: int, seconds: float) -> int:
    deadline = time.monotonic() + seconds
    while (n := len(kernels(proc))) > at_most and time.monotonic() < deadline:
        time.sleep(0.5)
    return n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", type=int, default=4, help="pages open at once (1..30)")
    ap.add_argument("--reloads", type=int, default=10, help="reloads of the last page (0..50)")
    a = ap.parse_args()
    if not 1 <= a.pages <= 30 or not 0 <= a.reloads <= 50:
        ap.error("--pages 1..30, --reloads 0..50")
    if not Path(CHROMIUM).exists() or shutil.which("make") is None:
        sys.exit(f"needs {CHROMIUM} (make browser) and make")
    from playwright.sync_api import expect, sync_playwright

    print(f"load average {os.getloadavg()[0]:.2f}; {a.pages} pages, {a.reloads} reloads")
    with tempfile.TemporaryDirectory(prefix="bench-app-") as tmp:
        proc, url = start_app(Path(tmp))
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROME_ARGS)
                ctx = browser.new_context(viewport={"width": 1366, "height": 768})
                pages = []
                for n in range(1, a.pages + 1):
                    page = ctx.new_page()
                    t0 = time.perf_counter()
                    page.goto(url, timeout=300_000)
                    expect(page.locator(".ttr-tutorial")).to_contain_text(READY, timeout=300_000)
                    page.locator(".ttr-play .js-plotly-plot .trace").first.wait_for(state="attached", timeout=300_000)
                    took = time.perf_counter() - t0
                    pages.append(page)
                    ks = kernels(proc)
                    rss = [k.memory_info().rss / MB for k in ks]
                    uss = [k.memory_full_info().uss / MB for k in ks]
                    server = voila(proc).memory_info().rss / MB
                    print(
                        f"{n} page(s): {len(ks)} kernels, RSS {statistics.mean(rss):6.1f} MB a kernel "
                        f"(USS {statistics.mean(uss):6.1f} MB), all kernels {sum(rss):7.1f} MB RSS / "
                        f"{sum(uss):7.1f} MB USS, Voila {server:6.1f} MB; this page's JS heap "
                        f"{js_heap(page):6.1f} MB, board drawn {took:5.1f} s after opening"
                    )
                last = pages[-1]
                for _ in range(a.reloads):
                    last.reload(timeout=300_000)
                    expect(last.locator(".ttr-tutorial")).to_contain_text(READY, timeout=300_000)
                alive = wait_for_kernels(proc, a.pages + 1, 30)
                print(f"after {a.reloads} reloads of one page: {alive} kernels for {a.pages} open pages")
                for page in pages:
                    page.close(run_before_unload=True)
                gone = wait_for_kernels(proc, 0, 30)
                print(f"after closing every page: {gone} kernels")
                browser.close()
        finally:
            stop(proc)
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
