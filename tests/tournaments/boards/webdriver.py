"""A very small W3C WebDriver client for Debian's ``chromedriver`` (headless Chromium).

Just what the browser tests need (open a page, run a script, click, screenshot),
spoken over plain HTTP with the standard library, so the tests need no Selenium.
Only loopback addresses are contacted: chromedriver listens on 127.0.0.1.
"""

from __future__ import annotations

import base64
import contextlib
import json
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

CHROMIUM = next((p for n in ("chromium", "chromium-browser") if (p := shutil.which(n))), None)
CHROMEDRIVER = shutil.which("chromedriver")
MISSING = (
    None
    if CHROMIUM and CHROMEDRIVER
    else "needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)"
)
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"


class WebDriverError(RuntimeError):
    """chromedriver answered with an error."""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Browser:
    """One headless Chromium session; use as a context manager."""

    def __init__(self, width: int = 1280, height: int = 1000, *, phone: bool = False) -> None:
        """A desktop window of ``width`` px, or with ``phone`` a 390 px wide phone screen.

        A phone is emulated (device metrics): a headless window is never narrower
        than 500 px.
        """
        assert CHROMEDRIVER and CHROMIUM, MISSING
        self.port = _free_port()
        self.process = subprocess.Popen(
            [CHROMEDRIVER, f"--port={self.port}", "--allowed-ips=127.0.0.1"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.base = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 20
        while True:
            try:
                self._call("GET", "/status")
                break
            except (OSError, WebDriverError):
                if time.monotonic() > deadline:
                    self.process.kill()
                    raise
                time.sleep(0.05)
        caps = {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": CHROMIUM,
                "args": [
                    "--headless",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-dev-shm-usage",
                    "--disable-background-networking",
                    "--hide-scrollbars",
                    f"--window-size={width},{height}",
                ],
            },
            "goog:loggingPrefs": {"browser": "ALL"},
        }
        if phone:
            caps["goog:chromeOptions"]["mobileEmulation"] = {
                "deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 1}
            }
        answer = self._call("POST", "/session", {"capabilities": {"alwaysMatch": caps}})
        self.session = f"/session/{answer['sessionId']}"

    # ------------------------------------------------------------ protocol
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

    def cmd(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        return self._call(method, self.session + path, body)

    # ---------------------------------------------------------------- API
    def get(self, url: str) -> None:
        self.cmd("POST", "/url", {"url": url})

    def run(self, script: str, *args: Any) -> Any:
        """Run ``script`` (a function body; ``arguments`` holds args) and return its value."""
        return self.cmd("POST", "/execute/sync", {"script": script, "args": list(args)})

    def find_all(self, css: str) -> list[dict[str, str]]:
        return self.cmd("POST", "/elements", {"using": "css selector", "value": css})

    def click(self, element: dict[str, str]) -> None:
        self.cmd("POST", f"/element/{element[ELEMENT]}/click", {})

    def type(self, element: dict[str, str], text: str) -> None:
        """Type ``text`` into a form field, key by key, as a person would."""
        self.cmd("POST", f"/element/{element[ELEMENT]}/value", {"text": text})

    def resize(self, width: int, height: int) -> None:
        self.cmd("POST", "/window/rect", {"width": width, "height": height})

    def console_errors(self) -> list[str]:
        """SEVERE browser log entries (uncaught errors, failed loads) since the last call."""
        try:
            entries = self.cmd("POST", "/se/log", {"type": "browser"}) or []
        except WebDriverError:
            return []
        return [e["message"] for e in entries if e.get("level") == "SEVERE"]

    def screenshot(self, path: Path) -> Path:
        """Save a PNG of the whole page (beyond the viewport), through the DevTools protocol."""
        width, height = self.run(
            "var d = document.documentElement; return [d.scrollWidth, d.scrollHeight];"
        )
        shot = self.cmd(
            "POST",
            "/goog/cdp/execute",
            {
                "cmd": "Page.captureScreenshot",
                "params": {
                    "format": "png",
                    "captureBeyondViewport": True,
                    "clip": {"x": 0, "y": 0, "width": width, "height": min(height, 8000)}
                    | {"scale": 1},
                },
            },
        )
        path.write_bytes(base64.b64decode(shot["data"]))
        return path

    def close(self) -> None:
        with contextlib.suppress(OSError, WebDriverError):
            self._call("DELETE", self.session)
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
