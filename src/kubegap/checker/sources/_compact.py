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
_SHAREABLE = (str, dict, list)
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
        if not isinstance(obj, dict) or isinstance(obj.get("items"), list):
            return obj
        if self._seen_bytes > TABLE_BYTES:
            self.clear()
        metadata = obj.get("metadata")
        if isinstance(metadata, dict):
            _prune(metadata)
        for key, value in obj.items():
            if key in _UNTOUCHED:
                continue
            if key == "metadata" and isinstance(value, dict):
                for inner, field in value.items():
                    if isinstance(field, _SHAREABLE) and inner not in _UNIQUE_METADATA:
                        value[inner] = self._share(field)
            elif isinstance(value, _SHAREABLE):
                obj[key] = self._share(value)
        return obj

    def _share(self, value: Any) -> Any:
        """The first seen value equal to `value`, its own parts shared; strings interned."""
        if isinstance(value, str):
            return sys.intern(value)
        try:
            key = orjson.dumps(value)
        except (TypeError, orjson.JSONEncodeError):  # not from orjson (cannot happen for parsed JSON)
            return value
        found = self._seen.get(key)
        if found is not None:
            return found
        self._seen[bytes(memoryview(key))] = value  # a compact copy: orjson's result holds 4 KiB
        self._seen_bytes += len(key)
        if isinstance(value, dict):
            for inner, field in value.items():
                if isinstance(field, _SHAREABLE):
                    value[inner] = self._share(field)
        else:
            for index, field in enumerate(value):
                if isinstance(field, _SHAREABLE):
                    value[index] = self._share(field)
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
