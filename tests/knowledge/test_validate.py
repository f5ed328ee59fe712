"""`kubegap knowledge validate`: one fixture per rule, each asserting the file, line and field it names."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from kubegap.cli import cli
from kubegap.knowledge import load_knowledge
from kubegap.knowledge.loader import BUNDLED_ROOT

EXEMPLAR = BUNDLED_ROOT / "incidents" / "openai-2025-06-gpu-host-os-update-network-loss.yaml"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A knowledge root with the real taxonomy and one valid incident."""
    shutil.copytree(BUNDLED_ROOT / "taxonomy", tmp_path / "taxonomy")
    shutil.copy(BUNDLED_ROOT / "organizations.yaml", tmp_path / "organizations.yaml")
    (tmp_path / "incidents").mkdir()
    (tmp_path / "studies").mkdir()
    shutil.copy(EXEMPLAR, tmp_path / "incidents" / "good-2025-01-example.yaml")
    _edit(
        tmp_path / "incidents" / "good-2025-01-example.yaml",
        lambda data: data.update(id="good-2025-01-example"),
    )
    return tmp_path


def _edit(path: Path, change) -> None:  # type: ignore[no-untyped-def]
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


def _add_incident(root: Path, name: str, change) -> Path:  # type: ignore[no-untyped-def]
    target = root / "incidents" / f"{name}.yaml"
    shutil.copy(root / "incidents" / "good-2025-01-example.yaml", target)

    def _rename_then(data: dict) -> None:  # type: ignore[type-arg]
        data["id"] = name
        data["date"] = "2024-03-0" + str(len(name) % 9 + 1)
        change(data)

    _edit(target, _rename_then)
    return target


def _problems(root: Path) -> list[str]:
    return [problem.render(root) for problem in load_knowledge(root).problems]


def test_the_fixture_root_is_valid(root: Path) -> None:
    assert _problems(root) == []


def test_bundled_knowledge_base_is_valid() -> None:
    loaded = load_knowledge(BUNDLED_ROOT)
    assert [problem.render() for problem in loaded.problems] == []
    assert loaded.incidents, "the bundled corpus must not be empty"


def _drop_english_symptom(data: dict) -> None:  # type: ignore[type-arg]
    del data["sections"]["symptom"]["en"]


def _no_sources(data: dict) -> None:  # type: ignore[type-arg]
    data["sources"] = []


def _http_source(data: dict) -> None:  # type: ignore[type-arg]
    data["sources"] = [{**data["sources"][0], "url": "http://example.com/x"}]


def _bad_date(data: dict) -> None:  # type: ignore[type-arg]
    data["date"] = "2024-02-30"


def _end_before_start(data: dict) -> None:  # type: ignore[type-arg]
    data["end_date"] = "2020-01-01"


def _dead_facet_id(data: dict) -> None:  # type: ignore[type-arg]
    data["tags"]["component"] = ["gpu", "flux-capacitor"]


def _unknown_field(data: dict) -> None:  # type: ignore[type-arg]
    data["severity"] = "high"


def _blank_korean_title(data: dict) -> None:  # type: ignore[type-arg]
    data["title"]["ko"] = "   "


def _bad_basis(data: dict) -> None:  # type: ignore[type-arg]
    data["sections"]["cause"]["basis"] = "guessed"


def _no_cause_tag(data: dict) -> None:  # type: ignore[type-arg]
    data["tags"]["cause"] = []


def _no_scope(data: dict) -> None:  # type: ignore[type-arg]
    del data["scope"]


def _unknown_scope(data: dict) -> None:  # type: ignore[type-arg]
    data["scope"] = "ml-product"


def _news_filed_as_blog(data: dict) -> None:  # type: ignore[type-arg]
    data["sources"].append(
        {
            "url": "https://www.theverge.com/2025/6/10/x",
            "title": "T",
            "publisher": "The Verge",
            "kind": "blog",
        }
    )


def _secondary_sources_only(data: dict) -> None:  # type: ignore[type-arg]
    data["sources"] = [source for source in data["sources"] if source["kind"] == "aggregator"]


