"""Symptoms now, on the emulated cluster: seeded trouble reaches every output; a hostile stream does not.

Each test reads the emulator through the real GET-only client and ends with `assert_read_only` (the
fixture checks again at teardown): no write verb, no Secret.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import subprocess
import sys
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from k8s_emulator import Fault, KubeEmulator
from k8s_emulator.symptoms import (
    CREDENTIALS,
    EXPECTED,
    as_events_v1,
    event,
    hostile_events,
    seeded_cluster,
    served_by_both_groups,
)
from k8s_emulator.testing import StartEmulator, assert_read_only
from kubegap.checker.live.reader import read_cluster
from kubegap.checker.reports import render
from kubegap.checker.scanning import LiveTarget, ScanRequest, run_scan
from kubegap.checker.symptoms import SIGNAL_KINDS, collect_symptoms
from kubegap.checker.symptoms.catalog import catalog
from kubegap.checker.symptoms.events import MAX_OBJECTS, MAX_REASONS

Kubeconfig = Callable[[KubeEmulator], Path]
FORMATS = ("table", "plain", "json", "markdown", "sarif")
REPO = Path(__file__).resolve().parents[3]


def _kubegap(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("KUBECONFIG", "KUBERNETES_SERVICE_HOST")
    }
    env["HOME"] = str(home)
    command = [sys.executable, "-m", "kubegap", *args]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=300, check=False)


def _outputs(kubeconfig: Path) -> tuple[Any, dict[str, str]]:
    report = run_scan(ScanRequest(live=LiveTarget(str(kubeconfig))))
    return report, {fmt: render(report, fmt, "en", full=True) for fmt in FORMATS}


def _assert_no_leak(text: str) -> None:
    for secret in CREDENTIALS:
        pieces = {secret[start : start + 8] for start in range(0, len(secret) - 7)}
        assert not [piece for piece in pieces if piece in text], "a planted credential reached an output"


def test_a_seeded_cluster_shows_each_symptom_with_its_catalog_entry_incidents_and_checks(
    start_emulator: StartEmulator, kubeconfig_for: Kubeconfig
) -> None:
    emulator = start_emulator(seeded_cluster(dt.datetime.now(dt.UTC)))
    report, outputs = _outputs(kubeconfig_for(emulator))
    document = json.loads(outputs["json"])["symptoms"]
    assert document["status"] == "read"
    assert document["window"]["seconds"] == 24 * 3600
    found = {(group["symptom"], group["place"]): group for group in document["groups"]}
    known = catalog()
    for signature, place, distinct in EXPECTED:
        group = found[(signature, place)]
        assert group["distinct"] == distinct, (signature, place)
        entry = known.signature(signature)
        assert group["incidents"] == list(entry.incidents)
        assert set(entry.checks) <= set(group["checks"])
        assert group["catalogEntry"] is entry.catalog
    assert found[("xid-79", "node gpu-b")]["occurrences"] == 6  # three events of count 2: distinct apart
    assert "xid-13" not in {group["symptom"] for group in document["groups"]}  # older than the window
    assert found[("xid-79", "node gpu-b")]["incidents"] == ["ornl-2016-titan-gpu-resistor-corrosion"]
    for fmt, text in outputs.items():
        for signature, place, _ in EXPECTED:
            assert signature in text, (fmt, signature)
            if fmt not in ("json", "sarif"):
                assert place in text, (fmt, place)
        _assert_no_leak(text)
    sarif = json.loads(outputs["sarif"])["runs"][0]["properties"]["symptoms"]
    assert sarif["groups"] == document["groups"]
    assert outputs["plain"].index("Symptoms now:") > outputs["plain"].index("fail ")  # after the fails
    assert report.symptoms is not None and report.symptoms.events == 11
    assert "Read, not checked: Event" not in outputs["plain"]  # the symptoms read them
    assert_read_only(emulator)


def test_kubegap_symptoms_prints_the_window_and_exits_by_what_it_saw(
    start_emulator: StartEmulator, kubeconfig_for: Kubeconfig, tmp_path: Path
) -> None:
    emulator = start_emulator(seeded_cluster(dt.datetime.now(dt.UTC)))
    kubeconfig = str(kubeconfig_for(emulator))
    done = _kubegap("symptoms", "--kubeconfig", kubeconfig, "--fail-on-symptoms", home=tmp_path)
    assert done.returncode == 1, done.stderr
    assert "window: last 24 h (" in done.stdout
    assert "symptom  xid-79  node gpu-b  3 events (6 times)" in done.stdout
    _assert_no_leak(done.stdout + done.stderr)
    short = _kubegap("symptoms", "--kubeconfig", kubeconfig, "--since", "1m", "-f", "json", home=tmp_path)
    assert short.returncode == 0, short.stderr
    assert json.loads(short.stdout)["window"]["seconds"] == 60  # nothing seeded is that recent
    assert not [group for group in json.loads(short.stdout)["groups"] if "event" in group["sources"]]
    paths = {request.path for request in emulator.requests}
    assert not [path for path in paths if "/log" in path]  # pod logs are never read
    assert_read_only(emulator)


def test_forbidden_events_make_the_section_unknown_never_no_symptoms(
    start_emulator: StartEmulator, kubeconfig_for: Kubeconfig, tmp_path: Path
) -> None:
    emulator = start_emulator(seeded_cluster(dt.datetime.now(dt.UTC)))
    emulator.inject(Fault(r"/api/v1/events", status=403))
    report, outputs = _outputs(kubeconfig_for(emulator))
    assert report.symptoms is not None and report.symptoms.status == "unknown"
    document = json.loads(outputs["json"])["symptoms"]
    assert document["status"] == "unknown" and "events not readable (403)" in document["reason"]
    for fmt in ("table", "plain", "markdown"):
        assert "Symptoms now: unknown: events not readable (403)" in outputs[fmt], fmt
        assert "Symptoms now: none" not in outputs[fmt]
    done = _kubegap("symptoms", "--kubeconfig", str(kubeconfig_for(emulator)), home=tmp_path)
    assert done.returncode == 4 and "unknown: events not readable (403)" in done.stdout
    assert_read_only(emulator)


CORE_EVENTS, V1_EVENTS = "/api/v1/events", "/apis/events.k8s.io/v1/events"


def _distinct(report: Any) -> dict[tuple[str, str], int]:
    assert report.symptoms is not None
    return {(group.signature.id, group.place): group.distinct for group in report.symptoms.groups}


def test_both_event_groups_are_read_and_an_event_served_by_both_counts_once(
    start_emulator: StartEmulator, kubeconfig_for: Kubeconfig
) -> None:
    now = dt.datetime.now(dt.UTC)
    only_v1 = as_events_v1(event(200, now, "XidError", "NVRM: Xid (PCI:0000:1a:00): 94, pid=9", name="gpu-e"))
    emulator = start_emulator([*served_by_both_groups(seeded_cluster(now)), only_v1])
    report = run_scan(ScanRequest(live=LiveTarget(str(kubeconfig_for(emulator)))))
    assert report.symptoms is not None and report.symptoms.status == "read"
    found = _distinct(report)
    for signature, place, distinct in EXPECTED:
        assert found[(signature, place)] == distinct, (signature, place)  # not twice
    assert found[("xid-94", "node gpu-e")] == 1  # served by events.k8s.io/v1 only
    assert emulator.count(CORE_EVENTS) == 1 and emulator.count(V1_EVENTS) == 1
    assert_read_only(emulator)


@pytest.mark.parametrize(
    ("refused", "status"),
    [(CORE_EVENTS, 403), (V1_EVENTS, 403), (V1_EVENTS, 404), (CORE_EVENTS, 404)],
)
def test_one_event_group_refused_leaves_the_other_to_count_every_event(
    start_emulator: StartEmulator, kubeconfig_for: Kubeconfig, refused: str, status: int
) -> None:
    emulator = start_emulator(served_by_both_groups(seeded_cluster(dt.datetime.now(dt.UTC))))
    emulator.inject(Fault(refused, status=status))
    report = run_scan(ScanRequest(live=LiveTarget(str(kubeconfig_for(emulator)))))
    assert report.symptoms is not None and report.symptoms.status == "read"
    found = _distinct(report)
    for signature, place, distinct in EXPECTED:
        assert found[(signature, place)] == distinct, (signature, place)
    assert_read_only(emulator)


def test_both_event_groups_refused_make_the_section_unknown(
    start_emulator: StartEmulator, kubeconfig_for: Kubeconfig
) -> None:
    emulator = start_emulator(served_by_both_groups(seeded_cluster(dt.datetime.now(dt.UTC))))
    emulator.inject(Fault(V1_EVENTS, status=404))
    emulator.inject(Fault(CORE_EVENTS, status=403))
    report = run_scan(ScanRequest(live=LiveTarget(str(kubeconfig_for(emulator)))))
    assert report.symptoms is not None and report.symptoms.status == "unknown"
    assert "events not readable (403)" in str(report.symptoms.reason)  # the refusal, not the 404
    assert not report.symptoms.groups or all("event" not in group.sources for group in report.symptoms.groups)
    assert_read_only(emulator)


def test_a_group_refused_part_way_hides_nothing_the_other_group_serves(
    start_emulator: StartEmulator, kubeconfig_for: Kubeconfig
) -> None:
    now = dt.datetime.now(dt.UTC)
    many = [
        event(1000 + index, now, "XidError", f"NVRM: Xid (PCI:0000:3b:00): 79, pid={index}", name="gpu-b")
        for index in range(700)  # past one page of 500
    ]
    emulator = start_emulator(served_by_both_groups([*seeded_cluster(now), *many]))
    emulator.inject(Fault(CORE_EVENTS, status=403, only_continue=True))  # the second page is refused
    report = run_scan(ScanRequest(live=LiveTarget(str(kubeconfig_for(emulator)))))
    assert report.symptoms is not None and report.symptoms.status == "read"
    assert _distinct(report)[("xid-79", "node gpu-b")] == 3 + 700
    assert_read_only(emulator)


def test_a_hostile_event_stream_is_bounded_counted_and_leaks_nothing(
    start_emulator: StartEmulator, kubeconfig_for: Kubeconfig
) -> None:
    count = 20_000
    emulator = start_emulator(list(hostile_events(count, dt.datetime.now(dt.UTC), message_bytes=2048)))
    tracemalloc.start()
    try:
        snapshot = read_cluster(list(SIGNAL_KINDS), kubeconfig=str(kubeconfig_for(emulator)))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    kept = snapshot.of("Event")
    assert len(kept) <= MAX_OBJECTS + MAX_REASONS + 1
    assert peak < 200 * 1024 * 1024  # 20,000 events of 2 KiB and 20 messages of 1 MB
    report = collect_symptoms(snapshot)
    assert report.status == "read" and report.events == count  # every Warning event counted once
    xid = [group for group in report.groups if group.signature.id == "xid-79"]
    assert sum(group.distinct for group in xid) == count // 5
    assert all(len(str(obj.get("message"))) <= 512 for obj in kept)
    text = json.dumps(kept, ensure_ascii=False)
    _assert_no_leak(text)
    from kubegap.checker.reports.symptoms_view import symptoms_data, symptoms_view, text_lines

    shown = "\n".join(text_lines(symptoms_view(report, "en"), "en")) + json.dumps(symptoms_data(report))
    _assert_no_leak(shown)
    assert not [character for character in "\x1b\u202e\x00\x07\r" if character in shown]
    assert_read_only(emulator)


def test_a_snapshot_keeps_the_symptoms_redacted(
    start_emulator: StartEmulator, kubeconfig_for: Kubeconfig, tmp_path: Path
) -> None:
    emulator = start_emulator(seeded_cluster(dt.datetime.now(dt.UTC)))
    target = tmp_path / "cluster.json"
    done = _kubegap(
        "snapshot", "--kubeconfig", str(kubeconfig_for(emulator)), "-o", str(target), home=tmp_path
    )
    assert done.returncode == 0, done.stderr
    _assert_no_leak(target.read_text())
    assert json.loads(target.read_text())["eventWindowSeconds"] == 24 * 3600
    offline = run_scan(ScanRequest(snapshot_paths=[target]))
    assert offline.symptoms is not None and offline.symptoms.status == "read"
    places = {(group.signature.id, group.place) for group in offline.symptoms.groups}
    assert {(signature, place) for signature, place, _ in EXPECTED} <= places
    assert_read_only(emulator)


@pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is not installed")
def test_kubectl_reads_the_seeded_events_as_kubegap_does(
    start_emulator: StartEmulator, tmp_path: Path
) -> None:
    emulator = start_emulator(seeded_cluster(dt.datetime.now(dt.UTC)), token=None)
    command = [str(shutil.which("kubectl")), "--server", emulator.url, "--cache-dir", str(tmp_path / "c")]
    env = {**os.environ, "HOME": str(tmp_path), "KUBECONFIG": str(tmp_path / "none")}
    listed = subprocess.run(
        [*command, "get", "events", "-A", "-o", "json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=True,
    )
    reasons = sorted(item["reason"] for item in json.loads(listed.stdout)["items"])
    assert reasons.count("XidError") == 8 and "IBLinkDown" in reasons
    assert_read_only(emulator)
