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

from kubegap.errors import KnowledgeError, NotFoundError
from kubegap.knowledge.loader import Knowledge, Taxonomy, load_knowledge
from kubegap.knowledge.model import Facet, Incident
from kubegap.knowledge.organizations import Organization
from kubegap.library import bitsets, dates, index, sql, store
from kubegap.library.facets import Facets
from kubegap.library.glossary import Glossary, glossary_for
from kubegap.library.matching import TextMatches, match_text
from kubegap.library.query import FacetValue, SearchHit, SearchQuery, SearchResult, SimilarIncident
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
        self._text_cache: OrderedDict[tuple[str, bool, str], TextMatches] = OrderedDict()
        self.glossary = glossary if glossary is not None else glossary_for(root)
        self._incidents: dict[str, Incident] = {}
        with self._lock:
            meta = dict(connection.execute("SELECT key, value FROM meta").fetchall())
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
        none. A stale index is rebuilt; a folder we cannot write falls back to an in-memory index.
        """
        from kubegap.knowledge.loader import default_root

        root = Path(root) if root is not None else default_root()
        if not root.is_dir():
            raise KnowledgeError(f"knowledge folder not found: {root}")
        location = str(db_path) if db_path is not None else store.default_location(root)
        current = store.fingerprint(root)
        if location != store.MEMORY:
            if store.stored_fingerprint(location) == current:
                try:
                    return cls(store.connect(location, read_only=True), root=root, location=location)
                except (sqlite3.Error, KeyError, ValueError):
                    pass  # unreadable after all: rebuild below
            knowledge = load_knowledge(root)
            try:
                store.build_file(knowledge, location, current)
                return cls(
                    store.connect(location, read_only=True), root=root, location=location, knowledge=knowledge
                )
            except (OSError, sqlite3.Error):
                pass  # cache folder not writable: keep the index in memory
        else:
            knowledge = load_knowledge(root)
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
        return store.stored_fingerprint(self.location) != store.fingerprint(self.root)

    def close(self) -> None:
        with self._lock:
            self._connection.close()

    @property
    def glossary(self) -> Glossary:
        return self._glossary

    @glossary.setter
    def glossary(self, glossary: Glossary) -> None:
        """Swap the glossary (tests, or a reloaded file); remembered text matches are forgotten."""
        with self._lock:
            self._glossary = glossary
            self._text_cache.clear()

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
            raise NotFoundError(f"no incident with id {str(incident_id)[:100]!r}")
        return found[0]

    def term_label(self, facet: str, term_id: str, lang: str) -> str:
        return self.facets.label(facet, term_id, lang)

    def search(self, query: SearchQuery) -> SearchResult:
        """Run a query: one page of hits, counts per facet value and recurring components of all hits."""
        sort = query.sort if query.text or query.sort != "relevance" else "newest"
        filtered = self._tags.filter_mask(query.filters)
        results = filtered & self._dates.mask(query.since, query.until)
        matches = TextMatches(self._tags.everything, [], {}, {})
        if query.text and results:
            # Filters go into the FTS5 query too, so bm25 runs and rows come back only for incidents
            # that pass them; the bit-set AND below then changes nothing but keeps the rule in one place.
            # The date range stays out of it: remembered matches are keyed by text and facets alone, so
            # they must not depend on the dates (the AND below applies them).
            clause = self.facets.fts_clause(query.filters)
            matches = self._text_matches(
                query.text, scored=sort == "relevance", facet_clause=clause, allowed=filtered
            )
            results &= matches.mask
            if matches.relaxed:
                sort = "relevance"  # a relaxed match is only useful best first
        total = results.bit_count()
        page_count = max(1, math.ceil(total / query.per_page))
        page = min(query.page, page_count)
        offset = (page - 1) * query.per_page
        rowids = self._page(results, sort, matches.ranked, offset, query.per_page)
        incidents = {incident.id: incident for incident in self._load([self._ids[rowid] for rowid in rowids])}
        hits = tuple(
            SearchHit(
                incidents[self._ids[rowid]],
                matches.scores.get(rowid, 0.0) if sort == "relevance" else 0.0,
                tuple(matches.signatures.get(rowid, ())),
            )
            for rowid in rowids
            if self._ids[rowid] in incidents
        )
        return SearchResult(
            query=self._as_run(query, page, sort),
            total=total,
            start=offset + 1 if hits else 0,
            end=offset + len(hits) if hits else 0,
            hits=hits,
            facets=self.facets.for_results(query, results),
            recurring_components=self.facets.recurring(query, results),
            page_count=page_count,
            relaxed=matches.relaxed,
        )

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
            raise NotFoundError(f"no incident with id {str(incident_id)[:100]!r}")
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

    def _text_matches(
        self, text: str, *, scored: bool, facet_clause: str | None, allowed: int
    ) -> TextMatches:
        """Text matches, remembered for the last few (text, filters): a reader who pages through results
        or toggles facets keeps the same text, and the index never changes under an open library."""
        key = (text, scored, facet_clause or "")
        with self._lock:
            # Ranked matches also serve an unranked search with the same text and filters.
            for candidate in (key, (text, True, facet_clause or "")):
                cached = self._text_cache.get(candidate)
                if cached is not None:
                    self._text_cache.move_to_end(candidate)
                    return cached
        matches = match_text(
            self._run,
            text,
            self.glossary,
            scored=scored,
            size=self._tags.size,
            facet_clause=facet_clause,
            allowed=allowed if facet_clause else -1,
        )
        with self._lock:
            self._text_cache[key] = matches
            while len(self._text_cache) > self.text_cache_size:
                self._text_cache.popitem(last=False)
        return matches

    def _page(self, results: int, sort: str, ranked: list[int], offset: int, limit: int) -> list[int]:
        """Rowids of one page. `ranked` (text matches, best first) is already in relevance order."""
        if sort == "relevance":
            members = bitsets.as_bytes(results, self._tags.size)
            shown = (rowid for rowid in ranked if bitsets.has(members, rowid))
            return list(itertools.islice(shown, offset, offset + limit))
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
