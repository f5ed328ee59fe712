"""The Incident Library: search, facets, single cases and similar cases over the SQLite index.

One `Library` holds one SQLite connection behind a lock, so a web server's threads can share it.
Incident models are read from the index only for the rows a page shows, then kept by id.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Iterable
from pathlib import Path

from kubegap.bilingual import message
from kubegap.errors import KnowledgeError, NotFoundError
from kubegap.knowledge.error_model import ErrorEntry, catalog_order
from kubegap.knowledge.error_text import match_errors
from kubegap.knowledge.loader import Knowledge, Taxonomy, load_knowledge
from kubegap.knowledge.model import Facet, Incident
from kubegap.knowledge.organizations import Organization
from kubegap.library import bitsets, dates, index, sql, store
from kubegap.library.analysis import ChunkAnalysis, clean_text
from kubegap.library.build_notice import building_notice
from kubegap.library.facets import Facets
from kubegap.library.glossary import AnalysedGlossary, Glossary, analyse_glossary, glossary_for
from kubegap.library.matching import EMPTY, TextMatches, decode_forms, match_text
from kubegap.library.nearby import nearby_terms
from kubegap.library.query import (
    MAX_QUERY_CHARS,
    FacetValue,
    SearchHit,
    SearchQuery,
    SearchResult,
    SimilarIncident,
)
from kubegap.library.similar import find_similar

_CACHE_LIMIT = 4096


class Library:
    """The incident library over one SQLite index. Build it with `open`, `from_knowledge` or
    `from_incidents`; it is read-only and safe to share between threads."""

    text_cache_size = 32  # texts whose matches are remembered; 0 turns the cache off

    def __init__(
        self,
        connection: sqlite3.Connection,
        *,
        root: Path,
        location: str,
        knowledge: Knowledge | None = None,
        glossary: Glossary | None = None,
    ) -> None:
        self._connection = connection
        self._lock = threading.RLock()
        self.root = root
        self.location = location
        self._knowledge = knowledge
        self._text_cache: OrderedDict[str, TextMatches] = OrderedDict()
        self._vocabulary: dict[str, ChunkAnalysis | None] = {}
        self._incidents: dict[str, Incident] = {}
        self._fresh_stamps: tuple[tuple[str, int, int], ...] | None = None
        with self._lock:
            meta = dict(connection.execute("SELECT key, value FROM meta").fetchall())
            self._errors = {
                row[0]: ErrorEntry.model_validate_json(row[1])
                for row in connection.execute("SELECT id, document FROM errors ORDER BY id")
            }
        self._stored_glossary = AnalysedGlossary.from_json(json.loads(meta.get("glossary", "[]")))
        # The glossary file is read only when someone asks for it (the web's suggestions): a search
        # uses the analysed glossary stored in the index.
        self._glossary: Glossary | None = None
        self._analysed_glossary: AnalysedGlossary | None = None
        if glossary is not None:
            self.glossary = glossary
        else:
            self._analysed_glossary = self._stored_glossary
            self._tags = bitsets.TagSets.load(connection)
            self._ids = dict(connection.execute("SELECT rowid, id FROM incidents").fetchall())
            self._dates = dates.RowDates.load(connection)
        self._rowids = {incident_id: rowid for rowid, incident_id in self._ids.items()}
        self.incident_count = len(self._ids)
        self.taxonomy = Taxonomy(
            {data["facet"]: Facet.model_validate(data) for data in json.loads(meta["taxonomy"])},
            tuple(Organization.model_validate(data) for data in json.loads(meta.get("organizations", "[]"))),
        )
        self.problems: list[str] = json.loads(meta.get("problems", "[]"))
        # An incident renamed (its id's year fixed, say) keeps answering to its old id.
        self._former_ids: dict[str, str] = json.loads(meta.get("former_ids", "{}"))
        self.facets = Facets(self.taxonomy, self._tags)

    # ---- construction -------------------------------------------------------------------------------

    @classmethod
    def open(cls, root: Path | None = None, db_path: Path | str | None = None) -> Library:
        """The library of a knowledge folder (default: the bundled one), its index built or reused.

        db_path: where the index lives (default: $KUBEGAP_DB, else the per-user cache); ':memory:' for
        none. A stale index is rebuilt, or copied from the per-user cache when that holds the same one;
        a folder we cannot write falls back to an in-memory index.
        """
        from kubegap.knowledge.loader import default_root

        root = Path(root) if root is not None else default_root()
        if not root.is_dir():
            raise KnowledgeError(f"knowledge folder not found: {root}")
        location = str(db_path) if db_path is not None else store.default_location(root)
        current = store.fingerprint(root)
        if location != store.MEMORY:
            fresh = store.stored_fingerprint(location) == current
            if fresh or store.copy_file(store.same_index(root, current), location, current):
                try:
                    return cls(store.connect(location, read_only=True), root=root, location=location)
                except (sqlite3.Error, KeyError, ValueError):
                    pass  # unreadable after all: rebuild below
        else:
            # Nothing may be written, but the user's cache may already hold this very index: copy it.
            copied = store.copy_to_memory(store.same_index(root, current), current)
            if copied is not None:
                try:
                    return cls(copied, root=root, location=store.MEMORY)
                except (sqlite3.Error, KeyError, ValueError):
                    copied.close()  # unreadable after all: build below
        with building_notice(store.count_incidents(root)) as build:
            knowledge = load_knowledge(root)
            if location != store.MEMORY:
                try:
                    store.build_file(knowledge, location, current)
                    build.kept_in = location
                    return cls(
                        store.connect(location, read_only=True),
                        root=root,
                        location=location,
                        knowledge=knowledge,
                    )
                except (OSError, sqlite3.Error):
                    pass  # cache folder not writable: keep the index in memory
            return cls.from_knowledge(knowledge, fingerprint=current)

    @classmethod
    def from_knowledge(cls, knowledge: Knowledge, *, fingerprint: str = "in-memory") -> Library:
        """An in-memory library of already loaded knowledge (tests, benchmarks, synthetic data)."""
        connection = store.connect(store.MEMORY, read_only=False)
        index.build(connection, knowledge, fingerprint)
        return cls(connection, root=knowledge.root, location=store.MEMORY, knowledge=knowledge)

    @classmethod
    def from_incidents(
        cls, incidents: Iterable[Incident], taxonomy: Taxonomy, *, root: Path | None = None
    ) -> Library:
        """An in-memory library of the given incidents, e.g. 10,000 synthetic ones for a benchmark."""
        from kubegap.knowledge.loader import BUNDLED_ROOT

        knowledge = Knowledge(root=root or BUNDLED_ROOT, taxonomy=taxonomy, incidents=list(incidents))
        return cls.from_knowledge(knowledge)

    def is_stale(self) -> bool:
        """Whether the knowledge files changed since this index was built (a long-running server asks)."""
        if self.location == store.MEMORY:
            return False
        # Hashing every file costs milliseconds a call; their sizes and times, far less: re-hash only
        # when those moved since the files last hashed the same as the index.
        stamps = store.file_stamps(self.root)
        if stamps == self._fresh_stamps:
            return False
        stale = store.stored_fingerprint(self.location) != store.fingerprint(self.root)
        if not stale:
            self._fresh_stamps = stamps
        return stale

    def close(self) -> None:
        with self._lock:
            self._connection.close()

    @property
    def glossary(self) -> Glossary:
        if self._glossary is None:
            self._glossary = glossary_for(self.root)
        return self._glossary

    @glossary.setter
    def glossary(self, glossary: Glossary) -> None:
        """Swap the glossary (tests, or a reloaded file); remembered text matches are forgotten."""
        with self._lock:
            self._glossary = glossary
            self._analysed_glossary = None
            self._text_cache.clear()

    def _search_glossary(self) -> AnalysedGlossary:
        """The glossary in index terms: stored at build time, or analysed once after a swap."""
        if self._analysed_glossary is None:
            entries = index.search_glossary(self.glossary, self._errors.values()).entries
            self._analysed_glossary = analyse_glossary(entries, self._lookup)
        return self._analysed_glossary

    def forget_text_matches(self) -> None:
        """Empty the cache of remembered text matches (benchmarks measure cold searches with it)."""
        with self._lock:
            self._text_cache.clear()

    @property
    def knowledge(self) -> Knowledge:
        """The full knowledge base (studies, problems...), loaded from the files on first use."""
        if self._knowledge is None:
            self._knowledge = load_knowledge(self.root)
        return self._knowledge

    # ---- reading ------------------------------------------------------------------------------------

    def incident(self, incident_id: str) -> Incident:
        """One incident by id or by an id it had before; NotFoundError when there is none."""
        wanted = str(incident_id)[:200]
        found = self._load([self._former_ids.get(wanted, wanted)])
        if not found:
            raise NotFoundError(_no_incident(incident_id))
        return found[0]

    def term_label(self, facet: str, term_id: str, lang: str) -> str:
        return self.facets.label(facet, term_id, lang)

    def search(self, query: SearchQuery) -> SearchResult:
        """Run a query: one page of hits, counts per facet value and recurring components of all hits."""
        sort = query.sort if query.text or query.sort != "relevance" else "newest"
        dated = self._dates.mask(query.since, query.until)
        results = self._tags.filter_mask(query.filters) & dated
        matches = EMPTY
        if query.text:
            matches = self._text_matches(query.text)
            results &= matches.mask
        total = results.bit_count()
        page_count = max(1, math.ceil(total / query.per_page))
        page = min(query.page, page_count)
        offset = (page - 1) * query.per_page
        # what a click on each facet value would give: the text's matches (over the whole library)
        # within whatever the changed filters allow
        text_mask = matches.mask if query.text else self._tags.everything
        narrowing = lambda allowed: text_mask & dated & allowed  # noqa: E731
        choices = self.facets.choices(query, results, narrowing)
        rowids = self._page(results, sort, matches, offset, query.per_page)
        incidents = {incident.id: incident for incident in self._load([self._ids[rowid] for rowid in rowids])}
        shown = [rowid for rowid in rowids if self._ids[rowid] in incidents]
        terms = {rowid: matches.terms_of(rowid) for rowid in shown}
        forms = self._term_forms(sorted({term for found in terms.values() for term in found}))
        hits = tuple(
            self._hit(incidents[self._ids[rowid]], rowid, matches, sort, matches.written(terms[rowid], forms))
            for rowid in shown
        )
        full = (results & matches.full_mask).bit_count() if query.text else total
        suggestions: tuple[str, ...] = ()
        if query.text and not total:
            with self._lock:
                suggestions = nearby_terms(self._run, query.text, self._lookup)
        return SearchResult(
            query=self._as_run(query, page, sort),
            total=total,
            start=offset + 1 if hits else 0,
            end=offset + len(hits) if hits else 0,
            hits=hits,
            facets=self.facets.in_results(choices),
            recurring_components=self.facets.recurring(query, results),
            page_count=page_count,
            relaxed=matches.relaxed and bool(total),
            full_matches=full,
            words=matches.words,
            errors=tuple(self._errors[error_id] for error_id in matches.errors if error_id in self._errors),
            suggestions=suggestions,
            facet_choices=choices,
        )

    def _hit(
        self, incident: Incident, rowid: int, matches: TextMatches, sort: str, written: tuple[str, ...]
    ) -> SearchHit:
        if matches is EMPTY:
            return SearchHit(incident)
        linked = tuple(
            error_id for error_id in matches.errors if incident.id in self._errors[error_id].incidents
        )
        return SearchHit(
            incident,
            matches.score(rowid) if sort == "relevance" else 0.0,
            tuple(matches.signatures.get(rowid, ())),
            written,
            1.0 if linked else matches.share(rowid),
            linked,
        )

    def matched_terms(self, incident_id: str, text: str) -> tuple[str, ...]:
        """The words as written in one incident that match a search text, longest first: what a case
        page opened from a result (`/ko/incidents/<id>?q=...`) highlights. Empty when none match."""
        rowid = self._rowids.get(str(incident_id))
        cleaned = clean_text(str(text))[:MAX_QUERY_CHARS]
        if rowid is None or not cleaned:
            return ()
        matches = self._text_matches(cleaned)
        terms = matches.terms_of(rowid)
        return matches.written(terms, self._term_forms(terms))

    # ---- the error catalog --------------------------------------------------------------------------

    def errors(self) -> list[ErrorEntry]:
        """Every error-catalog entry, by family and then numeric code (Xid 13 before Xid 119)."""
        return sorted(self._errors.values(), key=catalog_order)

    def error(self, error_id: str) -> ErrorEntry:
        """One catalog entry by id; NotFoundError when there is none."""
        found = self._errors.get(str(error_id).strip().lower()[:100])
        if found is None:
            raise NotFoundError(f"no error-catalog entry with id {str(error_id)[:100]!r}")
        return found

    def resolve_error(self, text: str) -> list[ErrorEntry]:
        """Catalog entries whose patterns a pasted text contains (`XID79`, a whole dmesg line), or
        the entry whose id the text is; best (longest pattern) first."""
        candidate = str(text).strip().lower()[:100]
        if candidate in self._errors:
            return [self._errors[candidate]]
        return [match.entry for match in match_errors(str(text), self._errors.values())]

    def _error_incidents(self, error_ids: list[str]) -> list[int]:
        return [
            self._rowids[incident_id]
            for error_id in error_ids
            for incident_id in self._errors[error_id].incidents
            if incident_id in self._rowids
        ]

    @staticmethod
    def _as_run(query: SearchQuery, page: int, sort: str) -> SearchQuery:
        """The query as it was actually run: the page clamped into range, relevance for relaxed text."""
        if page != query.page:
            query = query.with_page(page)
        if query.text and sort == "relevance" and query.sort != "relevance":
            query = dataclasses.replace(query, sort="relevance")
        return query

    def facet_overview(self, lang: str = "ko") -> dict[str, tuple[FacetValue, ...]]:
        """Every term of every facet with its rolled-up count over the whole library, zeros included."""
        return self.facets.overview(lang)

    def similar(self, incident_id: str, limit: int = 5, lang: str = "ko") -> list[SimilarIncident]:
        """Incidents sharing the most error signatures and tags with this one, with those as reasons."""
        rowid = self._rowids.get(self._former_ids.get(str(incident_id), str(incident_id)))
        if rowid is None:
            raise NotFoundError(_no_incident(incident_id))
        with self._lock:
            found = find_similar(self._connection, self._tags, rowid, max(1, min(int(limit), 50)))
        loaded = {incident.id: incident for incident in self._load([self._ids[item.rowid] for item in found])}
        return [
            SimilarIncident(
                loaded[self._ids[item.rowid]],
                tuple(self.facets.value(facet, term, 0, False, lang) for facet, term in item.shared_terms),
                item.shared_signatures,
            )
            for item in found
            if self._ids[item.rowid] in loaded
        ]

    # ---- helpers ------------------------------------------------------------------------------------

    def _run(self, statement: sql.Statement) -> list[tuple]:
        with self._lock:
            return self._connection.execute(statement.sql, statement.params).fetchall()

    def _text_matches(self, text: str) -> TextMatches:
        """Text matches, remembered for the last few texts: a reader who pages through results or
        toggles facets keeps the same text, and the index never changes under an open library."""
        with self._lock:
            cached = self._text_cache.get(text)
            if cached is not None:
                self._text_cache.move_to_end(text)
                return cached
        glossary = self._search_glossary()
        with self._lock:
            matches = match_text(
                self._run_locked, text, glossary, self._lookup, size=self._tags.size,
                catalog=self._errors.values(), error_incidents=self._error_incidents,
            )  # fmt: skip
            if self.text_cache_size:
                self._text_cache[text] = matches
                while len(self._text_cache) > self.text_cache_size:
                    self._text_cache.popitem(last=False)
        return matches

    def _run_locked(self, statement: sql.Statement) -> list[tuple]:
        return self._connection.execute(statement.sql, statement.params).fetchall()

    def _lookup(self, words: list[str]) -> dict[str, ChunkAnalysis]:
        """The corpus's analysis of these Korean words (see analysis.Vocabulary), remembered."""
        missing = [word for word in words if word not in self._vocabulary]
        if missing:
            with self._lock:
                rows = self._connection.execute(*_statement(sql.vocabulary(missing))).fetchall()
            found = {word: tuple(tuple(item) for item in json.loads(analysis)) for word, analysis in rows}
            if len(self._vocabulary) > 100_000:
                self._vocabulary.clear()
            for word in missing:
                self._vocabulary[word] = found.get(word)
        return {word: known for word in words if (known := self._vocabulary.get(word)) is not None}

    def _term_forms(self, terms: list[str]) -> dict[str, list[str]]:
        if not terms:
            return {}
        with self._lock:
            return decode_forms(self._connection.execute(*_statement(sql.term_forms(terms))).fetchall())

    def _page(self, results: int, sort: str, matches: TextMatches, offset: int, limit: int) -> list[int]:
        """Rowids of one page: best first for relevance (text matches), else by date."""
        if sort == "relevance" and matches is not EMPTY:
            return matches.best(results, offset, limit)
        walk = bitsets.rowids_ascending if sort == "oldest" else bitsets.rowids_descending
        return list(itertools.islice(walk(results), offset, offset + limit))

    def _load(self, incident_ids: list[str]) -> list[Incident]:
        """Incidents by id in the given order, validated from the index once and then cached."""
        missing = [incident_id for incident_id in incident_ids if incident_id not in self._incidents]
        if missing:
            if len(self._incidents) > _CACHE_LIMIT:
                self._incidents.clear()
            with self._lock:
                rows = self._connection.execute(
                    f"SELECT id, document FROM incidents WHERE id IN ({', '.join('?' * len(missing))})",
                    missing,
                ).fetchall()
            for incident_id, document in rows:
                self._incidents[incident_id] = Incident.model_validate_json(document)
        return [
            self._incidents[incident_id] for incident_id in incident_ids if incident_id in self._incidents
        ]


def _no_incident(incident_id: object) -> str:
    """'no incident with id ...' in both languages (the English stays what MCP and the API say)."""
    return message(
        "ID가 {wanted}인 사례가 없습니다",
        "no incident with id {wanted}",
        wanted=repr(str(incident_id)[:100]),
    )


def _statement(statement: sql.Statement) -> tuple[str, tuple[object, ...]]:
    return statement.sql, statement.params
