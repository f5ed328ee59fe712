"""How to cite a case: a stable short id, a plain-text reference and a BibTeX entry.

The short id (`KG-` and six letters or digits) is derived from the incident id alone, so it never
changes while the id does not, and `/c/<short id>` always leads to the case. The reference names the
library, the case, the incident's date and organisation, when the record last changed (from its
file's history) and the day it was read, which a reference to a web page needs.
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import re
from dataclasses import dataclass

from kubegap.knowledge.model import Incident
from kubegap.text import Lang
from kubegap.web.labels import t

SHORT_PREFIX = "KG-"
_BIBTEX_SPECIAL = re.compile(r"([&%$#_{}~^\\])")
_BIBTEX_REPLACEMENTS = {"~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "\\": r"\textbackslash{}"}


@dataclass(frozen=True, slots=True)
class Citation:
    short_id: str
    short_url: str
    plain: str
    bibtex: str


def short_id(incident_id: str) -> str:
    """`KG-` + six base32 characters of a hash of the id: stable, short, and easy to read aloud."""
    digest = hashlib.blake2b(incident_id.encode("utf-8"), digest_size=5).digest()
    return SHORT_PREFIX + base64.b32encode(digest).decode("ascii")[:6]


def build_citation(
    incident: Incident, lang: Lang, page_url: str, short_url: str, updated: str, today: dt.date
) -> Citation:
    short = short_id(incident.id)
    title = incident.title.get(lang)
    accessed = today.isoformat()
    parts = [
        f"kubegap {t('site.title', lang)}",
        f"“{title}”",
        t("cite.case", lang, short=short, date=incident.date.isoformat(), organization=incident.organization),
    ]
    if updated:
        parts.append(t("cite.updated", lang, date=updated))
    parts.append(t("cite.accessed", lang, date=accessed))
    plain = ". ".join(parts) + f". {page_url}"
    note = t("cite.note", lang, date=incident.date.isoformat(), organization=incident.organization)
    fields = [
        ("title", _bibtex(title)),
        ("author", "{kubegap " + _bibtex(t("site.title", lang)) + "}"),
        ("year", str((dt.date.fromisoformat(updated) if updated else today).year)),
        ("howpublished", "\\url{" + page_url + "}"),
        ("url", page_url),
        ("urldate", accessed),
        ("note", _bibtex(note + (f"; {t('cite.updated', lang, date=updated).lower()}" if updated else ""))),
    ]
    body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields)
    key = "kubegap-" + short.removeprefix(SHORT_PREFIX).lower()
    return Citation(short, short_url, plain, f"@misc{{{key},\n{body}\n}}")


def _bibtex(text: str) -> str:
    """Text safe inside a BibTeX field: LaTeX's special characters escaped, whitespace folded."""
    folded = " ".join(text.split())
    return _BIBTEX_SPECIAL.sub(
        lambda match: _BIBTEX_REPLACEMENTS.get(match.group(1), "\\" + match.group(1)), folded
    )
