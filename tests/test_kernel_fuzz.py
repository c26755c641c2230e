"""The compiled kernel's safety (issue 23, point 5): malformed input, a sanitizer build, threads.

* **malformed input** is a :class:`~ttr_lab.errors.TtrError`, never a crash:
  hypothesis mutates valid edition tables and positions (values anywhere in
  int32, cut or lengthened arrays, deleted or swapped fields; two bases on
  tables of 25 card types and routes up to 9) and corrupts
  the fields of a game before :func:`~ttr_lab.bots.kernel.run.kernel_playout`
  converts it.  Each array the kernel accepts is played to the end.  The
  fuzzing runs in a child process (this file run as a script), so a crash
  fails the test instead of killing pytest;
* **a sanitizer build**: the C sources compiled with
  ``-fsanitize=address,undefined`` into a temporary folder, loaded in a child
  process in place of the built extension (``LD_PRELOAD`` of the compiler's
  libasan, as the interpreter itself is not instrumented), plays a referee
  sample (every edition the kernel plays, both policies; USA and Europe
  also on tables of 25 card types) and the fuzzing (Rails & Sails' bases
  too); any report aborts the child;
* **no global mutable state**: four threads at once (the kernel releases the
  interpreter lock while it plays) give the results of one thread.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import threading
from array import array
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
KERNEL_DIR = ROOT / "ttr_lab" / "bots" / "kernel"


def _kernel_sources() -> tuple[str, ...]:
    """setup.py's KERNEL_SOURCES, read without running setup.py (one list of the kernel's files)."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "KERNEL_SOURCES" for t in node.targets):
            return tuple(ast.literal_eval(node.value))
    raise AssertionError("setup.py has no KERNEL_SOURCES")


SOURCES = _kernel_sources()
NAME = "ttr_lab.bots.kernel._playout"


# ------------------------------------------------------------------ the driver (the child process)
def _bases():
    """Valid (tables, spec, position, seed text, seats) to mutate: starts over whole games."""
    import ttr_lab
    from ttr_lab.bots import make_bot
    from ttr_lab.bots.kernel.convert import edition_spec, position_array, seed_text
    from ttr_lab.bots.kernel.run import read_tables

    out = []
    for edition, n, plies, opts in (
        ("usa", 2, 0, {}),
        ("usa", 4, 40, {"max_consecutive_resets": 3}),
        ("1910", 3, 0, {"deal_row_after_tickets": True}),
        ("big_cities", 5, 90, {"allow_single_draw": True}),
        ("mega", 3, 250, {}),
        ("europe", 3, 0, {}),
        ("europe", 4, 120, {"max_consecutive_resets": 3}),
        ("europe", 5, -400, {}),  # a pending tunnel, with stations built (or 400 plies)
    ):
        g = ttr_lab.new_game(edition, players=n, seed=abs(plies) + n, **opts)
        bots = [make_bot("random", p) for p in range(n)]
        for _ in range(abs(plies)):
            if g.is_over or (plies < 0 and g.phase.name == "TUNNEL" and any(g._stations)):
                break
            g.push(bots[g.current_player].choose(g.view(g.current_player)))
        spec = edition_spec(g.edition)
        out.append((read_tables(spec), spec, position_array(g), seed_text(g), n, g))
    sys.path.insert(0, str(HERE))
    import test_kernel_referee as ref

    for _, spec, pos, text, n, g in out[1:2] + out[7:8]:  # USA 4p and Europe's tunnel on 25 card types
        ed = g.edition
        wide = array("i", ref._widen_spec(spec))
        wpos = array("i", ref._recard(pos, len(ed.card_types), ed.row_size, len(ed.map.routes), True))
        out.append((read_tables(wide), wide, wpos, text, n, g))
    for edition, n, plies, opts in (  # Rails & Sails: the setup, the split, harbors and exchanges made
        ("rails_and_sails", 2, 0, {}),
        ("rails_and_sails", 4, 260, {"tour_order": "walk", "harbor_wilds": False}),
        ("great_lakes", 3, 3, {"deal_row_after_tickets": True}),
        ("great_lakes", 5, 200, {"tiebreak": "completed_tickets"}),
    ):
        g = ttr_lab.new_game(edition, players=n, seed=plies + n, **opts)
        bots = [make_bot("random", p) for p in range(n)]
        for _ in range(plies):
            if g.is_over:
                break
            g.push(bots[g.current_player].choose(g.view(g.current_player)))
        spec = edition_spec(g.edition)
        out.append((read_tables(spec), spec, position_array(g), seed_text(g), n, g))
    return out


