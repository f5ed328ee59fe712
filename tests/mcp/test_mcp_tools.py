"""Every MCP tool, resource and the prompt through an in-process client against fixture files."""

from __future__ import annotations

from typing import Any

import pytest
from mcp_helpers import MANIFESTS, SNAPSHOT, TOOL_NAMES, result_text

pytestmark = pytest.mark.anyio


async def test_tools_are_the_documented_eight_and_all_read_only(client: Any) -> None:
    tools = (await client.list_tools()).tools
    assert [tool.name for tool in tools] == TOOL_NAMES
    for tool in tools:
        hints = tool.annotations
        assert hints.read_only_hint is True, tool.name
        assert hints.idempotent_hint is True, tool.name
        assert hints.destructive_hint is False, tool.name
        assert hints.open_world_hint is (tool.name == "scan_cluster"), tool.name
        assert tool.description and tool.output_schema, tool.name


async def test_instructions_say_read_only_no_secrets_and_where_to_start(client: Any) -> None:
    instructions = client.instructions
    assert "never writes to a cluster" in instructions
    assert "never reads Secrets" in instructions
    assert "Start with scan_cluster" in instructions


async def test_scan_files_manifests_summarises_first(client: Any) -> None:
    result = await client.call_tool("scan_files", {"paths": [str(MANIFESTS)], "kind": "manifests"})
    assert not result.is_error, result_text(result)
    summary = result.structured_content
    assert summary["mode"] == "manifests"
    assert summary["scan_id"].startswith("scan-")
    assert summary["counts"]["fail"] >= 4  # kured, dev-shm-size, pod-failure-policy, nccl-watchdog
    assert summary["fail_by_severity"]["high"] >= 1
    assert summary["kubeconfig"] == "" and summary["context"] == ""
    failing = [check["id"] for check in summary["checks_needing_attention"] if check["status"] == "fail"]
    assert "kured-reboot-safety" in failing and "nccl-watchdog-disabled" in failing
    assert summary["checks_needing_attention"][0]["id"] == "kured-reboot-safety"  # its fail is high
    worst = summary["top_findings"][0]
    assert worst["status"] == "fail" and worst["severity"] == "high"
    assert worst["file"].startswith(str(MANIFESTS / "training.yaml"))
    assert "explain_check" in summary["next_step"]


async def test_scan_files_snapshot_reports_unread_kinds(client: Any) -> None:
    result = await client.call_tool("scan_files", {"paths": [str(SNAPSHOT)], "kind": "snapshot"})
    summary = result.structured_content
    assert summary["mode"] == "snapshot"
    assert "gpu-health-agent" in [check["id"] for check in summary["checks_needing_attention"]]
    statuses = {problem["kind"]: problem["status"] for problem in summary["coverage_problems"]}
    assert statuses.get("apps/DaemonSet") == "not-collected"
    assert all(problem["needed_by"] or problem["optional_for"] for problem in summary["coverage_problems"])
    # A kubectl dump cannot say whether a CRD is installed: the checks that read one stay unknown.
    assert summary["unknown_from_unreadable_kinds"] > 0 and "not-collected" in summary["unreadable_note"]
    assert "rbac" not in summary["unreadable_note"]


def test_the_mcp_list_of_unreadable_statuses_is_the_checkers() -> None:
    from kubegap.agents.mcp_scans import _UNREADABLE
    from kubegap.checker.snapshot import UNREADABLE

    assert {status.value for status in UNREADABLE} == _UNREADABLE


async def test_summary_lists_are_capped_with_a_notice(client: Any) -> None:
    result = await client.call_tool("scan_files", {"paths": [str(SNAPSHOT)], "kind": "snapshot"})
    summary = result.structured_content
    worth = summary["counts"]["fail"] + summary["counts"]["unknown"]
    assert worth > 10
    assert len(summary["top_findings"]) == 10
    assert any("get_findings" in note and f"of {worth}" in note for note in summary["truncated"])
    assert len(summary["checks_needing_attention"]) <= 15


async def test_get_findings_pages_one_check_and_says_how_to_continue(client: Any) -> None:
    scan = await client.call_tool("scan_files", {"paths": [str(SNAPSHOT)], "kind": "snapshot"})
    scan_id = scan.structured_content["scan_id"]
    first = await client.call_tool("get_findings", {"scan_id": scan_id, "status": "unknown", "limit": 5})
    page = first.structured_content
    assert page["total"] > 5 and len(page["findings"]) == 5 and page["next_offset"] == 5
    assert "offset=5" in page["truncated"]
    second = await client.call_tool(
        "get_findings", {"scan_id": scan_id, "status": "unknown", "offset": 5, "limit": 5}
    )
    assert second.structured_content["findings"][0] != page["findings"][0]
    one_check = await client.call_tool("get_findings", {"scan_id": scan_id, "check_id": "gpu-health-agent"})
    checked = one_check.structured_content
    assert checked["remediation"]
    assert {finding["check_id"] for finding in checked["findings"]} == {"gpu-health-agent"}
    assert any("gpu-b" in finding["object"] for finding in checked["findings"])


