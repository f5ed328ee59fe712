"""The Incident Library: an SQLite index over the knowledge base, search and facets.

The web pages that show it live in `kubegap.web`.

Start with `Library.open()`; queries are `SearchQuery` values (see `query.py`), usually built from
untrusted input with `SearchQuery.from_params`.
"""

from kubegap.library.library import Library
from kubegap.library.query import FacetValue, SearchHit, SearchQuery, SearchResult, SimilarIncident

__all__ = ["FacetValue", "Library", "SearchHit", "SearchQuery", "SearchResult", "SimilarIncident"]
