"""A real browser on the site: Debian's headless Chromium (scripts/install-browser.sh),
driven through the DevTools protocol, opens every page of the site of a played game of each
kind, served over HTTP as a web server would serve it. No console error, no failed request,
every link and picture resolves; a screenshot of each kind's game page, at a phone's width
and a desk's, is written under the test's output (``tmp_path``) to be looked at.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import itertools
import json
import shutil
import subprocess
import threading
import time
import urllib.request
from base64 import b64decode
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.site.played import KINDS, SiteHarness

websocket = pytest.importorskip("websocket", reason="websocket-client (test dependency)")
CHROMIUM = shutil.which("chromium")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no chromium: scripts/install-browser.sh installs Debian's package"
)
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run",
         "--remote-debugging-port=0", "--remote-allow-origins=*"]  # fmt: skip
SIZES = {"phone": (412, 915, 2.0, True), "desk": (1280, 900, 1.0, False)}


class Tab:
    """One page target over the DevTools protocol: commands with their answers, and the
    events that arrived meanwhile."""

    def __init__(self, url: str):
        self.socket = websocket.create_connection(url, timeout=30, suppress_origin=True)
        self.ids = itertools.count(1)
        self.events: list[dict[str, Any]] = []

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        number = next(self.ids)
        self.socket.send(json.dumps({"id": number, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == number:
                assert "error" not in message, (method, message["error"])
                return dict(message.get("result", {}))
            self.events.append(message)

    def wait_for(self, event: str, seconds: float = 30) -> None:
        deadline = time.monotonic() + seconds
        while not any(e.get("method") == event for e in self.events):
            assert time.monotonic() < deadline, f"no {event}"
            self.events.append(json.loads(self.socket.recv()))

    def close(self) -> None:
        self.socket.close()

    def evaluate(self, expression: str) -> Any:
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return result["result"].get("value")


@contextlib.contextmanager
def serving(root: Path) -> Iterator[str]:
    handler = functools.partial(QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        """The test reports failed requests itself."""


@contextlib.contextmanager
def browser(profile: Path) -> Iterator[Callable[[], Tab]]:
    assert CHROMIUM is not None
    process = subprocess.Popen(
        [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "about:blank"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        port_file = profile / "DevToolsActivePort"
        deadline = time.monotonic() + 60
        while not port_file.exists() or not port_file.read_text().strip():
            assert process.poll() is None, "chromium exited"
            assert time.monotonic() < deadline, "chromium did not open its DevTools port"
            time.sleep(0.1)
        port = port_file.read_text().split()[0]

        tabs: list[Tab] = []

        def new_tab() -> Tab:
            request = urllib.request.Request(f"http://127.0.0.1:{port}/json/new", method="PUT")
            with urllib.request.urlopen(request, timeout=30) as answer:
                tabs.append(Tab(json.load(answer)["webSocketDebuggerUrl"]))
            return tabs[-1]

        try:
            yield new_tab
        finally:
            for tab in tabs:
                tab.close()
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


LINKS = "Array.from(document.querySelectorAll('a[href], link[href]')).map(a => a.href)"
IMAGES = "Array.from(document.images).map(i => [i.src, i.complete && i.naturalWidth > 0, i.alt])"


def is_problem(event: dict[str, Any]) -> bool:
    method, params = event.get("method"), event.get("params", {})
    if method in ("Runtime.exceptionThrown", "Network.loadingFailed"):
        return True
    if method == "Runtime.consoleAPICalled":
        return bool(params["type"] == "error")
    if method == "Log.entryAdded":
        return bool(params["entry"]["level"] == "error")
    if method == "Network.responseReceived":
        return bool(params["response"]["status"] >= 400)
    return False


def visit(tab: Tab, url: str) -> tuple[list[str], list[list[Any]]]:
    """Open ``url``; its links and pictures. Fails on any console error, script exception,
    browser log error or failed request."""
    tab.events.clear()
    tab.call("Page.navigate", url=url)
    tab.wait_for("Page.loadEventFired")
    links = tab.evaluate(LINKS)
    images = tab.evaluate(IMAGES)
    problems = [json.dumps(e["params"])[:300] for e in tab.events if is_problem(e)]
    assert not problems, f"{url}:\n" + "\n".join(problems)
    return links, images


# Prose a reader would have to scroll sideways to read: a paragraph wider than its box, or a
# page wider than the screen (a ``<pre>`` scrolls inside its own box, which is fine for a table).
OVERFLOW = """[
  ...Array.from(document.querySelectorAll('.text p'))
     .filter(p => p.scrollWidth > p.clientWidth + 1).map(p => p.textContent.slice(0, 60)),
  ...(document.documentElement.scrollWidth > window.innerWidth + 1 ? ['the page'] : [])
]"""


def screenshot(tab: Tab, url: str, path: Path, size: tuple[int, int, float, bool]) -> None:
    width, height, scale, mobile = size
    tab.call("Emulation.setDeviceMetricsOverride", width=width, height=height,
             deviceScaleFactor=scale, mobile=mobile)  # fmt: skip
    visit(tab, url)
    data = tab.call("Page.captureScreenshot", format="png", captureBeyondViewport=True)
    path.write_bytes(b64decode(data["data"]))
    wide = tab.evaluate(OVERFLOW)
    tab.call("Emulation.clearDeviceMetricsOverride")
    assert wide == [], f"{url} at {width}px: sideways scrolling for {wide}"


@pytest.mark.parametrize("name", list(KINDS))
def test_every_page_in_a_real_browser(
    played_game: Callable[[str], SiteHarness], name: str, tmp_path: Path
) -> None:
    site = played_game(name).site
    with serving(site) as base, browser(tmp_path / "profile") as new_tab:
        tab = new_tab()
        for domain in ("Page", "Runtime", "Log", "Network"):
            tab.call(f"{domain}.enable")
        pages = [p.relative_to(site).as_posix() for p in sorted(site.rglob("*.html"))]
        seen: set[str] = set()
        for page in pages:
            links, images = visit(tab, base + page)
            for src, loaded, alt in images:
                assert loaded and alt, f"{page}: picture {src} (alt {alt!r})"
            seen.update(link.split("#")[0] for link in links if link.startswith(base))
        for link in sorted(seen - {base + p for p in pages}):  # calendars, feeds, pictures
            with urllib.request.urlopen(link, timeout=30) as answer:
                assert answer.status == 200 and answer.read(), link
        for label, size in SIZES.items():
            shot = tmp_path / f"{name}-{label}.png"
            screenshot(tab, base + "g/index.html", shot, size)
            assert shot.stat().st_size > 5000
        screenshot(tab, base + "index.html", tmp_path / f"{name}-index-phone.png", SIZES["phone"])
