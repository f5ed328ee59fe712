"""Grounding in both directions: checks cite real incidents, and every incident either has a check that
would have flagged its preconditions or says plainly why the cluster API cannot see them."""

from __future__ import annotations

from kubegap.checker.registry import all_checks
from kubegap.knowledge import load_knowledge

KNOWLEDGE = load_knowledge()
CHECKS = all_checks()


def test_every_cited_incident_exists() -> None:
    known = {incident.id for incident in KNOWLEDGE.incidents}
    missing = sorted(
        {(check.id, cited) for check in CHECKS for cited in check.meta.incidents if cited not in known}
    )
    assert missing == []


def test_every_incident_has_checks_or_says_why_not() -> None:
    cited = {incident_id for check in CHECKS for incident_id in check.meta.incidents}
    silent = sorted(
        incident.id
        for incident in KNOWLEDGE.incidents
        if incident.id not in cited and incident.cluster_visibility is None
    )
    assert silent == [], "incidents with neither a citing check nor a cluster_visibility note: " + ", ".join(
        silent
    )


def test_there_are_thirty_checks_in_six_areas() -> None:
    assert len(CHECKS) >= 30
    areas = {check.meta.area for check in CHECKS}
    assert areas >= {
        "gpu-health",
        "gpu-stack",
        "training-jobs",
        "fleet-change",
        "control-plane",
        "networking",
    }
