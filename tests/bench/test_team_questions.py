"""``bench/team_questions.py``: the questions a store of one team's records can be asked."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"


def test_each_team_gets_its_own_answerable_questions_and_every_out_of_scope_one(
    tmp_path: Path,
) -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH / "team_questions.py"), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    written = {p.stem: p for p in tmp_path.glob("*.jsonl")}
    assert set(written) == {"cloud-platform", "govuk-aws", "modernisation-platform"}
    out_of_scope = set()
    for team, path in written.items():
        questions = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        assert any(q["expected"] for q in questions)
        for q in questions:
            if q["expected"] is None:
                out_of_scope.add((team, q["id"]))
            else:
                assert all(k.startswith(f"{team}:") for k in [q["expected"], *q["acceptable"]])
    assert len({qid for _, qid in out_of_scope}) * 3 == len(out_of_scope)  # in every team's
