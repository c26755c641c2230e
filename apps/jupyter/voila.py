"""Voila's configuration for the classroom app (``make app``): read because the Makefile puts
this folder on ``JUPYTER_CONFIG_PATH`` (and on ``JUPYTER_PATH``, for the ``ttr`` template).

* the page loads nothing from outside the server: the ``ttr`` template (voila/templates/ttr)
  is Voila's lab template without its CDN stylesheets;
* a page's kernel stops when the page closes or reloads: Voila's page sends a shutdown
  request then, with the ``_xsrf`` cookie's value, but Voila never sets that cookie, so the
  request was refused (403) and every load left a kernel of about 130 MB behind;
  :func:`set_xsrf_cookie` sets it;
* a kernel whose page went away without saying so (a browser killed, a laptop closed) is
  shut down after ``cull_idle_timeout`` seconds idle with no page connected; a page left
  open keeps its game however long its player thinks.  ``make app APP_CULL_IDLE=1800``
  changes it.
"""

c = get_config()  # type: ignore[name-defined]  # noqa: F821 (given by traitlets)


def set_xsrf_cookie(handler, notebook, cwd):  # type: ignore[no-untyped-def]
    """Voila's prelaunch hook: read the handler's XSRF token, which makes tornado set the
    ``_xsrf`` cookie on the page (the page's shutdown request sends it back)."""
    handler.xsrf_token  # noqa: B018 (read for its effect)
    return notebook


c.VoilaConfiguration.template = "ttr"
c.VoilaConfiguration.prelaunch_hook = set_xsrf_cookie
c.MappingKernelManager.cull_idle_timeout = 600  # seconds idle with no page connected
c.MappingKernelManager.cull_interval = 60
c.MappingKernelManager.cull_connected = False  # an open page keeps its kernel
