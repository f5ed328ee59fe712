"""The symptoms section of every report: what the cluster already shows, safe to print, built once.

Every text format prints the section from this view, after the fails; JSON, SARIF, MCP and the web
take `symptoms_data`, whose strings passed the same chokepoint. Event messages, condition messages
and termination messages were written by whoever ran in the cluster, so each is redacted, cut and
shown with its control characters as escapes before it gets here. The window is always said, and an
unread event stream is `unknown` with its reason, never "no symptoms".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kubegap.bilingual import message, render_any
from kubegap.checker.reports._common import name_text, one_line
from kubegap.checker.symptoms import SymptomGroup, SymptomReport
from kubegap.checker.symptoms.events import iso

MAX_ROWS = 30  # groups a text report lists; the rest are counted
SHORT_ROWS = 5  # groups a scan's default layout lists, one line each
EXAMPLE_CHARS = 300


@dataclass(frozen=True)
class SymptomRow:
    signature: str  # catalog entry id or Kubernetes signal id
    title: str
    catalog: bool
    place: str
    count: str  # '3 events (7 times)' in the reader's language
    seen: str  # 'first 2026-… · last 2026-…'
    incidents: tuple[str, ...]
    checks: tuple[str, ...]  # 'unhealthy-gpu-node-schedulable (open gap)' when this scan failed it
    example: str


@dataclass(frozen=True)
class SymptomsView:
    status: str  # read | unknown
    heading: str
    window: str
    rows: tuple[SymptomRow, ...]
    more: str
    hidden: int  # groups counted but not in `rows`
    unread: str  # signal kinds that could not be read, '' when all were


def _count(group: SymptomGroup, lang: str) -> str:
    if group.sources == {"event"}:
        if lang != "ko":
            events = "1 event" if group.distinct == 1 else f"{group.distinct} events"
            return f"{events} ({group.occurrences} {'time' if group.occurrences == 1 else 'times'})"
        return message(
            "이벤트 {distinct}건({occurrences}회)",
            "{distinct} events ({occurrences} times)",
            distinct=group.distinct,
            occurrences=group.occurrences,
        ).render(lang)
    if lang != "ko" and group.distinct == 1:
        return "1 signal"
    return message("신호 {distinct}건", "{distinct} signals", distinct=group.distinct).render(lang)


def _seen(group: SymptomGroup, lang: str) -> str:
    if group.first is None and group.last is None:
        return ""
    return message(
        "처음 {first} · 마지막 {last}",
        "first {first} · last {last}",
        first=iso(group.first),
        last=iso(group.last),
    ).render(lang)


def _checks(group: SymptomGroup, failed: frozenset[str], lang: str) -> tuple[str, ...]:
    gap = "열린 틈" if lang == "ko" else "open gap"
    return tuple(name_text(check, 120) + (f" ({gap})" if check in failed else "") for check in group.checks)


def place_text(place: str, lang: str) -> str:
    """'node gpu-a' as the reader's language says it; workload places keep their Kubernetes kind."""
    return "노드 " + place.removeprefix("node ") if lang == "ko" and place.startswith("node ") else place


def _row(group: SymptomGroup, failed: frozenset[str], lang: str) -> SymptomRow:
    return SymptomRow(
        signature=name_text(group.signature.id, 120),
        title=one_line(group.signature.title.get(lang), 200),
        catalog=group.signature.catalog,
        place=name_text(place_text(group.place, lang), 300),
        count=_count(group, lang),
        seen=_seen(group, lang),
        incidents=tuple(name_text(incident, 200) for incident in group.signature.incidents),
        checks=_checks(group, failed, lang),
        example=one_line(group.example, EXAMPLE_CHARS),
    )


