"""The SQLite index of the knowledge base: the tables and how they are filled from the YAML files.

Where the index file lives and when it is rebuilt is store.py's business.

Tables (see `_SCHEMA`): `incidents` (one row per incident, its validated JSON for lazy loading),
`tags` (facet, term, incident, with every ancestor of a tagged term too, so a filter on a term matches
its descendants and counts roll up; `direct` marks the tags the incident itself names), `terms` (the
taxonomy), `signatures`/`signature_words` (for pasted log lines) and the FTS5 table `incident_text`
(title, body, signatures and tag labels, both languages, Hangul as bigrams; plus a `facets` column of
tag tokens that lets a ranked search filter inside FTS5).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable

from kubegap.knowledge.loader import Knowledge, Taxonomy
from kubegap.knowledge.model import ErrorSignature, Incident
from kubegap.knowledge.organizations import LIBRARY_FACETS, ORGANIZATION_FACET
from kubegap.library import analysis, signatures

FORMAT = "2"  # bump when the tables change shape
_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE incidents (
    rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, date TEXT NOT NULL, document TEXT NOT NULL
);
CREATE INDEX incidents_by_date ON incidents (date, id);
CREATE TABLE terms (
    facet TEXT NOT NULL, term TEXT NOT NULL, parent TEXT, position INTEGER NOT NULL,
    label_ko TEXT NOT NULL, label_en TEXT NOT NULL, PRIMARY KEY (facet, term)
) WITHOUT ROWID;
CREATE TABLE tags (
    facet TEXT NOT NULL, term TEXT NOT NULL, incident INTEGER NOT NULL, direct INTEGER NOT NULL,
    PRIMARY KEY (facet, term, incident)
) WITHOUT ROWID;
CREATE INDEX tags_by_incident ON tags (incident, facet, term, direct);
CREATE TABLE signatures (
    id INTEGER PRIMARY KEY, incident INTEGER NOT NULL, text TEXT NOT NULL,
    pattern TEXT NOT NULL, literal_count INTEGER NOT NULL
);
CREATE INDEX signatures_by_incident ON signatures (incident);
CREATE INDEX signatures_by_pattern ON signatures (pattern);
CREATE TABLE signature_words (
    word TEXT NOT NULL, signature INTEGER NOT NULL, PRIMARY KEY (word, signature)
) WITHOUT ROWID;
CREATE VIRTUAL TABLE incident_text USING fts5 (
    title, body, signatures, tags, facets, tokenize = 'porter unicode61 remove_diacritics 2'
);
"""
# bm25 weights of the incident_text columns: a hit in a title or a signature counts most; the
# `facets` column holds one token per tag (see facet_token) and only narrows, it never scores.
BM25_WEIGHTS = (4.0, 1.0, 3.0, 2.0, 0.0)


def facet_token(facet: str, position: int) -> str:
    """The FTS token of a taxonomy term (its facet and place in the taxonomy file), e.g. `kgf1t12`.

    A relevance search with facet filters adds these tokens to its MATCH expression, so FTS5 computes
    bm25 only for incidents that pass the filters. The trailing digit keeps the porter stemmer off.
    """
    return f"kgf{LIBRARY_FACETS.index(facet)}t{position}"


def facet_tokens(taxonomy: Taxonomy) -> dict[tuple[str, str], str]:
    return {
        (facet, term.id): facet_token(facet, position)
        for facet in LIBRARY_FACETS
        for position, term in enumerate(taxonomy.terms(facet))
    }


def build(connection: sqlite3.Connection, knowledge: Knowledge, print_: str) -> None:
    """Create every table and fill it from the knowledge base, in one transaction."""
    with connection:
        connection.executescript(_SCHEMA)
        _insert_terms(connection, knowledge.taxonomy)
        # Rowids follow (date, id), so "newest first" is "highest rowid first" (see bitsets.py).
        ordered = sorted(knowledge.incidents, key=lambda item: (item.date, item.id))
        tokens = facet_tokens(knowledge.taxonomy)
        for rowid, incident in enumerate(ordered, start=1):
            _insert_incident(connection, rowid, incident, knowledge.taxonomy, tokens)
        meta = {
            "fingerprint": print_,
            "format": FORMAT,
            "taxonomy": json.dumps(
                [facet.model_dump(mode="json") for facet in knowledge.taxonomy.facets.values()]
            ),
            "former_ids": json.dumps(
                {former: incident.id for incident in knowledge.incidents for former in incident.former_ids}
            ),
            "organizations": json.dumps(
                [organization.model_dump(mode="json") for organization in knowledge.taxonomy.organizations]
            ),
            "problems": json.dumps(
                [problem.render(knowledge.root) for problem in sorted(knowledge.problems)]
            ),
        }
        connection.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", meta.items())
    connection.execute("ANALYZE")


