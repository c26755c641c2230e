"""One registry mechanism (issue 21 A4 and B): :class:`ttr_lab.io.registries.Registry` serves the
editions, the bots and the widget controls: names and aliases, lazy ``"module:attribute"``
entries imported on first use, installed packages' entry points, clear errors.

An installed package is imitated as pip leaves one: a ``*.dist-info`` folder with its
``entry_points.txt`` beside the package's source, on ``sys.path`` (a subprocess gets it
through ``PYTHONPATH``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import ttr_lab
from ttr_lab.bots import BOTS, make_bot
from ttr_lab.engine.rules.registry import BUILT_IN, EDITIONS, edition_names, find_edition, unregister_edition
from ttr_lab.errors import NotFoundError, TtrError, WrongTypeError
from ttr_lab.io.registries import MAX_NAME, Registry

ROOT = Path(__file__).resolve().parents[1]
VARIANT = Path(__file__).resolve().with_name("classroom_variant")


def install(site: Path, dist: str, entry_points: str, modules: dict[str, str] | None = None) -> Path:
    """A distribution's metadata (its entry points) and its modules in ``site``, as pip leaves them."""
    info = site / f"{dist}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(entry_points)
    for name, text in (modules or {}).items():
        (site / name).write_text(text)
    return site


def forget(*modules: str) -> None:
    for name in [n for n in sys.modules if n.split(".")[0] in modules]:
        del sys.modules[name]


