"""Helpers shared by the MCP tests: fixture paths, the seeded secrets, and every text of a result."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
MANIFESTS = HERE / "fixtures" / "manifests"
SNAPSHOT = HERE / "fixtures" / "snapshot"
GOLDEN_TOOLS = HERE / "golden" / "tools_list.json"

TOOL_NAMES = [
    "scan_cluster",
    "scan_files",
    "get_symptoms",
    "get_findings",
    "list_checks",
    "explain_check",
    "search_incidents",
    "get_incident",
    "find_incidents_by_error",
    "explain_error",
]

# Values seeded into fixture objects, arguments and paths; none may appear in any result.
HF = "hf_kUbEgApTeStVaLuE0123456789abcdefghij"
PASSWORD = "S3cretTrainingPassw0rd"
AWS_KEY_ID = "AKIAIOSFODNN7KUBEGAP"
AWS_SECRET = "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"
JWT = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJrdWJlZ2FwLW1jcCJ9.c2lnbmF0dXJlLWtnLXRlc3Q"
SNAPSHOT_JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJkY2dtLWV4cG9ydGVyIn0.ZGNnbS1zaWduYXR1cmU"
SECRETS = (HF, PASSWORD, AWS_KEY_ID, AWS_SECRET, JWT, SNAPSHOT_JWT)


def result_text(result: Any) -> str:
    """Every string a client receives from a tool, resource or prompt result, as one text."""
    dumped = result.model_dump(mode="json", by_alias=True) if hasattr(result, "model_dump") else result
    return json.dumps(dumped, ensure_ascii=False)


def assert_no_secrets(text: str) -> None:
    leaked = [secret[:12] + "..." for secret in SECRETS if secret in text]
    assert not leaked, f"seeded secrets reached an MCP result: {leaked}"


def error_text(result: Any) -> str:
    assert result.is_error, f"expected a tool error, got {result_text(result)[:300]}"
    return " ".join(item.text for item in result.content if getattr(item, "type", "") == "text")
