"""UI labels of the web pages, in both languages.

Labels shared with the CLI and MCP (facets, sections, sorts, severities) live in `kubegap.text`; this
module holds what only the web shows and falls back to `kubegap.text.label` for the rest, so a template
asks one place for every word.
"""

from __future__ import annotations

from kubegap.text import Lang, label, normalize_lang
from kubegap.web.cluster_labels import CLUSTER_LABELS
from kubegap.web.fleet_labels import FLEET_LABELS
from kubegap.web.list_labels import LIST_LABELS

_WEB_LABELS: dict[str, tuple[str, str]] = {
    "site.title": ("장애 사례 라이브러리", "Incident Library"),
    "site.tagline": (
        "AI·GPU 인프라의 공개 장애 보고서를 읽고, 같은 틈을 내 클러스터에서 찾습니다.",
        "Public incident reports from AI and GPU infrastructure, and the same gaps in your cluster.",
    ),
    "skip": ("본문으로 건너뛰기", "Skip to content"),
    "nav.main": ("주 메뉴", "Main"),
    "nav.facets": ("분류", "Facets"),
    "nav.errors": ("오류 카탈로그", "Error catalog"),
    "lang.switch": ("English", "한국어"),
    "lang.switch.label": ("Read this page in English", "이 페이지를 한국어로 보기"),
    "tab.incidents": ("사례", "Incidents"),
    "tabs.label": ("둘러보기", "Browse by"),
    "facets.jump": ("원인·구성 요소·증상으로 좁히기 ↓", "Narrow by cause, component, symptom ↓"),
    "facet.by": ("{facet}별", "By {facet}"),
    "search.label": ("사례 검색", "Search incidents"),
    "search.placeholder": (
        "한국어·영어 검색어나 오류 메시지",
        "Korean or English words, or a pasted error line",
    ),
    "search.button": ("검색", "Search"),
    "filters.active": ("적용된 조건", "Active filters"),
    "filters.remove": ("조건 빼기: {name}", "Remove filter: {name}"),
    "filters.clear": ("모두 지우기", "Clear all"),
    "filters.text": ("검색어", "Text"),
    "filters.since": ("시작일", "From"),
    "filters.until": ("종료일", "Until"),
    "search.dates": ("사례 시작일 범위", "Incidents that began"),
    "sort.label": ("정렬", "Sort"),
    "paging.label": ("페이지", "Pages"),
    "paging.previous": ("이전", "Previous"),
    "paging.next": ("다음", "Next"),
    "paging.page": ("{page}쪽", "Page {page}"),
    "results.label": ("검색 결과", "Results"),
    "card.open": ("사례 자세히 보기", "Open the full case"),
    "card.matched": ("일치한 오류 시그니처", "Matched error signature"),
    "catalog.hits": (
        "오류 카탈로그: 이 오류의 뜻과 보통의 조치",
        "Error catalog: what this error means and what to do",
    ),
    "checkbox.title": ("내 클러스터에서 점검하기", "Check it in my cluster"),
    "checkbox.intro": (
        "kubegap은 쿠버네티스 클러스터를 읽기만 하면서, "
        "이런 사례로 이어진 틈이 내 클러스터에도 있는지 봅니다. "
        "점검마다 이 라이브러리의 공개 보고서를 근거로 듭니다.",
        "kubegap reads a Kubernetes cluster without changing it and looks for the gaps that led to incidents "
        "like these. Every check cites public reports from this library.",
    ),
    "checkbox.recurring": ("이 {count}에서 자주 나오는 구성 요소", "Components that recur in these {count}"),
    "checkbox.checks": ("이 구성 요소를 보는 점검", "Checks that guard these components"),
    "checkbox.no-checks": (
        "이 구성 요소를 보는 kubegap 점검은 아직 없습니다.",
        "No kubegap check guards these components yet.",
    ),
    "checkbox.no-components": (
        "이 결과에는 구성 요소 태그가 없습니다.",
        "These results carry no component tags.",
    ),
    "run.claude": ("Claude Code에서", "From Claude Code"),
    "run.codex": ("Codex에서 (~/.codex/config.toml)", "From Codex (~/.codex/config.toml)"),
    "run.cli": ("명령줄에서", "From the command line"),
    "case.meta": ("사례 정보", "About this incident"),
    "case.date": ("날짜", "Date"),
    "case.organization": ("조직", "Organization"),
    "case.environment": ("환경", "Environment"),
    "case.sources": ("출처", "Sources"),
    "case.archive": ("보관본", "archived copy"),
    "case.impact": ("영향", "Impact"),
    "case.signatures": ("오류 시그니처", "Error signatures"),
    "case.taxonomy": ("분류", "Taxonomy"),
    "case.similar": ("비슷한 사례", "Similar incidents"),
    "case.similar.none": ("비슷한 사례가 아직 없습니다.", "No similar incidents yet."),
    "case.similar.shared": ("공통 분류", "Shares"),
    "case.similar.signatures": ("같은 오류 시그니처", "Same error signature"),
    "case.checks": ("이 사례를 근거로 하는 점검", "Checks that cite this incident"),
    "case.visibility": ("클러스터에서 보이는 것", "What a cluster can show"),
    "case.no-check": (
        "이 사례를 다루는 kubegap 점검은 아직 없습니다.",
        "No kubegap check covers this incident yet.",
    ),
    "impact.duration_hours": ("지속 시간", "Duration"),
    "impact.gpus_affected": ("영향받은 GPU", "GPUs affected"),
    "impact.restarts": ("재시작", "Restarts"),
    "impact.training_time_lost_hours": ("잃은 학습 시간", "Training time lost"),
    "impact.error_rate_percent": ("오류율", "Error rate"),
    "unit.hours": ("{value}시간", "{value} hours"),
    "unit.percent": ("{value}%", "{value}%"),
    "unit.gpus": ("GPU {value}개", "{value} GPUs"),
    "unit.times": ("{value}번", "{value} times"),
    "env.deployment": ("배포 형태", "Deployment"),
    "env.orchestrator": ("오케스트레이터", "Orchestrator"),
    "env.accelerator": ("가속기", "Accelerator"),
    "env.scale_gpus": ("GPU 규모", "Scale (GPUs)"),
    "env.provider": ("제공자", "Provider"),
    "deployment.cloud": ("클라우드", "cloud"),
    "deployment.on-prem": ("온프레미스", "on-premises"),
    "deployment.hybrid": ("하이브리드", "hybrid"),
    "facets.title": ("분류 체계", "Facets"),
    "facets.intro": (
        "모든 사례는 네 가지 분류로 태그되어 있습니다. 값을 누르면 그 값의 설명과 사례가 나옵니다.",
        "Every incident is tagged on four facets. Open a value to read what it means and see its incidents.",
    ),
    "term.parent": ("상위 분류", "Parent"),
    "term.children": ("하위 분류", "Sub-terms"),
    "term.incidents": ("이 분류의 사례", "Incidents tagged with it"),
    "term.see-all": ("라이브러리에서 모두 보기", "See them all in the library"),
    "term.studies": ("플릿 연구에서의 비중", "Share in fleet studies"),
    "term.no-incidents": ("이 분류의 사례가 아직 없습니다.", "No incidents carry this value yet."),
    "studies.title": ("플릿 연구", "Fleet studies"),
    "studies.intro": (
        "한 번의 장애가 아니라 큰 GPU 플릿에서 오랫동안 모은 장애를 종류별로 센 연구입니다.",
        "Studies that count failures by kind across a large GPU fleet over a long period.",
    ),
    "studies.none": ("아직 실린 연구가 없습니다.", "No studies yet."),
    "studies.jump": ("연구 목록", "All studies at a glance"),
    "studies.organization": ("기관", "Organisation"),
    "studies.gpus": ("GPU 수", "GPUs"),
    "studies.study": ("연구", "Study"),
    "studies.largest": ("비중이 큰 항목", "Largest shares"),
    "studies.open": ("차트와 항목 {count}개 모두 보기", "The chart and all {count} rows"),
    "studies.top": ("연구 목록으로", "Back to the list of studies"),
    "study.period": ("기간", "Period"),
    "study.fleet": ("규모", "Fleet"),
    "study.measure": ("집계 대상", "What is counted"),
    "study.total": ("합계", "Total"),
    "study.table": ("표로 보기", "Show as a table"),
    "study.category": ("항목", "Category"),
    "study.count": ("건수", "Count"),
    "study.share": ("비중", "Share"),
    "study.lessons": ("교훈", "Lessons"),
    "checks.title": ("점검 항목", "Checks"),
    "checks.intro": (
        "kubegap이 클러스터에서 찾는 틈입니다. 점검마다 근거가 되는 사례가 있습니다.",
        "The gaps kubegap looks for in a cluster. Every check cites the incidents behind it.",
    ),
    "checks.none": ("아직 등록된 점검이 없습니다.", "No checks are registered yet."),
    "check.severity": ("심각도", "Severity"),
    "check.area": ("영역", "Area"),
    "check.why": ("왜 보나", "Why it matters"),
    "check.needs": ("읽는 자원", "What it reads"),
    "check.optional": ("있으면 함께 읽는 자원", "Also reads when present"),
    "check.decides": ("판단 방법", "How it decides"),
    "check.remediation": ("고치는 법", "Remediation"),
    "check.incidents": ("근거 사례", "Cited incidents"),
    "check.components": ("지키는 구성 요소", "Components it guards"),
    "check.references": ("참고 문서", "References"),
    "check.manifests": ("매니페스트 파일에서도 동작", "Works on manifest files"),
    "area.gpu-health": ("GPU 상태", "GPU health"),
    "area.gpu-stack": ("GPU 소프트웨어 스택", "GPU software stack"),
    "area.training-jobs": ("학습 작업", "Training jobs"),
    "area.fleet-change": ("플릿 변경", "Fleet change"),
    "area.control-plane": ("컨트롤 플레인", "Control plane"),
    "area.networking": ("네트워킹", "Networking"),
    "notice.unknown-values": (
        "모르는 조건 값은 무시했습니다: {values}",
        "Ignored unknown filter values: {values}",
    ),
    "notice.bad-date": (
        "{name}에 적은 '{value}'는 날짜로 읽을 수 없어 무시했습니다. "
        "YYYY, YYYY-MM, YYYY-MM-DD 꼴로 적어 주세요.",
        "Ignored {name} '{value}': not a date. Use YYYY, YYYY-MM or YYYY-MM-DD.",
    ),
    "notice.last-page": (
        "{page}쪽은 없어서 마지막 쪽을 보여 줍니다.",
        "There is no page {page}; showing the last page.",
    ),
    "notice.text-cut": (
        "검색어가 너무 길어 앞부분만 썼습니다.",
        "The search text was too long; only its beginning was used.",
    ),
    "error.not-found": ("찾는 페이지가 없습니다", "Page not found"),
    "error.bad-request": ("요청을 이해하지 못했습니다", "Bad request"),
    "error.error": ("문제가 생겼습니다", "Something went wrong"),
    "error.back": ("라이브러리로 돌아가기", "Back to the library"),
    "footer.about": (
        "공개 보고서로 만든 장애 사례 라이브러리입니다. 모든 데이터를 내려받을 수 있습니다:",
        "A library built from public reports. All of its data is yours to take:",
    ),
    "footer.data": ("데이터", "Data"),
    "footer.page-json": ("이 페이지의 JSON", "This page as JSON"),
    "feed.title": ("kubegap 장애 사례 라이브러리: 새 사례", "kubegap Incident Library: newest incidents"),
    **CLUSTER_LABELS,
    **FLEET_LABELS,
    **LIST_LABELS,
}


def t(key: str, lang: str, **values: object) -> str:
    """A label in `lang`, with `{name}` placeholders filled; unknown keys fall back to `kubegap.text`."""
    pair = _WEB_LABELS.get(key)
    text = label(key, lang) if pair is None else pair[0 if normalize_lang(lang) == "ko" else 1]
    return text.format(**values) if values else text


def other_lang(lang: Lang) -> Lang:
    return "en" if lang == "ko" else "ko"


def web_label_keys() -> list[str]:
    """Every key this module defines, for the test that each one exists in both languages."""
    return list(_WEB_LABELS)
