"""`kubegap incidents ...` and `kubegap facets` through the real entry point, on the fixture library."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from library_helpers import ALPHA, BRAVO, CHARLIE, DELTA, FIXTURE_ROOT, FOXTROT, NEWEST_FIRST
from rich.cells import cell_len

from kubegap.cli import main
from kubegap.knowledge.organizations import LIBRARY_FACETS


@pytest.fixture(autouse=True)
def fixture_knowledge(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("KUBEGAP_KNOWLEDGE", str(FIXTURE_ROOT))
    monkeypatch.setenv("KUBEGAP_DB", str(tmp_path / "library.sqlite3"))
    monkeypatch.setenv("COLUMNS", "100")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exited:
        main(list(args))
    captured = capsys.readouterr()
    return int(exited.value.code or 0), captured.out, captured.err


def test_list_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "incidents", "list", "--json", "--per-page", "2", "--page", "2", "--lang", "en"
    )
    assert code == 0
    data = json.loads(out)
    assert set(data) == {
        "query",
        "total",
        "start",
        "end",
        "page_count",
        "range",
        "relaxed",
        "full_matches",
        "words",
        "suggestions",
        "errors",
        "hits",
        "facets",
        "recurring_components",
    }
    assert (data["total"], data["start"], data["end"], data["page_count"]) == (6, 3, 4, 3)
    assert data["range"] == "3-4 of 6"
    assert [hit["id"] for hit in data["hits"]] == NEWEST_FIRST[2:4]
    assert set(data["hits"][0]) == {
        "id",
        "date",
        "title",
        "summary",
        "organization",
        "organization_name",
        "scope",
        "tags",
        "score",
        "matched_signatures",
        "matched_terms",
        "matched_share",
        "partial",
        "catalog_errors",
    }
    assert set(data["facets"]) == set(LIBRARY_FACETS)
    assert data["facets"]["cause"][0] == {
        "term_id": "hardware-fault",
        "label": "Hardware fault",
        "count": 3,
        "selected": False,
        "parent": None,
    }
    assert data["query"]["filters"] == {facet: [] for facet in LIBRARY_FACETS}
    assert (data["query"]["since"], data["query"]["until"]) == (None, None)


def test_list_by_organisation_name_and_dates(capsys: pytest.CaptureFixture[str]) -> None:
    """--org takes a name or alias in any case; a parent finds its part; the dates bound the start day."""
    code, out, _ = run(
        capsys, "incidents", "list", "--json", "--org", "DELTA COMPUTE", "--since", "2023", "--lang", "ko"
    )
    assert code == 0
    data = json.loads(out)
    assert [hit["id"] for hit in data["hits"]] == [CHARLIE]
    assert data["hits"][0]["organization"] == "charlie-cloud"
    assert data["hits"][0]["organization_name"] == "찰리 클라우드"
    assert data["query"]["filters"]["organization"] == ["delta-compute"]
    assert (data["query"]["since"], data["query"]["until"]) == ("2023-01-01", None)
    code, out, _ = run(capsys, "incidents", "list", "--json", "--org", "charlie", "--org", "alpha-labs")
    assert {hit["id"] for hit in json.loads(out)["hits"]} == {CHARLIE, ALPHA}
    code, out, _ = run(capsys, "incidents", "list", "--json", "--since", "2022-09", "--until", "2023-01")
    assert [hit["id"] for hit in json.loads(out)["hits"]] == [ALPHA, DELTA]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--org", "nobody"], "Error: unknown organization value 'nobody'"),
        (["--since", "2024-13"], "Error: since '2024-13' is not a date; use YYYY, YYYY-MM or YYYY-MM-DD\n"),
        (
            ["--until", "yesterday"],
            "Error: until 'yesterday' is not a date; use YYYY, YYYY-MM or YYYY-MM-DD\n",
        ),
        (["--since", "2025", "--until", "2024"], "Error: since (2025-01-01) is after until (2024-12-31)"),
    ],
)
def test_bad_organisation_or_date_is_a_one_line_error(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, out, err = run(capsys, "incidents", "list", *args)
    assert code == 2 and out == ""
    assert err.startswith(message) and err.count("\n") == 1 and "Traceback" not in err


def test_show_names_the_organisation(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "incidents", "show", CHARLIE, "--lang", "en")
    assert code == 0 and f"{CHARLIE} · 2024-06-09 · Charlie Cloud" in out


def test_list_filters_and_query(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "incidents",
        "list",
        "--json",
        "--cause",
        "hardware-fault",
        "--component",
        "nccl",
        "--factor",
        "hang-instead-of-fail",
        "-q",
        "NCCL에서",
    )
    assert code == 0
    data = json.loads(out)
    assert {hit["id"] for hit in data["hits"]} == {BRAVO, FOXTROT}
    assert data["query"]["sort"] == "relevance"
    assert data["query"]["filters"]["contributing-factor"] == ["hang-instead-of-fail"]


def test_korean_table_lines_up(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "incidents", "list", "--lang", "ko", "--width", "100")
    assert code == 0
    assert out.splitlines()[0] == "6건 중 1~6번째"
    table = [line for line in out.splitlines() if line[:1] in "┏┃┡│└"]
    assert any(re.search("[가-힣]", line) for line in table)
    widths = {cell_len(line) for line in table}
    assert len(widths) == 1 and widths.pop() <= 100, "every table row must be as wide as the border"
    borders = [line for line in table if line[:1] in "│┃"]
    columns = {tuple(index for index, _ in _cell_positions(line)) for line in borders}
    assert len(columns) == 1, "column separators must sit at the same screen columns on every row"


def _cell_positions(line: str) -> list[tuple[int, str]]:
    positions, column = [], 0
    for character in line:
        if character in "│┃":
            positions.append((column, character))
        column += cell_len(character)
    return positions


def test_list_english_range_line(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "incidents", "list", "--lang", "en", "--per-page", "4")
    assert out.splitlines()[0] == "1-4 of 6"


def test_unknown_facet_value_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "incidents", "list", "--cause", "gpu-faults")
    assert code == 2 and out == ""
    assert err == "Error: unknown cause value 'gpu-faults'; did you mean gpu-fault?\n"


def test_show_prints_nine_sections_in_order(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "incidents", "show", FOXTROT, "--lang", "en")
    assert code == 0
    headings = [
        "Symptom",
        "Trigger",
        "Cause",
        "Components",
        "Contributing factors",
        "Detection",
        "Actions",
        "Follow-ups",
        "Lessons",
    ]
    lines = out.splitlines()
    positions = [lines.index(heading) for heading in headings]
    assert positions == sorted(positions)
    assert "GPU has fallen off the bus" in out and "https://example.org/foxtrot/paper" in out
    assert "Sources" in lines and "Error signatures" in lines


def test_show_prints_impact_in_korean(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "incidents", "show", "alpha-2023-01-ecc-relaunches", "--lang", "ko")
    assert code == 0
    assert "영향" in out.splitlines() and "재시작 횟수: 40" in out
    assert "Uncorrectable ECC error at address 0x7f3a00001000" in out


def test_show_json_and_unknown_id(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "incidents", "show", BRAVO, "--json")
    assert code == 0
    data = json.loads(out)
    assert data["id"] == BRAVO and data["tags"]["contributing-factor"] == [
        "hang-instead-of-fail",
        "monitoring-gap",
    ]
    code, out, err = run(capsys, "incidents", "show", "no-such-case")
    assert (code, out, err) == (2, "", "Error: no incident with id 'no-such-case'\n")


def test_facets_tree_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "facets", "--lang", "en")
    assert code == 0
    assert re.search(r"Hardware fault 3 incidents · hardware-fault", out)
    assert re.search(r"[│ ]   [└├]── GPU memory fault 1 incident · gpu-memory-error", out)  # nested two deep
    assert "Software bug 0 incidents" in out
    code, out, _ = run(capsys, "facets", "--json", "--lang", "ko")
    data = json.loads(out)
    assert data["cause"]["label"] == "원인"
    terms = {term["term_id"]: term for term in data["component"]["terms"]}
    assert terms["gpu"]["count"] == 3 and terms["gpu"]["parent"] == "accelerator"
    assert len(data["cause"]["terms"]) == 7


def test_similar_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "incidents", "similar", FOXTROT, "--json", "--lang", "en", "--limit", "2")
    assert code == 0
    data = json.loads(out)
    assert [item["id"] for item in data] == ["delta-2022-09-driver-upgrade", BRAVO]
    assert data[0]["reasons"] == ["Component: GPU", "Same error signature: GPU has fallen off the bus"]


def test_narrow_korean_table_wraps_without_losing_characters(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "60")
    code, out, _ = run(capsys, "incidents", "list", "--lang", "ko", "--width", "60")
    assert code == 0
    titles = "".join(line.split("│")[2] for line in out.splitlines() if line.startswith("│"))
    titles = "".join(titles.split())
    code, data, _ = run(capsys, "incidents", "list", "--lang", "ko", "--json")
    for hit in json.loads(data)["hits"]:
        assert "".join(hit["title"].split()) in titles, hit["title"]


def test_facets_include_the_organisations(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "facets", "--lang", "en")
    assert code == 0
    assert re.search(r"Delta Compute 2 incidents · delta-compute", out)
    assert re.search(r"[└├]── Charlie Cloud 1 incident · charlie-cloud", out)  # drawn under its parent
    code, out, _ = run(capsys, "facets", "--json", "--lang", "ko")
    data = json.loads(out)
    assert data["organization"]["label"] == "조직"
    terms = {term["term_id"]: term for term in data["organization"]["terms"]}
    assert terms["charlie-cloud"] == {
        "term_id": "charlie-cloud",
        "label": "찰리 클라우드",
        "count": 1,
        "selected": False,
        "parent": "delta-compute",
    }


def test_list_by_scope(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "incidents", "list", "--scope", "platform", "--json", "--lang", "en")
    assert code == 0
    data = json.loads(out)
    assert [hit["id"] for hit in data["hits"]] == [CHARLIE]
    assert data["query"]["filters"]["scope"] == ["platform"] and data["hits"][0]["scope"] == "platform"
    code, out, _ = run(capsys, "incidents", "list", "--scope", "ai-infra", "--json", "--lang", "en")
    assert CHARLIE not in [hit["id"] for hit in json.loads(out)["hits"]]
    code, _, err = run(capsys, "incidents", "list", "--scope", "ml-product")
    assert code == 2 and "ml-product" in err
