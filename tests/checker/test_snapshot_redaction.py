"""`kubegap snapshot` redacts values by default: no credential in the file, and not one verdict changed.

The equivalence test runs every check over every check fixture and over the demo cluster twice, on
the objects as read and on the objects as the snapshot writer redacts them, and requires the same
findings (status, object, message, evidence). A check that starts to judge an env variable or a
ConfigMap file the writer redacts fails it. The leak test plants every seeded credential shape in
ConfigMaps, env values, flags and annotations and finds none of it in the written file.
"""

from __future__ import annotations

import dataclasses
import gzip
import json
import sys
from pathlib import Path
from typing import Any

import pytest

_TESTS = Path(__file__).resolve().parents[1]
for _folder in (_TESTS, _TESTS / "checks"):
    if str(_folder) not in sys.path:
        sys.path.insert(0, str(_folder))

from check_fixture_loader import fixture_paths, load_fixture  # noqa: E402

from kubegap.checker import snapshot_redaction  # noqa: E402
from kubegap.checker.finding import Finding  # noqa: E402
from kubegap.checker.registry import all_checks, get_check  # noqa: E402
from kubegap.checker.runner import run_checks  # noqa: E402
from kubegap.checker.snapshot import Snapshot  # noqa: E402
from kubegap.checker.snapshot_file import write_snapshot  # noqa: E402
from kubegap.checker.snapshot_redaction import redact_objects  # noqa: E402
from kubegap.checker.sources.demo import load_demo  # noqa: E402
from kubegap.checker.sources.snapshot_files import read_snapshot  # noqa: E402
from kubegap.redaction import REDACTED  # noqa: E402
from secret_seeds import leaks, seeds  # noqa: E402


def _redacted(snapshot: Snapshot) -> Snapshot:
    return dataclasses.replace(
        snapshot, objects={key: redact_objects(objects) for key, objects in snapshot.objects.items()}
    )


def _verdicts(findings: list[Finding]) -> list[tuple[object, ...]]:
    return [
        (f.check_id, f.status.value, f.object.display(), f.reason, f.message, f.message_in("ko"), f.evidence)
        for f in findings
    ]


def _count_redacted(value: Any) -> int:
    if isinstance(value, dict):
        return sum(_count_redacted(item) for item in value.values())
    if isinstance(value, list):
        return sum(_count_redacted(item) for item in value)
    return int(value == REDACTED)


def _fixtures_that_change() -> list[str]:
    changed = []
    redacted_values = 0
    for path in fixture_paths():
        check = get_check(path.parent.name)
        snapshot = load_fixture(path, check.meta)
        hidden = _redacted(snapshot)
        redacted_values += sum(_count_redacted(objects) for objects in hidden.objects.values())
        raw = run_checks(snapshot, checks=[check])
        if _verdicts(run_checks(hidden, checks=[check]).findings) != _verdicts(raw.findings):
            changed.append(f"{path.parent.name}/{path.name}")
    assert redacted_values >= 5, "the fixtures hold values the writer redacts, or this proves nothing"
    return changed


def test_every_check_fixture_gives_the_same_findings_redacted() -> None:
    assert _fixtures_that_change() == []


