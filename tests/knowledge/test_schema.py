"""The JSON Schemas under schemas/ are what the models produce, and they accept the real records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kubegap.knowledge.schema import json_schemas

SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"


@pytest.mark.parametrize("kind", ["incident", "study", "taxonomy", "organizations"])
def test_committed_schema_matches_the_models(kind: str) -> None:
    committed = json.loads((SCHEMAS / f"{kind}.schema.json").read_text(encoding="utf-8"))
    assert committed == json_schemas()[kind], (
        f"schemas/{kind}.schema.json is stale: run "
        f"`.venv/bin/kubegap knowledge schema --kind {kind} > schemas/{kind}.schema.json`"
    )


def test_schema_requires_both_languages() -> None:
    bilingual = json_schemas()["incident"]["$defs"]["Bilingual"]
    assert sorted(bilingual["required"]) == ["en", "ko"]
