"""BERT-uncased tokenization in plain Python, so the default embedder needs no ``tokenizers``.

The static model's rows are indexed by the WordPiece vocabulary of all-MiniLM-L6-v2
(BERT uncased). To look a text up, it has to be cut into the same pieces the teacher
model saw. This module does what ``BertTokenizer(do_lower_case=True)`` does:

1. clean: drop NUL, U+FFFD and control characters, turn every white space into a space;
2. put spaces around CJK ideographs;
3. lower-case, decompose (NFD) and drop combining marks (accents);
4. split on white space and on every punctuation character (ASCII symbols count);
5. cut each word into the longest vocabulary prefix, then ``##``-continuations; a word
   that cannot be cut, or is longer than 100 characters, becomes ``[UNK]``.

The distillation script checks it against the ``tokenizers`` library on real text.
Steps 1-2 are one ``str.translate``; words repeat, so each chunk's ids are cached.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping

__all__ = ["WordPieceTokenizer", "basic_tokenize"]

_MAX_WORD_CHARS = 100
_CACHE_LIMIT = 200_000


def _is_punctuation(char: str) -> bool:
    """BERT counts every non-alphanumeric ASCII symbol as punctuation, as well as Unicode P*."""
    cp = ord(char)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(char).startswith("P")


def _is_cjk(cp: int) -> bool:
    """The CJK ideograph blocks that BERT splits into single characters."""
    return (
        0x4E00 <= cp <= 0x9FFF
        or 0x3400 <= cp <= 0x4DBF
        or 0x20000 <= cp <= 0x2A6DF
        or 0x2A700 <= cp <= 0x2B73F
        or 0x2B740 <= cp <= 0x2B81F
        or 0x2B820 <= cp <= 0x2CEAF
        or 0xF900 <= cp <= 0xFAFF
        or 0x2F800 <= cp <= 0x2FA1F
    )


class _CleanTable(dict[int, str | None]):
    """``str.translate`` table for steps 1-2, filled in per code point on first sight."""

    def __missing__(self, cp: int) -> str | None:
        char = chr(cp)
        value: str | None = char
        if char in " \t\n\r" or unicodedata.category(char) == "Zs":
            value = " "
        elif cp in (0, 0xFFFD) or unicodedata.category(char).startswith("C"):
            value = None
        elif _is_cjk(cp):
            value = f" {char} "
        self[cp] = value
        return value


_CLEAN = _CleanTable()
_ASCII_PIECES = re.compile(r"[a-z0-9]+|[^a-z0-9]")


def _strip_accents(word: str) -> str:
    """Lower-case text decomposed, with its combining marks removed, as BERT uncased does."""
    if word.isascii():
        return word
    return "".join(c for c in unicodedata.normalize("NFD", word) if unicodedata.category(c) != "Mn")


def _split_punctuation(word: str) -> list[str]:
    """Every punctuation character becomes a word of its own."""
    if word.isalnum():
        return [word]
    if word.isascii():  # after cleaning, every ASCII non-alphanumeric is punctuation
        return _ASCII_PIECES.findall(word)
    pieces: list[str] = []
    current: list[str] = []
    for char in word:
        if _is_punctuation(char):
            if current:
                pieces.append("".join(current))
                current = []
            pieces.append(char)
        else:
            current.append(char)
    if current:
        pieces.append("".join(current))
    return pieces


def _words(raw: str) -> list[str]:
    """Step 3-4 for one white-space-separated, lower-cased chunk."""
    return _split_punctuation(_strip_accents(raw))


def basic_tokenize(text: str) -> list[str]:
    """Split text into lower-cased, accent-free words and punctuation, as BERT uncased does."""
    words: list[str] = []
    for raw in text.translate(_CLEAN).lower().split():
        words.extend(_words(raw))
    return words


class WordPieceTokenizer:
    """Greedy longest-match WordPiece over a fixed vocabulary, returning row ids."""

    def __init__(self, vocab: Mapping[str, int], unk_token: str = "[UNK]"):
        self._vocab = dict(vocab)
        self.unk_id = self._vocab[unk_token]
        self._cache: dict[str, tuple[int, ...]] = {}
        self._chunks: dict[str, tuple[int, ...]] = {}  # white-space chunk -> ids

    @classmethod
    def from_lines(cls, lines: Iterable[str], unk_token: str = "[UNK]") -> WordPieceTokenizer:
        """Build from a ``vocab.txt``: one token a line, the line number is the id."""
        tokens = list(lines)  # zip into a dict: about half the time of a comprehension
        return cls(dict(zip(tokens, range(len(tokens)), strict=True)), unk_token=unk_token)

    def word_ids(self, word: str) -> tuple[int, ...]:
        """The ids of one basic word's pieces; ``(unk_id,)`` when it cannot be cut."""
        cached = self._cache.get(word)
        if cached is not None:
            return cached
        ids = self._cut(word)
        if len(self._cache) < _CACHE_LIMIT:
            self._cache[word] = ids
        return ids

    def _cut(self, word: str) -> tuple[int, ...]:
        whole = self._vocab.get(word)
        if whole is not None:
            return (whole,)
        if len(word) > _MAX_WORD_CHARS:
            return (self.unk_id,)
        ids: list[int] = []
        start = 0
        while start < len(word):
            end = len(word)
            found = None
            while start < end:
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                found = self._vocab.get(piece)
                if found is not None:
                    break
                end -= 1
            if found is None:
                return (self.unk_id,)
            ids.append(found)
            start = end
        return tuple(ids)

    def ids(self, text: str) -> list[int]:
        """All piece ids of a text, without ``[CLS]``/``[SEP]``."""
        out: list[int] = []
        cache = self._chunks
        for raw in text.translate(_CLEAN).lower().split():
            ids = cache.get(raw)
            if ids is None:
                ids = tuple(i for word in _words(raw) for i in self.word_ids(word))
                if len(cache) < _CACHE_LIMIT:
                    cache[raw] = ids
            out.extend(ids)
        return out
