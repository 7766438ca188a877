"""What the pages load comes from the server itself: in a real Chromium whose every request
to anywhere but the server is refused, ``/docs`` still lists the API's operations and a
node's page still draws its neighbourhood."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import httpx

import decisis
from tests.web.conftest import Site


def offline(page: Any) -> list[str]:
    """Refuse every request ``page`` makes to a host other than 127.0.0.1; gives the list
    of what was refused, which grows as the page runs."""
    refused: list[str] = []

    def route(r: Any) -> None:
        if urlsplit(r.request.url).hostname == "127.0.0.1":
            r.continue_()
        else:
            refused.append(r.request.url)
            r.abort()

    page.route("**/*", route)
    return refused


def test_docs_render_the_operations_with_no_network_but_the_server(site: Site, page: Any) -> None:
    refused = offline(page)
    page.goto(site.url + "/docs")
    page.wait_for_selector(".opblock")
    operations = page.locator(".opblock-summary-path").all_inner_texts()
    assert "/api/nodes/{ref}" in [o.replace("\u200b", "") for o in operations]
    assert refused == []  # nothing was even asked of a CDN


def test_the_shipped_assets_are_served_with_their_licences(site: Site) -> None:
    for path in (
        "/static/swagger-ui/swagger-ui-bundle.js",
        "/static/swagger-ui/swagger-ui.css",
        "/static/swagger-ui/LICENSE",
        "/static/cytoscape/cytoscape.min.js",
        "/static/cytoscape/LICENSE",
    ):
        answer = httpx.get(site.url + path)
        assert answer.status_code == 200 and len(answer.content) > 1000, path
    assert httpx.get(site.url + "/redoc").status_code == 404  # ReDoc would need a CDN


def test_a_node_page_draws_its_neighbourhood(site: Site, page: Any) -> None:
    refused = offline(page)
    page.set_viewport_size({"width": 1100, "height": 1400})
    page.goto(f"{site.url}/nodes/{site.jwt}")
    page.wait_for_selector("#graph[data-drawn]")
    cy = "window.decisisGraph"
    assert page.evaluate(f"{cy}.nodes().length") == 3  # itself, its goal, what replaced it
    assert page.evaluate(f"{cy}.edges().length") == 2
    assert page.evaluate(f"{cy}.$id('{site.jwt}').hasClass('status-superseded')")
    assert page.evaluate(f"{cy}.$id('{site.jwt}').hasClass('centre')")
    assert not page.evaluate(f"{cy}.$id('{site.sessions}').hasClass('status-superseded')")
    supersedes = page.evaluate(
        f"{cy}.edges('.supersedes').map(e => [e.source().id(), e.target().id()])"
    )
    assert supersedes == [[site.sessions, site.jwt]]  # from the new node to the old one
    assert page.evaluate(f"{cy}.edges('.supersedes')[0].style('line-style')") == "dashed"
    assert page.evaluate(f"{cy}.$id('{site.jwt}').style('opacity')") == "0.4"
    assert page.evaluate(f"{cy}.$id('{site.sessions}').style('opacity')") == "1"
    page.locator("#graph").screenshot(path="/tmp/web-graph.png")
    assert refused == []


def test_the_picture_follows_the_chain_to_what_stands(site: Site, page: Any) -> None:
    with decisis.open(f"sqlite:///{site.db}") as graph:
        first = graph.record_decision("Store files on an NFS share")
        second = graph.record_decision("Store files in S3")
        third = graph.record_decision("Store files in the object store we run")
        graph.supersede(first.id, second.id)
        graph.supersede(second.id, third.id)
    near = httpx.get(f"{site.url}/api/nodes/{first.id}/neighbourhood").json()
    assert near["centre"] == first.id
    assert [n["id"] for n in near["nodes"]] == [first.id, second.id, third.id]
    assert [n["status"] for n in near["nodes"]] == ["superseded", "superseded", "active"]
    ends = [(e["type"], e["source"], e["target"]) for e in near["edges"]]
    assert sorted(ends) == sorted(
        [("supersedes", second.id, first.id), ("supersedes", third.id, second.id)]
    )
    page.goto(f"{site.url}/nodes/{first.id}")
    page.wait_for_selector("#graph[data-drawn]")
    assert page.evaluate("window.decisisGraph.nodes().length") == 3
    missing = httpx.get(f"{site.url}/api/nodes/01ZZZZZZZZZZ/neighbourhood")
    assert missing.status_code == 404 and missing.json()["error"]["type"] == "NotFound"