def _needless_no_primary_note(data: dict) -> None:  # type: ignore[type-arg]
    data["no_primary_source"] = {"ko": "1차 출처가 없다.", "en": "No primary source exists."}


def _banned_korean_term(data: dict) -> None:  # type: ignore[type-arg]
    data["sections"]["symptom"]["ko"] = "노드 상태 검사를 통과했지만 GPU를 쓸 수 없었다."


def _merged_facet_value(data: dict) -> None:  # type: ignore[type-arg]
    data["tags"]["component"] = ["host-os", "etcd"]


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        (_drop_english_symptom, "sections.symptom.en", "required field is missing"),
        (_no_sources, "sources", "at least 1 item"),
        (_http_source, "sources.0.url", "should match pattern"),
        (_bad_date, "date", "date"),
        (_end_before_start, "document", "end_date is before date"),
        (_dead_facet_id, "tags.component", "unknown component term 'flux-capacitor'"),
        (_unknown_field, "severity", "unknown field"),
        (_blank_korean_title, "title.ko", "must not be blank"),
        (_bad_basis, "sections.cause.basis", "'stated' or 'inferred'"),
        (_no_cause_tag, "tags.cause", "needs a cause tag"),
        (_no_scope, "scope", "required field is missing"),
        (_unknown_scope, "scope", "'ai-infra' or 'platform'"),
        (_news_filed_as_blog, "sources.2.kind", "theverge.com is listed in secondary-sources.yaml as news"),
        (_secondary_sources_only, "sources", "every source is secondary"),
        (_needless_no_primary_note, "no_primary_source", "sources.0 is a primary source (status-page)"),
        (_banned_korean_term, "sections.symptom.ko", "write '점검', not '검사를'"),
        (_merged_facet_value, "tags.component", "'etcd' was merged into 'kubernetes-control-plane'"),
    ],
)
def test_each_rule_names_file_line_and_field(root: Path, change, field: str, message: str) -> None:  # type: ignore[no-untyped-def]
    path = _add_incident(root, "broken-2024-03-case", change)
    problems = load_knowledge(root).problems
    mine = [problem for problem in problems if problem.path == path]
    assert mine, f"no problem reported for {field}"
    assert any(problem.field == field and message in problem.message for problem in mine), [
        problem.render() for problem in mine
    ]
    text = path.read_text(encoding="utf-8").splitlines()
    for problem in mine:
        assert 1 <= problem.line <= len(text)
    assert [problem for problem in problems if problem.path != path] == []


def test_dead_facet_id_points_at_its_line(root: Path) -> None:
    path = _add_incident(root, "broken-2024-03-case", _dead_facet_id)
    [problem] = [p for p in load_knowledge(root).problems if p.path == path]
    assert "flux-capacitor" in path.read_text(encoding="utf-8").splitlines()[problem.line - 1]


def test_id_must_equal_file_name(root: Path) -> None:
    path = root / "incidents" / "renamed.yaml"
    shutil.copy(root / "incidents" / "good-2025-01-example.yaml", path)
    problems = [p for p in load_knowledge(root).problems if p.path == path]
    assert any("differs from file name" in p.message for p in problems)
    assert any("also used by" in p.message for p in problems)


def test_duplicate_incident_same_org_date_component(root: Path) -> None:
    path = _add_incident(root, "later-2025-01-example", lambda data: data.update(date="2025-06-09"))
    [problem] = load_knowledge(root).problems
    assert problem.path == path
    assert problem.message.startswith("looks like a duplicate of 'good-2025-01-example'")
    assert "host-os" in problem.message


def test_broken_yaml_names_its_line_and_loses_nothing_else(root: Path) -> None:
    broken = root / "incidents" / "broken-2024-01-yaml.yaml"
    broken.write_text("id: broken-2024-01-yaml\ntitle:\n  ko: [unclosed\n  en: x\n", encoding="utf-8")
    loaded = load_knowledge(root)
    [problem] = loaded.problems
    assert problem.path == broken and problem.field == "yaml" and problem.line >= 3
    assert [incident.id for incident in loaded.incidents] == ["good-2025-01-example"]


