"""The small pure pieces of the web layer: language negotiation, URLs, query parsing, charts, labels."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from click.testing import CliRunner
from starlette.datastructures import QueryParams

from kubegap.knowledge.loader import Taxonomy
from kubegap.library import Library
from kubegap.library.query import SearchQuery
from kubegap.text import has_label
from kubegap.web import urls
from kubegap.web.chart import ChartRow, bar_chart, row_figure, wrap_label
from kubegap.web.commands import serve
from kubegap.web.labels import t, web_label_keys
from kubegap.web.negotiation import preferred_lang
from kubegap.web.state import parse_list_state
from kubegap.web.tidy import tidy_query_string

TEMPLATES = Path(__file__).resolve().parents[2] / "src" / "kubegap" / "web" / "templates"


@pytest.fixture(scope="module")
def taxonomy(library: Library) -> Taxonomy:
    return library.knowledge.taxonomy


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("en", "en"),
        ("EN-gb", "en"),
        ("ko", "ko"),
        ("de, fr", "ko"),
        ("en;q=0, ko;q=0.1", "ko"),
        ("ko;q=0.5, en;q=0.5", "ko"),
        ("en;q=0.5, ko;q=0.5", "en"),
        ("en;q=2", "ko"),
        ("x" * 5000 + ",en", "ko"),
    ],
)
def test_preferred_lang(header: str, expected: str) -> None:
    assert preferred_lang(header) == expected


def test_query_parsing_clamps_cleans_and_reports(taxonomy: Taxonomy) -> None:
    params = QueryParams(
        "q=%20%20NCCL%20%20hang&cause=gpu-fault&cause=bogus&page=0&per_page=999&tab=nope&sort=x"
    )
    state = parse_list_state(params, "en", taxonomy)
    assert state.query.text == "NCCL hang"
    assert state.query.filters == {"cause": ("gpu-fault",)}
    assert (state.query.page, state.query.per_page, state.query.sort) == (1, 100, "relevance")
    assert state.tab == "cause"
    assert state.notices == ("Ignored unknown filter values: bogus",)
    long = parse_list_state(QueryParams({"q": "a" * 600}), "ko", taxonomy)
    assert len(long.query.text) == 500 and long.notices == (t("notice.text-cut", "ko"),)


def test_urls_are_canonical_and_round_trip(taxonomy: Taxonomy) -> None:
    query = SearchQuery(
        text="노드 hang",
        filters={"component": ("nccl",), "cause": ("gpu-fault",)},
        lang="ko",
        sort="oldest",
        page=3,
        per_page=10,
    )
    url = urls.list_url(query, "symptom")
    expected = (
        "/ko/incidents?q=%EB%85%B8%EB%93%9C%20hang&cause=gpu-fault&component=nccl"
        "&sort=oldest&per_page=10&page=3&tab=symptom"
    )
    assert url == expected
    parsed = parse_list_state(QueryParams(url.split("?", 1)[1]), "ko", taxonomy)
    assert parsed.query == query and parsed.tab == "symptom"
    toggled = urls.toggle_url(query, "cause", "cause", "gpu-fault")
    assert parse_qs(urlsplit(toggled).query) == {
        "q": ["노드 hang"],
        "component": ["nccl"],
        "sort": ["oldest"],
        "per_page": ["10"],
    }
    assert urls.list_url(SearchQuery(lang="en")) == "/en/incidents"
    assert urls.term_url("en", "cause", "a/b?c") == "/en/facets/cause/a%2Fb%3Fc"
    assert urls.with_json("/ko/incidents?q=x") == "/ko/incidents.json?q=x"
    assert urls.switch_language("/ko/incidents/x", "a=1&b=2", "en") == "/en/incidents/x?a=1&b=2"
    assert urls.switch_language("/weird", "", "en") == "/en/incidents"


def test_tidy_query_string_encodes_only_what_a_browser_would() -> None:
    assert tidy_query_string(b"q=a%20b&c=d") == b"q=a%20b&c=d"
    assert tidy_query_string(b"q=\xff a\x00") == b"q=%FF%20a%00"


def test_bar_chart_scales_to_the_largest_row_and_formats_figures() -> None:
    chart = bar_chart("c", "t", "d", [ChartRow("a", 30, None), ChartRow("b", 10, None)], total=80)
    assert [bar.width_percent for bar in chart.bars] == ["70.00%", "23.33%"]
    assert [bar.figure for bar in chart.bars] == ["37.5% (30)", "12.5% (10)"]
    assert chart.bars[1].label_y > chart.bars[0].bar_y
    shares = bar_chart("c", "t", "d", [ChartRow("a", None, 58.7), ChartRow("b", None, 0.0)], total=None)
    assert [bar.width_percent for bar in shares.bars] == ["70.00%", "0.50%"]
    assert row_figure(None, 17.2, None) == "17.2%" and row_figure(5, None, None) == "5"


def test_long_labels_wrap_to_a_phone_width_and_rows_grow() -> None:
    label = "Explicit failures (surface at once: CUDA errors, NaN values and the like)"
    lines = wrap_label(label)
    assert len(lines) == 2 and " ".join(lines) == label and all(len(line) <= 44 for line in lines)
    korean = wrap_label("명시적 실패 (CUDA 오류, NaN 값처럼 바로 드러나는 실패) 와 드러나지 않는 실패")
    assert len(korean) == 2
    assert wrap_label("x" * 100) == ["x" * 44, "x" * 44, "x" * 12]
    assert wrap_label("") == [""]
    chart = bar_chart("c", "t", "d", [ChartRow(label, 3, None), ChartRow("short", 1, None)], total=None)
    first, second = chart.bars
    assert [line.dy for line in first.lines] == [0, 18]
    assert second.label_y - first.label_y > 18 + 14 and chart.height > second.bar_y


def test_every_label_exists_in_both_languages_and_templates_use_only_known_keys() -> None:
    for key in web_label_keys():
        assert t(key, "ko") and t(key, "en") and t(key, "ko") != key
    used = set()
    for template in TEMPLATES.glob("*.html"):
        used |= set(re.findall(r"L\('([^']+)'", template.read_text(encoding="utf-8")))
    unknown = sorted(key for key in used if key not in web_label_keys() and not has_label(key))
    assert not unknown


def test_serve_command_options() -> None:
    result = CliRunner().invoke(serve, ["--help"])
    assert result.exit_code == 0
    assert "--host" in result.output and "--port" in result.output and "127.0.0.1" in result.output
    for flag in ("--demo", "--snapshot", "--manifests", "--kubeconfig", "--context", "--no-scan"):
        assert flag in result.output, flag
    assert CliRunner().invoke(serve, ["--port", "70000"]).exit_code == 2


def test_serve_on_a_taken_port_is_a_one_line_error(tmp_path: Path) -> None:
    import os
    import socket
    import subprocess
    import sys

    # no real cluster is ever read: HOME and KUBECONFIG point at an empty folder
    environment = {**os.environ, "HOME": str(tmp_path), "KUBECONFIG": str(tmp_path / "none")}
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "kubegap", "serve", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=60,
            env=environment,
        )
    assert result.returncode == 2
    assert result.stderr.startswith("Error: cannot listen on 127.0.0.1:")
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr


def test_serve_on_port_0_prints_the_port_it_bound(tmp_path: Path) -> None:
    """`--port 0` lets the system choose; the start-up line must name the chosen port, not `:0`."""
    import os
    import re
    import subprocess
    import sys
    import time
    import urllib.request

    environment = {**os.environ, "HOME": str(tmp_path), "KUBECONFIG": str(tmp_path / "none")}
    log = tmp_path / "serve.log"
    with log.open("w") as sink:
        server = subprocess.Popen(
            [sys.executable, "-m", "kubegap", "serve", "--port", "0", "--no-scan"],
            stdout=sink,
            stderr=subprocess.STDOUT,
            env=environment,
        )
    try:
        deadline = time.monotonic() + 90
        found = None
        while found is None and time.monotonic() < deadline and server.poll() is None:
            found = re.search(r"http://127\.0\.0\.1:(\d+)/", log.read_text())
            time.sleep(0.2)
        assert found, log.read_text()
        port = int(found.group(1))
        assert port != 0
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/openapi.json", timeout=5) as answer:
                    assert answer.status == 200
                    break
            except OSError:
                time.sleep(0.2)
        else:
            raise AssertionError(f"nothing answered on the printed port {port}")
    finally:
        server.terminate()
        server.wait(timeout=30)
