"""The Kubernetes name grammar: what a resource, group, version, kind or namespace name may look like.

Discovery and the live reader refuse names outside it before they build a request path from them,
and checks use it to tell a real namespace from a placeholder that a template leaves to be filled in.
"""

from __future__ import annotations

import re

_DNS_LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?")
_DNS_SUBDOMAIN = re.compile(
    r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*"
)
_VERSION = re.compile(r"v[0-9]+(?:(?:alpha|beta)[0-9]+)?|[a-z][a-z0-9-]{0,62}")
_KIND = re.compile(r"[A-Za-z][A-Za-z0-9]{0,62}")


def is_resource_name(name: str) -> bool:
    """A plural resource name as discovery must give it ('pods', 'clusterpolicies'): a DNS-1035 label."""
    return bool(_DNS_LABEL.fullmatch(name)) and not name[0].isdigit()


def is_group_name(name: str) -> bool:
    """An API group name ('apps', 'jobset.x-k8s.io'): a DNS-1123 subdomain of at most 253 characters."""
    return len(name) <= 253 and bool(_DNS_SUBDOMAIN.fullmatch(name))


def is_version_name(name: str) -> bool:
    return len(name) <= 63 and bool(_VERSION.fullmatch(name))


def is_kind_name(name: str) -> bool:
    return bool(_KIND.fullmatch(name))


def is_namespace_name(name: str) -> bool:
    """A namespace name: a DNS-1123 label."""
    return bool(_DNS_LABEL.fullmatch(name))