def test_top_level_list_is_rejected(root: Path) -> None:
    (root / "incidents" / "list-2024-01.yaml").write_text("- a\n- b\n", encoding="utf-8")
    [problem] = load_knowledge(root).problems
    assert problem.message == "expected a mapping at the top level"


def test_taxonomy_unknown_parent_and_duplicate_label(root: Path) -> None:
    path = root / "taxonomy" / "symptom.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["terms"].append(
        {
            "id": "orphan",
            "parent": "nowhere",
            "label": {"ko": "서비스 중단", "en": "Orphan"},
            "description": {"ko": "설명", "en": "Description"},
        }
    )
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    messages = [p.message for p in load_knowledge(root).problems]
    assert "unknown parent 'nowhere'" in messages
    assert any("is also the label of 'service-outage'" in m for m in messages)


def test_missing_facet_file(root: Path) -> None:
    (root / "taxonomy" / "symptom.yaml").unlink()
    problems = load_knowledge(root).problems
    assert any(p.path.name == "symptom.yaml" and p.message == "facet file is missing" for p in problems)


def test_study_rows_need_a_figure_and_known_tags(root: Path) -> None:
    study = {
        "id": "fleet-2024-study",
        "title": {"ko": "연구", "en": "Study"},
        "summary": {"ko": "요약", "en": "Summary"},
        "organization": "openai",
        "period": {"ko": "54일", "en": "54 days"},
        "fleet": {"ko": "GPU 16,384개", "en": "16,384 GPUs"},
        "measure": {"ko": "중단", "en": "interruptions"},
        "rows": [
            {"category": {"ko": "GPU", "en": "GPU"}, "count": 10, "tags": {"cause": ["gpu-fault"]}},
            {"category": {"ko": "기타", "en": "Other"}, "tags": {"cause": ["no-such-cause"]}},
        ],
        "sources": [{"url": "https://example.com/p", "title": "P", "publisher": "E", "kind": "paper"}],
    }
    (root / "studies" / "fleet-2024-study.yaml").write_text(yaml.safe_dump(study), encoding="utf-8")
    messages = [p.message for p in load_knowledge(root).problems]
    assert "a row needs a count or a share_percent" in messages
    study["rows"][1]["count"] = 3
    (root / "studies" / "fleet-2024-study.yaml").write_text(yaml.safe_dump(study), encoding="utf-8")
    messages = [p.message for p in load_knowledge(root).problems]
    assert messages == ["unknown cause term 'no-such-cause'"]


def test_cli_validate_exit_codes(root: Path) -> None:
    runner = CliRunner()
    ok = runner.invoke(cli, ["knowledge", "validate", "--root", str(root)])
    assert ok.exit_code == 0 and ok.output.startswith("OK: 1 incidents")
    _add_incident(root, "broken-2024-03-case", _dead_facet_id)
    bad = runner.invoke(cli, ["knowledge", "validate", "--root", str(root)])
    assert bad.exit_code == 1
    assert "broken-2024-03-case.yaml:" in bad.output and "Traceback" not in bad.output


def _organizations(root: Path) -> Path:
    return root / "organizations.yaml"


def test_unknown_organisation_is_named_at_its_line(root: Path) -> None:
    target = _add_incident(root, "orgless-2024-03-case", lambda data: data.update(organization="open-ai"))
    problems = [p for p in load_knowledge(root).problems if p.path == target]
    line = next(
        number
        for number, text in enumerate(target.read_text(encoding="utf-8").splitlines(), 1)
        if text.startswith("organization:")
    )
    assert [(p.line, p.field, p.message) for p in problems] == [
        (line, "organization", "unknown organization 'open-ai' (add it to organizations.yaml)")
    ]


def test_organisation_must_be_an_id_not_a_name(root: Path) -> None:
    target = _add_incident(root, "spelled-2024-03-case", lambda data: data.update(organization="Meta AI"))
    problems = [p for p in load_knowledge(root).problems if p.path == target]
    assert [p.field for p in problems] == ["organization"] and "pattern" in problems[0].message


