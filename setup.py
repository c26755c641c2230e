"""The package list, discovered: every package under ``ttr_lab/`` (setuptools' ``find_packages``)
and the two whose folders sit outside it, ``ttr_lab.maps.files`` (``maps/``) and ``ttr_lab.docs``
(``docs/``), mapped in pyproject.toml's ``[tool.setuptools.package-dir]``.

Everything else is in pyproject.toml: its ``[tool.setuptools.packages.find]`` alone cannot add a
package mapped to a folder outside the one it searches.  A new subpackage needs no edit here
(``tests/test_packaging.py`` checks that the wheel holds every package of the tree).
"""

import os

from setuptools import Extension, find_packages, setup
from setuptools.command.build_ext import build_ext

#: the packages whose folders pyproject.toml's [tool.setuptools.package-dir] maps outside ttr_lab/
MAPPED = ["ttr_lab.maps.files", "ttr_lab.docs"]

# The compiled playout kernel (ttr_lab/bots/kernel/, issue 23): an OPTIONAL extension.  It is built
# whenever a C compiler is present; without one (or with TTR_LAB_BUILD_KERNEL=0, e.g. for a
# pure-Python wheel for Pyodide) the install still succeeds and ttr_lab plays its playouts in
# Python, with identical results (ttr_lab.analysis.kernel_info() says which is used).
KERNEL_SOURCES = [
    "_module.c",
    "_read.c",
    "_path.c",
    "_engine.c",
    "_legal.c",
    "_tunnels.c",
    "_stations.c",
    "_random.c",
    "_rs_pay.c",
    "_rs_engine.c",
    "_rs_score.c",
    "_policy.c",
    "_plan.c",
    "_rs_policy.c",
    "_score.c",
    "_rng.c",
]
KERNEL = Extension(
    "ttr_lab.bots.kernel._playout",
    sources=[f"ttr_lab/bots/kernel/{name}" for name in KERNEL_SOURCES],
    depends=["ttr_lab/bots/kernel/_kernel.h", "ttr_lab/bots/kernel/_policy.h"],
    optional=True,
)


class BuildKernel(build_ext):
    """build_ext with the kernel's flags: no floating-point contraction (the kernel's
    arithmetic must round as Python's does), and never a failed install for the kernel."""

    def build_extension(self, ext: Extension) -> None:
        if self.compiler.compiler_type == "unix":
            ext.extra_compile_args = ["-O2", "-std=c99", "-ffp-contract=off", "-fno-strict-aliasing"]
        elif self.compiler.compiler_type == "msvc":
            ext.extra_compile_args = ["/O2", "/fp:precise"]
        try:
            super().build_extension(ext)
        except Exception as e:  # a missing or failing compiler: the pure-Python playouts remain
            self.warn(
                f"the playout kernel was not built ({type(e).__name__}: {e}); ttr_lab plays its playouts in Python"
            )


setup(
    packages=[*find_packages(include=["ttr_lab", "ttr_lab.*"]), *MAPPED],
    ext_modules=[] if os.environ.get("TTR_LAB_BUILD_KERNEL") == "0" else [KERNEL],
    cmdclass={"build_ext": BuildKernel},
)
