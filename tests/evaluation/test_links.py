"""Replacement links scored against a truth file: precision, recall, per corpus."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import decisis
from decisis.adr import BelievedLink, believed_links
from decisis.adr.link.ingest import ingest
from decisis.errors import InvalidInput
from decisis.evaluation.links import load_truth, score_links

RECORD = "# {n}. {title}\n\nDate: 2021-0{n}-01\n\n## Status\n\n{status}\n\n## Decision\n\n{text}\n"


def _truth(tmp_path: Path, rows: list[dict[str, object]]) -> Path:
    path = tmp_path / "truth.json"
    path.write_text(json.dumps(rows))
    return path


def test_scores_found_false_and_missed_per_corpus(tmp_path: Path) -> None:
    truth = load_truth(
        [
            _truth(
                tmp_path,
                [
                    {"key": "a:1", "replaced_by": [{"key": "a:2", "kind": "full"}]},
                    {"key": "a:2", "replaced_by": []},
                    {"key": "a:3", "replaced_by": [{"key": "a:4", "kind": "partial"}]},
                    {"key": "a:4", "replaced_by": []},
                    {"key": "b:1", "replaced_by": []},
                ],
            )
        ]
    )
    believed = [
        BelievedLink("a:1", "a:2", 1.0, ("status-line",), False),
        BelievedLink("a:2", "a:3", 0.6, ("same-question",), False),
        BelievedLink("x:1", "x:2", 1.0, ("status-line",), False),  # another corpus: left out
    ]
    report = score_links(believed, truth)
    [a, b] = report.corpora
    assert (a.corpus, len(a.found), len(a.false), len(a.missed)) == ("a", 1, 1, 1)
    assert (a.precision, a.recall) == (0.5, 0.5)
    assert (b.corpus, b.precision, b.recall) == ("b", 1.0, 1.0)
    assert report.pooled.to_dict()["missed"] == ["a:3 -> a:4 (partial, )"]


def test_believed_links_come_from_the_graph(tmp_path: Path) -> None:
    team = tmp_path / "team"
    team.mkdir()
    (team / "0001-use-x.md").write_text(
        RECORD.format(n=1, title="Use X", status="Superseded by [2](0002-use-y.md)", text="X.")
    )
    (team / "0002-use-y.md").write_text(
        RECORD.format(n=2, title="Use Y", status="Accepted", text="We use Y.")
    )
    graph = decisis.open("memory://")
    ingest(graph, team)
    links = believed_links(graph)
    assert [(b.old, b.new, b.belief) for b in links] == [("team:0001", "team:0002", 1.0)]
    assert believed_links(graph, threshold=1.01) == []


@pytest.mark.parametrize(
    ("second_status", "joined"),
    [("Superseded by [3](0003-use-z.md)", True), ("Amended by [3](0003-use-z.md)", False)],
    ids=["full-chain", "partial-breaks-it"],
)
def test_a_chain_of_full_replacements_joins_its_ends(
    tmp_path: Path, second_status: str, joined: bool
) -> None:
    team = tmp_path / "team"
    team.mkdir()
    statuses = ["Superseded by [2](0002-use-y.md)", second_status, "Accepted"]
    for n, (title, status) in enumerate(zip(("Use X", "Use Y", "Use Z"), statuses, strict=True), 1):
        (team / f"000{n}-{title.lower().replace(' ', '-')}.md").write_text(
            RECORD.format(n=n, title=title, status=status, text=f"We use {title[-1]}.")
        )
    graph = decisis.open("memory://")
    ingest(graph, team)
    found = {(b.old, b.new): b for b in believed_links(graph)}
    assert ("team:0002", "team:0003") in found
    assert (("team:0001", "team:0003") in found) is joined
    if joined:
        assert found[("team:0001", "team:0003")].via == "team:0002"
        assert found[("team:0001", "team:0003")].belief == 1.0


def test_bad_truth_files_are_refused_by_name(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="not a list of records"):
        load_truth([_truth(tmp_path, {"key": "a"})])  # type: ignore[arg-type]
    with pytest.raises(InvalidInput, match="a link has no key"):
        load_truth([_truth(tmp_path, [{"key": "a:1", "replaced_by": [{"kind": "full"}]}])])
    with pytest.raises(InvalidInput, match="cannot be read"):
        load_truth([tmp_path / "missing.json"])


def test_the_development_truth_files_hold_the_44_links() -> None:
    data = Path(__file__).resolve().parents[2] / "data"
    files = [*sorted((data / "adr-corpus-truth").glob("*.json"))]
    files += [data / "labels" / name / "truth.json" for name in ("hydra", "mc-review")]
    truth = load_truth(files)
    assert len(truth.links) == 44 and len(truth.keys) == 198
