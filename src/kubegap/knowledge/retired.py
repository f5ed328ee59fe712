"""Incidents taken out of the library, kept as data so their ids stay accounted for.

When a record leaves (out of scope, or with no primary source to rest on), its id goes into
`retired.yaml` with the reason. The validator then tells a check that still cites it, or a new record
that reuses the id, what happened to it, instead of a bare "unknown incident". A record merged into
another is not retired: its id becomes a `former_ids` entry of the record it joined and keeps resolving.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from kubegap.knowledge.model import Bilingual, Slug
from kubegap.knowledge.problems import Problem
from kubegap.knowledge.yaml_positions import PositionedDocument

FILE_NAME = "retired.yaml"


class RetiredReason(StrEnum):
    """Why a record left: the out-of-scope families docs/knowledge.md names, or a missing source."""

    rate_limit_policy = "rate-limit-policy"
    auth_or_credentials = "auth-or-credentials"
    application_database = "application-database"
    content_or_model_behaviour = "content-or-model-behaviour"
    telephony_or_voice_app = "telephony-or-voice-app"
    thin_application_note = "thin-application-note"
    training_numerics = "training-numerics"
    no_primary_source = "no-primary-source"


REASON_LABELS: dict[RetiredReason, Bilingual] = {
    RetiredReason.rate_limit_policy: Bilingual(ko="레이트 리밋 정책 변경", en="rate-limit policy change"),
    RetiredReason.auth_or_credentials: Bilingual(
        ko="로그인·인증·자격 증명 문제", en="login, auth or credential problem"
    ),
    RetiredReason.application_database: Bilingual(
        ko="서빙과 무관한 애플리케이션 데이터베이스·캐시 장애",
        en="application database or cache outside serving",
    ),
    RetiredReason.content_or_model_behaviour: Bilingual(
        ko="콘텐츠·개인정보·모델 동작 문제", en="content, privacy or model-behaviour problem"
    ),
    RetiredReason.telephony_or_voice_app: Bilingual(
        ko="SIP·전화·음성 앱 버그", en="SIP, telephony or voice-app bug"
    ),
    RetiredReason.thin_application_note: Bilingual(
        ko="인프라 교훈이 없는 짧은 앱·웹·CDN 기록",
        en="thin app, web or CDN note with no infrastructure lesson",
    ),
    RetiredReason.training_numerics: Bilingual(
        ko="인프라 원인이 없는 학습 수치 문제", en="training numerics with no infrastructure cause"
    ),
    RetiredReason.no_primary_source: Bilingual(ko="1차 출처 없음", en="no primary source"),
}


class RetiredIncident(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: Slug
    reason: RetiredReason
    note: Bilingual | None = None


class RetiredList(BaseModel):
    """The file `retired.yaml`."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    retired: list[RetiredIncident] = Field(default_factory=list)


def check_retired(
    path: Path,
    retired: list[RetiredIncident],
    document: PositionedDocument,
    current: dict[str, Path],
    problems: list[Problem],
) -> None:
    """A retired id is listed once and is no record's id or former id (`current` holds both)."""
    seen: set[str] = set()
    for index, entry in enumerate(retired):
        line = document.line_of(("retired", index, "id"))
        if entry.id in seen:
            problems.append(Problem(path, line, f"retired.{index}.id", f"{entry.id!r} is listed twice"))
        seen.add(entry.id)
        if entry.id in current:
            problems.append(
                Problem(
                    path,
                    line,
                    f"retired.{index}.id",
                    f"{entry.id!r} is in use ({current[entry.id].name}); a retired id is never reused",
                )
            )
