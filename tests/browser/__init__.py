"""Real-browser tests: headless Debian Chromium driven by Selenium (``chromium.start``)."""
