"""kubegap's own snapshot format: the objects plus what could not be read and why.

A kubectl dump says nothing about what was forbidden or absent; this format keeps the coverage, so a
scan of the file later is exactly as honest as the live scan would have been:

    {"apiVersion": "kubegap.io/v1", "kind": "Snapshot", "source": "...", "createdAt": "...",
     "mode": "live", "context": "...", "kubegapVersion": "...", "requests": 42, "notes": [...],
     "coverage": {"Node": {"status": "read", "detail": ""}, ...}, "items": [...]}

JSON, gzipped when the file name ends in `.gz`. Secrets are never written (they were never read), and
unless asked for raw, ConfigMap contents and literal env values are redacted (`snapshot_redaction`).
"""

from __future__ import annotations

import datetime as dt
import gzip
import os
from pathlib import Path
from typing import Any

import orjson

from kubegap import __version__
from kubegap.bilingual import message
from kubegap.checker.snapshot import Coverage, KindCoverage, Snapshot
from kubegap.checker.snapshot_redaction import redact_objects
from kubegap.errors import InputError

API_VERSION = "kubegap.io/v1"
KIND = "Snapshot"


def is_snapshot_document(document: object) -> bool:
    return (
        isinstance(document, dict)
        and document.get("kind") == KIND
        and str(document.get("apiVersion", "")).startswith("kubegap.io/")
    )


REDACTED_NOTE = message(
    "이 스냅숏은 값을 가리고 썼습니다: ConfigMap 내용과 환경 변수 값 가운데 점검이 판정에 쓰지 않는 것은 "
    "[REDACTED]로 바뀌었습니다(kubegap snapshot --raw로 쓰면 그대로 남습니다)",
    "this snapshot was written redacted: ConfigMap contents and env values that no check judges read "
    "[REDACTED] (kubegap snapshot --raw keeps them)",
)


def snapshot_document(snapshot: Snapshot, *, redacted: bool) -> dict[str, Any]:
    """The document for a snapshot, its values redacted (`snapshot_redaction`) or, if not, as read.

    Unredacted, items are the snapshot's own dicts, not copies; redacted, only the parts that change
    are copied.
    """
    items = [obj for objects in snapshot.objects.values() for obj in objects]
    notes = list(snapshot.notes)
    if redacted:
        items = redact_objects(items)
        notes.append(REDACTED_NOTE)
    created_at = snapshot.created_at or dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat()
    coverage = {
        key: {"status": value.status.value, "detail": value.detail}
        for key, value in snapshot.coverage.items()
    }
    coverage.setdefault("Secret", {"status": Coverage.not_collected.value, "detail": "never read by kubegap"})
    return {
        "apiVersion": API_VERSION,
        "kind": KIND,
        "source": snapshot.source,
        "createdAt": created_at,
        "mode": snapshot.mode,
        "context": snapshot.context,
        "kubeconfig": snapshot.kubeconfig,
        "kubegapVersion": __version__,
        "requests": snapshot.requests,
        "notes": notes,
        "coverage": coverage,
        "items": items,
    }


def write_snapshot(snapshot: Snapshot, path: str | Path, *, raw: bool = False) -> Path:
    """Write the snapshot file (gzip when the name ends in .gz) atomically; returns the path written.

    Values are redacted unless `raw` (see `snapshot_redaction`): a snapshot is a file people share.
    """
    path = Path(path)
    data = orjson.dumps(snapshot_document(snapshot, redacted=not raw))
    if path.name.endswith(".gz"):
        data = gzip.compress(data, compresslevel=6)
    temporary = path.with_name(f".{path.name}.partial")
    try:
        temporary.write_bytes(data)
        os.replace(temporary, path)
    except OSError as error:
        temporary.unlink(missing_ok=True)
        raise InputError(
            message(
                "{path}: 스냅숏을 쓸 수 없습니다({reason})",
                "{path}: cannot write snapshot: {reason}",
                path=str(path),
                reason=str(error.strerror or error),
            )
        ) from None
    return path


def _string(document: dict[str, Any], field: str, path: str) -> str:
    value = document.get(field, "")
    if value is None:
        return ""
    if not isinstance(value, str):
        raise InputError(f"{path}: snapshot field {field!r} must be a string")
    return value


def parse_coverage(raw: object, path: str) -> dict[str, KindCoverage]:
    """The `coverage` mapping, validated; an unknown status is an error, not a guess."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise InputError(f"{path}: snapshot 'coverage' must be a mapping of kind to status")
    coverage: dict[str, KindCoverage] = {}
    statuses = {status.value: status for status in Coverage}
    for key, value in raw.items():
        status = value.get("status") if isinstance(value, dict) else value
        detail = value.get("detail", "") if isinstance(value, dict) else ""
        if not isinstance(status, str) or status not in statuses:
            raise InputError(f"{path}: coverage of {key!r} has unknown status {status!r}")
        coverage[str(key)] = KindCoverage(statuses[status], detail if isinstance(detail, str) else "")
    return coverage


def snapshot_header(document: dict[str, Any], path: str) -> Snapshot:
    """A Snapshot carrying the document's metadata and coverage but no objects yet."""
    if document.get("apiVersion") != API_VERSION:
        raise InputError(
            f"{path}: unsupported snapshot version {document.get('apiVersion')!r}; expected {API_VERSION}"
        )
    if not isinstance(document.get("items", []), list):
        raise InputError(f"{path}: snapshot 'items' must be a list")
    notes = document.get("notes") or []
    requests = document.get("requests") or 0
    return Snapshot(
        coverage=parse_coverage(document.get("coverage"), path),
        source=_string(document, "source", path),
        mode="snapshot",
        requests=requests if isinstance(requests, int) else 0,
        context=_string(document, "context", path),
        kubeconfig=_string(document, "kubeconfig", path),
        created_at=_string(document, "createdAt", path),
        notes=[note for note in notes if isinstance(note, str)] if isinstance(notes, list) else [],
    )
