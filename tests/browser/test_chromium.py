"""The browser the tests drive is Debian's, and Selenium Manager is never asked for one.

``chromium.start`` names ``/usr/bin/chromium`` and its ``chromedriver``; without
those paths Selenium would run Selenium Manager, which downloads a Chrome and
a driver of its own (``conftest._no_selenium_manager`` refuses that).
"""

from __future__ import annotations

import subprocess

import pytest
from selenium import webdriver
from selenium.common.exceptions import NoSuchDriverException

from tests.browser.chromium import CHROMEDRIVER, CHROMIUM, needs_chromium, start

pytestmark = needs_chromium


def test_a_session_runs_debians_chromium_through_its_chromedriver() -> None:
    version = subprocess.run(
        [CHROMIUM, "--version"], capture_output=True, text=True, check=True
    ).stdout
    with start() as browser:
        assert browser.service.path == CHROMEDRIVER
        assert browser.capabilities["browserVersion"] in version
        assert browser.execute_script("return navigator.userAgent").startswith("Mozilla/")


def test_selenium_manager_is_refused_rather_than_run() -> None:
    with pytest.raises(NoSuchDriverException) as refused:
        webdriver.Chrome(options=webdriver.ChromeOptions())
    assert "Selenium Manager was asked" in str(refused.value.__cause__)