async def test_min_severity_drops_lower_findings(client: Any) -> None:
    everything = (await client.call_tool("scan_files", {"paths": [str(MANIFESTS)]})).structured_content
    result = await client.call_tool(
        "scan_files", {"paths": [str(MANIFESTS)], "kind": "manifests", "min_severity": "high"}
    )
    summary = result.structured_content
    assert summary["min_severity"] == "high"
    assert {finding["severity"] for finding in summary["top_findings"]} <= {"high", "critical"}
    assert {check["severity"] for check in summary["checks_needing_attention"]} <= {"high", "critical"}
    high = everything["fail_by_severity"]["high"] + everything["fail_by_severity"]["critical"]
    assert 0 < summary["counts"]["fail"] == high < everything["counts"]["fail"]


async def test_scan_files_runs_only_the_named_checks(client: Any) -> None:
    result = await client.call_tool(
        "scan_files", {"paths": [str(MANIFESTS)], "checks": ["kured-reboot-safety"]}
    )
    assert result.structured_content["checks_run"] == 1


async def test_list_checks_and_area_filter(client: Any) -> None:
    everything = (await client.call_tool("list_checks", {})).structured_content
    assert everything["total"] == len(everything["checks"]) >= 20
    area = everything["areas"][0]
    narrowed = (await client.call_tool("list_checks", {"area": area, "lang": "ko"})).structured_content
    assert narrowed["checks"] and {check["area"] for check in narrowed["checks"]} == {area}
    assert narrowed["total"] < everything["total"]


async def test_explain_check_cites_incidents_with_links(client: Any) -> None:
    result = await client.call_tool("explain_check", {"check_id": "kured-reboot-safety"})
    explained = result.structured_content
    assert explained["reads"] == ["apps/DaemonSet"]
    assert explained["incidents"] and all("/en/incidents/" in item["url"] for item in explained["incidents"])
    assert explained["resource_uri"] == "kubegap://checks/kured-reboot-safety"
    korean = await client.call_tool("explain_check", {"check_id": "kured-reboot-safety", "lang": "ko"})
    assert korean.structured_content["title"] != explained["title"]


async def test_search_incidents_pages_and_facets(client: Any) -> None:
    result = await client.call_tool("search_incidents", {"query": "", "lang": "en"})
    found = result.structured_content
    assert found["total"] > 10 and len(found["incidents"]) == 10
    assert found["range"] == f"1-10 of {found['total']}"
    assert "page=2" in found["truncated"]
    cause = found["facets"]["cause"][0]["term"]
    narrowed = (await client.call_tool("search_incidents", {"cause": [cause]})).structured_content
    assert 0 < narrowed["total"] < found["total"]
    assert narrowed["filters"] == {"cause": [cause]}
    second = (await client.call_tool("search_incidents", {"page": 2})).structured_content
    assert second["page"] == 2 and second["incidents"][0]["id"] != found["incidents"][0]["id"]


async def test_search_incidents_by_scope(client: Any) -> None:
    everything = (await client.call_tool("search_incidents", {"lang": "en"})).structured_content
    platform = (await client.call_tool("search_incidents", {"scope": ["platform"]})).structured_content
    ai = (await client.call_tool("search_incidents", {"scope": ["ai-infra"]})).structured_content
    assert (
        0 < platform["total"] < everything["total"] and platform["total"] + ai["total"] == everything["total"]
    )
    assert platform["filters"] == {"scope": ["platform"]}
    assert {hit["scope"] for hit in platform["incidents"]} == {"platform"}
    counts = {value["term"]: value["count"] for value in everything["facets"]["scope"]}
    assert counts == {"ai-infra": ai["total"], "platform": platform["total"]}


async def test_search_incidents_in_korean_and_unknown_filters(client: Any) -> None:
    result = await client.call_tool(
        "search_incidents", {"query": "NCCL", "lang": "ko", "symptom": ["no-such-symptom"]}
    )
    found = result.structured_content
    assert "건" in found["range"]
    assert found["ignored_filters"] == ["symptom=no-such-symptom"]


