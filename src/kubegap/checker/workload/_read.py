"""Reading counts while remembering which ones were left for a template engine to fill."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kubegap.checker.extract._fields import integer, mapping
from kubegap.checker.workload.operators import Managed
from kubegap.checker.workload.unrendered import is_unrendered

# (group of the template, pod spec, pods created from it)
Found = tuple[str, Any, int]


@dataclass
class Reader:
    """Collects the paths of unrendered fields while an extractor reads one object."""

    unrendered: list[str] = field(default_factory=list)
    managed: list[Managed] = field(default_factory=list)  # fields an operator fills (see `operators`)
    # id(pod spec an extractor built) -> id(the spec in the object it was built from), so the template's
    # own metadata (its labels) is still found for a spec copied to add what an operator fills in.
    origins: dict[int, int] = field(default_factory=dict)

    def count(self, node: Any, key: str, default: int, path: str) -> int:
        """`node[key]` as an int; a placeholder or an empty value is noted and read as the default."""
        container = mapping(node)
        if key in container and (container[key] is None or is_unrendered(container[key])):
            self.note(path)
            return default
        return integer(container.get(key), default)

    def derive(self, built: dict[str, Any], original: Any) -> dict[str, Any]:
        """`built`, a copy of the pod spec `original` with operator-filled fields, remembered as it."""
        if isinstance(original, dict):
            self.origins[id(built)] = self.origins.get(id(original), id(original))
        return built

    def manage(self, filled: Managed) -> None:
        self.managed.append(filled)

    def note(self, path: str) -> None:
        if path not in self.unrendered:
            self.unrendered.append(path)
