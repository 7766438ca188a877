"""One ``store`` fixture, parametrised over every backend in ``helpers.BACKENDS``."""

from tests.stores.helpers import store

__all__ = ["store"]