def env_with(*paths: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PIP_", "VIRTUAL_ENV"))}
    env["PYTHONNOUSERSITE"] = "1"
    env["PYTHONPATH"] = os.pathsep.join(str(p) for p in (ROOT, *paths))
    return env


def run(code: str, *paths: Path, cwd: Path | None = None, args: tuple[str, ...] = ()) -> str:
    cmd = [sys.executable, *(args or ("-c", code))]
    proc = subprocess.run(cmd, cwd=cwd or ROOT, env=env_with(*paths), capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    return proc.stdout


# --------------------------------------------------------------------------- the mechanism


def test_a_registry_maps_names_aliases_and_lazy_entries():
    reg: Registry[object] = Registry("shape", normalize=str.lower)
    square = object()
    assert reg.register("Square", square, aliases=("Box",)) is square
    reg.register_lazy("pi", "math:pi")
    reg.register_lazy("join", "os.path:join", aliases=("path_join",))
    assert list(reg) == ["square", "pi", "join"] and len(reg) == 3
    assert reg.names() == ("box", "join", "path_join", "pi", "square")
    assert (
        reg["BOX"] is square
        and reg.canonical("box") == "square"
        and dict(reg.aliases)
        == {
            "box": "square",
            "path_join": "join",
        }
    )
    # lazy: imported on first use, kept
    assert "pi" in reg and "pi" not in reg.loaded
    assert reg["pi"] == pytest.approx(3.14159) and "pi" in reg.loaded
    assert reg["path_join"] is os.path.join
    # the mapping protocol: get, setitem (= register with replace), delitem (= unregister)
    assert reg.get("circle") is None and reg.get("circle", 5) == 5
    reg["square"] = "a new square"
    assert reg["square"] == "a new square" and "box" not in reg  # its aliases went with the old object
    del reg["square"]
    assert "square" not in reg
    with pytest.raises(KeyError):
        del reg["square"]
    reg.unregister("path_join")  # an alias: only the alias goes
    assert "join" in reg and "path_join" not in reg
    reg.unregister("nothing")  # nothing to forget: nothing happens


def test_registry_errors_name_what_is_wrong():
    reg: Registry[object] = Registry("shape", api="register_shape")
    reg.register("square", 4, aliases=("box",))
    reg.register_lazy("ghost", "no_such_module_for_ttr_lab:Ghost")
    reg.register_lazy("typo", "math:pie")
    with pytest.raises(NotFoundError, match=r"^unknown shape 'circle' \(known: box, ghost, square, typo\)$"):
        reg["circle"]
    with pytest.raises(KeyError):  # a NotFoundError is a KeyError too
        reg["circle"]
    with pytest.raises(TtrError, match=r"shape 'ghost' \(no_such_module_for_ttr_lab:Ghost\) could not be loaded: "):
        reg["ghost"]
    with pytest.raises(TtrError, match=r"shape 'typo' \(math:pie\) could not be loaded: AttributeError"):
        reg["typo"]
    with pytest.raises(TtrError, match=r"register_shape\('square'\): the name is taken by 4 .*replace=True"):
        reg.register("square", 5)
    assert reg.register("square", 4) == 4  # the same object again: nothing more
    with pytest.raises(TtrError, match=r"register_shape\('circle'\): the alias 'box' is taken by the shape 'square'"):
        reg.register("circle", 0, aliases=("box",))
    with pytest.raises(TtrError, match=r"register_shape\('box'\): the name is an alias of 'square'"):
        reg.register("box", 0)
    with pytest.raises(TtrError, match="a lazy entry is 'module:attribute'"):
        reg.register_lazy("bad", "math.pi")
    with pytest.raises(WrongTypeError, match="a shape is named by a string, not int"):
        reg[3]  # type: ignore[index]
    with pytest.raises(TtrError, match=f"a shape's name is 1 to {MAX_NAME} characters"):
        reg["x" * 10**6]
    assert 3 not in reg and "x" * 10**6 not in reg


def test_a_check_refuses_what_is_not_an_entry():
    def numbers_only(name: str, obj: object) -> int:
        if not isinstance(obj, int):
            raise TtrError(f"not a number: {obj!r}")
        return obj

    reg: Registry[int] = Registry("number", check=numbers_only, api="register_number")
    reg.register_lazy("pi", "math:pi")
    with pytest.raises(TtrError, match=r"register_number\('two'\): not a number: '2'"):
        reg.register("two", "2")  # type: ignore[arg-type]
    with pytest.raises(TtrError, match=r"number 'pi' \(math:pi\): not a number: 3.14"):
        reg["pi"]


def test_entry_points_are_read_when_a_name_is_missing_and_loaded_when_used(tmp_path, monkeypatch):
    site = install(
        tmp_path,
        "ttr_things",
        "[ttr_lab_test.things]\nmoon = ttr_things_moon:MOON\nsquare = ttr_things_moon:OTHER\n"
        "broken = ttr_things_nowhere:X\n",
        {"ttr_things_moon.py": "MOON = 'the moon'\nOTHER = 'another square'\n"},
    )
    install(
        tmp_path,
        "ttr_more_things",
        "[ttr_lab_test.things]\nmoon = ttr_things_moon:OTHER\nstar = ttr_things_moon:MOON\n",
    )
    reg: Registry[object] = Registry("thing", group="ttr_lab_test.things")
    reg.register("square", 4)
    monkeypatch.syspath_prepend(str(site))
    forget("ttr_things_moon")
    assert "star" in reg and "ttr_things_moon" not in sys.modules  # read, not loaded
    assert reg["star"] == "the moon" and "ttr_things_moon" in sys.modules
    assert reg["square"] == 4  # registered here: an entry point of that name does not override it
    with pytest.raises(
        TtrError, match=r"two packages declare the thing 'moon': ttr_things_moon:MOON and ttr_things_moon:OTHER"
    ):
        reg["moon"]
    with pytest.raises(
        TtrError,
        match=r"the ttr_lab_test.things entry point broken = ttr_things_nowhere:X could not be loaded: ModuleNotFoundError",
    ):
        reg["broken"]
    assert set(reg.names()) == {"square", "moon", "broken", "star"}
    reg.unregister("star")
    assert "star" not in list(reg)
    reg.refresh()  # read again: the installed package's entry is back
    assert "star" in reg
    forget("ttr_things_moon")


# --------------------------------------------------------------------------- editions


def test_built_in_editions_declare_the_aliases_their_classes_have():
    assert [name for name, _, _ in BUILT_IN] == ["usa", "europe", "rails_and_sails", "great_lakes"]
    for name, target, aliases in BUILT_IN:
        cls = EDITIONS[name]
        assert f"{cls.__module__}:{cls.__qualname__}" == target and cls.name == name
        assert sorted(aliases) == sorted(cls.aliases)
        for alias, preset in cls.aliases.items():
            assert find_edition(alias) is find_edition(name, **preset)
    assert {"usa", "1910", "world", "great_lakes", "rails_&_sails"} <= set(edition_names())


def test_an_edition_is_imported_only_when_it_is_asked_for():
    code = """
import sys, ttr_lab
eds = lambda: sorted(m for m in sys.modules if m.startswith("ttr_lab.editions."))
print(eds())
ttr_lab.find_edition("1910")
print(eds())
ttr_lab.new_game("great_lakes", players=2, seed=1)
print(eds())
"""
    first, usa, lakes = (json.loads(line.replace("'", '"')) for line in run(code).split("\n")[:3])
    assert first == []
    assert "ttr_lab.editions.usa" in usa and not any(m.startswith("ttr_lab.editions.europe") for m in usa)
    assert "ttr_lab.editions.rails_sails" in lakes and not any(m.startswith("ttr_lab.editions.europe") for m in lakes)


def test_a_plug_in_edition_is_found_by_its_entry_point_with_its_aliases(tmp_path, monkeypatch):
    moon = """
from ttr_lab.editions.usa import USA

class Moon(USA):
    name = "moon_ep"
    aliases = {"moon_1910": {"variant": "1910"}}
"""
    site = install(
        tmp_path,
        "moon_edition",
        "[ttr_lab.editions]\nmoon_ep = moon_edition_mod:Moon\nwrong_name = moon_edition_mod:Moon\n"
        "broken_ep = moon_edition_nowhere:Moon\nnot_a_class = moon_edition_mod:USA.name\n",
        {"moon_edition_mod.py": moon},
    )
    monkeypatch.syspath_prepend(str(site))
    forget("moon_edition_mod")
    try:
        g = ttr_lab.new_game("Moon 1910", players=2, seed=1)  # an alias: known once the plug-ins are loaded
        assert type(g.edition).__module__ == "moon_edition_mod" and g.edition.options["variant"] == "1910"
        assert ttr_lab.new_game("moon_ep", players=2, seed=1).to_dict()["edition"] == "moon_ep"
        with pytest.raises(
            TtrError,
            match=r"entry point wrong_name = moon_edition_mod:Moon: the class is the edition 'moon_ep', not 'wrong_name'",
        ):
            find_edition("wrong_name")
        with pytest.raises(TtrError, match=r"entry point broken_ep = moon_edition_nowhere:Moon could not be loaded"):
            find_edition("broken_ep")
        with pytest.raises(TtrError, match=r"not_a_class = moon_edition_mod:USA.name: not an edition class"):
            find_edition("not_a_class")
        with pytest.raises(NotFoundError, match=r"unknown edition 'chess' \(known: .*moon_1910.*moon_ep"):
            find_edition("chess")
        assert find_edition("usa").name == "usa"  # a broken plug-in breaks nothing else
        assert ttr_lab.parse_move("claim 1 red:1").verb == "claim"
    finally:
        for name in ("moon_ep", "wrong_name", "broken_ep", "not_a_class"):
            unregister_edition(name)
        forget("moon_edition_mod")


def _classroom_site(tmp_path: Path) -> Path:
    """The classroom variant installed apart, as in tests/test_plugin_classroom.py."""
    from .test_plugin_classroom import _fake_install

    _fake_install(tmp_path / "site")
    return tmp_path / "site"


FRESH_POOL = """
import concurrent.futures, multiprocessing, sys

def deal(seed):
    import ttr_lab
    g = ttr_lab.new_game("classroom", players=2, seed=seed)
    return type(g.edition).__module__, g.to_dict()["extra"]["objective"]

if __name__ == "__main__":
    ctx = multiprocessing.get_context("spawn")  # a fresh interpreter per worker: nothing registered by hand
    with concurrent.futures.ProcessPoolExecutor(2, mp_context=ctx) as pool:
        for module, objective in pool.map(deal, [1, 2]):
            print(module, len(objective))
"""


def test_an_installed_edition_is_found_in_a_process_pool(tmp_path):
    site = _classroom_site(tmp_path)
    (tmp_path / "pool.py").write_text(FRESH_POOL)
    out = run("", site, cwd=tmp_path, args=(str(tmp_path / "pool.py"),))
    assert out.split() == ["classroom_variant.edition", "2", "classroom_variant.edition", "2"]


def test_an_installed_edition_plays_and_replays_from_the_command_line(tmp_path):
    site = _classroom_site(tmp_path)
    record = tmp_path / "classroom.json"
    played = run(
        "",
        site,
        cwd=tmp_path,
        args=(
            "-m",
            "ttr_lab",
            "play",
            "--edition",
            "classroom",
            "--seed",
            "3",
            "--bots",
            "greedy,random",
            "--save",
            str(record),
        ),
    )
    replayed = run("", site, cwd=tmp_path, args=("-m", "ttr_lab", "replay", str(record)))
    assert json.loads(record.read_text())["edition"] == "classroom"
    assert played.startswith(replayed) and played[len(replayed) :].startswith("record saved to")
    assert replayed.count("objective city") == 2 and "Winner:" in replayed
    listed = run("", site, cwd=tmp_path, args=("-m", "ttr_lab", "editions"))
    assert "classroom" in listed.split()


# --------------------------------------------------------------------------- bots and controls


def test_bots_are_imported_when_first_made():
    code = """
import sys
from ttr_lab.bots import BOTS, make_bot
mods = lambda: sorted(m for m in sys.modules if m.startswith(("ttr_lab.bots.fdg", "ttr_lab.bots.playout", "ttr_lab.analysis")))
make_bot("random"), make_bot("bot", 1)
print(mods(), "advisor" in BOTS, "advisor" in BOTS.loaded)
make_bot("playout", 2)
print(mods())
"""
    first, second = run(code).strip().split("\n")
    assert first == "[] True False"
    assert "'ttr_lab.bots.playout'" in second and "ttr_lab.analysis" not in second


def test_a_plug_in_bot_is_found_by_its_entry_point(tmp_path, monkeypatch):
    site = install(
        tmp_path,
        "moon_bot",
        "[ttr_lab.bots]\nmoonbot = moon_bot_mod:MoonBot\nrandom = moon_bot_mod:MoonBot\n",
        {"moon_bot_mod.py": "from ttr_lab.bots import RandomBot\n\nclass MoonBot(RandomBot):\n    pass\n"},
    )
    monkeypatch.syspath_prepend(str(site))
    forget("moon_bot_mod")
    try:
        bot = make_bot("MoonBot", seed=2)
        assert type(bot).__name__ == "MoonBot" and type(make_bot("random")).__name__ == "RandomBot"
        g = ttr_lab.bots.play_game("usa", [bot, make_bot("greedy", 1)], seed=1)
        assert g.is_over
    finally:
        BOTS.unregister("moonbot")
        forget("moon_bot_mod")


def test_controls_share_the_registry():
    pytest.importorskip("ipywidgets")
    from ttr_lab.widgets import controls

    assert isinstance(controls._REGISTRY, Registry) and controls.CONTROLS is controls._REGISTRY.loaded
    with pytest.raises(TypeError):
        controls.CONTROLS["tunnel"] = controls.CONTROLS["tunnel"]  # type: ignore[index]
    with pytest.raises(NotFoundError, match=r"unknown widget control 'rocket' \(known: build, exchange"):
        controls.find_control("rocket")


def test_move_verbs_share_the_registry():
    """Move classes register their notation verb in a Registry too (issue 21 B: one mechanism for
    editions, moves, bots and controls); a class defined again replaces its old self."""
    from dataclasses import dataclass

    from ttr_lab.engine.move_base import VERBS, Move, move_classes, parse_move, unregister_move

    assert isinstance(VERBS, Registry) and set(move_classes()) == set(VERBS.loaded)
    for _ in range(2):  # defined twice, as a notebook cell run again does

        @dataclass(frozen=True, slots=True)
        class Wave(Move):
            verb = "wave"

            def __str__(self) -> str:
                return "wave"

    try:
        assert VERBS["wave"] == (Wave,) and parse_move("wave") == Wave()
    finally:
        unregister_move(Wave)
    assert "wave" not in VERBS
    with pytest.raises(TtrError, match="unknown move 'wave'"):
        parse_move("wave")


ON_DASK = """
import distributed, pandas as pd
from ttr_lab.simulate import run_games

if __name__ == "__main__":
    local = run_games("classroom", ["greedy", "random"], games=2, seed=1, progress=False)
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster, distributed.Client(cluster, set_as_default=False) as client:
        remote = run_games("classroom", ["greedy", "random"], games=2, seed=1, executor=client, progress=False)
    pd.testing.assert_frame_equal(remote, local)
    print(len(remote), sorted(set(remote["edition"])))
"""


@pytest.mark.slow
def test_an_installed_edition_is_found_by_a_dask_worker(tmp_path):
    """A Dask worker is a fresh process that nobody registered the classroom variant in."""
    pytest.importorskip("distributed")
    site = _classroom_site(tmp_path)
    (tmp_path / "on_dask.py").write_text(ON_DASK)
    out = run("", site, cwd=tmp_path, args=(str(tmp_path / "on_dask.py"),))
    assert out.split("\n")[-2] == "4 ['classroom']"  # a row per seat and game
