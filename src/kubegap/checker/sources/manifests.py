"""Manifest files: YAML or JSON as you would `kubectl apply`, including Helm and kustomize output.

Multi-document files are split, `List` kinds flattened, and each object remembers its file and line
for SARIF. Documents that are not Kubernetes objects (Helm values, kustomization files) are skipped
with a note. A file found by walking a folder that cannot be parsed (an unrendered Helm template) is
skipped with a note; a file named explicitly that cannot be parsed is an error. Files that parse but
hold no Kubernetes object give an empty snapshot with a note. Kinds not present are `absent`:
manifests describe what you apply, not what the cluster runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from kubegap.bilingual import Message
from kubegap.checker.snapshot import Snapshot
from kubegap.checker.sources import notes
from kubegap.checker.sources._files import expand_paths, read_documents
from kubegap.checker.sources._intake import Intake
from kubegap.checker.sources.snapshot_files import describe_paths
from kubegap.errors import InputError

_TOOL_GROUPS = ("kustomize.config.k8s.io/", "config.kubernetes.io/", "kubegap.io/")


def _is_tool_document(data: dict[str, object]) -> bool:
    api_version = str(data.get("apiVersion", ""))
    kind = data.get("kind")
    return api_version.startswith(_TOOL_GROUPS) or (
        isinstance(kind, str) and kind in {"Kustomization", "Component"}
    )


def load_manifests(paths: Sequence[str | Path]) -> Snapshot:
    """Read manifest files and folders into one Snapshot in `manifests` mode."""
    if not paths:
        raise InputError("no manifest file given")
    snapshot = Snapshot(mode="manifests", source=describe_paths("manifests", paths))
    intake = Intake(snapshot, dedupe=False)
    unparsable: list[Message] = []
    not_objects: dict[str, int] = {}
    outside: list[Path] = []
    for path, explicit in expand_paths(paths, outside):
        try:
            documents = read_documents(path)
        except InputError as error:
            if explicit:
                raise
            unparsable.append(error.sentence())
            snapshot.skipped_files.append(str(path))
            continue
        for document in documents:
            data = document.data
            if data is None:
                continue
            if not isinstance(data, dict) or "kind" not in data or _is_tool_document(data):
                not_objects[str(document.path)] = not_objects.get(str(document.path), 0) + 1
                continue
            intake.add(data, document.path, document.line, document.index)
    if outside:
        snapshot.notes.append(notes.links_outside(str(path) for path in outside))
    if not_objects:
        snapshot.notes.append(notes.not_objects(sum(not_objects.values()), not_objects))
    for problem in unparsable[:20]:
        snapshot.notes.append(notes.unreadable_file(problem))
    if len(unparsable) > 20:
        snapshot.notes.append(notes.more_unreadable(len(unparsable) - 20))
    if intake.added == 0 and not snapshot.coverage:
        # Not an error: a config file beside the manifests (an NPD monitor JSON, Helm values) is a
        # valid input with nothing to check, and the report says so instead of failing the CI step.
        where = describe_paths("manifests", paths).split(": ", 1)[1]
        snapshot.notes.insert(0, notes.nothing_to_check(where))  # first: a report's one-line notes show it
    return intake.finish()
