"""`kubegap scan --context a --context b` and `--all-contexts` against several emulated clusters."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from fleet_helpers import Fleet, run_kubegap

from k8s_emulator.factories import gpu_cluster


def _single(kubeconfig: Path, context: str, home: Path) -> dict[str, Any]:
    done = run_kubegap("scan", "--kubeconfig", str(kubeconfig), "--context", context, "-f", "json", home=home)
    assert done.returncode in (0, 1), done.stderr
    report: dict[str, Any] = json.loads(done.stdout)
    return report


def test_fleet_json_has_every_cluster_and_a_matrix_that_agrees_with_single_scans(
    fleet: Fleet, gpu_objects: list[dict[str, Any]], tmp_path: Path
) -> None:
    fleet.add("east", gpu_objects)
    fleet.add("west", list(gpu_cluster(nodes=2, pods=10, namespaces=1)))
    fleet.add_unreachable("gone")
    fleet.add("locked", gpu_objects, token="another-token")  # answers 401 to our token
    kubeconfig = fleet.kubeconfig()
    done = run_kubegap(
        "scan", "--kubeconfig", str(kubeconfig), "--context", "east", "--context", "west",
        "--context", "gone", "--context", "locked", "--context", "missing", "-f", "json", home=tmp_path,
    )  # fmt: skip
    assert done.returncode == 3, done.stderr  # not every cluster could be read
    document = json.loads(done.stdout)
    assert document["kind"] == "FleetReport"
    clusters = {entry["name"]: entry for entry in document["clusters"]}
    assert [entry["name"] for entry in document["clusters"]] == ["east", "west", "gone", "locked", "missing"]
    assert clusters["east"]["status"] == clusters["west"]["status"] == "scanned"
    assert clusters["gone"]["status"] == "unreachable"
    assert "connection refused" in clusters["gone"]["error"]
    assert clusters["locked"]["status"] == "forbidden"
    assert "refused discovery (401)" in clusters["locked"]["error"]
    assert clusters["missing"]["status"] == "error"
    assert "missing" in clusters["missing"]["error"] and clusters["missing"]["report"] is None

    for name in ("east", "west"):
        report = clusters[name]["report"]
        assert report["scan"]["context"] == name
        assert clusters[name]["requests"] == report["scan"]["requests"] == len(fleet.emulators[name].requests)
        fleet.emulators[name].reset_log()
        alone = _single(kubeconfig, name, tmp_path)
        assert alone["summary"] == report["summary"]
        alone_status = {check["id"]: check["status"] for check in alone["checks"]}
        for row in document["matrix"]["rows"]:
            assert row["cells"][name] == alone_status[row["checkId"]]
            assert row["cells"]["gone"] == row["cells"]["locked"] == "error"
    assert document["fleet"]["requests"] == sum(entry["requests"] for entry in document["clusters"])
    assert document["fleet"]["scanned"] == 2 and document["fleet"]["clusters"] == 5
    assert document["matrix"]["clusters"] == ["east", "west", "gone", "locked", "missing"]
    # The two clusters differ, so the matrix is not a copy of one column.
    assert clusters["east"]["report"]["summary"] != clusters["west"]["report"]["summary"]


def test_all_contexts_scans_every_context_and_fails_on_gaps_when_all_are_reachable(
    fleet: Fleet, gpu_objects: list[dict[str, Any]], tmp_path: Path
) -> None:
    for name in ("a", "b", "c"):
        fleet.add(name, gpu_objects)
    done = run_kubegap(
        "scan", "--kubeconfig", str(fleet.kubeconfig()), "--all-contexts", "-f", "json", "--concurrency", "2",
        home=tmp_path,
    )  # fmt: skip
    document = json.loads(done.stdout)
    assert [entry["name"] for entry in document["clusters"]] == ["a", "b", "c"]
    assert all(entry["status"] == "scanned" for entry in document["clusters"])
    assert document["fleet"]["concurrency"] == 2
    severe = sum(
        entry["report"]["summary"]["failBySeverity"][level]
        for entry in document["clusters"]
        for level in ("high", "critical")
    )
    assert done.returncode == (1 if severe else 0), done.stderr  # --fail-on high by default
    fails = sum(entry["counts"]["fail"] for entry in document["clusters"])
    assert fails > 0
    base = ("scan", "--kubeconfig", str(fleet.kubeconfig()), "--all-contexts", "-f", "json")
    assert run_kubegap(*base, "--fail-on", "info", home=tmp_path).returncode == 1
    assert run_kubegap(*base, "--fail-on", "never", home=tmp_path).returncode == 0


def test_markdown_sarif_and_table_show_the_matrix_and_the_cluster_that_was_not_scanned(
    fleet: Fleet, gpu_objects: list[dict[str, Any]], tmp_path: Path
) -> None:
    fleet.add("prod-a", gpu_objects)
    fleet.add_unreachable("prod-b")
    kubeconfig = str(fleet.kubeconfig())
    base = ("scan", "--kubeconfig", kubeconfig, "--all-contexts")

    markdown = run_kubegap(*base, "-f", "markdown", home=tmp_path)
    assert markdown.returncode == 3  # a cluster could not be read
    assert "## kubegap fleet scan" in markdown.stdout
    assert "| `prod-a` | scanned |" in markdown.stdout
    assert "| `prod-b` | unreachable |" in markdown.stdout
    assert "| Check | Severity | `prod-a` | `prod-b` |" in markdown.stdout
    assert "not scanned" in markdown.stdout and "<details><summary>prod-a</summary>" in markdown.stdout

    sarif = json.loads(run_kubegap(*base, "-f", "sarif", home=tmp_path).stdout)
    assert sarif["version"] == "2.1.0"
    ids = [run["automationDetails"]["id"] for run in sarif["runs"]]
    assert ids == ["kubegap/prod-a/", "kubegap/not-scanned/"]
    assert sarif["runs"][0]["results"], "the GPU cluster's fails are SARIF results"
    notice = sarif["runs"][1]["invocations"][0]["toolExecutionNotifications"][0]
    assert notice["properties"] == {"cluster": "prod-b", "status": "unreachable"}

    table = run_kubegap(*base, "-f", "table", "--lang", "ko", home=tmp_path)  # piped, plain is the default
    assert "kubegap 플릿 스캔 · 클러스터 2개 중 1개 스캔" in table.stdout
    assert "스캔 못 함: prod-b" in table.stdout
    assert "Kubernetes API에 닿지 못했습니다: 연결이 거부됐습니다" in table.stdout
    english = run_kubegap(*base, "-f", "table", "--lang", "en", home=tmp_path).stdout
    assert "kubegap fleet scan · 1 of 2 cluster(s) scanned" in english and "Not scanned: prod-b" in english
    assert "연결 불가" in table.stdout and "스캔 못 함" in table.stdout
    assert "Traceback" not in table.stderr


def test_fleet_flags_with_an_offline_source_or_no_kubeconfig_are_one_line_errors(tmp_path: Path) -> None:
    mixed = run_kubegap("scan", "--demo", "--context", "a", "--context", "b", home=tmp_path)
    assert mixed.returncode == 2
    assert (
        mixed.stderr == "Error: a fleet scan reads live clusters: drop --snapshot, --manifests and --demo\n"
    )
    nothing = run_kubegap("scan", "--all-contexts", home=tmp_path)
    assert nothing.returncode == 2
    assert nothing.stderr.startswith("Error: --all-contexts needs a kubeconfig")


def test_serve_and_exporter_refuse_contradicting_flags_in_one_line(tmp_path: Path) -> None:
    serve = run_kubegap("serve", "--port", "0", "--all-contexts", "--demo", home=tmp_path)
    assert serve.returncode == 2
    assert serve.stderr == (
        "Error: several contexts are live clusters: drop --snapshot, --manifests, --demo, --no-scan\n"
    )
    exporter = run_kubegap("exporter", "--port", "0", "--demo", "--context", "a", home=tmp_path)
    assert exporter.returncode == 2
    assert (
        exporter.stderr == "Error: --demo exports the built-in cluster: drop --context and --all-contexts\n"
    )
    unknown = run_kubegap("exporter", "--port", "0", "--check", "no-such-check", home=tmp_path)
    assert (
        unknown.returncode == 2 and unknown.stderr.startswith("Error: ") and "no-such-check" in unknown.stderr
    )
    assert unknown.stderr.count("\n") == 1


def test_fleet_plain_and_tsv_are_one_line_per_finding_with_the_cluster(
    fleet: Fleet, gpu_objects: list[dict[str, Any]], tmp_path: Path
) -> None:
    """`-f plain` and `-f tsv` used to be ignored for a fleet (the boxed matrix came out)."""
    fleet.add("prod-a", gpu_objects)
    fleet.add_unreachable("prod-b")
    base = ("scan", "--kubeconfig", str(fleet.kubeconfig()), "--all-contexts")
    plain = run_kubegap(*base, "-f", "plain", home=tmp_path)
    assert plain.returncode == 3 and not re.search("[┏┃│━─]", plain.stdout)
    lines = plain.stdout.splitlines()
    assert lines[0].startswith("kubegap fleet scan · 1 of 2 cluster(s) scanned")
    assert re.match(r"prod-a  scanned  \d+ checks: ", lines[1]) and lines[2].startswith(
        "prod-b  unreachable  "
    )
    fails = [line for line in lines if re.search(r"\bfail", line)]
    assert fails and all(re.match(r"fail  \w+  [a-z0-9-]+  prod-a  \S+/\S+  ", line) for line in fails)
    tsv = run_kubegap(*base, "-f", "tsv", home=tmp_path)
    rows = [line.split("\t") for line in tsv.stdout.splitlines()]
    assert rows[0][:3] == ["cluster", "check", "status"] and len({len(row) for row in rows}) == 1
    assert {row[0] for row in rows[1:]} == {"prod-a", "prod-b"}
    assert [row[2] for row in rows if row[0] == "prod-b"] == ["not-scanned"]
