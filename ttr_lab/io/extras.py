"""The optional parts of ttr_lab (its extras), and the error that names the one missing.

The core needs networkx only; each extra brings the rest:

``[lab]``  plotly, anywidget, ipywidgets, jupyterlab: boards and widgets in Jupyter
``[sim]``  pandas, tqdm, dask[distributed]: reviews, simulations, tournaments
``[app]``  voila: the classroom app

ttr_lab is not published on PyPI, so asking pip for ``ttr_lab[sim]`` from
the package index finds nothing.  :func:`missing_extra` builds the error to raise when an extra is
missing, with a command that works: from a checkout of the repository,
``make lab`` (which sets up every lesson) or ``python -m pip install -e
'<the checkout>[sim]'`` with this Python; elsewhere, the extra's own
packages from PyPI (read from the installed package's metadata).

>>> err = missing_extra("sim", "review", "pandas")
>>> isinstance(err, ImportError) and isinstance(err, TtrError)
True
>>> str(err).startswith("review needs pandas, from ttr_lab's [sim] extra, which is not installed: ")
True
>>> "'ttr_lab[" in str(err)
False
"""

from __future__ import annotations

import importlib.util
import re
import shlex
import sys
from importlib import metadata
from pathlib import Path

from ..errors import NotFoundError, TtrError

__all__ = ["EXTRAS", "MissingExtraError", "missing_extra", "install_hint", "require", "checkout_root"]

#: the extras and what each is for (the package lists live in pyproject.toml)
EXTRAS = {
    "lab": "boards and widgets in Jupyter",
    "sim": "reviews, simulations and tournaments",
    "app": "the classroom app (Voila)",
}

#: the make target that installs each extra in a checkout
_MAKE = {"lab": "make lab", "sim": "make lab", "app": "make app"}


class MissingExtraError(TtrError, ImportError):
    """An optional dependency is not installed; the message says which extra brings it and how to install it."""


def checkout_root() -> Path | None:
    """The repository this ttr_lab runs from (an editable install or a plain checkout), else None."""
    root = Path(__file__).resolve().parents[2]  # this module is ttr_lab/io/extras.py
    try:
        text = (root / "pyproject.toml").read_text(encoding="utf-8")
    except OSError:
        return None
    return root if re.search(r'^name\s*=\s*"ttr_lab"', text, re.M) else None


def _packages(extra: str) -> list[str]:
    """The requirements an extra lists, from the installed metadata (an extra of an extra expanded)."""
    try:
        requires = metadata.requires("ttr_lab") or []
    except metadata.PackageNotFoundError:
        return []
    out: list[str] = []
    for line in requires:
        spec, _, marker = line.partition(";")
        if re.search(rf"""extra\s*==\s*["']{re.escape(extra)}["']""", marker):
            m = re.match(r"\s*ttr[-_]lab\[([a-z,\s]+)\]", spec)
            if m:  # e.g. [app] = [lab] + voila
                out += [p for e in m.group(1).split(",") for p in _packages(e.strip())]
            else:
                out.append(re.split(r"[<>=!~ ]", spec.strip(), maxsplit=1)[0])
    return out


def install_hint(extra: str) -> str:
    """The command that installs ``extra`` for this Python, in words.

    >>> "make lab" in install_hint("lab") or "-m pip install" in install_hint("lab")
    True
    """
    if extra not in EXTRAS:
        raise NotFoundError(f"ttr_lab has no [{extra}] extra; it has {', '.join(f'[{e}]' for e in EXTRAS)}")
    python = shlex.quote(sys.executable or "python3")
    root = checkout_root()
    if root is not None:
        pip = f"{python} -m pip install -e {shlex.quote(f'{root}[{extra}]')}"
        if (root / "Makefile").is_file():
            make = _MAKE[extra]
            every = " (it sets up every lesson)" if make == "make lab" else ""
            return f"run `{make}` in {root}{every}, or `{pip}`"
        return f"run `{pip}`"
    packages = _packages(extra)
    if packages:
        return f"run `{python} -m pip install {' '.join(shlex.quote(p) for p in packages)}`"
    return f"install ttr_lab with the [{extra}] extra from its repository (`make lab` there)"


def missing_extra(extra: str, needed_for: str, module: str | None = None) -> MissingExtraError:
    """The error to raise when ``needed_for`` cannot import ``module``, part of the ``[extra]`` extra.

    ``raise missing_extra("sim", "review", "pandas") from e``.
    """
    what = module or f"the [{extra}] extra"
    return MissingExtraError(
        f"{needed_for} needs {what}, from ttr_lab's [{extra}] extra, which is not installed: {install_hint(extra)}"
    )


def require(extra: str, needed_for: str, *modules: str) -> None:
    """Raise :func:`missing_extra` for the first of ``modules`` that cannot be imported.

    A module blocked with ``sys.modules[name] = None`` counts as missing.

    >>> require("lab", "nothing at all")  # no modules: nothing to check
    """
    for name in modules:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):  # a parent package missing, or blocked
            found = False
        if not found:
            raise missing_extra(extra, needed_for, name)
