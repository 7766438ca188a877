"""Generated requests against ``decisis serve`` over real HTTP, from its own OpenAPI document.

Schemathesis makes requests the document says are valid, for every operation, and checks
each answer: no server error, the status codes and response bodies the document lists
(``decisis.forms``), and no valid request refused. What it found before this test
existed: an offset pushing ``/api/at``'s time before year 1 was a 500, years before 1000 were
written with three digits (not ISO 8601), and the document let through node types, ids and
times the API then refused.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings

from tests.web.conftest import Site, serve

# Enough to find what is above, few enough for the suite (about 10 s), and the same
# requests every run (CI must not pass or fail by luck); DECISIS_FUZZ_EXAMPLES=500 searches
# longer, with new requests each time.
SEARCH = os.environ.get("DECISIS_FUZZ_EXAMPLES")
EXAMPLES = int(SEARCH or "40")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    yield from serve(tmp_path_factory.mktemp("fuzz"), None)


@pytest.fixture(scope="module")
def schema(served: Site) -> schemathesis.BaseSchema:
    return schemathesis.openapi.from_url(f"{served.url}/openapi.json")


def _operations() -> list[str]:
    """The operations the API has: listed here so that each is a test of its own, and so
    that one the document gains without a line here fails ``test_every_operation_is_fuzzed``."""
    return [
        "GET /api/nodes",
        "GET /api/nodes/{ref}",
        "GET /api/nodes/{ref}/neighbourhood",
        "GET /api/edges/{ref}",
        "GET /api/goals",
        "GET /api/recent",
        "GET /api/current/{ref}",
        "GET /api/why/{ref}",
        "GET /api/impact/{ref}",
        "GET /api/path",
        "GET /api/search",
        "GET /api/precedents",
        "GET /api/explain",
        "GET /api/at",
        "GET /api/ledger",
        "GET /api/verify",
        "POST /api/ask",
        "POST /api/corrections",
        "GET /api/learned",
        "GET /api/tools",
        "POST /api/tools/{name}",
    ]


def test_every_operation_is_fuzzed(schema: schemathesis.BaseSchema) -> None:
    listed = {result.ok().label for result in schema.get_all_operations()}
    assert listed == set(_operations())


@pytest.mark.parametrize("label", _operations())
def test_generated_requests_get_documented_answers(
    label: str, served: Site, schema: schemathesis.BaseSchema
) -> None:
    method, path = label.split(" ", 1)
    operation = schema[path][method]

    @given(case=operation.as_strategy())
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        derandomize=not SEARCH,
        suppress_health_check=list(HealthCheck),
    )
    def check(case: schemathesis.Case) -> None:
        case.call_and_validate(base_url=served.url)

    check()


def test_the_store_is_whole_after_the_requests(served: Site, tmp_path: Path) -> None:
    """Whatever the generated calls wrote (corrections, tools), the ledger still verifies."""
    import httpx

    report = httpx.get(f"{served.url}/api/verify", timeout=30)
    assert report.status_code == 200 and report.json()["ok"] is True, report.text
