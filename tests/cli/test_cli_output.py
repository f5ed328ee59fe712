"""Output a newcomer can use: it survives pipes, errors are bounded, notes are specific, links work.

Each test names the item of the CLI issue it proves: plain layout and TSV in pipes with ids and
links whole, the fails first and `grep fail` finding only them, a summary that adds up in checks,
`--width` and `--all`; "did you mean" with the closest few; notes that name skipped files and a
Secrets line said once; incident links to a configured library or to the public source; a page past
the end; one language setting for every command.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kubegap.checker.registry import all_checks
from kubegap.cli import main
from kubegap.cli_support import resolve_lang

INCIDENT = "openai-2025-06-gpu-host-os-update-network-loss"
_BOX = re.compile("[┏┃┡│└━─]")


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exited:
        main(list(args))
    captured = capsys.readouterr()
    return int(exited.value.code or 0), captured.out, captured.err


@pytest.fixture(autouse=True)
def _english_and_no_library(monkeypatch: pytest.MonkeyPatch) -> None:
    for variable in ("KUBEGAP_LANG", "KUBEGAP_LIBRARY_URL", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("KUBEGAP_DB", ":memory:")


_SEVERITIES = "(critical|high|medium|low|info)"


def test_piped_scan_is_plain_one_finding_per_line_with_ids_and_links_whole(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = _run(capsys, "scan", "--demo")
    assert code == 1 and not _BOX.search(out)
    lines = out.splitlines()
    ids = {check.id for check in all_checks()}
    fails = [line for line in lines if line.startswith("fail  ")]
    assert len(fails) >= 20  # one line each: verdict, severity, check id, object, message
    for line in fails:
        found = re.match(rf"fail  {_SEVERITIES}  (\S+)  \S+/\S+  \S", line)
        assert found and found.group(2) in ids, line  # the id whole, where a script expects it
    # `grep fail` finds the fail lines and nothing else: no header, legend or summary line says it
    assert [line for line in lines if re.search(r"\bfail", line)] == fails
    assert len(lines) <= len(fails) + 8  # signal first: the fails, then a few summary lines
    summary = next(line for line in lines if re.fullmatch(r"\d+ checks: .*", line))
    numbers = [int(number) for number in re.findall(r"(\d+) [a-z]", summary.split(": ", 1)[1])]
    assert sum(numbers) == len(ids) == int(summary.split()[0])  # the summary adds up, in checks

    code, out, _ = _run(capsys, "scan", "--demo", "--all")
    lines = out.splitlines()
    for check_id in ids:  # every check is listed, its id whole on the line that names it
        assert any(f"  {check_id}  " in line or line.startswith(f"# {check_id}: ") for line in lines), (
            check_id
        )
    links = [word for line in lines for word in line.split() if word.startswith("http")]
    assert links and all(re.fullmatch(r"https?://\S+", link) for link in links)
    verdicts = [line for line in lines if re.match(r"(fail|unknown|pass|not-applicable)  ", line)]
    assert {line.split()[0] for line in verdicts} == {"fail", "unknown", "pass", "not-applicable"}


def test_tsv_has_one_row_per_finding_with_fixed_columns(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = _run(capsys, "scan", "--demo", "--format", "tsv")
    rows = [line.split("\t") for line in out.splitlines()]
    assert rows[0] == [
        "check",
        "status",
        "severity",
        "object",
        "message",
        "reason",
        "evidence",
        "exempted-by",
        "location",
        "role",
    ]
    assert len(rows) > 30 and all(len(row) == 10 for row in rows)
    ids = {check.id for check in all_checks()}
    assert {row[0] for row in rows[1:]} <= ids


@pytest.mark.parametrize("width", [80, 100])
def test_width_keeps_the_table_and_never_wraps_a_check_id(
    capsys: pytest.CaptureFixture[str], width: int
) -> None:
    _, out, _ = _run(capsys, "scan", "--demo", "--format", "table", "--width", str(width), "--all")
    assert _BOX.search(out)
    assert max(len(line) for line in out.splitlines() if "https://" not in line) <= width
    ids = [check.id for check in all_checks()]
    for check_id in ids:
        # the Check column is as wide as the longest id: each id sits whole in one cell
        assert re.search(rf"[│┃] {re.escape(check_id)} +[│┃]", out), check_id
    links = [word for line in out.splitlines() for word in line.split() if word.startswith("https://")]
    assert links and all(not link.endswith("-") for link in links)
    _, compact, _ = _run(capsys, "scan", "--demo", "--format", "table", "--width", str(width))
    assert not _BOX.search(compact)  # by default: the fails under their checks, no boxed table
    headings = [line for line in compact.splitlines() if line.startswith("fail ")]
    assert headings and all(line.split()[2] in ids for line in headings)


def test_unknown_check_suggests_the_closest_three_not_all(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "scan", "--demo", "--check", "nccl-watchdg")
    assert code == 2 and not out and err.count("\n") == 1
    assert "did you mean nccl-watchdog-disabled" in err
    named = [check.id for check in all_checks() if check.id in err]
    assert 1 <= len(named) <= 3 and len(err) < 300


def test_a_far_off_check_id_gets_no_wild_guesses(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "checks", "show", "x" * 5000)
    assert code == 2 and err.count("\n") == 1 and len(err) < 300 and "did you mean" not in err


def test_unknown_facet_value_is_bounded(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "incidents", "list", "--cause", "hardwre-fault")
    assert code == 2 and "did you mean hardware-fault" in err and len(err) < 300
    code, _, err = _run(capsys, "incidents", "list", "--cause", "zzzzzzzz")
    assert code == 2 and "`kubegap facets` lists the values" in err and len(err) < 300


def test_page_past_the_end_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "incidents", "list", "--page", "99")
    assert code == 2 and err.startswith("Error: page 99 is past the end:") and err.count("\n") == 1
    code, out, _ = _run(capsys, "incidents", "list", "--page", "1")
    assert code == 0 and out


def test_notes_name_skipped_files_and_secrets_are_said_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "values.yaml").write_text("replicas: 3\nimage: x\n", encoding="utf-8")
    (tmp_path / "kustomization.yaml").write_text(
        "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n", encoding="utf-8"
    )
    (tmp_path / "app.yaml").write_text(
        "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\n---\n"
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: default}\n"
        "spec: {replicas: 1, template: {spec: {containers: [{name: c, image: nginx}]}}}\n",
        encoding="utf-8",
    )
    _, out, _ = _run(capsys, "scan", "--manifests", str(tmp_path), "--all")
    notes = [line for line in out.splitlines() if line.startswith("Note:")]
    skipped = next(note for note in notes if "not Kubernetes objects" in note)
    assert "values.yaml" in skipped and "kustomization.yaml" in skipped and "skipped 2 document(s)" in skipped
    dropped = next(note for note in notes if "Secret" in note)
    assert "dropped 1 Secret object(s) unread" in dropped and "app.yaml" in dropped
    assert sum("never read" in line for line in out.splitlines()) == 1  # the Secrets line, once
    _, out, _ = _run(capsys, "scan", "--manifests", str(tmp_path))
    said = [line for line in out.splitlines() if line.startswith("Notes (2): ")]
    assert len(said) == 1 and "(--all shows them)" in said[0]  # by default the notes take one line


def test_incident_links_go_to_the_source_unless_a_library_is_configured(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, out, _ = _run(capsys, "checks", "show", "gpu-driver-upgrade-policy")
    assert "127.0.0.1" not in out and "https://" in out
    monkeypatch.setenv("KUBEGAP_LIBRARY_URL", "https://library.example/")
    _, out, _ = _run(capsys, "scan", "--demo", "--check", "gpu-driver-upgrade-policy", "--all")
    assert f"https://library.example/en/incidents/{INCIDENT}" in out
    _, out, _ = _run(
        capsys,
        "scan",
        "--demo",
        "--check",
        "gpu-driver-upgrade-policy",
        "--all",
        "--library-url",
        "http://kb.local",
    )
    assert f"http://kb.local/en/incidents/{INCIDENT}" in out


@pytest.mark.parametrize(
    ("flag", "environment", "expected"),
    [
        ("ko", {}, "ko"),
        (None, {"KUBEGAP_LANG": "ko"}, "ko"),
        ("en", {"KUBEGAP_LANG": "ko"}, "en"),
        (None, {"LANG": "ko_KR.UTF-8"}, "ko"),
        (None, {"LC_ALL": "C", "LANG": "ko_KR.UTF-8"}, "en"),
        (None, {"LC_ALL": "ko_KR.UTF-8", "LANG": "en_US.UTF-8"}, "ko"),
        (None, {"KUBEGAP_LANG": "fr"}, "en"),
        (None, {}, "en"),
    ],
)
def test_one_language_setting(
    flag: str | None, environment: dict[str, str], expected: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    assert resolve_lang(flag) == expected


def test_every_command_follows_the_same_setting(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KUBEGAP_LANG", "ko")
    _, incidents, _ = _run(capsys, "incidents", "list")
    _, checks, _ = _run(capsys, "checks", "list")
    _, facets, _ = _run(capsys, "facets")
    assert "번째" in incidents and "높음" in checks and "원인" in facets
    monkeypatch.setenv("KUBEGAP_LANG", "en")
    _, incidents, _ = _run(capsys, "incidents", "list")
    _, checks, _ = _run(capsys, "checks", "list")
    assert " of " in incidents.splitlines()[0] and " high " in checks
    _, out, _ = _run(capsys, "--lang", "ko", "checks", "list")  # before the subcommand
    assert "높음" in out


def test_piped_incident_lists_keep_every_id_whole_one_record_per_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import json

    _, data, _ = _run(capsys, "incidents", "list", "--per-page", "50", "--json")
    ids = [hit["id"] for hit in json.loads(data)["hits"]]
    _, out, _ = _run(capsys, "incidents", "list", "--per-page", "50")
    assert not _BOX.search(out)
    rows = out.splitlines()[1:-1]  # between the range line and the page line: one incident per line
    assert [row.split("  ")[1] for row in rows] == ids
    assert all(re.match(r"\d{4}-\d{2}-\d{2}  \S+  ", row) for row in rows)
    _, out, _ = _run(capsys, "incidents", "list", "-q", "Watchdog caught collective operation timeout")
    rows = [row for row in out.splitlines() if re.match(r"\d{4}-\d{2}-\d{2}  ", row)]
    assert rows and not [row for row in out.splitlines() if row.startswith(" ")]  # no continuation line
    assert any("  ↳ " in row for row in rows)  # the matched signature sits on the incident's own line
    _, data, _ = _run(capsys, "incidents", "similar", INCIDENT, "--json")
    expected = [item["id"] for item in json.loads(data)]
    _, out, _ = _run(capsys, "incidents", "similar", INCIDENT)
    assert expected and [line.split("  ")[0] for line in out.splitlines()] == expected
    assert "…" not in out


def test_a_mistyped_command_suggests_the_closest(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "scna")
    assert (
        code == 2 and "No such command 'scna' (did you mean scan, snapshot?)" in err and err.count("\n") == 1
    )


def test_kubectl_gap_names_itself_in_help(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Run as the kubectl plugin, usage lines say `kubectl gap`, not `kubegap`."""
    monkeypatch.setattr("sys.argv", ["/usr/local/bin/kubectl-gap", "scan", "--help"])
    code, out, _ = _run(capsys, "scan", "--help")
    assert code == 0 and out.startswith("Usage: kubectl gap scan ")
    monkeypatch.setattr("sys.argv", ["/usr/local/bin/kubegap", "--help"])
    code, out, _ = _run(capsys, "--help")
    assert out.startswith("Usage: kubegap ")
