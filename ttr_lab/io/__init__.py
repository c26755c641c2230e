"""The bottom layer beside :mod:`ttr_lab.errors`: files, numbers and names, no game rules.

==============  ==================================================================
``safeio``      reading the files a user names: bounded, regular files, strict JSON
``safejson``    strict JSON (:func:`~ttr_lab.io.safejson.loads_json`)
``safewrite``   writing without destroying a file (a temporary file, then a rename)
``files``       :class:`~ttr_lab.io.files.Folder`: the one folder widgets save to and load from
``numerals``    whole numbers written as text, ASCII digits only
``registries``  :class:`~ttr_lab.io.registries.Registry`: names to objects, loaded when first used
``extras``      the optional extras and the error naming the one missing
``cli_guard``   Ctrl-C while the command line starts: one line, not a traceback
==============  ==================================================================
"""

# isort: off
# first, before anything else of ttr_lab finishes importing: Ctrl-C while the command line starts
# is one line, never a traceback (tests/test_cli_edges.py signals once a ttr_lab module has loaded)
from . import cli_guard as cli_guard
# isort: on