def _insert_terms(connection: sqlite3.Connection, taxonomy: Taxonomy) -> None:
    rows = [
        (facet, term.id, term.parent, position, term.label.ko, term.label.en)
        for facet in LIBRARY_FACETS
        for position, term in enumerate(taxonomy.terms(facet))
    ]
    connection.executemany("INSERT OR IGNORE INTO terms VALUES (?, ?, ?, ?, ?, ?)", rows)


def _insert_incident(
    connection: sqlite3.Connection,
    rowid: int,
    incident: Incident,
    taxonomy: Taxonomy,
    tokens: dict[tuple[str, str], str],
) -> None:
    connection.execute(
        "INSERT INTO incidents (rowid, id, date, document) VALUES (?, ?, ?, ?)",
        (rowid, incident.id, incident.date.isoformat(), incident.model_dump_json(by_alias=True)),
    )
    tag_rows: dict[tuple[str, str], int] = {}
    tag_labels: list[str] = []
    named = {**incident.tags.by_facet(), ORGANIZATION_FACET: [incident.organization]}
    for facet, term_ids in named.items():
        for term_id in term_ids:
            tag_rows[(facet, term_id)] = 1
            for ancestor in taxonomy.ancestors(facet, term_id):
                tag_rows.setdefault((facet, ancestor), 0)
    for facet, term_id in tag_rows:
        term = taxonomy.term(facet, term_id)
        if term is not None:
            tag_labels += [term.label.ko, term.label.en]
    connection.executemany(
        "INSERT INTO tags (facet, term, incident, direct) VALUES (?, ?, ?, ?)",
        [(facet, term_id, rowid, direct) for (facet, term_id), direct in tag_rows.items()],
    )
    for signature in incident.error_signatures:
        signature_pattern = signatures.pattern(signature.text)
        literals = signatures.literal_words(signature_pattern)
        if not literals:
            continue
        cursor = connection.execute(
            "INSERT INTO signatures (incident, text, pattern, literal_count) VALUES (?, ?, ?, ?)",
            (rowid, signature.text, " ".join(signature_pattern), len(literals)),
        )
        connection.executemany(
            "INSERT OR IGNORE INTO signature_words (word, signature) VALUES (?, ?)",
            [(word, cursor.lastrowid) for word in literals],
        )
    connection.execute(
        "INSERT INTO incident_text (rowid, title, body, signatures, tags, facets) VALUES (?, ?, ?, ?, ?, ?)",
        (
            rowid,
            _indexed([incident.title.ko, incident.title.en]),
            _indexed(_body(incident, taxonomy)),
            _indexed(text for signature in incident.error_signatures for text in _signature_texts(signature)),
            _indexed(tag_labels),
            " ".join(tokens[key] for key in tag_rows if key in tokens),
        ),
    )


def _signature_texts(signature: ErrorSignature) -> list[str]:
    note = signature.note
    return [signature.text, note.ko, note.en] if note is not None else [signature.text]


def _body(incident: Incident, taxonomy: Taxonomy) -> Iterable[str]:
    """Every other human-readable string of an incident, both languages (the organisation's aliases too)."""
    yield from (incident.id, incident.summary.ko, incident.summary.en)
    organization = taxonomy.organization(incident.organization)
    yield from organization.aliases if organization is not None else [incident.organization]
    environment = incident.environment
    yield from (value for value in (environment.accelerator, environment.provider) if value)
    for source in incident.sources:
        yield from (source.title, source.publisher)
    sections = incident.sections
    single = [sections.symptom, sections.trigger, sections.cause, sections.detection, sections.lessons]
    lists = [*sections.contributing_factors, *sections.actions, *sections.follow_ups]
    # A note that the sources say nothing would make "detected" match every silent record.
    said = [text for text in [*single, *lists] if not text.unstated]
    for text in [*said, incident.impact.notes, incident.cluster_visibility]:
        if text is not None:
            yield from (text.ko, text.en)


def _indexed(texts: Iterable[str]) -> str:
    return "\n".join(analysis.index_text(text) for text in texts)
