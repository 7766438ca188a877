"""The audit: its pages through the ledger (in a real Chromium), and verification that
holds up no other request (over real HTTP, on a ledger long enough to take a while)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import decisis
from tests.web.conftest import Site
from tests.web.test_web_guard import _events


def _seqs(page: Any) -> list[int]:
    return [int(s) for s in page.locator("#events tr td:first-child").all_inner_texts()]


def test_the_audit_pages_through_the_ledger(site: Site, page: Any) -> None:
    total = _events(site)
    assert total > 9
    page.goto(site.url + "/audit?limit=3")
    assert "Ledger intact" in page.inner_text("#verdict")
    assert _seqs(page) == [1, 2, 3]
    assert page.inner_text("#showing") == f"Events 1 to 3 of {total}."
    assert page.locator("#earlier").count() == 0
    page.click("#later")
    assert page.url.endswith("/audit?after=3&limit=3") and _seqs(page) == [4, 5, 6]
    page.click("#later")
    assert _seqs(page) == [7, 8, 9]
    page.click("#earlier")
    assert _seqs(page) == [4, 5, 6]
    page.click("#latest")
    assert _seqs(page) == [total - 2, total - 1, total]
    assert page.locator("#later").count() == 0 and page.locator("#latest").count() == 0
    page.click("#earlier")
    assert _seqs(page) == [total - 5, total - 4, total - 3]
    assert page.goto(site.url + f"/audit?after={total}").ok
    assert page.inner_text("#showing") == f"No events after {total}."
    for limit in ("0", "1001"):
        refused = page.goto(site.url + f"/audit?limit={limit}")
        assert refused.status == 422 and "limit" in page.inner_text("#error")


def test_verifying_holds_up_no_other_request(tmp_path: Path) -> None:
    """Verification does not take the site's request lock (every other request waits on
    it): it completes while a request holds the lock, with no timing in the test. And a
    write landing mid-replay is no false alarm: the replay is retried under the lock."""
    from decisis.agent.tools import Toolbox
    from decisis.web.site import Site as WebSite

    with decisis.open(f"sqlite:///{tmp_path / 'long.db'}") as graph:
        for n in range(20):
            graph.record_decision(f"Decision {n}", rationale="A ledger to verify")
        site = WebSite(graph, Toolbox(graph))
        with ThreadPoolExecutor(1) as pool, site.using():  # a request holds the lock ...
            report = pool.submit(site.verify).result(timeout=120)  # ... verify still ends
        assert report.ok and report.events == 20

        real_verify = graph.verify
        calls: list[int] = []

        def verify_while_someone_writes(*, quick: bool = False) -> Any:
            calls.append(1)
            found = real_verify(quick=quick)
            if len(calls) == 1:  # a write lands during the first replay
                graph.record_decision("Landed during the replay")
                return type(found)(False, found.events, None, ["tables moved"], found.checked)
            return found

        graph.verify = verify_while_someone_writes  # type: ignore[method-assign]
        report = site.verify()
        assert report.ok and len(calls) == 2 and report.events == 21
