"""An evaluation suite: several corpora, each with its records, questions and true links.

A suite is a TOML file; paths are relative to it::

    [[corpus]]
    name = "adr-corpus"
    records = ["data/adr-corpus"]            # folders ingested together into one store
    questions = ["data/questions-dev.jsonl"]
    truth = ["data/adr-corpus-truth/cloud-platform.json"]
    by_folder = true                         # report each folder of the records apart
    folder_of_prefix = { cp = "cloud-platform" }   # questions with no key: by id prefix

Each question is scored under a *group*: the corpus name, or with ``by_folder`` the folder of
the record it expects (else of its acceptable or outdated records; a question naming none,
out of scope, takes the folder its id prefix, the id before its last ``-``, maps to in
``folder_of_prefix``, else the corpus name). Groups are what leave-one-corpus-out holds out.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from decisis.adr import DEFAULT_SETTINGS, AnswerSettings
from decisis.errors import InvalidInput
from decisis.evaluation.questions import Question, load_questions
from decisis.evaluation.run import SYSTEMS, Outcome, Progress, evaluate

__all__ = ["Suite", "SuiteCorpus", "load_suite", "questions_of", "run_suite"]

_ALLOWED = (
    "a TOML file of [[corpus]] tables with name, records (folders) and questions (files);"
    " optional truth (files), by_folder (true/false) and folder_of_prefix (a table)"
)


@dataclass(frozen=True)
class SuiteCorpus:
    """One store's worth of records and the questions asked of it."""

    name: str
    records: tuple[Path, ...]
    questions: tuple[Question, ...]
    truth: tuple[Path, ...] = ()
    by_folder: bool = False
    folder_of_prefix: dict[str, str] = field(default_factory=dict)

    def group_of(self, question: Question) -> str:
        """The name a question is reported and held out under."""
        if not self.by_folder:
            return self.name
        for key in (question.expected, *question.acceptable, *question.outdated):
            if key:
                return key.split(":", 1)[0]
        prefix = question.id.rsplit("-", 1)[0]
        return self.folder_of_prefix.get(prefix, self.name)


@dataclass(frozen=True)
class Suite:
    path: Path
    corpora: tuple[SuiteCorpus, ...]

    @property
    def groups(self) -> list[str]:
        """Every group of every corpus, in the order the suite names them."""
        out: dict[str, None] = {}
        for corpus in self.corpora:
            for question in corpus.questions:
                out.setdefault(corpus.group_of(question))
        return list(out)


def _paths(base: Path, table: dict[str, object], name: str, where: str) -> tuple[Path, ...]:
    value = table.get(name, [])
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise InvalidInput("suite", f"{where}: {name} is {value!r}", "a list of paths")
    paths = tuple(base / v for v in value)
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        raise InvalidInput("suite", f"{where}: {name} names missing {missing}", "existing paths")
    return paths


def _corpus(base: Path, table: object, number: int) -> SuiteCorpus:
    where = f"corpus {number}"
    if not isinstance(table, dict):
        raise InvalidInput("suite", f"{where} is not a table", _ALLOWED)
    name = table.get("name")
    if not isinstance(name, str) or not name.strip():
        raise InvalidInput("suite", f"{where}: name is {name!r}", "a name for the corpus")
    where = f"corpus {name!r}"
    records = _paths(base, table, "records", where)
    question_files = _paths(base, table, "questions", where)
    if not records or not question_files:
        raise InvalidInput("suite", f"{where} names no records or no questions", _ALLOWED)
    prefixes = table.get("folder_of_prefix", {})
    if not isinstance(prefixes, dict) or not all(isinstance(v, str) for v in prefixes.values()):
        raise InvalidInput("suite", f"{where}: folder_of_prefix is {prefixes!r}", "a table")
    by_folder = table.get("by_folder", False)
    if not isinstance(by_folder, bool):
        raise InvalidInput("suite", f"{where}: by_folder is {by_folder!r}", "true or false")
    questions: list[Question] = []
    for file in question_files:
        questions += load_questions(file)
    return SuiteCorpus(
        name=name,
        records=records,
        questions=tuple(questions),
        truth=_paths(base, table, "truth", where),
        by_folder=by_folder,
        folder_of_prefix={str(k): str(v) for k, v in prefixes.items()},
    )


def load_suite(path: str | os.PathLike[str]) -> Suite:
    """Read a suite file, refusing one that names missing files or no corpus."""
    file = Path(path)
    try:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInput("suite", f"{file} cannot be read ({exc})", _ALLOWED) from None
    except tomllib.TOMLDecodeError as exc:
        raise InvalidInput("suite", f"{file} is not TOML ({exc})", _ALLOWED) from None
    tables = data.get("corpus")
    if not isinstance(tables, list) or not tables:
        raise InvalidInput("suite", f"{file} names no [[corpus]]", _ALLOWED)
    corpora = tuple(_corpus(file.parent, t, i) for i, t in enumerate(tables, start=1))
    names = [c.name for c in corpora]
    if len(set(names)) != len(names):
        raise InvalidInput("suite", f"{file} names a corpus twice: {names}", "distinct names")
    return Suite(file, corpora)


def questions_of(suite: Suite, groups: Sequence[str] | None = None) -> list[Question]:
    """The suite's questions, of ``groups`` only when given."""
    return [
        q
        for corpus in suite.corpora
        for q in corpus.questions
        if groups is None or corpus.group_of(q) in groups
    ]


def run_suite(
    suite: Suite,
    *,
    orders: int = 5,
    systems: Sequence[str] = SYSTEMS,
    store: str = "sqlite",
    progress: Progress | None = None,
    settings_for: Mapping[str, AnswerSettings] | None = None,
) -> list[Outcome]:
    """Every outcome of every system on every corpus of ``suite``, each tagged with its group;
    with ``settings_for``, each group's questions are answered with the settings it names for
    that group (leave-one-corpus-out: those fitted without it)."""
    total = orders * len(systems) * sum(len(c.questions) for c in suite.corpora)
    done = 0
    outcomes: list[Outcome] = []

    def step(_: int, __: int) -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, total)

    for corpus in suite.corpora:
        if settings_for is None:
            parts = [(corpus.questions, DEFAULT_SETTINGS)]
        else:
            groups = dict.fromkeys(corpus.group_of(q) for q in corpus.questions)
            parts = [
                (tuple(q for q in corpus.questions if corpus.group_of(q) == g), settings_for[g])
                for g in groups
            ]
        for questions, settings in parts:
            outcomes += evaluate(
                questions,
                corpus.records,
                orders=orders,
                systems=systems,
                store=store,
                group_of=corpus.group_of,
                progress=step,
                settings=settings,
            )
    return outcomes
