"""The `cluster` label: one value per context, redacted, escaped, short, and never shared by two.

Context names are free text from a kubeconfig. Each passes the redaction chokepoint and has its control
and bidirectional characters shown as escapes (`\\x1b`, `\\u202e`), so no byte of a name reaches the
/metrics body raw, and is cut to `MAX_LABEL` characters (its start and its end kept), so long names
cannot swell every one of a scrape's series. Two names that come out alike (tokens that redact to the
same `[REDACTED]`, or long names alike at both ends) would merge two clusters' series into duplicates
Prometheus rejects, so each of them gets `#1`, `#2`... in the order of the names themselves: the numbers
stay put while the set of contexts does, and say nothing of what was hidden.
"""

from __future__ import annotations

from collections.abc import Iterable

from kubegap.checker.reports.escaping import visible
from kubegap.redaction import redact_text

MAX_LABEL = 64
_HEAD = 20  # a long name keeps its start and its end, where ARNs and GKE names say which cluster


def shown_name(name: str) -> str:
    """A context name as a label may show it: redacted, one line, escaped, at most MAX_LABEL long."""
    text = visible(redact_text(" ".join(name.split()), limit=4 * MAX_LABEL))
    if len(text) <= MAX_LABEL:
        return text
    return text[:_HEAD] + "…" + text[-(MAX_LABEL - _HEAD - 1) :]


def cluster_labels(names: Iterable[str]) -> dict[str, str]:
    """Each name -> its `cluster` label value; distinct names always get distinct values."""
    ordered = sorted(set(names))
    shown = {name: shown_name(name) for name in ordered}
    counts: dict[str, int] = {}
    for value in shown.values():
        counts[value] = counts.get(value, 0) + 1
    labels = {name: value for name, value in shown.items() if counts[value] == 1}
    taken = set(labels.values())
    for name in ordered:
        if name in labels:
            continue
        number = 1
        while f"{shown[name]}#{number}" in taken:
            number += 1
        labels[name] = f"{shown[name]}#{number}"
        taken.add(labels[name])
    return labels
