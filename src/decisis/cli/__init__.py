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

__all__ = ["main"]


def main() -> None:
    """Run the ``decisis`` command (the console-script entry point)."""
    import sys

    from decisis.cli.app import app
    from decisis.cli.prune import only_needed

    with only_needed(app, sys.argv[1:]):
        app(prog_name="decisis")
