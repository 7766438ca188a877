"""RFC 6962 hashing, paths and proofs of ``decisis.proof``: the RFC's test vectors (as
Certificate Transparency's own tests carry them), and properties over random trees."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from decisis.proof import (
    EMPTY_ROOT,
    consistency_ranges,
    inclusion_ranges,
    leaf_hash,
    root_of,
    verify_consistency,
    verify_inclusion,
)
from decisis.stores.merkle import Tree

# The eight leaves of RFC 6962's reference tests (certificate-transparency-go, merkle tests).
LEAVES = [
    b"",
    b"\x00",
    b"\x10",
    b"\x20\x21",
    b"\x30\x31",
    b"\x40\x41\x42\x43",
    bytes(range(0x50, 0x58)),
    bytes(range(0x60, 0x70)),
]
ROOTS = {
    1: "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    2: "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    7: "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    8: "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
}


def _hashes(leaves: list[bytes]) -> list[bytes]:
    return [leaf_hash(leaf) for leaf in leaves]


def _path(ranges: list[tuple[int, int]], hashes: list[bytes]) -> list[bytes]:
    """A path from ranges, each hashed from the leaves by the reference ``root_of``."""
    return [root_of(hashes[lo:hi]) for lo, hi in ranges]


def test_roots_are_rfc_6962s() -> None:
    hashes = _hashes(LEAVES)
    for size, root in ROOTS.items():
        assert root_of(hashes[:size]).hex() == root
    assert root_of([]) == EMPTY_ROOT


def test_inclusion_and_consistency_paths_are_rfc_6962s() -> None:
    hashes = _hashes(LEAVES)
    assert [h.hex() for h in _path(inclusion_ranges(0, 8), hashes)] == [
        "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
        "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
        "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
    ]
    assert [h.hex() for h in _path(consistency_ranges(6, 8), hashes)] == [
        "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
        "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
        "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    ]
    assert [h.hex() for h in _path(consistency_ranges(2, 5), hashes)] == [
        "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
        "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
    ]


def _flip(value: bytes, bit: int) -> bytes:
    data = bytearray(value)
    data[(bit // 8) % len(data)] ^= 1 << (bit % 8)
    return bytes(data)


sizes = st.integers(min_value=1, max_value=300)


@settings(max_examples=150, deadline=None)
@given(size=sizes, data=st.data())
def test_inclusion_holds_and_any_flipped_hash_breaks_it(size: int, data: st.DataObject) -> None:
    hashes = [leaf_hash(i.to_bytes(4, "big")) for i in range(size)]
    index = data.draw(st.integers(0, size - 1))
    root = root_of(hashes)
    path = _path(inclusion_ranges(index, size), hashes)
    assert verify_inclusion(index, size, hashes[index], path, root)
    bit = data.draw(st.integers(0, 255))
    assert not verify_inclusion(index, size, _flip(hashes[index], bit), path, root)
    assert not verify_inclusion(index, size, hashes[index], path, _flip(root, bit))
    for at in range(len(path)):
        bent = [*path[:at], _flip(path[at], bit), *path[at + 1 :]]
        assert not verify_inclusion(index, size, hashes[index], bent, root)
    if size > 1:  # another position, or a path cut short, is another proof
        other = (index + 1) % size
        assert not verify_inclusion(other, size, hashes[index], path, root)
        assert not verify_inclusion(index, size, hashes[index], path[:-1], root)


@settings(max_examples=150, deadline=None)
@given(second=sizes, data=st.data())
def test_consistency_holds_and_any_flipped_hash_breaks_it(second: int, data: st.DataObject) -> None:
    hashes = [leaf_hash(i.to_bytes(4, "big")) for i in range(second)]
    first = data.draw(st.integers(1, second))
    old, new = root_of(hashes[:first]), root_of(hashes)
    path = _path(consistency_ranges(first, second), hashes)
    assert verify_consistency(first, second, old, new, path)
    bit = data.draw(st.integers(0, 255))
    assert not verify_consistency(first, second, _flip(old, bit), new, path)
    assert not verify_consistency(first, second, old, _flip(new, bit), path)
    for at in range(len(path)):
        bent = [*path[:at], _flip(path[at], bit), *path[at + 1 :]]
        assert not verify_consistency(first, second, old, new, bent)
    if first < second:  # a rewritten old leaf changes the old root: no longer a prefix
        changed = [_flip(hashes[0], bit), *hashes[1:]]
        assert not verify_consistency(first, second, root_of(changed[:first]), new, path)


@settings(max_examples=60, deadline=None)
@given(batches=st.lists(st.integers(0, 40), max_size=12))
def test_the_kept_tree_grows_to_the_reference_root(batches: list[int]) -> None:
    """Appended in batches, the incremental tree has the root of the whole list at each size."""
    tree, hashes = Tree(), []
    for count in batches:
        new = [leaf_hash(f"{len(hashes) + i}".encode()) for i in range(count)]
        tree.add(new)
        hashes += new
        assert tree.size == len(hashes)
        assert tree.root() == root_of(hashes)
    assert len(tree.nodes) < 2 * max(len(hashes), 1)  # about two stored hashes per leaf
