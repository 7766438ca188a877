from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.stores.helpers import store  # every backend, for the tests that need them all

import decisis

__all__ = ["graph", "store"]


@pytest.fixture(params=["memory", "sqlite"])
def graph(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[decisis.Graph]:
    url = "memory://" if request.param == "memory" else f"sqlite:///{tmp_path / 'g.db'}"
    with decisis.open(url, graph="test") as g:
        yield g
