"""The ``decisis`` command line: a thin front door over the ``Graph`` facade.

Commands parse their arguments, call one facade method and print the result,
as Rich text for people or as JSON with ``--json``. The modules:

* ``app``      the Typer app, global options, and the one place errors are translated
* ``state``    finding and opening the store a command works on
* ``common``   argument types and small parsers the commands share
* ``render``   Rich output for people; ``jsonout`` the JSON forms for scripts and agents
* ``writes``, ``reads``, ``ledger``, ``demo``  the commands, grouped
* ``docs``     the Markdown reference in ``docs/cli.md``, generated from the app
"""

from __future__ import annotations

__all__ = ["ONE_SHOT", "main"]

# Commands that read, answer and exit: they run with the cyclic garbage collector off (see
# ``main``). Anything else (a server, an ingest, an import, an evaluation) turns it back on
# once the process has started.
ONE_SHOT = frozenset(
    {
        "ancestors",
        "ask",
        "current",
        "descendants",
        "explain",
        "goals",
        "impact",
        "learned",
        "list",
        "path",
        "precedents",
        "provenance",
        "recent",
        "search",
        "show",
        "why",
    }
)


def main() -> None:
    """Run the ``decisis`` command (the console-script entry point).

    The cyclic garbage collector is off while the process starts: what it allocates then
    (modules, the app) lives as long as the process, yet collections traversed it again and
    again, about a sixth of the CPU of a cold ``decisis ask`` (``bench/bench_cold_ask.py``).
    A command of ``ONE_SHOT`` keeps it off to its end: it builds what it answers from, which
    is garbage only when the process exits. Any other command gets it back, with what the
    start allocated frozen out of its reach (``gc.freeze``)."""
    import gc
    import sys

    was_enabled = gc.isenabled()
    gc.disable()
    try:
        from decisis.cli.app import app
        from decisis.cli.prune import command_asked, only_needed

        args = sys.argv[1:]
        if command_asked(args) not in ONE_SHOT:
            gc.freeze()
            gc.enable()
        with only_needed(app, args):
            app(prog_name="decisis")
    finally:
        if was_enabled:
            gc.enable()