def symptoms_view(report: SymptomReport, lang: str, failed: frozenset[str] = frozenset()) -> SymptomsView:
    """The section in the reader's language; `failed` names the checks this scan failed."""
    window = one_line(report.window.render(lang), 200)
    if report.status != "read":
        said = "지금 보이는 증상: 알 수 없음: " if lang == "ko" else "Symptoms now: unknown: "
        heading = said + one_line(render_any(report.reason, lang), 400)
    elif not report.groups:
        heading = message("지금 보이는 증상: 없음", "Symptoms now: none").render(lang)
    else:
        heading = message(
            "지금 보이는 증상: {groups}가지(증상 이벤트 {events}건)",
            "Symptoms now: {groups} groups (from {events} symptom events)",
            groups=len(report.groups) + report.more_groups,
            events=report.events,
        ).render(lang)
    shown = report.groups[:MAX_ROWS]
    hidden = len(report.groups) - len(shown) + report.more_groups
    unread = (
        message(
            "읽지 못해 빠졌을 수 있는 신호: {kinds}",
            "signals that may be missing (not read): {kinds}",
            kinds=", ".join(f"{kind} ({status})" for kind, status in report.unread.items()),
        ).render(lang)
        if report.unread
        else ""
    )
    return SymptomsView(
        status=report.status,
        heading=heading,
        window=message("기간: {window}", "window: {window}", window=window).render(lang),
        rows=tuple(_row(group, failed, lang) for group in shown),
        more=message("…그 밖에 {count}가지", "…and {count} more", count=hidden).render(lang)
        if hidden
        else "",
        hidden=hidden,
        unread=one_line(unread, 600),
    )


def symptoms_data(
    report: SymptomReport, lang: str = "en", failed: frozenset[str] = frozenset()
) -> dict[str, Any]:
    """The section as JSON data (reports, MCP, web): every string through the same chokepoint."""
    return {
        "status": report.status,
        "reason": one_line(render_any(report.reason, lang), 400) if report.reason else "",
        "window": {"since": report.since, "until": report.until, "seconds": report.window_seconds},
        "symptomEvents": report.events,
        "groups": [
            {
                "symptom": name_text(group.signature.id, 120),
                "title": one_line(group.signature.title.get(lang), 200),
                "catalogEntry": group.signature.catalog,
                "place": name_text(group.place, 300),
                "node": name_text(group.node, 300),
                "gpu": group.gpu,
                "reason": one_line(group.reason, 130),
                "distinct": group.distinct,
                "occurrences": group.occurrences,
                "sources": sorted(group.sources),
                "firstSeen": iso(group.first),
                "lastSeen": iso(group.last),
                "incidents": list(group.signature.incidents),
                "checks": list(group.checks),
                "openGaps": [check for check in group.checks if check in failed],
                "example": one_line(group.example, EXAMPLE_CHARS),
            }
            for group in report.groups
        ],
        "moreGroups": report.more_groups,
        "unreadSignals": dict(report.unread),
    }


def text_lines(view: SymptomsView, lang: str, *, full: bool = True, examples: bool = True) -> list[str]:
    """The section as plain lines: the heading with the window, then each group.

    `full` gives each group its title, incidents, checks and (with `examples`) an example message,
    someone else's text; the short form (a scan's default layout, signal first) gives each group one
    line with its checks, at most SHORT_ROWS of them. Each group line starts with one token, `symptom`
    (`증상` in Korean), so `grep symptom` finds them.
    """
    ko = lang == "ko"
    token = "증상" if ko else "symptom"
    lines = [f"{view.heading} · {view.window}" if not full else view.heading]
    if full:
        lines.append(f"  {view.window}")
    rows = view.rows if full else view.rows[:SHORT_ROWS]
    for row in rows:
        seen = f"  {row.seen}" if row.seen else ""
        if not full:
            checks = f"  → {', '.join(row.checks)}" if row.checks else ""
            lines.append(f"  {token}  {row.signature}  {row.place}  {row.count}{checks}")
            continue
        lines.append(f"  {token}  {row.signature}  {row.place}  {row.count}{seen}")
        lines.append(f"    {row.title}")
        if row.incidents:
            lines.append(f"    {'사례' if ko else 'incidents'}: {', '.join(row.incidents)}")
        if row.checks:
            lines.append(f"    {'점검' if ko else 'checks'}: {', '.join(row.checks)}")
        if examples and row.example:
            lines.append(f"    {'예' if ko else 'e.g.'}: {row.example}")
    hidden = len(view.rows) - len(rows) + view.hidden
    if hidden:
        lines.append("  " + _more(hidden, lang))
    if view.unread:
        lines.append(f"  {view.unread}")
    return lines


def _more(count: int, lang: str) -> str:
    return message(
        "…그 밖에 {count}가지(kubegap symptoms가 모두 보여 줍니다)",
        "…and {count} more (kubegap symptoms lists them all)",
        count=count,
    ).render(lang)