def test_organisation_list_rules(root: Path) -> None:
    """Ids and spellings unique, parents known and listed first, no cycles; each problem at its line."""
    path = _organizations(root)
    path.write_text(
        "organizations:\n"
        "  - id: openai\n"
        "    name: {ko: OpenAI, en: OpenAI}\n"
        "    kind: ai-lab\n"
        "  - id: openai\n"  # line 5: listed twice
        "    name: {ko: 오픈AI, en: Open AI}\n"
        "    kind: ai-lab\n"
        "  - id: tiny\n"
        "    name: {ko: 작은 곳, en: Tiny}\n"
        "    kind: company\n"
        "    aliases: [openai]\n"  # spelling clash with the first entry
        "  - id: child\n"
        "    name: {ko: 자식, en: Child}\n"
        "    kind: cloud\n"
        "    parent: later\n"  # line 15: parent listed after its part
        "  - id: later\n"
        "    name: {ko: 나중, en: Later}\n"
        "    kind: company\n"
        "  - id: orphan\n"
        "    name: {ko: 고아, en: Orphan}\n"
        "    kind: saas\n"
        "    parent: nowhere\n"  # line 22
        "  - id: loop-a\n"
        "    name: {ko: 고리 A, en: Loop A}\n"
        "    kind: saas\n"
        "    parent: loop-b\n"
        "  - id: loop-b\n"
        "    name: {ko: 고리 B, en: Loop B}\n"
        "    kind: saas\n"
        "    parent: loop-a\n",
        encoding="utf-8",
    )
    found = {(p.line, p.field, p.message) for p in load_knowledge(root).problems if p.path == path}
    assert (5, "organizations.1.id", "organization 'openai' is listed twice") in found
    assert (8, "organizations.2", "'openai' already names organization 'openai'") in found
    assert (15, "organizations.3.parent", "list 'later' before its part 'child'") in found
    assert (22, "organizations.5.parent", "unknown parent 'nowhere'") in found
    assert any(p[1] == "organizations.7.parent" and "its own ancestor" in p[2] for p in found)


def test_organisation_kind_and_names_are_checked(root: Path) -> None:
    path = _organizations(root)
    path.write_text(
        "organizations:\n  - id: openai\n    name: {ko: '', en: OpenAI}\n    kind: bank\n", encoding="utf-8"
    )
    found = {(p.line, p.field) for p in load_knowledge(root).problems if p.path == path}
    assert (3, "organizations.0.name.ko") in found and (4, "organizations.0.kind") in found


def test_missing_organisation_list(root: Path) -> None:
    _organizations(root).unlink()
    problems = load_knowledge(root).problems
    assert any(
        p.path.name == "organizations.yaml" and p.message == "the organisation list is missing"
        for p in problems
    )


def test_every_bundled_record_names_a_listed_organisation() -> None:
    knowledge = load_knowledge()
    listed = {organization.id for organization in knowledge.taxonomy.organizations}
    named = {record.organization for record in [*knowledge.incidents, *knowledge.studies]}
    assert named <= listed
    # One spelling each: the names the issue found written several ways now resolve to one id.
    taxonomy = knowledge.taxonomy
    for spelling, expected in [
        ("BigScience (Jean Zay / IDRIS)", None),
        ("BigScience", "bigscience"),
        ("Meta AI", "meta"),
        ("GitHub (Microsoft)", "github"),
        ("Microsoft Azure (Azure OpenAI)", "azure"),
    ]:
        assert taxonomy.organization_id(spelling) == expected, spelling
    assert taxonomy.ancestors("organization", "github") == ["microsoft"]
    assert taxonomy.ancestors("organization", "azure") == ["microsoft"]
    bloom = [incident for incident in knowledge.incidents if incident.id.startswith("bloom-")]
    assert bloom and {incident.organization for incident in bloom} == {"bigscience"}


def test_id_year_must_match_the_date(root: Path) -> None:
    target = _add_incident(root, "late-2023-03-case", lambda data: None)  # dated 2024-03 by _add_incident
    problems = [p for p in load_knowledge(root).problems if p.path == target]
    assert [(p.line, p.field) for p in problems] == [(1, "id")]
    assert problems[0].message.startswith("id year 2023 differs from date 2024-03-")
    yearless = _add_incident(root, "no-year-case", lambda data: None)
    assert [p.message for p in load_knowledge(root).problems if p.path == yearless] == [
        "id should carry the year, e.g. ...-2024-..."
    ]


