"""Keep a large snapshot small in memory: drop what nothing reads, share what repeats.

Parsed JSON costs about five times its size as Python dicts, and a cluster repeats itself: the pods of
one Job carry the same containers, tolerations, owner reference and labels, thousands of times. So
every object read from a streamed JSON file passes through a Compactor, which

* drops `metadata.managedFields` and the `kubectl.kubernetes.io/last-applied-configuration`
  annotation, the two largest parts of a real object, which no check or extractor reads (a test keeps
  it that way);
* replaces any value below the object (its metadata excepted, which names one object) equal to one
  already seen with that one, so equal parts (a Job's pod spec, an owner reference, a status) are
  stored once; equality is judged on the value's JSON, so `1`, `1.0` and `true` never merge, and
  key order is kept;
* interns strings, except per-object ones (name, uid, ...) that would only grow the intern table.

Objects come out as plain dicts that may share nested values: the checks only read them (a test runs
every check and compares the objects afterwards). Only values parsed by orjson are compacted, as they
always encode back to the JSON they came from; YAML's dates, NaN and non-string keys never get here.
"""

from __future__ import annotations

import sys
from typing import Any

import orjson

PRUNED_METADATA = ("managedFields",)
PRUNED_ANNOTATIONS = ("kubectl.kubernetes.io/last-applied-configuration",)
# Unique per object: interning them only grows the intern table.
_UNIQUE_METADATA = frozenset({"name", "generateName", "uid", "resourceVersion"})
# Left exactly as read: the intake removes them (Secret payloads) or they are large and one of a kind.
_UNTOUCHED = frozenset({"data", "stringData", "binaryData"})
_NOT_SHARED = frozenset({"metadata", *_UNTOUCHED})  # the metadata is shared field by field
_NOTHING: frozenset[str] = frozenset()
# The table of values seen is emptied once its keys hold this many bytes: a value that repeats tends
# to repeat nearby (the pods of one Job are listed together), and unique values must not pile up.
TABLE_BYTES = 8 << 20


class Compactor:
    """Prunes, shares and interns the objects of one load; `compact` returns the same (changed) dict."""

    def __init__(self) -> None:
        self._seen: dict[bytes, Any] = {}
        self._seen_bytes = 0

    def compact(self, obj: Any) -> Any:
        """The object with unread fields dropped and repeated parts shared; Lists pass untouched."""
        if type(obj) is not dict or isinstance(obj.get("items"), list):
            return obj
        if self._seen_bytes > TABLE_BYTES:
            self.clear()
        metadata = obj.get("metadata")
        if type(metadata) is dict:
            _prune(metadata)
            self._share_parts(metadata, _UNIQUE_METADATA)
        self._share_parts(obj, _NOT_SHARED)
        return obj

    def _share_parts(self, value: dict[str, Any] | list[Any], skipped: frozenset[str]) -> None:
        """Intern the strings in `value` and share its dicts and lists, in place (the hot path)."""
        if isinstance(value, dict):
            for inner, field in value.items():
                kind = type(field)
                if (kind is str or kind is dict or kind is list) and inner not in skipped:
                    value[inner] = sys.intern(field) if kind is str else self._share(field)
        else:
            for index, field in enumerate(value):
                kind = type(field)
                if kind is str or kind is dict or kind is list:
                    value[index] = sys.intern(field) if kind is str else self._share(field)

    def _share(self, value: dict[str, Any] | list[Any]) -> Any:
        """The first seen value equal to `value` (judged on its JSON), else `value` with shared parts."""
        try:
            key = orjson.dumps(value)
        except orjson.JSONEncodeError:  # nested deeper than orjson writes: keep it as it is
            return value
        found = self._seen.get(key)
        if found is not None:
            return found
        self._seen[bytes(memoryview(key))] = value  # a compact copy: orjson's result holds 4 KiB
        self._seen_bytes += len(key)
        self._share_parts(value, _NOTHING)
        return value

    def clear(self) -> None:
        """Forget the values seen (they stay shared where already shared)."""
        self._seen.clear()
        self._seen_bytes = 0


def _prune(metadata: dict[str, Any]) -> None:
    for field in PRUNED_METADATA:
        metadata.pop(field, None)
    annotations = metadata.get("annotations")
    if isinstance(annotations, dict):
        for annotation in PRUNED_ANNOTATIONS:
            annotations.pop(annotation, None)