def _mutate(values: list[int], edits) -> list[int]:
    v = list(values)
    for kind, at, x in edits:
        if kind == "set" and v:
            v[at % len(v)] = x
        elif kind == "cut":
            del v[at % (len(v) + 1) :]
        elif kind == "add":
            v.insert(at % (len(v) + 1), x)
        elif kind == "del" and v:
            del v[at % len(v)]
        elif kind == "swap" and v:
            i, j = at % len(v), (at * 7 + x) % len(v)
            v[i], v[j] = v[j], v[i]
        elif kind == "bump" and v:
            v[at % len(v)] += 1 if x % 2 else -1
    return [max(-(2**31), min(2**31 - 1, y)) for y in v]


def _strategies():
    from hypothesis import strategies as st

    value = st.one_of(
        st.integers(-3, 130),
        st.integers(-(2**31), 2**31 - 1),
        st.sampled_from([-(2**31), -1, 0, 1, 8, 9, 255, 256, 400, 511, 512, 513, 100000, 100001, 2**31 - 1]),
    )
    edit = st.tuples(
        st.sampled_from(["set", "set", "set", "bump", "cut", "add", "del", "swap"]), st.integers(0, 10**6), value
    )
    return value, st.lists(edit, min_size=1, max_size=4)


def _fuzz(examples: int, seen: dict[str, int]) -> None:
    """Mutated tables, positions and games: a TtrError or a finished playout, nothing else."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from ttr_lab.bots.kernel.run import kernel_playout, play_arrays, read_tables
    from ttr_lab.errors import TtrError

    bases = _bases()
    value, edits = _strategies()
    cfg = settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )

    def outcome(call) -> None:
        try:
            call()
        except TtrError:
            seen["refused"] += 1
        else:
            seen["played"] += 1

    @cfg
    @given(st.integers(0, len(bases) - 1), edits)
    def tables(b, e):
        _, spec, pos, text, n, _g = bases[b]
        outcome(lambda: play_arrays(read_tables(array("i", _mutate(spec.tolist(), e))), pos, text, (1,) * n, 0, 3000))

    @cfg
    @given(st.integers(0, len(bases) - 1), edits, st.integers(0, 1))
    def positions(b, e, policy):
        t, _, pos, text, n, _g = bases[b]
        seeds = (5,) * n if policy == 0 else (b"\x05",) * n
        outcome(lambda: play_arrays(t, array("i", _mutate(pos.tolist(), e)), text, seeds, policy, 3000))

    fields = (
        "_row",
        "_hands",
        "_owners",
        "_pieces",
        "_scores",
        "_decks",
        "_discards",
        "_tickets",
        "_pending",
        "_tdeck",
        "_box",
        "_stations",
        "_tunnel",
        "_ships",
        "_choice",
        "_exchanged",
        "_harbors",
    )

    @cfg
    @given(st.integers(0, len(bases) - 1), st.sampled_from(fields), st.integers(0, 10**6), value, st.integers(0, 2))
    def games(b, field, at, x, how):
        g = bases[b][5].copy()
        d = g.__dict__
        if field not in d:  # Europe's or Rails & Sails' fields: change another
            field = "_row"
        old = d[field]
        flat = isinstance(old, (list, tuple)) and all(isinstance(y, int) for y in old)
        if flat:
            seq = list(old)
        else:  # a list per seat or per pile (or the tunnel's parts): change one of them
            k = at % len(old)
            if not isinstance(old[k], (list, tuple)):  # a number among the tunnel's parts
                d[field] = type(old)(x if j == k else y for j, y in enumerate(old))
                outcome(lambda: kernel_playout(g, (3,) * g.num_players, max_plies=3000, preview=True))
                return
            seq = list(old[k])
        if how == 0 and seq:
            seq[at % len(seq)] = x
        elif how == 1:
            seq.append(x)
        elif seq:
            seq.pop(at % len(seq))
        if flat:
            d[field] = type(old)(seq) if isinstance(old, list) else tuple(seq)
        else:
            rows = list(old)
            rows[k] = type(old[k])(seq) if isinstance(old[k], list) else tuple(seq)
            d[field] = type(old)(rows) if isinstance(old, list) else tuple(rows)
        outcome(lambda: kernel_playout(g, (3,) * g.num_players, max_plies=3000, preview=True))

    tables()
    positions()
    games()


def _odd_calls(seen: dict[str, int]) -> None:
    """Inputs of the wrong kind: a TtrError each."""
    from ttr_lab.bots.kernel.run import play_arrays, read_tables
    from ttr_lab.errors import TtrError

    t, spec, pos, text, n, _ = _bases()[0]
    calls = [
        lambda: read_tables(b"abc"),
        lambda: read_tables(array("q", spec.tolist())),
        lambda: read_tables(array("i")),
        lambda: read_tables(spec.tolist()),
        lambda: read_tables(memoryview(spec.tobytes()).cast("B")),
        lambda: play_arrays(t, pos.tolist(), text, (1,) * n),
        lambda: play_arrays(t, array("h", [1, 2]), text, (1,) * n),
        lambda: play_arrays(t, pos, text, (1,) * (n + 1)),
        lambda: play_arrays(t, pos, text, [1] * n),
        lambda: play_arrays(t, pos, text, ("x",) * n),
        lambda: play_arrays(t, pos, text, (1,) * n, policy=2),
        lambda: play_arrays(t, pos, text, (1,) * n, policy=1),
        lambda: play_arrays(t, pos, text, (b"\0" * 400,) * n, policy=1),
        lambda: play_arrays(t, pos, text, (1,) * n, max_plies=-1),
        lambda: play_arrays(t, pos, text, (1,) * n, max_plies=2**40),
        lambda: play_arrays(t, pos, b"", (1,) * n),
        lambda: play_arrays(t, pos, b"\xff" * 10, (1,) * n),
        lambda: play_arrays(t, pos, b"x" * 500, (1,) * n),
        lambda: play_arrays(t, pos, "text", (1,) * n),
    ]
    for i, call in enumerate(calls):
        try:
            call()
        except TtrError:
            seen["refused"] += 1
        else:
            raise AssertionError(f"odd call {i} was accepted")


def _referee_sample(count: int, seen: dict[str, int]) -> None:
    sys.path.insert(0, str(HERE))
    import test_kernel_referee as ref

    for edition in (*ref.EDITIONS, *ref.RS_EDITIONS):
        seen["refereed"] += ref.run_referee(edition, count)["playouts"]
        seen["refereed"] += ref.run_referee(edition, max(1, count // 4), policy="random")["playouts"]
    for edition in ("usa", "europe"):  # the wide tables (25 card types, routes of 9)
        wide = ref.run_wide(edition, count)
        seen["wide"] += wide[0] + wide[1]


def main(argv: list[str]) -> None:
    """``test_kernel_fuzz.py EXAMPLES REFEREE [MODULE]``: fuzz (and referee) with the extension
    at MODULE if given (a sanitizer build) instead of the built one; prints the counts as JSON."""
    examples, referee = int(argv[0]), int(argv[1])
    if len(argv) > 2:  # the sanitizer build, in place of the built extension
        import importlib.util

        spec = importlib.util.spec_from_file_location(NAME, argv[2])
        assert spec is not None and spec.loader is not None
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        sys.modules[NAME] = mod
    from ttr_lab.bots.kernel.run import load

    assert load() is not None and load().__file__ == (argv[2] if len(argv) > 2 else load().__file__)
    seen = {"refused": 0, "played": 0, "refereed": 0, "wide": 0}
    _odd_calls(seen)
    _fuzz(examples, seen)
    if referee:
        _referee_sample(referee, seen)
    seen["module"] = load().__file__
    with open("/proc/self/maps", encoding="utf-8") as maps:  # the sanitizer's runtime is loaded (Linux)
        seen["asan"] = "libasan" in maps.read()
    print(json.dumps(seen))


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))  # the package beside these tests (a worktree's, not the installed one)
    main(sys.argv[1:])


# ------------------------------------------------------------------ the tests
def _kernel_enabled() -> bool:
    from ttr_lab.bots.kernel import kernel_info

    return kernel_info().enabled


needs_kernel = pytest.mark.skipif(not _kernel_enabled(), reason="the compiled kernel is not built here (or is off)")


def _child(args: list[str], env: dict[str, str] | None = None, timeout: float = 900) -> dict:
    proc = subprocess.run(
        [sys.executable, str(Path(__file__)), *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=timeout,
    )
    assert proc.returncode == 0, f"the child ended with {proc.returncode}:\n{proc.stderr[-6000:]}"
    return json.loads(proc.stdout.strip().splitlines()[-1])


@needs_kernel
def test_malformed_input_is_a_ttr_error_never_a_crash_quick():
    seen = _child(["60", "0"])
    assert seen["refused"] > 60 and seen["played"] > 0, seen


@pytest.mark.slow
@needs_kernel
def test_malformed_input_is_a_ttr_error_never_a_crash():
    seen = _child(["1500", "0"])
    assert seen["refused"] > 2000 and seen["played"] > 100, seen


def _sanitizer_build(tmp: Path) -> Path:
    """The extension compiled with -fsanitize=address,undefined into ``tmp`` (skips if the
    compiler cannot)."""
    cc = shutil.which(os.environ.get("CC", "gcc")) or shutil.which("cc")
    if cc is None:
        pytest.skip("no C compiler")
    out = tmp / ("_playout" + (sysconfig.get_config_var("EXT_SUFFIX") or ".so"))
    flags = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer", "-g", "-O1"]
    cmd = [cc, *flags, "-std=c99", "-ffp-contract=off", "-fno-strict-aliasing", "-shared", "-fPIC"]
    cmd += [f"-I{sysconfig.get_paths()['include']}", *(str(KERNEL_DIR / s) for s in SOURCES), "-o", str(out)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        if "sanitize" in proc.stderr or "asan" in proc.stderr:
            pytest.skip(f"the compiler lacks the sanitizers: {proc.stderr[-300:]}")
        raise AssertionError(proc.stderr)
    return out


@pytest.mark.slow
@needs_kernel
def test_a_sanitizer_build_plays_the_referee_sample_and_the_fuzzing_cleanly(tmp_path):
    module = _sanitizer_build(tmp_path)
    cc = shutil.which(os.environ.get("CC", "gcc")) or "gcc"
    libasan = subprocess.run([cc, "-print-file-name=libasan.so"], capture_output=True, text=True).stdout.strip()
    if not os.path.isabs(libasan) or not os.path.exists(libasan):
        pytest.skip("the compiler's libasan.so is not found")
    env = dict(os.environ)
    env.pop("TTR_LAB_KERNEL", None)
    env["LD_PRELOAD"] = libasan
    # the interpreter's own allocations are not the kernel's: no leak report; any other report aborts
    env["ASAN_OPTIONS"] = "detect_leaks=0:abort_on_error=1:halt_on_error=1"
    env["UBSAN_OPTIONS"] = "halt_on_error=1:print_stacktrace=1"
    env["PYTHONMALLOC"] = "malloc"
    seen = _child(["150", "12", str(module)], env=env, timeout=1800)
    assert seen["module"] == str(module) and seen["asan"]
    editions = 7  # test_kernel_referee.EDITIONS and RS_EDITIONS: the USA family, Europe, Rails & Sails
    assert seen["refereed"] == editions * (12 + 3) and seen["refused"] > 150 and seen["played"] > 0, seen
    assert seen["wide"] >= 16, seen  # USA and Europe on 25 card types: 12 starts each, both policies


@pytest.mark.slow
@needs_kernel
def test_threads_at_once_play_the_games_of_one_thread():
    """Four threads at once (the interpreter lock released while the kernel plays) give the
    results one thread gives: the kernel shares no mutable state between playouts."""
    import ttr_lab
    from ttr_lab.bots import make_bot
    from ttr_lab.bots.kernel.run import kernel_playout

    starts = []
    for i in range(40):
        n = 2 + i % 4
        g = ttr_lab.new_game(("usa", "1910", "mega", "big_cities", "europe")[i % 5], players=n, seed=i)
        bots = [make_bot("random", i * 10 + p) for p in range(n)]
        for _ in range(i * 7):
            if g.is_over:
                break
            g.push(bots[g.current_player].choose(g.view(g.current_player)))
        starts.append(g)

    for i in range(20):  # Rails & Sails: the playout policy's games and the random bot's
        n = 2 + i % 4
        g = ttr_lab.new_game(("rails_and_sails", "great_lakes")[i % 2], players=n, seed=i)
        bots = [make_bot("random", i * 10 + p) for p in range(n)]
        for _ in range(i * 9):
            if g.is_over:
                break
            g.push(bots[g.current_player].choose(g.view(g.current_player)))
        starts.append(g)

    def play(k: int) -> tuple:
        g = starts[k % len(starts)]
        if g.edition.name in ("rails_and_sails", "great_lakes") and k % 2:
            seeds = tuple((k * 31 + p).to_bytes(8, "big") for p in range(g.num_players))
            got = kernel_playout(g, seeds, policy=1, record=True)
        else:
            got = kernel_playout(g, tuple(k * 31 + p for p in range(g.num_players)), policy=0, record=True)
        assert got is not None
        finish, (moves, final) = got
        return (finish, moves, final)

    jobs = list(range(60))
    alone = [play(k) for k in jobs]
    results: dict[int, tuple] = {}
    barrier = threading.Barrier(4)

    def worker(w: int) -> None:
        barrier.wait()
        for k in jobs[w::4]:
            results[k] = play(k)

    threads = [threading.Thread(target=worker, args=(w,)) for w in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert [results[k] for k in jobs] == alone
    assert len({a[1] for a in alone}) > 45  # different games, not one repeated


@needs_kernel
def test_the_kernel_s_only_writable_globals_are_python_s_tables():
    """No global mutable state in C: the extension's writable data (nm's b/d/s symbols) is only the
    module's and the type's definitions CPython needs, the argument name lists, and the toolchain's."""
    from ttr_lab.bots.kernel.run import load

    nm = shutil.which("nm")
    path = load().__file__
    if nm is None or not path.endswith(".so"):
        pytest.skip("needs nm and an ELF extension")
    out = subprocess.run([nm, path], capture_output=True, text=True, timeout=60).stdout
    names = {line.split()[-1] for line in out.splitlines() if len(line.split()) == 3 and line.split()[1] in "bBdDsS"}
    python_s = {"TablesType", "Tables_methods", "module", "module_methods"}
    toolchain = {n for n in names if n.startswith("_") or n.startswith("completed.")}
    kwlists = {n for n in names if n.startswith("kwlist.")}
    if not names:
        pytest.skip("a stripped build: nm lists no symbols")
    assert python_s <= names, names
    assert names - python_s - toolchain - kwlists == set()
