"""One Korean term per concept: the list in terminology.yaml, and the check any text can be run through.

Each banned variant is caught as written in running text (with its particle or ending), the preferred
term and look-alike words are left alone, and the bundled knowledge data holds to the whole list.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from kubegap.knowledge import load_knowledge
from kubegap.knowledge.loader import BUNDLED_ROOT
from kubegap.knowledge.orthography import korean_texts
from kubegap.knowledge.terminology import FILE_NAME, bundled_terminology, iter_entries, read_terminology

TERMS = bundled_terminology()


@pytest.mark.parametrize(
    ("text", "found", "preferred"),
    [
        ("노드 상태 검사를 껐다", "검사를", "점검"),
        ("검사하는 도구", "검사하는", "점검"),
        ("건강한 클러스터", "건강한", "정상"),
        ("GPU가 불건강으로 표시됐다", "불건강으로", "정상"),
        ("SLURM 잡이 멈췄다", "잡이", "작업"),
        ("잡 배열로 돌렸다", "잡", "작업"),
        ("노드 라벨을 붙였다", "라벨을", "레이블"),
        ("스냅샷을 떴다", "스냅샷을", "스냅숏"),
        ("헬스 체크가 실패했다", "헬스 체크가", "상태 점검"),
        ("헬스체크로 재시작", "헬스체크로", "상태 점검"),
        ("애너테이션을 붙였다", "애너테이션을", "어노테이션"),
        ("포드가 재시작됐다", "포드가", "파드"),
        ("메세지가 나왔다", "메세지가", "메시지"),
        ("스케쥴러가 멈췄다", "스케쥴러가", "스케줄"),
        ("캐쉬를 비웠다", "캐쉬를", "캐시"),
        ("레이턴시가 늘었다", "레이턴시가", "지연 시간"),
        ("데몬셋의 파드", "데몬셋의", "DaemonSet"),
        ("디플로이먼트를 고쳤다", "디플로이먼트를", "Deployment"),
    ],
)
def test_each_banned_variant_is_found_as_written(text: str, found: str, preferred: str) -> None:
    [finding] = TERMS.findings(text)
    assert (finding.found, finding.entry.preferred) == (found, preferred)
    assert text[finding.offset : finding.offset + len(found)] == found


@pytest.mark.parametrize(
    "text",
    [
        "노드 상태 점검을 껐다",
        "정상 클러스터와 비정상 노드",
        "학습 작업이 멈췄다",
        "원인을 잡은 뒤 문제를 잡는다. 미리 잡아 둔다",  # 잡다, the verb
        "복잡한 설정",  # 잡 inside a word
        "Job 파드가 끝났다",
        "레이블과 셀렉터",
        "스냅숏을 떴다",
        "손잡이",
        "재검사",  # 검사 after another syllable is another word
    ],
)
def test_preferred_terms_and_look_alikes_are_left_alone(text: str) -> None:
    assert TERMS.findings(text) == []


def test_findings_by_line_for_any_text_file() -> None:
    """What a test over a template or a message catalog calls: line numbers of the whole text."""
    template = "<h1>{{ title }}</h1>\n<p>정상 노드</p>\n<p>건강한 노드와 라벨</p>\n"
    located = [(line, finding.found) for line, finding in TERMS.findings_by_line(template)]
    assert located == [(3, "건강한"), (3, "라벨")]


def test_every_entry_explains_itself_in_both_languages() -> None:
    entries = list(iter_entries())
    assert len(entries) >= 10
    preferred = [entry.preferred for entry in entries]
    assert len(preferred) == len(set(preferred))
    for entry in entries:
        assert entry.reason.ko and entry.reason.en and entry.concept.ko and entry.concept.en
        # A preferred term is never itself banned by another entry.
        assert TERMS.findings(entry.preferred) == [], entry.preferred


def test_a_variant_a_reader_may_type_still_finds_the_cases() -> None:
    """The glossary keeps each banned variant as a search form of its preferred term."""
    glossary = yaml.safe_load((BUNDLED_ROOT / "glossary.yaml").read_text(encoding="utf-8"))
    forms = [set(entry["ko"]) for entry in glossary["entries"]]
    missing = [
        (entry.preferred, variant)
        for entry in iter_entries()
        for variant in entry.banned
        # One-syllable variants (잡, 팟) would match inside unrelated words, so the glossary omits them.
        if len(variant) > 1 and not any(form.startswith(variant) for group in forms for form in group)
    ]
    assert missing == []


def test_the_bundled_data_holds_to_the_list() -> None:
    loaded = load_knowledge()
    assert [p.render() for p in loaded.problems if "terminology.yaml" in p.message] == []
    # Read the files directly too, so a rule is not silently skipped by the loader.
    found = []
    for path in sorted(BUNDLED_ROOT.rglob("*.yaml")):
        if path.name in (FILE_NAME, "glossary.yaml"):
            continue  # the list names what it bans; the glossary keeps variants as search forms
        for where, text in korean_texts(yaml.safe_load(path.read_text(encoding="utf-8"))):
            found += [(path.name, where, finding.found) for finding in TERMS.findings(text)]
    assert found == []


def test_a_broken_list_is_reported_not_raised(tmp_path: Path) -> None:
    broken = tmp_path / FILE_NAME
    broken.write_text("terms:\n  - preferred: 점검\n    banned: []\n", encoding="utf-8")
    with pytest.raises(ValueError, match="not a valid terminology list"):
        read_terminology(broken)


def test_the_scope_page_names_every_preferred_term() -> None:
    """docs/knowledge.md summarises the list for readers; a new entry must appear there too."""
    page = (Path(__file__).resolve().parents[2] / "docs" / "knowledge.md").read_text(encoding="utf-8")
    table = page.split("## One Korean word per concept", 1)[1].split("\n## ", 1)[0]
    missing = [entry.preferred for entry in iter_entries() if entry.preferred not in table]
    assert missing == []
