"""Each check's cited incidents as `Citation`s, with the file and line of its `incidents=`.

The knowledge validator knows nothing of checks; `kubegap knowledge validate` hands it these so it can
report a check that cites a record taken out of the library (and one left citing none at all) with the
file and line an editor fixes.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

from kubegap.checker.registry import CheckModule, all_checks
from kubegap.knowledge.citations import Citation


def check_citations(checks: list[CheckModule] | None = None) -> list[Citation]:
    """One Citation per check: its id, its module file and the line where `incidents=` starts."""
    found = []
    for check in checks if checks is not None else all_checks():
        source = inspect.getsourcefile(check.run)
        path = Path(source) if source else Path(f"{check.id}.py")
        found.append(Citation(f"check {check.id}", path, _incidents_line(path), tuple(check.meta.incidents)))
    return found


def _incidents_line(path: Path) -> int:
    """The line of the `incidents=` keyword in the module's CheckMeta call (1 when it cannot be found)."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError):
        return 1
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == "incidents":
            return node.value.lineno
    return 1
