"""``import ttr_lab``: two checkouts side by side in one run.  Figures, not tests.

    .venv/bin/python benchmarks/bench_import.py --before af8472e [--after .] [--runs 25]

``--before`` and ``--after`` are each a checkout's folder or a git revision of this
repository (exported with ``git archive`` into a temporary folder, removed afterwards).
Each run is a fresh ``python -X importtime -c "import ttr_lab"`` with the checkout first on
the path; the two alternate (before, after, after, before, ...), so both see the same
machine load.  Printed:

- the cumulative time of the ``ttr_lab`` line, and the CPU time of the import (the process's,
  which another process's load disturbs less), each side's median with its 95% interval
  (order statistics: no assumption about the distribution), and the paired difference (after
  minus before, each pair run back to back), median and interval;
- the modules loaded (``ttr_lab``'s and in all), and the ``ttr_lab`` modules only one side loads;
- the modules whose own (self) import time is largest after, with their time before.

The import is microseconds of work on a shared 2-core machine: compare within one run only.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINE = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)$")
CODE = (
    "import sys, time\n"
    "t0 = time.process_time()\n"
    "import ttr_lab\n"
    "cpu = time.process_time() - t0\n"
    "mods = sorted(sys.modules)\n"
    "print(ttr_lab.__file__)\n"
    "print(cpu)\n"
    "print(len(mods), ' '.join(m for m in mods if m == 'ttr_lab' or m.startswith('ttr_lab.')))\n"
)
MAX_RUNS = 1000


def checkout(given: str, tmp: Path) -> Path:
    """The folder of checkout ``given``: a folder as it is, else a revision exported to ``tmp``."""
    if Path(given).is_dir():
        return Path(given).resolve()
    rev = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--verify", f"{given}^{{commit}}"], capture_output=True, text=True
    )
    if rev.returncode != 0:
        raise SystemExit(f"{given!r} is neither a folder nor a revision of {ROOT}")
    out = tmp / rev.stdout.strip()[:12]
    out.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev.stdout.strip(), "ttr_lab"], capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(out)], input=archive.stdout, check=True)
    return out


def one_run(tree: Path) -> tuple[float, float, dict[str, int], int, list[str]]:
    """One fresh import: ttr_lab's cumulative seconds, its CPU seconds (the process's), each
    module's self microseconds, the number of modules loaded and the ttr_lab modules among them."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env.update(PYTHONNOUSERSITE="1", PYTHONPATH=str(tree))
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", CODE], cwd=tree, env=env, capture_output=True, text=True, timeout=120
    )
    if done.returncode != 0:
        raise SystemExit(f"import ttr_lab failed in {tree}:\n{done.stderr[-2000:]}")
    where, cpu, counts = done.stdout.splitlines()[-3:]
    if Path(where).resolve().parent != tree / "ttr_lab":
        raise SystemExit(f"imported {where}, not the checkout {tree}")
    total, _, names = counts.partition(" ")
    selfs: dict[str, int] = {}
    cumulative = None
    for line in done.stderr.splitlines():
        m = LINE.match(line)
        if m:
            selfs[m.group(4)] = int(m.group(1))
            if m.group(4) == "ttr_lab":
                cumulative = int(m.group(2)) / 1e6
    if cumulative is None:
        raise SystemExit("ttr_lab not found in -X importtime's output")
    return cumulative, float(cpu), selfs, int(total), names.split()


def median_interval(xs: list[float], level: float = 0.95) -> tuple[float, float, float]:
    """The median and a distribution-free interval for it (order statistics, binomial ranks)."""
    xs, n = sorted(xs), len(xs)
    k = 0  # the largest k with P(Binomial(n, 1/2) <= k - 1) <= (1 - level) / 2
    for j in range(n // 2 + 1):
        if sum(math.comb(n, i) for i in range(j)) / 2**n <= (1 - level) / 2:
            k = j
    lo, hi = (xs[k - 1], xs[n - k]) if k >= 1 else (xs[0], xs[-1])
    return statistics.median(xs), lo, hi


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", required=True, help="a checkout's folder or a git revision")
    parser.add_argument("--after", default=str(ROOT), help="a checkout's folder or a git revision (default: this one)")
    parser.add_argument(
        "--runs",
        type=int,
        default=25,
        help=f"imports of each (6 to {MAX_RUNS}: fewer have no 95% interval for the median)",
    )
    parser.add_argument("--top", type=int, default=12, help="modules listed by self time (0 to 100)")
    args = parser.parse_args()
    if not 6 <= args.runs <= MAX_RUNS or not 0 <= args.top <= 100:
        raise SystemExit(f"--runs is 6 to {MAX_RUNS} and --top 0 to 100")
    tmp = Path(tempfile.mkdtemp(prefix="bench_import_"))
    try:
        trees = {"before": checkout(args.before, tmp), "after": checkout(args.after, tmp)}
        times: dict[str, list[float]] = {"before": [], "after": []}
        cpus: dict[str, list[float]] = {"before": [], "after": []}
        selfs: dict[str, dict[str, list[int]]] = {"before": defaultdict(list), "after": defaultdict(list)}
        loaded: dict[str, tuple[int, list[str]]] = {}
        for _ in range(2):  # warm the file cache and the byte-code caches
            for side in trees:
                one_run(trees[side])
        for i in range(args.runs):
            for side in ("before", "after") if i % 2 == 0 else ("after", "before"):
                t, cpu, own, total, names = one_run(trees[side])
                times[side].append(t)
                cpus[side].append(cpu)
                for name, us in own.items():
                    selfs[side][name].append(us)
                loaded[side] = (total, names)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    load = os.getloadavg()[0]
    print(f"import ttr_lab, {args.runs} runs each, alternating (load {load:.1f}); medians [95% intervals]")
    for side in ("before", "after"):
        total, names = loaded[side]
        print(f"  {side:6} {trees[side]}: {len(names)} ttr_lab modules, {total} in all")
    for what, figures in (("-X importtime cumulative", times), ("CPU time of the import", cpus)):
        print(f"  {what}:")
        for side in ("before", "after"):
            m, lo, hi = median_interval(figures[side])
            print(f"    {side:6} {m * 1e3:6.1f} ms [{lo * 1e3:.1f}, {hi * 1e3:.1f}]")
        m, lo, hi = median_interval([a - b for a, b in zip(figures["after"], figures["before"])])
        print(f"    after - before, paired: {m * 1e3:+.1f} ms [{lo * 1e3:+.1f}, {hi * 1e3:+.1f}]")
    before, after = set(loaded["before"][1]), set(loaded["after"][1])
    print(f"  ttr_lab modules only after: {' '.join(sorted(after - before)) or '-'}")
    print(f"  ttr_lab modules only before: {' '.join(sorted(before - after)) or '-'}")
    if args.top:
        print("  largest self times after (median us), and before:")
        med = {side: {k: statistics.median(v) for k, v in selfs[side].items()} for side in selfs}
        for name, us in sorted(med["after"].items(), key=lambda kv: -kv[1])[: args.top]:
            was = med["before"].get(name)
            print(f"    {name:45} {us:8.0f}  {'-' if was is None else f'{was:.0f}':>8}")


if __name__ == "__main__":
    main()
