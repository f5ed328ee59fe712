"""The SQLite index of the knowledge base: the tables and how they are filled from the YAML files.

Where the index file lives and when it is rebuilt is store.py's business.

Tables (see `_SCHEMA`): `incidents` (one row per incident, its validated JSON for lazy loading),
`tags` (facet, term, incident, with every ancestor of a tagged term too, so a filter on a term matches
its descendants and counts roll up; `direct` marks the tags the incident itself names),
`terms` (the taxonomy),
`signatures`/`signature_words` (for pasted log lines, see knowledge/error_text.py), `postings`
(ranked retrieval, see ranking.py),
`vocabulary` (each Korean word of the corpus with its analysis, so queries rarely need Kiwi),
`lexicon` (each term's written forms, for highlighting, its most common one and incident count, for
"nearby terms"), and the
error catalog: `errors` (entries as JSON; their patterns are matched in memory, see error_text.py).
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from collections.abc import Iterable

from kubegap.knowledge.error_model import ErrorEntry
from kubegap.knowledge.error_text import literal_words
from kubegap.knowledge.error_text import words as error_words
from kubegap.knowledge.loader import Knowledge, Taxonomy
from kubegap.knowledge.model import ErrorSignature, Incident, both_languages
from kubegap.knowledge.organizations import LIBRARY_FACETS, ORGANIZATION_FACET
from kubegap.knowledge.scope import SCOPE_FACET
from kubegap.library import analysis
from kubegap.library.glossary import Glossary, GlossaryEntry, analyse_glossary, glossary_for
from kubegap.library.ranking import PostingsBuilder

FORMAT = "3"  # bump when the tables change shape
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
CREATE TABLE postings (term TEXT PRIMARY KEY, rowids BLOB NOT NULL, weights BLOB NOT NULL) WITHOUT ROWID;
CREATE TABLE vocabulary (word TEXT PRIMARY KEY, analysis TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE lexicon (
    term TEXT PRIMARY KEY, display TEXT NOT NULL, incidents INTEGER NOT NULL, forms TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE errors (id TEXT PRIMARY KEY, document TEXT NOT NULL) WITHOUT ROWID;
"""


def facet_tokens(taxonomy: Taxonomy) -> dict[tuple[str, str], str]:
    """A short stable name per taxonomy term (facet and place in its file), kept for callers that key
    terms compactly."""
    return {
        (facet, term.id): f"kgf{LIBRARY_FACETS.index(facet)}t{position}"
        for facet in LIBRARY_FACETS
        for position, term in enumerate(taxonomy.terms(facet))
    }


def build(connection: sqlite3.Connection, knowledge: Knowledge, print_: str) -> None:
    """Create every table and fill it from the knowledge base, in one transaction."""
    vocabulary = analysis.VocabularyCollector()
    postings = PostingsBuilder()
    lexicon: dict[str, Counter[str]] = {}
    document_counts: Counter[str] = Counter()
    with connection:
        connection.executescript(_SCHEMA)
        _insert_terms(connection, knowledge.taxonomy)
        # Rowids follow (date, id), so "newest first" is "highest rowid first" (see bitsets.py).
        ordered = sorted(knowledge.incidents, key=lambda item: (item.date, item.id))
        for rowid, incident in enumerate(ordered, start=1):
            _insert_incident(
                connection,
                rowid,
                incident,
                knowledge.taxonomy,
                vocabulary,
                postings,
                lexicon,
                document_counts,
            )
        connection.executemany("INSERT INTO postings VALUES (?, ?, ?)", postings.rows())
        vocabulary.add_inflections()
        connection.executemany(
            "INSERT INTO vocabulary VALUES (?, ?)",
            ((word, json.dumps(found, ensure_ascii=False)) for word, found in vocabulary.entries()),
        )
        connection.executemany(
            "INSERT INTO lexicon VALUES (?, ?, ?, ?)",
            (
                (
                    term,
                    forms.most_common(1)[0][0],
                    document_counts[term],
                    json.dumps(list(forms), ensure_ascii=False),
                )
                for term, forms in lexicon.items()
            ),
        )
        _insert_errors(connection, getattr(knowledge, "errors", []))
        glossary = glossary_for(knowledge.root)
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
            "glossary": json.dumps(
                analyse_glossary(
                    search_glossary(glossary, getattr(knowledge, "errors", [])).entries
                ).to_json(),
                ensure_ascii=False,
            ),
        }
        connection.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", meta.items())
    connection.execute("ANALYZE")


