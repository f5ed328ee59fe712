"""A snapshot scan costs per distinct pod template, not per pod, and says the same as before.

The loader stores equal parts once, so the pods of one template share their containers; the workload
model works out what it reads from them (GPUs, commands, env, images, unrendered fields) and the role
once per template, the running-job view counts GPUs once per container list, and the checks run with
the garbage collector off. These tests count that work and prove the report is byte for byte the
one a scan without any shared part (each object parsed on its own) gives.
"""

from __future__ import annotations

import gc
from dataclasses import replace
from pathlib import Path
from typing import Any

import orjson
import pytest

import kubegap.checker.extract.jobs as jobs
import kubegap.checker.extract.podspec as podspec
import kubegap.checker.scanning as scanning
import kubegap.checker.workload.model as model
from k8s_emulator.factories import gpu_cluster, pod
from kubegap.checker.extract.jobs import running_gpu_pods
from kubegap.checker.reports import render
from kubegap.checker.runner import run_checks
from kubegap.checker.snapshot import Snapshot
from kubegap.checker.sources import load_demo, load_snapshot_files
from kubegap.checker.workload import workloads

SPECS = 3
PODS = 300


def _bare_pods() -> list[dict[str, Any]]:
    """Bare pods (each its own workload) from SPECS specs, with names that say nothing about a role."""
    return [
        pod(
            f"app-{index:05d}",
            "team",
            node=f"node-{index % 7}",
            gpus=index % SPECS,
            image=f"registry.example.com/app-{index % SPECS}:1.0",
        )
        for index in range(PODS)
    ]


def _load(tmp_path: Path, objects: list[dict[str, Any]]) -> Snapshot:
    path = tmp_path / "cluster.json"
    path.write_bytes(orjson.dumps({"apiVersion": "v1", "kind": "List", "items": objects}))
    return load_snapshot_files([path])


def _unshared(snapshot: Snapshot) -> Snapshot:
    """The same snapshot with every object parsed on its own: no part shared between objects."""
    copy = replace(snapshot, objects={}, coverage=dict(snapshot.coverage))
    copy.objects = {
        key: [orjson.loads(orjson.dumps(obj)) for obj in objs] for key, objs in snapshot.objects.items()
    }
    return copy


def _counting(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[int]:
    calls: list[int] = []
    original = getattr(module, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


def test_roles_and_template_facts_are_worked_out_once_per_template(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    snapshot = _load(tmp_path, _bare_pods())
    roles = _counting(monkeypatch, model, "classify")
    gpus = _counting(monkeypatch, model, "gpus_requested")
    found = workloads(snapshot)
    assert len(found) == PODS
    assert len(roles) == SPECS and len(gpus) == SPECS
    assert {workload.templates[0].gpus for workload in found} == set(range(SPECS))


def test_running_jobs_count_gpus_once_per_container_list(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    snapshot = _load(tmp_path, list(gpu_cluster(nodes=10, pods=400)))
    counted = _counting(monkeypatch, podspec, "gpus_requested")
    if hasattr(jobs, "gpus_requested"):  # counted wherever the view calls it from
        monkeypatch.setattr(jobs, "gpus_requested", podspec.gpus_requested)
    pods = running_gpu_pods(snapshot)
    assert pods, "the cluster runs GPU jobs"
    templates = {id(obj["spec"]["containers"]) for obj in snapshot.of("Pod")}
    assert len(counted) <= len(templates) < len(snapshot.of("Pod")) / 10


def test_checks_run_with_the_collector_off_and_leave_it_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "cluster.json"
    path.write_bytes(orjson.dumps({"apiVersion": "v1", "kind": "List", "items": _bare_pods()}))
    seen: list[tuple[bool, int]] = []

    def spy(snapshot: Snapshot, **options: Any) -> Any:
        seen.append((gc.isenabled(), gc.get_freeze_count()))
        return run_checks(snapshot, **options)

    monkeypatch.setattr("kubegap.checker.runner.run_checks", spy)
    frozen_before = gc.get_freeze_count()
    scanning.run_scan(scanning.ScanRequest(snapshot_paths=[path]))
    assert seen and seen[0][0] is False and seen[0][1] > frozen_before
    assert gc.isenabled() and gc.get_freeze_count() == frozen_before


@pytest.mark.parametrize("source", ["bare pods", "gpu cluster", "demo"])
def test_report_is_byte_identical_to_a_scan_of_unshared_objects(tmp_path: Path, source: str) -> None:
    if source == "demo":
        snapshot = load_demo()
    else:
        objects = _bare_pods() if source == "bare pods" else list(gpu_cluster(nodes=10, pods=400))
        snapshot = _load(tmp_path, objects)

    def report_json(scanned: Snapshot) -> str:
        report = replace(run_checks(scanned), started_at="t0", finished_at="t1")
        return render(report, "json")

    shared = report_json(snapshot)
    assert shared == report_json(_unshared(snapshot))
    assert '"findings"' in shared


def test_indexed_phrase_matching_picks_what_trying_every_phrase_in_order_picks() -> None:
    from kubegap.checker.extract.agents import _NAME_PHRASES
    from kubegap.checker.extract.words import first_phrase, tokens
    from kubegap.checker.workload import signals

    lists = [
        _NAME_PHRASES,
        signals._BENCHMARK_PHRASES,
        signals._TRAINING_WORDS,
        signals._BATCH_WORDS,
        signals._NOTEBOOK,
        signals._SERVING_IMAGES,
        signals._SAMPLE_IMAGES,
    ]
    for phrases in lists:
        texts = [f"x-{a}-{b}-y" for a in phrases[:12] for b in phrases[-12:]]
        texts += [f"{phrase}ish-{phrase.split('-')[0]}" for phrase in phrases] + ["", "nothing-here"]
        for text in texts:
            words = tokens(text)
            # A list takes the plain path (each phrase tried in order); the tuple goes through the index.
            assert first_phrase(words, phrases) == first_phrase(words, list(phrases)), text
