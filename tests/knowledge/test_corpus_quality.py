"""Meta-tests over the bundled corpus: what the validator cannot see file by file."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from kubegap.knowledge import FACETS, load_knowledge
from kubegap.knowledge.model import SECONDARY_SOURCE_KINDS, Incident, Scope

KNOWLEDGE = load_knowledge()
HANGUL = re.compile(r"[\uac00-\ud7a3]")


def test_corpus_size_and_spread() -> None:
    # Pruned to the scope in docs/knowledge.md (issue 29): 184 records, 113 of them AI infrastructure.
    assert len(KNOWLEDGE.incidents) >= 180
    assert sum(incident.scope == Scope.ai_infra for incident in KNOWLEDGE.incidents) >= 110
    assert len(KNOWLEDGE.studies) >= 15
    publishers = {source.publisher for incident in KNOWLEDGE.incidents for source in incident.sources}
    assert len(publishers) >= 80


def _records_per_term(facet: str) -> Counter[str]:
    """Records (incidents, and studies counted once each) tagged with a term or any term under it."""
    taxonomy = KNOWLEDGE.taxonomy
    records = [[incident.tags] for incident in KNOWLEDGE.incidents]
    records += [[row.tags for row in study.rows] for study in KNOWLEDGE.studies]
    counts: Counter[str] = Counter()
    for tag_sets in records:
        seen: set[str] = set()
        for tags in tag_sets:
            for term_id in tags.by_facet()[facet]:
                seen.add(term_id)
                seen.update(taxonomy.ancestors(facet, term_id))
        counts.update(seen)
    return counts


@pytest.mark.parametrize("facet", FACETS)
def test_every_facet_value_has_three_records(facet: str) -> None:
    """A value with one or two records is noise in a facet list: merge it into its parent or drop it
    (the dropped id goes to the parent's former_ids so old links and check metadata still resolve)."""
    counts = _records_per_term(facet)
    thin = {term.id: counts[term.id] for term in KNOWLEDGE.taxonomy.terms(facet) if counts[term.id] < 3}
    assert thin == {}


def test_no_record_rests_on_secondary_sources_alone_without_saying_why() -> None:
    bare = [
        incident.id
        for incident in KNOWLEDGE.incidents
        if all(source.kind in SECONDARY_SOURCE_KINDS for source in incident.sources)
        and incident.no_primary_source is None
    ]
    assert bare == []


def test_retired_records_are_gone_and_their_reasons_known() -> None:
    live = {incident.id for incident in KNOWLEDGE.incidents}
    retired = {entry.id for entry in KNOWLEDGE.retired}
    assert retired and not retired & live
    # The duplicate the issue found is merged, not retired: its old id answers with the record it joined.
    merged = {former for incident in KNOWLEDGE.incidents for former in incident.former_ids}
    assert "github-copilot-2024-07-partner-cleanup-job" in merged


def test_every_taxonomy_term_is_used() -> None:
    used: set[tuple[str, str]] = set()
    for record in [*KNOWLEDGE.incidents, *[row for study in KNOWLEDGE.studies for row in study.rows]]:
        for facet, term_ids in record.tags.by_facet().items():
            for term_id in term_ids:
                used.add((facet, term_id))
                used.update((facet, parent) for parent in KNOWLEDGE.taxonomy.ancestors(facet, term_id))
    unused = [
        f"{facet}/{term.id}"
        for facet in FACETS
        for term in KNOWLEDGE.taxonomy.terms(facet)
        if (facet, term.id) not in used
    ]
    assert unused == [], "terms no record uses (remove them or tag a record): " + ", ".join(unused)


def test_every_facet_is_populated() -> None:
    for facet in FACETS:
        counts = Counter(term for incident in KNOWLEDGE.incidents for term in incident.tags.by_facet()[facet])
        assert counts, f"no incident is tagged on {facet}"


def _texts(incident: Incident) -> list[tuple[str, str, str]]:
    """(where, ko, en) for every bilingual text of an incident."""
    sections = incident.sections
    pairs = [("title", incident.title), ("summary", incident.summary)]
    for name in ("symptom", "trigger", "cause", "detection", "lessons"):
        value = getattr(sections, name)
        if value is not None:
            pairs.append((name, value))
    for name in ("contributing_factors", "actions", "follow_ups"):
        pairs.extend((f"{name}.{index}", item) for index, item in enumerate(getattr(sections, name)))
    return [(where, pair.ko, pair.en) for where, pair in pairs]


@pytest.mark.parametrize("incident", KNOWLEDGE.incidents, ids=lambda incident: incident.id)
def test_korean_is_korean_and_english_is_english(incident: Incident) -> None:
    for where, ko, en in _texts(incident):
        assert HANGUL.search(ko), f"{incident.id} {where}: the Korean text has no Hangul"
        assert not HANGUL.search(en), f"{incident.id} {where}: the English text contains Hangul"
        assert ko != en, f"{incident.id} {where}: both languages say the same string"


@pytest.mark.parametrize("incident", KNOWLEDGE.incidents, ids=lambda incident: incident.id)
def test_every_incident_has_a_symptom_and_a_source(incident: Incident) -> None:
    assert incident.sections.symptom is not None
    assert all(source.url.startswith("https://") for source in incident.sources)


def test_environment_names_are_names_or_bilingual() -> None:
    """A plain accelerator or provider is shown as is on the Korean page too, so it may hold only names."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from korean_words import english_words

    prose = []
    for incident in KNOWLEDGE.incidents:
        for field in ("accelerator", "provider"):
            value = getattr(incident.environment, field)
            if isinstance(value, str) and english_words(value):
                prose.append(f"{incident.id}: {field}: {value}")
    assert prose == [], "write these as {ko, en}"


def test_no_text_is_cut_short_by_a_yaml_comment() -> None:
    """' #' inside an unquoted value starts a comment, so "fixed in PR #1554" would load as "fixed in PR"."""
    root = Path(__file__).resolve().parents[2] / "src" / "kubegap" / "knowledge" / "data"
    plain_with_hash = re.compile(r"^\s*(?:- )?[A-Za-z_]+: [^\"'|>\s].* #")
    cut = [
        f"{path.relative_to(root)}:{number}"
        for path in sorted(root.rglob("*.yaml"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if plain_with_hash.match(line)
    ]
    assert cut == [], "quote these values"
