"""The package's imports run one way: no circles, no import from a lower layer up, and the
front doors come in through the facade only.

Imports are read statically (``ast`` over ``src/decisis``), in three kinds: ``module``
(runs when the module is imported), ``typing`` (under ``if TYPE_CHECKING:``) and ``lazy``
(inside a function). A module-level or typing import names a dependency as much as a
runtime one, so both count everywhere. A lazy import counts too, with one exception: the
facade's verbs (``decisis.graph``, ``decisis``) hand work to the capability that does it
(``graph.export`` to ``decisis.exchange``, ``graph.stale`` to ``decisis.stale``, …),
imported when called, its answer's type named under ``TYPE_CHECKING``. Such a delegation
runs up a layer by design and is the only upward import allowed; every circle must be
broken by one. The layers are those of
``/work/shared/DESIGN.md``; ``tests/adr/test_adr_layers.py`` watches the inside of ``adr``.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import decisis

SRC = Path(decisis.__file__).resolve().parent

# The front doors, with who may reach the two that speak HTTP.
DOORS = (
    "decisis.cli",
    "decisis.web",
    "decisis.mcp_server",
    "decisis.__main__",
    "decisis.binding",
)
# Lowest first; a module is in the layer of its longest matching prefix.
LAYERS: tuple[tuple[str, ...], ...] = (
    # plain helpers and the error tree, knowing nothing of decisions
    ("decisis.errors", "decisis.display", "decisis.proof", "decisis.witness"),
    ("decisis.model",),
    ("decisis.ledger",),
    # stores, and the search parts that run inside them (ranking, fusion, embedders)
    ("decisis.stores", "decisis.search"),
    # the facade: a graph and the writer seam beneath its verbs
    ("decisis.graph", "decisis.batch", "decisis.writer", "decisis.contention"),
    # capabilities: functions of a graph, each a package or module with one job
    (
        "decisis.adr",
        "decisis.agent",
        "decisis.checkpoints",
        "decisis.evaluation",
        "decisis.exchange",
        "decisis.files",
        "decisis.forms",  # the JSON forms every door and the agent tools share
        "decisis.got",
        "decisis.plans",
        "decisis.provo",
        "decisis.search.fulltext",
        "decisis.stale",
    ),
    # the public face: re-exports the facade and the types the capabilities answer with
    ("decisis",),
    DOORS,
)
FACADE = ("decisis.graph", "decisis")  # whose lazy imports may delegate upward
INTERNALS = ("decisis.stores", "decisis.ledger", "decisis.batch", "decisis.writer")


@dataclass(frozen=True, slots=True)
class Import:
    importer: str
    imported: str
    kind: str  # "module", "typing" or "lazy"
    line: int

    def __str__(self) -> str:
        return f"{self.importer}:{self.line} imports {self.imported} ({self.kind})"


def _name_of(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def _modules() -> dict[str, Path]:
    return {_name_of(path): path for path in sorted(SRC.rglob("*.py"))}


def _known(name: str) -> str | None:
    """The package module ``name`` is or lives in (``decisis.graph.Graph`` is in
    ``decisis.graph``), or None outside the package."""
    modules = _modules()
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def _targets(module: str, path: Path, node: ast.Import | ast.ImportFrom) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
        package = package[: len(package) - node.level + 1]
        base = ".".join([*package, *([node.module] if node.module else [])])
    found = []
    for alias in node.names:
        submodule = f"{base}.{alias.name}"
        found.append(submodule if submodule in _modules() else base)  # a module, else a name
    return found


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


@cache
def _imports() -> tuple[Import, ...]:
    found: list[Import] = []
    for module, path in _modules().items():

        def visit(
            nodes: list[ast.stmt], kind: str, module: str = module, path: Path = path
        ) -> None:
            for node in nodes:
                if isinstance(node, ast.Import | ast.ImportFrom):
                    for target in _targets(module, path, node):
                        imported = _known(target) if target.startswith("decisis") else None
                        if imported is not None and imported != module:
                            found.append(Import(module, imported, kind, node.lineno))
                elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    visit(node.body, "lazy")
                elif isinstance(node, ast.If) and _is_type_checking(node):
                    visit(node.body, "typing" if kind == "module" else kind)
                    visit(node.orelse, kind)
                else:
                    for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                        children = getattr(node, field, None)
                        if isinstance(children, list):
                            visit([c for c in children if isinstance(c, ast.stmt)], kind)
                            for child in children:  # except handlers and match cases
                                if isinstance(child, ast.ExceptHandler | ast.match_case):
                                    visit(child.body, kind)

        visit(ast.parse(path.read_text(encoding="utf-8")).body, "module")
    return tuple(found)


def _layer(module: str) -> int:
    best, rank = -1, -1
    for i, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, rank = len(prefix), i
    assert rank >= 0, f"{module} is in no layer: add it to LAYERS"
    return rank


def _delegates(imp: Import) -> bool:
    """The facade handing a verb's work up to a capability, imported when called (or
    naming, for type checkers only, the type that verb answers with)."""
    upward = _layer(imp.imported) > _layer(imp.importer)
    return imp.kind in ("lazy", "typing") and imp.importer in FACADE and upward


def _circles(edges: list[Import]) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan), each sorted."""
    out: dict[str, set[str]] = {}
    for imp in edges:
        out.setdefault(imp.importer, set()).add(imp.imported)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(out.get(node, ())):
            if other not in index:
                connect(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                other = stack.pop()
                group.append(other)
                if other == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(out):
        if node not in index:
            connect(node)
    return sorted(groups)


def _is_package_face(imp: Import) -> bool:
    """A package's ``__init__`` re-exporting its own submodule: Python imports the package
    before any of its submodules anyway, so this edge is no dependency of its own."""
    return imp.imported.startswith(imp.importer + ".") and _modules()[imp.importer].name == (
        "__init__.py"
    )


def test_the_walk_sees_the_imports_it_must() -> None:
    """The walk can fail: it finds what ``decisis.graph`` imports at each level."""
    graph = {(i.imported, i.kind) for i in _imports() if i.importer == "decisis.graph"}
    assert ("decisis.model", "module") in graph
    assert ("decisis.exchange", "lazy") in graph
    assert any(kind == "typing" for _, kind in graph)


def test_a_planted_circle_is_found_and_only_the_facade_delegates() -> None:
    planted = [
        Import("decisis.graph", "decisis.batch", "lazy", 1),
        Import("decisis.batch", "decisis.graph", "module", 1),
        Import("decisis.graph", "decisis.model", "module", 1),
    ]
    assert _circles(planted) == [["decisis.batch", "decisis.graph"]]
    assert _delegates(Import("decisis.graph", "decisis.exchange", "lazy", 1))
    assert not _delegates(Import("decisis.graph", "decisis.exchange", "module", 1))
    assert not _delegates(Import("decisis.stores", "decisis.graph", "lazy", 1))
    assert _layer("decisis.search.fulltext") > _layer("decisis.graph") > _layer("decisis.search")


def test_every_module_is_in_a_layer() -> None:
    assert [m for m in _modules() if _layer(m) < 0] == []


def test_module_level_imports_form_no_circle() -> None:
    """What runs when a module is imported: a circle here half-imports one of its modules."""
    edges = [i for i in _imports() if i.kind == "module" and not _is_package_face(i)]
    circles = _circles(edges)
    assert circles == [], "\n".join(" <-> ".join(c) for c in circles)


def test_no_circle_but_through_a_facade_delegation() -> None:
    """Every kind of import: two modules that need each other are one module, or a seam."""
    edges = [i for i in _imports() if not _delegates(i) and not _is_package_face(i)]
    circles = _circles(edges)
    detail = [str(i) for i in edges for c in circles if i.importer in c and i.imported in c]
    assert circles == [], "\n".join([*(" <-> ".join(c) for c in circles), *sorted(set(detail))])


def test_no_import_runs_up_a_layer() -> None:
    upward = [
        str(i) for i in _imports() if _layer(i.imported) > _layer(i.importer) and not _delegates(i)
    ]
    assert upward == [], "\n".join(upward)


def test_front_doors_import_only_what_the_facade_offers() -> None:
    def within(module: str, prefixes: tuple[str, ...]) -> bool:
        return any(module == p or module.startswith(p + ".") for p in prefixes)

    reaching = [
        str(i) for i in _imports() if within(i.importer, DOORS) and within(i.imported, INTERNALS)
    ]
    assert reaching == [], "\n".join(reaching)