async def test_find_incidents_by_error_matches_a_pasted_log(client: Any) -> None:
    pasted = (
        "2026-03-01T10:00:00Z host-17 rank 3\n"
        "[E ProcessGroupNCCL.cpp:475] [Rank 3] Watchdog caught collective operation timeout: "
        "WorkNCCL(SeqNum=1, OpType=ALLREDUCE) ran for 1800000 milliseconds before timing out."
    )
    found = (await client.call_tool("find_incidents_by_error", {"error_text": pasted})).structured_content
    assert found["total"] >= 1
    best = found["incidents"][0]
    assert "Watchdog caught collective operation timeout" in best["matched_error_signatures"]
    detail = (await client.call_tool("get_incident", {"incident_id": best["id"]})).structured_content
    assert detail["id"] == best["id"]


async def test_find_incidents_by_error_without_a_match_says_what_to_try(client: Any) -> None:
    found = (
        await client.call_tool("find_incidents_by_error", {"error_text": "zzqx frobnicator exploded"})
    ).structured_content
    assert found["total"] == 0 and "search_incidents" in found["note"]


async def test_get_incident_has_all_sections_checks_and_similar(client: Any) -> None:
    incident_id = "openai-2025-06-gpu-host-os-update-network-loss"
    detail = (await client.call_tool("get_incident", {"incident_id": incident_id})).structured_content
    assert set(detail["sections"]) >= {"symptom", "cause", "lessons", "actions"}
    assert detail["sources"] and detail["sources"][0]["url"].startswith("https://")
    assert "kured-reboot-safety" in [check["id"] for check in detail["guarded_by_checks"]]
    assert detail["url"].endswith(f"/en/incidents/{incident_id}")
    korean = await client.call_tool("get_incident", {"incident_id": incident_id, "lang": "ko"})
    assert korean.structured_content["title"] != detail["title"]


async def test_resources_render_markdown(client: Any) -> None:
    templates = (await client.list_resource_templates()).resource_templates
    assert {template.uri_template for template in templates} == {
        "kubegap://incidents/{incident_id}",
        "kubegap://checks/{check_id}",
    }
    check = (await client.read_resource("kubegap://checks/kured-reboot-safety")).contents[0]
    assert check.mime_type == "text/markdown" and check.text.startswith("# ")
    assert "## Incidents" in check.text
    incident = (
        await client.read_resource("kubegap://incidents/openai-2025-06-gpu-host-os-update-network-loss")
    ).contents[0]
    assert "## Cause" in incident.text and "## Sources" in incident.text


async def test_prompt_walks_through_a_read_only_review(client: Any) -> None:
    prompts = (await client.list_prompts()).prompts
    assert [prompt.name for prompt in prompts] == ["cluster_gap_review"]
    got = await client.get_prompt("cluster_gap_review", {"context": "prod", "namespace": "training"})
    text = got.messages[0].content.text
    assert "scan_cluster(context='prod', namespaces=['training'])" in text
    assert "never Secrets" in text


def test_explain_error_resolves_a_pasted_dmesg_line() -> None:
    from kubegap.agents.mcp_server import explain_error

    answer = explain_error("kernel: NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, GPU has fallen off the bus.")
    assert answer.entries[0].id == "xid-79"
    assert answer.entries[0].usual_action
    assert "ornl-2016-titan-gpu-resistor-corrosion" in [item.id for item in answer.entries[0].incidents]
    assert answer.entries[0].url.endswith("/en/errors/xid-79")


def test_explain_error_says_when_nothing_matches() -> None:
    from kubegap.agents.mcp_server import explain_error

    answer = explain_error("the coffee machine is out of beans")
    assert answer.entries == [] and "no catalog entry" in answer.note


def test_search_names_the_catalog_entry_of_a_code() -> None:
    from kubegap.agents.mcp_server import search_incidents

    found = search_incidents(query="XID 94")
    assert [entry.id for entry in found.error_catalog] == ["xid-94"]
    assert found.incidents[0].id == "k8s-device-plugin-2024-xid94-allocatable-not-recovered"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("XID79", "xid-79"),
        ("xid-79", "xid-79"),
        ("Xid 79:", "xid-79"),
        (
            "NCCL WARN NET/IB : Got completion from peer 10.0.0.2<55004> with error 12, opcode 0",
            "nccl-ib-completion-error",
        ),
    ],
)
async def test_explain_error_reads_any_spelling_through_a_client(
    client: Any, text: str, expected: str
) -> None:
    answer = (await client.call_tool("explain_error", {"error": text})).structured_content
    assert [entry["id"] for entry in answer["entries"]][:1] == [expected], answer


async def test_a_question_counts_and_summarises_the_incidents_that_answer_it(client: Any) -> None:
    everything = (await client.call_tool("search_incidents", {"lang": "en"})).structured_content
    question = "why did the training job hang instead of exiting when a GPU died"
    found = (await client.call_tool("search_incidents", {"query": question, "lang": "en"})).structured_content
    assert 0 < found["total"] <= everything["total"] // 4, (found["total"], everything["total"])
    assert all(value["count"] <= found["total"] for value in found["recurring_components"])
