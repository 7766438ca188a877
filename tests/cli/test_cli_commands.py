"""The commands on a real SQLite file: round trips, JSON forms, trees, time travel, demo."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_support import ENV, Cli
from typer.testing import CliRunner

import decisis
from decisis.cli.app import app


def test_init_creates_the_store_here_and_is_found_from_below(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    first = runner.invoke(app, ["init"], env=ENV)
    assert first.exit_code == 0, first.output
    assert (tmp_path / ".decisis" / "decisis.db").is_file()
    assert str(tmp_path / ".decisis" / "decisis.db") in first.stdout
    again = runner.invoke(app, ["--json", "init"], env=ENV)
    assert again.exit_code == 0
    assert '"created": false' in again.stdout
    below = tmp_path / "src" / "deep"
    below.mkdir(parents=True)
    monkeypatch.chdir(below)
    added = runner.invoke(app, ["add", "goal", "Found from below"], env=ENV)
    assert added.exit_code == 0, added.output
    with decisis.open(f"sqlite:///{tmp_path / '.decisis' / 'decisis.db'}") as graph:
        assert [n.label for n in graph.active_goals()] == ["Found from below"]


def test_without_a_store_the_error_says_to_run_init(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["goals"], env=ENV)
    assert result.exit_code == 2
    assert "decisis init" in result.stderr and "--store" in result.stderr
    assert not (tmp_path / ".decisis").exists()


def test_add_supersede_current_round_trip(cli: Cli, story: dict[str, str]) -> None:
    standing = cli.json("current", story["first"])
    assert standing["superseded"] is True
    assert [n["id"] for n in standing["standing"]] == [story["second"]]
    assert [[n["id"] for n in chain] for chain in standing["chains"]] == [
        [story["first"], story["second"]]
    ]
    text = cli("current", story["first"]).stdout
    assert "Use JWT tokens (superseded " in text
    assert "-> " in text and "Use server sessions (stands)" in text
    assert "never superseded" in cli("current", story["second"]).stdout


def test_current_believes_a_rule_s_guess_only_from_believe_up(cli: Cli) -> None:
    with decisis.open(cli.store) as graph:
        old, guess = graph.record_decision("Old way"), graph.record_decision("Guessed successor")
        graph.supersede(old.id, guess.id, state="candidate", confidence=0.3)
    assert cli.json("current", old.id)["superseded"] is False
    believed = cli.json("current", old.id, "--believe", "0.25")
    assert [n["id"] for n in believed["standing"]] == [guess.id]
    bad = cli.json("current", old.id, "--believe", "1.5", code=2)
    assert bad["error"]["field"] == "believe" and "1.0" in bad["error"]["allowed"]


def test_add_prints_the_node_as_json(cli: Cli) -> None:
    node = cli.json(
        "add", "goal", "Ship v1", "--confidence", "0.5", "--metadata", '{"pr": 42}', "--agent", "a1"
    )
    assert node["type"] == "goal" and node["label"] == "Ship v1"
    assert node["confidence"] == 0.5 and node["metadata"] == {"pr": 42} and node["agent"] == "a1"
    assert set(node) >= {"id", "status", "recorded_at", "valid_from", "rationale"}


def test_decision_with_options_records_chosen_and_rejected(cli: Cli, story: dict[str, str]) -> None:
    shown = cli.json("show", story["first"])
    kinds = sorted(edge["type"] for edge in shown["out"])
    assert kinds == ["chosen", "leads_to", "rejected"]
    assert [edge["type"] for edge in shown["in"]] == ["leads_to", "supersedes"]
    assert [event["kind"] for event in shown["history"]] == ["node.added", "superseded"]


def test_every_read_verb_prints_json(cli: Cli, story: dict[str, str]) -> None:
    goal, first, outcome = story["goal"], story["first"], story["outcome"]
    why = cli.json("why", outcome)
    assert {r["node"]["id"] for r in why} >= {first, goal}
    assert set(why[0]) == {"node", "depth", "via", "edge_type"}
    assert why[0] == {"node": why[0]["node"], "depth": 1, "via": outcome, "edge_type": "leads_to"}
    assert outcome in {r["node"]["id"] for r in cli.json("impact", goal)}
    assert outcome in {r["node"]["id"] for r in cli.json("descendants", goal, "--depth", "2")}
    only = cli.json("ancestors", outcome, "--edge-type", "leads_to", "--depth", "1")
    assert [r["node"]["id"] for r in only] == [first]
    assert [n["id"] for n in cli.json("path", goal, outcome)] == [goal, first, outcome]
    assert cli.json("path", outcome, goal) == []
    recent = cli.json("recent", "--limit", "1")
    assert [n["id"] for n in recent] == [story["second"]]
    assert any(hit["node"]["id"] == first for hit in cli.json("search", "JWT"))
    assert cli.json("graphs") == ["default"]
    log = cli.json("log", "--limit", "3")
    assert [e["seq"] for e in log] == [
        cli.event_count() - 2,
        cli.event_count() - 1,
        cli.event_count(),
    ]


def test_goals_tree_labels_chosen_and_rejected_edges(cli: Cli) -> None:
    goal = cli.add("goal", "Pick a database")
    cli.add("option", "PostgreSQL", "--parent", goal, "--edge-type", "chosen")
    cli.add("option", "MongoDB", "--parent", goal, "--edge-type", "rejected")
    cli.add("action", "Write the schema", "--parent", goal, "--status", "completed")
    text = cli("goals").stdout
    assert "Pick a database" in text
    assert "[chosen]" in text and "PostgreSQL" in text
    assert "[rejected]" in text and "MongoDB" in text
    assert "[completed]" in text and "Write the schema" in text
    trees = cli.json("goals")
    assert [c["edge"]["type"] for c in trees[0]["children"]] == ["chosen", "rejected", "leads_to"]


def test_ids_print_short_and_short_prefixes_are_accepted(cli: Cli, story: dict[str, str]) -> None:
    goal = story["goal"]
    with decisis.open(cli.store) as graph:
        short = graph.short_ids([goal])[goal]
    assert len(short) < len(goal)
    assert f"{short} goal: Implement auth" in cli("goals").stdout
    assert cli.json("show", short)["node"]["id"] == goal
    assert cli.json("show", short.upper())["node"]["id"] == goal


def test_ambiguous_and_unknown_prefixes_are_clear_errors(cli: Cli, story: dict[str, str]) -> None:
    ambiguous = cli("show", story["goal"][:2])
    assert ambiguous.exit_code == 2
    assert "ambiguous" in ambiguous.stderr and "type more characters" in ambiguous.stderr
    error = cli.json("show", story["goal"][:2], code=2)["error"]
    assert error["type"] == "AmbiguousId" and story["goal"] in error["allowed"]
    unknown = cli("show", "zzzzzz")
    assert unknown.exit_code == 2 and "no node or edge 'zzzzzz'" in unknown.stderr
    assert cli.json("why", "zzzzzz", code=2)["error"]["type"] == "NotFound"


def test_update_and_tombstone(cli: Cli, story: dict[str, str]) -> None:
    updated = cli.json(
        "update", story["second"], "--label", "Use Redis sessions", "--confidence", "1"
    )
    assert updated["label"] == "Use Redis sessions" and updated["confidence"] == 1.0
    done = cli.json("tombstone", story["outcome"], "--reason", "recorded by mistake")
    assert done == {"tombstoned": story["outcome"], "reason": "recorded by mistake"}
    assert story["outcome"] not in {r["node"]["id"] for r in cli.json("impact", story["goal"])}
    assert cli.json("verify")["ok"] is True


def test_link_joins_two_nodes(cli: Cli, story: dict[str, str]) -> None:
    edge = cli.json(
        "link", story["outcome"], story["second"], "influenced", "--rationale", "lesson"
    )
    assert edge["type"] == "influenced" and edge["source"] == story["outcome"]
    assert "-enables->" in cli("link", story["goal"], story["outcome"], "enables").stdout


def test_at_shows_the_graph_as_it_stood(cli: Cli, story: dict[str, str]) -> None:
    past = cli.json("at", "2000-01-01")
    assert past["as_of"].startswith("2000-01-01T00:00:00") and past["goals"] == []
    now = cli.json("at", "2999-01-01T12:00Z")
    assert [tree["goal"]["id"] for tree in now["goals"]] == [story["goal"]]
    assert story["second"] in {n["id"] for n in now["recent"]}
    listed = cli.json("at", "2999-01-01", "--nodes")
    assert story["goal"] in {n["id"] for n in listed["nodes"]}
    text = cli("at", "2999-01-01").stdout
    assert "as of 2999-01-01 00:00:00 UTC" in text and "Implement auth" in text


def test_times_before_the_year_1000_print_with_four_digits(cli: Cli) -> None:
    goal = cli.add("goal", "Keep the Roman roads")
    assert cli("update", goal, "--valid-from", "0503-01-01").exit_code == 0
    assert "0503-01-01 00:00" in cli("show", goal).stdout  # strftime wrote "503-01-01"
    assert cli.json("show", goal)["node"]["valid_from"] == "0503-01-01T00:00:00.000000Z"


def test_memory_store_and_named_graphs(cli: Cli, runner: CliRunner) -> None:
    result = runner.invoke(app, ["--store", "memory://", "--json", "add", "goal", "x"], env=ENV)
    assert result.exit_code == 0, result.output
    cli.add("goal", "in a", graph="a")
    cli.add("goal", "in b", graph="b")
    assert cli.json("graphs") == ["a", "b"]
    assert [t["goal"]["label"] for t in cli.json("goals", graph="b")] == ["in b"]


def test_demo_runs_twice_on_its_own_file(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    passing = runner.invoke(app, ["demo"], env=ENV)
    assert passing.exit_code == 0, passing.output
    assert list(tmp_path.iterdir()) == []  # nothing left behind unless asked
    assert "Nothing was kept" in passing.stdout and "ok: ledger intact" in passing.stdout
    first = runner.invoke(app, ["demo", "--keep", "."], env=ENV)
    assert first.exit_code == 0, first.output
    assert (tmp_path / "decisis-demo.db").is_file()
    for expected in ("Authenticate users", "(stands)", "ok: ledger intact", "graph 'demo'"):
        assert expected in first.stdout
    # the team's example records, copied beside the store, ingested and asked
    assert sorted(p.name for p in (tmp_path / "decisis-demo-adrs" / "payments").iterdir())[0] == (
        "0001-use-jenkins-for-ci.md"
    )
    for expected in ("6 added", "chain: payments:0001 -> payments:0004", "No decision on record"):
        assert expected in first.stdout
    second = runner.invoke(app, ["--json", "demo", "--keep", "."], env=ENV)
    assert second.exit_code == 0, second.output
    data: dict[str, Any] = json.loads(second.stdout)
    assert data["graph"] == "demo-2" and data["verify"]["ok"] is True
    assert data["current"]["superseded"] is True and data["why"]
    assert [n["label"] for n in data["recent"]] == [
        "Use server-side sessions in Redis",
        "Use JWT access tokens",
    ]  # the story's decisions, read before the records were ingested
    answers = [a["answer"] for a in data["adrs"]["answers"]]
    assert answers == ["payments:0004", "payments:0005", None]
    assert data["adrs"]["ingest"]["added"]  # a fresh graph: the records are new to it


def test_json_flag_may_follow_the_command(cli: Cli, story: dict[str, str]) -> None:
    result = cli("goals", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)[0]["goal"]["id"] == story["goal"]
    label = cli("--json", "add", "goal", "--", "--json")
    assert label.exit_code == 0 and '"label": "--json"' in label.stdout


def test_log_prints_rule_entities_whole(cli: Cli, tmp_path: Path) -> None:
    team = tmp_path / "team"
    team.mkdir()
    (team / "001-use-jenkins.md").write_text(
        "# 1. Use Jenkins for builds\n\nDate: 2019-01-01\n\n## Status\n\n"
        "Superseded by [2](002-use-github-actions.md)\n\n## Decision\n\nWe run Jenkins.\n"
    )
    (team / "002-use-github-actions.md").write_text(
        "# 2. Use GitHub Actions for builds\n\nDate: 2023-05-01\n\n## Status\n\nAccepted\n\n"
        "## Decision\n\nBuilds run on GitHub Actions.\n"
    )
    assert cli("ingest", str(team)).exit_code == 0
    assert cli("correct", "Do we run builds on Jenkins?", "team:002").exit_code == 0
    entities = [e["entity"] for e in cli.json("log", "--limit", "5")]
    rules = [e for e in entities if e.startswith("rule:")]
    assert rules, entities
    printed = cli("log", "--limit", "5").stdout
    assert all(rule in printed for rule in rules), printed


def _jenkins_then_actions(tmp_path: Path) -> Path:
    """A folder ``team`` of two records: 002 (GitHub Actions) replaces 001 (Jenkins)."""
    team = tmp_path / "team"
    team.mkdir()
    (team / "001-use-jenkins.md").write_text(
        "# 1. Use Jenkins for builds\n\nDate: 2019-01-01\n\n## Status\n\nSuperseded by "
        "[2](002-use-github-actions.md)\n\n## Decision\n\nWe run every build on Jenkins.\n",
        encoding="utf-8",
    )
    (team / "002-use-github-actions.md").write_text(
        "# 2. Use GitHub Actions\n\nDate: 2023-05-01\n\n## Status\n\nAccepted\n\n"
        "## Decision\n\nBuilds run as GitHub Actions workflows on hosted runners.\n",
        encoding="utf-8",
    )
    return team


def test_eval_lists_what_decisis_missed(cli: Cli, tmp_path: Path) -> None:
    team = _jenkins_then_actions(tmp_path)
    questions = tmp_path / "q.jsonl"
    rows = [
        {
            "id": "a",
            "question": "Do we still run our builds on Jenkins?",
            "expected": "team:002",
            "outdated": ["team:001"],
            "kind": "chain",
        },
        {
            "id": "b",
            "question": "Which builds run on Jenkins?",
            "expected": "team:001",
            "kind": "stable",
        },  # scored against what stands: decisis answers team:002
    ]
    questions.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    report = cli.json("eval", str(questions), "--corpus", str(team), "--orders", "2", "--misses")
    by_system = {s["system"]: s for s in report["systems"]}
    assert by_system["decisis"]["right_by_kind"]["chain"] == {"rate": 1.0, "n": 2}
    assert report["misses"]["decisis"] == [
        {"question": "b", "missed": 2, "orders": 2, "answered": {"team:002": 2}}
    ]
    table = cli("eval", str(questions), "--corpus", str(team), "--orders", "1", "--misses")
    assert table.exit_code == 0, table.output
    assert "right, by kind" in table.stdout and "b  1/1  team:002 x1" in table.stdout


def test_ask_why_says_where_the_answer_started_and_which_links_it_took(
    cli: Cli, tmp_path: Path
) -> None:
    team = _jenkins_then_actions(tmp_path)
    assert cli("ingest", str(team)).exit_code == 0
    question = "Do we still run our builds on Jenkins?"
    plain = cli("ask", question).stdout
    assert "why:" not in plain
    lines = cli("ask", question, "--why").stdout.splitlines()
    assert lines[: len(plain.splitlines())] == plain.splitlines()
    why = lines[len(plain.splitlines()) :]
    assert why[0].startswith("why: started at team:001 (its words #1"), why
    assert "of the question's distinctive words" in why[0]
    assert why[1:] == ["  team:001 -> team:002: status-line"]
    evidence = cli.json("ask", question)["evidence"]
    assert evidence["start"] == "team:001" and evidence["votes"]["terms"] == 1
    assert 0.0 < evidence["coverage"] <= 1.0 and "cosine" in evidence
    nothing = cli("ask", "What is the dress code for the summer party?", "--why").stdout
    # an abstention says where it would have started, and how unlikely that was to answer
    assert nothing.startswith("No decision on record") and "answers it with probability" in nothing


def test_ingest_of_a_folder_without_records_says_what_it_reads(cli: Cli, tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "notes.txt").write_text("Decided to use Jenkins.\n")
    result = cli("ingest", str(folder))
    assert result.exit_code == 0, result.output
    assert "0 added" in result.stdout
    assert f"no ADR files in {folder}" in result.stderr and ".md" in result.stderr


def test_learned_shows_partial_links_and_what_a_link_replaced(cli: Cli, tmp_path: Path) -> None:
    team = tmp_path / "team"
    team.mkdir()
    records = {
        "001-network.md": ("Network layout", "2019-01-01", "Subnets and address ranges."),
        "002-ranges.md": (
            "New ranges",
            "2020-01-01",
            "This in part supersedes [1](001-network.md).",
        ),
        "003-use-jenkins.md": ("Use Jenkins", "2019-02-01", "Jenkins runs every build."),
        "004-hosted.md": ("Hosted runners", "2021-01-01", "We will decommission our Jenkins."),
    }
    for n, (name, (title, date, decision)) in enumerate(records.items(), 1):
        head = f"# {n}. {title}\n\nDate: {date}\n\n## Status\n\nAccepted\n\n"
        (team / name).write_text(f"{head}## Decision\n\n{decision}\n", encoding="utf-8")
    assert cli("ingest", str(team)).exit_code == 0
    lines = cli("learned").stdout.splitlines()
    assert any(x.startswith("team:001 -> team:002 (in part)  stated-in-text") for x in lines), lines
    assert any(
        x.startswith("team:003 -> team:004  names-replaced") and x.endswith("replaces: Jenkins")
        for x in lines
    ), lines
    links = {(x["old"], x["new"], x["rule"]): x for x in cli.json("learned")["links"]}
    assert links[("team:003", "team:004", "names-replaced")]["named"] == ["jenkin"]
    assert links[("team:001", "team:002", "stated-in-text")]["partial"] is True


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (None, "cannot be read (No such file or directory)"),
        (b"\xff\xfe not text", "cannot be read ('utf-8' codec"),
        (b"\n\n", "holds no question"),
        (b'{"question": "Which CI?"}\nnot json\n', "q.jsonl:2: Expecting value"),
        (b'{"question": "Which CI?", "acceptable": "team:002"}\n', "acceptable is 'team:002'"),
        (b'{"question": "  ", "expected": "team:002"}\n', "question is '  '"),
        (b'{"question": "Which CI?", "expected": 2}\n', "expected is 2"),
        (b'["Which CI?"]\n', "not a question object"),
    ],
)
def test_eval_refuses_a_question_file_it_cannot_use(
    cli: Cli, tmp_path: Path, content: bytes | None, said: str
) -> None:
    """One line on stderr, exit code 2, before any store is built: a list of keys written as
    one string would otherwise be read as its characters."""
    questions = tmp_path / "q.jsonl"
    if content is not None:
        questions.write_bytes(content)
    result = cli("eval", str(questions), "--corpus", str(_jenkins_then_actions(tmp_path)))
    assert result.exit_code == 2, result.output
    assert said in result.stderr and "Traceback" not in result.output


def test_eval_refuses_fewer_than_one_order(cli: Cli, tmp_path: Path) -> None:
    questions = tmp_path / "q.jsonl"
    questions.write_text('{"question": "Which CI?", "expected": "team:002"}\n', encoding="utf-8")
    team = _jenkins_then_actions(tmp_path)
    result = cli("eval", str(questions), "--corpus", str(team), "--orders", "0")
    assert result.exit_code == 2 and "orders: 0 is not a positive whole number" in result.stderr


def test_eval_links_scores_the_believed_replacements(cli: Cli, tmp_path: Path) -> None:
    team = _jenkins_then_actions(tmp_path)
    truth = tmp_path / "truth.json"
    truth.write_text(
        json.dumps(
            [
                {"key": "team:001", "replaced_by": [{"key": "team:002", "kind": "full"}]},
                {"key": "team:002", "replaced_by": []},
            ]
        )
    )
    report = cli.json("eval", "--corpus", str(team), "--links", str(truth))
    [counts] = report["links"]["corpora"]
    assert (counts["corpus"], counts["true"]) == ("team", 1)
    assert counts["found"] == ["team:001 -> team:002 (full)"]
    table = cli("eval", "--corpus", str(team), "--links", str(truth))
    assert table.exit_code == 0 and "replacement links" in table.stdout


def test_eval_with_nothing_to_score_says_what_it_needs(cli: Cli, tmp_path: Path) -> None:
    result = cli("eval", "--corpus", str(_jenkins_then_actions(tmp_path)))
    assert result.exit_code == 2 and "nothing to score" in result.stderr


def test_judge_confirms_and_rejects_a_proposed_replacement(cli: Cli) -> None:
    old, new = cli.add("decision", "Run builds on Jenkins"), cli.add("decision", "Use Actions")
    with decisis.open(cli.store) as graph:
        graph.supersede(old, new, state="candidate", confidence=0.3)
    assert cli.json("show", old)["node"]["status"] == "active"  # a proposal retires nothing
    confirmed = cli("judge", old, new, "--confirm")
    assert confirmed.exit_code == 0, confirmed.output
    assert "confirmed that" in confirmed.stdout and "is superseded" in confirmed.stdout
    assert cli.json("current", old)["superseded"] is True
    rejected = cli.json("judge", old, new, "--reject", "--rationale", "the move was called off")
    assert rejected["state"] == "rejected"
    assert cli.json("show", old)["node"]["status"] == "active"
    neither = cli("judge", old, new)
    assert neither.exit_code == 2 and "--confirm" in neither.output
    assert cli.json("verify")["ok"] is True


def test_correct_undo_says_what_it_reversed(cli: Cli) -> None:
    corpus = Path(__file__).parents[2] / "data" / "adr-corpus"
    assert cli("ingest", str(corpus)).exit_code == 0
    question = "Does the Puppetmaster use a local PostgreSQL database or an RDS instance?"
    done = cli.json("correct", question, "govuk-aws:0008")
    assert done["rejected"]
    undone = cli("correct", question, "--undo")
    assert undone.exit_code == 0, undone.output
    assert f"{len(done['rejected'])} rejected" in undone.stdout
    assert "put back to their earlier state" in undone.stdout


def test_precedents_finds_decisions_by_meaning(cli: Cli, tmp_path: Path) -> None:
    sessions = cli.add("decision", "Use server sessions in Redis")
    cli.add("decision", "Deploy with Kubernetes")
    assert cli("ingest", str(_jenkins_then_actions(tmp_path))).exit_code == 0
    searched = [h["node"]["id"] for h in cli.json("search", "where do we keep login state?")]
    assert sessions not in searched
    found = cli.json("precedents", "where do we keep login state?", "-k", "10", "--no-records")
    assert sessions in [p["node"]["id"] for p in found]
    assert all(p["node"]["metadata"].get("kind") != "adr" for p in found)
    with_records = cli.json("precedents", "Jenkins builds", "-k", "10")
    assert "team:001" in [p["node"]["metadata"].get("key") for p in with_records]
    table = cli("precedents", "where do we keep login state?")
    assert table.exit_code == 0 and "found by" in table.stdout
    assert cli("precedents", "x", "--type", "decisoin").exit_code == 2


def test_list_filters_nodes_and_shows_superseded_ones(cli: Cli, story: dict[str, str]) -> None:
    superseded = cli.json("list", "--type", "decision", "--status", "superseded")
    assert [n["id"] for n in superseded] == [story["first"]]
    goals = cli.json("list", "--type", "goal")
    assert [n["id"] for n in goals] == [story["goal"]]
    newest, oldest = cli.json("list", "--limit", "1"), cli.json("list", "--oldest-first")
    assert newest[0]["id"] == cli.json("list")[0]["id"] != oldest[0]["id"]
    assert cli.json("list", "--since", "2999-01-01") == []
    assert cli.json("list", "--agent", "nobody") == []
    cli("tombstone", story["first"], "--reason", "recorded twice")
    assert story["first"] not in {n["id"] for n in cli.json("list")}
    assert story["first"] in {n["id"] for n in cli.json("list", "--tombstoned")}
    bad = cli("list", "--status", "nope")
    assert bad.exit_code == 2 and "allowed" in bad.output
    table = cli("list", "--type", "decision")
    assert table.exit_code == 0 and "Use server sessions" in table.stdout


def test_help_shows_flags_as_flags_and_says_json_works(cli: Cli) -> None:
    shown = cli("judge", "--help").stdout
    assert "<bool>" not in shown and "--json" in shown
