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
from itertools import chain
from typing import Any, Generic, TypeVar, overload

__all__ = ["PVector"]

T = TypeVar("T")

_BITS = 5
_WIDTH = 1 << _BITS
_MASK = _WIDTH - 1


def _set_in(node: tuple[Any, ...], shift: int, index: int, value: Any) -> tuple[Any, ...]:
    """A copy of the path to existing slot ``index`` with ``value`` in place."""
    slot = (index >> shift) & _MASK
    copy = list(node)  # then one store: cheaper than splicing two slices around the child
    copy[slot] = value if shift == 0 else _set_in(node[slot], shift - _BITS, index, value)
    return tuple(copy)


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

    def __len__(self) -> int:
        return self._size

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> list[T]: ...
    def __getitem__(self, index: int | slice) -> T | list[T]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._size))]
        size = self._size
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError(index)
        tail = self._tail
        offset = size - len(tail)
        value: T  # annotated rather than cast(): this runs on every lookup
        if index >= offset:
            value = tail[index - offset]
            return value
        node = self._root
        shift = self._shift
        while shift > 0:
            node = node[(index >> shift) & _MASK]
            shift -= _BITS
        value = node[index & _MASK]
        return value

    def __iter__(self) -> Iterator[T]:
        if not self._root:  # up to 32 elements, all in the tail: no generator needed
            return iter(self._tail)
        return chain(_leaves(self._root, self._shift), self._tail)

    def take(self, indices: Iterable[int]) -> list[T]:
        """The elements at ``indices`` (each in range), in one call: cheaper than indexing
        one at a time, which the machine does for every frontier."""
        size, tail, root, shift = self._size, self._tail, self._root, self._shift
        offset = size - len(tail)
        out: list[T] = []
        for index in indices:
            if not 0 <= index < size:
                raise IndexError(index)
            if index >= offset:
                out.append(tail[index - offset])
                continue
            node, level = root, shift
            while level > 0:
                node = node[(index >> level) & _MASK]
                level -= _BITS
            out.append(node[index & _MASK])
        return out

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
        size, tail = self._size, self._tail
        if not 0 <= index < size:
            raise IndexError(index)
        at = index - size + len(tail)
        if at >= 0:  # in the tail; built inline, as in extend: this is the common case
            vector: PVector[T] = _new(PVector)
            vector._root, vector._shift, vector._size = self._root, self._shift, size
            vector._tail = (*tail[:at], value, *tail[at + 1 :])
            return vector
        root = _set_in(self._root, self._shift, index, value)
        return _vector(root, self._shift, self._size, self._tail)

    def append(self, value: T) -> PVector[T]:
        """A new vector one longer; this one is unchanged."""
        tail = self._tail
        if len(tail) < _WIDTH:
            return _vector(self._root, self._shift, self._size + 1, (*tail, value))
        offset = self._size - _WIDTH
        root, shift = self._root, self._shift
        if offset == 1 << (shift + _BITS):  # the trie is full: grow a level
            root, shift = (root,), shift + _BITS
        root = _push_leaf(root, shift, offset, tail)
        return _vector(root, shift, self._size + 1, (value,))

    def extend(self, values: Iterable[T]) -> PVector[T]:
        """A new vector with ``values`` appended, filling the tail a chunk at a time."""
        items = tuple(values)
        tail = self._tail
        if len(tail) + len(items) <= _WIDTH:  # the usual case: they fit in the tail
            vector: PVector[T] = _new(PVector)  # _vector() inlined: it runs on every commit
            vector._root, vector._shift, vector._tail = self._root, self._shift, tail + items
            vector._size = self._size + len(items)
            return vector
        vector, done = self, 0
        while done < len(items):
            room = _WIDTH - len(vector._tail)
            if room == 0:
                vector, done = vector.append(items[done]), done + 1
                continue
            chunk = items[done : done + room]
            tail = (*vector._tail, *chunk)
            vector = _vector(vector._root, vector._shift, vector._size + len(chunk), tail)
            done += len(chunk)
        return vector


def _vector(root: tuple[Any, ...], shift: int, size: int, tail: tuple[Any, ...]) -> PVector[Any]:
    """A vector from its parts, without ``__init__``'s copy (every update makes one)."""
    vector: PVector[Any] = _new(PVector)
    vector._root, vector._shift, vector._size, vector._tail = root, shift, size, tail
    return vector


_new = object.__new__


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
