"""What the pages derive from the graph, in a real Chromium against ``decisis serve``: times
to the second, a node's badge that agrees with ``Graph.current``, audit rows that say which
record each entry is about."""

from __future__ import annotations

import re
from typing import Any

import httpx

import decisis
from tests.web.conftest import Site

SECONDS = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$")


def test_every_page_gives_times_to_the_second_in_utc(site: Site, page: Any) -> None:
    page.goto(site.url + "/")
    recorded = page.locator("#recent tr td:nth-child(3)").all_inner_texts()
    page.goto(f"{site.url}/nodes/{site.jwt}")
    history = page.locator("#history tr td:nth-child(3)").all_inner_texts()
    node_rows = [
        page.inner_text(f"main table tr:has(th:text-is('{name}')) td")
        for name in ("Recorded", "Valid")
    ]
    page.goto(site.url + "/audit")
    audit = page.locator("#events tr td:nth-child(4)").all_inner_texts()
    times = recorded + history + audit + [node_rows[0], *node_rows[1].split(" \u2013 ")]
    assert len(times) > 10
    assert [t for t in times if not SECONDS.match(t.strip())] == []


def test_a_node_page_badge_agrees_with_what_current_says(site: Site, page: Any) -> None:
    """A replacement a rule proposed with enough confidence is believed (``current`` says
    superseded) but leaves the stored status ``active``: the badge says superseded."""
    with decisis.open(f"sqlite:///{site.db}") as graph:
        old = graph.record_decision("Deploy with cron jobs")
        new = graph.record_decision("Deploy with a scheduler service")
        graph.supersede(old.id, new.id, state="candidate", confidence=0.9)
        assert graph.get(old.id).status.value == "active"
        assert graph.current(old.id).superseded
    page.goto(f"{site.url}/nodes/{old.id}")
    assert "Deploy with a scheduler service" in page.inner_text("#superseded")
    assert page.inner_text("#kind .status") == "superseded"
    page.goto(f"{site.url}/nodes/{site.jwt}")  # stored as superseded: said so
    assert page.inner_text("#kind .status") == "superseded"
    page.goto(f"{site.url}/nodes/{new.id}")  # what stands
    assert page.inner_text("#kind .status") == "active"
    assert page.locator("#superseded").count() == 0


def test_audit_rows_name_their_record_by_a_unique_id_and_its_label(site: Site, page: Any) -> None:
    page.goto(site.url + "/audit?limit=1000")
    links = page.locator("#events td.entity a")
    shorts, ids = links.all_inner_texts(), [a.split("/nodes/")[1] for a in _hrefs(links)]
    assert len(ids) > 9
    with decisis.open(f"sqlite:///{site.db}") as graph:
        for short, full in zip(shorts, ids, strict=True):
            assert full.startswith(short) and graph.resolve(short) == full
    assert len(set(zip(shorts, ids, strict=True))) == len(set(ids)) == len(set(shorts))
    cells = page.locator("#events td.entity").all_inner_texts()
    assert any("Use JWT tokens" in c for c in cells)
    assert any("team:001 · Use Jenkins for builds" in c for c in cells)  # an ADR's key
    assert any("leads_to: Ship the payments service → Use JWT tokens" in c for c in cells)


def _hrefs(links: Any) -> list[str]:
    return [str(h) for h in links.evaluate_all("els => els.map(e => e.getAttribute('href'))")]


def test_a_candidate_replacement_is_confirmed_or_rejected_from_the_page(
    site: Site, page: Any
) -> None:
    with decisis.open(f"sqlite:///{site.db}") as graph:
        old = graph.record_decision("Page people by SMS")
        sure = graph.record_decision("Page people through the on-call app")
        doubt = graph.record_decision("Page people by e-mail")
        graph.supersede(old.id, sure.id, state="candidate", confidence=0.3)
        graph.supersede(old.id, doubt.id, state="candidate", confidence=0.2)
    page.goto(f"{site.url}/nodes/{old.id}")
    assert page.inner_text("#kind .status") == "active"  # 0.3 is not believed
    rows = page.locator("#candidates tr:has(td)")
    assert rows.count() == 2
    assert page.locator("#candidates .trust").all_inner_texts() == ["0.30", "0.20"]
    page.click("#candidates tr:has-text('by e-mail') >> text=Reject")
    page.wait_for_url(f"**/nodes/{old.id}")
    assert page.locator("#candidates tr:has(td)").count() == 1
    assert page.inner_text("#kind .status") == "active"
    page.click("#candidates tr:has-text('on-call app') >> text=Confirm")
    page.wait_for_url(f"**/nodes/{old.id}")
    assert page.locator("#candidates").count() == 0
    assert page.inner_text("#kind .status") == "superseded"
    assert "Page people through the on-call app" in page.inner_text("#superseded")
    with decisis.open(f"sqlite:///{site.db}") as graph:
        states = {e.source: e.state.value for e in graph.edges(old.id, types=["supersedes"])}
    assert states == {sure.id: "confirmed", doubt.id: "rejected"}


def test_another_site_cannot_judge_a_candidate(site: Site) -> None:
    with decisis.open(f"sqlite:///{site.db}") as graph:
        old = graph.record_decision("Log to files")
        new = graph.record_decision("Log to the collector")
        graph.supersede(old.id, new.id, state="candidate", confidence=0.3)
        before = graph.store.head(graph.name)
    form = {"old": old.id, "new": new.id, "verdict": "confirmed"}
    with httpx.Client(base_url=site.url) as client:
        for sender in ({"Origin": "http://attacker.example"}, {"Sec-Fetch-Site": "cross-site"}):
            refused = client.post(f"/nodes/{old.id}/judge", data=form, headers=sender)
            assert refused.status_code == 403, refused.text
        wrong = client.post(f"/nodes/{old.id}/judge", data={**form, "verdict": "candidate"})
        assert wrong.status_code == 422 and "verdict" in wrong.text
    with decisis.open(f"sqlite:///{site.db}") as graph:
        assert graph.store.head(graph.name) == before
        assert graph.get(old.id).status.value == "active"
