"""The page table: which URL pattern is built by which context function, and with which template.

Each builder returns a `Page` (typed context + template + title + nav section); `app.py` renders it as
HTML or JSON. Adding a page means one builder and one line here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request

from kubegap.errors import NotFoundError
from kubegap.text import Lang
from kubegap.web import check_pages, cluster_page, error_pages, facet_pages, incident_page, study_pages
from kubegap.web.cluster_scan import RescanOutcome
from kubegap.web.cluster_status import cache_control
from kubegap.web.labels import t
from kubegap.web.listing import build_list_page
from kubegap.web.site import Site
from kubegap.web.state import parse_list_state


@dataclass(frozen=True, slots=True)
class Page:
    context: Any
    template: str
    title: str
    section: str
    cache_control: str = ""  # overrides the default public caching for pages that change with the scan


PageBuilder = Callable[[Request, Site, Lang], Page]


def labeler(lang: Lang) -> Callable[..., str]:
    """`L('search.button')` in templates: fixed UI words, never data, so contexts stay data only."""

    def label_in(key: str, **values: object) -> str:
        return t(key, lang, **values)

    return label_in


def _list(request: Request, site: Site, lang: Lang) -> Page:
    state = parse_list_state(request.query_params, lang, site.knowledge.taxonomy)
    context = build_list_page(site, state)
    return Page(context, "list.html", context.title, "incidents", cache_control(site))


def _incident(request: Request, site: Site, lang: Lang) -> Page:
    incident_id = request.path_params["incident_id"]
    base = str(request.base_url).rstrip("/")
    context = incident_page.build_incident_page(site, incident_id, lang, base)
    if context is None:
        raise NotFoundError(t("error.not-found", lang) + f": {incident_id[:100]}")
    return Page(context, "incident.html", context.title, "incidents", cache_control(site))


def _facets(request: Request, site: Site, lang: Lang) -> Page:
    context = facet_pages.build_facets_page(site, lang)
    return Page(context, "facets.html", context.title, "facets")


def _term(request: Request, site: Site, lang: Lang) -> Page:
    facet, term_id = request.path_params["facet"], request.path_params["term"]
    context = facet_pages.build_term_page(site, facet, term_id, lang)
    if context is None:
        raise NotFoundError(t("error.not-found", lang) + f": {facet[:40]}/{term_id[:100]}")
    return Page(context, "term.html", context.title, "facets", cache_control(site))


def _studies(request: Request, site: Site, lang: Lang) -> Page:
    context = study_pages.build_studies_page(site, lang)
    return Page(context, "studies.html", context.title, "studies")


def _study(request: Request, site: Site, lang: Lang) -> Page:
    study_id = request.path_params["study_id"]
    context = study_pages.build_study_page(site, study_id, lang)
    if context is None:
        raise NotFoundError(t("error.not-found", lang) + f": {study_id[:100]}")
    return Page(context, "study.html", context.title, "studies")


def _errors(request: Request, site: Site, lang: Lang) -> Page:
    context = error_pages.build_error_catalog_page(site, lang, request.query_params)
    return Page(context, "error_catalog.html", context.title, "errors")


def _error(request: Request, site: Site, lang: Lang) -> Page:
    error_id = request.path_params["error_id"]
    context = error_pages.build_error_page(site, error_id, lang)
    if context is None:
        raise NotFoundError(t("error.not-found", lang) + f": {error_id[:100]}")
    return Page(context, "error_entry.html", context.title, "errors")


def _checks(request: Request, site: Site, lang: Lang) -> Page:
    context = check_pages.build_checks_page(site, lang)
    return Page(context, "checks.html", context.title, "checks", cache_control(site))


def _check(request: Request, site: Site, lang: Lang) -> Page:
    check_id = request.path_params["check_id"]
    context = check_pages.build_check_page(site, check_id, lang)
    if context is None:
        raise NotFoundError(t("error.not-found", lang) + f": {check_id[:100]}")
    return Page(context, "check.html", context.title, "checks", cache_control(site))


def _cluster(request: Request, site: Site, lang: Lang) -> Page:
    """The cluster page; a GET never starts a scan, whatever its query string says."""
    if site.cluster.source.kind == "fleet":
        return _fleet_page(request, site, lang, None)
    context = cluster_page.build_cluster_page(site, lang)
    return Page(context, "cluster.html", context.title, "cluster", "no-store")


def _fleet_page(request: Request, site: Site, lang: Lang, rescan: RescanOutcome | None) -> Page:
    from kubegap.web.cluster_fleet import fleet_or_member_page

    context, template = fleet_or_member_page(
        site,
        lang,
        rescan,
        request.query_params.get("cluster"),
    )
    return Page(context, template, context.title, "cluster", "no-store")


def cluster_rescan(request: Request, site: Site, lang: Lang) -> Page:
    """After app.py checked the POST's origin and token: ask for a new scan (rate-limited by
    ClusterScan) and show the page with what became of the request."""
    rescan = site.cluster.request_rescan()
    if site.cluster.source.kind == "fleet":
        return _fleet_page(request, site, lang, rescan)
    context = cluster_page.build_cluster_page(site, lang, rescan)
    return Page(context, "cluster.html", context.title, "cluster", "no-store")


# URL pattern (without '.json') -> builder; the JSON twin of each is registered automatically.
PAGES: tuple[tuple[str, PageBuilder], ...] = (
    ("/{lang}/incidents", _list),
    ("/{lang}/incidents/{incident_id}", _incident),
    ("/{lang}/facets", _facets),
    ("/{lang}/facets/{facet}/{term}", _term),
    ("/{lang}/studies", _studies),
    ("/{lang}/studies/{study_id}", _study),
    ("/{lang}/errors", _errors),
    ("/{lang}/errors/{error_id}", _error),
    ("/{lang}/checks", _checks),
    ("/{lang}/checks/{check_id}", _check),
    ("/{lang}/cluster", _cluster),
)
