"""The data behind the pages, for people who want to take it elsewhere: JSON and CSV exports, Atom feed.

Exports carry `schema_version` (the knowledge model's SCHEMA_VERSION), so a consumer can tell when
the shape changes. CSV cells that a spreadsheet would run as a formula are defused with a quote.
"""

from __future__ import annotations

import csv
import io
import xml.etree.ElementTree as ElementTree
from datetime import UTC, datetime

from kubegap import __version__
from kubegap.knowledge.model import FACETS, SCHEMA_VERSION, Incident
from kubegap.library.query import SearchQuery
from kubegap.text import Lang
from kubegap.web import urls
from kubegap.web.labels import t
from kubegap.web.render import to_json_bytes
from kubegap.web.site import Site

FEED_SIZE = 20
ATOM = "http://www.w3.org/2005/Atom"
CSV_COLUMNS = (
    "schema_version",
    "id",
    "date",
    "end_date",
    "organization",
    "title_ko",
    "title_en",
    "summary_ko",
    "summary_en",
    "cause",
    "component",
    "symptom",
    "contributing_factor",
    "sources",
    "url_ko",
    "url_en",
)
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _sorted_incidents(site: Site) -> list[Incident]:
    return sorted(site.knowledge.incidents, key=lambda incident: (incident.date, incident.id), reverse=True)


def export_json(site: Site) -> bytes:
    incidents = [
        incident.model_dump(mode="json", by_alias=True, exclude_none=True)
        for incident in _sorted_incidents(site)
    ]
    return to_json_bytes(
        {
            "schema_version": SCHEMA_VERSION,
            "generator": f"kubegap {__version__}",
            "count": len(incidents),
            "incidents": incidents,
        }
    )


def _cell(value: str) -> str:
    return "'" + value if value.startswith(_FORMULA_START) else value


def export_csv(site: Site) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for incident in _sorted_incidents(site):
        tags = incident.tags.by_facet()
        row = [
            str(SCHEMA_VERSION),
            incident.id,
            incident.date.isoformat(),
            incident.end_date.isoformat() if incident.end_date else "",
            incident.organization,
            incident.title.ko,
            incident.title.en,
            incident.summary.ko,
            incident.summary.en,
            *(";".join(tags[facet]) for facet in FACETS),
            " ".join(source.url for source in incident.sources),
            urls.incident_url("ko", incident.id),
            urls.incident_url("en", incident.id),
        ]
        writer.writerow([_cell(value) for value in row])
    return buffer.getvalue()


def atom_feed(site: Site, lang: Lang, base_url: str) -> bytes:
    """The newest incidents as Atom; ElementTree escapes every text, so titles cannot break the XML."""
    result = site.library.search(SearchQuery(lang=lang, sort="newest", per_page=FEED_SIZE))
    ElementTree.register_namespace("", ATOM)
    feed = ElementTree.Element(f"{{{ATOM}}}feed", {"{http://www.w3.org/XML/1998/namespace}lang": lang})
    _text(feed, "title", t("feed.title", lang))
    _text(feed, "id", base_url + urls.path(lang, "feed.atom"))
    ElementTree.SubElement(
        feed, f"{{{ATOM}}}link", {"rel": "self", "href": base_url + urls.path(lang, "feed.atom")}
    )
    ElementTree.SubElement(
        feed, f"{{{ATOM}}}link", {"rel": "alternate", "href": base_url + urls.incidents_url(lang)}
    )
    newest = max((hit.incident.date for hit in result.hits), default=None)
    _text(feed, "updated", _timestamp(newest.isoformat()) if newest else datetime.now(UTC).isoformat())
    for hit in result.hits:
        incident = hit.incident
        entry = ElementTree.SubElement(feed, f"{{{ATOM}}}entry")
        link = base_url + urls.incident_url(lang, incident.id)
        _text(entry, "title", incident.title.get(lang))
        _text(entry, "id", link)
        ElementTree.SubElement(entry, f"{{{ATOM}}}link", {"rel": "alternate", "href": link})
        _text(entry, "updated", _timestamp((incident.end_date or incident.date).isoformat()))
        _text(entry, "published", _timestamp(incident.date.isoformat()))
        author = ElementTree.SubElement(entry, f"{{{ATOM}}}author")
        _text(author, "name", site.knowledge.taxonomy.organization_name(incident.organization, lang))
        _text(entry, "summary", incident.summary.get(lang))
        for facet in FACETS:
            for term in incident.tags.by_facet()[facet]:
                ElementTree.SubElement(entry, f"{{{ATOM}}}category", {"term": f"{facet}:{term}"})
    return b'<?xml version="1.0" encoding="utf-8"?>\n' + ElementTree.tostring(
        feed, encoding="utf-8", xml_declaration=False
    )


def _text(parent: ElementTree.Element, name: str, value: str) -> None:
    ElementTree.SubElement(parent, f"{{{ATOM}}}{name}").text = value


def _timestamp(day: str) -> str:
    return f"{day}T00:00:00Z"
