"""The package list, discovered: every package under ``ttr_lab/`` (setuptools' ``find_packages``)
and the two whose folders sit outside it, ``ttr_lab.maps`` (``maps/``) and ``ttr_lab.docs``
(``docs/``), mapped in pyproject.toml's ``[tool.setuptools.package-dir]``.

Everything else is in pyproject.toml: its ``[tool.setuptools.packages.find]`` alone cannot add a
package mapped to a folder outside the one it searches.  A new subpackage needs no edit here
(``tests/test_packaging.py`` checks that the wheel holds every package of the tree).
"""

from setuptools import find_packages, setup

#: the packages whose folders pyproject.toml's [tool.setuptools.package-dir] maps outside ttr_lab/
MAPPED = ["ttr_lab.maps", "ttr_lab.docs"]

setup(packages=[*find_packages(include=["ttr_lab", "ttr_lab.*"]), *MAPPED])
