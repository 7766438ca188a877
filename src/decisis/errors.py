"""The one exception tree of decisis.

Every error decisis raises on purpose is a ``DecisisError``. Input errors are
also ``ValueError`` and not-found errors also ``LookupError``, so callers that
only know the standard library still catch them sensibly::

    DecisisError
    ├── InvalidInput (ValueError)          bad value: names the field and what is allowed
    │   ├── CycleError                     a supersession or link would close a loop
    │   ├── MalformedImport                an import file that is not a decisis export
    │   └── InvalidArguments               a tool call whose arguments its schema refuses
    ├── NotFound (LookupError)             a node, edge or graph that does not exist
    │   └── AmbiguousId                    a short id that matches more than one record
    ├── Conflict                           the change contradicts what is stored (duplicate id,
    │                                      editing a tombstoned node)
    ├── IntegrityError                     the ledger or the tables fail verification
    ├── StoreError                         the backend failed (cannot open, locked, schema too new)
    │   └── UnsupportedStore (ValueError)  a store URL whose scheme no backend handles
    ├── MissingExtra (ImportError)         an optional feature whose extra is not installed
    ├── Unauthorized                       a request to a server without the token it asks for
    └── ToolsDisabled                      the agent tools have no graph to work on

``ERROR_TABLE`` gives each error its HTTP status and CLI exit code, and ``error_body``
its one body shape, ``{"error": {"type", "message", "field", "allowed"}}``: the CLI's
``--json``, the web pages and API, and the agent tools all answer with these.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

__all__ = [
    "ERROR_TABLE",
    "AmbiguousId",
    "Conflict",
    "CycleError",
    "DecisisError",
    "HeadMoved",
    "IntegrityError",
    "InvalidArguments",
    "InvalidInput",
    "MalformedImport",
    "MissingExtra",
    "NotFound",
    "StoreError",
    "ToolsDisabled",
    "Unauthorized",
    "UnsupportedStore",
    "answer_for",
    "error_body",
]


class DecisisError(Exception):
    """Base of every error decisis raises on purpose."""


class InvalidInput(DecisisError, ValueError):
    """A value was refused; ``field`` names it and ``allowed`` says what would be accepted."""

    def __init__(self, field: str, problem: str, allowed: str | Iterable[str] | None = None):
        self.field = field
        self.problem = problem
        if allowed is not None and not isinstance(allowed, str):
            allowed = ", ".join(sorted(str(a) for a in allowed))
        self.allowed = allowed
        message = f"{field}: {problem}"
        if allowed:
            message += f" (allowed: {allowed})"
        super().__init__(message)


class CycleError(InvalidInput):
    """The change would make a node reach itself through supersession."""


class MalformedImport(InvalidInput):
    """An import file that cannot be read as a decisis export."""


class InvalidArguments(InvalidInput):
    """A tool call whose arguments are not a JSON object its schema accepts (``field`` is
    ``arguments``), or a tool name no tool has (``name``); ``allowed`` says what would do."""

    def __init__(self, tool: str, problem: str, allowed: str, *, field: str = "arguments"):
        self.tool = tool
        super().__init__(field, problem, allowed)
        self.args = (f"{tool}: {problem}",)


class NotFound(DecisisError, LookupError):
    """A node, edge or graph that is not in the store."""

    def __init__(self, kind: str, key: str, graph: str | None = None):
        self.kind = kind
        self.key = key
        self.graph = graph
        where = f" in graph {graph!r}" if graph else ""
        super().__init__(f"no {kind} {key!r}{where}")


class AmbiguousId(NotFound):
    """A short id prefix that names more than one record."""

    def __init__(self, kind: str, key: str, matches: Iterable[str], graph: str | None = None):
        self.matches = sorted(matches)
        self.allowed = ", ".join(self.matches)  # what may be typed instead: a full id
        super().__init__(kind, key, graph)
        shown = ", ".join(self.matches[:5])
        more = f" and {len(self.matches) - 5} more" if len(self.matches) > 5 else ""
        self.args = (
            f"{kind} id prefix {key!r} is ambiguous: it matches {shown}{more}; "
            "type more characters",
        )


class Conflict(DecisisError):
    """The change contradicts what is stored (a duplicate id, a tombstoned target)."""


class HeadMoved(Conflict):
    """An append made on what the graph held at ``expected`` found other events after it
    (``found``): nothing was written. Read again, and write again."""

    def __init__(
        self,
        graph: str,
        expected: int,
        found: int,
        *,
        tries: int | None = None,
        seconds: float | None = None,
    ):
        self.graph = graph
        self.expected = expected
        self.found = found
        self.tries = tries
        message = (
            f"graph {graph!r} moved on while the change was prepared: its last event is"
            f" {found}, not {expected}; nothing was written"
        )
        if tries is not None:
            message += (
                f" (other writers kept moving it through {tries} tries"
                f" over {seconds or 0.0:.1f} s: try again)"
            )
        super().__init__(message)


class IntegrityError(DecisisError):
    """The ledger or the tables do not pass verification; ``seq`` is the first bad entry."""

    def __init__(self, message: str, seq: int | None = None):
        self.seq = seq
        super().__init__(message)


class StoreError(DecisisError):
    """The backend could not do what was asked (cannot open, schema too new, locked too long)."""


class UnsupportedStore(StoreError, ValueError):
    """A store URL that no backend handles."""


class MissingExtra(DecisisError, ImportError):
    """An optional feature whose extra is not installed; the message names the extra."""

    def __init__(self, feature: str, extra: str):
        self.feature = feature
        self.extra = extra
        super().__init__(f"{feature} needs the {extra!r} extra: pip install 'decisis[{extra}]'")


class Unauthorized(DecisisError):
    """A request to a server (``decisis serve --token``) that did not carry its token;
    ``allowed`` says how to carry it."""

    def __init__(self, message: str, allowed: str):
        self.allowed = allowed
        super().__init__(message)


class ToolsDisabled(DecisisError):
    """The agent tools were set up without a graph (no store, or one they cannot use):
    every call answers with this, naming why, instead of failing the agent's loop."""


