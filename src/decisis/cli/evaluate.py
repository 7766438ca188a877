"""``decisis eval``: answer quality on question sets, per corpus, and replacement links
measured against the true ones."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from decisis.cli.common import progress
from decisis.cli.state import get_state
from decisis.errors import InvalidInput

if TYPE_CHECKING:
    from decisis.adr import AnswerSettings
    from decisis.evaluation.links import LinkReport
    from decisis.evaluation.run import Outcome

__all__ = ["register"]

_SHOWN = ("decisis-static", "decisis")


def _links(corpus: Sequence[Path], truth: Sequence[Path]) -> LinkReport:
    from decisis.adr import believed_links, ingest
    from decisis.evaluation.links import load_truth, score_links
    from decisis.graph import open as open_graph

    graph = open_graph("memory://")
    try:
        ingest(graph, *corpus)
        return score_links(believed_links(graph), load_truth(truth))
    finally:
        graph.close()


def _suite_links(suite_path: Path) -> LinkReport:
    from decisis.evaluation.links import LinkReport
    from decisis.evaluation.suite import load_suite

    corpora = []
    for corpus in load_suite(suite_path).corpora:
        if corpus.truth:
            corpora += _links(corpus.records, corpus.truth).corpora
    return LinkReport(corpora)


def _print(
    outcomes: list[Outcome], links: LinkReport | None, *, by_group: bool, show_misses: bool
) -> None:
    from decisis.cli.render import visible
    from decisis.evaluation import misses_table, summarise, to_table
    from decisis.evaluation.report import group_table, links_table

    def say(text: str) -> None:  # ids and keys come from the files read: shown, never run
        typer.echo(visible(text, lines=True))

    if outcomes:
        say(to_table(summarise(outcomes)))
        if by_group:
            shown = [s for s in _SHOWN if any(o.system == s for o in outcomes)]
            say("\nper corpus\n" + group_table(outcomes, shown))
        if show_misses:
            for system in _SHOWN:
                say("\n" + misses_table(outcomes, system))
    if links is not None:
        say(("\n" if outcomes else "") + "replacement links\n" + links_table(links))


def _as_json(
    outcomes: list[Outcome], links: LinkReport | None, show_misses: bool, **extra: object
) -> str:

    from decisis.evaluation import misses, summarise

    groups = list(dict.fromkeys(o.group for o in outcomes if o.group))
    out: dict[str, object] = dict(extra)
    out["systems"] = [s.to_dict() for s in summarise(outcomes)]
    if groups:
        out["corpora"] = {
            group: [s.to_dict() for s in summarise([o for o in outcomes if o.group == group])]
            for group in groups
        }
    if show_misses:
        out["misses"] = {
            system: [
                {"question": q, "missed": m, "orders": n, "answered": dict(answered)}
                for q, m, n, answered in misses(outcomes, system)
            ]
            for system in _SHOWN
        }
    if links is not None:
        out["links"] = links.to_dict()
    return json.dumps(out, indent=2)


def _fitted(
    suite: Path | None, given: AnswerSettings | None, fit: Path | None, loco: bool
) -> dict[str, AnswerSettings] | None:
    """The settings each group of ``suite`` is answered with: fitted on the others (``loco``),
    else ``given`` for all; with ``fit``, the settings fitted on every corpus are written there."""

    from decisis.adr import DEFAULT_SETTINGS, fit_settings, leave_one_out
    from decisis.evaluation.fit import cases_of
    from decisis.evaluation.suite import load_suite

    if suite is None:
        return None
    fitted = None
    if loco or fit is not None:
        base = given or DEFAULT_SETTINGS
        with progress("reading the questions") as tick:
            cases = cases_of(load_suite(suite), base, progress=tick)
        if fit is not None:
            fit.write_text(json.dumps(fit_settings(cases, base).to_dict(), indent=2) + "\n")
        if loco:
            with progress("fitting, one corpus held out at a time") as tick:
                fitted = leave_one_out(cases, base, progress=tick)
    if fitted is None and given is not None:
        fitted = {group: given for group in load_suite(suite).groups}
    return fitted


def eval_(
    ctx: typer.Context,
    questions: Annotated[
        Path | None, typer.Argument(help="Questions, one JSON object a line (or use --suite).")
    ] = None,
    corpus: Annotated[
        list[Path] | None, typer.Option("--corpus", help="ADR folder(s) to ask.")
    ] = None,
    suite: Annotated[
        Path | None,
        typer.Option("--suite", help="A TOML suite of corpora, questions and truth files."),
    ] = None,
    links: Annotated[
        list[Path] | None,
        typer.Option("--links", help="truth.json file(s): score the believed replacements."),
    ] = None,
    orders: Annotated[int, typer.Option("--orders", help="Shuffled orders to run.")] = 5,
    systems: Annotated[
        str | None,
        typer.Option("--systems", help="Comma-separated systems to score (default: all)."),
    ] = None,
    show_misses: Annotated[
        bool,
        typer.Option("--misses", help="Also list the questions decisis missed, and its answers."),
    ] = False,
    store: Annotated[
        str,
        typer.Option(
            "--store-kind",
            help="Where each run's graphs live: sqlite (default), memory, duckdb, or a"
            " postgresql:// URL (a graph of its own per run).",
        ),
    ] = "sqlite",
    settings: Annotated[
        Path | None,
        typer.Option("--settings", help="Answer with these settings (JSON), not the defaults."),
    ] = None,
    fit: Annotated[
        Path | None,
        typer.Option(
            "--fit", help="With --suite: fit the settings on every corpus and write them here."
        ),
    ] = None,
    loco: Annotated[
        bool,
        typer.Option(
            "--loco",
            help="With --suite: answer each corpus with settings fitted on the others"
            " (leave one corpus out), so every figure is held out.",
        ),
    ] = False,
) -> None:
    """Score decisis and baselines on question sets, test-then-train over shuffled orders;
    with --suite, per corpus, with the replacement links of every truth file."""
    from decisis.evaluation import evaluate, load_questions
    from decisis.evaluation.run import SYSTEMS
    from decisis.evaluation.suite import load_suite, run_suite

    state = get_state(ctx)
    chosen = tuple(s.strip() for s in systems.split(",") if s.strip()) if systems else SYSTEMS
    if suite is None and not corpus:
        raise InvalidInput("corpus", "no --corpus or --suite given", "ADR folders, or a suite")
    if suite is None and questions is None and not links:
        raise InvalidInput("questions", "nothing to score", "a question file, --links or --suite")
    if loco and suite is None:
        raise InvalidInput("loco", "given without --suite", "--suite FILE --loco")
    if fit is not None and suite is None:
        raise InvalidInput("fit", "given without --suite", "--suite FILE --fit OUT.json")
    from decisis.adr import DEFAULT_SETTINGS
    from decisis.cli.adr import load_settings

    given = load_settings(settings) if settings is not None else None
    outcomes: list[Outcome] = []
    link_report: LinkReport | None = None
    fitted = _fitted(suite, given, fit, loco)
    with progress("asking") as tick:
        if suite is not None:
            outcomes = run_suite(
                load_suite(suite),
                orders=orders,
                systems=chosen,
                store=store,
                progress=tick,
                settings_for=fitted,
            )
            link_report = _suite_links(suite)
        else:
            folders = corpus or []
            if questions is not None:
                outcomes = evaluate(
                    load_questions(questions),
                    folders,
                    orders=orders,
                    systems=chosen,
                    store=store,
                    progress=tick,
                    settings=given or DEFAULT_SETTINGS,
                )
            if links:
                link_report = _links(folders, links)
    if state.json:
        source = str(suite if suite is not None else questions)
        extra: dict[str, object] = {"orders": orders, "questions": source}
        if fitted is not None:
            extra["held_out_settings"] = {g: s.to_dict() for g, s in fitted.items()}
        typer.echo(_as_json(outcomes, link_report, show_misses, **extra))
    else:
        if fitted is not None:
            typer.echo(
                "leave one corpus out: each corpus answered with settings fitted on the others"
            )
        _print(outcomes, link_report, by_group=suite is not None, show_misses=show_misses)


def register(app: typer.Typer) -> None:
    """Add ``eval`` to ``app``."""
    app.command(name="eval")(eval_)
