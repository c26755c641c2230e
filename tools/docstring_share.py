"""The share of public definitions without a docstring, per package (issue 21 B).

    python tools/docstring_share.py [--list] [ROOT]

Counts every public function, method and class (a name not starting with
``_``, nested in public classes) of ``ttr_lab/engine/rules`` and ``ttr_lab/editions``
under ROOT (default: this checkout) and those without a docstring.  The
hooks themselves (every public member of :class:`ttr_lab.engine.rules.Edition`'s
core classes) are kept at a docstring with an example by
``tests/test_edition_api.py``.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PACKAGES = ("engine/rules", "editions")  # the rules of the base edition, and the editions


def undocumented(package: Path) -> tuple[int, list[str]]:
    """``(public definitions, names of those without a docstring)`` under ``package``."""
    total, missing = 0, []
    for path in sorted(package.rglob("*.py")):
        stack = [(node, "") for node in ast.parse(path.read_text(encoding="utf-8")).body]
        while stack:
            node, prefix = stack.pop(0)
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            if node.name.startswith("_"):
                continue
            total += 1
            if ast.get_docstring(node) is None:
                missing.append(f"{path.relative_to(package.parent.parent)}:{prefix}{node.name}")
            if isinstance(node, ast.ClassDef):
                stack.extend((child, f"{prefix}{node.name}.") for child in node.body)
    return total, missing


def main(argv: list[str]) -> None:
    show = "--list" in argv
    args = [a for a in argv if a != "--list"]
    root = Path(args[0]) if args else Path(__file__).resolve().parent.parent
    for name in PACKAGES:
        total, missing = undocumented(root / "ttr_lab" / name)
        print(
            f"{name}: {len(missing)}/{total} public definitions without a docstring ({100 * len(missing) / total:.0f}%)"
        )
        if show:
            print("".join(f"  {m}\n" for m in missing), end="")


if __name__ == "__main__":
    main(sys.argv[1:])
