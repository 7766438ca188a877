"""``replaces-use-of``: "This replaces usage of kOps" replaces, in part, the one earlier
record that used kOps (``decisis.adr.link.rules.used``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.adr.rule_records import WriteFn, proposed, record

_USES_KOPS = "Live-1 is built using kops. Kubernetes 1.11 is the latest kops allows."


@pytest.mark.parametrize(
    ("sentence", "second_user", "expected"),
    [
        ("Use EKS for the main cluster. This replaces usage of kOps.", False, [True]),
        (  # the functionality something gave: what gave it is replaced
            "We use Gatekeeper to replace the functionality previously provided by our kops setup.",
            False,
            [True],
        ),
        ("Use EKS for the main cluster. It is better than kOps.", False, []),  # no replacement
        (  # two earlier records use kOps: which one gives way is not told
            "Use EKS for the main cluster. This replaces usage of kOps.",
            True,
            [],
        ),
    ],
    ids=["usage-of", "previously-provided", "compared", "two-users"],
)
def test_replacing_the_use_of_what_one_earlier_record_used(
    write: WriteFn, team: Path, sentence: str, second_user: bool, expected: list[bool]
) -> None:
    write("001-ci.md", record(1, "Use a CI", "2018-01-01", "We run builds in a CI."))
    write("002-live-1.md", record(2, "Move to live-1", "2019-02-28", _USES_KOPS))
    if second_user:
        write("003-upgrades.md", record(3, "Upgrades", "2019-06-01", _USES_KOPS))
    # a record telling that kOps went (in a sentence saying so) does not use it
    gone = "We decommissioned the old kOps cluster. The kOps cluster was retired in April."
    write("004-history.md", record(4, "History", "2019-09-01", gone))
    write("005-eks.md", record(5, "EKS", "2020-01-01", sentence))
    found = proposed(team, "replaces-use-of")
    assert [p for _, _, p in found] == expected
    assert all(old == "team:002" and new == "team:005" for old, new, _ in found)


def test_the_link_speaks_only_for_a_question_naming_what_was_used(
    tmp_path: Path, write: WriteFn, team: Path
) -> None:
    """The EKS record took over the kOps part of the live-1 record, not the rest: however
    well the EKS record's words match a question, the walk takes the link only for a
    question naming kOps (the corpus case: ``test_adr_answer``'s moj-cp account question)."""
    import decisis
    from decisis.adr.answer.walk import walk
    from decisis.adr.link.ingest import ingest
    from decisis.adr.link.view import view_of

    write("002-live-1.md", record(2, "Move to live-1", "2019-02-28", _USES_KOPS))
    eks = "Use EKS for the main cluster. This replaces usage of kOps."
    write("005-eks.md", record(5, "EKS", "2020-01-01", eks))
    with decisis.open(f"sqlite:///{tmp_path / 'k.db'}") as g:
        ingest(g, team)
        view = view_of(g)
        [link] = view.links
        assert link.metadata["for_named"] is True
        matched = {"team:002": 1.0, "team:005": 1.0}  # the newer record matches as well
        assert walk(view, "team:002", matched, meaning=matched).chain == ["team:002"]
        named = walk(view, "team:002", matched, asked={"kop", "live-1"})
        assert named.chain == ["team:002", "team:005"]
        # asked about the live-1 record as a whole, the EKS record is listed as a part
        assert walk(view, "team:002", {}, whole=True).parts == ["team:005"]
