"""A live scan of the emulator finds exactly what a snapshot scan of the same objects finds.

The snapshot side is what `kubectl get <kind> -A -o json` would write, one List per kind; the live
side goes through discovery, paging, the token and the type-restoring of list items. Only where the
data came from (source, mode, request count) may differ. Every CRD a check reads is installed in the
emulated cluster, because a kubectl List cannot say "this CRD is not installed" (a live scan can).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest

from k8s_emulator import KubeEmulator
from k8s_emulator.factories import gpu_cluster
from k8s_emulator.testing import StartEmulator, assert_read_only

try:
    from kubegap.checker.live.rbac import kinds_read
    from kubegap.checker.registry import all_checks
    from kubegap.checker.runner import run_checks
    from kubegap.checker.sources import load_snapshot_files
except ImportError as missing:  # the engine is written alongside; say exactly what is missing
    pytest.skip(f"the scan engine is not importable yet: {missing}", allow_module_level=True)

from kubegap.checker.live.reader import read_cluster


def _cluster() -> list[dict[str, Any]]:
    """A GPU cluster where a few nodes lack their DCGM exporter pod, so checks both pass and fail."""
    objects = list(gpu_cluster(nodes=12, pods=12 * 4 + 600, namespaces=4))
    missing = {"gpu-node-00003", "gpu-node-00008"}
    return [
        obj
        for obj in objects
        if not (
            obj["kind"] == "Pod"
            and "dcgm-exporter" in obj["metadata"]["name"]
            and obj["spec"].get("nodeName") in missing
        )
    ]


def _write_kubectl_lists(
    emulator: KubeEmulator, objects: list[dict[str, Any]], kinds: list[str], folder: Path
) -> None:
    """One `kubectl get -o json` style List per kind the emulator serves, typed so an empty one counts."""
    folder.mkdir()
    served = {resource.key: resource for group in emulator.store.served.values() for resource in group}
    by_key: dict[str, list[dict[str, Any]]] = {key: [] for key in kinds if key in served}
    for obj in objects:
        group = obj["apiVersion"].rpartition("/")[0]
        by_key.setdefault(f"{group}/{obj['kind']}" if group else obj["kind"], []).append(obj)
    for index, (key, items) in enumerate(sorted(by_key.items())):
        resource = served[key]
        document = {
            "apiVersion": resource.api_version,
            "kind": f"{resource.kind}List",
            "metadata": {},
            "items": items,
        }
        (folder / f"{index:02d}-{resource.name}.json").write_bytes(orjson.dumps(document))


def _comparable(finding: Any) -> dict[str, Any]:
    data = dataclasses.asdict(finding)
    data["object"].pop("source_file", None)
    data["object"].pop("source_line", None)
    return data


def test_live_scan_equals_snapshot_scan(
    start_emulator: StartEmulator, kubeconfig_for: Callable[[KubeEmulator], Path], tmp_path: Path
) -> None:
    objects = _cluster()
    kinds = kinds_read(check.meta for check in all_checks())
    emulator = start_emulator(objects, enable=kinds)  # every CRD a check reads is installed, maybe empty
    _write_kubectl_lists(emulator, objects, kinds, tmp_path / "snapshot")

    live = run_checks(read_cluster(kinds, kubeconfig=str(kubeconfig_for(emulator))))
    offline = run_checks(load_snapshot_files([tmp_path / "snapshot"]))

    assert live.mode == "live" and offline.mode == "snapshot"
    live_findings = [_comparable(finding) for finding in live.findings]
    assert live_findings == [_comparable(finding) for finding in offline.findings]
    statuses = {finding["status"] for finding in live_findings}
    assert {"pass", "fail"} <= statuses, f"the fixture should exercise both verdicts, got {statuses}"
    assert live.requests == len(emulator.requests) > 0
    assert_read_only(emulator)
