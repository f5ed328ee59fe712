"""The fleet report as JSON and SARIF: each cluster's own report document, plus the matrix.

A scanned cluster carries the same `report_document` a single scan writes, so tools that read one
cluster's JSON read each entry of a fleet's. SARIF has one run per scanned cluster, told apart by
`automationDetails.id`, which is how code scanning keeps categories apart.

Every value passes the redaction chokepoint exactly once: each cluster's report document is redacted
by `report_document` itself, and only the fleet's own fields (matrix, cluster lines, notes) are
redacted here. A second pass over a cluster's report would cut a long value that was already cut
(the cut note makes it longer than the limit), so a fleet entry would differ from the same cluster's
single-scan report.
"""

from __future__ import annotations

from typing import Any

from kubegap.checker.fleet.report import FleetReport
from kubegap.checker.fleet.symptoms import symptoms_summary_data
from kubegap.checker.reports import report_document, sarif_document
from kubegap.checker.reports._common import report_lang
from kubegap.checker.reports.json_text import dumps
from kubegap.redaction import redact_value


def fleet_document(
    fleet: FleetReport, lang: str | None = "en", base_url: str | None = None
) -> dict[str, Any]:
    """The fleet report as a redacted plain dict (docs/report-schema.md, "Fleet reports")."""
    lang = report_lang(lang)
    matrix = fleet.matrix()
    document = {
        "schemaVersion": fleet.schema_version,
        "kind": "FleetReport",
        "kubegapVersion": fleet.kubegap_version,
        "lang": lang,
        "fleet": {
            "startedAt": fleet.started_at,
            "finishedAt": fleet.finished_at,
            "wallSeconds": round(fleet.wall_seconds, 3),
            "concurrency": fleet.concurrency,
            "requests": fleet.requests,
            "clusters": len(fleet.clusters),
            "scanned": len(fleet.scanned()),
        },
        "matrix": {
            "clusters": fleet.names,
            "rows": [
                {
                    "checkId": row.check_id,
                    "severity": row.meta.severity.value,
                    "title": row.meta.title.get(lang),
                    "worst": row.worst,
                    "cells": dict(zip(fleet.names, row.cells, strict=True)),
                }
                for row in matrix
            ],
        },
        "clusters": [
            {
                "name": cluster.name,
                "status": cluster.status,
                "error": cluster.error,
                "seconds": round(cluster.seconds, 3),
                "requests": cluster.requests,
                "counts": cluster.report.counts if cluster.report else None,
                "symptoms": symptoms_summary_data(cluster, lang),
                "report": None,  # filled below with the cluster's own redacted report document
            }
            for cluster in fleet.clusters
        ],
        "notes": list(fleet.notes),
    }
    redacted: dict[str, Any] = redact_value(document)
    for entry, cluster in zip(redacted["clusters"], fleet.clusters, strict=True):
        if cluster.report is not None:
            entry["report"] = report_document(cluster.report, lang, base_url)
    return redacted


def render_fleet_json(fleet: FleetReport, lang: str | None = "en", base_url: str | None = None) -> str:
    return dumps(fleet_document(fleet, lang, base_url))


def fleet_sarif_document(
    fleet: FleetReport, lang: str | None = "en", base_url: str | None = None
) -> dict[str, Any]:
    """SARIF 2.1.0 with one run per scanned cluster; unscanned clusters are run notifications."""
    runs: list[dict[str, Any]] = []
    for cluster in fleet.scanned():
        assert cluster.report is not None
        run = sarif_document(cluster.report, lang, base_url)["runs"][0]
        run["automationDetails"] = {"id": f"kubegap/{cluster.name}/"}
        run["properties"] = {
            **run.get("properties", {}),
            "cluster": cluster.name,
            "symptomSummary": symptoms_summary_data(cluster, report_lang(lang)),
        }
        runs.append(run)
    failures = [
        {
            "level": "error",
            "message": {
                "text": f"cluster {cluster.name} was not scanned ({cluster.status}): {cluster.error}"
            },
            "properties": {"cluster": cluster.name, "status": cluster.status},
        }
        for cluster in fleet.not_scanned()
    ]
    if failures:
        empty_run = {
            "tool": {"driver": {"name": "kubegap", "version": fleet.kubegap_version, "rules": []}},
            "results": [],
            "invocations": [{"executionSuccessful": False, "toolExecutionNotifications": failures}],
            "automationDetails": {"id": "kubegap/not-scanned/"},
        }
        runs.append(empty_run)
    document = {"$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0", "runs": runs}
    redacted: dict[str, Any] = redact_value(document)
    return redacted


def render_fleet_sarif(fleet: FleetReport, lang: str | None = "en", base_url: str | None = None) -> str:
    return dumps(fleet_sarif_document(fleet, lang, base_url))
