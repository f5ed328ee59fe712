"""The error catalog: every rule reports file, line and field; the bundled entries are sound."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from kubegap.knowledge import load_knowledge
from kubegap.knowledge.loader import BUNDLED_ROOT

ENTRY = BUNDLED_ROOT / "errors" / "xid-79.yaml"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """The real taxonomy, incidents and studies, and one catalog entry copied in."""
    for folder in ("taxonomy", "incidents", "studies"):
        shutil.copytree(BUNDLED_ROOT / folder, tmp_path / folder)
    shutil.copy(BUNDLED_ROOT / "organizations.yaml", tmp_path / "organizations.yaml")
    (tmp_path / "errors").mkdir()
    shutil.copy(ENTRY, tmp_path / "errors" / "xid-79.yaml")
    return tmp_path


def _write(root: Path, name: str, change) -> Path:  # type: ignore[no-untyped-def]
    data = yaml.safe_load(ENTRY.read_text(encoding="utf-8"))
    data["id"] = name
    data["patterns"] = [f"pattern of {name}"]
    change(data)
    target = root / "errors" / f"{name}.yaml"
    target.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return target


def _problems(root: Path) -> list[str]:
    return [problem.render(root) for problem in load_knowledge(root).problems]


def _line_of(path: Path, text: str) -> int:
    return next(number for number, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def test_the_fixture_root_is_valid(root: Path) -> None:
    assert _problems(root) == []
    assert [entry.id for entry in load_knowledge(root).errors] == ["xid-79"]


def test_unknown_incident_is_reported_at_its_line(root: Path) -> None:
    path = _write(root, "bad-incident", lambda data: data.update(incidents=["no-such-incident-2020"]))
    line = _line_of(path, "no-such-incident-2020")
    assert _problems(root) == [
        f"errors/bad-incident.yaml:{line}: incidents: unknown incident 'no-such-incident-2020'"
    ]


def test_missing_study_row_is_reported(root: Path) -> None:
    path = _write(
        root,
        "bad-row",
        lambda data: data.update(study_rows=[{"study": "ncsa-2025-delta-gpu-resilience", "row": 99}]),
    )
    [problem] = _problems(root)
    assert problem.startswith("errors/bad-row.yaml:") and "has no row 99" in problem
    assert int(problem.split(":")[1]) == _line_of(path, "study: ncsa-2025-delta-gpu-resilience")


def test_id_must_match_the_file_name(root: Path) -> None:
    path = _write(root, "renamed", lambda data: None)
    text = path.read_text().replace("id: renamed", "id: other-name")
    path.write_text(text)
    line = _line_of(path, "id: other-name")
    assert _problems(root) == [
        f"errors/renamed.yaml:{line}: id: id 'other-name' differs from file name 'renamed'"
    ]


def test_a_pattern_claimed_twice_is_reported(root: Path) -> None:
    path = _write(root, "zz-twice", lambda data: data.update(patterns=["XID   79"]))
    line = _line_of(path, "XID   79")
    assert _problems(root) == [
        f"errors/zz-twice.yaml:{line}: patterns: pattern 'XID   79' is also claimed by 'xid-79'"
    ]


@pytest.mark.parametrize("spelling", ["XID79", "xid-79", "Ｘｉｄ　７９"])
def test_a_pattern_spelled_another_way_is_still_claimed_twice(root: Path, spelling: str) -> None:
    """The clash rule reads patterns as the matcher does: `XID79` and `Xid 79` find the same lines."""
    path = _write(root, "zz-spelled", lambda data: data.update(patterns=[spelling]))
    line = _line_of(path, spelling)
    assert _problems(root) == [
        f"errors/zz-spelled.yaml:{line}: patterns: pattern {spelling!r} is also claimed by 'xid-79'"
    ]


def test_a_pattern_of_machine_values_only_is_reported(root: Path) -> None:
    path = _write(root, "zz-noise", lambda data: data.update(patterns=["0x7f3a 10.0.0.1:80"]))
    line = _line_of(path, "0x7f3a")
    assert _problems(root) == [
        f"errors/zz-noise.yaml:{line}: patterns: pattern '0x7f3a 10.0.0.1:80' is only values that differ "
        "per machine"
    ]


def test_schema_problems_carry_lines(root: Path) -> None:
    path = _write(root, "no-meaning", lambda data: data.pop("meaning"))
    [problem] = _problems(root)
    assert problem.startswith("errors/no-meaning.yaml:1: meaning: required field is missing")
    path.write_text(path.read_text().replace("family: xid", "family: toaster"))
    line = _line_of(path, "family: toaster")
    assert any(f"errors/no-meaning.yaml:{line}: family:" in problem for problem in _problems(root))


def test_broken_yaml_is_one_problem_not_a_traceback(root: Path) -> None:
    (root / "errors" / "broken.yaml").write_text("id: [unclosed\n")
    [problem] = _problems(root)
    assert problem.startswith("errors/broken.yaml:") and "not valid YAML" in problem


def test_bundled_entries_name_real_checks_and_are_bilingual() -> None:
    from kubegap.checker.registry import all_checks

    check_ids = {check.meta.id for check in all_checks()}
    knowledge = load_knowledge()
    assert len(knowledge.errors) >= 20
    families = {entry.family.value for entry in knowledge.errors}
    assert {"xid", "nccl", "cuda", "nvml", "infiniband", "kubernetes", "etcd"} <= families
    for entry in knowledge.errors:
        assert set(entry.checks) <= check_ids, entry.id
        assert all(source.url.startswith("https://") for source in entry.sources)
        for text in (entry.title, entry.meaning, entry.usual_action):
            assert any("\uac00" <= char <= "\ud7a3" for char in text.ko), entry.id
            assert text.en.isascii() or any(char.isalpha() for char in text.en)
