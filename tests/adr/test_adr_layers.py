"""The shape of ``decisis.adr``: four stages whose imports run one way, ``write`` beside them
(it reads with ``read``; none of the four imports it), and a face that is all the rest of the
package imports."""

from __future__ import annotations

import ast
from pathlib import Path

import decisis.adr

SRC = Path(decisis.adr.__file__).resolve().parents[1]
STAGES = ("read", "link", "answer", "learn")
BESIDE = ("write",)  # may import ``read``; nothing in STAGES imports it


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
    return found


def test_each_stage_imports_only_the_stages_before_it() -> None:
    wrong = []
    for i, stage in enumerate(STAGES):
        later = STAGES[i + 1 :]
        for path in sorted((SRC / "adr" / stage).rglob("*.py")):
            for name in _imports(path):
                if any(name.startswith(f"decisis.adr.{other}") for other in (*later, *BESIDE)):
                    wrong.append(f"{path.relative_to(SRC)} imports {name}")
    assert wrong == []


def test_write_reads_with_read_only() -> None:
    wrong = []
    for path in sorted((SRC / "adr" / "write").rglob("*.py")):
        for name in _imports(path):
            stage = name.split(".")[2] if name.startswith("decisis.adr.") else None
            if stage is not None and stage not in ("read", "write"):
                wrong.append(f"{path.relative_to(SRC)} imports {name}")
    assert wrong == []


def test_no_module_sits_beside_the_stages() -> None:
    loose = sorted(p.name for p in (SRC / "adr").glob("*.py"))
    assert loose == ["__init__.py"]


def test_the_rest_of_the_package_imports_only_the_face() -> None:
    wrong = []
    for path in sorted(SRC.rglob("*.py")):
        if (SRC / "adr") in path.parents:
            continue
        for name in _imports(path):
            if name.startswith("decisis.adr.") and name.split(".")[2] in (*STAGES, *BESIDE):
                wrong.append(f"{path.relative_to(SRC)} imports {name}")
    assert wrong == []


def test_every_name_of_the_face_resolves() -> None:
    for name in decisis.adr.__all__:
        assert getattr(decisis.adr, name) is not None, name