def test_every_bundled_incident_id_carries_its_year() -> None:
    """The meta-test the editorial guide promises: `<org>-<yyyy>-...` with yyyy the year of `date`."""
    import re

    for incident in load_knowledge().incidents:
        years = re.findall(r"(?:^|-)((?:19|20)\d\d)(?=-|$)", incident.id)
        assert years and int(years[0]) == incident.date.year, (incident.id, incident.date)


def test_a_former_id_still_resolves_and_cannot_be_a_live_one(root: Path) -> None:
    from kubegap.library import Library

    renamed = "good-2025-01-example"
    _edit(
        root / "incidents" / f"{renamed}.yaml", lambda data: data.update(former_ids=["good-2024-12-example"])
    )
    library = Library.open(root, db_path=":memory:")
    assert library.incident("good-2024-12-example").id == renamed
    assert library.similar("good-2024-12-example") == []
    clash = _add_incident(root, "other-2024-03-case", lambda data: data.update(former_ids=[renamed]))
    problems = [p for p in load_knowledge(root).problems if p.path == clash]
    assert [(p.field, p.message) for p in problems] == [
        ("former_ids.0", f"'{renamed}' is a current id (good-2025-01-example.yaml), not a former one")
    ]


def test_renamed_bundled_incidents_answer_to_their_old_ids() -> None:
    from kubegap.library import Library

    library = Library.open(db_path=":memory:")
    for old, new in [
        (
            "bigscience-2021-tr8b-104b-divergence-silent-flag",
            "bigscience-2022-01-tr8b-104b-resume-path-dropped-optimizer-state",
        ),
        (
            "bigscience-2022-01-tr8b-104b-divergence-silent-flag",
            "bigscience-2022-01-tr8b-104b-resume-path-dropped-optimizer-state",
        ),
        ("github-copilot-2024-07-partner-cleanup-job", "azure-openai-2024-07-cleanup-deleted-resources"),
        (
            "nvidia-ctk-2023-daemon-reload-containers-lose-gpus",
            "nvidia-ctk-2022-06-daemon-reload-containers-lose-gpus",
        ),
        ("bloom-2022-04-30-eval-hang-deepspeed-race", "bloom-2022-04-30-eval-hang-deepspeed-deadlock"),
    ]:
        assert library.incident(old).id == new


def test_source_access_dates_are_possible(root: Path) -> None:
    def _dates(accessed: str, published: str | None) -> Callable[[dict], None]:  # type: ignore[type-arg]
        def change(data: dict) -> None:  # type: ignore[type-arg]
            data["sources"][0]["accessed"] = accessed
            data["sources"][0]["published"] = published

        return change

    fine = _add_incident(root, "fine-2024-03-case", _dates("2026-01-05", "2024-03-10"))
    early = _add_incident(root, "early-2024-03-case", _dates("2024-03-01", "2024-03-10"))
    future = _add_incident(root, "future-2024-03-case", _dates("2999-01-01", None))
    problems = load_knowledge(root).problems
    assert [p for p in problems if p.path == fine] == []
    assert [p.message for p in problems if p.path == early] == [
        "accessed 2024-03-01 is before published 2024-03-10"
    ]
    assert [p.message.split(" (")[0] for p in problems if p.path == future] == [
        "accessed 2999-01-01 is after today"
    ]


def test_a_secondary_only_record_passes_when_it_says_why(root: Path) -> None:
    def change(data: dict) -> None:  # type: ignore[type-arg]
        _secondary_sources_only(data)
        data["no_primary_source"] = {
            "ko": "운영자의 보고서를 찾지 못했다.",
            "en": "The operator's report could not be found.",
        }

    path = _add_incident(root, "noted-2024-03-case", change)
    assert [p for p in load_knowledge(root).problems if p.path == path] == []


