"""A ``GraphState`` whose mappings read the records on demand, for ``Graph.at``.

Each mapping looks a key up in a ``Source`` (the version index of ``past_index``, at one
ledger entry) the first time it is asked for it, and reads every record only when it is
iterated or counted. What is written to a mapping (the fold of entries after the index)
lands in the mapping itself, over what the source holds, as ``fold.apply`` writes a plain
state: ``d[k] = v``, and for adjacency ``d[k].append(...)`` (a key read to append to is
copied in first). So the memory store's reads and the fold run on it unchanged, reading
only the records they touch.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar, cast

from decisis.model import Edge, Node
from decisis.stores.fold import GraphState

if TYPE_CHECKING:
    from _collections_abc import dict_items, dict_keys, dict_values

__all__ = ["Kind", "LazyAdjacency", "LazyRecords", "Source", "lazy_state", "materialised"]

Kind = Literal["node", "edge"]
R = TypeVar("R", Node, Edge)
V = TypeVar("V")
_MISSING: Any = object()


class Source(Protocol):
    """What the mappings read: one record, one adjacency list, or everything."""

    def record(self, kind: Kind, key: str) -> Node | Edge | None: ...

    def adjacency(self, key: str, direction: Literal["out", "in"]) -> list[str] | None:
        """The edge ids leaving (``out``) or entering (``in``) the node, in the order they
        were added; ``None`` when the source has no such node."""
        ...

    def every(self, kind: Kind) -> dict[str, Any]:
        """Every record of ``kind``, in the order they were added."""
        ...

    def every_adjacency(self, direction: Literal["out", "in"]) -> dict[str, list[str]]: ...


class _OnDemand(dict[str, V]):
    """A mapping filled from its source key by key; iterating or counting it reads every
    entry once (``_every``), in the source's order, what was written on top kept."""

    _full = False

    def _every(self) -> dict[str, V]:
        raise NotImplementedError

    def load(self) -> None:
        """Read every entry once, in the order they were added, what was written on top."""
        if self._full:
            return
        mine = dict(dict.items(self))
        dict.clear(self)
        for key, value in self._every().items():
            dict.__setitem__(self, key, mine.pop(key, value))
        dict.update(self, mine)
        self._full = True

    def __iter__(self) -> Iterator[str]:
        self.load()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self.load()
        return dict.__len__(self)

    def keys(self) -> dict_keys[str, V]:
        self.load()
        return dict.keys(self)

    def values(self) -> dict_values[str, V]:
        self.load()
        return dict.values(self)

    def items(self) -> dict_items[str, V]:
        self.load()
        return dict.items(self)


class LazyRecords(_OnDemand[R]):
    """Nodes or edges by id, read from ``source`` as they are asked for; ``log`` hears of
    every write (a catch-up keeps each as a new version)."""

    def __init__(
        self, source: Source, kind: Kind, log: Callable[[str, Any], None] | None = None
    ) -> None:
        super().__init__()
        self._source, self._kind, self._log = source, kind, log
        self._full = False

    def _look(self, key: str) -> Any:
        if dict.__contains__(self, key):
            return dict.__getitem__(self, key)
        if self._full or not isinstance(key, str):
            return _MISSING
        found = self._source.record(self._kind, key)
        return _MISSING if found is None else found

    def __getitem__(self, key: str) -> R:
        found = self._look(key)
        if found is _MISSING:
            raise KeyError(key)
        return cast(R, found)

    def get(self, key: str, default: Any = None) -> Any:
        found = self._look(key)
        return default if found is _MISSING else found

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self._look(key) is not _MISSING

    def __setitem__(self, key: str, value: R) -> None:
        dict.__setitem__(self, key, value)
        if self._log is not None:
            self._log(key, value)

    def _every(self) -> dict[str, Any]:
        return self._source.every(self._kind)


class LazyAdjacency(_OnDemand[list[str]]):
    """Edge ids by endpoint, read from ``source`` as asked for; a key read with ``[]``
    (to append to, as ``fold`` does) is copied in, or made empty, as a defaultdict would."""

    def __init__(self, source: Source, direction: Literal["out", "in"]) -> None:
        super().__init__()
        self._source, self._direction = source, direction
        self._full = False

    def _look(self, key: str) -> list[str] | None:
        if dict.__contains__(self, key):
            return dict.__getitem__(self, key)
        if self._full or not isinstance(key, str):
            return None
        return self._source.adjacency(key, self._direction)

    def __getitem__(self, key: str) -> list[str]:
        if not dict.__contains__(self, key):
            found = self._look(key)
            dict.__setitem__(self, key, [] if found is None else list(found))
        return dict.__getitem__(self, key)

    def get(self, key: str, default: Any = None) -> Any:
        found = self._look(key)
        return default if found is None else found

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self._look(key) is not None

    def _every(self) -> dict[str, list[str]]:
        return self._source.every_adjacency(self._direction)


def lazy_state(source: Source, log: Callable[[str, Any], None] | None = None) -> GraphState:
    """A state reading ``source`` on demand (``log``: told of each node and edge written)."""
    return GraphState(
        nodes=LazyRecords[Node](source, "node", log),
        edges=LazyRecords[Edge](source, "edge", log),
        out_edges=LazyAdjacency(source, "out"),
        in_edges=LazyAdjacency(source, "in"),
    )


def materialised(state: GraphState, into: GraphState) -> GraphState:
    """``into`` filled with every record and adjacency list of ``state``, in its order
    (reads all of a lazy state: for a write, which needs a state it can roll back)."""
    into.nodes.update(state.nodes.items())
    into.edges.update(state.edges.items())
    into.out_edges.update((k, list(v)) for k, v in state.out_edges.items())
    into.in_edges.update((k, list(v)) for k, v in state.in_edges.items())
    return into
