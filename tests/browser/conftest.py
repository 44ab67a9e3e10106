"""Fixtures of the real-browser tests: the served site, the screenshot folders, and Selenium
Manager kept from ever fetching a browser or a driver.

The sessions themselves come from ``tests.browser.chromium.start`` (headless
Debian Chromium), opened in a ``with`` block by each test as it needs them: a
desktop, a phone, or two people at once.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium.webdriver.common.selenium_manager import SeleniumManager

from tests.browser.site import served_site


@pytest.fixture(scope="session", autouse=True)
def _no_selenium_manager() -> Iterator[None]:
    """Selenium Manager stays offline (``SE_OFFLINE``) and, were it asked for paths, fails.

    ``chromium.start`` names Debian's browser and driver, so Selenium never
    needs it; a change that lost those paths fails here, saying why, rather
    than downloading a Chrome on CI.
    """

    def refuse(manager: SeleniumManager, args: list) -> dict:
        raise RuntimeError(
            f"Selenium Manager was asked for {args}: the tests must name Debian's chromium "
            "and chromedriver (tests/browser/chromium.py)"
        )

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SE_OFFLINE", "true")
        patch.setattr(SeleniumManager, "binary_paths", refuse)
        yield


@pytest.fixture
def server() -> Iterator[str]:
    """The site served from this test's database (uvicorn), its base URL, for one test."""
    with served_site() as base:
        yield base


@pytest.fixture(scope="module")
def shots(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where this module's screenshots go: ``$HM_ARTEFACTS/<the module's SHOTS>`` (``make test``
    sets it to ``artefacts/``), else a temporary directory; printed either way."""
    name = request.module.SHOTS
    root = os.environ.get("HM_ARTEFACTS")
    where = Path(root) / name if root else tmp_path_factory.mktemp(name)
    where.mkdir(parents=True, exist_ok=True)
    print(f"\n{name} screenshots: {where}")
    return where
