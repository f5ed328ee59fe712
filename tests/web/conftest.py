"""A small knowledge base for the web tests: the bundled taxonomy plus the fixture incidents and study.

The taxonomy is copied from the package at test time, so the fixtures always meet the current facets;
the incidents and the study are ours (tests/web/fixtures), so counts and texts can be asserted exactly.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from web_fixture_ids import HBM, OS_UPDATE

from kubegap.checker.check import CheckMeta
from kubegap.checker.finding import Severity
from kubegap.knowledge.loader import BUNDLED_ROOT
from kubegap.knowledge.model import Bilingual
from kubegap.library import Library
from kubegap.web import create_app

FIXTURES = Path(__file__).parent / "fixtures"


def _text(ko: str, en: str) -> Bilingual:
    return Bilingual(ko=ko, en=en)


FIXTURE_CHECKS = [
    CheckMeta(
        id="fixture-nccl-async-errors",
        area="training-jobs",
        severity=Severity.high,
        title=_text("NCCL 비동기 오류 처리가 꺼져 있음", "NCCL async error handling is off"),
        why=_text("멈춘 집합 연산이 노드를 붙잡는다.", "A stuck collective holds the nodes."),
        remediation=_text(
            "TORCH_NCCL_ASYNC_ERROR_HANDLING=1 을 설정한다.", "Set TORCH_NCCL_ASYNC_ERROR_HANDLING=1."
        ),
        decides=_text("학습 파드의 환경 변수를 읽는다.", "Reads the training pods' environment."),
        incidents=(HBM,),
        needs=("Pod", "batch/Job"),
        components=("nccl",),
        references=("https://example.org/nccl-docs",),
    ),
    CheckMeta(
        id="fixture-os-update-plan",
        area="fleet-change",
        severity=Severity.medium,
        title=_text(
            "OS 업데이트가 모든 GPU 노드를 한꺼번에 건드림", "OS updates touch every GPU node at once"
        ),
        why=_text("한 번의 실수가 플릿 전체로 번진다.", "One mistake spreads to the whole fleet."),
        remediation=_text("업데이트를 단계적으로 내보낸다.", "Roll updates out in stages."),
        decides=_text("업그레이드 계획의 동시 실행 수를 본다.", "Looks at the upgrade plan's concurrency."),
        incidents=(OS_UPDATE, "fixture-no-such-incident"),
        needs=("Node",),
        components=("host-os",),
    ),
]


@pytest.fixture(scope="session")
def knowledge_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("knowledge")
    shutil.copytree(BUNDLED_ROOT / "taxonomy", root / "taxonomy")
    shutil.copytree(FIXTURES / "incidents", root / "incidents")
    shutil.copytree(FIXTURES / "studies", root / "studies")
    shutil.copy(FIXTURES / "organizations.yaml", root / "organizations.yaml")
    return root


@pytest.fixture(scope="session")
def library(knowledge_root: Path) -> Iterator[Library]:
    opened = Library.open(knowledge_root, db_path=":memory:")
    assert not opened.knowledge.problems, opened.knowledge.problems
    yield opened
    opened.close()


@pytest.fixture(scope="session")
def client(library: Library) -> Iterator[TestClient]:
    with TestClient(base_url="http://127.0.0.1", app=create_app(library, FIXTURE_CHECKS)) as test_client:
        yield test_client


@pytest.fixture(scope="session")
def bare_client(library: Library) -> Iterator[TestClient]:
    """The same library with no checks registered, as before the checker ships any."""
    with TestClient(base_url="http://127.0.0.1", app=create_app(library, [])) as test_client:
        yield test_client
