"""`--help` in the reader's language: Korean texts for every command and option, and click's own words.

Click builds help from docstrings and `help=` strings, which are English. With Korean chosen, each
loaded command's texts are swapped for the ones below before click formats them, and put back when
English is chosen again (the command objects live for the whole process, and tests switch languages).
Keys are the command path after `kubegap` ("incidents list"), and "path --option" for an option; an
option shared by many commands ("--lang", "--json") falls back to "* --option". The test
`tests/cli/test_help_languages.py` fails when a command or option has no Korean text here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

import click
from rich.cells import cell_len

from kubegap.text import Lang

_KO: dict[str, str] = {
    "": (
        "공개된 AI 인프라 장애에서 배우고, 같은 빈틈을 내 클러스터에서 읽기 전용으로 찾습니다.\n\n"
        "종료 코드: 0 정상, 1 --fail-on 이상의 실패가 있음(scan), 2 사용법이나 입력 오류, "
        "3 클러스터를 읽지 못함(닿지 않음, 거부, 시간 초과)."
    ),
    "* --help": "이 도움말을 보여 주고 끝냅니다.",
    "* --version": "버전을 보여 주고 끝냅니다.",
    "* --lang": "언어(기본값: $KUBEGAP_LANG, 없으면 로캘, 그것도 없으면 en).",
    "--lang": "모든 하위 명령의 언어(기본값: $KUBEGAP_LANG, 없으면 로캘, 그것도 없으면 en).",
    "* --json": "표 대신 JSON으로 출력합니다.",
    "* --kubeconfig": "kubeconfig 파일(기본값: kubectl과 같은 방식으로 찾음).",
    "* --namespace": "이 네임스페이스만 봅니다(여러 번 지정 가능).",
    "* --check": "이 점검만 실행합니다(여러 번 지정 가능).",
    "* --exemptions": "예외 목록 YAML 파일.",
    "* --qps": "초당 요청 수.",
    "* --timeout": "요청 하나에 허용하는 시간(초). 연결부터 본문을 다 받을 때까지입니다.",
    "* --scan-timeout": (
        "라이브 읽기 전체에 허용하는 시간(초). 기본값은 120초에 목록마다 2초, 객체 1,000개마다 1초를 "
        "더한 값이고 최대 1,800초이며, 실제로 쓴 값은 보고서에 나옵니다."
    ),
    "* --max-page-mb": "응답 본문 하나의 최대 크기(MiB).",
    "* --max-kind-mb": "한 종류의 페이지를 모두 합친 최대 크기(MiB).",
    "* --max-pages": "종류 하나당 최대 페이지 수.",
    "* --retry-budget": "한 스캔에서 재시도(429, 5xx) 대기 시간을 모두 합쳐 허용하는 시간(초).",
    "* --host": "연결을 받을 주소.",
    "* --port": "연결을 받을 포트.",
    "agent": "코딩 에이전트(Claude Code, Codex)가 kubegap을 쓰도록 설정합니다.",
    "agent setup": (
        "이 컴퓨터에서 CLIENT에 넣을 MCP 설정을 그대로 출력합니다(--write를 주면 설정 파일에 합칩니다)."
    ),
    "agent setup --write": "출력하는 대신 클라이언트의 설정 파일에 항목을 합칩니다.",
    "agent setup --project-dir": "Claude Code: 서버를 등록할 .mcp.json이 있는 프로젝트.",
    "agent setup --codex-home": "Codex: 홈 폴더(기본값: $CODEX_HOME, 없으면 ~/.codex).",
    "checks": "점검 목록을 보여 주고 설명합니다.",
    "checks list": "모든 점검의 ID, 심각도, 영역, 제목.",
    "checks show": (
        "점검 하나의 모든 것: 왜 필요한지, 어떻게 판정하는지, 고치는 법, 읽는 리소스 종류, 관련 사례."
    ),
    "checks list --json": "기계가 읽을 수 있는 형식으로 출력합니다.",
    "checks show --json": "기계가 읽을 수 있는 형식으로 출력합니다.",
    "errors": "오류 시그니처 카탈로그: Xid 코드, NCCL, CUDA/NVML, Kubernetes와 etcd 메시지.",
    "errors list": "카탈로그 항목 전체(또는 한 계열)와 그 제목.",
    "errors show": "ID로 항목 하나를 보거나, 붙여 넣은 오류 문구에 들어 있는 항목들을 찾습니다.",
    "exporter": "Prometheus용 `/metrics`를 제공합니다: 클러스터와 점검별 상태, 발견 사항, 스캔 상태.",
    "exporter --interval": "스캔 한 차례가 시작되고 다음 차례가 시작될 때까지의 간격(초).",
    "exporter --context": "스캔할 컨텍스트(여러 번 지정 가능, 기본값: 현재 컨텍스트).",
    "exporter --all-contexts": "kubeconfig의 모든 컨텍스트를 스캔하고, 차례마다 다시 읽습니다.",
    "exporter --cluster-name": "기본 대상의 `cluster` 레이블(기본값: 컨텍스트 이름).",
    "exporter --qps": "클러스터마다 초당 요청 수.",
    "exporter --timeout": "요청 하나에 허용하는 시간(초).",
    "exporter --demo": "내장 예제 클러스터를 내보냅니다(대시보드를 시험할 때).",
    "facets": "모든 패싯과 그 용어(하위 용어는 상위 아래에), 용어마다 사례 수를 보여 줍니다.",
    "incidents": "사례 라이브러리를 둘러보고 검색합니다.",
    "incidents list": "패싯, 조직, 범위(서로 다른 패싯은 AND)와 날짜로 거르고 문구로 검색한 사례 목록.",
    "incidents list --query": "검색어: 한국어, 영어, 또는 붙여 넣은 로그 한 줄.",
    "incidents list --cause": "원인 용어 ID(여러 번 지정 가능, 같은 패싯 안에서는 OR).",
    "incidents list --component": "구성 요소 용어 ID(여러 번 지정 가능).",
    "incidents list --symptom": "증상 용어 ID(여러 번 지정 가능).",
    "incidents list --factor": "기여 요인 용어 ID(여러 번 지정 가능).",
    "incidents list --org": (
        "조직 ID, 이름 또는 별칭(여러 번 지정 가능). 상위 조직을 주면 그 아래 조직도 찾습니다"
        "(`microsoft`로 GitHub도)."
    ),
    "incidents list --scope": (
        "ai-infra(AI 인프라) 또는 platform(쿠버네티스·클라우드). 경계는 docs/knowledge.md에 있습니다."
    ),
    "incidents list --since": "YYYY[-MM[-DD]] 당일이나 그 뒤에 시작된 사례.",
    "incidents list --until": "YYYY[-MM[-DD]] 당일이나 그 전에 시작된 사례.",
    "incidents list --page": "페이지 번호(1부터).",
    "incidents list --per-page": "한 페이지의 사례 수(1~100).",
    "incidents list --sort": "정렬 순서(기본값: -q가 있으면 관련도, 없으면 최신순).",
    "incidents list --width": "표의 너비(기본값: 터미널 너비. 파이프로 보내면 표 대신 사례마다 한 줄).",
    "incidents show": "사례 하나: 아홉 개 항목, 태그, 영향, 오류 시그니처, 출처.",
    "incidents similar": "이 사례와 태그나 오류 시그니처를 공유하는 사례와, 무엇을 공유하는지.",
    "incidents index": "검색 색인을 지금 만들어 둡니다(`make run`이 한 번 해 두고, 없으면 검색이 만듭니다).",
    "knowledge": "지식 베이스(분류 체계, 사례, 플릿 연구)를 검증하고 설명합니다.",
    "knowledge schema": "레코드 종류 하나의 JSON 스키마를 출력합니다(편집기와 다른 도구용).",
    "knowledge validate": (
        "모든 파일을 스키마와 상호 참조에 비추어 검증합니다. 문제가 하나라도 있으면 1로 끝납니다."
    ),
    "knowledge validate --root": "지식 폴더(기본값: 패키지에 든 것).",
    "knowledge validate --check-citations": (
        "점검 항목이 인용한 사례가 모두 라이브러리에 남아 있는지도 확인합니다"
        "(기본값: 패키지에 든 지식일 때만)."
    ),
    "knowledge stats": "코퍼스가 다루는 범위: 연도, 원인 계열, 환경, 출처 종류, 발행처별 건수.",
    "knowledge stats --root": "지식 폴더(기본값: 패키지에 든 것).",
    "mcp": (
        "읽기 전용 MCP 서버를 표준 입출력(stdio)으로 실행합니다(Claude Code, Codex 등 MCP 호스트용). "
        "도구 호출은 kubeconfig 파일을 고르지 못합니다: 서버는 사용자의 것($KUBECONFIG, 없으면 "
        "~/.kube/config)이나 --kubeconfig로 준 파일만 읽습니다. 도구 호출이 무엇을 읽고 실행할 수 있는지는 "
        "SECURITY.md에 있습니다. 호출이 `lang`을 따로 정하지 않으면 답과 리소스, 오류는 --lang의 언어로 "
        "나옵니다."
    ),
    "mcp --kubeconfig": (
        "$KUBECONFIG나 ~/.kube/config 대신 도구 호출이 쓸 kubeconfig(여러 번 지정 가능, 첫 번째가 기본값). "
        "이 옵션이 없으면 도구 호출은 다른 kubeconfig를 고를 수 없습니다(SECURITY.md 참고)."
    ),
    "rbac": "kubegap에 필요한 읽기 전용 ClusterRole을 출력합니다(`get`과 `list`만, Secret은 읽지 않음).",
    "scan": (
        "공개 사례 뒤에 있던 빈틈을 클러스터에서 찾습니다(라이브, --snapshot, --manifests, --demo).\n\n"
        "PATHS는 --manifests처럼 매니페스트 파일이나 폴더입니다(그래서 `kubegap scan k8s/*.yaml`과 "
        "pre-commit 훅이 동작합니다). --context를 둘 이상 주거나 --all-contexts를 주면 플릿을 스캔해, "
        "클러스터 × 점검 행렬 하나로 보고합니다.\n\n"
        "종료 코드: 0 --fail-on 이상의 열린 실패가 없음, 1 하나 이상 있음, 2 사용법이나 입력 오류(잘못된 "
        "플래그, 없는 점검, 파싱할 수 없는 파일, Kubernetes 오브젝트가 없는 입력, 쓸 수 없는 보고서 경로), "
        "3 클러스터를 읽지 못함(닿지 않음, 거부, 시간 초과)."
    ),
    "scan --snapshot": "스냅숏 파일이나 폴더.",
    "scan --manifests": "매니페스트 파일이나 폴더.",
    "scan --demo": "내장 예제 GPU 클러스터를 스캔합니다.",
    "scan --format": "보고서 형식(기본값: 터미널에서는 표, 파이프나 파일로 보낼 때는 plain).",
    "scan --width": "표의 열 수(기본값: 터미널 너비).",
    "scan --output": "보고서를 파일에 씁니다.",
    "scan --fail-on": "이 심각도 이상의 열린 실패가 있으면 1로 끝납니다.",
    "scan --all": (
        "표와 plain 형식에서 실패만이 아니라 모든 점검과 결과(통과, 해당 없음, 판단 불가), 고치는 법, "
        "사례, 읽은 범위까지 보여 줍니다."
    ),
    "scan --status": "이 상태만 보여 줍니다.",
    "scan --min-severity": "이 심각도 이상만 보여 줍니다.",
    "scan --no-annotation-exemptions": "kubegap.io/ignore 어노테이션을 무시합니다.",
    "scan --skip-unreadable": (
        "폴더 안에서 읽을 수 없는 파일을 건너뛰어도 종료 코드 2로 끝내지 않습니다(건너뛴 파일은 그래도 "
        "보고서에 나옵니다)."
    ),
    "scan --library-url": "사례 링크의 기본 URL(기본값: $KUBEGAP_LIBRARY_URL, 없으면 각 사례의 출처).",
    "scan --context": "kubeconfig 컨텍스트(기본값: 현재 컨텍스트). 여러 번 주면 플릿을 스캔합니다.",
    "scan --all-contexts": "kubeconfig의 모든 컨텍스트를 스캔합니다.",
    "scan --concurrency": (
        "플릿 스캔에서 동시에 읽는 클러스터 수(--qps는 클러스터마다 적용, "
        "기본값: CPU당 8개, 최소 4개에서 최대 16개)."
    ),
    "serve": (
        "사례 라이브러리와 내 클러스터의 읽기 전용 보고서를 웹으로 봅니다(한국어와 영어).\n\n"
        "원본 플래그가 없으면 kubeconfig가 가리키는 클러스터를 읽기 전용으로 보고, kubeconfig가 없으면 "
        "내장 데모 클러스터를 보여 줍니다."
    ),
    "serve --demo": "내장 예제 GPU 클러스터를 보고합니다.",
    "serve --snapshot": "스냅숏 파일이나 폴더(여러 번 지정 가능).",
    "serve --manifests": "매니페스트 파일이나 폴더(여러 번 지정 가능).",
    "serve --context": "kubeconfig 컨텍스트(기본값: 현재 컨텍스트). 여러 번 주면 플릿 행렬을 보여 줍니다.",
    "serve --all-contexts": "kubeconfig의 모든 컨텍스트(플릿)를 스캔합니다.",
    "serve --no-scan": "라이브러리만 제공하고 클러스터는 스캔하지 않습니다.",
    "serve --allowed-host": (
        "이 호스트 이름으로 온 요청에도 답합니다(여러 번 지정 가능, 도메인 전체는 '*.example.com'). "
        "127.0.0.1, `localhost`, --host 주소는 늘 받고, 다른 이름은 400을 받습니다."
    ),
    "snapshot": (
        "라이브 클러스터를 한 번 읽어 kubegap 스냅숏 파일로 남깁니다. "
        "나중에, 또는 다른 곳에서 스캔할 수 있습니다.\n\n"
        "파일에는 모든 오브젝트의 구조, 이름, 키와 점검이 판정에 쓰는 값이 남고, 그 밖의 ConfigMap 내용과 "
        "환경 변수 값은 가려서 씁니다. --raw를 주면 읽은 그대로 남깁니다."
    ),
    "snapshot --raw": "ConfigMap 내용과 환경 변수 값을 읽은 그대로, 자격 증명까지 씁니다(기본값: 가림).",
    "snapshot --output": "파일(.json 또는 .json.gz).",
    "snapshot --check": "이 점검들에 필요한 것만 읽습니다(여러 번 지정 가능).",
    "snapshot --context": "kubeconfig 컨텍스트(기본값: 현재 컨텍스트).",
    "symptoms": (
        "클러스터에 이미 드러난 증상을 보여 줍니다: 이벤트와 노드·파드·작업 상태를 "
        "오류 카탈로그에 맞춰 보고, 같은 증상을 겪은 사례와 "
        "그 증상이 번지게 둔 빈틈의 점검을 함께 알려 줍니다.\n\n"
        "이벤트(최근 --since), 노드, 파드, 작업을 GET으로만 읽습니다. Secret은 읽지 않고, 파드 로그는 "
        "--logs를 줄 때만 증상이 있는 파드에 한해 길이를 제한해 읽고 가립니다. "
        "종료 코드: 0 판단함, 1 --fail-on-symptoms를 주었고 증상이 있음, 2 사용법이나 입력 오류, "
        "3 클러스터를 읽지 못함, 4 알 수 없음(이벤트를 읽을 수 없음)."
    ),
    "symptoms --snapshot": "스냅숏 파일이나 폴더.",
    "* --logs": (
        "증상이 이미 보이는 파드(재시작 반복, OOMKilled, 실패한 GPU 작업 파드)의 로그도 길이를 제한해 읽고, "
        "가린 뒤 오류 카탈로그에 맞춰 봅니다. `pods/log`에 `get` 권한이 필요합니다."
    ),
    "* --log-pods": "로그를 읽을 파드 수의 상한.",
    "* --log-lines": "로그마다 읽을 마지막 줄 수(`tailLines`, 로그마다 최대 256KiB).",
    "rbac --logs": "`scan --logs`와 `symptoms --logs`에 필요한 `pods/log`의 `get` 권한을 더합니다.",
    "symptoms --demo": "내장 예제 GPU 클러스터를 읽습니다.",
    "symptoms --since": "이벤트를 어디까지 거슬러 셀지(30m, 24h, 7d).",
    "symptoms --format": "출력 형식.",
    "symptoms --fail-on-symptoms": "증상이 하나라도 보이면 1로 끝납니다.",
    "symptoms --context": "kubeconfig 컨텍스트(기본값: 현재 컨텍스트).",
}

# Click's own words around the texts above.
_SECTIONS = {"Options": "옵션", "Commands": "명령", "Positional arguments": "인자"}
_EXTRAS = (
    (re.compile(r"\bdefault: "), "기본값: "),
    (re.compile(r"\brequired\b"), "필수"),
    (re.compile(r"\benv var: "), "환경 변수: "),
    (re.compile(r"^Show this message and exit\.$"), "이 도움말을 보여 주고 끝냅니다."),
)


def korean_text(path: str, option: str | None = None) -> str | None:
    """The Korean help of a command (`path`) or of one of its options, or None when there is none."""
    if option is None:
        return _KO.get(path)
    return _KO.get(f"{path} {option}".strip()) or _KO.get(f"* {option}")


def _option_name(parameter: click.Parameter) -> str:
    return max(parameter.opts, key=len)


def walk(
    command: click.Command, context: click.Context, path: str = ""
) -> Iterator[tuple[str, click.Command]]:
    """Every command under `command` (itself first) with its path after `kubegap`."""
    yield path, command
    if isinstance(command, click.Group):
        for name in command.list_commands(context):
            child = command.get_command(context, name)
            if child is not None:
                yield from walk(child, context, f"{path} {name}".strip())


def apply_language(command: click.Command, path: str, lang: Lang) -> None:
    """Give one command (not its children) the help texts of `lang`, keeping the English to go back to."""
    english: dict[str, Any] = command.__dict__.setdefault("_kubegap_english", {})
    english.setdefault("help", command.help)
    english.setdefault("short_help", command.short_help)
    korean = lang == "ko"
    command.help = (korean and korean_text(path)) or english["help"]
    command.short_help = (korean and _first_sentence(korean_text(path))) or english["short_help"]
    for parameter in command.params:
        if isinstance(parameter, click.Option) and parameter.help is not None:
            name = _option_name(parameter)
            english.setdefault(name, parameter.help)
            parameter.help = (korean and korean_text(path, name)) or english[name]
    command.context_class = _KoreanContext if korean else click.Context


def _first_sentence(text: str | None) -> str | None:
    if text is None:
        return None
    return text.split("\n\n", 1)[0]


def _wrap(text: str, width: int) -> list[str]:
    """Lines of at most `width` terminal cells: a Hangul syllable takes two, which click's wrapper ignores."""
    lines: list[str] = []
    for paragraph in text.split("\n\n"):
        if lines:
            lines.append("")
        line = ""
        for word in paragraph.split():
            candidate = f"{line} {word}" if line else word
            if line and cell_len(candidate) > width:
                lines.append(line)
                line = word
            else:
                line = candidate
        lines.append(line)
    return lines


