"""Make the Neo4j Browser screenshots in docs/img/ (docs/browser.md): the demo's movie graph loaded as graph
``browser_demo``, a real `gw-neo4j serve` with the offline local decider, and headless Chromium clicking through
the guide as tests/service/test_browser_chromium.py does; the graph and its walks are dropped at the end.

Needs the local Neo4j running, Debian's chromium + chromium-driver, and the dev extra (selenium). Run from the repo
root: ``PYTHONPATH=. .venv/bin/python scripts/browser_screenshots.py [OUT_DIR]`` (default docs/img).
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from graphwalk_neo4j.embed.factory import make_embedder
from graphwalk_neo4j.graph.embeddings import embed_graph
from graphwalk_neo4j.graph.ledger import drop_graph
from graphwalk_neo4j.ingest.structured import ingest_file
from graphwalk_neo4j.resources import data_file, metaqa_type_map
from graphwalk_neo4j.schema import apply_schema
from graphwalk_neo4j.settings import Settings
from graphwalk_neo4j.store import GraphStore
from graphwalk_neo4j.stored_walks import list_walks
from tests.service.test_browser_chromium import CHROMEDRIVER, CHROMIUM, BrowserPage
from tests.service.test_shutdown import ROOT, ServeProcess

GRAPH = "browser_demo"
QUESTION = "what genres are the films starring Keanu Reeves"


async def load(settings: Settings) -> None:
    async with GraphStore(settings) as store:
        await apply_schema(store)
        await ingest_file(store, data_file("demo_movies.txt"), graph=GRAPH, source="demo", type_map=metaqa_type_map())
        await embed_graph(store, make_embedder(settings), GRAPH)


async def drop(settings: Settings) -> None:
    async with GraphStore(settings) as store:
        await drop_graph(store, GRAPH)


async def latest_walk(settings: Settings) -> str:
    async with GraphStore(settings) as store:
        [walk] = await list_walks(store, GRAPH, limit=1)
    return walk.id


def collapse_overview(page: BrowserPage) -> None:
    """Fold the result frame's overview panel away so the picture gets the width."""
    for button in page.d.find_elements(page.By.CSS_SELECTOR, '[data-testid="vizInspector"] button'):
        if button.is_displayed():
            button.click()
            return


def main(out: Path) -> None:
    settings = Settings()
    asyncio.run(load(settings))
    server = ServeProcess(
        {**os.environ, "PYTHONPATH": str(ROOT), "GW_NEO4J_MODEL": "local", "GW_NEO4J_SERVICE_GRAPHS": GRAPH}
    )
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
    ):
        opts.add_argument(arg)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    try:
        server.wait_started()
        base = f"http://localhost:{server.port}"
        page = BrowserPage(driver, settings, [])
        page.login()
        page.open_guide(f"{base}/guide?graph={GRAPH}", ":style")
        page.run_block(":style")
        page.run_block(":config autoComplete")
        page.shot(out / "browser-guide.png")
        page.next_slide("Run a walk")
        page.command(
            f":params {{question: '{QUESTION}', graph: '{GRAPH}', preset: 'relation', "
            f"service: 'http://127.0.0.1:{server.port}'}}"
        )
        frame = page.run_block("CALL apoc.load.jsonParams")
        collapse_overview(page)
        page.shot(out / "browser-run-walk.png")
        assert "Keanu" in frame.text, frame.text
        walk_id = asyncio.run(latest_walk(settings))
        page.open_guide(f"{base}/guide/walk/{walk_id}", "CALL ()")
        page.run_block("CALL ()")
        collapse_overview(page)
        page.shot(out / "browser-walk.png")
        page.next_slide("What it did not take")
        page.run_block("CALL ()")
        collapse_overview(page)
        page.shot(out / "browser-walk-options.png")
        assert page.errors() == [], page.errors()
        print("\n".join(str(p) for p in page.shots))
    finally:
        driver.quit()
        server.proc.terminate()
        server.proc.wait(timeout=60)
        asyncio.run(drop(settings))  # the graph and its walks: nothing is left behind


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/img"))
