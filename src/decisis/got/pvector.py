"""A persistent vector: an immutable list whose ``append`` and ``set`` share structure.

The machine returns a new value on every transition; copying a list of 10,000
thoughts each time would make a transition cost grow with the graph. This is a
32-way trie of tuples with a tail (the shape of Clojure's ``PersistentVector``):
``set`` copies only the path from the root to one leaf, a handful of 32-slot
tuples; ``append`` usually copies only the tail; everything else is shared with
the previous version.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, Generic, TypeVar, cast, overload

__all__ = ["PVector"]

T = TypeVar("T")

_BITS = 5
_WIDTH = 1 << _BITS
_MASK = _WIDTH - 1


def _set_in(node: tuple[Any, ...], shift: int, index: int, value: Any) -> tuple[Any, ...]:
    """A copy of the path to existing slot ``index`` with ``value`` in place."""
    slot = (index >> shift) & _MASK
    child = value if shift == 0 else _set_in(node[slot], shift - _BITS, index, value)
    return (*node[:slot], child, *node[slot + 1 :])


def _push_leaf(
    node: tuple[Any, ...], shift: int, offset: int, leaf: tuple[Any, ...]
) -> tuple[Any, ...]:
    """A copy of ``node`` with a full ``leaf`` added for elements from ``offset``."""
    slot = (offset >> shift) & _MASK
    if shift == _BITS:
        child = leaf
    else:
        below = node[slot] if slot < len(node) else ()
        child = _push_leaf(below, shift - _BITS, offset, leaf)
    if slot < len(node):
        return (*node[:slot], child, *node[slot + 1 :])
    return (*node, child)


class PVector(Generic[T]):
    """An immutable sequence with O(log32 n) ``set`` and indexing and amortised O(1)
    ``append``: the last up-to-32 elements live in a ``tail`` tuple outside the trie,
    so most appends copy only that tuple."""

    __slots__ = ("_root", "_shift", "_size", "_tail")

    def __init__(self, items: Iterable[T] = ()) -> None:
        values = list(items)
        root, shift, tail = _build(values)
        self._root: tuple[Any, ...] = root
        self._shift = shift
        self._tail: tuple[Any, ...] = tail
        self._size = len(values)

    @classmethod
    def _make(
        cls, root: tuple[Any, ...], shift: int, size: int, tail: tuple[Any, ...]
    ) -> PVector[T]:
        vector: PVector[T] = cls.__new__(cls)
        vector._root, vector._shift, vector._size, vector._tail = root, shift, size, tail
        return vector

    def __len__(self) -> int:
        return self._size

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> list[T]: ...
    def __getitem__(self, index: int | slice) -> T | list[T]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._size))]
        if index < 0:
            index += self._size
        if not 0 <= index < self._size:
            raise IndexError(index)
        offset = self._size - len(self._tail)
        if index >= offset:
            return cast(T, self._tail[index - offset])
        node = self._root
        shift = self._shift
        while shift > 0:
            node = node[(index >> shift) & _MASK]
            shift -= _BITS
        return cast(T, node[index & _MASK])

    def __iter__(self) -> Iterator[T]:
        yield from _leaves(self._root, self._shift)
        yield from self._tail

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PVector):
            return NotImplemented
        if self._root is other._root and self._tail is other._tail:
            return True
        return self._size == other._size and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"PVector({list(self)!r})"

    def set(self, index: int, value: T) -> PVector[T]:
        """A new vector with ``value`` at ``index``; this one is unchanged."""
        if not 0 <= index < self._size:
            raise IndexError(index)
        offset = self._size - len(self._tail)
        if index >= offset:
            at = index - offset
            tail = (*self._tail[:at], value, *self._tail[at + 1 :])
            return self._make(self._root, self._shift, self._size, tail)
        root = _set_in(self._root, self._shift, index, value)
        return self._make(root, self._shift, self._size, self._tail)

    def append(self, value: T) -> PVector[T]:
        """A new vector one longer; this one is unchanged."""
        tail = self._tail
        if len(tail) < _WIDTH:
            return self._make(self._root, self._shift, self._size + 1, (*tail, value))
        offset = self._size - _WIDTH
        root, shift = self._root, self._shift
        if offset == 1 << (shift + _BITS):  # the trie is full: grow a level
            root, shift = (root,), shift + _BITS
        root = _push_leaf(root, shift, offset, tail)
        return self._make(root, shift, self._size + 1, (value,))

    def extend(self, values: Iterable[T]) -> PVector[T]:
        """A new vector with ``values`` appended, filling the tail a chunk at a time."""
        items = list(values)
        vector, done = self, 0
        while done < len(items):
            room = _WIDTH - len(vector._tail)
            if room == 0:
                vector, done = vector.append(items[done]), done + 1
                continue
            chunk = tuple(items[done : done + room])
            tail = (*vector._tail, *chunk)
            vector = self._make(vector._root, vector._shift, vector._size + len(chunk), tail)
            done += len(chunk)
        return vector


def _leaves(node: tuple[Any, ...], shift: int) -> Iterator[Any]:
    if shift == 0:
        yield from node
        return
    for child in node:
        yield from _leaves(child, shift - _BITS)


def _build(items: list[Any]) -> tuple[tuple[Any, ...], int, tuple[Any, ...]]:
    """Trie, shift and tail for ``items`` in one linear pass (for ``PVector(items)``)."""
    offset = ((len(items) - 1) // _WIDTH) * _WIDTH if items else 0
    level: list[tuple[Any, ...]] = [tuple(items[i : i + _WIDTH]) for i in range(0, offset, _WIDTH)]
    shift = _BITS
    while len(level) > _WIDTH:
        level = [tuple(level[i : i + _WIDTH]) for i in range(0, len(level), _WIDTH)]
        shift += _BITS
    return tuple(level), shift, tuple(items[offset:])
