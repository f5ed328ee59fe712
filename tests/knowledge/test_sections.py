"""Every section accounted for: all nine present, a silent source said so in a note marked unstated."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from kubegap.knowledge import load_knowledge
from kubegap.knowledge.loader import BUNDLED_ROOT
from kubegap.knowledge.model import SECTION_ORDER, Incident
from kubegap.library import Library, SearchQuery

EXEMPLAR = BUNDLED_ROOT / "incidents" / "openai-2025-06-gpu-host-os-update-network-loss.yaml"
NOTE = {
    "ko": "출처에 감지 경위가 없다.",
    "en": "The sources do not say how it was detected.",
    "unstated": True,
}


@pytest.fixture
def root(tmp_path: Path) -> Path:
    shutil.copytree(BUNDLED_ROOT / "taxonomy", tmp_path / "taxonomy")
    shutil.copy(BUNDLED_ROOT / "organizations.yaml", tmp_path / "organizations.yaml")
    (tmp_path / "incidents").mkdir()
    return tmp_path


def _write(root: Path, change) -> Path:  # type: ignore[no-untyped-def]
    data = yaml.safe_load(EXEMPLAR.read_text(encoding="utf-8"))
    data["id"] = "case-2025-06-example"
    change(data["sections"])
    path = root / "incidents" / "case-2025-06-example.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def _messages(root: Path) -> list[tuple[str, str]]:
    return [(problem.field, problem.message) for problem in load_knowledge(root).problems]


def test_a_missing_section_is_named(root: Path) -> None:
    _write(root, lambda sections: [sections.pop("detection"), sections.pop("follow_ups")])
    assert _messages(root) == [
        (
            "sections",
            "missing sections: detection, follow_ups; where the sources say nothing, write a note saying so "
            "with unstated: true",
        )
    ]


def test_an_empty_list_counts_as_missing(root: Path) -> None:
    _write(root, lambda sections: sections.update(actions=[]))
    assert "missing sections: actions" in _messages(root)[0][1]


def test_a_note_that_the_source_is_silent_is_accepted(root: Path) -> None:
    _write(root, lambda sections: sections.update(detection=NOTE, follow_ups=[NOTE]))
    assert _messages(root) == []


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda s: s.update(symptom=NOTE), "symptom cannot be unstated: every incident has one"),
        (lambda s: s.update(lessons=NOTE), "lessons cannot be unstated: every incident has one"),
        (
            lambda s: s.update(follow_ups=[*s["follow_ups"], NOTE]),
            "follow_ups: a note that the sources say nothing must be the only item",
        ),
        (
            lambda s: s.update(contributing_factors=[{**NOTE, "basis": "stated"}]),
            "a note that the sources say nothing has no basis",
        ),
        (lambda s: s["cause"].pop("basis"), "basis is required: stated or inferred"),
    ],
)
def test_where_a_note_is_not_allowed(root: Path, change, message: str) -> None:  # type: ignore[no-untyped-def]
    _write(root, change)
    assert any(found == message for _, found in _messages(root)), _messages(root)


def test_every_bundled_incident_has_all_nine_sections() -> None:
    knowledge = load_knowledge()
    assert knowledge.incidents and not knowledge.problems
    for incident in knowledge.incidents:
        for name in SECTION_ORDER:
            if name == "components":
                assert incident.tags.component, incident.id
            else:
                assert incident.sections.items(name), (incident.id, name)


def _silent_detection(root: Path) -> Incident:
    _write(root, lambda sections: sections.update(detection=NOTE))
    [incident] = load_knowledge(root).incidents
    return incident


def test_the_note_is_shown_but_not_searched(root: Path) -> None:
    incident = _silent_detection(root)
    assert incident.sections.detection.unstated
    library = Library.open(root, db_path=":memory:")
    assert library.search(SearchQuery(text="detected")).total == 0
    assert library.search(SearchQuery(text="systemd-networkd")).total == 1


def test_renderers_show_the_note(root: Path) -> None:
    from kubegap.library import render
    from kubegap.web.cards import build_card

    incident = _silent_detection(root)
    library = Library.open(root, db_path=":memory:")
    card = build_card(incident, library.taxonomy, "en")
    [detection] = [section for section in card.sections if section.key == "detection"]
    assert [(item.text, item.unstated) for item in detection.items] == [(NOTE["en"], True)]
    assert [section.key for section in card.sections] == list(SECTION_ORDER)
    console = render.console()
    with console.capture() as captured:
        console.print(render.incident_detail(incident, library, "ko"))
    assert NOTE["ko"] in captured.get()


def test_sections_out_of_order_are_named(root: Path) -> None:
    def _swap(sections: dict) -> None:  # type: ignore[type-arg]
        lessons = sections.pop("lessons")
        rebuilt = {"lessons": lessons, **sections}
        sections.clear()
        sections.update(rebuilt)

    _write(root, _swap)
    assert _messages(root) == [
        (
            "sections",
            "sections are out of order; write them as symptom, trigger, cause, contributing_factors, "
            "detection, actions, follow_ups, lessons",
        )
    ]
