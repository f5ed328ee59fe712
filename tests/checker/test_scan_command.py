"""`kubegap scan|snapshot|checks|rbac` through the real entry point: output, files and exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from engine_helpers import make_check, make_meta, node

from kubegap.checker import registry
from kubegap.checker.finding import Severity
from kubegap.checker.sources import demo_path
from kubegap.cli import main


@pytest.fixture
def fake_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Replace discovery with two checks of known severity, so exit codes do not depend on shipped checks."""
    checks = (
        make_check(make_meta("high-gap", severity=Severity.high)),
        make_check(make_meta("low-gap", severity=Severity.low)),
    )
    monkeypatch.setattr(registry, "_discovered", lambda: checks)


def _snapshot_file(tmp_path: Path, *, gap: bool) -> Path:
    path = tmp_path / "nodes.json"
    path.write_text(
        json.dumps({"apiVersion": "v1", "kind": "List", "items": [node("a", gap=gap), node("b")]})
    )
    return path


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exited:
        main(args)
    captured = capsys.readouterr()
    code = exited.value.code
    return (code if isinstance(code, int) else 0), captured.out, captured.err


@pytest.mark.usefixtures("fake_checks")
@pytest.mark.parametrize(
    ("gap", "extra", "expected"),
    [
        (False, [], 0),
        (True, [], 1),
        (True, ["--fail-on", "critical"], 0),
        (True, ["--fail-on", "low"], 1),
        (True, ["--fail-on", "never"], 0),
        (True, ["--check", "low-gap"], 0),
        (True, ["--check", "low-gap", "--fail-on", "low"], 1),
    ],
)
def test_exit_codes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], gap: bool, extra: list[str], expected: int
) -> None:
    code, out, err = _run(["scan", "--snapshot", str(_snapshot_file(tmp_path, gap=gap)), *extra], capsys)
    assert code == expected, err
    checked = 1 if "--check" in extra else 2
    assert f"{checked} check" in out and "Findings:" in out  # the summary, in checks and in findings


@pytest.mark.usefixtures("fake_checks")
def test_exemption_file_turns_exit_code_to_zero(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    exemptions = tmp_path / "exemptions.yaml"
    exemptions.write_text("- check: high-gap\n  name: a\n  reason: accepted for the burn-in pool\n")
    args = ["scan", "--snapshot", str(_snapshot_file(tmp_path, gap=True)), "--exemptions", str(exemptions)]
    code, out, _ = _run([*args, "-f", "json"], capsys)
    assert code == 0
    document = json.loads(out)
    assert document["summary"]["counts"]["exempted"] == 1


@pytest.mark.usefixtures("fake_checks")
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--check", "no-such-check"], "unknown check 'no-such-check'"),
        (["--manifests", "x.yaml"], "choose one source"),
        (["--exemptions", "/nonexistent/ex.yaml"], "cannot read exemptions file"),
        (["--format", "html"], "Invalid value"),
    ],
)
def test_errors_exit_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, _, err = _run(["scan", "--snapshot", str(_snapshot_file(tmp_path, gap=False)), *args], capsys)
    assert code == 2
    assert err.startswith("Error: ") and message in err and err.count("\n") == 1


