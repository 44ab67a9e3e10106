"""Headless Debian Chromium for the real-browser tests, driven by Selenium.

The browser and its driver are Debian's ``chromium`` and ``chromium-driver``,
named explicitly: Selenium Manager would otherwise look for (and download) a
Chrome and a driver of its own, which CI and the developers' machines must
never do (``tests/browser/conftest.py`` also keeps it offline and fails loudly
should it ever be asked). Where either is missing the tests skip, saying so.
Only loopback addresses are contacted: chromedriver listens on 127.0.0.1.
"""

from __future__ import annotations

import base64
import shutil
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

CHROMIUM = next((p for n in ("chromium", "chromium-browser") if (p := shutil.which(n))), None)
CHROMEDRIVER = shutil.which("chromedriver")
MISSING = (
    None
    if CHROMIUM and CHROMEDRIVER
    else "needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)"
)
needs_chromium = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")

ARGUMENTS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--hide-scrollbars",
]
PHONE = {"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 1}}


def start(width: int = 1280, height: int = 1000, *, phone: bool = False) -> webdriver.Chrome:
    """A headless Chromium session: a desktop window of ``width`` px, or with ``phone`` a
    390 px wide phone screen. Quit it (``with start() as browser:``) when done.

    A phone is emulated (device metrics): a headless window is never narrower
    than 500 px. The browser's log is kept, for ``console_errors``.
    """
    assert CHROMIUM and CHROMEDRIVER, MISSING
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in [*ARGUMENTS, f"--window-size={width},{height}"]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    if phone:
        options.add_experimental_option("mobileEmulation", PHONE)
    service = Service(executable_path=CHROMEDRIVER, service_args=["--allowed-ips=127.0.0.1"])
    return webdriver.Chrome(options=options, service=service)


def console_errors(browser: webdriver.Chrome) -> list[str]:
    """SEVERE browser log entries (uncaught errors, failed loads) since the last call,
    but for the favicon the site does not have."""
    return [
        entry["message"]
        for entry in browser.get_log("browser")
        if entry.get("level") == "SEVERE" and "favicon.ico" not in entry["message"]
    ]


def page_screenshot(browser: webdriver.Chrome, path: Path) -> Path:
    """Save a PNG of the whole page (beyond the viewport), through the DevTools protocol."""
    width, height = browser.execute_script(
        "var d = document.documentElement; return [d.scrollWidth, d.scrollHeight];"
    )
    clip = {"x": 0, "y": 0, "width": width, "height": min(height, 8000), "scale": 1}
    params: dict[str, Any] = {"format": "png", "captureBeyondViewport": True, "clip": clip}
    shot = browser.execute_cdp_cmd("Page.captureScreenshot", params)
    path.write_bytes(base64.b64decode(shot["data"]))
    return path


def window_screenshot(browser: webdriver.Chrome, path: Path) -> Path:
    """Save a PNG of what the window shows now (a long page's whole is too long to read)."""
    path.write_bytes(browser.get_screenshot_as_png())
    return path
