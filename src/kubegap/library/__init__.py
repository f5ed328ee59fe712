"""The Incident Library: an SQLite index over the knowledge base, search, facets and the web pages."""
