"""The knowledge base both faces read: taxonomy, incidents and fleet studies as validated data."""

from kubegap.knowledge.loader import Knowledge, Taxonomy, default_root, load_knowledge
from kubegap.knowledge.model import FACETS, Incident, Study, Term
from kubegap.knowledge.problems import Problem

__all__ = [
    "FACETS",
    "Incident",
    "Knowledge",
    "Problem",
    "Study",
    "Taxonomy",
    "Term",
    "default_root",
    "load_knowledge",
]
