"""The shared WebDriver client, plus what the Cargo Noir and Grog Island tests add.

``tests.tournaments.boards.webdriver.Browser`` speaks W3C WebDriver to Debian's
chromedriver. These tests also want every JavaScript error from the first line
of a document on, not only what reaches the browser log, so a script injected
through the DevTools protocol records ``window.onerror``, unhandled promise
rejections and ``console.error`` into ``window.hmErrors``; and screenshots of
one page at more than one width (desktop and a 390 px phone).
"""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

from tests.tournaments.boards.webdriver import MISSING
from tests.tournaments.boards.webdriver import Browser as SharedBrowser

__all__ = ["MISSING", "Browser"]

CATCH_ERRORS = """
window.hmErrors = [];
window.addEventListener("error", function (e) { window.hmErrors.push("error: " + e.message); });
window.addEventListener("unhandledrejection", function (e) {
  window.hmErrors.push("rejection: " + e.reason);
});
(function () {
  var original = console.error;
  console.error = function () {
    window.hmErrors.push("console: " + Array.prototype.join.call(arguments, " "));
    return original.apply(console, arguments);
  };
})();
"""


class Browser(SharedBrowser):
    """A headless Chromium session that records the pages' errors in ``window.hmErrors``."""

    def __init__(self, width: int = 1200, height: int = 900) -> None:
        super().__init__(width, height)
        self.cdp("Page.addScriptToEvaluateOnNewDocument", {"source": CATCH_ERRORS})

    def cdp(self, command: str, params: dict[str, Any]) -> Any:
        return self.cmd("POST", "/goog/cdp/execute", {"cmd": command, "params": params})

    def _metrics(self, width: int, height: int) -> None:
        mobile = width < 500  # a headless window is never narrower than 500 px: emulate
        params = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile}
        self.cdp("Emulation.setDeviceMetricsOverride", params)

    def screenshot_at(self, path: Path, width: int) -> Path:
        """The whole page as a PNG, laid out ``width`` px wide."""
        self._metrics(width, 900)
        try:
            height = self.run("return document.documentElement.scrollHeight;")
            self._metrics(width, min(height, 8000))
            png = self.cmd("GET", "/screenshot")
        finally:
            self.cdp("Emulation.clearDeviceMetricsOverride", {})
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(png))
        return path
