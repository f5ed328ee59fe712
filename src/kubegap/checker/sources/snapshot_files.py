"""Snapshot files: `kubectl get ... -o json|yaml` output (Lists or single objects) and kubegap snapshots.

Many files and folders merge into one Snapshot. Kinds present are `read`; a typed empty list
(`JobSetList` with no items) still says its kind was read. Kinds in no file stay `not-collected`
unless a kubegap snapshot recorded why they are missing (forbidden, absent, failed).
A snapshot is machine output, so any file that cannot be parsed is a one-line InputError.

A JSON List or kubegap snapshot is streamed a window of items at a time and each object compacted
(see `_stream` and `_compact`), so scanning a dump of a large cluster peaks at well under three times
its size in memory (bench/bench_checker.py), where parsing it whole costs nine. Any other file, or
one the stream cannot read, is parsed whole.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from kubegap.bilingual import message
from kubegap.checker.snapshot import Coverage, KindCoverage, Snapshot
from kubegap.checker.snapshot_file import is_snapshot_document, snapshot_header
from kubegap.checker.sources import notes
from kubegap.checker.sources._compact import Compactor
from kubegap.checker.sources._files import expand_paths, read_documents
from kubegap.checker.sources._intake import LEGACY_SECRETS_NOTE, SECRET_KINDS, Intake, is_list
from kubegap.checker.sources._stream import NotStreamable, item_stream
from kubegap.errors import InputError

_SOURCE_WORDS = {"snapshot": "스냅숏", "manifests": "매니페스트"}


def describe_paths(label: str, paths: Sequence[str | Path]) -> str:
    """'snapshot: a.json, b.json' (a Message, so Korean pages say '스냅숏: ...')."""
    names = [str(path) for path in paths]
    word = _SOURCE_WORDS.get(label, label)
    if len(names) > 3:
        return message(
            "{word}: {first} 외 {more}개",
            "{label}: {first} and {more} more",
            word=word,
            label=label,
            first=names[0],
            more=len(names) - 1,
        )
    return message("{word}: {names}", "{label}: {names}", word=word, label=label, names=", ".join(names))


def _merge_header(target: Snapshot, header: Snapshot) -> None:
    """Fold a kubegap snapshot's metadata and coverage in; `read` anywhere wins over a missing kind."""
    for key, coverage in header.coverage.items():
        current = target.coverage.get(key)
        if current is None or (coverage.status is Coverage.read and current.status is not Coverage.read):
            target.coverage[key] = coverage
    for field in ("context", "kubeconfig", "created_at"):
        if not getattr(target, field):
            setattr(target, field, getattr(header, field))
    target.requests += header.requests
    target.notes.extend(
        note for note in header.notes if note not in target.notes and note != LEGACY_SECRETS_NOTE
    )
    if header.source:
        target.notes.append(notes.originally_from(header.source))


@contextmanager
def _collector_paused() -> Iterator[None]:
    """No garbage collection while loading: the objects form no cycles, and each pass over the
    growing snapshot would cost more than the whole parse."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _add_document(snapshot: Snapshot, intake: Intake, data: Any, path: str) -> None:
    if is_snapshot_document(data):
        _merge_header(snapshot, snapshot_header(data, path))
        for item in data.get("items") or []:
            intake.add(item, path)
    elif isinstance(data, dict) and (is_list(data) or "kind" in data):
        intake.add(data, path)
    else:
        raise InputError(
            message(
                "{path}: Kubernetes 오브젝트도, List도, kubegap 스냅숏도 아닙니다",
                "{path}: not a Kubernetes object, List or kubegap snapshot",
                path=path,
            )
        )


def _is_secret(item: object, list_kind: object) -> bool:
    """A Secret by its own kind, or an item without kind in a SecretList."""
    if not isinstance(item, dict):
        return False
    kind = item.get("kind")
    if kind is None:
        return list_kind == "SecretList"
    return isinstance(kind, str) and kind in SECRET_KINDS


def _stream_file(snapshot: Snapshot, intake: Intake, path: Path) -> bool:
    """Stream one JSON List or kubegap snapshot into the intake; False when it must be read whole.

    Items are held back until the members after `items` are read (kubectl writes `kind` after
    them), then handed to the intake exactly as a whole-file read would; nothing reaches the intake
    from a file that turns out not to stream.
    """
    compactor = Compactor()
    staged: list[Any] = []
    secrets = 0
    try:
        with item_stream(path) as stream:
            list_kind = stream.head.get("kind")
            for window in stream.windows():
                for item in window:
                    if _is_secret(item, list_kind):
                        secrets += 1
                    else:
                        staged.append(compactor.compact(item))
            document = stream.document()
    except NotStreamable:
        return False
    if not (is_snapshot_document(document) or is_list(document)):
        return False  # a single object that happens to have an `items` field
    document["items"] = staged
    _add_document(snapshot, intake, document, str(path))
    intake.drop_secrets(secrets, str(path))
    return True


def load_snapshot_files(paths: Sequence[str | Path]) -> Snapshot:
    """Read snapshot files and folders (.json, .yaml, .yml, optionally .gz) into one Snapshot."""
    if not paths:
        raise InputError("no snapshot file given")
    snapshot = Snapshot(mode="snapshot", source=describe_paths("snapshot", paths))
    intake = Intake(snapshot)
    documents = 0
    outside: list[Path] = []
    with _collector_paused():
        for path, _explicit in expand_paths(paths, outside):
            if _stream_file(snapshot, intake, path):
                documents += 1
                continue
            for document in read_documents(path):
                if document.data is None:
                    continue
                documents += 1
                _add_document(snapshot, intake, document.data, document.path)
    if documents == 0:
        where = describe_paths("snapshot", paths).split(": ", 1)[1]
        raise InputError(
            message("{where}: 비어 있어 오브젝트가 없습니다", "{where}: empty, no objects found", where=where)
        )
    if outside:
        snapshot.notes.append(notes.links_outside(str(path) for path in outside))
    # Secrets are listed as never read even when a kubegap snapshot said otherwise.
    snapshot.coverage["Secret"] = KindCoverage(Coverage.not_collected, "never read by kubegap")
    snapshot.objects.pop("Secret", None)
    return intake.finish()


def read_snapshot(path: str | Path) -> Snapshot:
    """Read one kubegap snapshot file (plain or gzipped JSON), through the same door as every source.

    A kubectl List given here is read too; it simply carries no coverage beyond the kinds it holds.
    """
    return load_snapshot_files([path])
