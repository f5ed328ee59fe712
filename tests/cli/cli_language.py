"""What counts as Korean in a person's output: ids, code, evidence and source titles are data, and
practitioner terms written in Latin letters are Korean usage (shared by the CLI language tests)."""

from __future__ import annotations

import html
import re
import sys
from pathlib import Path

_TESTS = Path(__file__).resolve().parents[1]
if str(_TESTS) not in sys.path:
    sys.path.insert(0, str(_TESTS))

from korean_words import english_words  # noqa: E402
from kubegap.checker.registry import all_checks  # noqa: E402
from kubegap.cli import _SUBCOMMANDS  # noqa: E402

HANGUL = re.compile("[\uac00-\ud7a3]")


def id_words() -> set[str]:
    """Words that are ids here: check areas (`networking`) and the subcommands' names (`scan`)."""
    return {check.meta.area for check in all_checks()} | set(_SUBCOMMANDS)


# Practitioner terms the knowledge base writes in Latin letters inside Korean sentences, as Korean
# engineers do (CONTRIBUTING: "keep product names and technical terms as practitioners write them").
TERMS = frozenset(
    {
        "taint",
        "toleration",
        "condition",
        "priority",
        "level",
        "class",
        "device",
        "plugin",
        "unhealthy",
        "systemd",
        "kubelet",
        "torchrun",
        "etcd",
        "conntrack",
        "dcgmi",
        "diag",
        "master",
        "watchdog",
        "concurrency",
        "endpoints",
        "pods",
        "rank",
        "flight",
        "recorder",
        "medium",
        "never",
        "approximate",
        "rendezvous",
    }
)


_EVIDENCE = re.compile(r"  \([^()]*=.*\)$", re.MULTILINE)  # a plain finding line ends in (key=value; ...)
# A plain finding line starts with its verdict and severity as tokens, the same in every language so
# scripts keep working (`fail  high  check-id ...`); the role a check assumed is an id (`[역할: serving]`).
_TOKENS = re.compile(
    r"^(fail|exempted|unknown|pass|not-applicable)  (critical|high|medium|low|info)  ", re.MULTILINE
)
# Product names that hold an English word, written as their makers write them in Korean too.
_PRODUCT_NAMES = ("FSx for Lustre", "FSx for NetApp ONTAP", "FSx for OpenZFS")
# A log line or error message quoted in a sentence ("CUDA unknown error") is data, not prose.
_QUOTED_LATIN = re.compile(r'"[^"\n\uac00-\ud7a3]{1,160}"')
_ROLE = re.compile(r" *\[역할: [^\]]*\]")


def people_text(text: str) -> str:
    """What a person reads as sentences: evidence (key=value data) and cited titles of sources are data.

    Markdown's escapes (`rdma\\_shared`, `&lt;`) are undone first: a reader sees the plain characters."""
    text = html.unescape(re.sub(r"\\([\\`*_{}\[\]()#+.!|<>-])", r"\1", text))
    text = _ROLE.sub("", _TOKENS.sub("", text))
    text = _QUOTED_LATIN.sub(" ", text)
    for name in _PRODUCT_NAMES:
        text = text.replace(name, " ")
    text = _EVIDENCE.sub("", text)
    if "\n출처\n" in text:  # `incidents show`: source titles are the names of publications
        head, _, tail = text.partition("\n출처\n")
        kept = [line for line in tail.splitlines() if not line.startswith(("• ", "  "))]
        text = head + "\n" + "\n".join(kept)
    return text


def assert_korean(text: str, what: str, data: frozenset[str] = frozenset()) -> None:
    assert text.strip(), f"{what} printed nothing"
    left = english_words(people_text(text), id_words() | TERMS | data)
    assert not left, f"{what}: English words left: {sorted(set(left))}"
