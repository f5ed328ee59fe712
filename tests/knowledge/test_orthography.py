"""Standard Korean spacing: particles attach to Latin words and numbers, nouns after them keep a space.

The rule must catch the spaced particle and leave the many right spaces alone, so each case below is
a pair: what it flags and what it must not.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kubegap.checker.registry import all_checks
from kubegap.knowledge import load_knowledge
from kubegap.knowledge.model import Bilingual
from kubegap.knowledge.orthography import PARTICLES, attach_particles, particle_problems, spaced_particles
from kubegap.knowledge.yaml_positions import parse_with_positions
from kubegap.text import _LABELS
from kubegap.web.cluster_labels import CLUSTER_LABELS
from kubegap.web.labels import _WEB_LABELS


@pytest.mark.parametrize(
    ("spaced", "attached"),
    [
        ("GPU 를 비웠다", "GPU를 비웠다"),
        ("요청의 60% 가 실패", "요청의 60%가 실패"),
        ("NCCL 에서 멈췄다", "NCCL에서 멈췄다"),
        ("v2.18 로 올렸다", "v2.18로 올렸다"),
        ("6시 40분(PDT) 까지", "6시 40분(PDT)까지"),
        ('"Unknown Error" 라 알기 어렵다', '"Unknown Error"라 알기 어렵다'),
        ("`c 195:* m` 만 남았다", "`c 195:* m`만 남았다"),
        ("GPU 당 149 TFLOPs", "GPU당 149 TFLOPs"),
        ("값이 1 인 것", "값이 1인 것"),
        ("합은 100% 다.", "합은 100%다."),
        ("SLURM 이 작업을, torchrun 도 SLURM 도 실패를", "SLURM이 작업을, torchrun도 SLURM도 실패를"),
        ("{name} 에 적은", "{name}에 적은"),
        ("Kubernetes API 로는 볼 수 없다", "Kubernetes API로는 볼 수 없다"),
    ],
)
def test_spaced_particles_are_found_and_attached(spaced: str, attached: str) -> None:
    assert spaced_particles(spaced)
    assert attach_particles(spaced) == attached
    assert spaced_particles(attached) == []


@pytest.mark.parametrize(
    "right",
    [
        "GPU 노드",  # a noun after a Latin word keeps its space
        "H100 노드의 할당 가능 GPU",  # the word begins with a noun, not a particle
        "GPU 이상 징후",  # begins with 이, but 이상 is a noun
        "API 서버가",
        "all_gather 중 메모리가",  # dependent nouns keep their space
        "AutoRAG 등 여러 서비스",
        "OpenAI 쪽 설정",
        "01시부터 02시(UTC) 사이",
        "노드 간 통신",
        "GPU 수만 개",  # 수만 (tens of thousands), not 수 + 만
        "10년 만에",  # 만 after a Korean word is out of scope
        "GPU를 비웠다",
        "오류 메시지 NCCL WARN",  # a Latin word at the end
        "kubegap serve --kubeconfig 경로로",
    ],
)
def test_right_spacing_is_left_alone(right: str) -> None:
    assert spaced_particles(right) == []
    assert attach_particles(right) == right


def test_particles_listed_include_the_common_forms() -> None:
    assert {
        "이",
        "가",
        "을",
        "를",
        "은",
        "는",
        "의",
        "에",
        "에서",
        "로",
        "으로",
        "와",
        "과",
        "도",
        "만",
    } <= PARTICLES
    assert not {"노드", "중", "등", "쪽", "사이", "간", "수", "한", "뒤"} & PARTICLES


def test_validator_reports_the_field_and_line(tmp_path: Path) -> None:
    path = tmp_path / "example.yaml"
    path.write_text("title:\n  ko: GPU 노드의 ECC 를 봤다\n  en: Looked at ECC\n", encoding="utf-8")
    [problem] = particle_problems(path, parse_with_positions(path.read_text(encoding="utf-8")))
    assert problem.render(tmp_path) == (
        "example.yaml:2: title.ko: attach the particle to the word before it: 'ECC를', not 'ECC 를'"
    )


def test_knowledge_validate_rejects_a_spaced_particle(tmp_path: Path) -> None:
    import shutil

    from kubegap.knowledge.loader import BUNDLED_ROOT

    shutil.copytree(BUNDLED_ROOT, tmp_path / "data")
    target = tmp_path / "data" / "incidents" / "openai-2025-06-gpu-host-os-update-network-loss.yaml"
    text = target.read_text(encoding="utf-8").replace("GPU VM이", "GPU VM 이", 1)
    target.write_text(text, encoding="utf-8")
    problems = [p for p in load_knowledge(tmp_path / "data").problems if p.path == target]
    assert [p.field for p in problems] == ["title.ko"] and problems[0].line == 3
    assert "'VM이', not 'VM 이'" in problems[0].message


def test_the_bundled_corpus_has_no_spaced_particle() -> None:
    assert not [p for p in load_knowledge().problems if "attach the particle" in p.message]


def _check_texts() -> list[tuple[str, str]]:
    texts = []
    for check in all_checks():
        for name in ("title", "why", "remediation", "decides"):
            value = getattr(check.meta, name, None)
            if isinstance(value, Bilingual):
                texts.append((f"{check.meta.id}.{name}", value.ko))
    return texts


def test_checks_metadata_attaches_particles() -> None:
    texts = _check_texts()
    assert len(texts) >= 4 * 40  # every check's four texts were read
    assert [(where, attach_particles(text)) for where, text in texts if spaced_particles(text)] == []


@pytest.mark.parametrize("labels", [_LABELS, _WEB_LABELS, CLUSTER_LABELS], ids=["text", "web", "cluster"])
def test_ui_labels_attach_particles(labels: dict[str, tuple[str, str]]) -> None:
    assert [(key, ko) for key, (ko, _) in labels.items() if spaced_particles(ko)] == []
