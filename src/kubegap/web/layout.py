"""The frame around every page (header, navigation, language switch, footer) as a typed context.

Templates only print what is here; which nav item is current and where the language switch goes are
decided in Python, so the same rules hold on every page and in tests.
"""

from __future__ import annotations

from dataclasses import dataclass

from starlette.requests import Request

from kubegap.text import Lang
from kubegap.web import urls
from kubegap.web.labels import other_lang, t


@dataclass(frozen=True, slots=True)
class Link:
    label: str
    url: str
    current: bool = False


@dataclass(frozen=True, slots=True)
class Layout:
    lang: Lang
    title: str
    site_title: str
    skip_label: str
    nav_label: str
    nav: tuple[Link, ...]
    switch: Link
    switch_lang: Lang
    switch_hint: str
    json_url: str
    footer_about: str
    data_label: str
    data_links: tuple[Link, ...]


_SECTIONS = (
    ("incidents", "incidents", urls.incidents_url),
    ("facets", "nav.facets", urls.facets_url),
    ("studies", "studies", urls.studies_url),
    ("errors", "nav.errors", urls.errors_url),
    ("checks", "checks", urls.checks_url),
    ("cluster", "nav.cluster", urls.cluster_url),
)


def build_layout(
    request: Request | None,
    lang: Lang,
    title: str,
    section: str,
    json_url: str = "",
    query: str | None = None,
) -> Layout:
    """The frame for one page; `section` names the nav item to mark current.

    `query` is the query string the language switch keeps (default: the request's own).
    """
    other = other_lang(lang)
    if request is not None:
        kept = request.url.query if query is None else query
        switch_url = urls.switch_language(request.url.path, kept, other)
    else:
        switch_url = urls.incidents_url(other)
    site_title = t("site.title", lang)
    return Layout(
        lang=lang,
        title=f"{title} · {site_title}" if title != site_title else title,
        site_title=site_title,
        skip_label=t("skip", lang),
        nav_label=t("nav.main", lang),
        nav=tuple(Link(t(key, lang), build(lang), name == section) for name, key, build in _SECTIONS),
        switch=Link(t("lang.switch", lang), switch_url),
        switch_lang=other,
        switch_hint=t("lang.switch.label", lang),
        json_url=json_url,
        footer_about=t("footer.about", lang),
        data_label=t("footer.data", lang),
        data_links=(
            Link("JSON", "/export/incidents.json"),
            Link("CSV", "/export/incidents.csv"),
            Link("Atom", urls.path(lang, "feed.atom")),
            Link("OpenAPI", "/openapi.json"),
        ),
    )
