"""Find English prose in text meant to be Korean, while letting ids, code and proper nouns through.

Korean engineers write product names, Kubernetes kinds, field names and ids in Latin letters
("GPU를", "DaemonSet이", "ttlSecondsAfterFinished가", "nccl-hang-dump"), so Latin letters alone
prove nothing. What gives English prose away is ordinary words: lowercase dictionary words ("and",
"nodes", "read") and capitalised English labels ("Fix", "Coverage", "Summary"). A token counts as an
id or code when it has a digit or one of `-_./:=@<>{}[]()`, or mixes case inside (camelCase); an
acronym (all capitals) or a capitalised word that is not a common English word is a proper noun.
"""

from __future__ import annotations

import re

# Lowercase words that are code or names where they appear: values, flags, tool names.
CODE_WORDS = frozenset(
    {
        "kubegap",
        "kubectl",
        "kured",
        "exempt",
        "ready",
        "cordon",
        "drain",
        "timeout",
        "allocatable",
        "capacity",
        "true",
        "false",
        "gloo",
        "nccl",
        "emptydir",
        "coredns",
        "json",
        "yaml",
        "sarif",
        "markdown",
        "tsv",
        "plain",
        "table",
        "ko",
        "en",
        "main",
        "kubeconfig",
        "nvidia",  # the container runtime's name (`runtimeClassName: nvidia`)
        "libnvsandboxutils",  # an NVIDIA driver library
        "virtiofs",  # a file system's name
    }
)

# Capitalised words that are English labels, not names.
ENGLISH_LABELS = frozenset(
    {
        "fix",
        "incident",
        "incidents",
        "coverage",
        "summary",
        "note",
        "notes",
        "status",
        "severity",
        "check",
        "checks",
        "title",
        "object",
        "message",
        "evidence",
        "kind",
        "kinds",
        "detail",
        "needed",
        "source",
        "why",
        "decides",
        "reads",
        "works",
        "references",
        "optional",
        "secrets",
        "namespaces",
        "error",
        "wrote",
        "no",
        "all",
        "findings",
        "date",
        "cause",
        "causes",
        "components",
        "component",
        "symptom",
        "symptoms",
        "similar",
        "the",
        "and",
        "or",
        "of",
        "in",
        "on",
        "for",
        "with",
        "without",
        "is",
        "are",
        "was",
        "were",
        "not",
        "none",
        "every",
        "each",
        "this",
        "that",
        "these",
        "scan",
        "scanned",
        "started",
        "finished",
        "reload",
        "gaps",
        "passed",
        "open",
        "about",
        "more",
        "read",
        "unknown",
        "pass",
        "fail",
        "exempted",
        "language",
        "search",
        "sort",
        "newest",
        "oldest",
        "relevance",
        "page",
        "next",
        "previous",
        "results",
        "result",
        "showing",
        "show",
        "list",
        "never",
        "only",
        "yes",
        "contexts",
        "context",
    }
)

_TOKEN = re.compile(r"-*[A-Za-z][A-Za-z0-9'’\-_./:=@<>{}\[\]()]*")
_CODE_MARKS = re.compile(r"[0-9\-_./:=@<>{}\[\]()]")


def _is_code_or_name(token: str) -> bool:
    if _CODE_MARKS.search(token):
        return True
    if token.isupper():  # GPU, NCCL, PVC, OS
        return True
    if any(letter.isupper() for letter in token[1:]):  # camelCase, DaemonSet, CoreDNS
        return True
    lowered = token.lower()
    if token[0].isupper():
        return lowered not in ENGLISH_LABELS
    return lowered in CODE_WORDS


_URL = re.compile(r"https?://\S+")
_CODE_SPAN = re.compile(r"`[^`]*`|'[^'\n]*'")  # code spans and quoted values (what the user typed)
# the command line is code: `kubegap scan`, `kubegap checks list`
_COMMAND = re.compile(r"\b(?:kubegap|kubectl)(?: [a-z-]+)+")  # command lines are code, not prose


def english_words(text: str, data: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """The English prose words in `text`; `data` are words known to be names or values, not prose.

    Latin words attached to Hangul are judged by their Latin part; links are skipped.
    """
    found = []
    lowered_data = {word.lower() for word in data}
    cleaned = _COMMAND.sub(" ", _CODE_SPAN.sub(" ", _URL.sub(" ", text)))
    for token in _TOKEN.findall(cleaned):
        token = token.strip("'’.:()[]{}")
        if len(token) < 2 or token.lower() in lowered_data or token.startswith("-"):
            continue
        if not _is_code_or_name(token):
            found.append(token)
    return found