def test_the_site_list_is_data_and_a_root_may_bring_its_own(root: Path) -> None:
    (root / "secondary-sources.yaml").write_text(
        "sites:\n  - {host: status.openai.com, kind: mirror}\n  - {host: example.org, kind: gossip}\n",
        encoding="utf-8",
    )
    problems = load_knowledge(root).problems
    listed = [p for p in problems if p.path.name == "secondary-sources.yaml"]
    assert [(p.line, p.field) for p in listed] == [(3, "sites.1.kind")]
    # The broken list is reported; the incident is not judged against half a list.
    assert [p for p in problems if p.path.name != "secondary-sources.yaml"] == []
    (root / "secondary-sources.yaml").write_text(
        "sites:\n  - {host: status.openai.com, kind: mirror}\n", encoding="utf-8"
    )
    [problem] = load_knowledge(root).problems
    assert problem.field == "sources.0.kind" and "status.openai.com" in problem.message


def test_terminology_problems_name_the_line_of_the_text(root: Path) -> None:
    path = _add_incident(root, "worded-2024-03-case", _banned_korean_term)
    [problem] = [p for p in load_knowledge(root).problems if p.path == path]
    assert "검사를" in path.read_text(encoding="utf-8").splitlines()[problem.line - 1]


def test_a_retired_id_is_never_reused(root: Path) -> None:
    retired = root / "retired.yaml"
    retired.write_text(
        "retired:\n"
        "  - id: gone-2024-01-case\n"
        "    reason: rate-limit-policy\n"
        "  - id: good-2025-01-example\n"  # line 4: still a live record
        "    reason: thin-application-note\n"
        "  - id: gone-2024-01-case\n"  # line 6: listed twice
        "    reason: training-numerics\n",
        encoding="utf-8",
    )
    loaded = load_knowledge(root)
    found = {(p.line, p.field, p.message) for p in loaded.problems}
    assert found == {
        (
            4,
            "retired.1.id",
            "'good-2025-01-example' is in use (good-2025-01-example.yaml); a retired id is never reused",
        ),
        (6, "retired.2.id", "'gone-2024-01-case' is listed twice"),
    }
    assert {entry.id for entry in loaded.retired} == {"gone-2024-01-case", "good-2025-01-example"}


def test_a_former_facet_value_resolves_but_cannot_also_be_current(root: Path) -> None:
    loaded = load_knowledge(root)
    term = loaded.taxonomy.term("component", "etcd")
    assert term is not None and term.id == "kubernetes-control-plane"
    assert loaded.taxonomy.current_id("component", "etcd") == "kubernetes-control-plane"
    path = root / "taxonomy" / "component.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["terms"][0]["former_ids"] = ["gpu"]
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    messages = [p.message for p in load_knowledge(root).problems]
    assert "'gpu' is a current term, not a former one" in messages


def test_one_event_told_by_two_organisations_of_one_group_is_a_duplicate(root: Path) -> None:
    def github_side(data: dict) -> None:  # type: ignore[type-arg]
        data.update(organization="github", date="2025-06-10")

    def azure_side(data: dict) -> None:  # type: ignore[type-arg]
        data.update(organization="azure", date="2025-06-10")
        data["tags"]["cause"] = ["dependency-failure"]  # no shared cause: across organisations it need not be

    _add_incident(root, "github-2025-06-side", github_side)
    _add_incident(root, "azure-2025-06-side", azure_side)
    [problem] = [p for p in load_knowledge(root).problems if p.message.startswith("looks like a duplicate")]
    assert problem.path.stem == "github-2025-06-side"
    assert "'azure-2025-06-side' (organizations of one group, same date" in problem.message


def test_check_citations_are_cross_checked_on_request(root: Path) -> None:
    """The bundled checks cite bundled incidents: against the one-incident fixture they cite nothing live."""
    runner = CliRunner()
    result = runner.invoke(cli, ["knowledge", "validate", "--root", str(root), "--check-citations"])
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if "checker/checks/" in line]
    assert lines and all(": incidents: check " in line for line in lines)
    assert any("has no incident left in the library" in line for line in lines)
    assert runner.invoke(cli, ["knowledge", "validate", "--root", str(root)]).exit_code == 0


def test_bundled_validation_includes_the_checks_citations() -> None:
    result = CliRunner().invoke(cli, ["knowledge", "validate"])
    assert result.exit_code == 0, result.output
