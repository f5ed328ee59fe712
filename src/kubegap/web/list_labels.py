"""Labels of the list page's facet tree, compact results, suggestions and citations (merged into `labels`)."""

from __future__ import annotations

LIST_LABELS: dict[str, tuple[str, str]] = {
    "facet.action.add": ("조건 더하기: {name} (결과 {results})", "Add filter: {name} ({results})"),
    "facet.action.remove": ("조건 빼기: {name} (결과 {results})", "Remove filter: {name} ({results})"),
    "facet.count-hint": (
        "숫자는 그 값을 눌렀을 때 나오는 사례 수입니다 (같은 분류 안에서는 또는, 분류끼리는 그리고).",
        "Each number is how many incidents a click gives (either value within a facet, all facets together).",
    ),
    "facet.none": ("이 분류에서 더 고를 값이 없습니다.", "No values to choose in this facet."),
    "badge.scope.demo": ("데모 클러스터", "demo cluster"),
    "badge.scope.live": ("실제 클러스터: 컨텍스트 {context}", "live: context {context}"),
    "badge.scope.snapshot": ("스냅샷: {file}", "snapshot: {file}"),
    "badge.scope.manifests": ("매니페스트: {file}", "manifests: {file}"),
    "badge.current-context": ("현재 컨텍스트", "current"),
    "badge.hint": ("이 점검의 결과: {status} ({scope})", "This check: {status} ({scope})"),
    "chip.add": ("이 조건으로 좁히기: {name}", "Narrow to {name}"),
    "chip.remove": ("조건에서 빼기: {name}", "Remove the filter {name}"),
    "card.sources": ("출처 {count}개", "{count} sources"),
    "view.label": ("보기", "View"),
    "view.compact": ("간단히", "Compact"),
    "view.full": ("자세히", "Full cases"),
    "empty.title": ("조건에 맞는 사례가 없습니다.", "No incidents match."),
    "empty.try": ("이렇게 찾아 보세요", "Try one of these"),
    "empty.nothing": (
        "검색어를 줄이거나 조건을 지워 보세요.",
        "Try fewer words or clear the filters.",
    ),
    "suggest.remove": ("‘{name}’ 조건 빼기", "Without the filter ‘{name}’"),
    "suggest.word": ("‘{word}’ 검색", "Search for ‘{word}’"),
    "suggest.term": ("{facet} ‘{name}’ 사례 보기", "Browse the {facet} ‘{name}’"),
    "suggest.without-text": ("검색어 없이 이 조건만", "These filters without the text"),
}
