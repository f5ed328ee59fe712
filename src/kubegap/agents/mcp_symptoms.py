"""The answer of the `get_symptoms` tool: short, ranked, and through the same chokepoint as reports.

It reuses the report section's data (`symptoms_data`), so the MCP answer, the JSON report and the CLI
say the same thing; only the length differs: a few groups, each example cut short.
"""

from __future__ import annotations

from kubegap.agents.mcp_models import SymptomsAnswer, SymptomView
from kubegap.bilingual import render_any
from kubegap.checker.symptoms import SymptomReport

EXAMPLE_CHARS = 160


def symptoms_answer(report: SymptomReport, lang: str, limit: int, failed: frozenset[str]) -> SymptomsAnswer:
    from kubegap.checker.reports.symptoms_view import symptoms_data

    data = symptoms_data(report, lang, failed)
    groups = data["groups"]
    shown = groups[:limit]
    left = len(groups) - len(shown) + data["moreGroups"]
    truncated = (
        [
            f"{left} more symptom groups; call again with a larger limit (at most 50), "
            "or run `kubegap symptoms`"
        ]
        if left
        else []
    )
    return SymptomsAnswer(
        status=data["status"],
        reason=data["reason"],
        window=render_any(report.window, lang),
        symptom_events=data["symptomEvents"],
        symptoms=[
            SymptomView(
                symptom=group["symptom"],
                title=group["title"],
                catalog_entry=group["catalogEntry"],
                place=group["place"],
                distinct=group["distinct"],
                occurrences=group["occurrences"],
                first_seen=group["firstSeen"],
                last_seen=group["lastSeen"],
                incidents=group["incidents"][:5],
                checks=group["checks"][:6],
                open_gaps=group["openGaps"],
                example=group["example"][:EXAMPLE_CHARS],
            )
            for group in shown
        ],
        unread_signals=data["unreadSignals"],
        truncated=truncated,
    )
