"""How much a snapshot or manifest file may ask of kubegap, and the checks that hold it to that.

A file is input from anyone (a PR's manifests, a snapshot sent by a colleague), so what it costs to
read must be bounded by kubegap, not by the file: an 8-level YAML alias bomb under 1 KB once kept
a scan busy for two minutes, and a gzip bomb can expand a few megabytes into many gigabytes. Every
limit breaks with one InputError line naming the file, the limit and what to do.

YAML is checked on its event stream before anything is built: events come from libyaml one at a
time and never recurse, so depth, document count, scalar size and the size aliases expand to are
known exactly, at a fraction of the cost of building the data. JSON documents read whole are walked
once without recursion.
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from kubegap.errors import InputError

FILE_BYTES_ENV = "KUBEGAP_MAX_FILE_BYTES"


@dataclass(frozen=True)
class Limits:
    """Generous for real clusters (a 1 GiB dump of a 10,000-node cluster reads), firm for bombs."""

    file_bytes: int = 1 << 30  # one streamed JSON List or snapshot, after gunzip
    whole_file_bytes: int = 256 << 20  # one file parsed whole (YAML, other JSON), after gunzip
    files: int = 100_000  # files found under the given folders
    documents: int = 20_000  # YAML documents in one file
    depth: int = 100  # nesting of mappings and lists (Kubernetes objects rarely pass 20)
    string_chars: int = 16 << 20  # one string (a ConfigMap holds at most 1 MiB)
    alias_values: int = 1_000_000  # values YAML aliases may add to one document when expanded
    # Gzip data past `bomb_after` bytes that expands more than `bomb_ratio`-fold: Kubernetes JSON
    # compresses 10 to 100-fold, a gzip bomb of spaces or repeats about 1,000-fold.
    bomb_after: int = 32 << 20
    bomb_ratio: int = 400


def limits() -> Limits:
    """The limits in force; $KUBEGAP_MAX_FILE_BYTES sets both per-file sizes (a huge dump, or tests)."""
    raw = os.environ.get(FILE_BYTES_ENV, "").strip()
    if raw.isdigit() and int(raw) > 0:
        return Limits(file_bytes=int(raw), whole_file_bytes=int(raw), bomb_after=int(raw))
    return Limits()


def _size(count: int) -> str:
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if count >= 1 << shift:
            return f"{count / (1 << shift):g} {unit}"
    return f"{count:,} bytes"


def too_large(path: Path, what: str, limit: int) -> InputError:
    return InputError(
        f"{path}: {what} more than {_size(limit)}; kubegap reads at most {_size(limit)} per file "
        f"(set {FILE_BYTES_ENV} to raise it)"
    )


def check_ratio(path: Path, expanded: int, compressed: int, chosen: Limits) -> None:
    if expanded > chosen.bomb_after and expanded > chosen.bomb_ratio * max(compressed, 1):
        raise InputError(
            f"{path}: gzip data that expands more than {chosen.bomb_ratio}-fold (a gzip bomb?); "
            "if it is real, gunzip it first"
        )


def gunzip(path: Path, raw: bytes, chosen: Limits) -> bytes:
    """Gzip data expanded up to the whole-file limit; a bomb stops early instead of filling memory.

    Several members (`cat a.gz b.gz`) are read one after the other, as gzip(1) does; bytes after the
    last member that do not start another one are ignored, as gzip(1) does too.
    """
    limit = chosen.whole_file_bytes
    parts: list[bytes] = []
    total = 0
    offset = 0
    while offset < len(raw):
        inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
        data: bytes = raw[offset:]
        try:
            while True:
                chunk = inflater.decompress(data, 1 << 20)
                total += len(chunk)
                if total > limit:
                    raise too_large(path, "decompresses to", limit)
                parts.append(chunk)
                left = len(inflater.unused_data) if inflater.eof else len(inflater.unconsumed_tail)
                check_ratio(path, total, len(raw) - left, chosen)
                if inflater.eof:
                    break
                data = inflater.unconsumed_tail
                if not data and not chunk:
                    break
        except zlib.error:
            raise InputError(f"{path}: damaged or truncated gzip data") from None
        if not inflater.eof:
            raise InputError(f"{path}: damaged or truncated gzip data")
        rest = inflater.unused_data
        offset = len(raw) - len(rest)
        if not rest.startswith(b"\x1f\x8b"):
            break
    return b"".join(parts)


class CappedReader:
    """A file object that refuses to give more than `limit` bytes (the streamed JSON path)."""

    def __init__(self, file: Any, path: Path, chosen: Limits, compressed: Any = None) -> None:
        self._file = file
        self._path = path
        self._limits = chosen
        self._compressed = compressed  # the gzip file under `file`, to tell a bomb by its ratio
        self._read = 0

    def read(self, size: int = -1, /) -> bytes:
        limit = self._limits.file_bytes
        allowed = min(limit + 1 - self._read, 4 << 20)
        block = bytes(self._file.read(allowed if size < 0 else min(size, allowed)))
        self._read += len(block)
        if self._read > limit:
            raise too_large(self._path, "holds (after gunzip)", limit)
        if self._compressed is not None:
            check_ratio(self._path, self._read, self._compressed.tell(), self._limits)
        return block


_START, _END, _SCALAR, _ALIAS, _DOCUMENT = range(5)
_EVENT_KINDS = {
    yaml.MappingStartEvent: _START,
    yaml.SequenceStartEvent: _START,
    yaml.MappingEndEvent: _END,
    yaml.SequenceEndEvent: _END,
    yaml.ScalarEvent: _SCALAR,
    yaml.AliasEvent: _ALIAS,
    yaml.DocumentStartEvent: _DOCUMENT,
}


def check_yaml(path: Path, text: str, loader_class: Any, chosen: Limits) -> None:
    """Refuse a YAML text past any limit, by its events, before a single value is built.

    An alias stands for every value under its anchor, so each one adds that anchor's expanded
    size to the document's alias budget: 9 levels of 9 aliases are 387 million values in 400 bytes.
    Values written out in the text cost no budget (their cost is bounded by the file's size).
    """
    documents = 0
    open_sizes: list[int] = []  # expanded size so far of each open collection
    open_anchors: list[str | None] = []
    anchors: dict[str, int] = {}  # anchor -> expanded size of the node it names
    from_aliases = 0
    loader = loader_class(text)
    try:
        for event in _events(loader):
            kind = _EVENT_KINDS.get(type(event))
            if kind is None:
                continue
            if kind == _START:
                open_sizes.append(1)
                open_anchors.append(event.anchor)
                if len(open_sizes) > chosen.depth:
                    raise InputError(f"{path}: YAML nested more than {chosen.depth} levels deep")
                continue
            if kind == _DOCUMENT:
                documents += 1
                anchors.clear()
                from_aliases = 0
                if documents > chosen.documents:
                    raise InputError(f"{path}: more than {chosen.documents:,} YAML documents; split the file")
                continue
            if kind == _END:
                size, anchor = open_sizes.pop(), open_anchors.pop()
            elif kind == _SCALAR:
                size, anchor = 1, event.anchor
                if len(event.value) > chosen.string_chars:
                    raise InputError(
                        f"{path}: a YAML string of more than {_size(chosen.string_chars)} characters"
                    )
            else:
                anchor = None
                if event.anchor not in anchors:
                    if event.anchor in open_anchors:
                        raise InputError(f"{path}: YAML alias *{event.anchor} refers to itself")
                    continue  # an unknown alias: the parser proper names the error
                size = anchors[event.anchor]
                from_aliases += size
                if from_aliases > chosen.alias_values:
                    raise InputError(
                        f"{path}: YAML aliases expand to more than {chosen.alias_values:,} values "
                        "(an alias bomb?)"
                    )
            if anchor is not None:
                anchors[anchor] = size
            if open_sizes:
                open_sizes[-1] += size
    finally:
        loader.dispose()


def _events(loader: Any) -> Iterator[Any]:
    while loader.check_event():
        yield loader.get_event()


def check_json(path: Path, data: Any, chosen: Limits) -> None:
    """Depth and string size of a parsed JSON document, walked without recursion."""
    pending: list[tuple[Any, int]] = [(data, 1)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, str):
            if len(value) > chosen.string_chars:
                raise InputError(
                    f"{path}: a JSON string of more than {_size(chosen.string_chars)} characters"
                )
            continue
        if isinstance(value, dict):
            children: Any = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth > chosen.depth:
            raise InputError(f"{path}: JSON nested more than {chosen.depth} levels deep")
        pending.extend((child, depth + 1) for child in children)
