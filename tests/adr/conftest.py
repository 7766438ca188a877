"""Fixtures for the ADR reading tests: the corpus in data/ and a helper to write records."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import decisis
from decisis.adr.answer import Answer, ask
from decisis.adr.link.ingest import ingest

CORPUS = Path(__file__).resolve().parents[2] / "data" / "adr-corpus"

WriteFn = Callable[[str, "str | bytes"], Path]


@pytest.fixture(scope="session")
def corpus() -> Path:
    assert CORPUS.is_dir(), f"the ADR corpus in data/ is missing at {CORPUS}"
    return CORPUS


@pytest.fixture(scope="module")
def corpus_graph(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[decisis.Graph]:
    """The shared corpus ingested into a SQLite file, once per test module (for tests that
    only ask)."""
    path = tmp_path_factory.mktemp("corpus") / "g.db"
    with decisis.open(f"sqlite:///{path}") as graph:
        ingest(graph, corpus)
        yield graph


@pytest.fixture
def team(tmp_path: Path) -> Path:
    """An empty ADR folder called ``team``: its records get ``team:<number>`` keys."""
    folder = tmp_path / "team"
    folder.mkdir()
    return folder


@pytest.fixture
def write(team: Path) -> WriteFn:
    """Write ``content`` (text, or bytes as they are) to ``team/<name>`` and return the path."""

    def _write(name: str, content: str | bytes) -> Path:
        path = team / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        return path

    return _write


@pytest.fixture
def ask_team(team: Path, tmp_path: Path) -> Callable[..., list[Answer]]:
    """Ingest the ``team`` folder into a new SQLite graph and ask it each question given."""

    def _ask(*questions: str) -> list[Answer]:
        with decisis.open(f"sqlite:///{tmp_path / 'asked.db'}") as graph:
            ingest(graph, team)
            return [ask(graph, question) for question in questions]

    return _ask


def best_start(graph: decisis.Graph, question: str, settings: object | None = None) -> str | None:
    """Where ``question`` starts on ``graph`` (the best start after the checks on its form)."""
    from decisis.adr.answer import DEFAULT_SETTINGS, AnswerSettings, consider
    from decisis.adr.answer.engine import order
    from decisis.adr.link.view import view_of

    chosen = settings if isinstance(settings, AnswerSettings) else DEFAULT_SETTINGS
    ordered = order(consider(graph, view_of(graph), question, chosen), chosen)
    return ordered.ranked[0][0] if ordered.ranked else None
