"""Every command, given any arguments (ids and prefixes, times past year 1 or 9999, NUL,
numbers past 64 bits, flags in any order), ends with exit code 0, or 2 and a refusal (a
decisis error on one line, or the usage error of a bad option): never a traceback, and the
ledger stays intact. ``verify`` alone may exit 1 (a ledger not intact), and it never is here."""

from __future__ import annotations

import json

from cli_support import Cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

COMMANDS = [
    ["add", "goal"],
    ["add", "decision"],
    ["add", "outcome"],
    ["update"],
    ["link"],
    ["supersede"],
    ["tombstone"],
    ["show"],
    ["current"],
    ["why"],
    ["impact"],
    ["path"],
    ["search"],
    ["at"],
    ["recent"],
    ["log"],
    ["ask"],
    ["correct"],
    ["export", "--format"],
]
FLAGS = [
    "--confidence",
    "--rationale",
    "--parent",
    "--metadata",
    "--valid-from",
    "--limit",
    "--max-depth",
    "--believe",
    "--json",
    "--edge-type",
    "--label",
    "--status",
    "--after",
]


def test_any_arguments_exit_cleanly(cli: Cli) -> None:
    goal = cli.add("goal", "Ship the payments service")
    decision = cli.add("decision", "Use JWT tokens", "--parent", goal)
    odd = [
        goal,
        decision,
        goal[:6],
        "0001-01-01T00:00+01:00",
        "9999-12-31T23:59-01:00",
        "-1",
        "1e309",
        "nan",
        "\x00",
        "99999999999999999999999",
        '{"k": NaN}',
        "decision",
        "supersedes",
    ]
    words = st.sampled_from(odd) | st.text(max_size=30)

    @settings(
        max_examples=500,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(
        st.sampled_from(COMMANDS),
        st.sampled_from(odd),  # what the command reads first: an id, a time, a label, a query
        st.lists(words | st.sampled_from(FLAGS), max_size=4),
    )
    def run(command: list[str], first: str, rest: list[str]) -> None:
        args = [first, *rest]
        result = cli(*command, *args)
        assert result.exception is None or isinstance(result.exception, SystemExit), (
            command,
            args,
            result.exception,
        )
        assert result.exit_code in (0, 2), (command, args, result.output)

    run()
    assert json.loads(cli("--json", "verify").stdout)["ok"] is True
