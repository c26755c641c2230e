"""Browser tests: JupyterLab + Debian Chromium driven by Playwright (marker ``browser``)."""
