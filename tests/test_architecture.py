"""The package's shape, as STYLE.md draws it: no import cycles, and arrows that point inward.

knowledge is the core; the library and the checker read it; the web app sits above both (its cluster
pages use the checker, its other pages the library); agents (the MCP server and set-up) sit beside the
web app. A lazy import inside a function counts like any other: it is still a dependency.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
FOUNDATION_ROOTS = {
    "kubegap",
    "kubegap.errors",
    "kubegap.text",
    "kubegap.bilingual",
    "kubegap.cli_support",
    "kubegap.cli_help",
    "kubegap.redaction",
    "kubegap.unexpected",
}


def _is_foundation(module: str) -> bool:
    """The foundation modules, and the redaction package's own modules under it."""
    return module in FOUNDATION_ROOTS or module.startswith("kubegap.redaction.")


# Which top-level parts each part may import (besides itself and the foundation modules).
ALLOWED = {
    "knowledge": set(),
    "library": {"knowledge"},
    "checker": {"knowledge"},
    "web": {"knowledge", "library", "checker"},
    "agents": {"knowledge", "library", "checker"},
    "metrics": {"knowledge", "checker"},
    "cli": {"knowledge", "library", "checker", "web", "agents", "metrics"},
    "__main__": {"cli"},
}


def _modules() -> dict[str, Path]:
    modules = {}
    for path in (SRC / "kubegap").rglob("*.py"):
        name = ".".join(path.relative_to(SRC).with_suffix("").parts)
        modules[name.removesuffix(".__init__")] = path
    return modules


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                for alias in node.names:
                    full = f"{node.module}.{alias.name}"
                    if full in modules:
                        targets.add(full)
                    elif node.module in modules:
                        targets.add(node.module)
            elif isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names if alias.name in modules)
        graph[name] = targets - {name}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def _part(module: str) -> str:
    return module.split(".")[1]


def test_no_import_cycles() -> None:
    assert _cycles(_graph()) == []


def test_cycle_finder_sees_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_arrows_point_inward() -> None:
    wrong = []
    for module, targets in _graph().items():
        for target in targets:
            if _is_foundation(module):
                if not _is_foundation(target):
                    wrong.append(f"{module} -> {target}")
                continue
            if _is_foundation(target) or _part(target) == _part(module):
                continue
            if _part(target) not in ALLOWED.get(_part(module), set()):
                wrong.append(f"{module} -> {target}")
    assert wrong == []


# Inside the checker, the live reader (checker/live/) is reached only from the places that start a
# live read; checks, extractors, sources and reports never touch the network layer.
LIVE_READER_USERS = ("kubegap.checker.scanning", "kubegap.checker.commands", "kubegap.checker.fleet.")


def test_only_scan_entry_points_import_the_live_reader() -> None:
    wrong = []
    for module, targets in _graph().items():
        if not module.startswith("kubegap.checker.") or module.startswith("kubegap.checker.live"):
            continue
        if module.startswith(LIVE_READER_USERS):
            continue
        wrong += [f"{module} -> {target}" for target in targets if target.startswith("kubegap.checker.live")]
    assert wrong == []
