"""Load a check fixture: multi-document YAML of Kubernetes objects plus header comments.

Header lines (leading comments) the loader understands:
    # coverage: apps/DaemonSet=forbidden     a kind the pretend scan could not read
    # mode: manifests                        scan mode (default: snapshot)
    # read-at: 2026-12-02T12:00:00Z          when the pretend scan read the cluster (default: unknown)
    # created_at: 2026-12-02T12:00:00Z       the same, under the snapshot file's own field name
Outside manifests mode every kind the check needs is otherwise 'read' (a live scan that listed it and found
what is in the file); optional core kinds are read too, optional CRD kinds count as not installed unless the
file holds some. In manifests mode kinds not in the file are 'absent', exactly as for real manifest files.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from kubegap.checker.check import CheckMeta
from kubegap.checker.snapshot import Coverage, KindCoverage, Snapshot

FIXTURES = Path(__file__).parent


def _header(text: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        key, _, value = line.lstrip("# ").partition(":")
        if value:
            found.setdefault(key.strip(), []).append(value.strip())
    return found


def _is_crd(kind: str) -> bool:
    return "/" in kind and "." in kind.split("/")[0] and not kind.split("/")[0].endswith(".k8s.io")


def load_fixture(path: Path, meta: CheckMeta) -> Snapshot:
    text = path.read_text(encoding="utf-8")
    header = _header(text)
    snapshot = Snapshot(
        mode=(header.get("mode") or ["snapshot"])[0],
        source=f"fixture: {path.name}",
        created_at=(header.get("read-at") or header.get("created_at") or [""])[0],
    )
    for document in yaml.safe_load_all(text):
        if isinstance(document, dict):
            snapshot.add(document)
    if snapshot.mode != "manifests":  # manifests: a kind not in the files is absent, as in a real scan
        for kind in meta.needs:
            snapshot.coverage.setdefault(kind, KindCoverage(Coverage.read))
        for kind in meta.optional:
            status = Coverage.absent if _is_crd(kind) else Coverage.read
            snapshot.coverage.setdefault(kind, KindCoverage(status))
    for entry in header.get("coverage", []):
        for pair in entry.split(","):
            kind, _, status = pair.strip().partition("=")
            snapshot.coverage[kind] = KindCoverage(Coverage(status), "set by the fixture")
    return snapshot


def fixture_paths() -> list[Path]:
    outcomes = ("pass", "fail", "unknown")
    return sorted(path for path in FIXTURES.glob("*/*.yaml") if path.name.split("-")[0] in outcomes)
