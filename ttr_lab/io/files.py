"""One folder for the files that widgets save and load: :class:`Folder`.

A widget with a *File* box (the scorer, the classroom app's scorer tab) may be
used by anyone on a web page, so what they type is a *file name*, never a
path: every name is looked up in one folder, chosen by whoever started the
widget or the app (``scorer(..., folder=...)``, ``app(folder=...)``, or the
environment variable :data:`ENV_VAR`), by default :data:`DEFAULT_NAME` under
the working directory (made on the first save).

* A name is a file name only (:func:`check_name`): at most
  :data:`MAX_NAME_LENGTH` characters; no ``/`` or ``\\``, no ``..``, no
  absolute path or drive, no control character, nothing starting with ``.``
  (so hidden files and the temporary files of a save are out of reach).
* A symbolic link in the folder that leads out of it is refused; reading
  never follows one out, and writing never writes through one
  (:func:`ttr_lab.io.safeio.atomic_write` refuses links).
* Saving never replaces an existing file unless asked (``overwrite=True``);
  without it an existing name raises :class:`NameTakenError`, atomically (a
  file made meanwhile is not replaced either).
* Messages name the file as typed, never the folder, and never say anything
  about a file outside the folder: a name that would reach out is refused
  before anything is looked up.

Examples
--------
>>> import tempfile
>>> f = Folder(tempfile.mkdtemp())
>>> f.save("game.json", '{"a": 1}\\n')
'game.json'
>>> f.load_json("game.json"), f.names()
({'a': 1}, ['game.json'])
>>> f.save("game.json", "{}\\n")
Traceback (most recent call last):
...
ttr_lab.io.files.NameTakenError: game.json: exists already: save again to replace it, or choose another name
>>> f.load_json("../../etc/passwd")
Traceback (most recent call last):
...
ttr_lab.errors.RecordError: '../../etc/passwd': a file name only, without '/' or '\\'
"""

from __future__ import annotations

import os
import unicodedata
from typing import Any, NoReturn, Union

from ..errors import RecordError
from .safeio import RECORD_LIMIT, atomic_write, load_json, read_text, record_error

__all__ = [
    "Folder",
    "NameTakenError",
    "check_name",
    "ENV_VAR",
    "DEFAULT_NAME",
    "MAX_NAME_LENGTH",
    "MAX_LISTED",
]

ENV_VAR = "TTR_LAB_FILES"
"""Environment variable naming the default folder (e.g. set by whoever starts the app)."""

DEFAULT_NAME = "ttr_lab_files"
"""The default folder, under the working directory, when no folder is given and :data:`ENV_VAR` is unset."""

MAX_NAME_LENGTH = 100
"""Longest file name accepted, in characters."""

MAX_LISTED = 1000
"""Most names :meth:`Folder.names` returns (it looks at no more than ten times as many entries)."""

PathArg = Union[str, "os.PathLike[str]"]

_FORBIDDEN = set('/\\:*?"<>|')
_RESERVED = {"CON", "PRN", "AUX", "NUL", *(f"COM{i}" for i in range(1, 10)), *(f"LPT{i}" for i in range(1, 10))}


class NameTakenError(RecordError):
    """A save met an existing file and was not asked to replace it (:attr:`name`, as typed)."""

    def __init__(self, name: str) -> None:
        super().__init__(name, "exists already: save again to replace it, or choose another name")
        self.name = name


def _refuse(name: object, problem: str) -> NoReturn:
    shown = repr(name) if not isinstance(name, str) or len(name) <= 60 else repr(name[:57]) + "..."
    raise RecordError(shown, problem)


def check_name(name: object, suffix: str | None = None) -> str:
    """``name`` if it is a plain file name (see the module doc), with ``suffix`` added when it has none.

    Parameters
    ----------
    name : str
        What the user typed (surrounding spaces are not removed: a widget strips them).
    suffix : str, optional
        The ending the file must have, e.g. ``".json"``: added to a name with
        no ``.`` in it; any other ending is refused.

    Returns
    -------
    str
        The file name.

    Raises
    ------
    RecordError
        Naming the name (shortened) and what is wrong with it.

    Examples
    --------
    >>> check_name("sheet", ".json"), check_name("Ada's game.JSON", ".json")
    ('sheet.json', "Ada's game.JSON")
    >>> check_name("/etc/shadow")
    Traceback (most recent call last):
    ...
    ttr_lab.errors.RecordError: '/etc/shadow': a file name only, without '/' or '\\'
    >>> check_name("..")
    Traceback (most recent call last):
    ...
    ttr_lab.errors.RecordError: '..': a file name cannot start with '.'
    >>> check_name("notes.txt", ".json")
    Traceback (most recent call last):
    ...
    ttr_lab.errors.RecordError: 'notes.txt': the file name must end in .json
    """
    if not isinstance(name, str):
        _refuse(name, f"a file name is text, not {type(name).__name__}")
    if not name:
        _refuse(name, "type a file name")
    if len(name) > MAX_NAME_LENGTH:
        _refuse(name, f"a file name has at most {MAX_NAME_LENGTH} characters, not {len(name)}")
    if "/" in name or "\\" in name or os.sep in name or (os.altsep and os.altsep in name):
        _refuse(name, "a file name only, without '/' or '\\'")
    bad = sorted({c for c in name if c in _FORBIDDEN or unicodedata.category(c).startswith("C")})
    if bad:
        _refuse(name, "a file name cannot contain " + " ".join(repr(c) for c in bad))
    if name.startswith("."):
        _refuse(name, "a file name cannot start with '.'")
    if name != name.strip() or name.endswith("."):
        _refuse(name, "a file name cannot start or end with a space, or end with '.'")
    if name.split(".")[0].upper() in _RESERVED:
        _refuse(name, "a name reserved for devices on Windows; choose another")
    if suffix is not None and not name.lower().endswith(suffix.lower()):
        if "." in name:
            _refuse(name, f"the file name must end in {suffix}")
        name += suffix
        if len(name) > MAX_NAME_LENGTH:
            _refuse(name, f"a file name has at most {MAX_NAME_LENGTH} characters, not {len(name)}")
    return name


