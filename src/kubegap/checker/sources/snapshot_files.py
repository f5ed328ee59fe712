"""Snapshot files: `kubectl get ... -o json|yaml` output (Lists or single objects) and kubegap snapshots.

Many files and folders merge into one Snapshot. Kinds present are `read`; a typed empty list
(`JobSetList` with no items) still says its kind was read. Kinds in no file stay `not-collected`
unless a kubegap snapshot recorded why they are missing (forbidden, absent, failed).
A snapshot is machine output, so any file that cannot be parsed is a one-line InputError.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from kubegap.checker.snapshot import Coverage, KindCoverage, Snapshot
from kubegap.checker.snapshot_file import is_snapshot_document, snapshot_header
from kubegap.checker.sources._files import expand_paths, read_documents
from kubegap.checker.sources._intake import Intake, is_list
from kubegap.errors import InputError


def describe_paths(label: str, paths: Sequence[str | Path]) -> str:
    names = [str(path) for path in paths]
    if len(names) > 3:
        return f"{label}: {names[0]} and {len(names) - 1} more"
    return f"{label}: {', '.join(names)}"


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
    target.notes.extend(note for note in header.notes if note not in target.notes)
    if header.source:
        target.notes.append(f"snapshot originally from {header.source}")


def load_snapshot_files(paths: Sequence[str | Path]) -> Snapshot:
    """Read snapshot files and folders (.json, .yaml, .yml, optionally .gz) into one Snapshot."""
    if not paths:
        raise InputError("no snapshot file given")
    snapshot = Snapshot(mode="snapshot", source=describe_paths("snapshot", paths))
    intake = Intake(snapshot)
    documents = 0
    for path, _explicit in expand_paths(paths):
        for document in read_documents(path):
            if document.data is None:
                continue
            documents += 1
            if is_snapshot_document(document.data):
                header = snapshot_header(document.data, document.path)
                _merge_header(snapshot, header)
                for item in document.data.get("items") or []:
                    intake.add(item, "")
            elif isinstance(document.data, dict) and (is_list(document.data) or "kind" in document.data):
                intake.add(document.data, "")
            else:
                raise InputError(f"{path}: not a Kubernetes object, List or kubegap snapshot")
    if documents == 0:
        raise InputError(f"{describe_paths('snapshot', paths).split(': ', 1)[1]}: empty, no objects found")
    # Secrets are listed as never read even when a kubegap snapshot said otherwise.
    snapshot.coverage["Secret"] = KindCoverage(Coverage.not_collected, "never read by kubegap")
    snapshot.objects.pop("Secret", None)
    return intake.finish()