class Answer(NamedTuple):
    """How a door answers an error: the HTTP status and the CLI exit code."""

    http: int
    exit: int


# Most specific first: the first class an error is an instance of decides.
ERROR_TABLE: tuple[tuple[type[DecisisError], Answer], ...] = (
    (AmbiguousId, Answer(409, 2)),
    (NotFound, Answer(404, 2)),
    (InvalidInput, Answer(422, 2)),
    (Conflict, Answer(409, 2)),
    (IntegrityError, Answer(500, 2)),
    (StoreError, Answer(503, 2)),
    (ToolsDisabled, Answer(503, 2)),
    (MissingExtra, Answer(501, 2)),
    (Unauthorized, Answer(401, 2)),
    (DecisisError, Answer(400, 2)),
)
_NOT_OURS = Answer(500, 1)  # a bug, not a refusal: the server's fault, not the caller's


def answer_for(error: BaseException | str) -> Answer:
    """The status and exit code of an error, or of an error type's name (as a tool result
    carries it); anything outside the tree is a bug: 500."""
    kind = _class_named(error) if isinstance(error, str) else type(error)
    for row, answer in ERROR_TABLE:
        if kind is not None and issubclass(kind, row):
            return answer
    return _NOT_OURS


def _class_named(name: str) -> type[BaseException] | None:
    """The class of the tree with this name, subclasses defined outside this module too."""
    pending: list[type[BaseException]] = [DecisisError]
    while pending:
        kind = pending.pop()
        if kind.__name__ == name:
            return kind
        pending.extend(kind.__subclasses__())
    return None


def error_body(error: BaseException) -> dict[str, Any]:
    """A refused call as data, the same on every door: the error's type and message, and
    the field that was wrong and what is allowed there (``None`` when it has none)."""
    return {
        "error": {
            "type": type(error).__name__,
            "message": str(error),
            "field": getattr(error, "field", None),
            "allowed": getattr(error, "allowed", None),
        }
    }