class Folder:
    """The one folder a widget's files live in (see the module doc).

    Parameters
    ----------
    where : str, os.PathLike or Folder, optional
        The folder; by default the environment variable :data:`ENV_VAR`, else
        :data:`DEFAULT_NAME` under the working directory.  Links in the path
        are resolved once, here; the folder need not exist before the first save.

    Attributes
    ----------
    root : str
        The folder's absolute, resolved path (for whoever started the widget;
        messages never show it).
    """

    __slots__ = ("root",)

    def __init__(self, where: PathArg | Folder | None = None) -> None:
        if isinstance(where, Folder):
            self.root: str = where.root
            return
        if where is None:
            where = os.environ.get(ENV_VAR) or os.path.join(os.getcwd(), DEFAULT_NAME)
        try:
            root = os.path.realpath(os.path.abspath(os.fspath(where)))
        except (TypeError, ValueError) as e:
            raise RecordError(repr(where), f"not a folder path ({e})") from None
        if os.path.lexists(root) and not os.path.isdir(root):
            raise RecordError(os.fspath(where), "not a folder; give a folder for the files")
        self.root = root

    def __repr__(self) -> str:
        return f"Folder({self.root!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Folder) and other.root == self.root

    def __hash__(self) -> int:
        return hash(self.root)

    def path(self, name: str, suffix: str | None = None) -> str:
        """The full path of file ``name`` in the folder (:func:`check_name`; a link out is refused)."""
        name = check_name(name, suffix)
        full = os.path.join(self.root, name)
        if os.path.islink(full):
            target = os.path.realpath(full)
            if os.path.dirname(target) != self.root or target == self.root:
                raise RecordError(name, "a link out of the files folder; not followed")
        return full

    def exists(self, name: str, suffix: str | None = None) -> bool:
        """Whether the folder has an entry called ``name``."""
        return os.path.lexists(self.path(name, suffix))

    def names(self, suffix: str | None = None, limit: int = MAX_LISTED) -> list[str]:
        """The files' names (sorted; hidden files, links and folders left out), at most ``limit``."""
        if not 0 <= limit <= MAX_LISTED:
            raise RecordError("names", f"limit is 0..{MAX_LISTED}, not {limit!r}")
        found: list[str] = []
        try:
            with os.scandir(self.root) as entries:
                for seen, entry in enumerate(entries):
                    if seen >= 10 * MAX_LISTED or len(found) >= limit:
                        break
                    name = entry.name
                    if name.startswith(".") or not entry.is_file(follow_symlinks=False):
                        continue
                    if suffix is not None and not name.lower().endswith(suffix.lower()):
                        continue
                    try:
                        found.append(check_name(name))
                    except RecordError:
                        continue
        except OSError:
            return []
        return sorted(found)

    def save(
        self, name: str, data: str | bytes, *, overwrite: bool = False, what: str = "file", suffix: str | None = None
    ) -> str:
        """Write ``data`` to file ``name`` all at once (:func:`ttr_lab.io.safeio.atomic_write`); returns the name.

        Raises
        ------
        NameTakenError
            ``name`` exists and ``overwrite`` is False (nothing written).
        RecordError
            A bad name, or the file cannot be written (named by its name only).
        """
        full = self.path(name, suffix)
        name = os.path.basename(full)
        try:
            os.makedirs(self.root, exist_ok=True)
        except OSError as e:
            raise RecordError(name, f"cannot write: the files folder cannot be made ({e.strerror or e})") from None
        if not overwrite and os.path.lexists(full):
            raise NameTakenError(name)
        try:
            atomic_write(full, data, overwrite=overwrite, what=what, name=name)
        except RecordError as e:
            if isinstance(e.__cause__, FileExistsError):  # made meanwhile: still not replaced
                raise NameTakenError(name) from None
            raise
        return name

    def load_text(self, name: str, *, limit: int = RECORD_LIMIT, what: str = "file", suffix: str | None = None) -> str:
        """The text of file ``name`` (:func:`ttr_lab.io.safeio.read_text`: bounded, UTF-8, regular files only)."""
        full = self.path(name, suffix)
        return read_text(full, limit=limit, error=record_error, what=what, name=os.path.basename(full))

    def load_json(self, name: str, *, limit: int = RECORD_LIMIT, what: str = "file", suffix: str | None = None) -> Any:
        """The JSON value in file ``name`` (:func:`ttr_lab.io.safeio.load_json`)."""
        full = self.path(name, suffix)
        return load_json(full, limit=limit, error=record_error, what=what, name=os.path.basename(full))
