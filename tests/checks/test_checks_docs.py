"""docs/checks.md is generated from the check modules; this test fails when it drifts."""

from __future__ import annotations

from pathlib import Path

from kubegap.checker.docs import REGENERATE, render_checks_markdown
from kubegap.checker.registry import all_checks

DOC = Path(__file__).resolve().parents[2] / "docs" / "checks.md"


def test_checks_markdown_is_up_to_date() -> None:
    committed = DOC.read_text(encoding="utf-8") if DOC.is_file() else ""
    message = f"docs/checks.md is out of date; regenerate it with: {REGENERATE}"
    assert committed == render_checks_markdown(), message


def test_every_check_has_a_section() -> None:
    rendered = render_checks_markdown()
    for check in all_checks():
        assert f"### `{check.id}`" in rendered
        assert check.meta.title.ko in rendered and check.meta.why.en in rendered
