"""Index a snapshot once per run: every check asks for the same views, so build each only once.

The cache is keyed on the snapshot's identity and object count, held weakly, so a snapshot that is
dropped frees its views and a snapshot that gains objects (as tests do) is re-indexed.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any, TypeVar

from kubegap.checker.snapshot import Snapshot

T = TypeVar("T")

_CACHE: dict[int, tuple[weakref.ref[Snapshot], int, dict[str, Any]]] = {}


def _forget(key: int) -> Callable[[weakref.ref[Snapshot]], None]:
    def drop(_reference: weakref.ref[Snapshot]) -> None:
        _CACHE.pop(key, None)

    return drop


def memo(snapshot: Snapshot, name: str, build: Callable[[Snapshot], T]) -> T:
    """build(snapshot), computed once per snapshot state and then shared by every check."""
    key = id(snapshot)
    size = sum(len(objects) for objects in snapshot.objects.values())
    entry = _CACHE.get(key)
    if entry is None or entry[0]() is not snapshot or entry[1] != size:
        entry = (weakref.ref(snapshot, _forget(key)), size, {})
        _CACHE[key] = entry
    views = entry[2]
    if name not in views:
        views[name] = build(snapshot)
    result: T = views[name]
    return result