class _KoreanFormatter(click.HelpFormatter):
    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        super().write_usage(prog, args, prefix="사용법: " if prefix is None else prefix)

    def write_heading(self, heading: str) -> None:
        super().write_heading(_SECTIONS.get(heading, heading))

    def write_text(self, text: str) -> None:
        indent = " " * self.current_indent
        for line in _wrap(text, max(self.width - self.current_indent, 20)):
            self.write(f"{indent}{line}\n" if line else "\n")

    def write_dl(self, rows: Iterable[tuple[str, str]], col_max: int = 30, col_spacing: int = 2) -> None:
        rows = list(rows)
        first_column = min(max((cell_len(term) for term, _ in rows), default=0), col_max) + col_spacing
        indent = " " * self.current_indent
        for term, definition in rows:
            for pattern, korean in _EXTRAS:
                definition = pattern.sub(korean, definition)
            self.write(f"{indent}{term}")
            if not definition:
                self.write("\n")
                continue
            if cell_len(term) <= first_column - col_spacing:
                self.write(" " * (first_column - cell_len(term)))
            else:
                self.write("\n" + " " * (first_column + self.current_indent))
            lines = _wrap(definition, max(self.width - first_column - self.current_indent - 2, 10))
            self.write(lines[0] + "\n")
            for line in lines[1:]:
                self.write(f"{'':>{first_column + self.current_indent}}{line}\n")


class _KoreanContext(click.Context):
    formatter_class = _KoreanFormatter
