"""The pieces under the embedders: BERT-uncased tokenization and the no-model fallback."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

import numpy as np
import pytest

from decisis.errors import InvalidInput
from decisis.search import get_embedder
from decisis.search.embed_hashing import HashingEmbedder
from decisis.search.embed_wordpiece import WordPieceTokenizer, basic_tokenize

VOCAB = files("decisis").joinpath("data", "static-minilm", "vocab.txt")
TOKENS = VOCAB.read_text(encoding="utf-8").splitlines()


@pytest.fixture(scope="module")
def tokenizer() -> WordPieceTokenizer:
    return WordPieceTokenizer.from_lines(TOKENS)


def _pieces(tok: WordPieceTokenizer, text: str) -> list[str]:
    return [TOKENS[i] for i in tok.ids(text)]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Use Kubernetes, not EC2!", ["use", "kubernetes", ",", "not", "ec2", "!"]),
        ("Café  naïve\tRÉSUMÉ", ["cafe", "naive", "resume"]),
        ("dev/staging/prod", ["dev", "/", "staging", "/", "prod"]),
        ("a\x00b\x7fc\ufffdd", ["abcd"]),
        ("東京 office", ["東", "京", "office"]),
        ("", []),
    ],
)
def test_basic_tokenize_follows_bert_uncased(text: str, words: list[str]) -> None:
    assert basic_tokenize(text) == words


def test_wordpiece_cuts_longest_prefix_first(tokenizer: WordPieceTokenizer) -> None:
    assert _pieces(tokenizer, "Kubernetes clusters") == ["ku", "##ber", "##net", "##es", "clusters"]
    assert _pieces(tokenizer, "x" * 101) == ["[UNK]"]
    assert _pieces(tokenizer, "\u2603") == ["[UNK]"]
    assert tokenizer.ids("Terraform") == tokenizer.ids("terraform")  # cached path agrees


def test_hashing_fallback_is_normalised_and_deterministic() -> None:
    texts = ["deploy pipeline", "deployment pipelines", "pizza recipe", "", "the and of"]
    first = get_embedder("hashing").embed(texts)
    again = HashingEmbedder().embed(texts)
    assert first.dtype == np.float32 and first.shape == (5, 512)
    assert np.array_equal(first, again)
    assert np.allclose(np.linalg.norm(first[:3], axis=1), 1.0, atol=1e-5)
    assert not first[3].any() and not first[4].any()  # nothing but stop words
    assert first[0] @ first[1] > first[0] @ first[2] + 0.2


def test_hashing_dim_is_an_option_and_named() -> None:
    small = get_embedder("hashing", dim=64)
    assert small.dim == 64 and small.name == "hashing:64:v1"
    assert small.embed(["one", "two"]).shape == (2, 64)
    with pytest.raises(InvalidInput):
        HashingEmbedder(dim=4)
    with pytest.raises(InvalidInput):
        small.embed("one string")


@pytest.mark.parametrize(
    ("word", "common"),
    [
        ("password", True),
        ("Nightly", True),
        ("library", True),
        ("stdout", False),  # names and terms of art are cut into pieces
        ("ansible", False),
        ("graphql", False),
        ("", False),
    ],
)
def test_common_words_are_one_piece_of_the_shipped_vocabulary(word: str, common: bool) -> None:
    from decisis.search.embed_static import is_common_word

    assert is_common_word(word) is common


@pytest.mark.parametrize(
    ("word", "common"),
    [("policy", True), ("provision", True), ("concourse", False), ("stdout", False)],
)
def test_among_the_most_common_words_is_a_rank_of_the_vocabulary(word: str, common: bool) -> None:
    """Whole words are listed roughly by how often English uses them: "concourse" is one
    piece, but far down the list."""
    from decisis.search.embed_static import is_common_word

    assert is_common_word(word, among=10_000) is common


def test_the_shipped_table_is_mapped_as_np_load_reads_it() -> None:
    from decisis.search.embed_static import mapped_npz

    table = Path(str(files("decisis").joinpath("data", "static-minilm", "vectors.npz")))
    mapped = mapped_npz(table)
    assert mapped is not None
    with np.load(table, allow_pickle=False) as arrays:
        assert sorted(mapped) == sorted(arrays.files)
        for name in arrays.files:
            assert mapped[name].dtype == arrays[name].dtype
            assert np.array_equal(mapped[name], arrays[name])
    assert not mapped["vectors"].flags.writeable  # a view of the file, never written


def test_a_table_that_cannot_be_mapped_is_read_by_np_load(tmp_path: Path) -> None:
    import json
    import shutil

    from decisis.search.embed_static import StaticEmbedder, load_static_embedder, mapped_npz

    shipped = Path(str(files("decisis").joinpath("data", "static-minilm")))
    folder = tmp_path / "model"
    shutil.copytree(shipped, folder)
    with np.load(folder / "vectors.npz") as arrays:
        vectors, scales = arrays["vectors"], arrays["scales"]
    np.savez_compressed(folder / "vectors.npz", vectors=vectors, scales=scales)
    assert mapped_npz(folder / "vectors.npz") is None  # deflated: not mapped
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    assert mapped_npz(tmp_path / "junk.npz") is None
    loaded = StaticEmbedder.from_folder(folder)
    shipped_model = load_static_embedder()
    text = ["which queue do payments use"]
    assert np.array_equal(loaded.embed(text), shipped_model.embed(text))
    assert json.loads((folder / "config.json").read_text())["name"] == "static-minilm"