def test_the_fixtures_would_notice_a_value_checks_judge_being_redacted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With nothing kept (every env value, every ConfigMap file redacted) verdicts change: the test above
    has teeth, and every kept rule is there for a check."""
    monkeypatch.setattr(snapshot_redaction, "keeps_env_value", lambda name: False)
    monkeypatch.setattr(snapshot_redaction, "_is_counters_csv", lambda value: False)
    monkeypatch.setattr(snapshot_redaction, "KUEUE_CONFIG_KEY", "nothing")
    changed = _fixtures_that_change()
    folders = {name.split("/")[0] for name in changed}
    assert {"dcgm-ecc-xid-counters", "kueue-wait-for-pods-ready", "nccl-watchdog-disabled"} <= folders, (
        changed
    )


def test_the_demo_cluster_scans_the_same_from_a_redacted_and_a_raw_snapshot_file(tmp_path: Path) -> None:
    demo = load_demo()
    raw = read_snapshot(write_snapshot(demo, tmp_path / "raw.json", raw=True))
    redacted_path = write_snapshot(demo, tmp_path / "redacted.json.gz")
    redacted = read_snapshot(redacted_path)
    document = json.loads(gzip.decompress(redacted_path.read_bytes()))
    assert _count_redacted(document["items"]) > 0
    assert any("written redacted" in note for note in document["notes"])
    assert len(all_checks()) >= 40
    assert _verdicts(run_checks(redacted).findings) == _verdicts(run_checks(raw).findings)
    assert demo.of("Pod") == raw.of("Pod"), "writing a redacted file left the snapshot in memory alone"


def _planted_snapshot() -> tuple[Snapshot, list[Any]]:
    planted = seeds()
    snapshot = Snapshot(mode="live", source="live: context prod", context="prod")
    snapshot.add(
        {
            "apiVersion": "v1",
            "kind": "ConfigMap",
            "metadata": {"name": "app-config", "namespace": "team"},
            "data": {f"key-{index}": seed.carrier for index, seed in enumerate(planted)},
            "binaryData": {"blob": "c2VjcmV0"},
        }
    )
    env = [{"name": "APP_SETTING_" + str(index), "value": seed.carrier} for index, seed in enumerate(planted)]
    env += [{"name": "DB_PASSWORD", "value": planted[0].secret}, {"name": "EMPTY", "value": ""}]
    env.append({"name": "NCCL_DEBUG", "value": "INFO"})
    env.append({"name": "FROM_SECRET", "valueFrom": {"secretKeyRef": {"name": "db", "key": "password"}}})
    flags = [f"--password={seed.secret}" for seed in planted]
    snapshot.add(
        {
            "apiVersion": "apps/v1",
            "kind": "Deployment",
            "metadata": {"name": "web", "namespace": "team", "annotations": {"api-token": planted[1].secret}},
            "spec": {"template": {"spec": {"containers": [{"name": "web", "env": env, "args": flags}]}}},
        }
    )
    return snapshot, planted


def test_a_default_snapshot_file_carries_no_seeded_credential_and_keeps_the_structure(tmp_path: Path) -> None:
    snapshot, planted = _planted_snapshot()
    text = write_snapshot(snapshot, tmp_path / "snapshot.json").read_text(encoding="utf-8")
    assert leaks(text, planted) == []
    document = json.loads(text)
    config_map, deployment = document["items"]
    assert sorted(config_map["data"]) == sorted(f"key-{index}" for index in range(len(planted)))
    assert set(config_map["data"].values()) == {REDACTED} and config_map["binaryData"] == {"blob": REDACTED}
    env = {entry["name"]: entry for entry in deployment["spec"]["template"]["spec"]["containers"][0]["env"]}
    assert env["EMPTY"]["value"] == "" and env["NCCL_DEBUG"]["value"] == "INFO"
    assert env["FROM_SECRET"] == {
        "name": "FROM_SECRET",
        "valueFrom": {"secretKeyRef": {"name": "db", "key": "password"}},
    }
    assert {entry["value"] for name, entry in env.items() if name.startswith("APP_")} == {REDACTED}
    assert snapshot.of("ConfigMap")[0]["data"]["key-0"] == planted[0].carrier, (
        "the snapshot in memory is untouched"
    )


def test_a_raw_snapshot_file_keeps_the_values(tmp_path: Path) -> None:
    """The leak test above can fail: the same objects written raw carry every planted credential."""
    snapshot, planted = _planted_snapshot()
    text = write_snapshot(snapshot, tmp_path / "snapshot.json", raw=True).read_text(encoding="utf-8")
    assert {name for name, _piece in leaks(text, planted)} == {seed.format for seed in planted}


@pytest.mark.parametrize(
    ("csv", "kept"),
    [
        ("# ECC\nDCGM_FI_DEV_ECC_DBE_VOL_TOTAL, counter, Double-bit ECC errors.\n", True),
        ("DCGM_FI_DEV_XID_ERRORS, gauge, Last Xid\npassword=hunter2hunter2\n", False),
        ("", True),
    ],
)
def test_only_a_counters_csv_or_the_kueue_config_keeps_its_text(csv: str, kept: bool) -> None:
    config_map = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"a.csv": csv}}
    [shown] = redact_objects([config_map])
    assert (shown["data"]["a.csv"] == csv) is kept
