"""Path patterns: gitignore-like globs, folders that govern what is under them, specificity."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from decisis.errors import InvalidInput
from decisis.files import governs, module_path, normalise_pattern, specificity, with_affects

CASES = [
    ("src/auth/login.py", "src/auth/login.py", True),
    ("src/auth/login.py", "src/auth/login.pyc", False),
    ("src/auth", "src/auth/login.py", True),  # a folder governs what is under it
    ("src/auth/", "src/auth/deep/x.py", True),
    ("src/auth", "src/authz/x.py", False),
    ("src/auth/**", "src/auth/a/b/c.py", True),
    ("src/auth/**", "src/other.py", False),
    ("src/*.py", "src/a.py", True),
    ("src/*.py", "src/a/b.py", False),  # * stays within one part
    ("src/**/test_*.py", "src/test_a.py", True),  # ** may match no part
    ("src/**/test_*.py", "src/x/y/test_a.py", True),
    ("src/**/test_*.py", "src/x/y/a_test.py", False),
    ("*.sql", "db/migrations/001.sql", True),  # no slash: a name at any depth
    ("Makefile", "tools/Makefile", True),
    ("/Makefile", "tools/Makefile", False),  # a leading slash anchors a name
    ("/Makefile", "Makefile", True),
    ("docs/?.md", "docs/a.md", True),
    ("docs/?.md", "docs/ab.md", False),
    ("docs/[ab].md", "docs/b.md", True),
    ("docs/[!ab].md", "docs/b.md", False),
    ("docs/[!ab].md", "docs/c.md", True),
    ("a.b", "axb", False),  # a dot is a dot
    ("./src/./auth", "src/auth/x", True),
]


@pytest.mark.parametrize(("pattern", "path", "expected"), CASES)
def test_patterns_govern_as_documented(pattern: str, path: str, expected: bool) -> None:
    assert governs(normalise_pattern(pattern), path) is expected


@pytest.mark.parametrize(
    "bad", ["", "   ", "../x", "src/../../etc", "a\nb", "x" * 501, 7, "src/[z-a].py"]
)
def test_bad_patterns_are_refused_by_name(bad: object) -> None:
    with pytest.raises(InvalidInput) as caught:
        normalise_pattern(bad)
    assert caught.value.field == "affects"


def test_nearer_patterns_rank_higher() -> None:
    ranked = ["src/auth/login.py", "src/auth/*.py", "src/auth/**", "src/**", "*.py"]
    scores = [specificity(normalise_pattern(p)) for p in ranked]
    assert scores == sorted(scores, reverse=True)
    assert len(set(scores)) == len(scores)


def test_a_module_name_maps_to_its_path_when_there_is_one(tmp_path: Path) -> None:
    (tmp_path / "src" / "decisis" / "adr").mkdir(parents=True)
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "gen.py").write_text("")
    (tmp_path / "setup.py").write_text("")
    assert module_path("decisis.adr", tmp_path) == "src/decisis/adr"
    assert module_path("tools.gen", tmp_path) == "tools/gen.py"
    assert module_path("setup.py", tmp_path) == "setup.py"  # a path that exists stays one
    assert module_path("no.such", tmp_path) == "no.such"
    assert module_path("decisis.adr", None) == "decisis.adr"


def test_absolute_paths_are_read_from_the_root_and_outsiders_refused(tmp_path: Path) -> None:
    inside = str(tmp_path / "src" / "a.py")
    assert with_affects({}, [inside, "src/**", "src/**"], tmp_path) == {
        "affects": ["src/a.py", "src/**"]
    }
    with pytest.raises(InvalidInput, match="outside the work tree"):
        with_affects({}, ["/etc/passwd"], tmp_path)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60), st.text(alphabet="ab/.*?[]!-_ ", max_size=30))
def test_any_text_is_a_pattern_or_a_clear_refusal_and_matching_never_fails(
    pattern: str, path: str
) -> None:
    try:
        stored = normalise_pattern(pattern)
    except InvalidInput as refused:
        assert refused.field == "affects"
        return
    assert normalise_pattern(stored) == stored  # the stored form is stable
    governs(stored, path)  # any path: an answer, never an error
    assert governs(stored, stored.lstrip("/")) or any(c in stored for c in "*?[")


_PART = st.sampled_from(["src", "auth", "a", "b", "x.py", "test_a.py"])
_PATTERN_PART = st.sampled_from(["src", "auth", "a", "*", "**", "*.py", "test_*.py", "?", "[ab]"])


@given(
    st.lists(_PATTERN_PART, min_size=2, max_size=4),
    st.lists(_PART, min_size=0, max_size=3),
    st.lists(_PART, min_size=1, max_size=3),
)
def test_a_pattern_that_governs_a_path_inside_a_folder_reaches_into_it(
    pattern_parts: list[str], folder_parts: list[str], rest: list[str]
) -> None:
    """``reaches_into`` never leaves out a decision on a file inside the folder (anchored
    patterns: a name pattern says nothing about one folder)."""
    from decisis.files.patterns import reaches_into

    pattern = normalise_pattern("/".join(pattern_parts))
    folder = "/".join(folder_parts)
    inside = "/".join([*folder_parts, *rest])
    if governs(pattern, inside):
        assert reaches_into(pattern, folder)
    if not folder_parts:
        assert reaches_into(pattern, "")  # everything is inside the root
