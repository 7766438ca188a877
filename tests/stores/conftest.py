"""One ``store`` fixture, parametrised over every backend in ``helpers.BACKENDS``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from decisis.stores import Store
from tests.stores.helpers import BACKENDS


@pytest.fixture(params=sorted(BACKENDS))
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """A fresh, empty store of each backend; closed after the test."""
    opened = BACKENDS[request.param](tmp_path)
    try:
        yield opened
    finally:
        opened.close()
