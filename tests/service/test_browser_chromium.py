"""Neo4j Browser in a real headless Chromium (Debian's ``chromium`` + ``chromium-driver``, driven by selenium):
log in to the local Browser, open the guide that a real `gw-neo4j serve` process serves, click the play icons of
the guide's blocks (style, parameters, the walk-from-Cypher statement), then replay the walk from its own guide,
and assert what the page shows: the answer names, the hop captions, and no error frame.

Set ``GW_NEO4J_SCREENSHOTS=docs/img`` to write the screenshots there (they always go to the test's tmp dir).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

import neo4j
from tests.helpers import missing_service
from tests.service.test_shutdown import ServeProcess, fake_service_env

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from graphwalk_neo4j.settings import Settings

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"


@pytest.fixture(autouse=True)
def _chromium_present() -> None:
    if not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)):
        missing_service("needs Debian's chromium and chromium-driver (apt-get install -y chromium chromium-driver)")


QUESTION = "which movies did Christopher Nolan direct"
WAIT_S = 90  # upper bound for the page to react; nothing is timed


@pytest.fixture
def service(neo4j_settings: Settings, movie_graph: str) -> Iterator[int]:
    env = fake_service_env(neo4j_settings, movie_graph)
    server = ServeProcess(env)
    try:
        server.wait_started()
        assert server.port is not None
        yield server.port
    finally:
        server.proc.terminate()
        server.proc.wait(timeout=60)


@pytest.fixture
def chromium(tmp_path: Path) -> Iterator[Any]:
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1600,1000",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={tmp_path / 'profile'}",
    ):
        opts.add_argument(arg)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    try:
        yield driver
    finally:
        driver.quit()


class BrowserPage:
    """The Neo4j Browser page: log in, type commands, click guide blocks, read frames."""

    def __init__(self, driver: Any, settings: Settings, shots: list[Path]) -> None:
        self.d, self.By, self.Keys = driver, By, Keys
        self.wait = WebDriverWait(driver, WAIT_S, poll_frequency=0.25)
        self.settings = settings
        self.shots = shots

    def until(self, check: Callable[[], Any], what: str) -> Any:
        def safe(_: Any) -> Any:
            try:
                return check()
            except StaleElementReferenceException:
                return None

        try:
            return self.wait.until(safe)
        except TimeoutException:
            raise AssertionError(f"the Browser page never showed {what}:\n{self.d.page_source[-3000:]}") from None

    def login(self) -> None:
        host_port = self.settings.uri.split("://", 1)[1]
        self.d.get(
            f"{self.settings.resolved_browser_url()}?dbms=neo4j://{self.settings.user}@{host_port}&db="
            f"{self.settings.database}"
        )
        password = self.until(
            lambda: self.d.find_element(self.By.CSS_SELECTOR, 'input[data-testid="password"]'), "the login form"
        )
        password.send_keys(self.settings.password.get_secret_value())
        password.send_keys(self.Keys.ENTER)
        self.until(
            lambda: "You are connected as user" in self.d.find_element(self.By.TAG_NAME, "body").text,
            "the connected frame",
        )

    def frames(self) -> list[Any]:
        return list(self.d.find_elements(self.By.CSS_SELECTOR, 'article[data-testid="frame"]'))

    def command(self, text: str) -> None:
        editor = self.d.find_element(self.By.CSS_SELECTOR, ".monaco-editor textarea")
        editor.click()
        editor.send_keys(text)
        editor.send_keys(self.Keys.CONTROL, self.Keys.ENTER)

    def guide_blocks(self) -> list[Any]:
        return [b for b in self.d.find_elements(self.By.CSS_SELECTOR, "pre.runnable") if b.is_displayed()]

    def open_guide(self, url: str, first_block: str) -> None:
        self.command(f":guide {url}")
        self.until(lambda: any(b.text.startswith(first_block) for b in self.guide_blocks()), f"the guide {url}")

    def next_slide(self, title: str) -> None:
        self.d.find_element(self.By.XPATH, "//*[normalize-space(text())='Next']").click()
        self.until(
            lambda: self.d.find_elements(self.By.XPATH, f"//h3[normalize-space(text())='{title}']"),
            f"the slide {title!r}",
        )

    def run_block(self, starts_with: str) -> Any:
        """Click the play icon of the visible guide block that starts with ``starts_with``; return its frame once
        the result (or an error) is shown."""
        [block] = [b for b in self.guide_blocks() if b.text.startswith(starts_with)]
        before = len(self.frames())
        block.find_element(self.By.CSS_SELECTOR, "i.fa-play-circle-o").click()

        def done() -> Any:
            frames = self.frames()
            if len(frames) <= before:
                return None
            frame = frames[0]  # newest first
            loaded = frame.find_elements(self.By.CSS_SELECTOR, '[data-testid="frame-loaded-contents"]')
            failed = frame.find_elements(self.By.CSS_SELECTOR, '[data-testid="cypherFrameErrorMessage"]')
            return frame if loaded or failed or starts_with.startswith(":") else None

        return self.until(done, f"the result of {starts_with!r}")

    def shot(self, path: Path) -> None:
        self.d.save_screenshot(str(path))
        self.shots.append(path)

    def errors(self) -> list[str]:
        return [e.text for e in self.d.find_elements(self.By.CSS_SELECTOR, '[data-testid="cypherFrameErrorMessage"]')]


def test_guide_runs_a_walk_and_replays_it_in_neo4j_browser(
    chromium: Any, service: int, movie_graph: str, neo4j_settings: Settings, tmp_path: Path
) -> None:
    shots: list[Path] = []
    page = BrowserPage(chromium, neo4j_settings, shots)
    base = f"http://localhost:{service}"
    page.login()

    page.open_guide(f"{base}/guide?graph={movie_graph}", ":style")
    page.shot(tmp_path / "browser-guide.png")
    page.run_block(":style")
    page.until(lambda: "node.Walk" in page.frames()[0].text, "the loaded style")
    page.run_block(":config autoComplete")

    page.next_slide("Run a walk")
    page.run_block(":params")
    frame = page.run_block("WITH coalesce($service")
    assert page.errors() == []
    with neo4j.GraphDatabase.driver(
        neo4j_settings.uri, auth=(neo4j_settings.user, neo4j_settings.password.get_secret_value())
    ) as driver:
        records, _, _ = driver.execute_query(
            "MATCH (w:Walk {graph: $graph}) RETURN w.id AS id, w.answer_names AS answers, w.question AS question",
            graph=movie_graph,
            database_=neo4j_settings.database,
        )
    [walk] = [r.data() for r in records]  # the one walk the click ran
    assert walk["question"] == QUESTION
    assert walk["answers"]
    shown = frame.text
    for name in walk["answers"]:
        assert name in shown, f"answer {name!r} not shown in the result frame:\n{shown}"
    assert "STARTED_AT (1)" in shown  # the start entity is drawn (its caption may be cut short: "Christo…")
    page.shot(tmp_path / "browser-run-walk.png")

    # the replay: the walk's own guide, one click
    page.open_guide(f"{base}/guide/walk/{walk['id']}", "CALL ()")
    frame = page.run_block("CALL ()")
    shown = frame.text
    assert page.errors() == []
    for name in walk["answers"]:
        assert name in shown, f"answer {name!r} not shown in the replay:\n{shown}"
    assert "←" in shown or "→" in shown, f"no hop caption in the replay:\n{shown}"  # `directed_by ← .50`
    page.shot(tmp_path / "browser-walk.png")

    target = os.environ.get("GW_NEO4J_SCREENSHOTS")
    if target:
        for path in shots:
            shutil.copy(path, Path(target) / path.name)
