"""ADR commands: ingest folders, ask what stands, correct answers, show what was learnt."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from decisis.cli.render import visible
from decisis.cli.state import get_state

if TYPE_CHECKING:
    from decisis.adr import AnswerSettings, Correction

__all__ = ["register"]


ModelName = Annotated[str, typer.Option("--model-name", help="Model name sent to the server.")]
Provider = Annotated[
    str,
    typer.Option("--provider", help="Wire format: openai (any compatible server) or anthropic."),
]


def _say(text: str, *, lines: bool = False, err: bool = False) -> None:
    """Print ``text`` for people, control characters shown as escapes (see ``visible``):
    what is said here holds ADR titles and text, keys and questions as stored."""
    typer.echo(visible(text, lines=lines), err=err)


@contextmanager
def _model(
    url: str | None,
    name: str,
    provider: str,
    use: Callable[[Any], object],
    forget: Callable[[], None],
) -> Iterator[None]:
    """With ``url``, a model client turned on (``use``) for the block, and off after it."""
    if url is None:
        yield
        return
    from decisis.got.clients import make_client

    use(make_client(provider, name, base_url=url))
    try:
        yield
    finally:
        forget()


def ingest(
    ctx: typer.Context,
    folders: Annotated[list[Path], typer.Argument(help="ADR folders, or folders of them.")],
    model: Annotated[
        str | None,
        typer.Option(
            "--model",
            help="Base URL of a model server: the rule model-judged asks it which records"
            " replace which (off without it).",
        ),
    ] = None,
    model_name: ModelName = "default",
    provider: Provider = "openai",
    follow_symlinks: Annotated[
        bool,
        typer.Option(
            "--follow-symlinks",
            help="Read what symbolic links inside the folders point to (by default each is"
            " skipped and reported: a link can lead out of the folder, or back into it).",
        ),
    ] = False,
    git_dates: Annotated[
        bool,
        typer.Option(
            "--git-dates",
            help="A record with no date of its own takes the date of the commit that first"
            " added it (marked date_source: git). Off by default: a copied record carries the"
            " date of the copy.",
        ),
    ] = False,
) -> None:
    """Read ADR folders into the graph; re-running adds events only for changed records.

    Inside a git work tree, each record also governs the tracked paths its text names and
    those its affects: front matter lists (see decisis explain)."""
    from decisis.adr import forget_model, use_model
    from decisis.adr import ingest as run
    from decisis.cli.common import working

    state = get_state(ctx)
    where = ", ".join(str(f) for f in folders)
    with (
        _model(model, model_name, provider, use_model, forget_model),
        working(f"reading and linking the records of {where}"),
    ):
        report = run(state.graph, *folders, follow_symlinks=follow_symlinks, git_dates=git_dates)
    if state.json:
        typer.echo(json.dumps(report.to_dict(), indent=2))
        return
    _say(
        f"{len(report.added)} added, {len(report.updated)} updated, "
        f"{len(report.unchanged)} unchanged; {report.links_added} links proposed, "
        f"{report.links_removed} withdrawn"
    )
    for problem in report.problems:
        _say(f"skipped {problem.path}: {problem.reason}", err=True)
    if not (report.added or report.updated or report.unchanged or report.problems):
        _say(
            f"no ADR files in {', '.join(str(f) for f in folders)}: decisis reads Markdown "
            "files (.md, .markdown) named with a number (0007-use-x.md) or holding a "
            "record's title and status",
            err=True,
        )


def ask(
    ctx: typer.Context,
    question: Annotated[str, typer.Argument(help="The question, in words.")],
    why: Annotated[
        bool, typer.Option("--why", help="Also say where it started and which links it took.")
    ] = False,
    model: Annotated[
        str | None,
        typer.Option(
            "--model",
            help="Base URL of a model server that reranks the best starts (off without it).",
        ),
    ] = None,
    model_name: ModelName = "default",
    provider: Provider = "openai",
    settings: Annotated[
        Path | None,
        typer.Option(
            "--settings",
            help="Answer settings as JSON (decisis eval --suite S --fit FILE writes them).",
        ),
    ] = None,
) -> None:
    """What do we do about X today? The record that stands and what it replaced."""
    from decisis.adr import DEFAULT_SETTINGS, forget_reranker, use_reranker, why_lines
    from decisis.adr import ask as run

    state = get_state(ctx)
    chosen = load_settings(settings) if settings is not None else DEFAULT_SETTINGS
    with _model(model, model_name, provider, use_reranker, forget_reranker):
        answer = run(state.graph, question, chosen)
    if state.json:
        from decisis.forms import AnswerOut

        typer.echo(json.dumps(AnswerOut.of(answer).dump(), indent=2))
        return
    _say(answer.text, lines=True)
    if answer.chain[1:]:
        _say("chain: " + " -> ".join(answer.chain))
    if why:
        for line in why_lines(answer):
            _say(line)


def correct(
    ctx: typer.Context,
    question: Annotated[str, typer.Argument(help="The question as asked.")],
    key: Annotated[
        str | None, typer.Argument(help="The record that answers it, or 'none'.")
    ] = None,
    undo: Annotated[bool, typer.Option("--undo", help="Reverse the latest correction.")] = False,
) -> None:
    """Teach the right answer to a question (or 'none'); --undo reverses it."""
    from decisis import adr as corrections

    state = get_state(ctx)
    if undo:
        result = corrections.undo(state.graph, question)
    else:
        if key is None:
            from decisis.errors import InvalidInput

            raise InvalidInput("key", "is missing", "a record key such as team:012, or none")
        target = None if key.lower() == "none" else key
        result = corrections.correct(state.graph, question, target)
    if state.json:
        from decisis.forms import CorrectionOut

        typer.echo(json.dumps(CorrectionOut.of(result).dump(), indent=2))
        return
    if undo:
        _say(_undone(result))
        return
    _say(
        f"recorded: {result.key or 'no record'} (was {result.was or 'no record'}); "
        f"{len(result.confirmed)} links confirmed, {len(result.rejected)} rejected, "
        f"{len(result.proposed)} proposed"
    )


def _undone(result: Correction) -> str:
    """What an undo reversed: the links put back, by the judgement undone, and withdrawn."""
    from collections import Counter

    by_verdict = Counter(undone for _, undone, _ in result.restored)
    reversed_ = ", ".join(f"{n} {state}" for state, n in sorted(by_verdict.items())) or "none"
    return (
        f"undid: {result.key or 'no record'} for {result.question!r} "
        f"(the answer before it was {result.was or 'no record'}); "
        f"links put back to their earlier state: {reversed_}; "
        f"{len(result.withdrawn)} proposed links withdrawn"
    )


def learned(ctx: typer.Context) -> None:
    """Every inferred link: its trust, the rule that proposed it, the correction that moved it."""
    from decisis.adr import learned as run
    from decisis.search.text import as_written

    state = get_state(ctx)
    data = run(state.graph)
    if state.json:
        from decisis.forms import LearnedOut

        typer.echo(json.dumps(LearnedOut.of(data).dump(), indent=2))
        return
    for name, rule in data["rules"].items():
        _say(f"rule {name}: trust {rule['trust']:.2f} ({rule['successes']:g}/{rule['failures']:g})")
    for link in data["links"]:
        part = " (in part)" if link["partial"] else ""
        said = [as_written(link["evidence"] or "", n) for n in link["named"]]
        named = f"  replaces: {', '.join(said)}" if said else ""
        by = f"  corrected by: {link['corrected_by']}" if link["corrected_by"] else ""
        _say(
            f"{link['old']} -> {link['new']}{part}  {link['rule']} {link['state']} "
            f"{link['confidence']:.2f}{named}{by}"
        )


def load_settings(path: Path) -> AnswerSettings:
    """Answer settings from a JSON file, or a refusal naming the file and what is wrong."""
    from decisis.adr import AnswerSettings
    from decisis.errors import InvalidInput
    from decisis.model.validation import loads_json

    try:
        data = loads_json(
            path.read_text(encoding="utf-8"), "settings", "a JSON file", where=f"{path} "
        )
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InvalidInput("settings", f"{path} cannot be read ({exc})", "a JSON file") from None
    return AnswerSettings.from_dict(data)


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    from decisis.cli.adr_write import adr_app

    for command in (ingest, ask, correct, learned):
        app.command()(command)
    app.add_typer(adr_app)
