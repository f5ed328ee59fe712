"""Meta-tests that police the checks: both languages, real incidents, taxonomy terms, kind keys, fixtures."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
import yaml

from kubegap.checker.registry import CheckModule, all_checks
from kubegap.knowledge import Knowledge
from kubegap.knowledge import load_knowledge as _load_knowledge

FIXTURES = Path(__file__).parent
SHARED_SOURCES = Path(__file__).resolve().parents[3] / "shared" / "incident-sources.yaml"
HANGUL = re.compile(r"[\uac00-\ud7a3]")
KIND_KEY = re.compile(r"^(?:[a-z0-9.-]+/)?[A-Z][A-Za-z0-9]+$")
CORE_GROUPS = {"apps", "batch", "policy", "autoscaling"}
AREAS = {"gpu-health", "gpu-stack", "training-jobs", "fleet-change", "control-plane", "networking"}
CHECKS = all_checks()


@cache
def load_knowledge() -> Knowledge:
    return _load_knowledge()


def _ids(check: CheckModule) -> str:
    return check.id


def test_at_least_thirty_checks_across_every_area() -> None:
    assert len(CHECKS) >= 30
    assert {check.meta.area for check in CHECKS} == AREAS


@pytest.mark.parametrize("check", CHECKS, ids=_ids)
def test_texts_are_written_in_both_languages(check: CheckModule) -> None:
    meta = check.meta
    for field in ("title", "why", "remediation", "decides"):
        text = getattr(meta, field)
        assert HANGUL.search(text.ko), f"{field}.ko has no Korean"
        assert not HANGUL.search(text.en), f"{field}.en contains Korean"
        assert text.ko.strip() != text.en.strip()


@pytest.mark.parametrize("check", CHECKS, ids=_ids)
def test_cites_incidents_and_public_references(check: CheckModule) -> None:
    assert check.meta.incidents, "every check cites at least one incident"
    assert all(re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)+", incident) for incident in check.meta.incidents)
    assert check.meta.references and all(url.startswith("https://") for url in check.meta.references)


def test_cited_incidents_exist_or_are_planned() -> None:
    """Every cited id is in the knowledge base, or (while the corpus grows) among the planned source ids."""
    known = {incident.id for incident in load_knowledge().incidents}
    planned: set[str] = set()
    if SHARED_SOURCES.is_file():
        entries = yaml.safe_load(SHARED_SOURCES.read_text(encoding="utf-8")).get("entries", [])
        planned = {entry["id"] for entry in entries if entry.get("category") != "fleet-studies"}
    cited = {incident for check in CHECKS for incident in check.meta.incidents}
    assert not cited - known - planned, sorted(cited - known - planned)


@pytest.mark.parametrize("check", CHECKS, ids=_ids)
def test_components_exist_in_the_taxonomy(check: CheckModule) -> None:
    taxonomy = load_knowledge().taxonomy
    assert check.meta.components
    for component in check.meta.components:
        assert taxonomy.term("component", component) is not None, component


@pytest.mark.parametrize("check", CHECKS, ids=_ids)
def test_needs_are_kind_keys(check: CheckModule) -> None:
    for key in (*check.meta.needs, *check.meta.optional):
        assert KIND_KEY.match(key), key
        if "/" in key:
            group = key.split("/")[0]
            assert group in CORE_GROUPS or "." in group, f"{key}: use the API group, not a version"
    assert not set(check.meta.needs) & set(check.meta.optional)


@pytest.mark.parametrize("check", CHECKS, ids=_ids)
def test_has_pass_and_fail_fixtures(check: CheckModule) -> None:
    folder = FIXTURES / check.id
    names = [path.name for path in folder.glob("*.yaml")] if folder.is_dir() else []
    assert any(name.startswith("pass-") for name in names), f"no pass-*.yaml in {folder}"
    assert any(name.startswith("fail-") for name in names), f"no fail-*.yaml in {folder}"
    assert all(name.split("-")[0] in ("pass", "fail", "unknown") for name in names), names
