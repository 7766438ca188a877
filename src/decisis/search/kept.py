"""Term weights kept in the store, so that a new process need not work them out again.

Indexing a record (splitting, stemming and weighing its words: ``terms.weigh``) is most of
what the first question in a process costs: a third of a second for 132 records, a minute
for fifty thousand. What it makes depends only on the record's fields and the engine, so it
is kept as derived data beside the graph (``Store.put_derived``), per record, under the
digest of the fields and in a space named with ``terms.ENGINE``: a record whose fields
changed, or weights of another engine, read as missing and are made again, then kept.
Reading them back gives the same floats in the same order, so the index built from them is
the one a plain build makes.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from decisis.errors import DecisisError
from decisis.search.terms import ENGINE, Weighed

if TYPE_CHECKING:
    from datetime import datetime

    from decisis.stores import Store


class Keeper(Protocol):
    """What keeping needs of a graph (a ``decisis.Graph`` is one): its store, its name, and
    whether it is a view at a past time, which writes nothing."""

    @property
    def store(self) -> Store: ...

    @property
    def name(self) -> str: ...

    @property
    def as_of(self) -> datetime | None: ...


__all__ = ["Keeper", "decode_weighed", "digest_of", "encode_weighed", "kept", "space_of"]

T = TypeVar("T")


_FORMAT = "2"  # how a body is written (``encode_weighed``): a new one reads no old body


def space_of(name: str) -> str:
    """The store space for ``name``'s term weights, under this engine's version."""
    return f"{name}@{_FORMAT};{ENGINE}"


def digest_of(parts: Sequence[str]) -> str:
    """A digest of the texts something was made from (order and boundaries count)."""
    return hashlib.sha256(json.dumps(list(parts)).encode()).hexdigest()


def encode_weighed(weighed: Weighed) -> list[object]:
    """``weighed`` as JSON-able lists (terms, then their weights, in order; the defined
    abbreviations): read back as the same strings and the same floats, every bit."""
    tf, defines = weighed
    return [list(tf), list(tf.values()), [[short, list(long)] for short, long in defines]]


def decode_weighed(data: Any) -> Weighed:
    """The ``Weighed`` ``encode_weighed`` was given (as JSON read it back)."""
    names, weights, defines = data
    tf = dict(zip(names, map(float, weights), strict=True))
    return tf, tuple((short, tuple(long)) for short, long in defines) if defines else ()


def kept(
    graph: Keeper,
    space: str,
    wanted: Mapping[str, str],
    make: Callable[[str], T],
    encode: Callable[[T], object],
    decode: Callable[[Any], T],
) -> dict[str, T]:
    """``make(item)`` for each item of ``wanted`` (item -> digest of what it is made from):
    read from the store where it was kept with that digest, else made and kept (unless
    ``graph`` is a view at a past time, which writes nothing). Keeping is a saving, not
    the answer: a store that cannot take the write (opened read-only) is left as it was."""
    found: dict[str, T] = {}
    if wanted:
        for item, body in graph.store.get_derived(graph.name, space, digests=wanted).items():
            try:
                found[item] = decode(json.loads(body))
            except (ValueError, TypeError):  # a body damaged behind decisis's back: made anew
                continue
    missing = [item for item in wanted if item not in found]
    made = {item: make(item) for item in missing}
    if made and graph.as_of is None:
        bodies = {item: (wanted[item], json.dumps(encode(value))) for item, value in made.items()}
        # read-only, or locked past its timeout: made again next time
        with contextlib.suppress(DecisisError):
            graph.store.put_derived(graph.name, space, bodies)
    found.update(made)
    return {item: found[item] for item in wanted}
