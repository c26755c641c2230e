"""Serve the JupyterLite site (``make lite-serve``) with the standard library alone.

    python3 tools/serve_lite.py [--host 127.0.0.1] [--port 8000] [--dir build/lite]

Any static web server can serve ``build/lite``; this one is for a laptop or a USB
stick: one command, no install.  It binds to 127.0.0.1 unless told otherwise
(``--host 0.0.0.0`` lets a classroom's machines in), serves only the site's
folder, and sends the types browsers insist on (``application/wasm`` for
Pyodide's WebAssembly, ``text/javascript`` for ``.mjs`` modules).
"""

from __future__ import annotations

import argparse
import functools
import sys
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".whl": "application/zip",
    ".ipynb": "application/json",
    ".svg": "image/svg+xml",
}


class LiteHandler(SimpleHTTPRequestHandler):
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **TYPES}

    def log_message(self, format: str, *args: object) -> None:  # quiet unless asked
        if self.server.verbose:  # type: ignore[attr-defined]
            super().log_message(format, *args)


def make_server(folder: Path, host: str, port: int, verbose: bool = False) -> ThreadingHTTPServer:
    """A server for ``folder`` on ``host:port`` (port 0: any free port); not yet serving."""
    handler = functools.partial(LiteHandler, directory=str(folder))
    server = ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    server.verbose = verbose  # type: ignore[attr-defined]
    return server


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1", help="127.0.0.1 (this machine only) or 0.0.0.0 (the network)")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--dir", type=Path, default=ROOT / "build" / "lite", help="the site's folder")
    parser.add_argument("--verbose", action="store_true", help="log every request")
    args = parser.parse_args(argv)
    folder = args.dir.resolve()
    if not (folder / "jupyter-lite.json").is_file():
        sys.exit(f"no JupyterLite site in {folder}: build it first with make lite")
    if not 0 <= args.port <= 65535:
        sys.exit(f"--port {args.port}: a port is 0 to 65535")
    try:
        server = make_server(folder, args.host, args.port, args.verbose)
    except OSError as e:
        sys.exit(f"cannot serve on {args.host}:{args.port}: {e.strerror or e}")
    host, port = server.server_address[:2]
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    print(f"The kit in the browser: http://{shown}:{port}/  (serving {folder}; Ctrl+C stops)", flush=True)
    if host in ("0.0.0.0", "::"):
        print("Other machines on this network: http://<this machine's address>:%d/" % port, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
