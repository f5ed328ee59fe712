"""Compaction drops fields and shares parts of snapshot objects; no check may notice.

Dropped fields (managed fields, the last-applied annotation) must be ones no code reads, or a check
would silently see them as absent: the source is searched for their names, and every check fixture
runs with them present and with them dropped, compacted, which must give the same findings.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import orjson
import pytest
from check_fixture_loader import fixture_paths, load_fixture

import kubegap
from kubegap.checker.registry import get_check
from kubegap.checker.runner import run_checks
from kubegap.checker.snapshot import Snapshot
from kubegap.checker.sources._compact import PRUNED_ANNOTATIONS, PRUNED_METADATA, Compactor

SOURCE = Path(kubegap.__file__).resolve().parent


def test_no_check_or_extractor_reads_a_pruned_field() -> None:
    """Compaction drops these fields; code that reads them would silently see them as absent."""
    pruned = [*PRUNED_METADATA, *PRUNED_ANNOTATIONS]
    readers = [
        (path.relative_to(SOURCE), name)
        for path in SOURCE.rglob("*.py")
        if path.name != "_compact.py"
        for name in pruned
        if name in path.read_text(encoding="utf-8")
    ]
    assert not readers, f"read after compaction dropped them: {readers}"


def _with_pruned_fields(obj: dict[str, Any]) -> dict[str, Any]:
    """The object as kubectl shows it: managed fields and a last-applied copy of itself."""
    obj = orjson.loads(orjson.dumps(obj, default=str))
    metadata = obj.setdefault("metadata", {})
    if isinstance(metadata, dict):
        metadata["managedFields"] = [{"manager": "kubectl", "operation": "Apply", "fieldsV1": {"f:spec": {}}}]
        annotations = metadata.get("annotations") if isinstance(metadata.get("annotations"), dict) else {}
        metadata["annotations"] = {**annotations, PRUNED_ANNOTATIONS[0]: orjson.dumps(obj).decode()}
    return obj


def _findings(snapshot: Snapshot, check_id: str) -> list[tuple[str, str, str]]:
    report = run_checks(snapshot, checks=[get_check(check_id)])
    return [(finding.status.value, finding.object.display(), finding.message) for finding in report.findings]


@pytest.mark.parametrize("path", fixture_paths(), ids=lambda path: f"{path.parent.name}/{path.stem}")
def test_every_fixture_has_the_same_findings_with_pruned_fields_present_or_dropped(path: Path) -> None:
    check = get_check(path.parent.name)
    loaded = load_fixture(path, check.meta)
    present, compacted = (copy.copy(loaded), copy.copy(loaded))
    present.objects, compacted.objects = {}, {}
    compactor = Compactor()
    for obj in loaded:
        present.add(_with_pruned_fields(obj))
        compacted.add(compactor.compact(_with_pruned_fields(obj)))
    assert _findings(present, check.id) == _findings(compacted, check.id) == _findings(loaded, check.id)
