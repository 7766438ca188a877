"""The development data in ``data/`` is the unchanged copy that ``data/SHA256SUMS`` lists."""

from __future__ import annotations

import hashlib
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "data"


def _listed() -> dict[str, str]:
    lines = (DATA / "SHA256SUMS").read_text(encoding="utf-8").splitlines()
    return {name: digest for digest, name in (line.split("  ", 1) for line in lines)}


def test_every_listed_file_is_present_and_unchanged() -> None:
    listed = _listed()
    assert len(listed) > 200
    changed = [
        name
        for name, digest in listed.items()
        if hashlib.sha256((DATA / name).read_bytes()).hexdigest() != digest
    ]
    assert changed == []


def test_nothing_unlisted_but_the_provenance_note() -> None:
    present = {p.relative_to(DATA).as_posix() for p in DATA.rglob("*") if p.is_file()}
    assert present - set(_listed()) == {"SHA256SUMS", "PROVENANCE.md"}


def test_every_corpus_keeps_its_licence() -> None:
    folders = [
        "adr-corpus/cloud-platform",
        "adr-corpus/modernisation-platform",
        "adr-corpus/govuk-aws",
        "corpora/hydra",
        "corpora/mc-review",
    ]
    for folder in folders:
        assert any((DATA / folder).glob("LICEN[CS]E*")), folder
