"""What every renderer shares: cited incidents with titles and links, labels, and redacted evidence text."""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cache

from kubegap.checker.check import CheckMeta
from kubegap.checker.finding import Finding, ObjectRef
from kubegap.checker.reports.escaping import visible
from kubegap.redaction import redact_text, redact_value
from kubegap.text import label, normalize_lang

DEFAULT_LIBRARY_URL = "http://127.0.0.1:8000"
LIBRARY_URL_ENV = "KUBEGAP_LIBRARY_URL"


def library_url(override: str | None = None) -> str:
    """Base URL of the Incident Library links: the flag, then $KUBEGAP_LIBRARY_URL, then the local server."""
    return (override or os.environ.get(LIBRARY_URL_ENV) or DEFAULT_LIBRARY_URL).rstrip("/")


def link_base(override: str | None = None) -> str:
    """Base URL of incident links in reports: the flag, then $KUBEGAP_LIBRARY_URL, else '' (none).

    With no library server configured, a report links each incident to its public source instead of
    a local address that is probably not running.
    """
    return (override or os.environ.get(LIBRARY_URL_ENV) or "").rstrip("/")


def report_lang(lang: str | None) -> str:
    """Reports default to English (they end up in CI logs and PRs); Korean on request."""
    return normalize_lang(lang) if lang else "en"


@dataclass(frozen=True)
class CitedIncident:
    id: str
    title: str
    url: str


@cache
def _incident_titles() -> dict[str, tuple[str, str, str]]:
    """id -> (ko title, en title, first source URL); an unreadable knowledge base means none, never a
    failed report."""
    try:
        from kubegap.knowledge import load_knowledge

        knowledge = load_knowledge()
    except Exception:
        return {}
    return {
        incident.id: (
            incident.title.ko,
            incident.title.en,
            str(incident.sources[0].url) if incident.sources else "",
        )
        for incident in knowledge.incidents
    }


def warm_citations() -> None:
    """Load the incident titles reports cite now (once per process), so the first report is not slowed."""
    _incident_titles()


def cited_incidents(meta: CheckMeta, lang: str, base_url: str) -> list[CitedIncident]:
    """The incidents a check cites that exist in the knowledge base, with title and link.

    The link is the library page under `base_url`, or the incident's public source when `base_url`
    is empty (no library server configured).
    """
    titles = _incident_titles()
    cited = []
    for incident_id in meta.incidents:
        pair = titles.get(incident_id)
        if pair is None:
            continue
        title = pair[0] if lang == "ko" else pair[1]
        url = f"{base_url}/{lang}/incidents/{incident_id}" if base_url else pair[2]
        cited.append(CitedIncident(incident_id, title, url))
    return cited


# Evidence keys shown on their own (the workload role a check assumed), not in the evidence text.
ROLE_KEYS = ("role", "role_evidence", "roleEvidence")


def evidence_text(finding: Finding, limit: int = 300, *, role_apart: bool = False) -> str:
    """Evidence as `key=value; ...` on one line, redacted and kept short; `role_apart` leaves out the
    workload role, for a format that shows it on its own (`role_text`)."""
    skipped = ROLE_KEYS if role_apart else ()
    shown = {key: value for key, value in finding.evidence.items() if key not in skipped}
    if not shown:
        return ""
    redacted = redact_value(shown)
    parts = [f"{key}={_compact(value)}" for key, value in redacted.items()]
    return visible(redact_text(" ".join("; ".join(parts).split()), limit=limit))


def role_text(finding: Finding) -> str:
    """The workload role the check assumed (`serving`, `multi-node-training`), redacted; '' if none."""
    role = finding.evidence.get("role")
    if not isinstance(role, str) or not role.strip():
        return ""
    return name_text(role, 60)


def object_text(ref: ObjectRef, limit: int = 300) -> str:
    """`Kind/namespace/name` with each part through the chokepoint on its own, then joined.

    Redacting the joined string is not the same: a namespace `token: X` and a name `token: X` join into
    `token: X/token: X`, where the first value runs into the second name and hides the second `X`
    from the pattern that would have caught it alone.
    """
    part = max(limit // 3, 40)
    where = f"{name_text(ref.namespace, part)}/" if ref.namespace else ""
    return f"{name_text(ref.kind, 120)}/{where}{name_text(ref.name, part)}"


def location_text(finding: Finding) -> str:
    """Where a manifest object came from: `file:line`, `file#document` without a line, '' for none."""
    ref = finding.object
    if not ref.source_file:
        return ""
    if ref.source_line > 0:
        return name_text(f"{ref.source_file}:{ref.source_line}", 300)
    if ref.source_document > 0:
        return name_text(f"{ref.source_file}#{ref.source_document}", 300)
    return name_text(ref.source_file, 300)


def _compact(value: object) -> str:
    if isinstance(value, list | tuple):
        return ",".join(_compact(item) for item in value)
    if isinstance(value, dict):
        return "{" + ",".join(f"{key}:{_compact(item)}" for key, item in value.items()) + "}"
    return str(value)


def count_label(key: str, lang: str) -> str:
    """Label of a count key: the four statuses, plus `exempted` (a fail someone accepted)."""
    if key == "exempted":
        return "예외 처리" if lang == "ko" else "exempted"
    return label(f"status.{key}", lang)


def one_line(text: str, limit: int = 500) -> str:
    """Prose, redacted, on one line, every control or bidi character shown as an escape (escaping.py)."""
    return visible(redact_text(" ".join(text.split()), limit=limit))


def name_text(text: str, limit: int = 300) -> str:
    """A name (object, namespace, context, kind, file), redacted, with every control character shown.

    Unlike prose, a name keeps its newline, tab or carriage return visible as `\\n`, `\\t`, `\\r`:
    a name that holds one is suspicious, and a reader must see that it does.
    """
    return visible(redact_text(text, limit=limit), names=True)
