"""Hostile names in every format: Markdown renders them as text (no HTML, image or link), SARIF escapes
its embedded-link syntax, JSON keeps them as plain data, the terminal never receives a control byte,
and the web page auto-escapes them.

The Markdown is rendered by a real CommonMark renderer (markdown-it, with tables and raw HTML on, as
GitHub and most wikis allow), so the test sees what a reader of a posted comment would see.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable

import pytest
from engine_helpers import make_check, make_meta, node, snapshot_of
from markdown_it import MarkdownIt

from kubegap.checker.finding import Finding, ObjectRef, Severity, Status
from kubegap.checker.reports import render
from kubegap.checker.reports.escaping import markdown_code, markdown_text, sarif_text, visible
from kubegap.checker.runner import run_checks
from kubegap.checker.scan_report import ScanReport
from kubegap.checker.snapshot import Coverage, KindCoverage, Snapshot

HOSTILE = [
    'train` <img src="https://evil.example/pixel.png"> [click](https://evil.example/phish) `x',
    "<script>alert(1)</script>",
    "a|b|c",
    "``` fence ``` and ``double``",
    "**bold** _em_ ~~strike~~ \\*",
    "![pixel](https://evil.example/i.png)",
    "see www.evil.example or write to me@evil.example",
    "[ref]: https://evil.example/def",
    "&lt;b&gt; &amp;",
    "<a href='https://evil.example'>x</a>",
]
TERMINAL = [
    "\x1b[2J\x1b]0;pwned\x07",
    "evil\u202egnp.exe",
    "zero\u200bwidth",
    "[bold red]markup[/]",
    "c1\x9bcontrol",
    "x\nfail  critical  forged-check  Pod/kube-system/forged  a fake gap\n",
    "y\r\x1b[1Afail  critical  forged-check  overwritten",
]
FORGED = "forged-check"


def _hostile_findings(snapshot: Snapshot) -> Iterable[Finding]:
    for index, name in enumerate([*HOSTILE, *TERMINAL]):
        ref = ObjectRef("Pod", name, f"ns-{index}", "v1", f"deploy/{name}.yaml", 3)
        yield Finding(
            "hostile", Status.failed, Severity.high, ref, f"container in {name} lacks a limit", {"name": name}
        )
        yield Finding("hostile", Status.unknown, Severity.high, ref, f"cannot tell about {name}", reason=name)


def _report() -> ScanReport:
    snapshot = snapshot_of(node("gpu-a"), mode="manifests")
    snapshot.coverage["evil.example/<img src=x>|Kind"] = KindCoverage(Coverage.failed, f"{HOSTILE[0]} failed")
    snapshot.notes.append(f"note about {HOSTILE[0]}")
    snapshot.context = "ctx `<img src=https://evil.example/c.png>` \x1b[31m"
    return run_checks(snapshot, checks=[make_check(make_meta("hostile", needs=("Node",)), _hostile_findings)])


def _rendered_markdown() -> str:
    return MarkdownIt("commonmark", {"html": True}).enable("table").render(render(_report(), "markdown"))


def _outside_code(rendered: str) -> str:
    return re.sub(r"<code>.*?</code>", "", rendered, flags=re.DOTALL)


def test_markdown_renders_hostile_names_as_text_only() -> None:
    rendered = _rendered_markdown()
    assert "<img" not in rendered and "<script" not in rendered
    assert not re.search(r"<a\s[^>]*evil", rendered)
    outside = _outside_code(rendered)
    assert "evil.example" not in outside  # every URL, www. name and address sits in a code span
    assert "<strong>bold" not in outside and "<em>em" not in outside and "<del>" not in outside
    for row in re.findall(r"<tr>(.*?)</tr>", rendered, flags=re.DOTALL):
        cells = row.count("<td>") or row.count("<th>")
        assert cells == (4 if "Severity" in row or row.count("<td>") == 4 else 3), row  # no '|' split a cell
    text = html.unescape(re.sub(r"<[^>]+>", "", rendered))
    for name in HOSTILE:  # nothing lost: every name reads exactly as it is
        assert name in text, name


def test_markdown_code_spans_cannot_be_closed_and_prose_cannot_link() -> None:
    for name in HOSTILE:
        code = MarkdownIt("commonmark", {"html": True}).render(markdown_code(name, in_table=False))
        assert code.count("<code>") == 1 and html.unescape(code).count(name.strip()) == 1, code
        prose = MarkdownIt("commonmark", {"html": True}).render(markdown_text(name, in_table=False))
        assert "<img" not in prose and "<a " not in prose and "<script" not in prose, prose


def test_sarif_messages_escape_embedded_links_and_stay_json() -> None:
    document = json.loads(render(_report(), "sarif"))
    messages = [result["message"]["text"] for result in document["runs"][0]["results"]]
    assert len(messages) == len(HOSTILE) + len(TERMINAL)
    for text in messages:
        assert not re.search(r"(?<!\\)\[", text) and not re.search(r"(?<!\\)\]", text), text
    assert sarif_text("a\\[b]") == "a\\\\\\[b\\]"


def test_json_keeps_names_as_plain_data() -> None:
    document = json.loads(render(_report(), "json"))
    names = [finding["object"]["name"] for finding in document["findings"] if finding["status"] == "fail"]
    assert sorted(names) == sorted([*HOSTILE, *TERMINAL])


@pytest.mark.parametrize("color", [False, True])
def test_the_terminal_gets_no_control_bytes_and_no_markup(color: bool) -> None:
    from kubegap.checker.reports.table import render_table

    output = render_table(_report(), "en", color=color)
    without_our_colours = re.sub(r"\x1b\[[0-9;]*m", "", output)
    assert "\x1b" not in without_our_colours and "\x07" not in output
    assert "\u202e" not in output and "\u200b" not in output
    assert "\\x1b[2J" in output and "\\u202e" in output  # shown, not dropped
    assert "[bold red]markup[/]" in output  # a name's brackets are text, not rich markup


@pytest.mark.parametrize("fmt", ["table", "plain", "tsv", "markdown"])
@pytest.mark.parametrize("lang", ["en", "ko"])
def test_no_text_format_lets_a_name_forge_a_line_or_steer_the_terminal(fmt: str, lang: str) -> None:
    """A newline, CR or ESC in a name is shown as an escape: no line of output starts a fake verdict."""
    output = render(_report(), fmt, lang)
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]", output)
    for line in output.splitlines():
        assert not re.match(r"[\\s|│┃]*(\\S+\\s+)?fail\\s+critical\\s+forged", line), line
    assert "x\\nfail" in output  # the newline is shown as an escape, not dropped or obeyed
    if fmt != "table":  # the table may fold a long name; elsewhere it is whole
        assert f"x\\nfail  critical  {FORGED}" in output


@pytest.mark.parametrize("fmt", ["json", "sarif"])
def test_json_formats_escape_what_a_terminal_or_bidi_viewer_would_act_on(fmt: str) -> None:
    output = render(_report(), fmt)
    assert not re.search(
        "[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]", output.replace("\n", "")
    )
    assert "\\u202e" in output and "\\u009b" in output  # written as escapes: the same string to a parser
    document = json.loads(output)
    if fmt == "json":
        names = {finding["object"]["name"] for finding in document["findings"]}
        assert "evil\u202egnp.exe" in names and "c1\x9bcontrol" in names


def test_visible_escapes_only_what_is_invisible() -> None:
    assert visible("ok 한국어 GPU를 60%가 ü") == "ok 한국어 GPU를 60%가 ü"
    assert visible("a\x00b\x1bc\u202ed\ufeff") == "a\\x00b\\x1bc\\u202ed\\ufeff"