@pytest.mark.usefixtures("fake_checks")
def test_output_file_and_formats(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    snapshot = str(_snapshot_file(tmp_path, gap=True))
    for fmt in ("json", "sarif", "markdown", "table"):
        target = tmp_path / f"report.{fmt}"
        code, out, _ = _run(
            ["scan", "--snapshot", snapshot, "-f", fmt, "-o", str(target), "--lang", "ko"], capsys
        )
        assert code == 1 and out == ""
        assert target.read_text(encoding="utf-8").strip()
    assert json.loads((tmp_path / "report.sarif").read_text())["version"] == "2.1.0"


@pytest.mark.usefixtures("fake_checks")
def test_status_and_severity_filters_narrow_output_not_exit_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["scan", "--snapshot", str(_snapshot_file(tmp_path, gap=True)), "-f", "json"]
    code, out, _ = _run([*args, "--status", "pass", "--min-severity", "high"], capsys)
    findings = json.loads(out)["findings"]
    assert code == 1
    assert {(f["checkId"], f["status"]) for f in findings} == {("high-gap", "pass")}


@pytest.mark.usefixtures("fake_checks")
def test_namespace_flag_applies_to_file_sources(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(
        ["scan", "--snapshot", str(_snapshot_file(tmp_path, gap=True)), "-n", "x", "-f", "json"], capsys
    )
    assert json.loads(out)["scan"]["namespaces"] == ["x"] and code == 1  # nodes are cluster-scoped: kept


def test_no_kubeconfig_prints_one_line_hint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("KUBECONFIG", str(tmp_path / "missing-config"))
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("KUBERNETES_SERVICE_HOST", raising=False)
    code, out, err = _run(["scan"], capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("Error: ")
    assert "kubegap scan --demo" in err and "--snapshot" in err


def test_demo_scan_runs_or_says_it_is_missing(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(["scan", "--demo", "-f", "json"], capsys)
    if demo_path() is None:
        assert code == 2 and "demo snapshot is not installed" in err
    else:
        assert code in (0, 1), err
        assert json.loads(out)["scan"]["mode"] == "demo"


@pytest.mark.usefixtures("fake_checks")
def test_checks_list_and_show(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["checks", "list", "--json"], capsys)
    assert code == 0 and [entry["id"] for entry in json.loads(out)] == ["high-gap", "low-gap"]
    code, out, _ = _run(["checks", "list", "--lang", "ko"], capsys)
    assert "Title of high-gap (ko)" in out
    code, out, _ = _run(["checks", "show", "high-gap"], capsys)
    assert code == 0 and "Fix high-gap like this" in out and "https://" in out and "127.0.0.1" not in out
    code, _, err = _run(["checks", "show", "nope"], capsys)
    assert code == 2 and "unknown check" in err


@pytest.mark.usefixtures("fake_checks")
def test_live_scan_and_snapshot_roundtrip_against_an_emulated_cluster(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from k8s_emulator import KubeEmulator

    with KubeEmulator([node("gpu-a", gap=True), node("gpu-b")], token="t0ken-for-tests") as emulator:
        kubeconfig = emulator.write_kubeconfig(
            tmp_path / "kubeconfig", context="lab", token="t0ken-for-tests"
        )
        code, out, err = _run(["scan", "--kubeconfig", str(kubeconfig), "-f", "json"], capsys)
        assert code == 1, err
        live = json.loads(out)
        assert (live["scan"]["mode"], live["scan"]["context"]) == ("live", "lab")
        assert live["scan"]["kubeconfig"] == str(kubeconfig) and live["scan"]["requests"] > 0
        target = tmp_path / "cluster.json.gz"
        code, _, err = _run(["snapshot", "-o", str(target), "--kubeconfig", str(kubeconfig)], capsys)
        assert code == 0 and "Wrote" in err
        assert emulator.non_get_requests() == [] and emulator.secret_requests() == []
    code, out, _ = _run(["scan", "--snapshot", str(target), "-f", "json"], capsys)
    offline = json.loads(out)
    assert code == 1 and offline["scan"]["context"] == "lab" and offline["scan"]["mode"] == "snapshot"
    assert offline["summary"]["counts"] == live["summary"]["counts"]


@pytest.mark.usefixtures("fake_checks")
def test_run_scan_is_the_same_path_as_the_cli(tmp_path: Path) -> None:
    from kubegap.checker.scanning import ScanRequest, run_scan
    from kubegap.errors import UsageError

    exemptions = tmp_path / "ex.yaml"
    exemptions.write_text("- check: low-gap\n  reason: accepted\n")
    snapshot = _snapshot_file(tmp_path, gap=True)
    report = run_scan(ScanRequest(snapshot_paths=[snapshot], exemptions_path=exemptions))
    assert report.counts == {"fail": 1, "exempted": 1, "unknown": 0, "pass": 2, "not-applicable": 0}
    only_low = run_scan(ScanRequest(snapshot_paths=[snapshot], check_ids=["low-gap"]))
    assert [summary.check_id for summary in only_low.checks] == ["low-gap"]
    with pytest.raises(UsageError, match="choose one source"):
        run_scan(ScanRequest(snapshot_paths=[snapshot], demo=True))


def test_a_folder_with_unreadable_files_names_them_everywhere_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Skipping input silently would pass a CI step on half the manifests: exit 2 unless asked not to."""
    folder = tmp_path / "k8s"
    folder.mkdir()
    (folder / "pod.yaml").write_text(
        "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec: {containers: [{name: c, image: x}]}\n"
    )
    (folder / "broken.yaml").write_text("kind: Pod\nmetadata: {name: [\n")
    (folder / "chart.yaml").write_text("kind: Job\nmetadata:\n  name: {{ .Values.name }}\n")
    code, out, _ = _run(["scan", str(folder), "-f", "plain", "--fail-on", "never"], capsys)
    assert code == 2
    assert "broken.yaml: not valid YAML at line" in out
    assert "chart.yaml: an unrendered template ({{ ... }}); render it first (`helm template`" in out
    code, out, _ = _run(
        ["scan", str(folder), "-f", "json", "--skip-unreadable", "--fail-on", "never"], capsys
    )
    assert code == 0
    skipped = json.loads(out)["summary"]["skippedFiles"]
    assert sorted(Path(name).name for name in skipped) == ["broken.yaml", "chart.yaml"]
    code, out, _ = _run(["scan", str(folder), "-f", "sarif", "--fail-on", "never"], capsys)
    invocation = json.loads(out)["runs"][0]["invocations"][0]
    assert code == 2 and invocation["executionSuccessful"] is False
    warned = [n for n in invocation["toolExecutionNotifications"] if n["level"] == "warning"]
    assert sorted(
        Path(n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]).name for n in warned
    ) == [
        "broken.yaml",
        "chart.yaml",
    ]
    code, out, _ = _run(["scan", str(folder), "-f", "markdown", "--lang", "ko", "--fail-on", "never"], capsys)
    assert code == 2 and "렌더링하지 않은 템플릿입니다" in out
    # a folder whose files all parse keeps the usual exit codes
    (folder / "broken.yaml").unlink()
    (folder / "chart.yaml").unlink()
    assert _run(["scan", str(folder), "-f", "plain", "--fail-on", "never"], capsys)[0] == 0


def test_a_file_with_no_kubernetes_object_exits_2_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Scanning Helm values by mistake used to exit 0 having checked nothing."""
    values = tmp_path / "values.yaml"
    values.write_text("replicaCount: 2\nimage: {repository: vllm/vllm-openai}\n")
    code, out, err = _run(["scan", str(values)], capsys)
    assert code == 2 and out == ""
    said = "no Kubernetes object found, nothing was checked (--skip-unreadable accepts such input)"
    assert err == f"Error: {values}: {said}\n"
    code, out, err = _run(["scan", str(values), "--lang", "ko"], capsys)
    assert code == 2 and err.startswith("오류: ") and "Kubernetes 오브젝트가 없어" in err
    code, out, _ = _run(["scan", str(values), "--skip-unreadable"], capsys)  # the pre-commit hook's way
    assert code == 0 and "no Kubernetes objects found" in " ".join(out.split())


@pytest.mark.usefixtures("fake_checks")
def test_output_into_a_missing_folder_is_refused_before_the_scan(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from kubegap.checker import scanning

    def no_scan(*args: object, **kwargs: object) -> None:
        raise AssertionError("the scan ran although its report could not be written")

    monkeypatch.setattr(scanning, "run_scan", no_scan)
    target = tmp_path / "missing" / "report.json"
    code, out, err = _run(
        ["scan", "--snapshot", str(_snapshot_file(tmp_path, gap=True)), "-o", str(target)], capsys
    )
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err == f"Error: {target}: cannot write report: folder {target.parent} does not exist\n"
    assert not target.parent.exists()
    code, _, err = _run(["scan", "--snapshot", "x.json", "-o", str(target), "--lang", "ko"], capsys)
    assert (code, err) == (2, f"오류: {target}: 보고서를 쓸 수 없습니다(없는 폴더: {target.parent})\n")


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_help_documents_every_exit_code(capsys: pytest.CaptureFixture[str], lang: str) -> None:
    for args in (["--help"], ["scan", "--help"]):
        code, out, _ = _run(["--lang", lang, *args], capsys)
        flat = " ".join(out.split())
        assert code == 0
        label = "종료 코드: 0" if lang == "ko" else "Exit codes: 0"
        assert label in flat and all(f" {number} " in flat for number in ("1", "2", "3")), flat


def test_the_readme_documents_every_exit_code() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Exit codes", 1)[1].split("\n#", 1)[0]
    for code in ("`0`", "`1`", "`2`", "`3`"):
        assert f"| {code} |" in section, code
