"""The pages in a real headless Chromium, against ``decisis serve`` over real HTTP."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import Site, tamper


def test_browse_from_the_home_page_to_what_stands_now(site: Site, page: Any) -> None:
    page.goto(site.url + "/")
    assert "Ship the payments service" in page.inner_text("main")
    page.click("#recent >> text=Use JWT tokens")
    assert page.url.endswith(f"/nodes/{site.jwt}")
    assert "Use server sessions" in page.inner_text("#superseded")
    assert "superseded" in page.inner_text("main")
    assert "node.added" in page.inner_text("#history")
    page.click("#superseded >> text=Use server sessions")
    assert page.url.endswith(f"/nodes/{site.sessions}")
    assert page.locator("#superseded").count() == 0


def test_ask_then_correct_from_the_page(site: Site, page: Any) -> None:
    page.goto(site.url + "/")
    page.fill("input[name=q]", "Do we build on a Jenkins server?")
    page.press("input[name=q]", "Enter")
    page.wait_for_url("**/ask?q=*")
    assert "GitHub Actions" in page.inner_text("#answer")
    assert page.inner_text("#standing") == "team:002"
    page.click("#why summary")  # folded until asked for
    why = page.inner_text("#why")
    assert "started at team:001" in why and "team:001 -> team:002: status-line" in why, why
    page.fill("input[name=key]", "team:001")
    page.click("text=Correct")
    page.wait_for_url("**corrected=team%3A001*")
    assert "team:001" in page.inner_text("#corrected")
    assert page.inner_text("#standing") == "team:001"  # the question is asked again
    page.click("nav >> text=Learned")
    links = page.inner_text("#links")
    # a stated replacement is not undone by one question: the link stays stated
    assert "team:001\tteam:002\tstatus-line\tstated" in links
    assert "Superseded by 2" in links  # the evidence the rule read


def test_search_finds_a_decision(site: Site, page: Any) -> None:
    page.goto(site.url + "/search")
    page.fill("input[name=q]", "server sessions")
    page.press("input[name=q]", "Enter")
    page.wait_for_url("**/search?q=*")
    assert "Use server sessions" in page.inner_text("#hits")


def test_search_finds_decisions_by_meaning_and_can_leave_records_out(site: Site, page: Any) -> None:
    page.goto(site.url + "/search")
    assert page.is_checked("input[name=records]")  # a fresh page searches the records too
    page.fill("input[name=q]", "builds on a CI server")
    page.press("input[name=q]", "Enter")
    page.wait_for_url("**/search?q=*")
    assert "Use GitHub Actions" in page.inner_text("#hits")
    page.uncheck("input[name=records]")
    page.click("button[type=submit]")
    page.wait_for_load_state()
    assert not page.is_checked("input[name=records]")
    hits = page.inner_text("#hits")
    assert "Use GitHub Actions" not in hits and "Use JWT tokens" in hits


def test_audit_says_whether_the_ledger_is_intact(site: Site, page: Any) -> None:
    page.goto(site.url + "/audit")
    assert "Ledger intact" in page.inner_text("#verdict")
    assert page.locator("#events tr").count() > 5
    tamper(site.db)
    page.reload()
    verdict = page.inner_text("#verdict")
    assert "NOT intact" in verdict and "event 1" in verdict


def test_markup_in_labels_and_metadata_is_shown_not_run(site: Site, page: Any) -> None:
    page.goto(f"{site.url}/nodes/{site.hostile}")
    assert "<script>window.pwned = 1</script>" in page.inner_text("h1")
    assert "onerror" in page.inner_text("main")
    assert page.evaluate("window.pwned") is None
    assert page.locator("main b").count() == 0


def test_a_bidi_override_in_a_label_is_shown_not_obeyed(site: Site, page: Any) -> None:
    """U+202E would reverse the rest of the line (CVE-2021-42574): pages show it as \\u202e."""
    for path in (f"/nodes/{site.hostile}", "/"):
        page.goto(site.url + path)
        assert "\u202e" not in page.content(), path
        assert "names \\u202edetacilper" in page.inner_text("main"), path


def test_a_missing_node_gets_an_error_page(site: Site, page: Any) -> None:
    response = page.goto(site.url + "/nodes/01ZZZZZZZZZZ")
    assert response.status == 404
    assert "01ZZZZZZZZZZ" in page.inner_text("#error")


def test_a_guarded_server_signs_people_in_and_back_to_their_page(guarded: Site, page: Any) -> None:
    page.goto(guarded.url + "/ask?q=Jenkins")
    assert "/login?next=" in page.url
    page.fill("input[name=token]", "a wrong guess, long enough")
    page.click("button:has-text('Sign in')")
    assert "not this server's token" in page.inner_text("#error")
    page.fill("input[name=token]", guarded.token or "")
    page.click("button:has-text('Sign in')")
    page.wait_for_url("**/ask?q=Jenkins")
    assert "team:" in page.inner_text("#answer")
    page.click("nav >> text=Audit")
    assert page.url.endswith("/audit")


def test_a_node_lists_its_paths_and_a_path_page_lists_what_governs_it(
    site: Site, page: Any
) -> None:
    page.goto(f"{site.url}/nodes/{site.jwt}")
    assert page.inner_text("#affects") == "src/auth/**"
    assert page.inner_text("#commits") == "0" * 40
    page.click("#affects >> text=src/auth/**")
    page.wait_for_url("**/explain?path=*")
    governing = page.inner_text("#governing")
    # the replaced decision gives way to what replaced it, shown with what it replaced
    assert "Use server sessions" in governing and "Use JWT tokens" in governing
    assert page.locator("#governing tr").count() == 2  # the header and one decision
    page.click("nav >> text=Files")
    page.fill("input[name=path]", "src/auth/login.py")
    page.press("input[name=path]", "Enter")
    page.wait_for_url("**/explain?path=src%2Fauth%2Flogin.py")
    assert page.inner_text("#path") == "src/auth/login.py"
    page.click("#governing >> text=Use server sessions")
    assert page.url.endswith(f"/nodes/{site.sessions}")
    page.goto(f"{site.url}/explain?path=README.md")
    assert "No standing decision governs it" in page.inner_text("#none")
