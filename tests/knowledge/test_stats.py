"""`kubegap knowledge stats` counts what is there: each figure recounted here another way."""

from __future__ import annotations

import json
from collections import Counter

from click.testing import CliRunner

from kubegap.cli import cli
from kubegap.knowledge import load_knowledge
from kubegap.knowledge.stats import corpus_stats


def test_figures_match_a_recount_of_the_records() -> None:
    knowledge = load_knowledge()
    figures = corpus_stats(knowledge)
    incidents = knowledge.incidents
    assert figures.incidents == len(incidents) and sum(figures.by_year.values()) == len(incidents)
    assert figures.by_year == dict(sorted(Counter(str(i.date.year) for i in incidents).items()))
    assert figures.publishers == sorted(
        {source.publisher for i in incidents for source in i.sources}, key=str.casefold
    )
    assert sum(figures.sources_by_kind.values()) == sum(len(i.sources) for i in incidents)
    roots = {term.id for term in knowledge.taxonomy.terms("cause") if term.parent is None}
    assert set(figures.by_cause_family) <= roots
    for family, count in figures.by_cause_family.items():
        under = {family} | {
            t.id
            for t in knowledge.taxonomy.terms("cause")
            if family in knowledge.taxonomy.ancestors("cause", t.id)
        }
        assert count == sum(1 for i in incidents if under & set(i.tags.cause)), family
    assert figures.unstated_sections.get("symptom", 0) == 0  # never unstated by the schema


def test_the_command_speaks_both_languages_and_json() -> None:
    runner = CliRunner()
    korean = runner.invoke(cli, ["knowledge", "stats", "--lang", "ko"])
    assert korean.exit_code == 0 and "연도별 사례" in korean.output and "상태 페이지" in korean.output
    english = runner.invoke(cli, ["knowledge", "stats", "--lang", "en"])
    assert "Incidents by year" in english.output and "status page" in english.output
    data = json.loads(runner.invoke(cli, ["knowledge", "stats", "--json"]).output)
    assert data["incidents"] == len(load_knowledge().incidents)
    assert data["publishers"] == len(data["publisher_names"])
    assert data["organizations_with_incidents"] == len({i.organization for i in load_knowledge().incidents})
