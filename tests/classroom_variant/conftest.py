"""The variant is imported by tests/test_plugin_classroom.py when its tests run, not collected.

Importing it registers the ``block`` notation for the whole process (a move
class registers its verb when defined), which would change the verb lists
that ttr_lab's own doctests print; the test module imports it in a fixture
and unregisters it afterwards.
"""

collect_ignore = ["classroom_variant"]