def search_glossary(glossary: Glossary, errors: Iterable[ErrorEntry]) -> Glossary:
    """The glossary a search uses: the file's entries plus one per error-catalog entry with terms."""
    extra = [
        GlossaryEntry(ko=list(entry.terms.ko), en=list(entry.terms.en))
        for entry in errors
        if entry.terms is not None and entry.terms.ko and entry.terms.en
    ]
    return Glossary.of([*glossary.entries, *extra]) if extra else glossary


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
    vocabulary: analysis.VocabularyCollector,
    postings: PostingsBuilder,
    lexicon: dict[str, Counter[str]],
    document_counts: Counter[str],
) -> None:
    tag_rows: dict[tuple[str, str], int] = {}
    tag_labels: list[str] = []
    named = {
        **incident.tags.by_facet(),
        ORGANIZATION_FACET: [incident.organization],
        SCOPE_FACET: [incident.scope.value],
    }
    for facet, term_ids in named.items():
        for term_id in term_ids:
            tag_rows[(facet, term_id)] = 1
            for ancestor in taxonomy.ancestors(facet, term_id):
                tag_rows.setdefault((facet, ancestor), 0)
    for facet, term_id in tag_rows:
        term = taxonomy.term(facet, term_id)
        # The scope is a filter, not a word of the record: "platform" should not match every platform case.
        if term is not None and facet != SCOPE_FACET:
            tag_labels += [term.label.ko, term.label.en]
    connection.executemany(
        "INSERT INTO tags (facet, term, incident, direct) VALUES (?, ?, ?, ?)",
        [(facet, term_id, rowid, direct) for (facet, term_id), direct in tag_rows.items()],
    )
    for signature in incident.error_signatures:
        signature_pattern = error_words(signature.text)
        literals = literal_words(signature_pattern)
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
    fields = {
        "title": [incident.title.ko, incident.title.en],
        "summary": [incident.summary.ko, incident.summary.en],
        "signatures": [
            text for signature in incident.error_signatures for text in _signature_texts(signature)
        ],
        "tags": tag_labels,
        "body": list(_body(incident, taxonomy)),
    }
    terms_by_field: dict[str, list[str]] = {}
    length = 0.0
    seen_terms: set[str] = set()
    for field_name, texts in fields.items():
        terms: list[str] = []
        for text in texts:
            vocabulary.add(text)
            tokens = analysis.text_tokens(text)
            terms += [token.term for token in tokens]
            terms += analysis.pair_terms(tokens)
            length += sum(1 for token in tokens if not token.whole)
            for token in tokens:
                lexicon.setdefault(token.term, Counter())[token.surface] += 1
                if token.term not in seen_terms:
                    seen_terms.add(token.term)
                    document_counts[token.term] += 1
        terms_by_field[field_name] = terms
    postings.add(rowid, terms_by_field, length)
    connection.execute(
        "INSERT INTO incidents (rowid, id, date, document) VALUES (?, ?, ?, ?)",
        (rowid, incident.id, incident.date.isoformat(), incident.model_dump_json(by_alias=True)),
    )


def _insert_errors(connection: sqlite3.Connection, errors: Iterable[ErrorEntry]) -> None:
    connection.executemany(
        "INSERT OR IGNORE INTO errors (id, document) VALUES (?, ?)",
        [(entry.id, entry.model_dump_json()) for entry in errors],
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
    yield from both_languages(environment.accelerator) + both_languages(environment.provider)
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
