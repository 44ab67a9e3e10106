"""A minimal W3C WebDriver client for Debian's ``chromedriver`` (loopback only).

The board tests need a real browser that runs the page's JavaScript, clicks a
button and reports what happened; Selenium would be a new dependency for a
dozen HTTP calls, so this speaks the W3C protocol with ``urllib``. Pages' own
errors are caught from the first line of every document: a script injected
through the DevTools protocol records ``window.onerror``, unhandled promise
rejections and ``console.error`` into ``window.hmErrors``.
"""

from __future__ import annotations

import base64
import json
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

CHROMIUM = next(
    (path for name in ("chromium", "chromium-browser") if (path := shutil.which(name))), None
)
CHROMEDRIVER = shutil.which("chromedriver")
MISSING = (
    None
    if CHROMIUM and CHROMEDRIVER
    else "needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)"
)

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


class WebDriverError(RuntimeError):
    """chromedriver answered with an error; the message is its own."""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Browser:
    """One headless Chromium session driven through chromedriver on 127.0.0.1."""

    def __init__(self, profile: Path, width: int = 1200, height: int = 900) -> None:
        self.port = _free_port()
        self.process = subprocess.Popen(
            [CHROMEDRIVER, f"--port={self.port}", "--allowed-ips=127.0.0.1"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.base = f"http://127.0.0.1:{self.port}"
        self._wait_ready()
        args = [
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--hide-scrollbars",
            f"--user-data-dir={profile}",
            f"--window-size={width},{height}",
        ]
        caps = {"browserName": "chrome", "goog:chromeOptions": {"binary": CHROMIUM, "args": args}}
        session = self._call("POST", "/session", {"capabilities": {"alwaysMatch": caps}})
        self.session = f"/session/{session['sessionId']}"
        self.cdp("Page.addScriptToEvaluateOnNewDocument", {"source": CATCH_ERRORS})

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                if self._call("GET", "/status").get("ready"):
                    return
            except (OSError, WebDriverError):
                pass
            time.sleep(0.05)
        raise WebDriverError("chromedriver did not start within 20 s")

    def _call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.base + path, data=data, method=method, headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return json.loads(response.read() or b"{}").get("value")
        except urllib.error.HTTPError as error:
            raise WebDriverError(error.read().decode(errors="replace")[:2000]) from None

    # ------------------------------------------------------------ page work
    def open(self, url: str) -> None:
        self._call("POST", f"{self.session}/url", {"url": url})

    def resize(self, width: int, height: int) -> None:
        self._call("POST", f"{self.session}/window/rect", {"width": width, "height": height})

    def run(self, script: str, *args: Any) -> Any:
        """Run ``script`` (a function body) in the page; its ``return`` value comes back."""
        body = {"script": script, "args": list(args)}
        return self._call("POST", f"{self.session}/execute/sync", body)

    def find(self, css: str) -> list[str]:
        """Element references of every match of a CSS selector."""
        found = self._call(
            "POST", f"{self.session}/elements", {"using": "css selector", "value": css}
        )
        return [next(iter(ref.values())) for ref in found]

    def click(self, element: str) -> None:
        self._call("POST", f"{self.session}/element/{element}/click", {})

    def _metrics(self, width: int, height: int, mobile: bool) -> None:
        params = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile}
        self.cdp("Emulation.setDeviceMetricsOverride", params)

    def cdp(self, command: str, params: dict[str, Any]) -> Any:
        return self._call(
            "POST", f"{self.session}/goog/cdp/execute", {"cmd": command, "params": params}
        )

    def screenshot(self, path: Path, width: int | None = None) -> None:
        """The whole page as a PNG, laid out ``width`` px wide (a phone below 500 px)."""
        width = width or self.run("return window.innerWidth;")
        mobile = width < 500
        self._metrics(width, 900, mobile)
        try:
            height = self.run("return document.documentElement.scrollHeight;")
            self._metrics(width, height, mobile)
            png = self._call("GET", f"{self.session}/screenshot")
        finally:
            self.cdp("Emulation.clearDeviceMetricsOverride", {})
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(png))

    def close(self) -> None:
        try:
            self._call("DELETE", self.session)
        except (OSError, WebDriverError):
            pass
        finally:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
